//! The `piece_values.csv` files a run folder has in it or beside it, read for the report's
//! charts and `compare`'s value rows.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Piece values from a `piece_values.csv` (variant, piece, method, value, low, high, games,
/// and from this version on a note); rows come back with eight fields.
pub fn read_piece_values(path: &Path) -> Result<Vec<Vec<String>>> {
    let mut r =
        csv::Reader::from_path(path).with_context(|| format!("reading {}", path.display()))?;
    let mut rows = Vec::new();
    for (i, rec) in r.records().enumerate() {
        let rec = rec.with_context(|| format!("{}: line {}", path.display(), i + 2))?;
        if rec.len() != 7 && rec.len() != 8 {
            anyhow::bail!(
                "{}: line {} has {} fields, expected 8 (a truncated file?)",
                path.display(),
                i + 2,
                rec.len()
            );
        }
        let mut row: Vec<String> = rec.iter().map(String::from).collect();
        row.resize(8, String::new());
        rows.push(row);
    }
    Ok(rows)
}

/// The `piece_values.csv` files in a run folder and beside it (in its parent), those that
/// exist.
pub fn piece_value_files(run: &crate::analysis::RunData) -> Vec<PathBuf> {
    [
        Some(run.dir.join("piece_values.csv")),
        run.dir.parent().map(|p| p.join("piece_values.csv")),
    ]
    .into_iter()
    .flatten()
    .filter(|p| p.exists())
    .collect()
}
