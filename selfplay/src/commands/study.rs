//! `variantlab study`, the default job: a small balance study of several variants, each run
//! resumed when already there, then one summary, the statistics and the report.

use crate::output::out;
use crate::run::format::{self, RunConfig};
use crate::run::tournament::{self, RunOptions};
use anyhow::Result;
use std::path::PathBuf;
use variantlab_engine::VariantKind;

/// The settings of a study.
#[derive(Clone, Debug)]
pub struct Study {
    /// Variants studied, in this order.
    pub kinds: Vec<VariantKind>,
    /// Games per variant.
    pub games: u64,
    /// Nodes per move.
    pub nodes: u64,
    /// Master seed.
    pub seed: u64,
    /// Openings: `random-plies:P` or a file of positions.
    pub openings: String,
    /// Draw after this many plies (0 = no limit); `None`: each variant's own cap.
    pub max_plies: Option<u32>,
    /// Replace runs made with other settings instead of refusing.
    pub force: bool,
    /// Output folder: one folder per variant, the summary, statistics and report.
    pub out: PathBuf,
}

/// Plays (or resumes) every variant's run, then writes `summary.csv`, the statistics and
/// `report.html`.
///
/// # Errors
/// A run with other settings in the way (without `force`), and the errors of the runs and
/// of the files written.
pub fn command(study: &Study, opts: &RunOptions) -> Result<()> {
    let (games, nodes, out) = (study.games, study.nodes, &study.out);
    let mut lines = Vec::new();
    for &kind in &study.kinds {
        let dir = out.join(kind.name());
        let mut config = RunConfig::self_play(kind, games, nodes, study.seed, opts.threads);
        config.openings = study.openings.clone();
        if let Some(cap) = study.max_plies {
            config.adjudication.max_plies = cap;
        }
        let config = config.with_openings_checksum()?;
        // A run with the same settings is resumed (finished runs cost nothing), and one with
        // fewer games grows to `games` keeping those played (as `play --resume --games`
        // does); one made with other settings is kept unless --force.
        let grows = format::saved_config(&dir)?.is_some_and(|saved| {
            saved.games < games
                && RunConfig {
                    games,
                    ..saved.identity()
                } == config.identity()
        });
        let resume = grows || tournament::resume_or_replace(&dir, &config, study.force)?;
        eprintln!(
            "{}: {games} games at {nodes} nodes per move ...",
            kind.name()
        );
        let summary = if grows {
            // A study plays the default engine only: no external engine to name again.
            tournament::extend(&dir, games, opts, &[None, None])?
        } else if resume {
            tournament::resume(&dir, opts)?
        } else {
            tournament::start(config, &dir, opts)?
        };
        out!("{:<16} {}", kind.name(), summary.line());
        lines.push((kind.name(), summary));
    }
    crate::analysis::report::write_summary_csv(&out.join("summary.csv"), &lines)?;
    let runs = study
        .kinds
        .iter()
        .map(|k| crate::analysis::load(&out.join(k.name())))
        .collect::<Result<Vec<_>>>()?;
    crate::analysis::write(&runs, out)?;
    crate::analysis::report::write_html(&runs, &out.join("report.html"))?;
    out!(
        "wrote {}: summary.csv, balance.csv, length.csv, report.html, and games.csv + moves.csv per variant",
        out.display()
    );
    Ok(())
}
