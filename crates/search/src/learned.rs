//! Learned move patterns for every rule set, after Rémi Coulom, "Computing Elo Ratings of
//! Move Patterns in the Game of Go" (2007).
//!
//! A candidate move has features: its *shape* (the colours of the cells of
//! [`Topology::ring`] around it, from the mover's side), whether it is *near* the last move
//! or the mover's previous one, and the rule set's tactical bits
//! ([`Knowledge::tactics`]). Each feature has a strength γ; a move's strength is the product
//! of its features' strengths, and a player is modelled as choosing among the legal moves
//! with probability proportional to their strengths (a generalised Bradley–Terry model).
//! [`learn`] fits the γ to the moves chosen in self-play games of `max` by Coulom's
//! minorization–maximization, and [`Patterns`] reads and writes them as the small text
//! files under `crates/search/data/patterns/`, made by `scripts/patterns`.
//!
//! The search uses them twice: as prior values of the moves in the tree where the rule set
//! has no prior of its own and the move no tactical bit (tactics are the rule set's to
//! judge: a Go atari is good or bad by the ladder it starts, which no shape statistics
//! tell), and in the playouts, after the rule set's own tactical reply, as a reply near
//! the last move drawn in proportion to its strength against the rest of the board.
//!
//! [`Topology::ring`]: toroid_rules::topology::Topology::ring

use std::fmt::Write as _;
use std::sync::OnceLock;

use rand::Rng;
use toroid_rules::{Cell, Color, Move, Position};

use crate::knowledge::Knowledge;

/// Which shapes count as one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// For rules that look the same turned, mirrored, and from either colour's side (Go,
    /// `torus`, CTOR): a shape is the smallest of its codes under the ring's rotations and
    /// reflections.
    Full,
    /// For rules where each colour has its own direction (the loop games: black's loops run
    /// across the rows): a shape is its code as it stands, with the mover's colour.
    Oriented,
}

/// How near a move is to the recent ones: the values of the *near* feature.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Near {
    /// Not around either of the last two placements, or they are unknown.
    Far = 0,
    /// Around the last move's cell ([`Topology::ring`](toroid_rules::topology::Topology::ring)).
    Last = 1,
    /// Around the mover's own previous move, not the last one.
    Previous = 2,
}

/// The features of one candidate placement.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// The shape key ([`shape`]).
    pub shape: u32,
    pub near: Near,
    /// The rule set's tactical bits ([`Knowledge::tactics`]).
    pub tactics: u8,
}

/// A candidate move as the model sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Candidate {
    Pass,
    Place(Features),
}

/// The shape key of `cell` for `me` to play there: the ring's code
/// ([`Position::ring_code`]) from `me`'s side (1 own, 2 enemy), made canonical by
/// `symmetry`.
#[inline]
pub fn shape<P: Position>(position: &P, cell: Cell, me: Color, symmetry: Symmetry) -> u32 {
    let mut code = position.ring_code(cell);
    if me == Color::White {
        // Swap the two bits of every field that holds exactly one of them (1 and 2).
        let differ = (code ^ code >> 1) & 0x5555;
        code ^= differ | differ << 1;
    }
    let len = position.topology().ring(cell).len();
    match symmetry {
        Symmetry::Full => u32::from(canonical(len)[code as usize]),
        Symmetry::Oriented => code | (me.index() as u32) << (2 * len),
    }
}

/// For every code of a ring of `len` cells (8 around a square cell, 6 around a hex cell),
/// the smallest code of its rotations and reflections.
fn canonical(len: usize) -> &'static [u16] {
    static SQUARE: OnceLock<Vec<u16>> = OnceLock::new();
    static HEX: OnceLock<Vec<u16>> = OnceLock::new();
    // A quarter turn of the square moves the ring by two cells, a sixth of the hexagon by one.
    let (table, turn) = if len == 8 { (&SQUARE, 2) } else { (&HEX, 1) };
    table.get_or_init(|| {
        let field = |code: u32, i: usize| code >> (2 * (i % len)) & 3;
        (0..1u32 << (2 * len))
            .map(|code| {
                let images = (0..len).step_by(turn).flat_map(|r| {
                    let turned = (0..len).fold(0, |c, i| c | field(code, i + r) << (2 * i));
                    // The mirror image about the axis through the ring's first cell.
                    let mirrored = (0..len).fold(0, |c, i| c | field(code, len - i + r) << (2 * i));
                    [turned, mirrored]
                });
                images.min().expect("a ring has cells") as u16
            })
            .collect()
    })
}

/// How near `cell` is to the last two placements of `recent` (the moves so far with their
/// movers, the last one last).
pub fn near<P: Position>(position: &P, cell: Cell, recent: &[(Move, Color)]) -> Near {
    let around = |back: usize| {
        recent
            .len()
            .checked_sub(back)
            .and_then(|i| recent[i].0.cell())
            .is_some_and(|c| position.topology().ring(c).contains(&Some(cell)))
    };
    if around(1) {
        Near::Last
    } else if around(2) {
        Near::Previous
    } else {
        Near::Far
    }
}

