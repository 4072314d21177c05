//! `capture-go` (docs/rules.md, "capture-go and go"): Go won at once by the first player to
//! capture `target` stones. It plays on [`Go`]'s engine; this module holds what makes it its
//! own rule set: its parameters, read once into a [`CaptureGoConfig`], and its [`RuleSet`]
//! descriptor.

use crate::games::go::{read_board, Go, Rules, BOARD_SIZE, BOARD_TOPOLOGY};
use crate::games::rule_set::{BoardSize, RuleSet};
use crate::outcome::Reason;
use crate::params::{ParamError, ParamSpec, Params};
use crate::symmetry::Symmetries;
use crate::topology::Surface;

/// A `capture-go` game's parameters, read and checked.
#[derive(Clone, Debug)]
pub struct CaptureGoConfig {
    /// The side of the square board.
    pub size: usize,
    /// How the board's edges are glued (`topology`).
    pub surface: Surface,
    /// Captured stones that win at once.
    pub target: u32,
    params: Params,
}

impl CaptureGoConfig {
    pub fn read(params: &Params) -> Result<CaptureGoConfig, ParamError> {
        let (size, surface) = read_board(params)?;
        Ok(CaptureGoConfig {
            size,
            surface,
            target: params.required_int("target")? as u32,
            params: params.clone(),
        })
    }

    /// The parameters this config was read from, for records.
    pub fn params(&self) -> &Params {
        &self.params
    }
}

impl From<CaptureGoConfig> for Go {
    fn from(config: CaptureGoConfig) -> Go {
        Go::start(Rules::CaptureGo(config))
    }
}

pub const CAPTURE_GO_RULE_SET: RuleSet = RuleSet {
    name: "capture-go",
    summary: "Capture Go: first to capture the target number of stones wins",
    params: CAPTURE_GO_PARAMS,
    board: BoardSize::Square("size"),
    sgf_game: 1,
    go_like: true,
    pass_always_legal: true,
    komi: None,
    capture_target: Some("target"),
    move_limit: None,
    scoring_phase: None,
    named_rules: &[],
    reasons: &[Reason::CaptureTarget, Reason::TwoPasses],
    symmetries: Symmetries::Board,
};

pub const CAPTURE_GO_PARAMS: &[ParamSpec] = &[
    BOARD_SIZE,
    BOARD_TOPOLOGY,
    ParamSpec::int("target", 5, 1, 625, "captured stones that win at once"),
];
