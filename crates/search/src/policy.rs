//! Playouts: how a simulation plays on from the tree's leaf to the end, with each rule
//! set's tactical reply ([`Knowledge::tactical_move`]), then a learned pattern's reply to
//! the last move ([`learned::reply`]), tried before its own random
//! [`Position::playout_move`]; and the sampling helpers the rule sets' replies share.

use rand::Rng;
use toroid_rules::{AnyGame, Cell, Color, Move, Outcome, Position};

use crate::knowledge::Knowledge;
use crate::learned;

/// Draws of a random playout move before an unwise one is played anyway.
pub const DRAWS: usize = 3;

/// How a simulation plays on from the tree's leaf to the end of the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// The rule set's tactical reply ([`Knowledge::tactical_move`]) when it has a legal one,
    /// else a learned pattern's reply to the last move ([`learned::reply`]) when it draws
    /// one and the rule set takes them ([`Knowledge::pattern_replies`]), else its random
    /// playout move: what the house bots use.
    Tactical,
    /// The rule set's random playout moves ([`Position::playout_move`]).
    Random,
    /// Uniform among all legal moves ([`Position::uniform_move`]), as other engines' random
    /// rollouts.
    Uniform,
}

/// Plays the next move of a simulation by `rollout`, with the learned pattern replies where
/// `patterns` allows them; returns the move played, `None` once the game is over.
pub fn playout_step<P: Knowledge, R: Rng>(
    position: &mut P,
    recent: &[(Move, Color)],
    rollout: Rollout,
    patterns: bool,
    rng: &mut R,
) -> Option<Move> {
    if rollout == Rollout::Tactical {
        let reply = |position: &P, rng: &mut R| {
            let (me, last) = (position.turn()?, placed(recent)?);
            learned::reply(position, last, me, rng).map(Move::Place)
        };
        let tactical = position.tactical_move(recent, rng);
        let tactical = match tactical {
            None if patterns && position.pattern_replies() => reply(position, rng),
            tactical => tactical,
        };
        if let Some(mv) = tactical {
            if position.play(mv).is_ok() {
                return Some(mv);
            }
        }
    }
    match rollout {
        Rollout::Uniform => {
            let mv = position.uniform_move(rng)?;
            position
                .play(mv)
                .expect("the uniform policy returns only legal moves");
            Some(mv)
        }
        Rollout::Random => position.play_playout_move(rng),
        Rollout::Tactical => position.play_wise_playout_move(rng),
    }
}

/// The outcome of `game` (not over) played on to its end by the house playout
/// ([`Rollout::Tactical`] with the learned patterns), `last` the move that led to it; `None`
/// for a game still going after the cap that guards against very long ones.
pub fn house_playout<R: Rng>(
    game: &AnyGame,
    last: Option<(Move, Color)>,
    rng: &mut R,
) -> Option<Outcome> {
    toroid_rules::with_game!(game, g => {
        let mut position = g.clone();
        let mut played: Vec<(Move, Color)> = last.into_iter().collect();
        play_out(&mut position, &mut played, Rollout::Tactical, true, rng);
        position.outcome()
    })
}

/// Plays `position` on by [`playout_step`] to the game's end, each move pushed onto `played`
/// (whose last moves the replies read). Every rule set ends on its own; the cap on `played`
/// only guards against a parameter choice that makes random games very long.
pub(crate) fn play_out<P: Knowledge, R: Rng>(
    position: &mut P,
    played: &mut Vec<(Move, Color)>,
    rollout: Rollout,
    patterns: bool,
    rng: &mut R,
) {
    let cap = 20 * position.topology().len() + 1000;
    while let Some(mover) = position.turn() {
        if played.len() >= cap {
            break;
        }
        let Some(mv) = playout_step(position, played, rollout, patterns, rng) else {
            break;
        };
        played.push((mv, mover));
    }
}

/// The cell of the last move, if it was a placement.
pub(crate) fn placed(recent: &[(Move, Color)]) -> Option<Cell> {
    recent.last().and_then(|&(mv, _)| mv.cell())
}

/// How many cells a playout policy samples when it looks for a capture.
const SAMPLES: usize = 4;

/// The best of a few random empty cells by `gain` (`None`: never this cell), with its gain.
pub(crate) fn best_sampled<P: Position, R: Rng>(
    position: &P,
    rng: &mut R,
    gain: impl Fn(Cell) -> Option<u32>,
) -> Option<(Move, u32)> {
    let cells = position.topology().len();
    let mut best: Option<(Move, u32)> = None;
    for _ in 0..SAMPLES {
        let x = Cell(rng.random_range(0..cells) as u16);
        if position.stone(x).is_none() {
            if let Some(g) = gain(x) {
                if best.is_none_or(|(_, b)| g > b) {
                    best = Some((Move::Place(x), g));
                }
            }
        }
    }
    best
}
