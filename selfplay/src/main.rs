//! `variantlab`: the command line of the toolkit.

mod bench;
mod cli;
mod config;
mod openings;
mod play;
mod report;
mod stats;
mod tournament;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
