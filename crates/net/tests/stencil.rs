//! The convolutions' padding follows the rules: on every lattice, surface and size, the cells
//! a stencil reads around a cell are exactly the cell's neighbours under the rules (the
//! orthogonal ones of the 3×3 square where only those touch), and a convolution gathers
//! their values.

use std::collections::BTreeSet;

use toroid_net::stencil::{is_neighbor_slot, reads};
use toroid_net::{Device, Stencil, Tensor};
use toroid_rules::{Cell, Lattice, Surface, Topology};

const SURFACES: [Surface; 6] = [
    Surface::Plane,
    Surface::Cylinder,
    Surface::Mobius,
    Surface::Torus,
    Surface::Klein,
    Surface::ProjectivePlane,
];

fn boards() -> impl Iterator<Item = Topology> {
    let lattices = [Lattice::Square4, Lattice::Square8, Lattice::HexOddR];
    lattices.into_iter().flat_map(|lattice| {
        SURFACES.into_iter().flat_map(move |surface| {
            [(3, 3), (4, 6), (5, 5), (6, 6), (7, 4), (9, 9)]
                .into_iter()
                .map(move |(w, h)| Topology::new(lattice, surface, w, h))
        })
    })
}

#[test]
fn a_cells_padded_neighbours_are_its_neighbours_on_every_surface() {
    let mut checked = 0;
    for topology in boards() {
        for cell in topology.cells() {
            let read = reads(&topology, cell);
            assert_eq!(read[0], Some(cell), "{topology:?}");
            let padded: BTreeSet<Cell> = (read.iter().enumerate())
                .filter(|&(k, _)| is_neighbor_slot(topology.lattice(), k))
                .filter_map(|(_, c)| *c)
                .filter(|&c| c != cell)
                .collect();
            let neighbours: BTreeSet<Cell> = topology.adjacent(cell).collect();
            assert_eq!(padded, neighbours, "{topology:?} at {cell:?}");
            checked += 1;
        }
    }
    assert!(checked > 3_000, "{checked}");
}

#[test]
fn a_step_off_an_open_edge_reads_zero_and_a_glued_one_reads_across() {
    // A 3×3 Klein bottle and the same plane: the cell above the top-left corner is the
    // bottom-right one on the Klein bottle (the top edge is glued in reverse), nothing on
    // the plane.
    let device = Device::Cpu;
    let values: Vec<f32> = (1..=9).map(|v| v as f32).collect();
    let x = Tensor::from_vec(values, (1, 9, 1), &device).unwrap();
    for (surface, above) in [(Surface::Klein, 9.0), (Surface::Plane, 0.0)] {
        let topology = Topology::new(Lattice::Square4, surface, 3, 3);
        let stencil = Stencil::new(&topology, &device).unwrap();
        assert_eq!(stencil.width(), 9);
        let gathered: Vec<Vec<Vec<f32>>> = stencil.gather(&x).unwrap().to_vec3().unwrap();
        // Slot 0 is the cell itself, slot 1 the step (0, -1) above it.
        assert_eq!(gathered[0][0][0], 1.0);
        assert_eq!(gathered[0][0][1], above, "{surface:?}");
    }
}
