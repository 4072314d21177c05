//! Config files of `toroid serve` and `toroid bridge`: a TOML table whose keys are the
//! subcommand's flags without their dashes, merged into the command line.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::parser::ValueSource;

use super::Failure;

/// The keys of a subcommand's config file that are no flag, and that the subcommand reads
/// itself from the file (the bridge's `[[game]]` tables).
fn own_keys(subcommand: &str) -> &'static [&'static str] {
    match subcommand {
        "bridge" => super::bridge::FILE_TABLES,
        _ => &[],
    }
}

/// The flags of a subcommand that takes a config file.
fn settings_of(subcommand: &str) -> Option<clap::Command> {
    match subcommand {
        "serve" => Some(<super::serve::Args as clap::Args>::augment_args(
            clap::Command::new("serve"),
        )),
        "bridge" => Some(<super::bridge::Args as clap::Args>::augment_args(
            clap::Command::new("bridge"),
        )),
        _ => None,
    }
}

/// The command line of `toroid serve` or `toroid bridge` with the settings of its config
/// file added: each one the command line and the environment leave unset becomes its flag,
/// so a flag and a `TOROID_…` variable override the file, and the file the defaults. Any
/// other command line comes back as it was.
pub fn with_config_file(
    command: clap::Command,
    argv: Vec<OsString>,
) -> Result<Vec<OsString>, Failure> {
    let Ok(matches) = command.try_get_matches_from(&argv) else {
        return Ok(argv); // the real parse reports it
    };
    let Some((name, sub)) = matches.subcommand() else {
        return Ok(argv);
    };
    let Some(known) = settings_of(name) else {
        return Ok(argv);
    };
    let Some(path) = sub.get_one::<PathBuf>("config") else {
        return Ok(argv);
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    let file: toml::Table =
        (text.parse()).map_err(|e| Failure::usage(format!("{}: {e}", path.display())))?;
    let setting = |key: &str| {
        let not_a_setting = matches!(key, "config" | "check-config");
        (known.get_arguments()).find(|a| a.get_long() == Some(key) && !not_a_setting)
    };
    // Given on the command line or in the environment, itself or as its other form
    // (`database` and `database-file`): the file's value gives way.
    let given = |arg: &clap::Arg| {
        let source = sub.value_source(arg.get_id().as_str());
        matches!(
            source,
            Some(ValueSource::CommandLine | ValueSource::EnvVariable)
        )
    };
    let mut argv = argv;
    for (key, value) in file {
        if own_keys(name).contains(&key.as_str()) {
            continue;
        }
        let arg = setting(&key).ok_or_else(|| {
            Failure::usage(format!(
                "{}: unknown setting '{key}' (a setting is a flag of 'toroid {name}' without \
                 its dashes)",
                path.display()
            ))
        })?;
        if given(arg) || known.get_arg_conflicts_with(arg).into_iter().any(given) {
            continue;
        }
        let values = match value {
            toml::Value::Array(items) => items,
            one => vec![one],
        };
        for value in values {
            let flag = match value {
                toml::Value::Boolean(true) => format!("--{key}"),
                toml::Value::Boolean(false) => continue,
                toml::Value::String(text) => format!("--{key}={text}"),
                toml::Value::Integer(n) => format!("--{key}={n}"),
                other => {
                    return Err(Failure::usage(format!(
                        "{}: '{key}' takes a string, a number or true, not {other}",
                        path.display()
                    )))
                }
            };
            argv.push(flag.into());
        }
    }
    Ok(argv)
}