/// The features of `mv` for the player to move, after the `recent` moves.
pub fn candidate<P: Knowledge>(position: &P, mv: Move, recent: &[(Move, Color)]) -> Candidate {
    match (mv.cell(), position.turn()) {
        (Some(cell), Some(me)) => Candidate::Place(Features {
            shape: shape(position, cell, me, P::SYMMETRY),
            near: near(position, cell, recent),
            tactics: position.tactics(cell, me),
        }),
        _ => Candidate::Pass,
    }
}

/// The learned strengths of one rule set's features.
#[derive(Clone, Debug, PartialEq)]
pub struct Patterns {
    /// Strengths by shape key, every key of the rule set (none when nothing was learned).
    shapes: Vec<f32>,
    /// The keys whose strength was learned on their own, in order.
    learned: Vec<u32>,
    /// The strength that the other shapes, seen too rarely to learn alone, share.
    rare: f32,
    near: [f32; 3],
    tactics: [f32; 8],
    pass: f32,
}

/// The number of shape keys: a code of up to 8 ring cells of two bits, and the mover's
/// colour in the next bit.
const SHAPE_KEYS: usize = 1 << 17;

impl Patterns {
    /// Nothing learned: every strength 1, and the search leaves the patterns out.
    pub fn none() -> Patterns {
        Patterns {
            shapes: Vec::new(),
            learned: Vec::new(),
            rare: 1.0,
            near: [1.0; 3],
            tactics: [1.0; 8],
            pass: 1.0,
        }
    }

    /// Whether nothing was learned (no shape has a strength of its own).
    pub fn is_empty(&self) -> bool {
        self.learned.is_empty()
    }

    /// The strength of the shape with key `key` ([`shape`]): its own where it was learned,
    /// the rare shapes' otherwise.
    #[inline]
    pub fn shape_gamma(&self, key: u32) -> f32 {
        self.shapes.get(key as usize).copied().unwrap_or(1.0)
    }

    /// The strength of a candidate: the product of its features' strengths.
    pub fn gamma(&self, candidate: &Candidate) -> f32 {
        match candidate {
            Candidate::Pass => self.pass,
            Candidate::Place(f) => {
                let tactics = (0..8)
                    .filter(|b| f.tactics & 1 << b != 0)
                    .map(|b| self.tactics[b])
                    .product::<f32>();
                self.shape_gamma(f.shape) * self.near[f.near as usize] * tactics
            }
        }
    }

    /// A prior value in (0, 1): the chance that the move is chosen over an average move
    /// (strength 1).
    pub fn prior(&self, candidate: &Candidate) -> f32 {
        let gamma = self.gamma(candidate);
        gamma / (gamma + 1.0)
    }

    /// Reads the text form ([`Patterns::to_text`]).
    pub fn parse(text: &str) -> Result<Patterns, String> {
        let mut patterns = Patterns::none();
        let mut shapes = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || {
                format!(
                    "line {}: expected `FEATURE [VALUE] GAMMA`: {line}",
                    number + 1
                )
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            let gamma: f32 = words.last().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
            if !(gamma.is_finite() && gamma > 0.0) {
                return Err(bad());
            }
            let value = |max: usize| {
                words
                    .get(1)
                    .and_then(|w| w.parse::<usize>().ok())
                    .filter(|&v| v < max && words.len() == 3)
                    .ok_or_else(bad)
            };
            match words[0] {
                "pass" if words.len() == 2 => patterns.pass = gamma,
                "rare" if words.len() == 2 => patterns.rare = gamma,
                "near" => patterns.near[value(3)?] = gamma,
                "tactic" => patterns.tactics[value(8)?] = gamma,
                "shape" => shapes.push((value(SHAPE_KEYS)? as u32, gamma)),
                _ => return Err(bad()),
            }
        }
        if !shapes.is_empty() {
            patterns.shapes = vec![patterns.rare; SHAPE_KEYS];
            for &(key, gamma) in &shapes {
                patterns.shapes[key as usize] = gamma;
            }
            patterns.learned = shapes.iter().map(|&(key, _)| key).collect();
        }
        Ok(patterns)
    }

