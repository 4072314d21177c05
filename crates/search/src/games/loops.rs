//! The loop games, `hex-torus` and `m-torus`: what the bots know beyond the rules. The
//! playouts answer an intrusion into a two-bridge; greedy values a cell for the loop it
//! builds and for the one it takes from the opponent.

use std::sync::{Arc, OnceLock};

use rand::Rng;
use toroid_net::Network;
use toroid_rules::games::{HexTorus, MTorus};
use toroid_rules::{Cell, Color, Move, Position};

use crate::budget::Stop;
use crate::knowledge::Knowledge;
use crate::learned::{self, Patterns, Symmetry};
use crate::policy::placed;
use crate::tactics::{losing_among, wins_at_once};

impl Knowledge for HexTorus {
    const SYMMETRY: Symmetry = Symmetry::Oriented;

    fn patterns(&self) -> &'static Patterns {
        static PATTERNS: OnceLock<Patterns> = OnceLock::new();
        learned::embedded(&PATTERNS, include_str!("../../data/patterns/hex-torus.txt"))
    }

    fn network(&self) -> Option<&'static Arc<Network>> {
        Some(built_in_network!("hex-torus"))
    }

    fn avoid(&self, _threats: u32, stop: &Stop) -> Vec<Move> {
        losing_placements(self, stop)
    }

    fn tactical_move<R: Rng>(&self, recent: &[(Move, Color)], rng: &mut R) -> Option<Move> {
        bridge_reply(self, placed(recent)?, self.turn()?, rng)
    }

    /// Black's rings and right helices run across the rows, white's bracelets and left
    /// helices across the columns.
    fn evaluate(&self, after: &HexTorus, cell: Cell, me: Color) -> f64 {
        let span = |me: Color| match me {
            Color::Black => Span::Rows,
            Color::White => Span::Columns,
        };
        connection(after, cell, me, span(me))
            + connection(after, cell, me.opponent(), span(me.opponent()))
    }
}

impl Knowledge for MTorus {
    const SYMMETRY: Symmetry = Symmetry::Oriented;

    /// Without them `max` won 58 of 100 games against `max` with them, both over GTP at 0.1 s
    /// a move (docs/strength.md, "Learned move patterns"): here the replies cost more
    /// simulations than they are worth.
    fn pattern_replies(&self) -> bool {
        false
    }

    fn patterns(&self) -> &'static Patterns {
        static PATTERNS: OnceLock<Patterns> = OnceLock::new();
        learned::embedded(&PATTERNS, include_str!("../../data/patterns/m-torus.txt"))
    }

    fn network(&self) -> Option<&'static Arc<Network>> {
        Some(built_in_network!("m-torus"))
    }

    fn avoid(&self, _threats: u32, stop: &Stop) -> Vec<Move> {
        losing_placements(self, stop)
    }

    fn tactical_move<R: Rng>(&self, recent: &[(Move, Color)], rng: &mut R) -> Option<Move> {
        bridge_reply(self, placed(recent)?, self.turn()?, rng)
    }

    /// A loop through the reversed seams may run either way.
    fn evaluate(&self, after: &MTorus, cell: Cell, me: Color) -> f64 {
        connection(after, cell, me, Span::Either)
            + connection(after, cell, me.opponent(), Span::Either)
    }
}

/// The moves after which the opponent can win at once, unless all are. Stones are never
/// removed, so a stone can only block the opponent's loops: after any move the opponent wins
/// at once exactly on the cells where it would win now, less the cell taken. One scan of
/// those cells decides every move, where checking each move's replies would cost a scan per
/// move (tens of seconds on the largest boards).
fn losing_placements<P: Knowledge>(position: &P, stop: &Stop) -> Vec<Move> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    let threats = opponent_wins(position, &moves, stop);
    losing_among(&moves, stop, |mv| {
        threats.iter().any(|&w| w != mv) && !wins_at_once(position, mv)
    })
    .unwrap_or_default()
}

