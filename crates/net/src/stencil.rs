//! Which cells a convolution reads around each cell, as the board's surface glues them.
//!
//! A network for a flat board pads its convolutions with zeros. On toroid's boards that would
//! cut the board at seams the rules do not have, so the convolutions here read each cell's
//! [`Topology::ring`] instead: the 3×3 square around a square cell, the six neighbours of a
//! hex cell, each step followed through the gluing (straight on a torus, flipped on a Klein
//! bottle or a projective plane). That is padding that wraps exactly as the rules glue the
//! board; only a step off an open edge reads zeros.

use candle_core::{Device, Result, Tensor};
use toroid_rules::{Cell, Lattice, Topology};

/// The cells a convolution reads around every cell of one board.
#[derive(Clone, Debug)]
pub struct Stencil {
    cells: usize,
    width: usize,
    /// `cells × width` indices into the cells followed by one zero cell (index `cells`), which
    /// stands for every step off an open edge.
    indices: Tensor,
}

impl Stencil {
    /// The stencil of `topology`'s cells: each cell itself, then its ring.
    pub fn new(topology: &Topology, device: &Device) -> Result<Stencil> {
        let cells = topology.len();
        let rows: Vec<Vec<Option<Cell>>> = topology.cells().map(|c| reads(topology, c)).collect();
        let width = Stencil::width_of(topology);
        let flat: Vec<u32> = (rows.iter().flatten())
            .map(|cell| cell.map_or(cells, Cell::index) as u32)
            .collect();
        let indices = Tensor::from_vec(flat, cells * width, device)?;
        Ok(Stencil {
            cells,
            width,
            indices,
        })
    }

    /// How many cells the stencil reads around each cell (itself included): 9 on square
    /// lattices, 7 on hex.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The [`Stencil::width`] of `topology`'s stencil, without making it.
    pub fn width_of(topology: &Topology) -> usize {
        topology
            .cells()
            .next()
            .map_or(1, |cell| reads(topology, cell).len())
    }

    /// The board's cell count.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The values around every cell: `x` is `batch × cells × channels`, the result
    /// `batch × cells × (width · channels)`, slot `k` of cell `i` holding the channels of
    /// [`reads`]`(i)[k]` (zeros off an open edge).
    pub fn gather(&self, x: &Tensor) -> Result<Tensor> {
        let (batch, cells, channels) = x.dims3()?;
        debug_assert_eq!(cells, self.cells);
        let zero = Tensor::zeros((batch, 1, channels), x.dtype(), x.device())?;
        let padded = Tensor::cat(&[x, &zero], 1)?;
        padded
            .index_select(&self.indices, 1)?
            .reshape((batch, cells, self.width * channels))
    }
}

/// The cells a convolution reads around `cell`, in the order of its weights: the cell, then
/// its [`Topology::ring`] (`None` off an open edge).
pub fn reads(topology: &Topology, cell: Cell) -> Vec<Option<Cell>> {
    std::iter::once(Some(cell))
        .chain(topology.ring(cell).iter().copied())
        .collect()
}

/// Whether slot `k` of [`reads`] on `lattice` is a neighbour under the rules: every slot of
/// the ring on hex and 8-neighbour lattices, the orthogonal ones on 4-neighbour lattices
/// (the ring of a square cell runs clockwise from the cell above, so those are the odd slots
/// once the cell itself is first).
pub fn is_neighbor_slot(lattice: Lattice, k: usize) -> bool {
    match lattice {
        Lattice::Square4 => k % 2 == 1,
        Lattice::Square8 | Lattice::HexOddR => k > 0,
    }
}
