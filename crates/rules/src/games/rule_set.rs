//! What a rule set tells the other layers about itself. Records, protocols, the search and
//! the server ask a [`RuleSet`] these questions instead of matching on the rule set, so that
//! a new rule set answers them in its own module.

use crate::outcome::Reason;
use crate::params::{ParamSpec, ParamValue};
use crate::symmetry::Symmetries;

/// A rule set's description: its name, parameters, and what records and protocols need.
#[derive(Debug)]
pub struct RuleSet {
    /// The name in records, on the command line and in the API (`hex-torus`).
    pub name: &'static str,
    /// One line on what the game is.
    pub summary: &'static str,
    /// The parameters it takes.
    pub params: &'static [ParamSpec],
    /// How its board size is set: SGF's `SZ` and GTP's `boardsize` give it.
    pub board: BoardSize,
    /// SGF's `GM` number: 1 for the Go family (read by every Go program), otherwise
    /// [`TOROID_SGF_GAME`] with the name in `TG`.
    pub sgf_game: u16,
    /// Whether it is Go for GTP: standard commands (`play`, `genmove`, `final_score`, ...)
    /// speak GTP vertices, and a plain Go engine may play it on a square plane board.
    pub go_like: bool,
    /// Whether a pass is always legal, so that a controller may pass for one player to let
    /// the other move.
    pub pass_always_legal: bool,
    /// The parameter that holds komi, which SGF's `KM` and GTP's `komi` set.
    pub komi: Option<&'static str>,
    /// The parameter that holds the captures that win at once (capture-go's `target`).
    pub capture_target: Option<&'static str>,
    /// The parameter that holds the most moves a game lasts (Go's `max_moves`).
    pub move_limit: Option<&'static str>,
    /// The parameter that chooses what follows two passes (Go's scoring phase: `none`,
    /// `cleanup` or `agreement`), which a server sets per game.
    pub scoring_phase: Option<&'static str>,
    /// The standard rule names of SGF's `RU` that it knows, and the parameters each means.
    pub named_rules: &'static [NamedRules],
    /// Every reason a game of it can end by its rules.
    pub reasons: &'static [Reason],
    /// Which of a board's symmetries keep its rules ([`crate::symmetry::symmetries`]).
    pub symmetries: Symmetries,
}

impl RuleSet {
    /// The standard rules called `name` (any case, surrounding spaces ignored), if the rule
    /// set knows them.
    pub fn rules_named(&self, name: &str) -> Option<&'static NamedRules> {
        (self.named_rules.iter()).find(|named| named.name.eq_ignore_ascii_case(name.trim()))
    }
}

/// The `GM` number of toroid's own rule sets in SGF (with `TG` naming the rule set).
pub const TOROID_SGF_GAME: u16 = 100;

/// Which parameters a board size sets.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BoardSize {
    /// A square board: one parameter for its side.
    Square(&'static str),
    /// A rectangular board: the width's parameter, then the height's.
    Rectangular(&'static str, &'static str),
}

impl BoardSize {
    /// Whether the parameter called `name` is one that a board size sets.
    pub fn sets(self, name: &str) -> bool {
        match self {
            BoardSize::Square(side) => name == side,
            BoardSize::Rectangular(w, h) => name == w || name == h,
        }
    }

    /// The parameter values of a `width × height` board, or `None` if the board must be
    /// square and is not.
    pub fn assignments(
        self,
        width: usize,
        height: usize,
    ) -> Option<Vec<(&'static str, ParamValue)>> {
        let value = |n: usize| ParamValue::Int(n as i64);
        match self {
            BoardSize::Square(side) => (width == height).then(|| vec![(side, value(width))]),
            BoardSize::Rectangular(w, h) => Some(vec![(w, value(width)), (h, value(height))]),
        }
    }
}

/// A standard rule name (SGF's `RU`, such as `Japanese`) and the parameter values it means.
#[derive(Debug)]
pub struct NamedRules {
    pub name: &'static str,
    pub params: &'static [(&'static str, &'static str)],
}

impl NamedRules {
    /// The parameter values, to assign.
    pub fn assignments(&self) -> impl Iterator<Item = (&'static str, ParamValue)> {
        (self.params.iter()).map(|&(key, value)| (key, ParamValue::Choice(value)))
    }
}
