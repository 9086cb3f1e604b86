//! The command line and the commands that stand beside the layers: variants, perft,
//! search, bench, uci and the study.

pub mod args;
pub mod bench;
pub mod cli;
pub mod inspect;
pub mod net;
pub mod study;
pub mod uci;
