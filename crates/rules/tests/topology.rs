//! Properties of the cell graphs: adjacency is symmetric with negated seam labels, and the
//! hexagonal boards of `hex-torus` and `m-torus` triangulate their closed surfaces with seam
//! labels that the loop detectors can rely on.

use std::collections::{BTreeSet, HashMap};

use proptest::prelude::*;
use toroid_rules::topology::AROUND;
use toroid_rules::{Cell, Gluing, Lattice, Seam, Surface, Topology};

const LATTICES: [Lattice; 3] = [Lattice::Square4, Lattice::Square8, Lattice::HexOddR];
const SURFACES: [Surface; 4] = [
    Surface::Plane,
    Surface::Cylinder,
    Surface::Torus,
    Surface::ProjectivePlane,
];

fn seam(t: &Topology, from: Cell, to: Cell) -> Option<Seam> {
    t.neighbors(from)
        .iter()
        .find(|nb| nb.cell == to)
        .map(|nb| nb.seam)
}

fn hex_torus(w: usize, h: usize) -> Topology {
    Topology::new(Lattice::HexOddR, Surface::Torus, w, h)
}

fn m_torus(w: usize, h: usize) -> Topology {
    Topology::new(Lattice::HexOddR, Surface::ProjectivePlane, w, h)
}

/// Every triangle of the graph (three mutually adjacent cells), each once, sorted.
fn triangles(t: &Topology) -> Vec<[Cell; 3]> {
    let mut out = BTreeSet::new();
    for (u, v, _) in t.edges() {
        for w in t.adjacent(v) {
            if w != u && seam(t, w, u).is_some() {
                let mut tri = [u, v, w];
                tri.sort();
                out.insert(tri);
            }
        }
    }
    out.into_iter().collect()
}

/// The seam label summed around the triangle `a → b → c → a`.
fn triangle_sum(t: &Topology, [a, b, c]: [Cell; 3]) -> (i32, i32) {
    [(a, b), (b, c), (c, a)]
        .into_iter()
        .map(|(x, y)| seam(t, x, y).unwrap())
        .fold((0, 0), |(sx, sy), s| (sx + s.cx as i32, sy + s.cy as i32))
}

/// Checks that the graph is the 1-skeleton of a triangulated closed surface of Euler
/// characteristic `euler`: every edge lies on exactly two triangles, and the neighbours of
/// every cell form one cycle through those triangles (its link).
fn assert_triangulates(t: &Topology, euler: i64) {
    let tris = triangles(t);
    let mut per_edge: HashMap<(Cell, Cell), usize> = HashMap::new();
    for &[a, b, c] in &tris {
        for e in [(a, b), (a, c), (b, c)] {
            *per_edge.entry(e).or_default() += 1;
        }
    }
    let edges = t.edges().filter(|(u, v, _)| u < v).count();
    assert_eq!(per_edge.len(), edges, "{t:?}: an edge on no triangle");
    assert!(
        per_edge.values().all(|&n| n == 2),
        "{t:?}: an edge not on exactly two triangles"
    );
    for cell in t.cells() {
        let ring: Vec<Cell> = t.adjacent(cell).collect();
        // Walk the link: from a neighbour, step to a neighbour of `cell` adjacent to it.
        let mut seen = vec![ring[0]];
        let mut prev = None;
        let mut at = ring[0];
        loop {
            let next: Vec<Cell> = ring
                .iter()
                .copied()
                .filter(|&n| n != at && seam(t, at, n).is_some())
                .collect();
            assert_eq!(next.len(), 2, "{t:?}: the link of {cell:?} is not a cycle");
            let step = if Some(next[0]) == prev {
                next[1]
            } else {
                next[0]
            };
            if step == ring[0] {
                break;
            }
            assert!(
                !seen.contains(&step),
                "{t:?}: the link of {cell:?} branches"
            );
            seen.push(step);
            prev = Some(at);
            at = step;
        }
        assert_eq!(
            seen.len(),
            ring.len(),
            "{t:?}: the link of {cell:?} is more than one cycle"
        );
    }
    let (v, e, f) = (t.len() as i64, edges as i64, tris.len() as i64);
    assert_eq!(v - e + f, euler, "{t:?}: V - E + F");
}

