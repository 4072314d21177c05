//! A small residual policy-and-value network over a board's [`Stencil`].
//!
//! Every layer is per cell: a convolution reads the stencil around each cell (weights
//! `(width · in) × out`, slot-major), a residual block is two convolutions and a skip, the
//! policy gives each cell a logit from its own features and `pass`, `end` and `swap` a logit
//! from the board's mean features, and the value reads the mean features too. No weight
//! depends on the board's size, so one network plays every size of its rule set.
//!
//! The weights are a safetensors file whose tensor names and shapes say the architecture
//! (`input`, `block0.conv1`, ..., `policy.cells`, `policy.beyond`, `value.hidden`,
//! `value.out`, each with `.weight` and `.bias`); `crates/net/tests/network.rs` computes the
//! same function from the same file in plain loops.

use std::collections::HashMap;
use std::path::Path;

use candle_core::{DType, Device, Module, Result, Tensor, D};
use candle_nn::{Init, VarBuilder, VarMap};
use rand::SeedableRng;
use rand_distr::{Distribution, Normal};
use rand_xoshiro::Xoshiro256PlusPlus;
use toroid_rules::{Move, Position, Topology};

use crate::encoding::{action_count, observe_batch, PLANES};
use crate::stencil::Stencil;

/// The moves that are not cells, each with one policy logit: `pass`, `end`, `swap`.
pub const BEYOND_CELLS: usize = Move::BEYOND_CELLS;

/// The shape of a network.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Cells its convolutions read around each cell: 9 on square lattices, 7 on hex.
    pub stencil: usize,
    /// Features per cell.
    pub channels: usize,
    /// Residual blocks.
    pub blocks: usize,
}

/// One convolution over the stencil: `weight` is `(stencil · in) × out`.
#[derive(Clone, Debug)]
struct Conv {
    weight: Tensor,
    bias: Tensor,
}

impl Conv {
    fn new(vb: VarBuilder, inputs: usize, outputs: usize) -> Result<Conv> {
        Ok(Conv {
            weight: vb.get_with_hints((inputs, outputs), "weight", Init::Const(0.0))?,
            bias: vb.get_with_hints(outputs, "bias", Init::Const(0.0))?,
        })
    }

    /// `x` is `batch × cells × in` (already gathered for a convolution), the result
    /// `batch × cells × out`.
    fn apply(&self, x: &Tensor) -> Result<Tensor> {
        let (batch, cells, inputs) = x.dims3()?;
        let outputs = self.weight.dim(1)?;
        x.reshape((batch * cells, inputs))?
            .matmul(&self.weight)?
            .broadcast_add(&self.bias)?
            .reshape((batch, cells, outputs))
    }
}

/// A dense layer over a `batch × in` matrix.
#[derive(Clone, Debug)]
struct Dense(Conv);

impl Module for Dense {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.matmul(&self.0.weight)?.broadcast_add(&self.0.bias)
    }
}

/// The policy logits and values of a batch of positions.
#[derive(Clone, Debug)]
pub struct Output {
    /// `batch × actions` ([`crate::encoding::action_count`]), before any masking.
    pub logits: Tensor,
    /// `batch`, in −1..1 for the player to move.
    pub values: Tensor,
}

/// A policy-and-value network with its weights.
pub struct Network {
    shape: Shape,
    vars: VarMap,
    device: Device,
    input: Conv,
    blocks: Vec<(Conv, Conv)>,
    policy_cells: Conv,
    policy_beyond: Dense,
    value_hidden: Dense,
    value_out: Dense,
}

impl Network {
    /// A network of `shape` with fresh random weights drawn from `seed`: He initialisation,
    /// zero biases, and zeros in the second convolution of each block (so each block starts
    /// as the identity) and in the value's last layer (so the value starts at 0, where tanh
    /// learns fastest, instead of saturated).
    pub fn new(shape: Shape, seed: u64, device: &Device) -> Result<Network> {
        let network = Network::zeros(shape, device)?;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let vars = network.vars.data().lock().expect("weights");
        let mut names: Vec<&String> = vars.keys().collect();
        names.sort();
        for name in names {
            let var = &vars[name];
            let starts_at_zero = name.ends_with(".bias")
                || name.ends_with("conv2.weight")
                || name == "value.out.weight";
            if starts_at_zero {
                continue;
            }
            let (inputs, outputs) = var.dims2()?;
            let normal = Normal::new(0.0, (2.0 / inputs as f32).sqrt()).expect("a finite stdev");
            let values: Vec<f32> = (0..inputs * outputs)
                .map(|_| normal.sample(&mut rng))
                .collect();
            var.set(&Tensor::from_vec(values, (inputs, outputs), device)?)?;
        }
        drop(vars);
        Ok(network)
    }

