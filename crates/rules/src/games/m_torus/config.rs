//! What `m-torus` takes and says about itself: its parameters, read once into an
//! [`MTorusConfig`] (the board's width and height, the pie rule), and its [`RuleSet`] descriptor.

use super::{MRules, MTorus};
use crate::games::loops::LoopConfig;
use crate::games::rule_set::{BoardSize, RuleSet, TOROID_SGF_GAME};
use crate::outcome::Reason;
use crate::params::ParamSpec;
use crate::symmetry::Symmetries;

/// An `m-torus` game's parameters, read and checked.
pub type MTorusConfig = LoopConfig<MRules>;

impl MTorus {
    pub const RULE_SET: RuleSet = RuleSet {
        name: "m-torus",
        summary: "Mark Steere's M-Torus: hex cells on a projective plane; first simple loop through the reversed seams wins",
        params: MTorus::PARAMS,
        board: BoardSize::Rectangular("width", "height"),
        sgf_game: TOROID_SGF_GAME,
        go_like: false,
        pass_always_legal: false,
        komi: None,
        capture_target: None,
        move_limit: None,
    scoring_phase: None,
        named_rules: &[],
        reasons: &[Reason::SeamLoop],
        symmetries: Symmetries::Board,
    };

    pub const PARAMS: &[ParamSpec] = &[
        ParamSpec::int("width", 9, 4, 52, "cells per row"),
        ParamSpec::int("height", 9, 5, 51, "rows (odd)"),
        crate::games::loops::SWAP,
    ];
}