    /// The text form: one feature a line, `pass GAMMA`, `near VALUE GAMMA` (0 far, 1 around
    /// the last move, 2 around the mover's previous one), `tactic BIT GAMMA`, `rare GAMMA`
    /// (every shape not listed) and `shape KEY GAMMA`, after the `header` lines as `#`
    /// comments.
    pub fn to_text(&self, header: &str) -> String {
        let mut text = String::new();
        for line in header.lines() {
            let _ = writeln!(text, "# {line}");
        }
        let _ = writeln!(text, "pass {:.4}", self.pass);
        for (v, g) in self.near.iter().enumerate() {
            let _ = writeln!(text, "near {v} {g:.4}");
        }
        for (b, g) in self.tactics.iter().enumerate() {
            let _ = writeln!(text, "tactic {b} {g:.4}");
        }
        let _ = writeln!(text, "rare {:.4}", self.rare);
        for &key in &self.learned {
            let _ = writeln!(text, "shape {key} {:.4}", self.shape_gamma(key));
        }
        text
    }
}

/// One training position: the candidates (every legal move) and the one played.
#[derive(Clone, Debug)]
pub struct Sample {
    pub candidates: Vec<Candidate>,
    pub chosen: usize,
}

/// The training positions of one game: every position before a move, from `start` on.
/// Stops at the first move that is not legal (a damaged record), reporting it.
pub fn samples<P: Knowledge>(start: &P, moves: &[Move]) -> Result<Vec<Sample>, String> {
    let mut position = start.clone();
    let mut recent = Vec::new();
    let mut legal = Vec::new();
    let mut samples = Vec::new();
    for (ply, &mv) in moves.iter().enumerate() {
        let me = position
            .turn()
            .ok_or_else(|| format!("move {} comes after the end of the game", ply + 1))?;
        legal.clear();
        position.legal_moves(&mut legal);
        let chosen = legal
            .iter()
            .position(|&m| m == mv)
            .ok_or_else(|| format!("move {} is not legal", ply + 1))?;
        samples.push(Sample {
            candidates: legal
                .iter()
                .map(|&m| candidate(&position, m, &recent))
                .collect(),
            chosen,
        });
        position
            .play(mv)
            .map_err(|e| format!("move {}: {e}", ply + 1))?;
        recent.push((mv, me));
    }
    Ok(samples)
}

/// What [`learn`] keeps of a shape: it must have been a candidate this often.
pub const MIN_SHAPE_COUNT: u32 = 20;

/// Fits the strengths to `samples` by Coulom's minorization–maximization, `iterations`
/// sweeps over the feature groups, each feature with a prior of one win and one loss
/// against a virtual opponent of strength 1. Shapes seen fewer than [`MIN_SHAPE_COUNT`]
/// times as candidates share one strength (`rare`). The strengths are then scaled so that
/// the average (geometric mean) legal placement of the samples has strength 1.
pub fn learn(samples: &[Sample], iterations: usize) -> Patterns {
    // Feature ids: pass, the three near values, the eight tactics, the rare shapes, then
    // the kept shapes.
    const PASS: usize = 0;
    const NEAR: usize = 1;
    const TACTIC: usize = 4;
    const RARE: usize = 12;
    const SHAPE: usize = 13;
    let mut counts = std::collections::HashMap::<u32, u32>::new();
    for c in samples.iter().flat_map(|s| &s.candidates) {
        if let Candidate::Place(f) = c {
            *counts.entry(f.shape).or_default() += 1;
        }
    }
    let mut kept: Vec<u32> = (counts.iter())
        .filter(|&(_, &n)| n >= MIN_SHAPE_COUNT)
        .map(|(&k, _)| k)
        .collect();
    kept.sort_unstable();
    let shape_id = |key: u32| kept.binary_search(&key).map_or(RARE, |i| SHAPE + i);
    // Every candidate as its list of feature ids, flattened: `features[start[c]..start[c + 1]]`.
    let mut features = Vec::new();
    let mut start = vec![0];
    for c in samples.iter().flat_map(|s| &s.candidates) {
        match c {
            Candidate::Pass => features.push(PASS),
            Candidate::Place(f) => {
                features.push(NEAR + f.near as usize);
                features.extend(
                    (0..8)
                        .filter(|b| f.tactics & 1 << b != 0)
                        .map(|b| TACTIC + b),
                );
                features.push(shape_id(f.shape));
            }
        }
        start.push(features.len());
    }
    let n = SHAPE + kept.len();
    let mut gamma = vec![1.0f64; n];
    // Wins: how often each feature was in the chosen move.
    let mut wins = vec![0.0f64; n];
    let mut first = 0;
    for s in samples {
        let c = first + s.chosen;
        for &f in &features[start[c]..start[c + 1]] {
            wins[f] += 1.0;
        }
        first += s.candidates.len();
    }
    let groups: Vec<Vec<usize>> = [vec![PASS], (NEAR..TACTIC).collect()]
        .into_iter()
        .chain((TACTIC..SHAPE).map(|t| vec![t]))
        .chain(std::iter::once((RARE..n).collect()))
        .collect();
    let strength = |gamma: &[f64], c: usize| -> f64 {
        features[start[c]..start[c + 1]]
            .iter()
            .map(|&f| gamma[f])
            .product()
    };
    for _ in 0..iterations {
        for group in &groups {
            let mut denominator = vec![0.0f64; n];
            let mut first = 0;
            for s in samples {
                let range = first..first + s.candidates.len();
                first = range.end;
                let total: f64 = range.clone().map(|c| strength(&gamma, c)).sum();
                for c in range {
                    let share = strength(&gamma, c) / total;
                    for &f in &features[start[c]..start[c + 1]] {
                        denominator[f] += share / gamma[f];
                    }
                }
            }
            for &f in group {
                gamma[f] = (wins[f] + 1.0) / (denominator[f] + 2.0 / (gamma[f] + 1.0));
            }
        }
    }
    // Scale the shapes (every placement has exactly one shape strength) so that the
    // geometric mean placement has strength 1; the pass keeps its odds.
    let (mut log_sum, mut placements) = (0.0, 0.0);
    for (i, c) in samples.iter().flat_map(|s| &s.candidates).enumerate() {
        if matches!(c, Candidate::Place(_)) {
            log_sum += strength(&gamma, i).ln();
            placements += 1.0;
        }
    }
    let scale = if placements > 0.0 {
        (-log_sum / placements).exp()
    } else {
        1.0
    };
    let mut patterns = Patterns::none();
    patterns.pass = (gamma[PASS] * scale) as f32;
    for v in 0..3 {
        patterns.near[v] = gamma[NEAR + v] as f32;
    }
    for b in 0..8 {
        patterns.tactics[b] = gamma[TACTIC + b] as f32;
    }
    patterns.rare = (gamma[RARE] * scale) as f32;
    if !kept.is_empty() {
        patterns.shapes = vec![patterns.rare; SHAPE_KEYS];
        for (i, &key) in kept.iter().enumerate() {
            patterns.shapes[key as usize] = (gamma[SHAPE + i] * scale) as f32;
        }
        patterns.learned = kept;
    }
    patterns
}

