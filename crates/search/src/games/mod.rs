//! What the bots know of each rule set, one module per rule set (the loop games share
//! one): its [`crate::knowledge::Knowledge`] and the tactics behind it.

/// The house network of `data/networks/NAME.safetensors`, built into the crate and read on
/// first use (a [`crate::knowledge::Knowledge::network`]).
macro_rules! built_in_network {
    ($name:literal) => {{
        static NETWORK: std::sync::OnceLock<std::sync::Arc<toroid_net::Network>> =
            std::sync::OnceLock::new();
        crate::zero::embedded_network(
            &NETWORK,
            include_bytes!(concat!("../../data/networks/", $name, ".safetensors")),
        )
    }};
}

mod ctor;
pub mod go;
mod loops;
pub mod torus;
