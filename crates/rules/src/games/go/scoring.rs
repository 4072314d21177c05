//! Go's scoring methods: the seed's three (no dead-stone removal, no prisoners), and Japanese
//! counting, territory plus prisoners.

use super::board::Board;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Stones on the board plus territory.
    Area,
    /// Empty regions that border stones of one colour only.
    Territory,
    /// Territory plus prisoners, the stones the player has captured, as Japanese rules
    /// count (dead stones are still not taken off: they count as they stand).
    Japanese,
    /// Stones on the board.
    Stone,
}

impl Scoring {
    pub(crate) fn from_name(name: &str) -> Option<Scoring> {
        match name {
            "area" => Some(Scoring::Area),
            "territory" => Some(Scoring::Territory),
            "japanese" => Some(Scoring::Japanese),
            "stone" => Some(Scoring::Stone),
            _ => None,
        }
    }

    /// Whether empty regions count (area, territory and Japanese scoring, not stone scoring).
    pub(crate) fn counts_territory(self) -> bool {
        self != Scoring::Stone
    }

    /// Whether a stone placed in one's own territory costs a point: territory and Japanese
    /// scoring, where the point no longer counts and the stone does not either.
    pub fn charges_own_territory(self) -> bool {
        matches!(self, Scoring::Territory | Scoring::Japanese)
    }

    /// Each player's score on `board`, with `captures` the stones each player has captured,
    /// `komi` added to white's.
    pub(crate) fn score(self, board: &Board, captures: [u32; 2], komi: f64) -> [f64; 2] {
        let stones = board.stone_counts();
        let points = match self {
            Scoring::Stone => stones,
            Scoring::Territory => board.territory(),
            Scoring::Japanese => {
                let territory = board.territory();
                [territory[0] + captures[0], territory[1] + captures[1]]
            }
            Scoring::Area => {
                let territory = board.territory();
                [stones[0] + territory[0], stones[1] + territory[1]]
            }
        };
        [points[0] as f64, points[1] as f64 + komi]
    }
}

/// What follows two passes in `go` (docs/rules.md, "Dead stones").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoringPhase {
    /// The game ends: every stone counts as it stands (Tromp–Taylor).
    None,
    /// Play goes on from the same board until two more passes; the stones of the board the
    /// first two passes left that are captured meanwhile count as dead on it (KGS's cleanup).
    Cleanup,
    /// The players agree on the dead stones of the board the two passes left; a dispute
    /// goes on as [`ScoringPhase::Cleanup`].
    Agreement,
}

impl ScoringPhase {
    pub(crate) fn from_name(name: &str) -> Option<ScoringPhase> {
        match name {
            "none" => Some(ScoringPhase::None),
            "cleanup" => Some(ScoringPhase::Cleanup),
            "agreement" => Some(ScoringPhase::Agreement),
            _ => None,
        }
    }
}
