//! Summary files written at the end of a study.

use crate::tournament::Summary;
use anyhow::{Context, Result};
use std::path::Path;

/// Writes `summary.csv`: one row per variant with counts, White's score and its 95%
/// interval, draw rate and mean length.
pub fn write_summary_csv(path: &Path, rows: &[(&str, Summary)]) -> Result<()> {
    let mut w =
        csv::Writer::from_path(path).with_context(|| format!("writing {}", path.display()))?;
    w.write_record([
        "variant",
        "games",
        "white_wins",
        "draws",
        "black_wins",
        "white_score",
        "score_ci_low",
        "score_ci_high",
        "draw_rate",
        "mean_plies",
    ])?;
    for (name, s) in rows {
        let (lo, hi) = s.stats.score_interval(0.95);
        w.write_record([
            name.to_string(),
            s.games.to_string(),
            s.stats.white_wins.to_string(),
            s.stats.draws.to_string(),
            s.stats.black_wins.to_string(),
            format!("{:.4}", s.stats.white_score()),
            format!("{lo:.4}"),
            format!("{hi:.4}"),
            format!("{:.4}", s.stats.draw_rate()),
            format!("{:.2}", s.mean_plies),
        ])?;
    }
    w.flush()?;
    Ok(())
}