/// Whether the rows of a hexagonal board line up across its top/bottom seam: the odd-r shift
/// needs an even height on the torus and an odd one on the projective plane (where the seam
/// also reverses the row). Other sizes give one-way adjacencies and no rule set allows them.
fn rows_match(lattice: Lattice, surface: Surface, h: usize) -> bool {
    match (lattice, surface) {
        (Lattice::HexOddR, Surface::Torus) => h.is_multiple_of(2),
        (Lattice::HexOddR, Surface::ProjectivePlane) => !h.is_multiple_of(2),
        _ => true,
    }
}

fn lattice_strategy() -> impl Strategy<Value = Lattice> {
    prop::sample::select(LATTICES.to_vec())
}

fn surface_strategy() -> impl Strategy<Value = Surface> {
    prop::sample::select(SURFACES.to_vec())
}

proptest! {
    #![proptest_config(toroid_testkit::cases(400))]

    /// Adjacency is symmetric, and the way back carries the negated label. On the projective
    /// plane two opposite corners touch across either seam — the step one way crosses the
    /// top/bottom seam, the step back the left/right seam — so there only the parity of
    /// `cx + cy` is the same both ways (parity is all that M-Torus uses).
    /// From a side of 3 on: with a side of 1 or 2, two steps reach the same cell and the single
    /// neighbour entry keeps one step's label.
    #[test]
    fn adjacency_is_symmetric_with_negated_labels(
        lattice in lattice_strategy(),
        surface in surface_strategy(),
        w in 3usize..=24,
        h in 3usize..=24,
    ) {
        prop_assume!(rows_match(lattice, surface, h));
        let t = Topology::new(lattice, surface, w, h);
        let mut unlike = Vec::new();
        for (u, v, s) in t.edges() {
            prop_assert_ne!(u, v);
            let back = seam(&t, v, u);
            prop_assert!(back.is_some(), "{:?}: {:?} → {:?} but not back", t, u, v);
            let back = back.unwrap();
            prop_assert_eq!((s.cx + s.cy + back.cx + back.cy) % 2, 0);
            if (back.cx, back.cy) != (-s.cx, -s.cy) {
                unlike.push((t.xy(u), t.xy(v)));
            }
        }
        if surface == Surface::ProjectivePlane {
            unlike.sort();
            let corners = match lattice {
                Lattice::HexOddR => [(0, h - 1), (w - 1, 0)],
                _ => [(0, 0), (w - 1, h - 1)],
            };
            prop_assert_eq!(unlike, vec![(corners[0], corners[1]), (corners[1], corners[0])]);
        } else {
            prop_assert!(unlike.is_empty(), "{:?}: {:?}", t, unlike);
        }
    }
}

#[test]
fn plane_labels_are_zero_and_cylinder_never_crosses_top_bottom() {
    for lattice in LATTICES {
        for (w, h) in [(3, 3), (5, 7), (9, 9)] {
            let plane = Topology::new(lattice, Surface::Plane, w, h);
            assert!(plane.edges().all(|(_, _, s)| s.is_none()));
            let cylinder = Topology::new(lattice, Surface::Cylinder, w, h);
            assert!(cylinder.edges().all(|(_, _, s)| s.cy == 0));
            assert!(cylinder.edges().any(|(_, _, s)| s.cx != 0));
        }
    }
}

#[test]
fn hex_torus_triangulates_a_torus_with_zero_winding_around_every_triangle() {
    for w in 4..=12 {
        for h in (4..=12).step_by(2) {
            let t = hex_torus(w, h);
            assert!(t.cells().all(|c| t.neighbors(c).len() == 6));
            assert_triangulates(&t, 0);
            for tri in triangles(&t) {
                assert_eq!(triangle_sum(&t, tri), (0, 0), "{t:?}: triangle {tri:?}");
            }
        }
    }
}

