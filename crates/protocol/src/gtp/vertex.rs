//! GTP vertices and colours, and how a move token of either notation becomes a [`Move`].
//!
//! A GTP vertex is a column letter (`A`..`Z` without `I`, any case) and a row number
//! counted from the bottom: `A1` is the bottom-left point. toroid's own notation (`ee`, two
//! letters, row counted from the top) cannot be confused with it, because a vertex always
//! ends in a digit, so commands accept both.

use toroid_rules::{Color, Move, Topology};

/// Column letters of GTP vertices: the alphabet without `I`.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The widest board GTP vertices can name.
pub const MAX_GTP_SIZE: usize = COLUMNS.len();

/// Reads `black`/`b`/`white`/`w` in any case.
pub fn parse_color(s: &str) -> Option<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// Reads a GTP vertex (`D4`, `d4`) into display coordinates `(x, y)`, `y` from the top.
/// `None` when it is not a vertex of a `width × height` board.
pub fn parse_vertex(s: &str, width: usize, height: usize) -> Option<(usize, usize)> {
    let mut chars = s.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    let x = COLUMNS.iter().position(|&c| c as char == letter)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    (x < width && (1..=height).contains(&row)).then(|| (x, height - row))
}

/// The GTP column letter of column `x` (`x < MAX_GTP_SIZE`).
pub fn column_letter(x: usize) -> char {
    COLUMNS[x] as char
}

/// The GTP vertex of display coordinates `(x, y)` on a board `height` rows high.
pub fn vertex_name(x: usize, y: usize, height: usize) -> String {
    format!("{}{}", column_letter(x), height - y)
}

/// `mv` as players read it, as the page names it (`web/coords.js`): a GTP vertex on the
/// board of a Go-like rule set (`C3`), toroid notation elsewhere (`cc`, `pass`).
pub fn spoken(mv: Move, topology: &Topology, go_like: bool) -> String {
    match mv {
        Move::Place(cell) if go_like && topology.width() <= MAX_GTP_SIZE => {
            let (x, y) = topology.xy(cell);
            vertex_name(x, y, topology.height())
        }
        _ => mv.notation(topology).to_string(),
    }
}

/// Whether a token is meant as a GTP vertex (a letter then digits) rather than a point.
fn looks_like_vertex(s: &str) -> bool {
    let mut chars = s.chars();
    let rest = chars.next().map_or("", |_| chars.as_str());
    !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())
}

/// Reads a move token: `pass` (any case), a GTP vertex, or toroid notation (`ee`, `end`, `swap`).
pub fn parse_move(s: &str, topology: &Topology) -> Option<Move> {
    if s.eq_ignore_ascii_case("pass") {
        return Some(Move::Pass);
    }
    if looks_like_vertex(s) {
        let (x, y) = parse_vertex(s, topology.width(), topology.height())?;
        return topology.cell_at(x, y).map(Move::Place);
    }
    Move::parse(s, topology).ok()
}

/// A move as a GTP vertex (`D4`, `pass`); toroid notation where GTP cannot name it.
pub fn move_vertex(mv: Move, topology: &Topology) -> String {
    match mv {
        Move::Place(cell) if topology.width() <= MAX_GTP_SIZE => {
            let (x, y) = topology.xy(cell);
            vertex_name(x, y, topology.height())
        }
        _ => mv.notation(topology).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toroid_rules::{Lattice, Surface};

    #[test]
    fn vertices_count_rows_from_the_bottom_and_skip_i() {
        assert_eq!(parse_vertex("A1", 9, 9), Some((0, 8)));
        assert_eq!(parse_vertex("j9", 9, 9), Some((8, 0)));
        assert_eq!(parse_vertex("H9", 9, 9), Some((7, 0)));
        assert_eq!(parse_vertex("I5", 9, 9), None);
        assert_eq!(parse_vertex("K5", 9, 9), None);
        assert_eq!(parse_vertex("A10", 9, 9), None);
        assert_eq!(parse_vertex("A0", 9, 9), None);
        assert_eq!(parse_vertex("A+1", 9, 9), None);
        assert_eq!(parse_vertex("Z25", 25, 25), Some((24, 0)));
        assert_eq!(vertex_name(8, 0, 9), "J9");
        assert_eq!(vertex_name(0, 8, 9), "A1");
    }

    #[test]
    fn both_notations_are_read() {
        let t = Topology::new(Lattice::Square4, Surface::Plane, 9, 9);
        let e5 = t.cell_at(4, 4).unwrap();
        assert_eq!(parse_move("E5", &t), Some(Move::Place(e5)));
        assert_eq!(parse_move("ee", &t), Some(Move::Place(e5)));
        assert_eq!(parse_move("PASS", &t), Some(Move::Pass));
        assert_eq!(parse_move("end", &t), Some(Move::EndTurn));
        assert_eq!(parse_move("swap", &t), Some(Move::Swap));
        assert_eq!(parse_move("zz", &t), None);
        assert_eq!(parse_move("é1", &t), None);
        assert_eq!(move_vertex(Move::Place(e5), &t), "E5");
    }
}
