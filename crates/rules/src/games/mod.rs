//! The rule sets, one module each, and [`AnyGame`], which holds any of them.

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use thiserror::Error;

use crate::cell::Cell;
use crate::color::Color;
use crate::moves::{IllegalMove, Move};
use crate::outcome::Outcome;
use crate::params::{ParamError, ParamSpec, Params};
use crate::position::{EndPhase, Position};
use crate::setup::{SetupChange, SetupError};
use crate::topology::Topology;

pub mod capture_go;
pub mod ctor;
pub mod go;
pub mod hex_torus;
mod loops;
pub mod m_torus;
pub mod rule_set;
mod square;
pub mod torus;

pub use capture_go::CaptureGoConfig;
pub use ctor::{Ctor, CtorConfig};
pub use go::{Go, GoConfig};
pub use hex_torus::{HexTorus, HexTorusConfig};
pub use loops::LoopConfig;
pub use m_torus::{MTorus, MTorusConfig};
pub use rule_set::{BoardSize, NamedRules, RuleSet, TOROID_SGF_GAME};
pub use square::SquareConfig;
pub use torus::{Torus, TorusConfig};

/// The rule sets (docs/rules.md). This enum (with [`GameKind::ALL`]), [`AnyGame`], and the
/// arms of [`GameKind::rule_set`], [`GameKind::start`] and [`with_game!`](crate::with_game) are the
/// registry: a new rule set is a module plus one line in each (docs/architecture.md,
/// "Adding a rule set").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Torus,
    HexTorus,
    MTorus,
    Ctor,
    CaptureGo,
    Go,
}

impl GameKind {
    pub const ALL: [GameKind; 6] = [
        GameKind::Torus,
        GameKind::HexTorus,
        GameKind::MTorus,
        GameKind::Ctor,
        GameKind::CaptureGo,
        GameKind::Go,
    ];

    /// What the rule set says about itself: the one place that names each rule set's
    /// description. Everything else the other layers need to know they ask it.
    pub fn rule_set(self) -> &'static RuleSet {
        match self {
            GameKind::Torus => &Torus::RULE_SET,
            GameKind::HexTorus => &HexTorus::RULE_SET,
            GameKind::MTorus => &MTorus::RULE_SET,
            GameKind::Ctor => &Ctor::RULE_SET,
            GameKind::CaptureGo => &capture_go::CAPTURE_GO_RULE_SET,
            GameKind::Go => &go::GO_RULE_SET,
        }
    }

    pub fn name(self) -> &'static str {
        self.rule_set().name
    }

    /// One line on what the game is.
    pub fn summary(self) -> &'static str {
        self.rule_set().summary
    }

    /// The parameters this rule set takes.
    pub fn params(self) -> &'static [ParamSpec] {
        self.rule_set().params
    }

    /// A new game of this rule set from `KEY=VALUE` assignments (the text of the command
    /// line).
    pub fn new_game<S: AsRef<str>>(self, assignments: &[S]) -> Result<AnyGame, ParamError> {
        self.start(&Params::parse(self.params(), assignments)?)
    }

    /// A new game of this rule set from parameter values, which must follow its
    /// specification: the rule set reads them into its own config.
    pub fn start(self, params: &Params) -> Result<AnyGame, ParamError> {
        if params.spec() != self.params() {
            return Err(ParamError::Invalid(format!(
                "these parameters are not {self}'s"
            )));
        }
        Ok(match self {
            GameKind::Torus => AnyGame::Torus(Torus::new(params)?),
            GameKind::HexTorus => AnyGame::HexTorus(HexTorus::new(params)?),
            GameKind::MTorus => AnyGame::MTorus(MTorus::new(params)?),
            GameKind::Ctor => AnyGame::Ctor(Ctor::new(params)?),
            GameKind::CaptureGo => AnyGame::Go(Go::capture_go(params)?),
            GameKind::Go => AnyGame::Go(Go::go(params)?),
        })
    }

    /// Every rule set's name, joined by commas (for error messages).
    pub fn names() -> String {
        GameKind::ALL.map(GameKind::name).join(", ")
    }

    /// A new game of this rule set with every parameter at its default.
    pub fn default_game(self) -> AnyGame {
        self.new_game::<&str>(&[]).expect("defaults are valid")
    }
}