/// The cells on which the opponent of the player to move would win at once, seen from two
/// positions after two different moves of the player that do not win (one of them may
/// block a threat, the other then does not); those found before `stop` says so.
fn opponent_wins<P: Knowledge>(position: &P, moves: &[Move], stop: &Stop) -> Vec<Move> {
    let mut wins = Vec::new();
    let quiet = moves.iter().filter(|&&mv| !wins_at_once(position, mv));
    for &first in quiet.take(2) {
        let mut after = position.clone();
        after.play(first).expect("legal moves are legal");
        let Some(them) = after.turn() else {
            continue;
        };
        for &mv in moves {
            if stop.now() {
                return wins;
            }
            if mv == first || wins.contains(&mv) {
                continue;
            }
            let mut next = after.clone();
            if next.play(mv).is_ok() && next.outcome().is_some_and(|o| o.winner == Some(them)) {
                wins.push(mv);
            }
        }
    }
    wins
}

/// Which way a player's winning loops run, for [`connection`].
#[derive(Copy, Clone)]
enum Span {
    Rows,
    Columns,
    Either,
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
    // On the stack, as this runs at every move of a playout: a hex cell has six neighbours.
    let mut own = [Cell(0); 6];
    let mut owned = 0;
    for n in topo.adjacent(c).filter(|&n| position.stone(n) == Some(me)) {
        own[owned] = n;
        owned += 1;
    }
    let own = &own[..owned];
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

/// For a stone of `me` on `cell` (whoever holds it now): own neighbours, the size of the
/// group it would join, and how many rows or columns that group spans in the direction
/// `me`'s loops run.
fn connection<P: Position>(game: &P, cell: Cell, me: Color, span: Span) -> f64 {
    let topo = game.topology();
    let own_neighbours = topo
        .adjacent(cell)
        .filter(|&n| game.stone(n) == Some(me))
        .count();
    let mut group = vec![cell];
    let mut seen = vec![false; topo.len()];
    seen[cell.index()] = true;
    let mut rows = vec![false; topo.height()];
    let mut cols = vec![false; topo.width()];
    let mut next = 0;
    while next < group.len() {
        let c = group[next];
        next += 1;
        let (x, y) = topo.xy(c);
        cols[x] = true;
        rows[y] = true;
        for n in topo.adjacent(c) {
            if !seen[n.index()] && game.stone(n) == Some(me) {
                seen[n.index()] = true;
                group.push(n);
            }
        }
    }
    let count = |v: &[bool]| v.iter().filter(|&&b| b).count() as f64;
    let span = match span {
        Span::Rows => count(&rows),
        Span::Columns => count(&cols),
        Span::Either => count(&rows).max(count(&cols)),
    };
    own_neighbours as f64 + 0.2 * group.len() as f64 + span
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use toroid_rules::{AnyGame, GameKind};

    use super::*;
    use crate::tactics::losing_moves;

    /// The one-scan answer is the answer of checking every move's replies, on positions of
    /// both loop games where the opponent threatens to win.
    #[test]
    fn losing_placements_are_exactly_the_moves_that_let_the_opponent_win() {
        let stop = Stop::default();
        let mut threatened = 0;
        for (name, params) in [
            ("hex-torus", ["width=6", "height=6"]),
            ("m-torus", ["width=6", "height=7"]),
        ] {
            let kind: GameKind = name.parse().unwrap();
            for seed in 0..300 {
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let mut game: AnyGame = kind.new_game(&params).unwrap();
                for _ in 0..(12 + seed as usize % 20) {
                    match game.uniform_move(&mut rng) {
                        Some(mv) => game.play(mv).unwrap(),
                        None => break,
                    }
                }
                if game.turn().is_none() {
                    continue;
                }
                let (fast, slow) = toroid_rules::with_game!(&game, g => {
                    (losing_placements(g, &stop), losing_moves(g, &stop))
                });
                threatened += usize::from(!slow.is_empty());
                assert_eq!(fast, slow, "{name}, seed {seed}");
            }
        }
        assert!(
            threatened > 40,
            "only {threatened} positions had moves to avoid"
        );
    }
}
