//! What game is played: a rule set and its parameters.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use toroid_protocol::view::ParamsView;
use toroid_rules::{AnyGame, GameKind, ParamError, Params, Position};

/// A rule set and every one of its parameters, resolved (derived defaults filled in). Every
/// value of this type starts a game: it is made only from parameters the rule set accepted.
/// Between nodes it travels as `{"game": "go", "params": {"size": 9, …}}`, checked again
/// when read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Named", into = "Named")]
pub struct GameSpec {
    kind: GameKind,
    params: Params,
}

impl GameSpec {
    /// `kind` with the `given` parameters (numbers or strings by name, as the API and JSON
    /// records give them), the others at their defaults; refused as the rule set refuses them.
    pub fn new(kind: GameKind, given: &Map<String, Value>) -> Result<GameSpec, ParamError> {
        let params = ParamsView::read(kind, given)?;
        Ok(GameSpec::of(&kind.start(&params)?))
    }

    /// `kind` with the `given` parameters, and where they choose no scoring phase (Go's, after
    /// two passes: docs/rules.md, "Dead stones") the one that suits the players: `cleanup`
    /// in a game with a bot (engines count the stones on the board as they stand, so they
    /// capture the dead ones), `agreement` between people (who mark them, as on OGS).
    pub fn for_players(
        kind: GameKind,
        given: &Map<String, Value>,
        with_bot: bool,
    ) -> Result<GameSpec, ParamError> {
        let mut given = given.clone();
        if let Some(name) = kind.rule_set().scoring_phase {
            let phase = if with_bot { "cleanup" } else { "agreement" };
            given.entry(name).or_insert_with(|| phase.into());
        }
        GameSpec::new(kind, &given)
    }

    /// `kind` at its default parameters: the one rating pool of the rule set.
    pub fn defaults(kind: GameKind) -> GameSpec {
        GameSpec::of(&kind.default_game())
    }

    /// The game `position` is one of.
    pub fn of(position: &AnyGame) -> GameSpec {
        GameSpec {
            kind: position.kind(),
            params: position.params().clone(),
        }
    }

    pub fn kind(&self) -> GameKind {
        self.kind
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The starting position.
    pub fn start(&self) -> AnyGame {
        (self.kind.start(&self.params)).expect("a spec holds parameters its rule set accepted")
    }

    /// Whether every parameter is at its default (the rule set's rating pool). The scoring
    /// phase does not count: it decides how the end is counted, not what game is played.
    pub fn at_defaults(&self) -> bool {
        let pool = |spec: &GameSpec| {
            let mut params = spec.params_object();
            if let Some(name) = spec.kind.rule_set().scoring_phase {
                params.remove(name);
            }
            params
        };
        pool(self) == pool(&GameSpec::defaults(self.kind))
    }

    /// The parameters as the wire shows them.
    pub fn params_view(&self) -> ParamsView {
        ParamsView(self.params.clone())
    }

    /// The parameters as a JSON object (numbers, and strings for the others).
    pub fn params_object(&self) -> Map<String, Value> {
        match serde_json::to_value(self.params_view()) {
            Ok(Value::Object(params)) => params,
            _ => unreachable!("parameters serialize as an object"),
        }
    }

    /// The quick-pairing key of an open game of this spec with `clock`, `rated` or not
    /// (`games.seek`): equal for two games exactly when a seeker of one would play the
    /// other.
    pub fn seek_key(&self, clock: Option<super::TimeControl>, rated: bool) -> String {
        let clock = clock.map_or("none".to_string(), |c| {
            format!("{}+{}", c.initial_ms(), c.increment_ms())
        });
        let rating = if rated { "rated" } else { "casual" };
        format!(
            "{} {} {clock} {rating}",
            self.kind.name(),
            self.stored_params()
        )
    }

    /// The parameters as stored: a JSON object.
    pub fn stored_params(&self) -> String {
        serde_json::to_string(&self.params_view()).expect("parameters serialize")
    }

    /// A spec as stored: the rule set's name and the parameters' JSON object.
    pub fn from_stored(name: &str, params: &str) -> Result<GameSpec, String> {
        let kind: GameKind = name.parse().map_err(|e| format!("{e}"))?;
        let given: Map<String, Value> =
            serde_json::from_str(params).map_err(|e| format!("{kind} parameters: {e}"))?;
        GameSpec::new(kind, &given).map_err(|e| format!("{kind}: {e}"))
    }
}

/// The JSON form: the rule set by name, the parameters as an object.
#[derive(Serialize, Deserialize)]
struct Named {
    game: GameKind,
    params: Map<String, Value>,
}

impl TryFrom<Named> for GameSpec {
    type Error = String;

    fn try_from(named: Named) -> Result<GameSpec, String> {
        GameSpec::new(named.game, &named.params).map_err(|e| format!("{}: {e}", named.game))
    }
}

impl From<GameSpec> for Named {
    fn from(spec: GameSpec) -> Named {
        Named {
            game: spec.kind,
            params: spec.params_object(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_spec_resolves_its_parameters_and_survives_storage() {
        let given = Map::from_iter([("size".to_string(), json!(13))]);
        let spec = GameSpec::new(GameKind::Go, &given).unwrap();
        assert!(!spec.at_defaults());
        assert!(GameSpec::defaults(GameKind::Go).at_defaults());
        let stored = GameSpec::from_stored("go", &spec.stored_params()).unwrap();
        assert_eq!(stored, spec);
        assert_eq!(GameSpec::of(&spec.start()), spec);
        let refused = Map::from_iter([("size".to_string(), json!(99))]);
        assert!(GameSpec::new(GameKind::Go, &refused).is_err());
        assert!(GameSpec::from_stored("chess", "{}").is_err());
        assert!(GameSpec::from_stored("go", "not json").is_err());
        let json = serde_json::to_value(&spec).unwrap();
        assert_eq!(json["game"], "go");
        assert_eq!(json["params"]["size"], 13);
        assert_eq!(serde_json::from_value::<GameSpec>(json).unwrap(), spec);
    }
}
