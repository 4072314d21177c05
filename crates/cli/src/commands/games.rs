//! `toroid games`: every rule set with its parameters and the house levels that play it.

use std::fmt::Write;

use serde::Serialize;
use toroid::view::{DefaultView, GameInfo, ParamView};
use toroid_rules::GameKind;
use toroid_search::Level;

use super::{print, print_json, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// A rule set as `toroid games` lists it.
#[derive(Serialize)]
struct Listing {
    #[serde(flatten)]
    game: GameInfo,
    /// The house levels that play it, with the rating each enters the rule set's rating
    /// pools at (from the measured ladder): where a bot author's or a player's rating sits
    /// among them.
    levels: Vec<LevelRating>,
}

#[derive(Serialize)]
struct LevelRating {
    name: &'static str,
    rating: f64,
}

impl Listing {
    fn new(kind: GameKind) -> Listing {
        Listing {
            game: GameInfo::new(kind),
            levels: Level::playing(kind)
                .map(|level| LevelRating {
                    name: level.name(),
                    rating: level.ladder_rating(kind),
                })
                .collect(),
        }
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    let listings: Vec<Listing> = GameKind::ALL.into_iter().map(Listing::new).collect();
    if args.json {
        return print_json(&listings);
    }
    let mut text = String::new();
    for Listing { game, levels } in &listings {
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
        let levels: Vec<String> = levels
            .iter()
            .map(|level| format!("{} {:.0}", level.name, level.rating))
            .collect();
        let _ = writeln!(
            text,
            "  house levels and their ratings: {}",
            levels.join(", ")
        );
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
