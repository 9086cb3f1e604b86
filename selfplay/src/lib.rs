//! # variantlab self-play
//!
//! Tournaments, statistics, piece-value estimation, reports and the `variantlab` command,
//! built on `variantlab-engine`. The engine knows nothing of any of this.
//!
//! Layers, each using only those listed before it (no module imports one above it, and
//! there is no import cycle):
//! - [`stats`]: the statistics (intervals, Elo, SPRT), pure functions of counts;
//! - [`output`]: writing files and the terminal;
//! - [`run`]: one game, the pair scheduler, engine configurations and external engines, and
//!   the run folder (`run.json`, the CSVs, `games.pgn`, locks, resume, merge, SPRT matches);
//! - [`tune`]: evaluation weights fitted to recorded games;
//! - [`values`]: piece values from games;
//! - [`net`]: network evaluation data (`datagen`) and training (`train-net`);
//! - [`analysis`]: what run folders say (`stats`, `report`);
//! - [`commands`]: the command line and the commands beside the layers.

pub mod analysis;
pub mod commands;
pub mod net;
pub mod output;
pub mod run;
pub mod stats;
pub mod tune;
pub mod values;

// The paths the tests, benches and notebooks use.
pub use analysis::{report, viewer};
pub use commands::{bench, cli};
pub use run::{config, recorded};
