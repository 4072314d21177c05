//! Text boards for people. A board that wraps is drawn with a one-cell ghost frame: beyond
//! each glued edge the cells that lie across the seam are repeated in lower case (`x`, `o`,
//! `,` for empty), so a line or group that crosses a seam can be followed by eye. The frame
//! comes from the topology's own gluing, so on the projective plane of `m-torus` it shows the
//! opposite edge reversed. Hexagonal boards are drawn with odd rows shifted half a cell.

use std::fmt::Write;

use toroid_rules::cell::value_letter;
use toroid_rules::{Cell, Color, Lattice, Move, Position, Surface, Topology};

const FRAME_LEGEND: &str = "    (outside the frame, lower case: the cells across each seam)\n";

/// What is drawn at a grid position, which may lie one step outside the board.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Slot {
    Real(Cell),
    Ghost(Cell),
    Blank,
}

fn slot(topology: &Topology, gx: i32, gy: i32) -> Slot {
    let (w, h) = (topology.width() as i32, topology.height() as i32);
    let (x, y) = (gx.clamp(0, w - 1), gy.clamp(0, h - 1));
    let edge = Cell((y * w + x) as u16);
    if (x, y) == (gx, gy) {
        return Slot::Real(edge);
    }
    match topology.step(edge, gx - x, gy - y) {
        Some((cell, _)) => Slot::Ghost(cell),
        None => Slot::Blank,
    }
}

fn glyph(stone: Option<Color>, ghost: bool) -> char {
    match (stone, ghost) {
        (Some(Color::Black), false) => 'X',
        (Some(Color::White), false) => 'O',
        (None, false) => '.',
        (Some(Color::Black), true) => 'x',
        (Some(Color::White), true) => 'o',
        (None, true) => ',',
    }
}

