//! Parallel self-play tournaments: a fixed game list (pairs from one opening with colours
//! swapped), played on a rayon pool, each finished game appended to `games.csv` as one whole
//! flushed row, resumable and shardable.
//!
//! Reproducibility: a game's seed comes from (master seed, game id) and its searchers are
//! created for that game alone, so every game is the same whatever the thread count or the
//! order games finish in. When the run completes, the CSVs are rewritten sorted by game id,
//! so they are identical (timing columns aside) for any thread count.

use crate::config::EngineConfig;
use crate::folder_lock::FolderLock;
use crate::openings::Openings;
use crate::output::{out, write_json};
use crate::pgn;
use crate::play::{Adjudication, GameOutcome, TimeControl};
use crate::schedule::{self, Flow, Match, MatchSettings, Order, Played, Slot};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::Path;
use variantlab_engine::game::Game;
use variantlab_engine::search::Limits;
use variantlab_engine::{with_variant, Color, VariantKind};

/// Everything that defines a run; saved as `run.json`, and read back strictly: an unknown
/// field, or a missing one that is always written, is an error naming it (a damaged file
/// must not change the run silently). `Option::deserialize` makes a field required that
/// serde would otherwise take as `None` when missing; the fields written only when set
/// (`variant_file`, `movetime`, `tc`) are the ones that may be absent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// The variant (written as its name).
    #[serde(with = "crate::variant_file::by_name")]
    pub variant: VariantKind,
    /// The variant's definition when it was read from a file (`--variant-file`): part of
    /// the run's identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_file: Option<crate::variant_file::VariantDefinition>,
    /// Games in the whole study (all shards).
    pub games: u64,
    /// Default limits per move.
    #[serde(deserialize_with = "Option::deserialize")]
    pub nodes: Option<u64>,
    /// Default depth per move (when no nodes).
    #[serde(deserialize_with = "Option::deserialize")]
    pub depth: Option<u32>,
    /// Default time per move in milliseconds (when neither nodes nor depth).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movetime: Option<u64>,
    /// A clock per game for every player; a side out of time loses (`time_forfeit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// Whether the games are fixed by the seed: false with time limits or an external
    /// engine (then a resumed or repeated run plays other games).
    pub reproducible: bool,
    /// Master seed.
    pub seed: u64,
    /// `random-plies:P` or an openings file path.
    pub openings: String,
    /// Engine A: White in the first game of each pair, Black in the second.
    pub white: EngineConfig,
    /// Engine B.
    pub black: EngineConfig,
    /// Adjudication settings.
    pub adjudication: Adjudication,
    /// Whether `moves.csv` is written.
    pub record_moves: bool,
    /// Whether `games.pgn` is written (with `record_moves` only: it is made from the
    /// moves). Output only, not part of the run's identity.
    pub pgn: bool,
    /// `(I, N)`: this run plays the I-th (1-based) of N slices of the pairs.
    #[serde(deserialize_with = "Option::deserialize")]
    pub shard: Option<(u64, u64)>,
    /// FNV-1a 64 checksum (hex) of the openings file when `openings` is a file; the file
    /// itself is copied into the run folder as [`OPENINGS_COPY`], and resume and merge use
    /// and check that copy, so a moved folder resumes and a changed file is noticed.
    #[serde(deserialize_with = "Option::deserialize")]
    pub openings_checksum: Option<String>,
    /// Engine version that played.
    pub engine_version: String,
    /// Git commit the binary was built from, `+modified` when its tree had changes
    /// (informational; `unknown` outside a git checkout).
    #[serde(deserialize_with = "Option::deserialize")]
    pub git_commit: Option<String>,
    /// Threads used (informational, not part of the identity).
    pub threads: usize,
    /// Unix seconds at start (informational).
    pub started: u64,
    /// Unix seconds at completion, once complete.
    #[serde(deserialize_with = "Option::deserialize")]
    pub finished: Option<u64>,
}

impl RunConfig {
    /// A self-play study of the default configuration against itself from the default
    /// openings, recording moves, with the default ply cap (the study and the piece-value
    /// regression use it).
    pub fn self_play(
        variant: VariantKind,
        games: u64,
        nodes: u64,
        seed: u64,
        threads: usize,
    ) -> RunConfig {
        RunConfig {
            variant,
            variant_file: crate::variant_file::definition_for(variant),
            games,
            nodes: Some(nodes),
            depth: None,
            movetime: None,
            tc: None,
            reproducible: true,
            seed,
            openings: crate::config::DEFAULT_OPENINGS.into(),
            white: EngineConfig::default_named(),
            black: EngineConfig::default_named(),
            adjudication: Adjudication {
                max_plies: crate::config::default_max_plies(variant),
                resign: None,
                draw: None,
            },
            record_moves: true,
            pgn: true,
            shard: None,
            openings_checksum: None,
            engine_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: git_commit(),
            threads,
            started: now(),
            finished: None,
        }
    }

