//! Cell graphs of the boards: which cells touch, and how each step crosses the seams.
//!
//! Every board is a `width × height` grid of cells. A [`Topology`] fixes which cells are
//! neighbours (square grids with 4 or 8 neighbours, hexagonal "odd-r" grids) and how the grid
//! is glued at its edges: each pair of opposite edges is open, glued straight or glued in
//! reverse, which gives the plane, the cylinder, the Möbius strip, the torus, the Klein
//! bottle and the projective plane ([`Surface`]). Every directed adjacency carries a [`Seam`]
//! label (docs/rules.md, "Common conventions").

use std::fmt;

use crate::cell::{Cell, PointName, MAX_SIDE};

/// The most neighbours any cell can have (the 8-neighbourhood of CTOR).
pub const MAX_DEGREE: usize = 8;

/// How many times one step crosses the left/right seam (`cx`) and the top/bottom seam (`cy`).
/// Stepping from column `W-1` to column 0 is `cx = +1`, from row `H-1` to row 0 `cy = +1`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seam {
    pub cx: i8,
    pub cy: i8,
}

impl Seam {
    pub const NONE: Seam = Seam { cx: 0, cy: 0 };

    pub fn is_none(self) -> bool {
        self == Seam::NONE
    }
}

/// The shape of the cells and which of them touch.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lattice {
    /// Square cells, orthogonal neighbours.
    Square4,
    /// Square cells, orthogonal and diagonal neighbours.
    Square8,
    /// Hexagonal cells in rows, odd rows shifted half a cell to the right ("odd-r").
    HexOddR,
}

/// How the grid's edges are glued.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Surface {
    /// No gluing: edge cells have fewer neighbours.
    Plane,
    /// The left edge is glued to the right edge.
    Cylinder,
    /// The left edge is glued to the right edge in reverse: (-1, y) is (W-1, H-1-y).
    Mobius,
    /// Left to right and top to bottom, both straight.
    Torus,
    /// Left to right straight, top to bottom in reverse: (x, -1) is (W-1-x, H-1).
    Klein,
    /// Left to right and top to bottom, both reversed (M-Torus): a projective plane.
    ProjectivePlane,
}

/// How one pair of opposite edges of the grid is glued.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Gluing {
    /// Not glued: the edges are the board's boundary.
    Open,
    /// Glued as they face each other: leaving one edge comes back at the same place on the
    /// other.
    Straight,
    /// Glued with a half turn: leaving one edge comes back mirrored on the other.
    Reversed,
}

impl Surface {
    pub const ALL: [Surface; 6] = [
        Surface::Plane,
        Surface::Cylinder,
        Surface::Mobius,
        Surface::Torus,
        Surface::Klein,
        Surface::ProjectivePlane,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Surface::Plane => "plane",
            Surface::Cylinder => "cylinder",
            Surface::Mobius => "mobius",
            Surface::Torus => "torus",
            Surface::Klein => "klein",
            Surface::ProjectivePlane => "projective-plane",
        }
    }

    /// The surface in words, after "on the": `Möbius strip`, `Klein bottle`, ...
    pub fn words(self) -> &'static str {
        match self {
            Surface::Plane => "plane",
            Surface::Cylinder => "cylinder",
            Surface::Mobius => "Möbius strip",
            Surface::Torus => "torus",
            Surface::Klein => "Klein bottle",
            Surface::ProjectivePlane => "projective plane",
        }
    }

    /// How the left and right edges are glued, and how the top and bottom ones.
    pub fn gluing(self) -> (Gluing, Gluing) {
        use Gluing::*;
        match self {
            Surface::Plane => (Open, Open),
            Surface::Cylinder => (Straight, Open),
            Surface::Mobius => (Reversed, Open),
            Surface::Torus => (Straight, Straight),
            Surface::Klein => (Straight, Reversed),
            Surface::ProjectivePlane => (Reversed, Reversed),
        }
    }

    /// Whether the surface has two sides: no path on it comes back mirrored.
    pub fn is_orientable(self) -> bool {
        let (left_right, top_bottom) = self.gluing();
        left_right != Gluing::Reversed && top_bottom != Gluing::Reversed
    }
}

/// One directed adjacency: the neighbour and the seam label of the step to it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Neighbor {
    pub cell: Cell,
    pub seam: Seam,
}

