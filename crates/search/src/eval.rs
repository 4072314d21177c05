//! Cheap per-game evaluations of a move, for the one-ply greedy bot. Higher is better for the
//! player who made the move; only differences between moves of one position matter.

use toroid_rules::games::Go;
use toroid_rules::{AnyGame, Cell, Color, GameKind, Move, Position};

/// How good `mv`, played by `me` in `before` and leading to `after`, looks.
pub fn evaluate(before: &AnyGame, after: &AnyGame, mv: Move, me: Color) -> f64 {
    let gained = f64::from(after.captures()[me.index()] - before.captures()[me.index()]);
    let Some(cell) = mv.cell() else {
        // Passing or ending a CTOR turn early gives up a placement.
        return -5.0;
    };
    match after {
        AnyGame::Go(g) => {
            let eye = match before {
                AnyGame::Go(b) => b.is_own_eye(cell, me),
                _ => false,
            };
            10.0 * gained + go_shape(g, cell, me) - if eye { 20.0 } else { 0.0 }
        }
        AnyGame::Torus(_) => 10.0 * gained + pressure(after, cell, me),
        // A placement is a stone more; each turnover is a stone more and one fewer for them.
        AnyGame::Ctor(_) => 1.0 + 2.0 * gained,
        // Building one's own loop, and taking the cell from the opponent's: what the same
        // stone would have been worth to them.
        AnyGame::HexTorus(_) | AnyGame::MTorus(_) => {
            connection(after, cell, me) + connection(after, cell, me.opponent())
        }
    }
}

/// Go: liberties of the new chain (up to 4), a penalty for putting it in atari, a bonus for
/// every enemy chain next to it put in atari.
fn go_shape(g: &Go, cell: Cell, me: Color) -> f64 {
    let liberties = g.liberties(cell).min(4) as f64;
    let self_atari = if g.in_atari(cell) { 8.0 } else { 0.0 };
    let ataris = g
        .topology()
        .adjacent(cell)
        .filter(|&n| g.stone(n) == Some(me.opponent()) && g.in_atari(n))
        .count() as f64;
    liberties - self_atari + 2.0 * ataris
}

/// `torus`: enemy stones next to `cell`, weighted by how many of their sides are `me`'s with
/// a stone of `me` on `cell` (a stone with all four is surrounded, with three threatened).
/// The same before the stone is placed (the search's prior) and after (greedy).
pub fn pressure<P: Position>(game: &P, cell: Cell, me: Color) -> f64 {
    let topo = game.topology();
    topo.adjacent(cell)
        .filter(|&n| game.stone(n) == Some(me.opponent()))
        .map(|n| {
            let ours = topo
                .adjacent(n)
                .filter(|&m| m == cell || game.stone(m) == Some(me))
                .count();
            (ours * ours) as f64 * 0.25
        })
        .sum()
}

/// Loop games, for a stone of `me` on `cell` (whoever holds it now): own neighbours, the size
/// of the group it would join, and how many rows or columns that group spans in the direction
/// `me`'s loops run (rows for black's rings in `hex-torus`, columns for white's bracelets,
/// either in `m-torus`).
fn connection(game: &AnyGame, cell: Cell, me: Color) -> f64 {
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
    let span = match (game.kind(), me) {
        (GameKind::HexTorus, Color::Black) => count(&rows),
        (GameKind::HexTorus, Color::White) => count(&cols),
        _ => count(&rows).max(count(&cols)),
    };
    own_neighbours as f64 + 0.2 * group.len() as f64 + span
}