    /// The fields that must agree for two runs to be parts of one study.
    pub fn identity(&self) -> RunConfig {
        RunConfig {
            shard: None,
            pgn: true,
            threads: 0,
            started: 0,
            finished: None,
            git_commit: None,
            // A file is known by its contents, not by the path it was given as.
            openings: if self.openings_checksum.is_some() {
                String::new()
            } else {
                self.openings.clone()
            },
            ..self.clone()
        }
    }

    /// Reads the openings file (when `openings` names one) and records its checksum, so
    /// the configuration can be compared with a saved one before anything is played.
    ///
    /// # Errors
    /// An unreadable file.
    pub fn with_openings_checksum(mut self) -> Result<RunConfig> {
        if !crate::openings::is_generated(&self.openings) {
            let bytes = std::fs::read(&self.openings)
                .with_context(|| format!("reading openings file {}", self.openings))?;
            self.openings_checksum = Some(fnv1a_hex(&bytes));
        }
        Ok(self)
    }

    /// The openings spec to play from a run folder: its own copy of the file, checked
    /// against the recorded checksum.
    ///
    /// # Errors
    /// A missing or changed copy.
    pub fn openings_in(&self, dir: &Path) -> Result<String> {
        let Some(sum) = &self.openings_checksum else {
            return Ok(self.openings.clone());
        };
        let copy = dir.join(OPENINGS_COPY);
        let bytes = std::fs::read(&copy).with_context(|| {
            format!(
                "{}: the run's copy of its openings is missing",
                copy.display()
            )
        })?;
        if &fnv1a_hex(&bytes) != sum {
            bail!(
                "{}: the openings changed since the run started (checksum {} expected); a resume would mix old and new openings",
                copy.display(),
                sum
            );
        }
        Ok(copy.display().to_string())
    }

    /// The settings the games are played with: engine A is `white`, and a player whose
    /// configuration sets no limits gets nodes, depth or movetime (none with a clock alone:
    /// the clock then sets each move's time).
    pub fn settings(&self) -> MatchSettings {
        MatchSettings {
            variant: self.variant,
            engines: [self.white.clone(), self.black.clone()],
            limits: default_limits(self.nodes, self.depth, self.movetime, self.tc),
            tc: self.tc,
            seed: self.seed,
            openings: self.openings.clone(),
            adjudication: self.adjudication,
            record_moves: self.record_moves,
        }
    }

    /// Whether these settings fix every game by the seed ([`MatchSettings::is_reproducible`]).
    pub fn is_reproducible(&self) -> bool {
        self.settings().is_reproducible()
    }

    /// Whether game `id` belongs to this run's shard.
    pub fn in_shard(&self, id: u64) -> bool {
        match self.shard {
            Some((i, n)) => (id / 2) % n == i - 1,
            None => true,
        }
    }
}

/// The limits per move from a command's `--nodes`, `--depth`, `--movetime` and `--tc`, in
/// that order of precedence; the default node count when none is given.
pub fn default_limits(
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<u64>,
    tc: Option<TimeControl>,
) -> Limits {
    match (nodes, depth, movetime) {
        (Some(n), _, _) => Limits::nodes(n),
        (None, Some(d), _) => Limits::depth(d),
        (None, None, Some(ms)) => Limits::movetime(ms),
        _ if tc.is_some() => Limits::default(),
        _ => Limits::nodes(crate::config::DEFAULT_NODES),
    }
}

/// The folder, inside a run folder, of the external engines' standard error logs.
pub const ENGINE_LOGS: &str = "engines";

/// The run folder's copy of an openings file.
pub const OPENINGS_COPY: &str = "openings.txt";

/// FNV-1a, 64 bits, as hex: a stable checksum (the same in every Rust version, unlike
/// the standard hasher) for telling two openings files apart.
pub fn fnv1a_hex(bytes: &[u8]) -> String {
    format!(
        "{:016x}",
        variantlab_engine::zobrist::fnv1a(bytes.iter().copied())
    )
}