/// The log-likelihood per move of `samples` under `patterns`, and how often the strongest
/// candidate (ties broken at random) was the move played: how well the patterns predict
/// the moves.
pub fn fit(patterns: &Patterns, samples: &[Sample]) -> (f64, f64) {
    let (mut log_likelihood, mut hits) = (0.0, 0.0);
    for s in samples {
        let gammas: Vec<f64> = (s.candidates.iter())
            .map(|c| f64::from(patterns.gamma(c)))
            .collect();
        let total: f64 = gammas.iter().sum();
        log_likelihood += (gammas[s.chosen] / total).ln();
        // Ties for the strongest are broken at random.
        let best = gammas.iter().copied().fold(0.0, f64::max);
        if gammas[s.chosen] == best {
            hits += 1.0 / gammas.iter().filter(|&&g| g == best).count() as f64;
        }
    }
    let count = samples.len().max(1) as f64;
    (log_likelihood / count, hits / count)
}

/// A playout reply around the last placement `last`, drawn as the learned model would draw
/// it if every other move were average: each empty ring cell with its strength, against
/// the rest of the empty cells with strength 1 each. `None`: the draw fell on the rest of
/// the board, or on a cell the rule set does not find [worth
/// replying](Knowledge::worth_replying), or nothing was learned.
pub fn reply<P: Knowledge, R: Rng>(
    position: &P,
    last: Cell,
    me: Color,
    rng: &mut R,
) -> Option<Cell> {
    let patterns = position.patterns();
    if patterns.is_empty() {
        return None;
    }
    let mut cells = [Cell(0); 8];
    let mut gammas = [0.0f32; 8];
    let mut count = 0;
    let mut total = 0.0;
    let near = patterns.near[Near::Last as usize];
    for &r in position.topology().ring(last) {
        let Some(c) = r.filter(|&c| position.stone(c).is_none()) else {
            continue;
        };
        let gamma = patterns.shape_gamma(shape(position, c, me, P::SYMMETRY)) * near;
        cells[count] = c;
        gammas[count] = gamma;
        total += gamma;
        count += 1;
    }
    let rest = position.empty_cells().saturating_sub(count) as f32;
    let mut draw = rng.random::<f32>() * (total + rest);
    for (&c, &g) in cells[..count].iter().zip(&gammas) {
        if draw < g {
            // Judged after the draw, for the one cell drawn: the test can cost more than
            // the shapes (a Go self-atari walks chains).
            return position.worth_replying(c, me).then_some(c);
        }
        draw -= g;
    }
    None
}

/// The patterns of a data file built into the crate, read once into `cell`.
pub fn embedded(cell: &'static OnceLock<Patterns>, text: &'static str) -> &'static Patterns {
    cell.get_or_init(|| {
        Patterns::parse(text).expect("the built-in pattern files are read by the tests")
    })
}
