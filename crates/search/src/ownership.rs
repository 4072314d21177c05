//! Who owns each point at the end: the house bots' judgement of dead stones (GTP's
//! `final_status_list dead`), by Monte Carlo ownership as Fuego and Pachi judge it. The
//! position is played out many times with the house bots' own playouts (tactical replies,
//! then the rule set's random moves), and a stone is dead when, in most of those ends, its
//! point belongs to the opponent.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{Cell, Color, Move};

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

/// The stones of `game` that are dead by [`JUDGEMENT_PLAYOUTS`] playouts from it, seeded by
/// `seed`. Only a game whose ends have territory (`go` under area or territory scoring)
/// judges: in the others every stone counts as it stands.
pub fn dead_stones<P: Knowledge>(game: &P, seed: u64) -> Vec<Cell> {
    let Some(shares) = opponent_shares(game, JUDGEMENT_PLAYOUTS, seed) else {
        return Vec::new();
    };
    (game.topology().cells())
        .filter(|&cell| shares[cell.index()] > DEAD_SHARE)
        .collect()
}

/// For each stone of `game`, the share of `playouts` playouts at whose end its point is the
/// opponent's (a stone of the opponent's, or the opponent's territory); 0 for empty points.
/// `None` where the game's ends have no territory.
pub fn opponent_shares<P: Knowledge>(game: &P, playouts: usize, seed: u64) -> Option<Vec<f64>> {
    game.territory()?;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let cells: Vec<(Cell, Color)> = (game.topology().cells())
        .filter_map(|cell| Some((cell, game.stone(cell)?)))
        .collect();
    let mut lost = vec![0u32; game.topology().len()];
    let mut recent: Vec<(Move, Color)> = Vec::new();
    for _ in 0..playouts {
        let mut end = game.clone();
        recent.clear();
        while let Some(mover) = end.turn() {
            let Some(mv) = playout_step(&mut end, &recent, Rollout::Tactical, &mut rng) else {
                break;
            };
            recent.push((mv, mover));
        }
        let territory = end.territory()?;
        for &(cell, color) in &cells {
            let owner = end.stone(cell).or(territory[cell.index()]);
            if owner == Some(color.opponent()) {
                lost[cell.index()] += 1;
            }
        }
    }
    Some(
        lost.iter()
            .map(|&n| f64::from(n) / playouts as f64)
            .collect(),
    )
}
