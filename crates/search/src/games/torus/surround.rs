//! `torus` tactics. A stone with enemy stones on three sides and the fourth side empty is
//! *threatened*: the enemy wins at once by playing that side (step 1 of the rules comes before
//! every legality test). Its owner saves it only by filling the side or by capturing one of
//! the three enemy stones along a diagonal. A placement never captures a stone on its own
//! sides (those lie on no diagonal through it), so a stone placed with enemy stones on three
//! sides and the fourth empty loses at once. Shared by the playout policy and the search.

use toroid_rules::games::Torus;
use toroid_rules::{Cell, Color, Move, Position};

/// The four diagonal directions of [`Torus::diagonal_step`]; `d` and `3 - d` walk one line
/// both ways.
const DIRECTIONS: std::ops::Range<usize> = 0..4;

/// The first cell from `from` in direction `d` whose content is not `holding` (a colour, or
/// `None` for empty), and how many cells it passed; `from` itself when the walk comes all the
/// way round.
fn run_end(position: &Torus, from: Cell, d: usize, holding: Option<Color>) -> (Cell, u32) {
    let mut at = position.diagonal_step(from, d);
    let mut passed = 0;
    while at != from && position.stone(at) == holding {
        at = position.diagonal_step(at, d);
        passed += 1;
    }
    (at, passed)
}

/// The empty side of the stone on `s` when its other three sides hold `by`'s stones.
pub fn last_liberty(position: &Torus, s: Cell, by: Color) -> Option<Cell> {
    let mut empty = None;
    for n in position.topology().adjacent(s) {
        match position.stone(n) {
            None if empty.is_none() => empty = Some(n),
            Some(c) if c == by => {}
            _ => return None,
        }
    }
    empty
}

/// Whether a stone of `me` placed on the empty cell `x` would be threatened at once: it
/// hands the opponent a win (unless it wins itself, which callers rule out first).
pub fn self_threat(position: &Torus, x: Cell, me: Color) -> bool {
    let (mut enemy, mut empty) = (0, 0);
    for n in position.topology().adjacent(x) {
        match position.stone(n) {
            None => empty += 1,
            Some(c) if c != me => enemy += 1,
            Some(_) => {}
        }
    }
    enemy == 3 && empty == 1
}

/// A cell where `by` wins at once: the empty side of a threatened enemy stone.
pub fn winning_cell(position: &Torus, by: Color) -> Option<Cell> {
    position
        .topology()
        .cells()
        .filter(|&s| position.stone(s) == Some(by.opponent()))
        .find_map(|s| last_liberty(position, s, by))
}

/// How many enemy stones a stone of `me` placed on the empty cell `x` would capture.
pub fn captures_at(position: &Torus, x: Cell, me: Color) -> u32 {
    DIRECTIONS
        .map(|d| match run_end(position, x, d, Some(me.opponent())) {
            (end, run) if end == x || position.stone(end) == Some(me) => run,
            _ => 0,
        })
        .sum()
}

/// Calls `visit` on the cells whose stones a placement by `owner` on `p` can have newly
/// threatened or left threatened: `p`, its sides, and the sides of the cells its captures
/// emptied. Those lie on `p`'s diagonals between `p` and a stone of `owner`; the cells there
/// that were empty anyway are visited too.
pub fn touched_by(position: &Torus, p: Cell, owner: Color, mut visit: impl FnMut(Cell)) {
    let topo = position.topology();
    visit(p);
    topo.adjacent(p).for_each(&mut visit);
    for d in DIRECTIONS {
        let (end, _) = run_end(position, p, d, None);
        if end != p && position.stone(end) == Some(owner) {
            let mut at = position.diagonal_step(p, d);
            while at != end {
                topo.adjacent(at).for_each(&mut visit);
                at = position.diagonal_step(at, d);
            }
        }
    }
}

/// Appends the cells where `me` would capture the enemy stone on `e`: the empty end of a
/// diagonal run of enemy stones through `e` whose other end holds `me`'s stone, or whose two
/// ends are the same empty cell (the run fills the rest of the cycle).
pub fn capturing_cells(position: &Torus, e: Cell, me: Color, out: &mut Vec<Cell>) {
    let them = Some(me.opponent());
    for d in 0..2 {
        let (a, _) = run_end(position, e, d, them);
        let (b, _) = run_end(position, e, 3 - d, them);
        match (position.stone(a), position.stone(b)) {
            (None, Some(c)) if c == me => out.push(a),
            (Some(c), None) if c == me => out.push(b),
            (None, None) if a == b => out.push(a),
            _ => {}
        }
    }
}

