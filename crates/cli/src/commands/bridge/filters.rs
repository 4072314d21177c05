//! Which games the bridge plays and seeks: a rule set each, with the parameter values it
//! takes, from `--game`/`--seek` and the config file's `[[game]]` tables.

use std::path::Path;

use serde_json::{Map, Value};
use toroid_rules::{AnyGame, GameKind, Position};

/// What a `[[game]]` parameter allows: one value, any of a list, or a range of numbers.
#[derive(Clone, Debug, PartialEq)]
enum Allowed {
    Values(Vec<Value>),
    Range { min: f64, max: f64 },
}

impl Allowed {
    fn takes(&self, value: &Value) -> bool {
        match self {
            Allowed::Values(values) => values.iter().any(|v| same(v, value)),
            Allowed::Range { min, max } => value.as_f64().is_some_and(|x| *min <= x && x <= *max),
        }
    }

    /// The value a seek asks for: the first one allowed, or a range's lower end.
    fn first(&self) -> Value {
        match self {
            Allowed::Values(values) => values[0].clone(),
            Allowed::Range { min, .. } => Value::from(*min),
        }
    }
}

/// Numbers compare as numbers (9 and 9.0 are one size), the rest as they are.
fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// A rule set the bridge plays, the parameters it takes (any value of the others), and
/// whether it seeks games of it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFilter {
    pub kind: GameKind,
    pub seek: bool,
    params: Vec<(String, Allowed)>,
}

impl GameFilter {
    /// Any game of `kind`.
    pub fn any(kind: GameKind, seek: bool) -> GameFilter {
        GameFilter {
            kind,
            seek,
            params: Vec::new(),
        }
    }

    /// Why `start`, a challenge's game of this filter's rule set, is refused, if it is.
    pub fn refusal(&self, start: &AnyGame) -> Option<String> {
        let given = start.params();
        self.params.iter().find_map(|(name, allowed)| {
            let value = match (given.choice(name), given.float(name)) {
                (Some(choice), _) => Value::from(choice),
                (None, Some(x)) => Value::from(x),
                (None, None) => Value::Null,
            };
            (!allowed.takes(&value)).then(|| format!("{name}={value} is not played here"))
        })
    }

    /// The parameters its seek and its house challenges ask for: each one's first value.
    pub fn seek_params(&self) -> Map<String, Value> {
        (self.params.iter())
            .map(|(name, allowed)| (name.clone(), allowed.first()))
            .collect()
    }
}

/// The `[[game]]` tables of the config file at `path`: `name` (a rule set), `seek`
/// (whether to seek it), and any parameter as a value, a list of values or `{min, max}`.
pub fn read(path: &Path) -> Result<Vec<GameFilter>, String> {
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let text = std::fs::read_to_string(path).map_err(|e| at(&e))?;
    let file: toml::Table = text.parse().map_err(|e| at(&e))?;
    let Some(games) = file.get("game") else {
        return Ok(Vec::new());
    };
    let tables = games
        .as_array()
        .ok_or_else(|| at(&"'game' is a list of tables: [[game]]"))?;
    tables
        .iter()
        .map(|table| filter(table).map_err(|e| at(&format!("[[game]]: {e}"))))
        .collect()
}