#[test]
fn hex_torus_needs_an_even_height() {
    // With an odd height the row shift does not match across the top/bottom seam: some
    // edge is not on two triangles.
    let t = hex_torus(6, 5);
    let tris = triangles(&t);
    let mut per_edge: HashMap<(Cell, Cell), usize> = HashMap::new();
    for &[a, b, c] in &tris {
        for e in [(a, b), (a, c), (b, c)] {
            *per_edge.entry(e).or_default() += 1;
        }
    }
    assert!(per_edge.values().any(|&n| n != 2));
}

#[test]
fn m_torus_triangulates_a_projective_plane_with_even_crossings_around_every_triangle() {
    for w in 4..=12 {
        for h in (5..=13).step_by(2) {
            let t = m_torus(w, h);
            assert_triangulates(&t, 1);
            for tri in triangles(&t) {
                // Signed labels mean nothing on a non-orientable surface (one triangle at the
                // corners sums to (1, -1)); the parity of the crossings is what closes up.
                let (cx, cy) = triangle_sum(&t, tri);
                assert_eq!((cx + cy) % 2, 0, "{t:?}: triangle {tri:?} crosses oddly");
            }
            let mut degrees: Vec<usize> = t.cells().map(|c| t.neighbors(c).len()).collect();
            degrees.sort();
            assert_eq!(&degrees[..4], &[4, 4, 5, 5], "{t:?}");
            assert!(degrees[4..].iter().all(|&d| d == 6), "{t:?}");
        }
    }
}

proptest! {
    #![proptest_config(toroid_testkit::cases(64))]

    /// Walking straight down a column of a board crosses the top/bottom seam once per lap:
    /// the labels of a closed walk add up to its winding.
    #[test]
    fn a_column_walk_winds_once(w in 4usize..20, h in 2usize..10, x in 0usize..20) {
        let h = 2 * h;
        let x = x % w;
        let t = hex_torus(w, h);
        // (x, y) and (x, y + 1) are neighbours on the odd-r grid, whatever the row.
        let mut at = t.cell_at(x, 0).unwrap();
        let (mut a, mut b) = (0i32, 0i32);
        for _ in 0..h {
            let (next, s) = t.step(at, 0, 1).unwrap();
            prop_assert!(seam(&t, at, next) == Some(s));
            a += s.cx as i32;
            b += s.cy as i32;
            at = next;
        }
        prop_assert_eq!(at, t.cell_at(x, 0).unwrap());
        prop_assert_eq!((a, b), (0, 1));
    }
}

/// The distinct 4-cycles of the graph (as sets of cells): on a square board of sides 5 and
/// more, exactly its unit squares, the faces of the square complex.
fn squares(t: &Topology) -> usize {
    let mut out = BTreeSet::new();
    for a in t.cells() {
        for b in t.adjacent(a) {
            for c in t.adjacent(b).filter(|&c| c != a) {
                for d in t.adjacent(c).filter(|&d| d != b && d != a) {
                    if seam(t, d, a).is_some() {
                        let mut face = [a, b, c, d];
                        face.sort();
                        out.insert(face);
                    }
                }
            }
        }
    }
    out.len()
}

/// Walks `steps` times by `(dx, dy)` from each of two cells side by side, and returns where
/// each ends.
fn walk_pair(
    t: &Topology,
    from: [(usize, usize); 2],
    (dx, dy): (i32, i32),
    steps: usize,
) -> [(usize, usize); 2] {
    from.map(|(x, y)| {
        let mut at = t.cell_at(x, y).unwrap();
        for _ in 0..steps {
            at = t.step(at, dx, dy).expect("the walk stays on the surface").0;
        }
        t.xy(at)
    })
}

