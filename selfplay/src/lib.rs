//! # variantlab self-play
//!
//! Tournaments, statistics, piece-value estimation, reports and the `variantlab` command,
//! built on `variantlab-engine`. The engine knows nothing of any of this.

pub mod analysis;
pub mod bench;
pub mod charts;
pub mod cli;
pub mod config;
pub mod engine_process;
pub mod folder_lock;
pub mod inspect;
pub mod merge;
pub mod openings;
pub mod output;
pub mod pgn;
pub mod play;
pub mod recorded;
pub mod report;
pub mod rescore;
pub mod run_folder;
pub mod schedule;
pub mod sprt;
pub mod stats;
pub mod study;
pub mod tournament;
pub mod trade_scores;
pub mod tune;
pub mod tuned_values;
pub mod uci;
pub mod values;
pub mod variant_file;
pub mod viewer;