/// The board with coordinate letters and, where it wraps, the ghost frame. The cell of
/// `last` (the last move) is marked with parentheses.
pub fn board<P: Position>(game: &P, last: Option<Move>) -> String {
    let topology = game.topology();
    let (w, h) = (topology.width() as i32, topology.height() as i32);
    let ghost = |gx, gy| matches!(slot(topology, gx, gy), Slot::Ghost(_));
    let rows: Vec<i32> = (-1..=h)
        .filter(|&gy| (0..h).contains(&gy) || (-1..=w).any(|gx| ghost(gx, gy)))
        .collect();
    let columns: Vec<i32> = (-1..=w)
        .filter(|&gx| (0..w).contains(&gx) || (-1..=h).any(|gy| ghost(gx, gy)))
        .collect();
    let hex = topology.lattice() == Lattice::HexOddR;
    let marked = last.and_then(Move::cell);

    let mut out = String::from("   ");
    for &gx in &columns {
        out.push(' ');
        out.push(if (0..w).contains(&gx) {
            value_letter(gx as usize)
        } else {
            ' '
        });
    }
    out = out.trim_end().to_string();
    out.push('\n');
    for &gy in &rows {
        let label = if (0..h).contains(&gy) {
            value_letter(gy as usize)
        } else {
            ' '
        };
        // Separators before each cell and after the last: spaces, or parentheses around
        // the last move.
        let mut separators = vec![' '; columns.len() + 1];
        let mut glyphs = Vec::with_capacity(columns.len());
        for (i, &gx) in columns.iter().enumerate() {
            let s = slot(topology, gx, gy);
            glyphs.push(match s {
                Slot::Real(c) => glyph(game.stone(c), false),
                Slot::Ghost(c) => glyph(game.stone(c), true),
                Slot::Blank => ' ',
            });
            if matches!(s, Slot::Real(c) if Some(c) == marked) {
                separators[i] = '(';
                separators[i + 1] = ')';
            }
        }
        let mut line = format!(" {label} ");
        if hex && gy.rem_euclid(2) == 1 {
            line.push(' ');
        }
        for (sep, g) in separators.iter().zip(&glyphs) {
            line.push(*sep);
            line.push(*g);
        }
        line.push(separators[columns.len()]);
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// `size=9, komi=7.5, ...`: the parameters of `game` in one line.
pub fn params_line<P: Position>(game: &P) -> String {
    game.params()
        .iter()
        .map(|(name, value)| match value {
            Some(v) => format!("{name}={v}"),
            None => format!("{name}=?"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Lines under the board: the rule set, whose turn it is or how the game ended, captures,
/// score, the last move and the cells that decided the game.
pub fn status<P: Position>(game: &P, history: &[Move]) -> String {
    let topology = game.topology();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {}×{} on the {} ({})",
        game.kind(),
        topology.width(),
        topology.height(),
        topology.surface().words(),
        params_line(game)
    );
    match (game.outcome(), game.turn()) {
        (Some(outcome), _) => {
            let _ = writeln!(out, "game over after {} moves: {outcome}", game.ply());
        }
        (None, Some(color)) => {
            let _ = writeln!(out, "move {}: {color} to move", game.ply() + 1);
        }
        (None, None) => {}
    }
    let [black, white] = game.captures();
    if black + white > 0 {
        let _ = writeln!(out, "captures: black {black}, white {white}");
    }
    if let Some([black, white]) = game.score() {
        let _ = writeln!(out, "score: black {black}, white {white}");
    }
    if let Some(last) = history.last() {
        let _ = writeln!(out, "last move: {}", last.notation(topology));
    }
    let highlight = game.highlight();
    if !highlight.is_empty() {
        let cells: Vec<String> = highlight
            .iter()
            .map(|&c| topology.point_name(c).to_string())
            .collect();
        let _ = writeln!(out, "decisive cells: {}", cells.join(" "));
    }
    out
}

/// The board, what its ghost frame means where it has one, and the status lines.
pub fn game_text<P: Position>(game: &P, history: &[Move]) -> String {
    let mut out = board(game, history.last().copied());
    if game.topology().surface() != Surface::Plane {
        out.push_str(FRAME_LEGEND);
    }
    out.push('\n');
    out.push_str(&status(game, history));
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use toroid_rules::{GameKind, IllegalMove, Outcome, Params, SetupChange, SetupError};

    use super::*;

    /// A board with stones and no rules: the renderer needs nothing else.
    #[derive(Clone)]
    struct Stones {
        topology: Arc<Topology>,
        stones: Vec<Option<Color>>,
        params: Params,
    }

    impl Stones {
        fn new(lattice: Lattice, surface: Surface, w: usize, h: usize) -> Stones {
            Stones {
                topology: Arc::new(Topology::new(lattice, surface, w, h)),
                stones: vec![None; w * h],
                params: Params::defaults(&[]),
            }
        }

        fn with(mut self, point: &str, color: Color) -> Stones {
            let mv = Move::parse(point, &self.topology).unwrap();
            self.stones[mv.cell().unwrap().index()] = Some(color);
            self
        }
    }

    impl Position for Stones {
        fn kind(&self) -> GameKind {
            GameKind::default()
        }
        fn params(&self) -> &Params {
            &self.params
        }
        fn topology(&self) -> &Topology {
            &self.topology
        }
        fn stone(&self, cell: Cell) -> Option<Color> {
            self.stones[cell.index()]
        }
        fn turn(&self) -> Option<Color> {
            Some(Color::Black)
        }
        fn outcome(&self) -> Option<Outcome> {
            None
        }
        fn legal_moves(&self, _out: &mut Vec<Move>) {}
        fn play(&mut self, _mv: Move) -> Result<(), IllegalMove> {
            Err(IllegalMove::GameOver)
        }
        fn hash(&self) -> u64 {
            0
        }
        fn ply(&self) -> usize {
            0
        }
        fn setup(&mut self, _: &[SetupChange], _: Color) -> Result<(), SetupError> {
            Err(SetupError::GameOver)
        }
    }

    fn show(stones: &Stones, last: Option<&str>) -> String {
        let last = last.map(|p| Move::parse(p, &stones.topology).unwrap());
        board(stones, last)
    }

    #[test]
    fn torus_frame_repeats_the_opposite_edges() {
        let stones = Stones::new(Lattice::Square4, Surface::Torus, 5, 5)
            .with("aa", Color::Black)
            .with("ec", Color::White)
            .with("ce", Color::Black);
        let expected = "      a b c d e
    , , , x , , ,
 a  , X . . . . x
 b  , . . . . . ,
 c  o . . . . O ,
 d  , . . . . . ,
 e  , . .(X). . ,
    , x , , , , x
";
        assert_eq!(show(&stones, Some("ce")), expected);
    }

    #[test]
    fn plane_has_no_frame_and_cylinder_only_side_columns() {
        let plane = Stones::new(Lattice::Square4, Surface::Plane, 3, 2).with("aa", Color::Black);
        assert_eq!(
            show(&plane, Some("aa")),
            "    a b c\n a (X). .\n b  . . .\n"
        );
        let cylinder =
            Stones::new(Lattice::Square4, Surface::Cylinder, 3, 2).with("cb", Color::White);
        assert_eq!(
            show(&cylinder, None),
            "      a b c\n a  , . . . ,\n b  o . . O ,\n"
        );
    }

    #[test]
    fn projective_plane_frame_is_the_opposite_edge_reversed() {
        // (x, -1) is (W-1-x, H-1) and (-1, y) is (W-1, H-1-y); corners glue twice.
        let stones = Stones::new(Lattice::HexOddR, Surface::ProjectivePlane, 5, 5)
            .with("aa", Color::Black)
            .with("eb", Color::White)
            .with("be", Color::Black);
        let expected = "      a b c d e
     x , , , x , ,
 a  , X . . . . ,
 b   , . . . . O ,
 c  , . . . . . ,
 d   o . . . . . ,
 e  , . X . . . x
     , , , , , x ,
";
        assert_eq!(show(&stones, None), expected);
    }

    #[test]
    fn hex_torus_shifts_odd_rows_and_the_frame_with_them() {
        let stones = Stones::new(Lattice::HexOddR, Surface::Torus, 4, 4).with("db", Color::White);
        let expected = "      a b c d
     , , , , , ,
 a  , . . . . ,
 b   o . . . O ,
 c  , . . . . ,
 d   , . . . . ,
    , , , , , ,
";
        assert_eq!(show(&stones, None), expected);
    }
}