/// Appends the cells that might save `me`'s stone on `s`, threatened on its empty side
/// `liberty`: that side, then the cells capturing one of the enemy stones around it. Some
/// may be illegal.
pub fn rescues(position: &Torus, s: Cell, liberty: Cell, me: Color, out: &mut Vec<Cell>) {
    out.push(liberty);
    for e in position.topology().adjacent(s).filter(|&e| e != liberty) {
        capturing_cells(position, e, me, out);
    }
}

/// Appends the legal moves after which the opponent of the player to move cannot win at
/// once, when the player to move cannot win at once either (callers check that first).
/// Nothing is appended when every move loses.
pub fn safe_moves(position: &Torus, out: &mut Vec<Move>) {
    let Some(me) = position.turn() else {
        return;
    };
    let them = me.opponent();
    let threat = position
        .topology()
        .cells()
        .filter(|&s| position.stone(s) == Some(me))
        .find_map(|s| last_liberty(position, s, them).map(|l| (s, l)));
    match threat {
        // No stone is threatened, and only a stone placed threatened becomes so.
        None => {
            let start = out.len();
            position.legal_moves(out);
            let mut keep = start;
            for i in start..out.len() {
                let mv = out[i];
                if !mv.cell().is_some_and(|x| self_threat(position, x, me)) {
                    out[keep] = mv;
                    keep += 1;
                }
            }
            out.truncate(keep);
        }
        // Every saving move saves this stone; playing each candidate tells which also leave
        // no other stone (nor the new one) threatened.
        Some((s, liberty)) => {
            let mut cells = Vec::new();
            rescues(position, s, liberty, me, &mut cells);
            cells.sort_unstable();
            cells.dedup();
            for x in cells {
                let mut after = position.clone();
                if after.play(Move::Place(x)).is_ok() && winning_cell(&after, them).is_none() {
                    out.push(Move::Place(x));
                }
            }
        }
    }
}

/// Appends the cells where a placement by `me` may threaten an enemy stone: the empty sides
/// of an enemy stone with two of `me`'s stones on its sides and the other two empty, and the
/// cells capturing the enemy stone that fills the last side of an enemy stone `me` has on
/// three (the capture empties that side again). Not every such placement is legal.
fn threat_cells(position: &Torus, me: Color, out: &mut Vec<Cell>) {
    let topo = position.topology();
    let them = me.opponent();
    for s in topo.cells().filter(|&s| position.stone(s) == Some(them)) {
        let (mut mine, mut empty, mut filler) = (0, 0, None);
        for n in topo.adjacent(s) {
            match position.stone(n) {
                None => empty += 1,
                Some(c) if c == me => mine += 1,
                Some(_) => filler = Some(n),
            }
        }
        match (mine, empty, filler) {
            (2, 2, _) => out.extend(topo.adjacent(s).filter(|&n| position.stone(n).is_none())),
            (3, 0, Some(f)) => capturing_cells(position, f, me, out),
            _ => {}
        }
    }
    out.sort_unstable();
    out.dedup();
}