/// The git commit this binary was built from (`build.rs`), with `+modified` for a tree
/// with changes.
pub fn git_commit() -> Option<String> {
    option_env!("VARIANTLAB_GIT_COMMIT").map(String::from)
}

pub(crate) fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Column names of `games.csv` for a variant with these material kinds.
pub fn games_header(kinds: &[(&'static str, i32)]) -> Vec<String> {
    let mut h: Vec<String> = [
        "game_id",
        "pair_id",
        "seed",
        "variant",
        "opening",
        "white",
        "black",
        "result",
        "termination",
        "plies",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for side in ["white", "black"] {
        for (k, _) in kinds {
            h.push(format!("{side}_{}", crate::config::piece_key(k)));
        }
    }
    h.push("wall_ms".into());
    h
}

/// Column names of `moves.csv`.
pub const MOVES_HEADER: [&str; 6] = [
    "game_id",
    "ply",
    "move",
    "side",
    "material",
    "eval_white_cp",
];

/// Options of `variantlab play` that are not part of the run's identity.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads.
    pub threads: usize,
    /// No progress bar.
    pub quiet: bool,
}

/// Starts a new run in `dir` (which must not already hold one).
///
/// # Errors
/// An existing run in `dir`, an unwritable folder, a bad configuration.
pub fn start(config: RunConfig, dir: &Path, opts: &RunOptions) -> Result<Summary> {
    start_or_replace(config, dir, opts, false)
}

/// [`start`], where `force` replaces a run already in `dir` (the toolkit's files only,
/// [`crate::run_folder::clear`]) instead of refusing it.
///
/// # Errors
/// Those of [`start`]; with `force`, a file in `dir` that variantlab did not write.
pub fn start_or_replace(
    config: RunConfig,
    dir: &Path,
    opts: &RunOptions,
    force: bool,
) -> Result<Summary> {
    let config = config.with_openings_checksum()?;
    config.settings().validate()?;
    crate::config::check_memory(opts.threads, config.games, [&config.white, &config.black])?;
    std::fs::create_dir_all(dir)
        .with_context(|| format!("creating output folder {}", dir.display()))?;
    let _lock = FolderLock::acquire(dir)?;
    if dir.join("run.json").exists() {
        if !force {
            bail!(
                "{} already holds a run; use --resume {} to finish it, --force to replace it, or choose another --out",
                dir.display(),
                dir.display()
            );
        }
        crate::run_folder::clear(dir)?;
    }
    if config.openings_checksum.is_some() {
        std::fs::copy(&config.openings, dir.join(OPENINGS_COPY))
            .with_context(|| format!("copying {} into {}", config.openings, dir.display()))?;
    }
    write_json(&dir.join("run.json"), &config)?;
    run(config, dir, opts)
}

/// The run saved in `dir`, if there is one.
///
/// # Errors
/// An unreadable or malformed `run.json`.
pub fn saved_config(dir: &Path) -> Result<Option<RunConfig>> {
    let path = dir.join("run.json");
    if !path.exists() {
        return Ok(None);
    }
    crate::variant_file::load_stored(&path)?;
    let config: RunConfig = crate::output::read_json(&path)?;
    for engine in [&config.white, &config.black] {
        engine
            .check_name()
            .with_context(|| format!("reading {}", path.display()))?;
    }
    Ok(Some(config))
}

/// What to do with `dir` before a run of `config`: the one rule every command follows.
/// A run there with the same settings is resumed (`Ok(true)`; a finished one costs
/// nothing), an empty place is started afresh (`Ok(false)`), and a run with other settings
/// (another variant, game count, node count, seed, openings ...) is refused, or with
/// `force` removed (the toolkit's files only, [`crate::run_folder::clear`]) and started
/// afresh.
///
/// # Errors
/// A run with other settings and no `force`, an unreadable `run.json`, an undeletable folder.
pub fn resume_or_replace(dir: &Path, config: &RunConfig, force: bool) -> Result<bool> {
    match saved_config(dir)? {
        Some(saved) if saved.identity() == config.identity() => Ok(true),
        Some(_) if force => {
            let _lock = FolderLock::acquire(dir)?;
            crate::run_folder::clear(dir)?;
            Ok(false)
        }
        Some(saved) => bail!(
            "{} holds a run made with other settings ({} games of {} at {}); use --force to replace it, or choose another --out",
            dir.display(),
            saved.games,
            saved.variant.name(),
            match (saved.nodes, saved.depth, saved.movetime, saved.tc) {
                (Some(n), ..) => format!("{n} nodes"),
                (None, Some(d), ..) => format!("depth {d}"),
                (None, None, Some(ms), _) => format!("{ms} ms per move"),
                (None, None, None, Some(tc)) => format!("clock {tc}"),
                _ => "default limits".to_string(),
            },
        ),
        None => Ok(false),
    }
}

/// Finishes the run in `dir`: the games not yet in `games.csv` are played.
///
/// # Errors
/// No run in `dir`, or a damaged CSV (named, with the line).
pub fn resume(dir: &Path, opts: &RunOptions) -> Result<Summary> {
    resume_named(dir, opts, &[None, None])
}

/// The engine configurations a command line named for a resume: `--white` and `--black`
/// (`--test` and `--base` for an SPRT match), each if given.
pub type Named = [Option<EngineConfig>; 2];

/// Refuses a resume that would start a program the command line did not name: a run folder
/// is data, and its settings file could have been edited. Each external engine of the saved
/// settings must be given again (`flags` name the options), and anything given must be what
/// the run was started with.
///
/// # Errors
/// An external engine not named again, or a configuration that differs from the saved one.
pub fn confirm_engines(
    settings: &Path,
    saved: [&EngineConfig; 2],
    named: &Named,
    flags: [&str; 2],
) -> Result<()> {
    for ((saved, named), flag) in saved.into_iter().zip(named).zip(flags) {
        match named {
            Some(n) if n != saved => bail!(
                "{flag} {:?} differs from the engine {} was started with ({}); resume with the same {flag}",
                n.name,
                settings.display(),
                describe(saved)
            ),
            None if saved.is_external() => bail!(
                "{} plays the external engine {}: a resume starts only programs named on the command line, so give {flag} again (the same as when the run started)",
                settings.display(),
                describe(saved)
            ),
            _ => {}
        }
    }
    Ok(())
}

/// A configuration as a resume's refusal names it.
fn describe(c: &EngineConfig) -> String {
    match &c.engine {
        Some(command) => format!("{:?}, command {command:?}", c.name),
        None => format!("{:?}, built in", c.name),
    }
}

/// [`resume`], with the engines the command line named ([`confirm_engines`]).
///
/// # Errors
/// Those of [`resume`] and [`confirm_engines`].
pub fn resume_named(dir: &Path, opts: &RunOptions, named: &Named) -> Result<Summary> {
    let (_lock, config) = saved_run(dir, named)?;
    run(config, dir, opts)
}

/// The run in `dir`, locked, with its external engines confirmed against the ones the
/// command line named: what both [`resume_named`] and [`extend`] start from.
fn saved_run(dir: &Path, named: &Named) -> Result<(FolderLock, RunConfig)> {
    if !dir.join("run.json").exists() {
        bail!("--resume {}: no run.json there", dir.display());
    }
    let lock = FolderLock::acquire(dir)?;
    let config = saved_config(dir)?
        .with_context(|| format!("--resume {}: no run.json there", dir.display()))?;
    confirm_engines(
        &dir.join("run.json"),
        [&config.white, &config.black],
        named,
        ["--white", "--black"],
    )?;
    Ok((lock, config))
}

/// Extends the run in `dir` to `games` games in all (the game list is fixed by the seed, so
/// the first games stay as they are) and plays the new ones.
///
/// # Errors
/// No run in `dir`, fewer games than it already has, or the errors of [`resume`].
pub fn extend(dir: &Path, games: u64, opts: &RunOptions, named: &Named) -> Result<Summary> {
    let (_lock, mut config) = saved_run(dir, named)?;
    if games < config.games {
        bail!(
            "--games {games}: the run in {} already has {} games; a run can grow, not shrink",
            dir.display(),
            config.games
        );
    }
    config.games = games;
    config.finished = None;
    write_json(&dir.join("run.json"), &config)?;
    run(config, dir, opts)
}

/// What `variantlab play` does with its folder.
#[derive(Clone, Debug)]
pub enum PlayJob {
    /// Start this new run there; with `true` (`--force`), replacing a run there.
    Start(Box<RunConfig>, bool),
    /// Finish the run there, with the engines the command line named (`--white`,
    /// `--black`; see [`confirm_engines`]).
    Resume(Named),
    /// Extend the run there to this many games, then finish it.
    Extend(u64, Named),
}

/// `variantlab play`: does `job` in `dir` and prints the run's summary.
///
/// # Errors
/// Those of [`start`], [`resume`] and [`extend`].
pub fn play_command(job: PlayJob, dir: &Path, opts: &RunOptions) -> Result<()> {
    let summary = match job {
        PlayJob::Start(config, force) => start_or_replace(*config, dir, opts, force)?,
        PlayJob::Resume(named) => resume_named(dir, opts, &named)?,
        PlayJob::Extend(games, named) => extend(dir, games, opts, &named)?,
    };
    out!("{}", summary.line());
    out!("wrote {}", dir.join("games.csv").display());
    Ok(())
}

/// Cuts an unfinished last line (a run killed mid-write) so the file ends on a whole row.
/// Returns whether anything was cut.
pub fn drop_partial_line(path: &Path) -> Result<bool> {
    if !path.exists() {
        return Ok(false);
    }
    let mut bytes = Vec::new();
    File::open(path)?.read_to_end(&mut bytes)?;
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(false);
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    OpenOptions::new()
        .write(true)
        .open(path)?
        .set_len(keep as u64)?;
    Ok(true)
}

/// Whether `path` exists and ends in an unfinished line (a run killed mid-write).
pub(crate) fn ends_unfinished(path: &Path) -> Result<bool> {
    let Ok(mut f) = File::open(path) else {
        return Ok(false);
    };
    use std::io::{Seek, SeekFrom};
    let len = f.metadata()?.len();
    if len == 0 {
        return Ok(false);
    }
    let mut last = [0u8];
    f.seek(SeekFrom::Start(len - 1))?;
    f.read_exact(&mut last)?;
    Ok(last[0] != b'\n')
}

/// Reads a CSV written by this tool, checking the header and every row's width.
pub fn read_csv(path: &Path, header: &[String]) -> Result<Vec<Vec<String>>> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_path(path)
        .with_context(|| format!("reading {}", path.display()))?;
    let got: Vec<String> = reader
        .headers()
        .with_context(|| format!("reading {}", path.display()))?
        .iter()
        .map(String::from)
        .collect();
    if got != header {
        bail!(
            "{}: unexpected columns {:?}; expected {:?}",
            path.display(),
            got,
            header
        );
    }
    let mut rows = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let rec = rec.with_context(|| format!("{}: line {}", path.display(), i + 2))?;
        if rec.len() != header.len() {
            let first = header[0].strip_suffix("_id").unwrap_or(&header[0]);
            bail!(
                "{}: line {} ({first} {}) has {} fields, expected {} (a cut row?)",
                path.display(),
                i + 2,
                rec.get(0).unwrap_or(""),
                rec.len(),
                header.len()
            );
        }
        rows.push(rec.iter().map(String::from).collect());
    }
    Ok(rows)
}

