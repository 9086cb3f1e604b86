//! `variantlab`: the command line of the toolkit.

use std::process::ExitCode;

fn main() -> ExitCode {
    match variantlab_selfplay::cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
