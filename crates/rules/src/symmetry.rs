//! The symmetries of a board under its rules: permutations of the cells that map the board
//! onto itself (every cell's neighbours, and the ring of cells around it, onto the image's)
//! among the shifts, reflections and rotations of its grid, and that the rule set's goals
//! allow ([`Symmetries`]). A network trained on one position learns its images too.

use crate::cell::Cell;
use crate::topology::Topology;

/// Which of a board's symmetries keep a rule set's rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Symmetries {
    /// Every shift, reflection and rotation of the grid that maps the board onto itself.
    Board,
    /// Only shifts: the goals tell directions and hands apart (in hex-torus black's ring
    /// runs across and white's bracelet down, and a helix is right- or left-handed).
    Shifts,
}

/// The symmetries of `topology` that `allowed` admits, the identity first: each maps cell
/// `c` to `map[c]`.
pub fn symmetries(topology: &Topology, allowed: Symmetries) -> Vec<Vec<Cell>> {
    let (width, height) = (topology.width(), topology.height());
    let linear: &[(bool, bool, bool)] = match allowed {
        Symmetries::Shifts => &[(false, false, false)],
        // Transposing (the first), then flipping x and y.
        Symmetries::Board => &[
            (false, false, false),
            (false, true, false),
            (false, false, true),
            (false, true, true),
            (true, false, false),
            (true, true, false),
            (true, false, true),
            (true, true, true),
        ],
    };
    let mut found = Vec::new();
    for &(transpose, flip_x, flip_y) in linear {
        if transpose && width != height {
            continue;
        }
        for dy in 0..height {
            for dx in 0..width {
                let map: Vec<Cell> = (topology.cells())
                    .map(|cell| {
                        let (mut x, mut y) = topology.xy(cell);
                        if transpose {
                            (x, y) = (y, x);
                        }
                        if flip_x {
                            x = width - 1 - x;
                        }
                        if flip_y {
                            y = height - 1 - y;
                        }
                        let (x, y) = ((x + dx) % width, (y + dy) % height);
                        topology.cell_at(x, y).expect("inside the board")
                    })
                    .collect();
                if keeps_the_board(topology, &map) {
                    found.push(map);
                }
            }
        }
    }
    found
}

/// Whether `map` takes every cell's neighbours, and the ring of cells around it, onto
/// those of its image.
fn keeps_the_board(topology: &Topology, map: &[Cell]) -> bool {
    fn set(cells: impl Iterator<Item = Cell>) -> Vec<Cell> {
        let mut cells: Vec<Cell> = cells.collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }
    let image = |c: Cell| map[c.index()];
    topology.cells().all(|cell| {
        let to = image(cell);
        set(topology.adjacent(cell).map(image)) == set(topology.adjacent(to))
            && set(topology.ring(cell).iter().flatten().map(|&c| image(c)))
                == set(topology.ring(to).iter().flatten().copied())
    })
}