/// A move with which the player to move wins by force with at most `threats` threats before
/// the winning move: a move that wins at once, or a threat after which every reply that
/// stops it ([`safe_moves`]) still loses this way with one threat fewer. Sound, not complete:
/// only the threats `threat_cells` finds are tried.
pub fn forced_win(position: &Torus, threats: u32) -> Option<Move> {
    let me = position.turn()?;
    if let Some(x) = winning_cell(position, me) {
        return Some(Move::Place(x));
    }
    if threats == 0 {
        return None;
    }
    let them = me.opponent();
    let mut cells = Vec::new();
    threat_cells(position, me, &mut cells);
    let mut replies = Vec::new();
    cells.into_iter().map(Move::Place).find(|&mv| {
        let mut after = position.clone();
        if after.play(mv).is_err()
            || winning_cell(&after, them).is_some()
            || winning_cell(&after, me).is_none()
        {
            return false;
        }
        replies.clear();
        safe_moves(&after, &mut replies);
        replies.iter().all(|&reply| {
            let mut next = after.clone();
            next.play(reply).is_ok() && forced_win(&next, threats - 1).is_some()
        })
    })
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use toroid_rules::Params;

    use super::*;
    use crate::tactics::{can_win_at_once, lets_opponent_win, wins_at_once};

    fn torus(params: &[&str]) -> Torus {
        Torus::new(&Params::parse(Torus::PARAMS, params).unwrap()).unwrap()
    }

    /// Positions in play from random games on a 7×7 board, `plies` random moves in.
    fn positions(seeds: u64, plies: usize) -> Vec<Torus> {
        let mut out = Vec::new();
        for seed in 0..seeds {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let mut g = torus(&["size=7"]);
            for _ in 0..plies {
                match g.playout_move(&mut rng) {
                    Some(mv) if g.turn().is_some() => g.play(mv).unwrap(),
                    _ => break,
                }
            }
            if g.turn().is_some() {
                out.push(g);
            }
        }
        out
    }

    fn legal(g: &Torus) -> Vec<Move> {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        moves
    }

    #[test]
    fn winning_cell_finds_exactly_the_wins_at_once() {
        for g in positions(150, 24) {
            let me = g.turn().unwrap();
            let wins: Vec<Move> = legal(&g)
                .into_iter()
                .filter(|&mv| wins_at_once(&g, mv))
                .collect();
            match winning_cell(&g, me) {
                Some(x) => assert!(wins.contains(&Move::Place(x)), "{x:?} is no win"),
                None => assert!(wins.is_empty(), "missed {wins:?}"),
            }
        }
    }

    #[test]
    fn safe_moves_are_exactly_those_that_do_not_lose_at_once() {
        let mut scratch = Vec::new();
        let mut threatened = 0;
        for g in positions(150, 24) {
            if can_win_at_once(&g, &mut scratch) {
                continue;
            }
            let them = g.turn().unwrap().opponent();
            threatened += usize::from(winning_cell(&g, them).is_some());
            let mut safe = Vec::new();
            safe_moves(&g, &mut safe);
            safe.sort_unstable_by_key(|mv| mv.cell());
            let mut expected: Vec<Move> = legal(&g)
                .into_iter()
                .filter(|&mv| !lets_opponent_win(&g, mv, &mut scratch))
                .collect();
            expected.sort_unstable_by_key(|mv| mv.cell());
            assert_eq!(safe, expected);
        }
        assert!(threatened > 10, "only {threatened} threatened positions");
    }

    #[test]
    fn a_forced_win_with_one_threat_wins_against_every_reply() {
        let mut scratch = Vec::new();
        let mut found = 0;
        for g in positions(300, 20) {
            let me = g.turn().unwrap();
            if winning_cell(&g, me).is_some() {
                continue;
            }
            let Some(mv) = forced_win(&g, 1) else {
                continue;
            };
            found += 1;
            let mut after = g.clone();
            after.play(mv).unwrap();
            for reply in legal(&after) {
                let mut next = after.clone();
                next.play(reply).unwrap();
                assert!(
                    next.turn() == Some(me) && can_win_at_once(&next, &mut scratch),
                    "{mv:?} then {reply:?} does not lose at once"
                );
            }
        }
        assert!(found > 5, "only {found} forced wins");
    }

    /// A 9×9 game after `moves`.
    fn replay(moves: &[&str]) -> Torus {
        let mut g = torus(&[]);
        for m in moves {
            g.play(Move::parse(m, g.topology()).unwrap()).unwrap();
        }
        g
    }

    #[test]
    fn a_capture_that_empties_a_filled_side_threatens_again() {
        // White's ad threatens black's ae, black fills af, white's ig captures af.
        let g = replay(&["ae", "be", "ea", "ie", "eh", "ad", "af", "ig"]);
        let cell = |m: &str| Move::parse(m, g.topology()).unwrap().cell().unwrap();
        assert_eq!(last_liberty(&g, cell("ae"), Color::White), Some(cell("af")));
        let mut visited = Vec::new();
        touched_by(&g, cell("ig"), Color::White, |c| visited.push(c));
        assert!(visited.contains(&cell("ae")));
        // Filling again would play into a capture: black has no saving move left.
        let mut safe = Vec::new();
        safe_moves(&g, &mut safe);
        assert!(safe.is_empty(), "{safe:?}");
    }

    #[test]
    fn touched_by_visits_every_stone_a_placement_threatens() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for g in positions(150, 24) {
            let Some(mv) = g.playout_move(&mut rng) else {
                continue;
            };
            let (Some(p), Some(owner)) = (mv.cell(), g.turn()) else {
                continue;
            };
            let mut after = g.clone();
            after.play(mv).unwrap();
            let mut visited = Vec::new();
            touched_by(&after, p, owner, |c| visited.push(c));
            for s in after.topology().cells() {
                let Some(color) = after.stone(s) else {
                    continue;
                };
                let now = last_liberty(&after, s, color.opponent());
                if now.is_some() && now != last_liberty(&g, s, color.opponent()) {
                    assert!(visited.contains(&s), "{s:?} threatened after {p:?}");
                }
            }
        }
    }
}
