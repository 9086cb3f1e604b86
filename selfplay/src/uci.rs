//! `variantlab uci`: the engine over the Universal Chess Interface.

use anyhow::Result;

/// Runs the UCI loop on standard input and output until `quit` or end of input.
///
/// # Errors
/// Never for bad input (that gets an `info string`); only when standard input fails.
pub fn run() -> Result<()> {
    Ok(())
}