fn open_append(path: &Path, header: &[&str]) -> Result<csv::Writer<BufWriter<File>>> {
    let fresh = !path.exists() || std::fs::metadata(path)?.len() == 0;
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(BufWriter::new(file));
    if fresh {
        w.write_record(header)
            .and_then(|()| Ok(w.flush()?))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(w)
}

/// The end-of-run figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Games in this folder.
    pub games: u64,
    /// Counts and intervals.
    pub stats: crate::stats::Stats,
    /// White's score's 95% interval with the two games of a pair as one cluster: the same
    /// interval as `balance.csv` and the report give.
    pub white_score_interval: (f64, f64),
    /// Mean plies.
    pub mean_plies: f64,
    /// Whether the run had time limits or external engines (its games are not fixed by the
    /// seed); the line says so.
    pub not_reproducible: bool,
    /// The two engines' names where they differ (an engine match): the line then gives
    /// engine A's own score and Elo from the pairs, not only White's view.
    pub engines: Option<(String, String)>,
}

impl Summary {
    /// Computes the summary from `games.csv` rows (colours from White's point of view;
    /// pairs from engine A's).
    pub fn from_rows(rows: &[Vec<String>]) -> Summary {
        let mut stats = crate::stats::Stats::default();
        let mut plies = 0u64;
        let mut by_pair: std::collections::BTreeMap<u64, Vec<(u64, f64)>> = Default::default();
        for r in rows {
            let result = match r[7].as_str() {
                "1-0" => crate::stats::GameResult::WhiteWin,
                "0-1" => crate::stats::GameResult::BlackWin,
                _ => crate::stats::GameResult::Draw,
            };
            stats.add_game(result);
            plies += r[9].parse::<u64>().unwrap_or(0);
            let id: u64 = r[0].parse().unwrap_or(0);
            let white_points = match result {
                crate::stats::GameResult::WhiteWin => 1.0,
                crate::stats::GameResult::Draw => 0.5,
                crate::stats::GameResult::BlackWin => 0.0,
            };
            // Engine A is White in even games.
            let a_points = if id.is_multiple_of(2) {
                white_points
            } else {
                1.0 - white_points
            };
            by_pair.entry(id / 2).or_default().push((id, a_points));
        }
        // White's points per pair, back from engine A's (A is White in even games).
        let clusters: Vec<(crate::stats::Cluster, f64)> = by_pair
            .values()
            .map(|games| {
                let white = |&(id, a): &(u64, f64)| if id % 2 == 0 { a } else { 1.0 - a };
                let cluster = crate::stats::Cluster {
                    total: games.iter().map(white).sum(),
                    size: games.len() as f64,
                };
                (cluster, 1.0)
            })
            .collect();
        let white_score_interval =
            crate::stats::unit_mean_interval(&clusters, crate::stats::z_for_confidence(0.95));
        for games in by_pair.values() {
            if let [a, b] = games.as_slice() {
                stats.add_pair(a.1, b.1);
            }
        }
        let games = rows.len() as u64;
        Summary {
            games,
            stats,
            white_score_interval,
            mean_plies: if games > 0 {
                plies as f64 / games as f64
            } else {
                0.0
            },
            not_reproducible: false,
            engines: None,
        }
    }

