//! The players' agreement on a Go game's dead stones after two passes (`scoring_phase =
//! agreement`): the stones marked dead and who accepts them.

use serde::{Deserialize, Serialize};
use toroid_rules::{Cell, Color};

/// The dead stones marked on the board two passes left, and the players who accept them as
/// marked. Any change of the marks withdraws every acceptance. Stored as JSON
/// (`{"dead":[12,13],"accepted":["white"]}`, cells by index).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counting {
    dead: Vec<u16>,
    accepted: Vec<Color>,
}

impl Counting {
    /// The server's proposal: `dead` marked, nobody accepting yet.
    pub fn proposed(dead: &[Cell]) -> Counting {
        let mut counting = Counting::default();
        counting.set_dead(dead);
        counting
    }

    pub fn dead(&self) -> Vec<Cell> {
        self.dead.iter().map(|&c| Cell(c)).collect()
    }

    /// Whether `dead` (in any order) are the stones marked.
    pub fn marks(&self, dead: &[Cell]) -> bool {
        let mut given: Vec<u16> = dead.iter().map(|c| c.0).collect();
        given.sort_unstable();
        given.dedup();
        given == self.dead
    }

    /// The marks with `chain` (one chain's stones) toggled: marked dead if none of it was,
    /// alive otherwise. Every acceptance is withdrawn.
    pub fn toggled(&self, chain: &[Cell]) -> Counting {
        let marked = chain.iter().any(|c| self.dead.contains(&c.0));
        let mut dead: Vec<Cell> = self
            .dead()
            .into_iter()
            .filter(|c| !chain.contains(c))
            .collect();
        if !marked {
            dead.extend_from_slice(chain);
        }
        Counting::proposed(&dead)
    }

    /// The same marks, accepted by `colors` too.
    pub fn accepted_by(&self, colors: &[Color]) -> Counting {
        let mut counting = self.clone();
        for &color in colors {
            if !counting.accepted.contains(&color) {
                counting.accepted.push(color);
            }
        }
        counting.accepted.sort_by_key(|c| c.index());
        counting
    }

    pub fn accepts(&self, color: Color) -> bool {
        self.accepted.contains(&color)
    }

    /// Whether both players accept.
    pub fn agreed(&self) -> bool {
        Color::BOTH.into_iter().all(|c| self.accepts(c))
    }

    fn set_dead(&mut self, dead: &[Cell]) {
        self.dead = dead.iter().map(|c| c.0).collect();
        self.dead.sort_unstable();
        self.dead.dedup();
    }

    /// As stored.
    pub fn stored(&self) -> String {
        serde_json::to_string(self).expect("counting serializes")
    }

    /// As stored, read back.
    pub fn from_stored(text: &str) -> Result<Counting, String> {
        serde_json::from_str(text).map_err(|e| format!("counting: {e}"))
    }
}
