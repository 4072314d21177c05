//! The loop games, `hex-torus` and `m-torus`: what the bots know beyond the rules. The
//! playouts answer an intrusion into a two-bridge; greedy values a cell for the loop it
//! builds and for the one it takes from the opponent.

use rand::Rng;
use toroid_rules::games::{HexTorus, MTorus};
use toroid_rules::{Cell, Color, Move, Position};

use crate::knowledge::Knowledge;
use crate::policy::placed;

impl Knowledge for HexTorus {
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
    fn tactical_move<R: Rng>(&self, recent: &[(Move, Color)], rng: &mut R) -> Option<Move> {
        bridge_reply(self, placed(recent)?, self.turn()?, rng)
    }

    /// A loop through the reversed seams may run either way.
    fn evaluate(&self, after: &MTorus, cell: Cell, me: Color) -> f64 {
        connection(after, cell, me, Span::Either)
            + connection(after, cell, me.opponent(), Span::Either)
    }
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
