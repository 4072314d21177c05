//! What `go` takes and says about itself: its parameters, read once into a [`GoConfig`], and
//! its [`RuleSet`] descriptor. `capture-go` shares the board parameters read here.

use super::{KoRule, Scoring, ScoringPhase};
use crate::games::rule_set::{BoardSize, NamedRules, RuleSet};
use crate::outcome::Reason;
use crate::params::{ParamDefault, ParamError, ParamKind, ParamSpec, ParamValue, Params};
use crate::symmetry::Symmetries;
use crate::topology::Surface;

/// A `go` game's parameters, read and checked, with `max_moves` worked out when left to its
/// default.
#[derive(Clone, Debug)]
pub struct GoConfig {
    /// The side of the square board.
    pub size: usize,
    /// How the board's edges are glued (`topology`).
    pub surface: Surface,
    /// Points added to white's score.
    pub komi: f64,
    pub scoring: Scoring,
    pub ko: KoRule,
    /// What follows two passes.
    pub phase: ScoringPhase,
    /// The game ends after this many moves, passes included.
    pub max_moves: u32,
    params: Params,
}

impl GoConfig {
    /// Reads `go`'s parameters; `max_moves` defaults to 3 × the number of points, and
    /// `scoring_phase` to `none`.
    pub fn read(params: &Params) -> Result<GoConfig, ParamError> {
        let (size, surface) = read_board(params)?;
        let mut params = params.clone();
        if params.int("max_moves").is_none() {
            // A derived default is checked like any value.
            params.assign("max_moves", ParamValue::Int(3 * (size * size) as i64))?;
        }
        if params.choice("scoring_phase").is_none() {
            params.assign("scoring_phase", ParamValue::Choice("none"))?;
        }
        Ok(GoConfig {
            size,
            surface,
            komi: params.required_float("komi")?,
            scoring: params.required_choice("scoring", Scoring::from_name)?,
            ko: params.required_choice("ko", KoRule::from_name)?,
            phase: params.required_choice("scoring_phase", ScoringPhase::from_name)?,
            max_moves: params.required_int("max_moves")? as u32,
            params,
        })
    }

    /// The parameters, `max_moves` resolved, for records.
    pub fn params(&self) -> &Params {
        &self.params
    }
}

/// The side and the surface of a Go board, as `go` and `capture-go` both take them.
pub(crate) fn read_board(params: &Params) -> Result<(usize, Surface), ParamError> {
    let size = params.required_int("size")? as usize;
    let surface = params.required_choice("topology", surface_named)?;
    Ok((size, surface))
}

/// The surface of a `topology` value: a surface's own name, or `projective` for the
/// projective plane.
fn surface_named(name: &str) -> Option<Surface> {
    match name {
        "projective" => Some(Surface::ProjectivePlane),
        _ => Surface::ALL.into_iter().find(|s| s.name() == name),
    }
}

/// The board's side, as `go` and `capture-go` both take it.
pub(crate) const BOARD_SIZE: ParamSpec =
    ParamSpec::int("size", 9, 2, 25, "side of the square board");

/// The board's surface, as `go` and `capture-go` both take it.
pub(crate) const BOARD_TOPOLOGY: ParamSpec = ParamSpec::choice(
    "topology",
    "plane",
    TOPOLOGIES,
    "how the board edges are glued",
);

/// The values of `topology`.
const TOPOLOGIES: &[&str] = &[
    "plane",
    "cylinder",
    "mobius",
    "torus",
    "klein",
    "projective",
];

pub const GO_RULE_SET: RuleSet = RuleSet {
    name: "go",
    summary: "Go with komi, ko rule, move limit and area, territory, Japanese or stone scoring",
    params: GO_PARAMS,
    board: BoardSize::Square("size"),
    sgf_game: 1,
    go_like: true,
    pass_always_legal: true,
    komi: Some("komi"),
    capture_target: None,
    move_limit: Some("max_moves"),
    scoring_phase: Some("scoring_phase"),
    named_rules: &[
        NamedRules {
            name: "Japanese",
            params: &[("scoring", "japanese"), ("ko", "simple")],
        },
        NamedRules {
            name: "Korean",
            params: &[("scoring", "japanese"), ("ko", "simple")],
        },
        NamedRules {
            name: "Chinese",
            params: &[("scoring", "area"), ("ko", "positional")],
        },
        NamedRules {
            name: "AGA",
            params: &[("scoring", "area"), ("ko", "situational")],
        },
        NamedRules {
            name: "NZ",
            params: &[("scoring", "area"), ("ko", "situational")],
        },
        NamedRules {
            name: "GOE",
            params: &[("scoring", "area"), ("ko", "situational")],
        },
    ],
    reasons: &[Reason::TwoPasses, Reason::MoveLimit],
    symmetries: Symmetries::Board,
};

pub const GO_PARAMS: &[ParamSpec] = &[
    BOARD_SIZE,
    BOARD_TOPOLOGY,
    ParamSpec::float(
        "komi",
        7.5,
        -1000.0,
        1000.0,
        "points added to white's score",
    ),
    ParamSpec::choice(
        "scoring",
        "area",
        &["area", "territory", "japanese", "stone"],
        "scoring method",
    ),
    ParamSpec::choice(
        "ko",
        "simple",
        &["simple", "positional", "situational"],
        "repetition rule",
    ),
    ParamSpec {
        name: "max_moves",
        kind: ParamKind::Int {
            min: 1,
            max: 100_000,
        },
        default: ParamDefault::Derived("3 × number of points"),
        help: "the game ends after this many moves (passes count)",
    },
    // Derived: a server chooses by the players where the game's creator does not.
    ParamSpec {
        name: "scoring_phase",
        kind: ParamKind::Choice(&["none", "cleanup", "agreement"]),
        default: ParamDefault::Derived("none; toroid serve: agreement between people, cleanup with bots"),
        help: "after two passes: none (the game ends, stones count as they stand), cleanup (play goes on until the next two passes; stones captured then count as dead) or agreement (the players agree on dead stones; a dispute goes on as cleanup)",
    },
];
