//! Policy-and-value networks for toroid's games.
//!
//! [`encoding`] turns positions into the observation planes (the same arrays the Python
//! package gives learning code), [`Stencil`] says which cells a convolution reads around each
//! cell as the board's surface glues them, and [`Network`] is a small residual network over
//! it, evaluated and trained with candle on the CPU (or a GPU where candle is built for one).

pub mod encoding;
pub mod network;
pub mod stencil;
pub mod train;

pub use candle_core::{safetensors, Device, Error, Result, Tensor};
pub use network::{masked_softmax, uniform_priors, Evaluation, Network, Output, Shape};
pub use stencil::Stencil;
pub use train::{Losses, Sample, Trainer};
