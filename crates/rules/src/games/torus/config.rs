//! What `torus` takes and says about itself: its parameters, read once into a
//! [`TorusConfig`], and its [`RuleSet`] descriptor.

use super::{Torus, MAX_SIZE, MIN_SIZE};
use crate::games::rule_set::{BoardSize, RuleSet, TOROID_SGF_GAME};
use crate::games::square::SquareConfig;
use crate::outcome::Reason;
use crate::params::ParamSpec;
use crate::symmetry::Symmetries;

/// A `torus` game's parameters, read and checked.
pub type TorusConfig = SquareConfig<Torus>;

impl Torus {
    pub const RULE_SET: RuleSet = RuleSet {
        name: "torus",
        summary: "Go-like game on a torus: surround one enemy stone to win, capture along diagonals, no repeated boards",
        params: Torus::PARAMS,
        board: BoardSize::Square("size"),
        sgf_game: TOROID_SGF_GAME,
        go_like: false,
        // A pass is legal only without a legal placement.
        pass_always_legal: false,
        komi: None,
        capture_target: None,
        move_limit: None,
    scoring_phase: None,
        named_rules: &[],
        reasons: &[Reason::Surrounded, Reason::TwoPasses],
        symmetries: Symmetries::Board,
    };

    pub const PARAMS: &[ParamSpec] = &[ParamSpec::int(
        "size",
        9,
        MIN_SIZE as i64,
        MAX_SIZE as i64,
        "side of the square board",
    )];
}
