//! Playout policies: a cheap tactical reply per rule set, tried before the rule set's own
//! random [`Position::playout_move`]. They run for every playout move, so each looks only
//! near the last move or at a handful of sampled cells.

use rand::Rng;
use toroid_rules::games::{Ctor, Go, HexTorus, MTorus, Torus};
use toroid_rules::{Cell, Color, Move, Position};

use crate::knowledge::Knowledge;
use crate::patterns::mogo;
use crate::surround::{
    captures_at, capturing_cells, last_liberty, rescues, self_threat, touched_by,
};

/// A position that MCTS can search: the rules, their forced moves and a playout policy.
pub trait Playout: Knowledge {
    /// A move worth playing now given the `recent` moves of the simulation with their
    /// movers (the last one last), if the policy sees one. It may be illegal (the playout
    /// then falls back to [`Position::playout_move`]).
    fn tactical_move<R: Rng>(&self, recent: &[(Move, Color)], rng: &mut R) -> Option<Move>;

    /// Whether the random playout move `mv` is one the policy would rather not play; it then
    /// draws again, up to [`DRAWS`] times in all.
    fn unwise(&self, _mv: Move) -> bool {
        false
    }
}

/// Draws of a random playout move before an unwise one is played anyway.
pub const DRAWS: usize = 3;

/// How a simulation plays on from the tree's leaf to the end of the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// The rule set's tactical reply ([`Playout::tactical_move`]) when it has a legal one,
    /// else its random playout move: what the house bots use.
    Tactical,
    /// The rule set's random playout moves ([`Position::playout_move`]).
    Random,
    /// Uniform among all legal moves ([`Position::uniform_move`]), as other engines' random
    /// rollouts.
    Uniform,
}

/// Plays the next move of a simulation by `rollout`; returns the move played, `None` once the
/// game is over.
pub fn playout_step<P: Playout, R: Rng>(
    position: &mut P,
    recent: &[(Move, Color)],
    rollout: Rollout,
    rng: &mut R,
) -> Option<Move> {
    if rollout == Rollout::Tactical {
        if let Some(mv) = position.tactical_move(recent, rng) {
            if position.play(mv).is_ok() {
                return Some(mv);
            }
        }
    }
    let mv = match rollout {
        Rollout::Uniform => position.uniform_move(rng)?,
        Rollout::Random => position.playout_move(rng)?,
        Rollout::Tactical => {
            let mut mv = position.playout_move(rng)?;
            for _ in 1..DRAWS {
                if !position.unwise(mv) {
                    break;
                }
                mv = position.playout_move(rng)?;
            }
            mv
        }
    };
    position
        .play(mv)
        .expect("random policies return only legal moves");
    Some(mv)
}

/// The cell of the last move, if it was a placement.
fn placed(recent: &[(Move, Color)]) -> Option<Cell> {
    recent.last().and_then(|&(mv, _)| mv.cell())
}

impl Playout for Go {
    /// In order: capture the chain of the stone just played if it is in atari; save an own
    /// chain it put in atari by extending, where that gives the chain a second liberty;
    /// answer its shape with a MoGo pattern move around it ([`crate::patterns`]).
    fn tactical_move<R: Rng>(&self, recent: &[(Move, Color)], rng: &mut R) -> Option<Move> {
        let c = placed(recent)?;
        let me = self.turn()?;
        if let Some(capture) = self.atari_point(c) {
            return Some(Move::Place(capture));
        }
        let escape = self
            .topology()
            .adjacent(c)
            .filter(|&n| self.stone(n) == Some(me))
            .find_map(|n| self.atari_point(n))
            .filter(|&p| self.self_atari(p, me).is_none());
        escape
            .or_else(|| pattern_reply(self, c, me, rng))
            .map(Move::Place)
    }

    /// A self-atari of a group: random playouts play them far too often, which makes
    /// living groups look dead and dead ones alive (a lone stone may still throw in).
    fn unwise(&self, mv: Move) -> bool {
        match (mv.cell(), self.turn()) {
            (Some(c), Some(me)) => self.self_atari(c, me).is_some_and(|size| size >= 2),
            _ => false,
        }
    }
}

/// A random one of the empty cells around `c` whose 3×3 shape is a MoGo pattern, leaving
/// out own eyes and self-ataris.
fn pattern_reply<R: Rng>(go: &Go, c: Cell, me: Color, rng: &mut R) -> Option<Cell> {
    let patterns = mogo();
    let mut replies = [Cell(0); 8];
    let mut count = 0;
    for n in go.around(c).into_iter().flatten() {
        if go.stone(n).is_none()
            && patterns.matches(go.neighborhood(n))
            && go.self_atari(n, me).is_none()
            && !go.is_own_eye(n, me)
        {
            replies[count] = n;
            count += 1;
        }
    }
    (count > 0).then(|| replies[rng.random_range(0..count)])
}