    /// Engine A's score and Elo against engine B from the complete pairs (each pair one
    /// cluster), in an engine match; empty otherwise.
    fn engine_text(&self) -> String {
        let Some((a, b)) = &self.engines else {
            return String::new();
        };
        let s = &self.stats;
        let (lo, hi) = s.pair_score_interval(0.95);
        let (elo_lo, elo_hi) = s.pair_elo_interval(0.95);
        format!(
            "\n{a} against {b} ({} pairs): {a} scores {:.3} [{:.3}, {:.3}], Elo {} [{}, {}]",
            s.pairs(),
            s.pair_score(),
            lo,
            hi,
            crate::stats::fixed(s.pair_elo(), 1),
            crate::stats::fixed(elo_lo, 1),
            crate::stats::fixed(elo_hi, 1)
        )
    }

    /// One line for the terminal (two in an engine match).
    pub fn line(&self) -> String {
        let s = &self.stats;
        let (lo, hi) = self.white_score_interval;
        format!(
            "{} games: +{} ={} -{} (White's view)  White score {:.3} [{:.3}, {:.3}]  draws {:.1}%  mean plies {:.1}",
            self.games,
            s.white_wins,
            s.draws,
            s.black_wins,
            s.white_score(),
            lo,
            hi,
            100.0 * s.draw_rate(),
            self.mean_plies
        ) + &self.engine_text()
            + if self.not_reproducible {
            "  (not reproducible: time limits or external engines)"
        } else {
            ""
        }
    }
}

