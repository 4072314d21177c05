//! What `hex-torus` takes and says about itself: its parameters, read once into a [`HexTorusConfig`]
//! (the board's width and height, the pie rule), and its [`RuleSet`] descriptor.

use super::{HexRules, HexTorus};
use crate::games::loops::LoopConfig;
use crate::games::rule_set::{BoardSize, RuleSet, TOROID_SGF_GAME};
use crate::outcome::Reason;
use crate::params::ParamSpec;
use crate::symmetry::Symmetries;

/// A `hex-torus` game's parameters, read and checked.
pub type HexTorusConfig = LoopConfig<HexRules>;

impl HexTorus {
    pub const RULE_SET: RuleSet = RuleSet {
        name: "hex-torus",
        summary: "Mark Steere's Torus: hex cells on a torus; black makes a ring or right helix, white a bracelet or left helix",
        params: HexTorus::PARAMS,
        board: BoardSize::Rectangular("width", "height"),
        sgf_game: TOROID_SGF_GAME,
        go_like: false,
        pass_always_legal: false,
        komi: None,
        capture_target: None,
        move_limit: None,
    scoring_phase: None,
        named_rules: &[],
        reasons: &[Reason::Ring, Reason::Bracelet, Reason::RightHelix, Reason::LeftHelix],
        symmetries: Symmetries::Shifts,
    };

    pub const PARAMS: &[ParamSpec] = &[
        ParamSpec::int("width", 8, 4, 52, "cells per row"),
        ParamSpec::int("height", 8, 4, 52, "rows (even)"),
        crate::games::loops::SWAP,
    ];
}