proptest! {
    #![proptest_config(toroid_testkit::cases(300))]

    /// Go's square boards on every surface: adjacency is symmetric (with negated labels on
    /// the orientable surfaces); a cell has 4 neighbours except on the boundary of the plane,
    /// the cylinder and the Möbius strip, and at the identified corners of the projective
    /// plane (3); the square complex has the surface's Euler characteristic.
    #[test]
    fn every_surface_glues_as_it_says(
        surface in prop::sample::select(Surface::ALL.to_vec()),
        w in 5usize..=11,
        h in 5usize..=11,
    ) {
        let t = Topology::new(Lattice::Square4, surface, w, h);
        for (u, v, s) in t.edges() {
            let back = seam(&t, v, u);
            prop_assert!(back.is_some(), "{:?}: {:?} → {:?} but not back", t, t.xy(u), t.xy(v));
            if surface.is_orientable() {
                prop_assert_eq!(back, Some(Seam { cx: -s.cx, cy: -s.cy }));
            }
        }
        for c in t.cells() {
            let (x, y) = t.xy(c);
            let (side_x, side_y) = (x == 0 || x == w - 1, y == 0 || y == h - 1);
            let expected = match surface {
                Surface::Plane => 4 - side_x as usize - side_y as usize,
                Surface::Cylinder | Surface::Mobius => 4 - side_y as usize,
                Surface::Torus | Surface::Klein => 4,
                Surface::ProjectivePlane => 4 - (side_x && side_y) as usize,
            };
            prop_assert_eq!(t.neighbors(c).len(), expected, "{:?} at {:?}", t, (x, y));
        }
        let (v, e, f) = (t.len() as i64, t.edges().count() as i64 / 2, squares(&t) as i64);
        let euler = match surface {
            Surface::Plane | Surface::ProjectivePlane => 1,
            _ => 0,
        };
        prop_assert_eq!(v - e + f, euler, "{:?}: V {} E {} F {}", t, v, e, f);
    }

    /// A walk once around a reversed gluing comes back mirrored: of two walkers side by side,
    /// the one on the right comes back on the left. Around a straight gluing they come back
    /// as they left.
    #[test]
    fn a_walk_across_a_reversed_seam_comes_back_mirrored(
        surface in prop::sample::select(Surface::ALL.to_vec()),
        w in 5usize..=11,
        h in 5usize..=11,
        at in 0usize..100,
    ) {
        let t = Topology::new(Lattice::Square4, surface, w, h);
        let (left_right, top_bottom) = surface.gluing();
        if top_bottom != Gluing::Open {
            // Up through the top/bottom seam, from two cells side by side in the top row.
            let x = at % (w - 1);
            let back = walk_pair(&t, [(x, 0), (x + 1, 0)], (0, -1), h);
            let expected = match top_bottom {
                Gluing::Reversed => [(w - 1 - x, 0), (w - 2 - x, 0)],
                _ => [(x, 0), (x + 1, 0)],
            };
            prop_assert_eq!(back, expected, "{:?}", t);
        }
        if left_right != Gluing::Open {
            // Left through the left/right seam, from two cells one above the other.
            let y = at % (h - 1);
            let back = walk_pair(&t, [(0, y), (0, y + 1)], (-1, 0), w);
            let expected = match left_right {
                Gluing::Reversed => [(0, h - 1 - y), (0, h - 2 - y)],
                _ => [(0, y), (0, y + 1)],
            };
            prop_assert_eq!(back, expected, "{:?}", t);
        }
    }
}

#[test]
fn the_ring_reads_each_direction_in_its_slot() {
    for lattice in LATTICES {
        for surface in Surface::ALL {
            for (w, h) in [(1, 1), (2, 2), (3, 4), (6, 6), (9, 9)] {
                let t = Topology::new(lattice, surface, w, h);
                for c in t.cells() {
                    let ring = t.ring(c);
                    let steps: Vec<(i32, i32)> = match lattice {
                        Lattice::HexOddR => t.grid_steps(c).to_vec(),
                        _ => AROUND.to_vec(),
                    };
                    assert_eq!(ring.len(), steps.len());
                    for (&slot, (dx, dy)) in ring.iter().zip(steps) {
                        assert_eq!(slot, t.step(c, dx, dy).map(|(n, _)| n));
                    }
                    // Every neighbour is in the ring; on hex boards the ring is nothing else.
                    for n in t.adjacent(c) {
                        assert!(ring.contains(&Some(n)), "{lattice:?} {surface:?} {c:?}");
                    }
                    if lattice == Lattice::HexOddR && w >= 3 && h >= 4 {
                        for n in ring.iter().flatten() {
                            assert!(t.adjacent(c).any(|a| a == *n) || *n == c);
                        }
                    }
                }
            }
        }
    }
}