/// Go: the game GTP controllers expect before they choose another, and the one an SGF file
/// means when it names none.
impl Default for GameKind {
    fn default() -> GameKind {
        GameKind::Go
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown game '{0}' (known: {known})", known = GameKind::names())]
pub struct UnknownGame(pub String);

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<GameKind, UnknownGame> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

/// A rule set travels in JSON as its name (`"hex-torus"`).
impl serde::Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<GameKind, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// A game of any rule set, for code that picks the rule set at run time. Search code that
/// wants every nanosecond can be generic over [`Position`] instead.
#[derive(Clone, Debug)]
pub enum AnyGame {
    Torus(Torus),
    HexTorus(HexTorus),
    MTorus(MTorus),
    Ctor(Ctor),
    Go(Go),
}

/// Runs `$body` with `$g` bound to the rule set's own game type inside an [`AnyGame`]: the
/// one hand-written dispatch from run-time choice to code generic over [`Position`]. Code in
/// other crates uses it as `toroid_rules::with_game!(game, g => search(g))`, so that a new
/// rule set is one more arm here and the compiler checks every use against it.
#[macro_export]
macro_rules! with_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            $crate::AnyGame::Torus($g) => $body,
            $crate::AnyGame::HexTorus($g) => $body,
            $crate::AnyGame::MTorus($g) => $body,
            $crate::AnyGame::Ctor($g) => $body,
            $crate::AnyGame::Go($g) => $body,
        }
    };
}

impl Position for AnyGame {
    fn kind(&self) -> GameKind {
        with_game!(self, g => g.kind())
    }
    fn params(&self) -> &Params {
        with_game!(self, g => g.params())
    }
    fn topology(&self) -> &Topology {
        with_game!(self, g => g.topology())
    }
    fn stone(&self, cell: Cell) -> Option<Color> {
        with_game!(self, g => g.stone(cell))
    }
    fn stones(&self, out: &mut [Option<Color>]) {
        with_game!(self, g => g.stones(out))
    }
    fn turn(&self) -> Option<Color> {
        with_game!(self, g => g.turn())
    }
    fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.outcome())
    }
    fn legal_moves(&self, out: &mut Vec<Move>) {
        with_game!(self, g => g.legal_moves(out))
    }
    fn legal_mask(&self, mask: &mut [bool]) {
        with_game!(self, g => g.legal_mask(mask))
    }
    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        with_game!(self, g => g.play(mv))
    }
    fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        with_game!(self, g => g.check(mv))
    }
    fn setup(&mut self, changes: &[SetupChange], to_move: Color) -> Result<(), SetupError> {
        with_game!(self, g => g.setup(changes, to_move))
    }
    fn hash(&self) -> u64 {
        with_game!(self, g => g.hash())
    }
    fn ply(&self) -> usize {
        with_game!(self, g => g.ply())
    }
    fn captures(&self) -> [u32; 2] {
        with_game!(self, g => g.captures())
    }
    fn score(&self) -> Option<[f64; 2]> {
        with_game!(self, g => g.score())
    }
    fn territory(&self) -> Option<Vec<Option<Color>>> {
        with_game!(self, g => g.territory())
    }
    fn end_phase(&self) -> EndPhase {
        with_game!(self, g => g.end_phase())
    }
    fn outcome_with_dead(&self, dead: &[Cell]) -> Option<Outcome> {
        with_game!(self, g => g.outcome_with_dead(dead))
    }
    fn chain(&self, cell: Cell) -> Vec<Cell> {
        with_game!(self, g => g.chain(cell))
    }
    fn ring_code(&self, cell: Cell) -> u32 {
        with_game!(self, g => g.ring_code(cell))
    }
    fn empty_cells(&self) -> usize {
        with_game!(self, g => g.empty_cells())
    }
    fn highlight(&self) -> Vec<Cell> {
        with_game!(self, g => g.highlight())
    }
    fn playout_move<R: Rng>(&self, rng: &mut R) -> Option<Move> {
        with_game!(self, g => g.playout_move(rng))
    }
    fn play_playout_move<R: Rng>(&mut self, rng: &mut R) -> Option<Move> {
        with_game!(self, g => g.play_playout_move(rng))
    }
    fn play_legal(&mut self, mv: Move) {
        with_game!(self, g => g.play_legal(mv))
    }
    fn uniform_move<R: Rng>(&self, rng: &mut R) -> Option<Move> {
        with_game!(self, g => g.uniform_move(rng))
    }
    fn start_playout(&mut self) {
        with_game!(self, g => g.start_playout())
    }
}

#[cfg(test)]
mod tests {
    use super::GameKind;

    #[test]
    fn a_rule_set_goes_to_json_and_back_as_its_name() {
        for kind in GameKind::ALL {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
            assert_eq!(serde_json::from_str::<GameKind>(&json).unwrap(), kind);
        }
        let refused = serde_json::from_str::<GameKind>("\"chess\"").unwrap_err();
        assert!(
            refused.to_string().contains("unknown game 'chess'"),
            "{refused}"
        );
    }
}
