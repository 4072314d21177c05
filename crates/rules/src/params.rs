//! Rule-set parameters: their specification (name, kind, default, range) and parsing of
//! `KEY=VALUE` assignments into a complete, validated set.

use std::fmt;

use serde::Serialize;
use thiserror::Error;

/// A parameter value.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ParamValue {
    Int(i64),
    Float(f64),
    Choice(&'static str),
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Float(v) => write!(f, "{v}"),
            ParamValue::Choice(v) => f.write_str(v),
        }
    }
}

/// What values a parameter takes.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    Int { min: i64, max: i64 },
    Float { min: f64, max: f64 },
    Choice(&'static [&'static str]),
}

/// The default of a parameter: a fixed value or one derived from other parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamDefault {
    Value(ParamValue),
    /// Computed by the rule set; the text says how (for `toroid games`).
    Derived(&'static str),
}

/// One parameter of a rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub kind: ParamKind,
    pub default: ParamDefault,
    pub help: &'static str,
}

impl ParamSpec {
    pub const fn int(
        name: &'static str,
        default: i64,
        min: i64,
        max: i64,
        help: &'static str,
    ) -> ParamSpec {
        ParamSpec {
            name,
            kind: ParamKind::Int { min, max },
            default: ParamDefault::Value(ParamValue::Int(default)),
            help,
        }
    }

    pub const fn float(
        name: &'static str,
        default: f64,
        min: f64,
        max: f64,
        help: &'static str,
    ) -> ParamSpec {
        ParamSpec {
            name,
            kind: ParamKind::Float { min, max },
            default: ParamDefault::Value(ParamValue::Float(default)),
            help,
        }
    }

    pub const fn choice(
        name: &'static str,
        default: &'static str,
        options: &'static [&'static str],
        help: &'static str,
    ) -> ParamSpec {
        ParamSpec {
            name,
            kind: ParamKind::Choice(options),
            default: ParamDefault::Value(ParamValue::Choice(default)),
            help,
        }
    }

    /// Parses and range-checks one value of this parameter.
    pub fn parse(&self, text: &str) -> Result<ParamValue, ParamError> {
        let bad = |expected: String| ParamError::BadValue {
            name: self.name,
            value: text.to_string(),
            expected,
        };
        match &self.kind {
            ParamKind::Int { min, max } => {
                let v: i64 = text
                    .parse()
                    .map_err(|_| bad(format!("an integer from {min} to {max}")))?;
                if v < *min || v > *max {
                    return Err(bad(format!("an integer from {min} to {max}")));
                }
                Ok(ParamValue::Int(v))
            }
            ParamKind::Float { min, max } => {
                let v: f64 = text
                    .parse()
                    .ok()
                    .filter(|v: &f64| v.is_finite())
                    .ok_or_else(|| bad(format!("a number from {min} to {max}")))?;
                if v < *min || v > *max {
                    return Err(bad(format!("a number from {min} to {max}")));
                }
                Ok(ParamValue::Float(v))
            }
            ParamKind::Choice(options) => options
                .iter()
                .find(|o| **o == text)
                .map(|o| ParamValue::Choice(o))
                .ok_or_else(|| bad(format!("one of {}", options.join(", ")))),
        }
    }
}

/// Why a set of parameters was refused.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ParamError {
    #[error("unknown parameter '{name}' (this game takes: {known})")]
    Unknown { name: String, known: String },
    #[error("parameter '{name}' is given twice")]
    Duplicate { name: String },
    #[error("'{0}' is not KEY=VALUE")]
    Malformed(String),
    #[error("bad value '{value}' for parameter '{name}': expected {expected}")]
    BadValue {
        name: &'static str,
        value: String,
        expected: String,
    },
    #[error("{0}")]
    Invalid(String),
}

/// A complete set of parameter values for one rule set, in the order of its specification.
/// Values left out are `None` until the rule set resolves their defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    values: Vec<(&'static str, Option<ParamValue>)>,
}

impl Params {
    /// The defaults of `spec` (derived defaults left for the rule set to fill in).
    pub fn defaults(spec: &[ParamSpec]) -> Params {
        Params {
            values: spec
                .iter()
                .map(|p| match &p.default {
                    ParamDefault::Value(v) => (p.name, Some(v.clone())),
                    ParamDefault::Derived(_) => (p.name, None),
                })
                .collect(),
        }
    }

    /// The defaults of `spec`, overridden by `KEY=VALUE` assignments.
    pub fn parse<S: AsRef<str>>(
        spec: &[ParamSpec],
        assignments: &[S],
    ) -> Result<Params, ParamError> {
        let mut params = Params::defaults(spec);
        let mut seen: Vec<&str> = Vec::new();
        for a in assignments {
            let a = a.as_ref();
            let (key, value) = a
                .split_once('=')
                .ok_or_else(|| ParamError::Malformed(a.to_string()))?;
            let index =
                spec.iter()
                    .position(|p| p.name == key)
                    .ok_or_else(|| ParamError::Unknown {
                        name: key.to_string(),
                        known: spec.iter().map(|p| p.name).collect::<Vec<_>>().join(", "),
                    })?;
            if seen.contains(&key) {
                return Err(ParamError::Duplicate {
                    name: key.to_string(),
                });
            }
            seen.push(spec[index].name);
            params.values[index].1 = Some(spec[index].parse(value)?);
        }
        Ok(params)
    }