/// The cell completing a two-bridge of `me` that the opponent's stone on `c` just intruded
/// into: two of `me`'s stones, not adjacent, both next to `c` and to one other empty cell.
fn bridge_reply<P: Position, R: Rng>(
    position: &P,
    c: Cell,
    me: Color,
    rng: &mut R,
) -> Option<Move> {
    let topo = position.topology();
    let own: Vec<Cell> = topo
        .adjacent(c)
        .filter(|&n| position.stone(n) == Some(me))
        .collect();
    let mut replies = [Cell(0); 8];
    let mut count = 0;
    for (i, &a) in own.iter().enumerate() {
        for &b in &own[i + 1..] {
            if topo.adjacent(a).any(|n| n == b) {
                continue;
            }
            for x in topo.adjacent(a) {
                if x != c
                    && count < replies.len()
                    && position.stone(x).is_none()
                    && topo.adjacent(b).any(|n| n == x)
                {
                    replies[count] = x;
                    count += 1;
                }
            }
        }
    }
    (count > 0).then(|| Move::Place(replies[rng.random_range(0..count)]))
}

impl Playout for HexTorus {
    fn tactical_move<R: Rng>(&self, recent: &[(Move, Color)], rng: &mut R) -> Option<Move> {
        bridge_reply(self, placed(recent)?, self.turn()?, rng)
    }
}

impl Playout for MTorus {
    fn tactical_move<R: Rng>(&self, recent: &[(Move, Color)], rng: &mut R) -> Option<Move> {
        bridge_reply(self, placed(recent)?, self.turn()?, rng)
    }
}

/// How many cells a playout policy samples when it looks for a capture.
const SAMPLES: usize = 4;

/// The best of a few random empty cells by `gain` (`None`: never this cell), with its gain.
fn best_sampled<P: Position, R: Rng>(
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

impl Playout for Ctor {
    /// The best of a few sampled cells by the enemy stones a placement there turns over
    /// directly (those that already have 4 of the mover's stones around them), if any.
    fn tactical_move<R: Rng>(&self, _recent: &[(Move, Color)], rng: &mut R) -> Option<Move> {
        let me = self.turn()?;
        let topo = self.topology();
        let turned = |x| {
            topo.adjacent(x)
                .filter(|&e| {
                    self.stone(e) == Some(me.opponent())
                        && topo
                            .adjacent(e)
                            .filter(|&n| self.stone(n) == Some(me))
                            .count()
                            >= 4
                })
                .count() as u32
        };
        best_sampled(self, rng, |x| Some(turned(x)))
            .filter(|&(_, g)| g > 0)
            .map(|(mv, _)| mv)
    }
}

impl Playout for Torus {
    /// In order: win at once where a threat can have appeared (on the opponent's last stone,
    /// or where the mover's previous move touched, see [`touched_by`]); save an own stone the
    /// last move threatened; capture the stone just played; press it, when it already has
    /// one of the mover's stones on a side, from another side; else the best of a few sampled
    /// cells by captures. The last two never put a stone where it is threatened at once.
    fn tactical_move<R: Rng>(&self, recent: &[(Move, Color)], rng: &mut R) -> Option<Move> {
        let me = self.turn()?;
        let them = me.opponent();
        // `torus` alternates strictly, so the last move is the opponent's, the one before the
        // mover's.
        let mut back = recent.iter().rev().map(|&(mv, _)| mv.cell());
        let (last, previous) = (back.next().flatten(), back.next().flatten());
        let mut win = last.and_then(|c| last_liberty(self, c, me));
        if let (None, Some(p)) = (win, previous) {
            touched_by(self, p, me, |s| {
                if win.is_none() && self.stone(s) == Some(them) {
                    win = last_liberty(self, s, me);
                }
            });
        }
        if let Some(x) = win {
            return Some(Move::Place(x));
        }
        let Some(c) = last else {
            return sampled(self, me, rng);
        };
        let mut threatened = None;
        touched_by(self, c, them, |s| {
            if threatened.is_none() && self.stone(s) == Some(me) {
                threatened = last_liberty(self, s, them).map(|l| (s, l));
            }
        });
        let mut cells = Vec::new();
        if let Some((s, liberty)) = threatened {
            rescues(self, s, liberty, me, &mut cells);
        } else if self.stone(c) == Some(them) {
            capturing_cells(self, c, me, &mut cells);
        }
        if let Some(mv) = cells
            .into_iter()
            .map(Move::Place)
            .find(|&mv| self.check(mv).is_ok())
        {
            return Some(mv);
        }
        if threatened.is_some() {
            // The stone cannot be saved.
            return None;
        }
        press(self, c, me, rng).or_else(|| sampled(self, me, rng))
    }
}

/// A random empty side of the opponent's stone on `c`, if it has one of `me`'s stones on a
/// side already and the side is no self-threat.
fn press<R: Rng>(position: &Torus, c: Cell, me: Color, rng: &mut R) -> Option<Move> {
    let topo = position.topology();
    if position.stone(c) != Some(me.opponent())
        || !topo.adjacent(c).any(|n| position.stone(n) == Some(me))
    {
        return None;
    }
    let mut sides = [Cell(0); 4];
    let mut count = 0;
    for n in topo.adjacent(c) {
        if position.stone(n).is_none() && !self_threat(position, n, me) {
            sides[count] = n;
            count += 1;
        }
    }
    (count > 0).then(|| Move::Place(sides[rng.random_range(0..count)]))
}

/// The best of a few sampled cells by captures, never a self-threat.
fn sampled<R: Rng>(position: &Torus, me: Color, rng: &mut R) -> Option<Move> {
    best_sampled(position, rng, |x| {
        (!self_threat(position, x, me)).then(|| captures_at(position, x, me))
    })
    .map(|(mv, _)| mv)
}
