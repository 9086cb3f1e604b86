//! A network evaluation per variant (NNUE: an efficiently updatable neural network), trained
//! by the toolkit from its own games (`variantlab datagen`, `variantlab train-net`;
//! docs/evaluation.md).
//!
//! - [`inputs`]: what the network sees, from [`crate::Game::net_inputs`], per perspective;
//! - [`network`]: the float network the trainer fits, the integer one the search uses, and
//!   the file;
//! - [`accumulator`]: the search's per-ply accumulators, updated by the inputs a move changes;
//! - [`builtin`]: the networks embedded as variants' default evaluations.
//!
//! The search knows no variant here either: a variant says only which pieces stand where
//! (and what is in hand or in its extra state).

pub mod accumulator;
pub mod builtin;
pub mod inputs;
mod kernels;
pub mod network;

pub use crate::features::{InputSink, NetShape, PiecesOnly};
pub use accumulator::NetStack;
pub use builtin::builtin_net;
pub use inputs::{active_features, Active, FeatureList, InputLayout, MAX_ACTIVE};
pub use network::{
    material_psqt, screlu, FloatNet, NetError, NetInfo, Network, BASE_LINEAR, MAGIC, MAX_NET_BYTES,
    QA, QB, SCALE,
};