    /// A network of `shape` whose every weight is zero, to be filled.
    fn zeros(shape: Shape, device: &Device) -> Result<Network> {
        let vars = VarMap::new();
        let vb = VarBuilder::from_varmap(&vars, DType::F32, device);
        let (s, c) = (shape.stencil, shape.channels);
        let input = Conv::new(vb.pp("input"), s * PLANES, c)?;
        let blocks = (0..shape.blocks)
            .map(|i| {
                let vb = vb.pp(format!("block{i}"));
                Ok((
                    Conv::new(vb.pp("conv1"), s * c, c)?,
                    Conv::new(vb.pp("conv2"), s * c, c)?,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Network {
            shape,
            input,
            blocks,
            policy_cells: Conv::new(vb.pp("policy.cells"), c, 1)?,
            policy_beyond: Dense(Conv::new(vb.pp("policy.beyond"), c, BEYOND_CELLS)?),
            value_hidden: Dense(Conv::new(vb.pp("value.hidden"), c, c)?),
            value_out: Dense(Conv::new(vb.pp("value.out"), c, 1)?),
            vars,
            device: device.clone(),
        })
    }

    /// The network a safetensors file holds; its shape is read from the tensors.
    pub fn load(path: &Path, device: &Device) -> Result<Network> {
        let bytes = std::fs::read(path)?;
        Network::from_safetensors(&bytes, device)
    }

    /// The network of safetensors bytes (weights built into the program).
    pub fn from_safetensors(bytes: &[u8], device: &Device) -> Result<Network> {
        let tensors = candle_core::safetensors::load_buffer(bytes, device)?;
        let shape = shape_of(&tensors)?;
        let network = Network::zeros(shape, device)?;
        for (name, var) in network.vars.data().lock().expect("weights").iter() {
            let tensor = tensors.get(name).ok_or_else(|| {
                candle_core::Error::Msg(format!("the weights have no tensor {name}"))
            })?;
            var.set(tensor)?;
        }
        // `Var::set` writes into the variables' storage, which the layers share.
        Ok(network)
    }

    /// Writes the weights as safetensors.
    pub fn save(&self, path: &Path) -> Result<()> {
        std::fs::write(path, self.to_safetensors()?)?;
        Ok(())
    }

    /// The weights as safetensors bytes, as [`Network::from_safetensors`] reads them.
    pub fn to_safetensors(&self) -> Result<Vec<u8>> {
        let vars = self.vars.data().lock().expect("weights");
        let tensors = vars
            .iter()
            .map(|(name, var)| (name.clone(), var.as_tensor()));
        safetensors::serialize(tensors, None)
            .map_err(|e| candle_core::Error::Msg(format!("writing the weights: {e}")))
    }

    /// Refuses a board of another lattice than the one the network was trained on: its
    /// convolutions would read another number of cells around each cell.
    pub fn check_board(&self, topology: &Topology) -> Result<()> {
        let width = Stencil::width_of(topology);
        if self.shape.stencil == width {
            return Ok(());
        }
        Err(candle_core::Error::Msg(format!(
            "the network reads {} cells around each cell, this board's convolutions {width}: \
             it was trained on another lattice",
            self.shape.stencil
        )))
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The weights, for an optimiser.
    pub fn vars(&self) -> &VarMap {
        &self.vars
    }

    /// The network's function: `planes` is `batch × PLANES × cells` (the observation
    /// layout), on the board of `stencil`.
    pub fn forward(&self, planes: &Tensor, stencil: &Stencil) -> Result<Output> {
        let x = planes.transpose(1, 2)?.contiguous()?;
        let mut x = self.input.apply(&stencil.gather(&x)?)?.relu()?;
        for (first, second) in &self.blocks {
            let h = first.apply(&stencil.gather(&x)?)?.relu()?;
            let h = second.apply(&stencil.gather(&h)?)?;
            x = (x + h)?.relu()?;
        }
        let pooled = x.mean(1)?;
        let cells = self.policy_cells.apply(&x)?.squeeze(D::Minus1)?;
        let beyond = self.policy_beyond.forward(&pooled)?;
        let logits = Tensor::cat(&[&cells, &beyond], 1)?;
        let values = self
            .value_out
            .forward(&self.value_hidden.forward(&pooled)?.relu()?)?
            .squeeze(D::Minus1)?
            .tanh()?;
        Ok(Output { logits, values })
    }

    /// Priors over the legal moves and the value for the player to move, for each of
    /// `positions` (games not over, all on the board of `stencil`).
    pub fn evaluate<P: Position>(
        &self,
        positions: &[&P],
        stencil: &Stencil,
    ) -> Result<Vec<Evaluation>> {
        let Some(first) = positions.first() else {
            return Ok(Vec::new());
        };
        let topology = first.topology();
        let (cells, actions) = (topology.len(), action_count(topology));
        let (planes, masks) = observe_batch(positions);
        let input = Tensor::from_vec(planes, (positions.len(), PLANES, cells), &self.device)?;
        let output = self.forward(&input, stencil)?;
        let logits: Vec<Vec<f32>> = output.logits.to_vec2()?;
        let values: Vec<f32> = output.values.to_vec1()?;
        Ok((logits.into_iter().zip(values))
            .zip(masks.chunks_exact(actions))
            .map(|((logits, value), mask)| Evaluation {
                priors: masked_softmax(&logits, mask),
                value,
            })
            .collect())
    }
}

/// What the network says of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// One per action; zero for illegal ones, summing to 1.
    pub priors: Vec<f32>,
    /// The expected result for the player to move, −1 (a loss) to 1 (a win).
    pub value: f32,
}

/// The softmax of `logits` over the entries `mask` allows (zero elsewhere).
pub fn masked_softmax(logits: &[f32], mask: &[bool]) -> Vec<f32> {
    let top = (logits.iter().zip(mask))
        .filter(|(_, &legal)| legal)
        .map(|(&l, _)| l)
        .fold(f32::NEG_INFINITY, f32::max);
    let mut priors: Vec<f32> = (logits.iter().zip(mask))
        .map(|(&l, &legal)| if legal { (l - top).exp() } else { 0.0 })
        .collect();
    let sum: f32 = priors.iter().sum();
    if sum > 0.0 {
        priors.iter_mut().for_each(|p| *p /= sum);
    }
    priors
}

/// Equal priors over the entries `mask` allows (zero elsewhere; all zero when none is).
pub fn uniform_priors(mask: &[bool]) -> Vec<f32> {
    let legal = mask.iter().filter(|&&m| m).count().max(1) as f32;
    mask.iter()
        .map(|&m| f32::from(u8::from(m)) / legal)
        .collect()
}

/// The shape the tensors of a weights file describe.
fn shape_of(tensors: &HashMap<String, Tensor>) -> Result<Shape> {
    let dims = |name: &str| -> Result<Vec<usize>> {
        Ok(tensors
            .get(name)
            .ok_or_else(|| candle_core::Error::Msg(format!("the weights have no tensor {name}")))?
            .dims()
            .to_vec())
    };
    let input = dims("input.weight")?;
    let [rows, channels] = input[..] else {
        return Err(candle_core::Error::Msg(format!(
            "input.weight is {input:?}, not a matrix"
        )));
    };
    if rows % PLANES != 0 {
        return Err(candle_core::Error::Msg(format!(
            "input.weight has {rows} rows, not a multiple of the {PLANES} planes"
        )));
    }
    let blocks = (0..)
        .take_while(|i| tensors.contains_key(&format!("block{i}.conv1.weight")))
        .count();
    Ok(Shape {
        stencil: rows / PLANES,
        channels,
        blocks,
    })
}