fn filter(table: &toml::Value) -> Result<GameFilter, String> {
    let table = table.as_table().ok_or("not a table")?;
    let name = table
        .get("name")
        .and_then(toml::Value::as_str)
        .ok_or("'name' (a rule set) is missing")?;
    let kind: GameKind = name.parse().map_err(|e| format!("{e}"))?;
    let seek = match table.get("seek") {
        None => false,
        Some(value) => value.as_bool().ok_or("'seek' is true or false")?,
    };
    let mut params = Vec::new();
    for (key, value) in table
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "name" | "seek"))
    {
        if !kind.rule_set().params.iter().any(|p| p.name == key) {
            return Err(format!("{kind} has no parameter '{key}'"));
        }
        let json = |v: &toml::Value| serde_json::to_value(v).map_err(|e| format!("'{key}': {e}"));
        let allowed = match value {
            toml::Value::Array(values) if !values.is_empty() => {
                Allowed::Values(values.iter().map(json).collect::<Result<_, _>>()?)
            }
            toml::Value::Table(range) => {
                let bound = |b: &str| {
                    let v = range.get(b).ok_or(format!("'{key}' has no '{b}'"))?;
                    (v.as_float().or(v.as_integer().map(|i| i as f64)))
                        .ok_or(format!("'{key}.{b}' is a number"))
                };
                Allowed::Range {
                    min: bound("min")?,
                    max: bound("max")?,
                }
            }
            toml::Value::Array(_) => return Err(format!("'{key}' lists no value")),
            one => Allowed::Values(vec![json(one)?]),
        };
        params.push((key.clone(), allowed));
    }
    // Each value a seek asks for must be one the rule set takes.
    let probe = GameFilter { kind, seek, params };
    let mut given = probe.seek_params();
    given.retain(|_, v| !v.is_null());
    toroid_protocol::view::ParamsView::read(kind, &given).map_err(|e| format!("{kind}: {e}"))?;
    Ok(probe)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filters(text: &str) -> Result<Vec<GameFilter>, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bridge.toml");
        std::fs::write(&path, text).unwrap();
        read(&path)
    }

    fn go(params: &[&str]) -> AnyGame {
        let given: Map<String, Value> = (params.iter())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap();
                let value = (v.parse::<i64>().map(Value::from))
                    .or_else(|_| v.parse::<f64>().map(Value::from))
                    .unwrap_or_else(|_| Value::from(v));
                (k.to_string(), value)
            })
            .collect();
        let params = toroid_protocol::view::ParamsView::read(GameKind::Go, &given).unwrap();
        GameKind::Go.start(&params).unwrap()
    }

    #[test]
    fn a_game_table_takes_values_lists_and_ranges() {
        let read = filters(
            "[[game]]\nname = \"go\"\nseek = true\nsize = [9, 13]\nkomi = { min = 5.5, max = 7.5 }\n\
             scoring_phase = \"cleanup\"\n\n[[game]]\nname = \"capture-go\"\n",
        )
        .unwrap();
        assert_eq!(read.len(), 2);
        let go_filter = &read[0];
        assert!(go_filter.seek && !read[1].seek);
        assert_eq!(
            Value::Object(go_filter.seek_params()),
            serde_json::json!({"size": 9, "komi": 5.5, "scoring_phase": "cleanup"})
        );
        assert_eq!(
            go_filter.refusal(&go(&["size=13", "komi=6.5", "scoring_phase=cleanup"])),
            None
        );
        let refused = go_filter
            .refusal(&go(&["size=19", "scoring_phase=cleanup"]))
            .unwrap();
        assert!(refused.contains("size=19"), "{refused}");
        assert!(go_filter
            .refusal(&go(&["size=9", "komi=8.5", "scoring_phase=cleanup"]))
            .is_some());
        assert!(
            go_filter.refusal(&go(&["size=9", "komi=6"])).is_some(),
            "scoring_phase none"
        );
    }

    #[test]
    fn a_bad_game_table_is_refused_with_the_reason() {
        for (text, why) in [
            ("[[game]]\nseek = true\n", "'name'"),
            ("[[game]]\nname = \"chess\"\n", "chess"),
            (
                "[[game]]\nname = \"go\"\nwidth = 9\n",
                "no parameter 'width'",
            ),
            ("[[game]]\nname = \"go\"\nsize = 99\n", "size"),
            ("[[game]]\nname = \"go\"\nkomi = { min = 5 }\n", "'max'"),
            ("game = 3\n", "list of tables"),
        ] {
            let error = filters(text).unwrap_err();
            assert!(error.contains(why), "{text}: {error}");
        }
    }
}
