//! Life and death that random playouts misread: the vital point of a small eye space
//! (nakade), also right after a capture opened one, and capturing races between chains
//! short of liberties (semeai).

use toroid_rules::games::Go;
use toroid_rules::{Cell, Color, Position};

/// Eye spaces of three to six points can be killed (or saved) by one stone on their vital
/// point; larger ones live, smaller ones are one eye.
const NAKADE_SIZES: std::ops::RangeInclusive<usize> = 3..=6;

/// The vital point of the eye space that the last move, a placement on `c`, opened by
/// taking three to six stones: where the player who lost them answers, keeping the capturer
/// to one eye. Random playouts seldom find it, so a group whose capture left such a space
/// looks alive to them when it is not (Fuego's playouts answer the same way). The taken
/// stones had no liberty, so their points border only each other and the capturer's stones:
/// they are the whole space.
pub fn vital_point_of_capture(go: &Go, c: Cell) -> Option<Cell> {
    if !NAKADE_SIZES.contains(&(go.stones_taken_by(c) as usize)) {
        return None;
    }
    vital_point(go, &go.captured_by(c))
}

/// Whether `c` is the vital point of a small eye space: an empty region of three to six
/// points bordered by one colour's stones only, where `c` alone touches the most other points
/// of the region (the middle of a straight or bent three, the centre of a pyramid four, of a
/// bulky or cross five, of a rabbity six). Shapes without one such point (a square four, a
/// straight four) have no vital point: they are dead, or alive, whoever moves.
pub fn is_vital_point(go: &Go, c: Cell) -> bool {
    small_region(go, c)
        .filter(|region| NAKADE_SIZES.contains(&region.len()))
        .and_then(|region| vital_point(go, &region))
        == Some(c)
}

/// The point of `region` that alone touches the most other points of it, if there is one.
fn vital_point(go: &Go, region: &[Cell]) -> Option<Cell> {
    let inside = |p: Cell| {
        go.topology()
            .adjacent(p)
            .filter(|n| region.contains(n))
            .count()
    };
    let mut best: Option<(Cell, usize)> = None;
    let mut alone = false;
    for &p in region {
        let touches = inside(p);
        match best {
            Some((_, most)) if touches < most => {}
            Some((_, most)) if touches == most => alone = false,
            _ => {
                best = Some((p, touches));
                alone = true;
            }
        }
    }
    best.filter(|_| alone).map(|(p, _)| p)
}

/// The empty region around the empty point `c`, if it has at most the largest nakade size of
/// points and borders one colour's stones only.
fn small_region(go: &Go, c: Cell) -> Option<Vec<Cell>> {
    if go.stone(c).is_some() {
        return None;
    }
    let mut region = vec![c];
    let mut border: Option<Color> = None;
    let mut next = 0;
    while let Some(&at) = region.get(next) {
        next += 1;
        for n in go.topology().adjacent(at) {
            match go.stone(n) {
                Some(color) if border.is_some_and(|b| b != color) => return None,
                Some(color) => border = Some(color),
                None if region.contains(&n) => {}
                None if region.len() == *NAKADE_SIZES.end() => return None,
                None => region.push(n),
            }
        }
    }
    border.map(|_| region)
}

/// Chains in a race have at most this many liberties.
const RACE_LIBERTIES: u32 = 3;

/// Whether `me` playing `c` takes a liberty from an enemy chain of two stones or more that
/// is in a capturing race: it has two or three liberties and touches a chain of `me`'s, also
/// of two stones or more, with at most three.
pub fn presses_a_race(go: &Go, c: Cell, me: Color) -> bool {
    let topology = go.topology();
    topology.adjacent(c).any(|enemy| {
        if go.stone(enemy) != Some(me.opponent())
            || !(2..=RACE_LIBERTIES).contains(&go.liberties(enemy))
        {
            return false;
        }
        let chain = go.chain(enemy);
        chain.len() >= 2
            && chain.iter().any(|&stone| {
                topology.adjacent(stone).any(|own| {
                    go.stone(own) == Some(me)
                        && go.liberties(own) <= RACE_LIBERTIES
                        && go.chain(own).len() >= 2
                })
            })
    })
}
