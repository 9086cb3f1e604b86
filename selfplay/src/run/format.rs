//! The run folder's format: `run.json` ([`RunConfig`], read strictly), `games.csv` and
//! `moves.csv` (their columns, whole-row appends, atomic rewrites, a killed run's cut last
//! row) and the end-of-run figures ([`Summary`]). The runner that fills a folder is
//! [`tournament`](crate::run::tournament); the readers are [`recorded`](crate::run::recorded).

use crate::run::config::EngineConfig;
use crate::run::play::{Adjudication, TimeControl};
use crate::run::schedule::MatchSettings;
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read};
use std::path::Path;
use variantlab_engine::search::Limits;
use variantlab_engine::VariantKind;

/// Everything that defines a run; saved as `run.json`, and read back strictly: an unknown
/// field, or a missing one that is always written, is an error naming it (a damaged file
/// must not change the run silently). `Option::deserialize` makes a field required that
/// serde would otherwise take as `None` when missing; the fields written only when set
/// (`variant_file`, `movetime`, `tc`) are the ones that may be absent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// The variant (written as its name).
    #[serde(with = "crate::run::variant_file::by_name")]
    pub variant: VariantKind,
    /// The variant's definition when it was read from a file (`--variant-file`): part of
    /// the run's identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_file: Option<crate::run::variant_file::VariantDefinition>,
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
    /// itself is copied into the run folder as [`crate::run::folder::OPENINGS_COPY`], and resume and merge use
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
            variant_file: crate::run::variant_file::definition_for(variant),
            games,
            nodes: Some(nodes),
            depth: None,
            movetime: None,
            tc: None,
            reproducible: true,
            seed,
            openings: crate::run::config::DEFAULT_OPENINGS.into(),
            white: EngineConfig::default_named(),
            black: EngineConfig::default_named(),
            adjudication: Adjudication {
                max_plies: crate::run::config::default_max_plies(variant),
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
        if !crate::run::openings::is_generated(&self.openings) {
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
        let copy = dir.join(crate::run::folder::OPENINGS_COPY);
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
        _ => Limits::nodes(crate::run::config::DEFAULT_NODES),
    }
}

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
            h.push(format!("{side}_{}", crate::run::config::piece_key(k)));
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

/// The run saved in `dir`, if there is one.
///
/// # Errors
/// An unreadable or malformed `run.json`.
pub fn saved_config(dir: &Path) -> Result<Option<RunConfig>> {
    let path = dir.join("run.json");
    if !path.exists() {
        return Ok(None);
    }
    crate::run::variant_file::load_stored(&path)?;
    let config: RunConfig = crate::output::read_json(&path)?;
    for engine in [&config.white, &config.black] {
        engine
            .check_name()
            .with_context(|| format!("reading {}", path.display()))?;
    }
    Ok(Some(config))
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

/// Whether a run's CSV exists with at least its header: a file killed between its creation and
/// its header is empty, holds no row, and is written afresh with its header.
pub fn has_content(path: &Path) -> Result<bool> {
    match std::fs::metadata(path) {
        Ok(m) => Ok(m.len() > 0),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
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

pub(crate) fn open_append(path: &Path, header: &[&str]) -> Result<csv::Writer<BufWriter<File>>> {
    let fresh = !has_content(path)?;
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