fn run(mut config: RunConfig, dir: &Path, opts: &RunOptions) -> Result<Summary> {
    if !opts.quiet {
        eprintln!(
            "{}: safe to interrupt; `variantlab play --resume {}` finishes the run",
            dir.display(),
            dir.display()
        );
    }
    config.threads = opts.threads;
    crate::config::check_memory(opts.threads, config.games, [&config.white, &config.black])?;
    with_variant!(config.variant, G => run_variant::<G>(config, dir, opts))
}

fn run_variant<G: Game>(mut config: RunConfig, dir: &Path, opts: &RunOptions) -> Result<Summary> {
    let settings = MatchSettings {
        openings: config.openings_in(dir)?,
        ..config.settings()
    };
    // Checked before the run.json was written, so a failure here comes from that file.
    let openings = Openings::parse::<G>(&settings.openings)
        .with_context(|| format!("the openings of {}", dir.join("run.json").display()))?;
    let kinds = G::start().material_kinds();
    let players = settings.players::<G>(Some(&dir.join(ENGINE_LOGS)))?;
    let header = games_header(&kinds);
    let games_path = dir.join("games.csv");
    let moves_path = dir.join("moves.csv");
    let pgn_path = dir.join(pgn::PGN_FILE);
    let write_pgn = config.record_moves && config.pgn;

    if drop_partial_line(&games_path)? {
        eprintln!("note: {} ended in an unfinished row (a killed run); it was dropped and its game is replayed", games_path.display());
    }
    let mut done_rows = if games_path.exists() {
        read_csv(&games_path, &header)?
    } else {
        Vec::new()
    };
    let id_of = |r: &Vec<String>| r[0].parse::<u64>().unwrap_or(u64::MAX);
    if config.record_moves {
        // Moves of games without a finished row are replayed: drop them.
        drop_partial_line(&moves_path)?;
        let mh: Vec<String> = MOVES_HEADER.iter().map(|s| s.to_string()).collect();
        let rows = if moves_path.exists() {
            read_csv(&moves_path, &mh)?
        } else {
            Vec::new()
        };
        // A game whose move rows are not all there (a cut or deleted moves.csv) is played
        // again, its row in games.csv dropped first.
        let short: BTreeSet<u64> = crate::recorded::short_games(
            done_rows
                .iter()
                .map(|r| (id_of(r), r[9].parse().unwrap_or(u64::MAX))),
            rows.iter()
                .enumerate()
                .map(|(i, r)| (id_of(r), i as u64 + 2)),
        )
        .iter()
        .map(|g| g.id)
        .collect();
        if !short.is_empty() {
            eprintln!(
                "note: {} lacks moves of {} finished game(s) (first: game {}); they are played again",
                moves_path.display(),
                short.len(),
                short.first().copied().unwrap_or_default()
            );
            done_rows.retain(|r| !short.contains(&id_of(r)));
            rewrite(&games_path, &header, done_rows.clone())?;
        }
        let done: BTreeSet<u64> = done_rows.iter().map(id_of).collect();
        let kept: Vec<Vec<String>> = rows
            .iter()
            .filter(|r| done.contains(&id_of(r)))
            .cloned()
            .collect();
        if kept.len() != rows.len() || !moves_path.exists() {
            rewrite(&moves_path, &mh, kept.clone())?;
        }
        if write_pgn {
            // Rebuilt from the rows kept: a record cut by a kill, or one of a game
            // without a finished row, is gone, and none is written twice.
            pgn::rewrite(&pgn_path, &config, &done_rows, &pgn::moves_by_game(&kept))?;
        }
    }
    let done: BTreeSet<u64> = done_rows.iter().map(id_of).collect();

    let total_in_shard = (0..config.games).filter(|&id| config.in_shard(id)).count() as u64;
    let bar = schedule::progress(
        opts.quiet,
        Some(total_in_shard),
        "{bar:30} {pos}/{len} games  {msg}  {per_sec}  eta {eta}",
    );
    bar.set_position(done.len() as u64);

    let mut games_out = open_append(
        &games_path,
        &header.iter().map(String::as_str).collect::<Vec<_>>(),
    )?;
    let mut moves_out = if config.record_moves {
        Some(open_append(&moves_path, &MOVES_HEADER)?)
    } else {
        None
    };
    let mut pgn_out = if write_pgn {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&pgn_path)
            .with_context(|| format!("opening {}", pgn_path.display()))?;
        Some(BufWriter::new(file))
    } else {
        None
    };
    let mut all_rows = done_rows;
    bar.set_message(live_message(&Summary::from_rows(&all_rows)));

    let pool = schedule::pool(opts.threads)?;
    let start = |slot: &Slot| schedule::pair_opening::<G>(&openings, config.seed, slot);
    let games = Match {
        settings: &settings,
        players: [&players[0], &players[1]],
        start: &start,
    };
    let wanted = |id: u64| config.in_shard(id) && !done.contains(&id);
    let cfg = &config;
    // Each game as it finishes: its rows written and flushed, the live figures updated.
    let mut write_game = |g: Played| -> Result<Flow> {
        let names = g.slot.colours().map(|i| players[i].name());
        let row = game_row(cfg, &g, (names[0], names[1]), kinds.len());
        let moves = moves_rows(g.slot.id, &g.outcome);
        let writing = |p: &Path| format!("writing {}", p.display());
        if let Some(w) = moves_out.as_mut() {
            for m in &moves {
                w.write_record(m).with_context(|| writing(&moves_path))?;
            }
            w.flush().with_context(|| writing(&moves_path))?;
        }
        if let Some(w) = pgn_out.as_mut() {
            let plies: pgn::GameMoves = moves
                .iter()
                .map(|m| {
                    let side = if m[3] == "black" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    (side, m[2].clone())
                })
                .collect();
            w.write_all(pgn::record(cfg, &row, &plies).as_bytes())
                .and_then(|()| w.flush())
                .with_context(|| writing(&pgn_path))?;
        }
        games_out
            .write_record(&row)
            .with_context(|| writing(&games_path))?;
        games_out.flush().with_context(|| writing(&games_path))?;
        all_rows.push(row);
        bar.set_message(live_message(&Summary::from_rows(&all_rows)));
        bar.inc(1);
        Ok(Flow::Continue)
    };
    games.run(
        &pool,
        0..config.games,
        &wanted,
        Order::Finished,
        &mut write_game,
    )?;
    bar.finish_and_clear();
    drop(games_out);
    drop(moves_out);
    drop(pgn_out);

    // Complete: rewrite sorted by game id, so output does not depend on finishing order.
    if all_rows.len() as u64 == total_in_shard {
        all_rows.sort_by_key(|r| r[0].parse::<u64>().unwrap_or(u64::MAX));
        rewrite(&games_path, &header, all_rows.clone())?;
        if config.record_moves {
            let mh: Vec<String> = MOVES_HEADER.iter().map(|s| s.to_string()).collect();
            let mut rows = read_csv(&moves_path, &mh)?;
            rows.sort_by_key(|r| {
                (
                    r[0].parse::<u64>().unwrap_or(u64::MAX),
                    r[1].parse::<u64>().unwrap_or(0),
                )
            });
            if write_pgn {
                pgn::rewrite(&pgn_path, &config, &all_rows, &pgn::moves_by_game(&rows))?;
            }
            rewrite(&moves_path, &mh, rows)?;
        }
        config.finished = Some(now());
        write_json(&dir.join("run.json"), &config)?;
    }
    drop(players);
    Ok(Summary {
        not_reproducible: !config.reproducible,
        engines: engine_names(&config),
        ..Summary::from_rows(&all_rows)
    })
}