    fn get(&self, name: &str) -> Option<&ParamValue> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_ref())
    }

    /// An integer parameter; `None` if unset (a derived default not yet resolved).
    pub fn int(&self, name: &str) -> Option<i64> {
        match self.get(name) {
            Some(ParamValue::Int(v)) => Some(*v),
            _ => None,
        }
    }

    pub fn float(&self, name: &str) -> Option<f64> {
        match self.get(name) {
            Some(ParamValue::Float(v)) => Some(*v),
            Some(ParamValue::Int(v)) => Some(*v as f64),
            _ => None,
        }
    }

    pub fn choice(&self, name: &str) -> Option<&'static str> {
        match self.get(name) {
            Some(ParamValue::Choice(v)) => Some(v),
            _ => None,
        }
    }

    /// The value of `name`, checked against `spec` again: `Params` can be built by hand,
    /// and no value may reach a rules engine unchecked. Every rule set's constructor reads
    /// its parameters through this and the three below.
    pub fn checked(&self, spec: &[ParamSpec], name: &str) -> Result<ParamValue, ParamError> {
        let value = (self.get(name).cloned())
            .ok_or_else(|| ParamError::Invalid(format!("parameter '{name}' has no value")))?;
        let spec = (spec.iter().find(|p| p.name == name))
            .ok_or_else(|| ParamError::Invalid(format!("unknown parameter '{name}'")))?;
        spec.parse(&value.to_string())
    }

    /// An integer parameter, checked against `spec`.
    pub fn checked_int(&self, spec: &[ParamSpec], name: &str) -> Result<i64, ParamError> {
        match self.checked(spec, name)? {
            ParamValue::Int(v) => Ok(v),
            other => Err(ParamError::Invalid(format!(
                "parameter '{name}' is {other}, not an integer"
            ))),
        }
    }

    /// A number parameter, checked against `spec`.
    pub fn checked_float(&self, spec: &[ParamSpec], name: &str) -> Result<f64, ParamError> {
        match self.checked(spec, name)? {
            ParamValue::Float(v) => Ok(v),
            ParamValue::Int(v) => Ok(v as f64),
            other => Err(ParamError::Invalid(format!(
                "parameter '{name}' is {other}, not a number"
            ))),
        }
    }

    /// A choice parameter, checked against `spec` and mapped to its meaning.
    pub fn checked_choice<T>(
        &self,
        spec: &[ParamSpec],
        name: &str,
        meaning: impl Fn(&str) -> Option<T>,
    ) -> Result<T, ParamError> {
        let value = self.checked(spec, name)?.to_string();
        meaning(&value)
            .ok_or_else(|| ParamError::Invalid(format!("parameter '{name}' cannot be '{value}'")))
    }

    /// Sets a value (rule sets use this to record resolved derived defaults).
    pub fn set(&mut self, name: &str, value: ParamValue) {
        if let Some(slot) = self.values.iter_mut().find(|(n, _)| *n == name) {
            slot.1 = Some(value);
        }
    }

    /// `(name, value)` pairs in specification order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, Option<&ParamValue>)> + '_ {
        self.values.iter().map(|(n, v)| (*n, v.as_ref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &[ParamSpec] = &[
        ParamSpec::int("size", 9, 2, 25, "side"),
        ParamSpec::float("komi", 7.5, -100.0, 100.0, "komi"),
        ParamSpec::choice("ko", "simple", &["simple", "positional"], "ko"),
    ];

    #[test]
    fn parses_overrides_and_keeps_defaults() {
        let p = Params::parse(SPEC, &["size=13", "ko=positional"]).unwrap();
        assert_eq!(p.int("size"), Some(13));
        assert_eq!(p.float("komi"), Some(7.5));
        assert_eq!(p.choice("ko"), Some("positional"));
    }

    #[test]
    fn rejects_bad_assignments() {
        assert!(matches!(
            Params::parse(SPEC, &["size"]),
            Err(ParamError::Malformed(_))
        ));
        assert!(matches!(
            Params::parse(SPEC, &["colour=red"]),
            Err(ParamError::Unknown { .. })
        ));
        assert!(matches!(
            Params::parse(SPEC, &["size=1"]),
            Err(ParamError::BadValue { .. })
        ));
        assert!(matches!(
            Params::parse(SPEC, &["size=9x"]),
            Err(ParamError::BadValue { .. })
        ));
        assert!(matches!(
            Params::parse(SPEC, &["komi=NaN"]),
            Err(ParamError::BadValue { .. })
        ));
        assert!(matches!(
            Params::parse(SPEC, &["ko=none"]),
            Err(ParamError::BadValue { .. })
        ));
        assert!(matches!(
            Params::parse(SPEC, &["size=9", "size=9"]),
            Err(ParamError::Duplicate { .. })
        ));
    }
}