/// A board's cell graph. Built once per game and shared (it is immutable).
#[derive(Clone, PartialEq, Eq)]
pub struct Topology {
    width: usize,
    height: usize,
    lattice: Lattice,
    surface: Surface,
    /// `MAX_DEGREE` slots per cell; the first `degree[cell]` are used.
    neighbors: Box<[Neighbor]>,
    degree: Box<[u8]>,
    /// `RING` slots per cell: see [`Topology::ring`].
    ring: Box<[Option<Cell>]>,
}

impl fmt::Debug for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Topology({:?} {}×{} on the {})",
            self.lattice,
            self.width,
            self.height,
            self.surface.name()
        )
    }
}

/// The steps `(dx, dy)` to the eight cells around a square cell, clockwise from the one
/// above: the neighbours of [`Lattice::Square8`], and the fields of a Go 3×3 neighbourhood
/// (`Go::neighborhood`).
pub const AROUND: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// Slots per cell of [`Topology::ring`]: the eight cells around a square cell.
const RING: usize = 8;

/// The steps `(dx, dy)` from a cell in row `y` to the cells of its [`Topology::ring`]: the
/// eight around a square cell, the six neighbours of a hex cell (as many in every row).
fn ring_steps(lattice: Lattice, y: usize) -> &'static [(i32, i32)] {
    match lattice {
        Lattice::Square4 | Lattice::Square8 => &AROUND,
        Lattice::HexOddR => lattice_steps(lattice, y),
    }
}

/// The steps `(dx, dy)` from a cell in row `y` to its neighbours, before any wrapping.
fn lattice_steps(lattice: Lattice, y: usize) -> &'static [(i32, i32)] {
    const SQUARE4: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
    // Clockwise from the left neighbour, so consecutive entries are themselves neighbours.
    const HEX_EVEN: [(i32, i32); 6] = [(-1, 0), (-1, -1), (0, -1), (1, 0), (0, 1), (-1, 1)];
    const HEX_ODD: [(i32, i32); 6] = [(-1, 0), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1)];
    match lattice {
        Lattice::Square4 => &SQUARE4,
        Lattice::Square8 => &AROUND,
        Lattice::HexOddR if y.is_multiple_of(2) => &HEX_EVEN,
        Lattice::HexOddR => &HEX_ODD,
    }
}

