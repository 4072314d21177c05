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

    /// Reads one value of this parameter from text and range-checks it.
    pub fn parse(&self, text: &str) -> Result<ParamValue, ParamError> {
        let value = match &self.kind {
            ParamKind::Int { .. } => text.parse().ok().map(ParamValue::Int),
            ParamKind::Float { .. } => text.parse().ok().map(ParamValue::Float),
            ParamKind::Choice(options) => {
                (options.iter().find(|o| **o == text)).map(|o| ParamValue::Choice(o))
            }
        };
        value
            .ok_or_else(|| self.refuse(text))
            .and_then(|value| self.check(value).map_err(|_| self.refuse(text)))
    }

    /// Checks a value against this parameter's kind and range. An integer is accepted as a
    /// number; a number is not accepted as an integer.
    pub fn check(&self, value: ParamValue) -> Result<ParamValue, ParamError> {
        let value = match (&self.kind, value) {
            (ParamKind::Float { .. }, ParamValue::Int(v)) => ParamValue::Float(v as f64),
            (_, value) => value,
        };
        let fits = match (&self.kind, &value) {
            (ParamKind::Int { min, max }, ParamValue::Int(v)) => (min..=max).contains(&v),
            (ParamKind::Float { min, max }, ParamValue::Float(v)) => {
                v.is_finite() && (min..=max).contains(&v)
            }
            (ParamKind::Choice(options), ParamValue::Choice(v)) => options.contains(v),
            _ => false,
        };
        if fits {
            Ok(value)
        } else {
            Err(self.refuse(&value.to_string()))
        }
    }

    /// The refusal of `value`, saying what this parameter takes.
    fn refuse(&self, value: &str) -> ParamError {
        ParamError::BadValue {
            name: self.name,
            value: value.to_string(),
            expected: match &self.kind {
                ParamKind::Int { min, max } => format!("an integer from {min} to {max}"),
                ParamKind::Float { min, max } => format!("a number from {min} to {max}"),
                ParamKind::Choice(options) => format!("one of {}", options.join(", ")),
            },
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
/// Every value was checked against the specification when it was assigned, so a rule set
/// reads its parameters once, into its own config type, without checking them again.
/// Values left out are `None` until the rule set resolves their derived defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    spec: &'static [ParamSpec],
    values: Vec<Option<ParamValue>>,
}

impl Params {
    /// The defaults of `spec` (derived defaults left for the rule set to fill in).
    pub fn defaults(spec: &'static [ParamSpec]) -> Params {
        Params {
            spec,
            values: spec
                .iter()
                .map(|p| match &p.default {
                    ParamDefault::Value(v) => Some(v.clone()),
                    ParamDefault::Derived(_) => None,
                })
                .collect(),
        }
    }

    /// The defaults of `spec`, overridden by `KEY=VALUE` assignments (the text of the command
    /// line and of records); a key given twice is refused.
    pub fn parse<S: AsRef<str>>(
        spec: &'static [ParamSpec],
        assignments: &[S],
    ) -> Result<Params, ParamError> {
        let mut params = Params::defaults(spec);
        let mut seen: Vec<&str> = Vec::new();
        for a in assignments {
            let a = a.as_ref();
            let (key, value) = a
                .split_once('=')
                .ok_or_else(|| ParamError::Malformed(a.to_string()))?;
            let index = params.index(key)?;
            if seen.contains(&key) {
                return Err(ParamError::Duplicate {
                    name: key.to_string(),
                });
            }
            seen.push(spec[index].name);
            params.values[index] = Some(spec[index].parse(value)?);
        }
        Ok(params)
    }

    /// The specification these values follow.
    pub fn spec(&self) -> &'static [ParamSpec] {
        self.spec
    }

    /// Where `name` stands in the specification.
    fn position(&self, name: &str) -> Option<usize> {
        self.spec.iter().position(|p| p.name == name)
    }

    /// Where `name` stands, or the refusal of a parameter this rule set does not take.
    fn index(&self, name: &str) -> Result<usize, ParamError> {
        self.position(name).ok_or_else(|| ParamError::Unknown {
            name: name.to_string(),
            known: (self.spec.iter().map(|p| p.name))
                .collect::<Vec<_>>()
                .join(", "),
        })
    }

    /// Sets `name` to `value`, checked against the specification; a refused value changes
    /// nothing.
    pub fn assign(&mut self, name: &str, value: ParamValue) -> Result<(), ParamError> {
        let index = self.index(name)?;
        self.values[index] = Some(self.spec[index].check(value)?);
        Ok(())
    }

    /// Sets `name` from its text (as in `KEY=VALUE`), checked against the specification.
    pub fn assign_text(&mut self, name: &str, text: &str) -> Result<(), ParamError> {
        let index = self.index(name)?;
        self.values[index] = Some(self.spec[index].parse(text)?);
        Ok(())
    }

    fn get(&self, name: &str) -> Option<&ParamValue> {
        self.values[self.position(name)?].as_ref()
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

    /// The value of `name`, or why there is none: the parameter is not in these values'
    /// specification (they belong to another rule set) or has no value yet.
    fn required(&self, name: &str) -> Result<&ParamValue, ParamError> {
        (self.values[self.index(name)?].as_ref())
            .ok_or_else(|| ParamError::Invalid(format!("parameter '{name}' has no value")))
    }

    /// An integer parameter that must be there: what a rule set's config reads.
    pub fn required_int(&self, name: &str) -> Result<i64, ParamError> {
        match self.required(name)? {
            ParamValue::Int(v) => Ok(*v),
            other => Err(ParamError::Invalid(format!(
                "parameter '{name}' is {other}, not an integer"
            ))),
        }
    }

    /// A number parameter that must be there.
    pub fn required_float(&self, name: &str) -> Result<f64, ParamError> {
        match self.required(name)? {
            ParamValue::Float(v) => Ok(*v),
            ParamValue::Int(v) => Ok(*v as f64),
            other => Err(ParamError::Invalid(format!(
                "parameter '{name}' is {other}, not a number"
            ))),
        }
    }

    /// A choice parameter that must be there, mapped to its meaning.
    pub fn required_choice<T>(
        &self,
        name: &str,
        meaning: impl Fn(&str) -> Option<T>,
    ) -> Result<T, ParamError> {
        let value = self.required(name)?.to_string();
        meaning(&value)
            .ok_or_else(|| ParamError::Invalid(format!("parameter '{name}' cannot be '{value}'")))
    }

    /// `(name, value)` pairs in specification order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, Option<&ParamValue>)> + '_ {
        (self.spec.iter().zip(&self.values)).map(|(p, v)| (p.name, v.as_ref()))
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
