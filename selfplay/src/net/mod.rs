//! Network evaluation: the data a variant's network is trained on (`variantlab datagen`,
//! [`data`], [`datagen`]) and the trainer (`variantlab train-net`, [`train`], [`model`]).

pub mod data;
pub mod datagen;
pub mod model;
pub mod train;
