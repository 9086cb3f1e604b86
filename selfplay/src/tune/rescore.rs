//! `variantlab tune --rescore-nodes N`: the score part of each training position's target
//! from a fresh search of `N` nodes instead of the score recorded while the game was played
//! (issue 15's "against the scores of a deeper search"). Games played fast are cheap to
//! record in numbers, but their scores come from the same shallow search that played them;
//! a deeper search of each quiet position afterwards gives the fit a better label. With
//! `--rescore-engine CMD` that search is another engine's, as a UCI process (`position fen
//! TEXT`, `go nodes N`): a stronger engine that plays the variant labels our positions.
//!
//! - Reproducible: each position is searched by a cleared searcher (no table, history or
//!   correction carried over from another position), so a score depends only on the
//!   position, the node count, the starting weights and the build, whatever the thread count
//!   and the order. The search sees no game history (repetitions are not known). An
//!   external engine gets `ucinewgame` before each position; whether its fixed-node search
//!   repeats itself is up to that engine.
//! - Resumable: scores are appended to a cache beside the output (`OUT.rescore`) after each
//!   chunk of positions; a run that is interrupted starts again where the cache ends. The
//!   cache's first line names what its scores depend on (a fingerprint of the positions'
//!   features, the node count and the starting weights), so a cache made for other games or
//!   settings is started over, never mixed in. A later tune of the same games with other
//!   fit settings (`--l2`, `--score-weight`) reuses it whole.

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use variantlab_engine::game::Game;
use variantlab_engine::search::{EvalChoice, Limits, SearchConfig, Searcher};
use variantlab_engine::Color;

use crate::run::engine_process::UciEngine;

/// Who searches each position again.
#[derive(Clone, Debug)]
pub enum Rescorer {
    /// Our own search with this evaluation (the tune's starting weights).
    Own(EvalChoice),
    /// An external UCI engine: its command line and the variant's name (its `UCI_Variant`).
    Engine {
        /// The command line that starts it.
        command: String,
        /// The variant it is configured for.
        variant: String,
    },
}

impl Rescorer {
    /// What the cache's header says about the scorer: for our own search, the network it
    /// plays with if any (its weights the fingerprint already holds), so a cache of another
    /// network's scores is not reused.
    fn describe<G: Game>(&self) -> String {
        match self {
            Rescorer::Own(eval) => match eval.network::<G>() {
                Ok(Some(net)) => format!(
                    " network {}",
                    crate::run::format::fnv1a_hex(&net.to_bytes())
                ),
                _ => String::new(),
            },
            Rescorer::Engine { command, .. } => format!(" engine {command}"),
        }
    }
}

/// Scores a fit takes, recorded or rescored, are clamped to this many centipawns (a mate
/// score says "won", not by how much).
pub const SCORE_CLAMP: i32 = 2000;

/// Positions searched between two appends to the cache.
const CHUNK: usize = 1024;

/// First word of a cache's header line.
const MAGIC: &str = "variantlab-rescore-v1";

/// The cache of a tune whose weights go to `out`.
pub fn cache_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".rescore");
    PathBuf::from(name)
}

/// The searcher that rescores: the starting evaluation, a small table (each search is
/// short and starts from a cleared one), no root randomisation.
fn searcher(eval: &EvalChoice) -> Searcher {
    Searcher::new(SearchConfig {
        hash_mib: 2,
        eval: eval.clone(),
        ..SearchConfig::default()
    })
}

/// The score of a `nodes`-node search of `pos` by a cleared searcher, from White's side in
/// centipawns, clamped to ±[`SCORE_CLAMP`].
pub fn score<G: Game>(searcher: &mut Searcher, pos: &G, nodes: u64) -> i32 {
    searcher.clear();
    let r = searcher.search(pos, &[], Limits::nodes(nodes));
    white_side(pos, r.score)
}

/// A score from the side to move's view, from White's instead, clamped to ±[`SCORE_CLAMP`].
fn white_side<G: Game>(pos: &G, score: i32) -> i32 {
    let white = match pos.turn() {
        Color::White => score,
        Color::Black => -score,
    };
    white.clamp(-SCORE_CLAMP, SCORE_CLAMP)
}

/// Starts `command` for rescoring `variant`: its table as small as it allows (each search
/// is short and starts from a cleared one).
fn start_engine(command: &str, variant: &str) -> Result<UciEngine> {
    let mut engine = UciEngine::start(command, None)?;
    let mut options = std::collections::BTreeMap::new();
    if engine.option("Hash").is_some() {
        options.insert("Hash".to_string(), "1".to_string());
    }
    engine.configure(variant, &options, &Default::default())?;
    Ok(engine)
}

/// The score of `engine`'s `nodes`-node search of `pos` after `ucinewgame`, from White's
/// side in centipawns, clamped to ±[`SCORE_CLAMP`].
///
/// # Errors
/// A crash, no answer in time, or an answer without a score.
pub fn engine_score<G: Game>(engine: &mut UciEngine, pos: &G, nodes: u64) -> Result<i32> {
    let text = pos.to_text();
    let command = engine.command().to_string();
    let fail = |e: crate::run::engine_process::EngineError| {
        anyhow::anyhow!("engine {command:?} rescoring {text:?}: {e}")
    };
    engine.new_game().map_err(fail)?;
    let timeout = crate::run::play::node_limit_timeout(nodes);
    let reply = engine
        .go(
            &format!("position fen {text}"),
            &format!("go nodes {nodes}"),
            timeout,
        )
        .map_err(fail)?;
    let Some(s) = reply.score else {
        bail!(
            "engine {command:?} gave no score for {text:?} (bestmove {:?})",
            reply.bestmove
        );
    };
    Ok(white_side(pos, s))
}

