//! `toroid games`: every rule set with its parameters.

use std::fmt::Write;

use toroid::view::{DefaultView, GameInfo, ParamView};
use toroid_rules::GameKind;

use super::{print, print_json, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let games: Vec<GameInfo> = GameKind::ALL.into_iter().map(GameInfo::new).collect();
    if args.json {
        return print_json(&games);
    }
    let mut text = String::new();
    for game in &games {
        let _ = writeln!(text, "{}: {}", game.name, game.summary);
        for param in &game.params {
            let _ = writeln!(
                text,
                "  -p {:<10} {}, default {}: {}",
                param.name,
                values(param),
                default(param),
                param.help
            );
        }
        text.push('\n');
    }
    text.push_str("Play with: toroid replay GAME [-p KEY=VALUE]... [MOVE]...\n");
    print(&text)
}

/// What values a parameter takes, in words.
fn values(param: &ParamView) -> String {
    match (&param.min, &param.max, param.choices) {
        (Some(min), Some(max), _) if param.kind == "int" => format!("integer {min}..{max}"),
        (Some(min), Some(max), _) => format!("number {min}..{max}"),
        (_, _, Some(choices)) => format!("one of {}", choices.join(", ")),
        _ => param.kind.to_string(),
    }
}

fn default(param: &ParamView) -> String {
    match &param.default {
        DefaultView::Value(v) => v.to_string(),
        DefaultView::Derived(text) => text.to_string(),
    }
}
