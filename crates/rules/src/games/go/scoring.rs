//! Go's scoring methods, as the seed defines them (no dead-stone removal, no prisoners).

use super::board::Board;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Stones on the board plus territory.
    Area,
    /// Empty regions that border stones of one colour only.
    Territory,
    /// Stones on the board.
    Stone,
}

impl Scoring {
    pub(crate) fn from_name(name: &str) -> Option<Scoring> {
        match name {
            "area" => Some(Scoring::Area),
            "territory" => Some(Scoring::Territory),
            "stone" => Some(Scoring::Stone),
            _ => None,
        }
    }

    /// Whether empty regions count (area and territory scoring, not stone scoring).
    pub(crate) fn counts_territory(self) -> bool {
        self != Scoring::Stone
    }

    /// Each player's score on `board`, `komi` added to white's.
    pub(crate) fn score(self, board: &Board, komi: f64) -> [f64; 2] {
        let stones = board.stone_counts();
        let points = match self {
            Scoring::Stone => stones,
            Scoring::Territory => board.territory(),
            Scoring::Area => {
                let territory = board.territory();
                [stones[0] + territory[0], stones[1] + territory[1]]
            }
        };
        [points[0] as f64, points[1] as f64 + komi]
    }
}