/// The scores of `positions` (White's side, clamped) from `nodes`-node searches by
/// `rescorer`, read from `cache` as far as it goes when its header matches `fingerprint`,
/// the rest searched in parallel and appended to it.
///
/// # Errors
/// An unreadable or unwritable cache; an external engine that cannot be started, crashes or
/// gives no score (the scores so far stay in the cache).
pub fn rescore<G: Game>(
    positions: &[G],
    rescorer: &Rescorer,
    nodes: u64,
    fingerprint: u64,
    cache: &Path,
    quiet: bool,
) -> Result<Vec<i32>> {
    let header = format!(
        "{MAGIC} {fingerprint:016x} {nodes} {}{}",
        positions.len(),
        rescorer.describe::<G>()
    );
    let mut scores = read_cache(cache, &header)?;
    scores.truncate(positions.len());
    let resumed = scores.len();
    let mut file = if resumed == 0 {
        let mut f = std::fs::File::create(cache)
            .with_context(|| format!("creating {}", cache.display()))?;
        writeln!(f, "{header}").with_context(|| format!("writing {}", cache.display()))?;
        f
    } else {
        // Rewritten whole: a last line cut short by an interruption is dropped.
        let text = format!("{header}\n{}", lines(&scores));
        crate::output::replace_file(cache, text.as_bytes())?;
        std::fs::OpenOptions::new()
            .append(true)
            .open(cache)
            .with_context(|| format!("opening {}", cache.display()))?
    };
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(positions.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "rescore {bar:30} {pos}/{len} positions at {msg} nodes [{elapsed} / {eta}]",
        )
        .expect("template"),
    );
    bar.set_message(nodes.to_string());
    bar.set_position(resumed as u64);
    let engines: Vec<std::sync::Mutex<Option<UciEngine>>> = (0..rayon::current_num_threads())
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    for chunk in positions[resumed..].chunks(CHUNK) {
        let part: Vec<i32> = match rescorer {
            Rescorer::Own(eval) => chunk
                .par_iter()
                .map_init(|| searcher(eval), |s, pos| score(s, pos, nodes))
                .collect(),
            Rescorer::Engine { command, variant } => chunk
                .par_iter()
                .map(|pos| {
                    // Each worker thread keeps its own engine across chunks.
                    let slot = rayon::current_thread_index().unwrap_or(0) % engines.len();
                    let mut engine = engines[slot].lock().unwrap_or_else(|e| e.into_inner());
                    if engine.is_none() {
                        *engine = Some(start_engine(command, variant)?);
                    }
                    engine_score(engine.as_mut().expect("started above"), pos, nodes)
                })
                .collect::<Result<_>>()?,
        };
        file.write_all(lines(&part).as_bytes())
            .and_then(|()| file.flush())
            .with_context(|| format!("writing {}", cache.display()))?;
        scores.extend(part);
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    if scores.len() != positions.len() {
        bail!(
            "rescoring ended with {} of {} positions",
            scores.len(),
            positions.len()
        );
    }
    Ok(scores)
}

/// Scores as the cache writes them: one a line.
fn lines(scores: &[i32]) -> String {
    scores.iter().map(|s| format!("{s}\n")).collect()
}

/// The scores of a cache whose header is `header`; none if it is missing or was made for
/// something else. A last line without its newline (cut short) is left out.
fn read_cache(cache: &Path, header: &str) -> Result<Vec<i32>> {
    let text = match std::fs::read_to_string(cache) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", cache.display())),
    };
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some(header) {
        crate::output::out!(
            "{}: made for other games or settings; rescoring from the start",
            cache.display()
        );
        return Ok(Vec::new());
    }
    let mut scores = Vec::new();
    for (n, line) in lines.enumerate() {
        let Some(line) = line.strip_suffix('\n') else {
            break;
        };
        let s: i32 = line.trim().parse().with_context(|| {
            format!(
                "{}: line {} is not a score: {line:?} (delete the file to rescore)",
                cache.display(),
                n + 2
            )
        })?;
        scores.push(s);
    }
    Ok(scores)
}

#[cfg(test)]
mod tests {
    use super::*;
    type Chess = variantlab_engine::position::Position<variantlab_engine::variants::Chess>;

    /// A position's score does not depend on what the searcher searched before it.
    #[test]
    fn a_score_depends_on_the_position_alone() {
        let mut rng = variantlab_engine::zobrist::SplitMix64(39);
        let mut positions = vec![Chess::start()];
        let mut pos = Chess::start();
        for _ in 0..40 {
            let Some(m) = variantlab_engine::game::random_move(&pos, &mut rng) else {
                break;
            };
            pos.play_unchecked(m);
            positions.push(pos);
        }
        let mut reused = searcher(&EvalChoice::Default);
        let in_order: Vec<i32> = positions
            .iter()
            .map(|p| score(&mut reused, p, 400))
            .collect();
        for (p, &s) in positions.iter().zip(&in_order).rev() {
            assert_eq!(score(&mut searcher(&EvalChoice::Default), p, 400), s);
        }
        // From White's side: the side to move's score, negated when Black is to move.
        let p = &positions[1];
        let r = searcher(&EvalChoice::Default).search(p, &[], Limits::nodes(400));
        assert_eq!(in_order[1], (-r.score).clamp(-SCORE_CLAMP, SCORE_CLAMP));
    }
}
