//! Training a [`Network`] on search results: the policy learns the search's visit shares,
//! the value the game's result, as in AlphaZero.

use std::sync::Arc;

use candle_core::{Result, Tensor, D};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};

use crate::encoding::PLANES;
use crate::network::Network;
use crate::stencil::Stencil;

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The observation for the player to move, `PLANES × cells`.
    pub planes: Vec<f32>,
    /// The search's visit shares, one per action.
    pub policy: Vec<f32>,
    /// The game's result for the player to move: 1, 0 or −1.
    pub value: f32,
}

/// The losses of one step, averaged over its batch.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Losses {
    /// Cross-entropy of the policy against the visit shares.
    pub policy: f32,
    /// Squared error of the value.
    pub value: f32,
}

/// A network and its optimiser (AdamW). The network is shared: a search may play with it
/// between steps, and sees each step's weights (the optimiser writes into them in place).
pub struct Trainer {
    network: Arc<Network>,
    optimizer: AdamW,
}

impl Trainer {
    pub fn new(network: Arc<Network>, learning_rate: f64) -> Result<Trainer> {
        let params = ParamsAdamW {
            lr: learning_rate,
            weight_decay: 1e-4,
            ..ParamsAdamW::default()
        };
        let optimizer = AdamW::new(network.vars().all_vars(), params)?;
        Ok(Trainer { network, optimizer })
    }

    pub fn network(&self) -> &Arc<Network> {
        &self.network
    }

    /// One optimiser step on `batch` (positions of the board of `stencil`).
    pub fn step(&mut self, batch: &[&Sample], stencil: &Stencil) -> Result<Losses> {
        let device = self.network.device().clone();
        let n = batch.len();
        let actions = batch.first().map_or(0, |s| s.policy.len());
        let planes: Vec<f32> = batch
            .iter()
            .flat_map(|s| s.planes.iter().copied())
            .collect();
        let policy: Vec<f32> = batch
            .iter()
            .flat_map(|s| s.policy.iter().copied())
            .collect();
        let value: Vec<f32> = batch.iter().map(|s| s.value).collect();
        let planes = Tensor::from_vec(planes, (n, PLANES, stencil.cells()), &device)?;
        let policy = Tensor::from_vec(policy, (n, actions), &device)?;
        let value = Tensor::from_vec(value, n, &device)?;
        let output = self.network.forward(&planes, stencil)?;
        let log_priors = candle_nn::ops::log_softmax(&output.logits, D::Minus1)?;
        let policy_loss = (policy * log_priors)?.sum(D::Minus1)?.neg()?.mean_all()?;
        let value_loss = (output.values - value)?.sqr()?.mean_all()?;
        let loss = (&policy_loss + &value_loss)?;
        self.optimizer.backward_step(&loss)?;
        Ok(Losses {
            policy: policy_loss.to_scalar()?,
            value: value_loss.to_scalar()?,
        })
    }
}
