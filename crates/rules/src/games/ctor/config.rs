//! What `ctor` takes and says about itself: its parameters, read once into a [`CtorConfig`],
//! and its [`RuleSet`] descriptor.

use super::{Ctor, MAX_SIZE, MIN_SIZE};
use crate::games::rule_set::{BoardSize, RuleSet, TOROID_SGF_GAME};
use crate::games::square::SquareConfig;
use crate::outcome::Reason;
use crate::params::ParamSpec;
use crate::symmetry::Symmetries;

/// A `ctor` game's parameters, read and checked.
pub type CtorConfig = SquareConfig<Ctor>;

impl Ctor {
    pub const RULE_SET: RuleSet = RuleSet {
        name: "ctor",
        summary: "CTOR: torus with 8 neighbours, two placements a turn, stones with 5+ enemy neighbours turn over",
        params: Ctor::PARAMS,
        board: BoardSize::Square("size"),
        sgf_game: TOROID_SGF_GAME,
        go_like: false,
        pass_always_legal: false,
        komi: None,
        capture_target: None,
        move_limit: None,
    scoring_phase: None,
        named_rules: &[],
        reasons: &[Reason::BoardFull],
        symmetries: Symmetries::Board,
    };

    pub const PARAMS: &[ParamSpec] = &[ParamSpec::int(
        "size",
        10,
        MIN_SIZE as i64,
        MAX_SIZE as i64,
        "side of the square board",
    )];
}
