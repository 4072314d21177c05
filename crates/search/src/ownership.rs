//! Who owns each point at the end: the house bots' judgement of dead stones (GTP's
//! `final_status_list dead`), by Monte Carlo ownership as Fuego and Pachi judge it. The
//! position is played out many times with the house bots' own playouts (tactical replies,
//! then the rule set's random moves), and a stone is dead when, in most of those ends, its
//! point belongs to the opponent.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{AnyGame, Cell, Color, Move, Position, SetupChange};

use crate::budget::Stop;
use crate::knowledge::Knowledge;
use crate::policy::{playout_step, Rollout};

/// Playouts behind a judgement: enough for the share of a settled point to be far from the
/// threshold, few enough to answer a GUI at once (a few milliseconds on 19×19).
pub const JUDGEMENT_PLAYOUTS: usize = 400;

/// The seed of the house bots' judgement: the same position is always judged alike.
pub const JUDGEMENT_SEED: u64 = 0x0D_EAD5;

/// A stone whose point ends as the opponent's in more than this share of the playouts is
/// dead: well above half, so that stones in open play, which random playouts give to either
/// side, are not called dead; a dead stone at the end of a game is lost in nearly every
/// playout.
const DEAD_SHARE: f64 = 0.7;

/// The house bots' answer to [`toroid_rules::Bot::dead_stones`]: [`dead_stones`] under the
/// judgement's own seed, so that one position is always judged alike. A finished game (what
/// a GUI asks about after the two passes) is judged on its final board, reopened.
pub fn house_judgement(game: &AnyGame) -> Vec<Cell> {
    let reopened = game.turn().is_none().then(|| reopen(game)).flatten();
    let judged = reopened.as_ref().unwrap_or(game);
    toroid_rules::with_game!(judged, g => dead_stones(g, JUDGEMENT_SEED, &Stop::default()))
}

/// The board of the finished `game` as a new game of the same rule set and parameters, with
/// the player to move whom the number of moves gives (black after an even number): no
/// playout can run from a finished game, so every stone there would count as alive. `None`
/// where the rule set refuses the board as a start.
fn reopen(game: &AnyGame) -> Option<AnyGame> {
    let mut open = game.kind().start(game.params()).ok()?;
    let stones: Vec<SetupChange> = (game.topology().cells())
        .filter_map(|cell| game.stone(cell).map(|color| (cell, Some(color))))
        .collect();
    let to_move = if game.ply().is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    open.setup(&stones, to_move).ok()?;
    Some(open)
}

/// The stones of `game` that are dead by [`JUDGEMENT_PLAYOUTS`] playouts from it, seeded by
/// `seed`, fewer where `stop` says so first. Only a game whose ends have territory (`go`
/// under area, territory or Japanese scoring) judges: in the others every stone counts as
/// it stands.
pub fn dead_stones<P: Knowledge>(game: &P, seed: u64, stop: &Stop) -> Vec<Cell> {
    let Some(shares) = owner_shares(game, JUDGEMENT_PLAYOUTS, seed, stop) else {
        return Vec::new();
    };
    (game.topology().cells())
        .filter(|&cell| {
            game.stone(cell)
                .is_some_and(|color| shares[cell.index()][color.opponent().index()] > DEAD_SHARE)
        })
        .collect()
}

/// For each point of `game`, the shares of `playouts` playouts at whose end it is black's
/// and white's (a stone of theirs, or their territory), indexed by [`Color::index`]; fewer
/// playouts where `stop` says so first. `None` where the game's ends have no territory, or
/// no playout was played.
pub fn owner_shares<P: Knowledge>(
    game: &P,
    playouts: usize,
    seed: u64,
    stop: &Stop,
) -> Option<Vec<[f64; 2]>> {
    game.territory()?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut owned = vec![[0u32; 2]; game.topology().len()];
    let mut recent: Vec<(Move, Color)> = Vec::new();
    let mut played = 0;
    while played < playouts && !stop.now() {
        played += 1;
        let mut end = game.clone();
        recent.clear();
        while let Some(mover) = end.turn() {
            let Some(mv) = playout_step(&mut end, &recent, Rollout::Tactical, true, &mut rng)
            else {
                break;
            };
            recent.push((mv, mover));
        }
        let territory = end.territory()?;
        for cell in game.topology().cells() {
            if let Some(owner) = end.stone(cell).or(territory[cell.index()]) {
                owned[cell.index()][owner.index()] += 1;
            }
        }
    }
    if played == 0 {
        return None;
    }
    let share = |n: u32| f64::from(n) / played as f64;
    Some(owned.iter().map(|&[b, w]| [share(b), share(w)]).collect())
}