impl Topology {
    /// Builds the cell graph. Panics only on sizes no rule set allows (a side of 0 or over
    /// [`MAX_SIDE`]); rule sets validate their parameters before calling this.
    pub fn new(lattice: Lattice, surface: Surface, width: usize, height: usize) -> Topology {
        assert!((1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height));
        let n = width * height;
        let mut neighbors = vec![
            Neighbor {
                cell: Cell(0),
                seam: Seam::NONE
            };
            n * MAX_DEGREE
        ];
        let mut degree = vec![0u8; n];
        for y in 0..height {
            for x in 0..width {
                let from = y * width + x;
                for &(dx, dy) in lattice_steps(lattice, y) {
                    let Some((tx, ty, seam)) =
                        glue(surface, width, height, x as i32 + dx, y as i32 + dy)
                    else {
                        continue;
                    };
                    let to = Cell((ty * width + tx) as u16);
                    let slots = &mut neighbors[from * MAX_DEGREE..][..degree[from] as usize];
                    // Two steps can reach the same cell (next to M-Torus corners, or on tiny
                    // tori); it is one neighbour, labelled by the first step in the fixed order.
                    let duplicate = slots.iter().any(|nb| nb.cell == to);
                    if to.index() == from || duplicate {
                        continue;
                    }
                    neighbors[from * MAX_DEGREE + degree[from] as usize] =
                        Neighbor { cell: to, seam };
                    degree[from] += 1;
                }
            }
        }
        let mut ring = vec![None; n * RING];
        for (from, slots) in ring.chunks_mut(RING).enumerate() {
            let (x, y) = (from % width, from / width);
            for (slot, &(dx, dy)) in slots.iter_mut().zip(ring_steps(lattice, y)) {
                *slot = glue(surface, width, height, x as i32 + dx, y as i32 + dy)
                    .map(|(tx, ty, _)| Cell((ty * width + tx) as u16));
            }
        }
        Topology {
            width,
            height,
            lattice,
            surface,
            neighbors: neighbors.into_boxed_slice(),
            degree: degree.into_boxed_slice(),
            ring: ring.into_boxed_slice(),
        }
    }

    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.degree.len()
    }
    pub fn is_empty(&self) -> bool {
        self.degree.is_empty()
    }
    pub fn lattice(&self) -> Lattice {
        self.lattice
    }
    pub fn surface(&self) -> Surface {
        self.surface
    }

    /// Every cell, in index order (row by row, top to bottom).
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.len() as u16).map(Cell)
    }

    /// The neighbours of `cell` with the seam label of each step.
    #[inline]
    pub fn neighbors(&self, cell: Cell) -> &[Neighbor] {
        let i = cell.index();
        &self.neighbors[i * MAX_DEGREE..i * MAX_DEGREE + self.degree[i] as usize]
    }

    /// The cells around `cell` that move patterns read, clockwise and each in a fixed place:
    /// the eight of the 3×3 square around a square cell from the one above ([`AROUND`]), the
    /// six neighbours of a hex cell from the left one. `None` where the step leaves the
    /// board. Unlike [`Topology::neighbors`], a cell that two steps reach is listed twice,
    /// so that every slot keeps its direction.
    #[inline]
    pub fn ring(&self, cell: Cell) -> &[Option<Cell>] {
        let len = ring_steps(self.lattice, 0).len();
        &self.ring[cell.index() * RING..][..len]
    }

    /// Every grid step `(dx, dy)` from `cell` to a neighbour, before the gluing moves it, in
    /// the fixed clockwise order; [`Topology::step`] gives the cell each reaches. Two steps
    /// may reach one neighbour (next to the corners of a reversed gluing), where the
    /// neighbour list keeps the first.
    pub fn grid_steps(&self, cell: Cell) -> &'static [(i32, i32)] {
        lattice_steps(self.lattice, self.xy(cell).1)
    }

    /// The neighbouring cells of `cell` (without seam labels).
    #[inline]
    pub fn adjacent(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.neighbors(cell).iter().map(|nb| nb.cell)
    }

    /// Display coordinates `(x, y)` of a cell.
    #[inline]
    pub fn xy(&self, cell: Cell) -> (usize, usize) {
        (cell.index() % self.width, cell.index() / self.width)
    }

    /// The cell at display coordinates `(x, y)`, if on the board.
    #[inline]
    pub fn cell_at(&self, x: usize, y: usize) -> Option<Cell> {
        (x < self.width && y < self.height).then(|| Cell((y * self.width + x) as u16))
    }

    /// The notation of a cell (its SGF point).
    pub fn point_name(&self, cell: Cell) -> PointName {
        let (x, y) = self.xy(cell);
        PointName(x, y)
    }

    /// The cell that the step `(dx, dy)` from `cell` reaches on this surface, following the
    /// same gluing as the neighbour lists (used for lines of cells, such as diagonals).
    pub fn step(&self, cell: Cell, dx: i32, dy: i32) -> Option<(Cell, Seam)> {
        let (x, y) = self.xy(cell);
        let (tx, ty, seam) = glue(
            self.surface,
            self.width,
            self.height,
            x as i32 + dx,
            y as i32 + dy,
        )?;
        Some((Cell((ty * self.width + tx) as u16), seam))
    }

    /// Every directed adjacency `(from, to, seam)`.
    pub fn edges(&self) -> impl Iterator<Item = (Cell, Cell, Seam)> + '_ {
        self.cells().flat_map(move |c| {
            self.neighbors(c)
                .iter()
                .map(move |nb| (c, nb.cell, nb.seam))
        })
    }
}