/// The engines' names where the run is an engine match (two different configurations).
pub(crate) fn engine_names(config: &RunConfig) -> Option<(String, String)> {
    (config.white != config.black).then(|| {
        let (a, b) = (&config.white.name, &config.black.name);
        if a == b {
            (format!("{a} (A)"), format!("{b} (B)"))
        } else {
            (a.clone(), b.clone())
        }
    })
}

fn live_message(s: &Summary) -> String {
    let st = &s.stats;
    format!(
        "+{} ={} -{}  White {:.3}",
        st.white_wins,
        st.draws,
        st.black_wins,
        st.white_score()
    )
}

/// Writes a whole CSV through a temporary file and a rename, so it is never half written.
pub fn rewrite(path: &Path, header: &[String], rows: Vec<Vec<String>>) -> Result<()> {
    crate::output::replace_file_with(path, |file| {
        let mut w = csv::Writer::from_writer(file);
        w.write_record(header)?;
        for r in rows {
            w.write_record(&r)?;
        }
        w.flush()?;
        Ok(())
    })
}

/// The `games.csv` row of a game.
fn game_row(cfg: &RunConfig, g: &Played, (w, b): (&str, &str), nkinds: usize) -> Vec<String> {
    let out = &g.outcome;
    let mut row = vec![
        g.slot.id.to_string(),
        g.slot.pair.to_string(),
        g.slot.seed.to_string(),
        cfg.variant.name().to_string(),
        g.opening.clone(),
        w.to_string(),
        b.to_string(),
        out.end.result().to_string(),
        out.end.reason().to_string(),
        out.plies.to_string(),
    ];
    for side in [Color::White, Color::Black] {
        for k in 0..nkinds {
            row.push(out.material[side.index()][k].to_string());
        }
    }
    row.push(g.elapsed.as_millis().to_string());
    row
}

fn moves_rows(game_id: u64, out: &GameOutcome) -> Vec<Vec<String>> {
    out.moves
        .iter()
        .enumerate()
        .map(|(ply, p)| {
            let n = p.material[0]
                .iter()
                .rposition(|&c| c != 0)
                .map_or(0, |i| i + 1)
                .max(
                    p.material[1]
                        .iter()
                        .rposition(|&c| c != 0)
                        .map_or(0, |i| i + 1),
                );
            let side = |c: usize| {
                p.material[c][..n]
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("-")
            };
            vec![
                game_id.to_string(),
                (ply + 1).to_string(),
                p.mv.clone(),
                p.side.name().to_string(),
                format!("{}/{}", side(0), side(1)),
                p.eval_white.to_string(),
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// A full disk (Linux's `/dev/full` answers every write so) is an error naming the file.
    #[test]
    #[cfg(target_os = "linux")]
    fn a_full_disk_names_the_file() {
        let full = std::path::Path::new("/dev/full");
        let e = super::open_append(full, &["game_id"]).unwrap_err();
        let text = format!("{e:#}");
        assert!(text.contains("writing /dev/full"), "{text}");
    }
}
