//! Helpers shared by the integration tests (each test file uses some of them).
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;

/// The file where tests that could not run list themselves, one line each (`make test`
/// prints it after the suite, so a skip does not pass for a success):
/// `VARIANTLAB_SKIPPED`, or `skipped-tests.txt` in the build's temporary folder.
pub fn skipped_list() -> PathBuf {
    std::env::var_os("VARIANTLAB_SKIPPED").map_or_else(
        || PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("skipped-tests.txt"),
        PathBuf::from,
    )
}

/// Records that `test` was skipped and why, on stderr and in [`skipped_list`].
pub fn skipped(test: &str, why: &str) {
    eprintln!("SKIPPED {test}: {why}");
    let line = format!("{test}: {why}\n");
    let appended = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(skipped_list())
        .and_then(|mut f| f.write_all(line.as_bytes()));
    if let Err(e) = appended {
        eprintln!(
            "note: could not record the skip in {}: {e}",
            skipped_list().display()
        );
    }
}

/// Runs the `variantlab` binary with `args` and waits for it.
pub fn variantlab(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .output()
        .expect("variantlab runs")
}