/// Maps raw grid coordinates (possibly one step outside the grid) onto the surface, with
/// the seam label of the step that got there, or `None` if the step leaves the board.
fn glue(
    surface: Surface,
    width: usize,
    height: usize,
    x: i32,
    y: i32,
) -> Option<(usize, usize, Seam)> {
    let (w, h) = (width as i32, height as i32);
    let crossing = |v: i32, size: i32| -> i8 {
        if v < 0 {
            -1
        } else if v >= size {
            1
        } else {
            0
        }
    };
    let (left_right, top_bottom) = surface.gluing();
    let (mut x, mut y) = (x, y);
    // Top/bottom first, then left/right (the order matters only for the corner steps of a
    // reversed gluing): (x, -1) is (W-1-x, H-1) and (-1, y) is (W-1, H-1-y) where reversed.
    let cy = crossing(y, h);
    if cy != 0 {
        match top_bottom {
            Gluing::Open => return None,
            Gluing::Straight => y = y.rem_euclid(h),
            Gluing::Reversed => (x, y) = (w - 1 - x, y.rem_euclid(h)),
        }
    }
    let cx = crossing(x, w);
    if cx != 0 {
        match left_right {
            Gluing::Open => return None,
            Gluing::Straight => x = x.rem_euclid(w),
            Gluing::Reversed => (x, y) = (x.rem_euclid(w), h - 1 - y),
        }
    }
    Some((x as usize, y as usize, Seam { cx, cy }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seam_to(t: &Topology, from: (usize, usize), to: (usize, usize)) -> Option<Seam> {
        let from = t.cell_at(from.0, from.1).unwrap();
        let to = t.cell_at(to.0, to.1).unwrap();
        t.neighbors(from)
            .iter()
            .find(|nb| nb.cell == to)
            .map(|nb| nb.seam)
    }

    #[test]
    fn plane_corners_have_two_neighbours() {
        let t = Topology::new(Lattice::Square4, Surface::Plane, 9, 9);
        assert_eq!(t.neighbors(Cell(0)).len(), 2);
        assert_eq!(t.neighbors(t.cell_at(4, 4).unwrap()).len(), 4);
        assert_eq!(t.edges().count(), 2 * (8 * 9 * 2));
    }

    #[test]
    fn cylinder_wraps_left_right_only() {
        let t = Topology::new(Lattice::Square4, Surface::Cylinder, 5, 5);
        assert_eq!(seam_to(&t, (4, 2), (0, 2)), Some(Seam { cx: 1, cy: 0 }));
        assert_eq!(seam_to(&t, (0, 2), (4, 2)), Some(Seam { cx: -1, cy: 0 }));
        assert_eq!(seam_to(&t, (2, 0), (2, 4)), None);
    }

    #[test]
    fn torus_labels_follow_the_spec() {
        let t = Topology::new(Lattice::Square8, Surface::Torus, 10, 10);
        assert_eq!(seam_to(&t, (9, 9), (0, 0)), Some(Seam { cx: 1, cy: 1 }));
        assert_eq!(seam_to(&t, (0, 0), (9, 9)), Some(Seam { cx: -1, cy: -1 }));
        assert_eq!(seam_to(&t, (3, 0), (3, 9)), Some(Seam { cx: 0, cy: -1 }));
        assert!(t.cells().all(|c| t.neighbors(c).len() == 8));
    }

    #[test]
    fn hex_odd_r_neighbours_follow_the_spec() {
        let t = Topology::new(Lattice::HexOddR, Surface::Torus, 8, 8);
        let mut even: Vec<_> = t
            .neighbors(t.cell_at(3, 2).unwrap())
            .iter()
            .map(|nb| t.xy(nb.cell))
            .collect();
        even.sort();
        assert_eq!(even, vec![(2, 1), (2, 2), (2, 3), (3, 1), (3, 3), (4, 2)]);
        let mut odd: Vec<_> = t
            .neighbors(t.cell_at(3, 3).unwrap())
            .iter()
            .map(|nb| t.xy(nb.cell))
            .collect();
        odd.sort();
        assert_eq!(odd, vec![(2, 3), (3, 2), (3, 4), (4, 2), (4, 3), (4, 4)]);
    }

    #[test]
    fn projective_plane_glues_in_reverse() {
        let (w, h) = (9, 9);
        let t = Topology::new(Lattice::HexOddR, Surface::ProjectivePlane, w, h);
        // Up from (2, 0) (an even row) reaches (x-1, -1) and (x, -1) = (W-1-1, H-1), (W-1-2, H-1).
        assert_eq!(seam_to(&t, (2, 0), (7, 8)), Some(Seam { cx: 0, cy: -1 }));
        assert_eq!(seam_to(&t, (2, 0), (6, 8)), Some(Seam { cx: 0, cy: -1 }));
        // Right from (8, 3) reaches (0, H-1-3).
        assert_eq!(seam_to(&t, (8, 3), (0, 5)), Some(Seam { cx: 1, cy: 0 }));
        let mut degrees: Vec<usize> = t.cells().map(|c| t.neighbors(c).len()).collect();
        degrees.sort();
        assert_eq!(&degrees[..4], &[4, 4, 5, 5]);
        assert_eq!(degrees[4], 6);
    }
}
