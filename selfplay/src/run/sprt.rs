//! `variantlab sprt`: is a configuration stronger than another? Colour-swapped pairs are
//! played in parallel until the sequential probability ratio test over the pentanomial
//! counts accepts H0 (elo <= elo0) or H1 (elo >= elo1), as large engine-testing frameworks do.
//!
//! The LLR is the exact generalised SPRT over pentanomial counts (`stats::gsprt_llr`): each
//! pair moves it by a bounded amount, so no minimum sample is needed and drawn pairs count
//! as the evidence they are, at any draw rate.
//!
//! Determinism: pairs are played in batches, but their results are taken in pair order and
//! the test is checked after every pair, so the decision, the pair at which it falls and
//! `sprt.csv` are the same for any thread count. Pairs of the last batch beyond the deciding
//! one are discarded unwritten. `sprt.csv` gets one whole flushed row per pair, so a killed
//! run resumes from its last complete pair (`--resume DIR`).

use crate::output::{out, write_json};
use crate::run::config::EngineConfig;
use crate::run::format::{has_content, open_append, read_csv};
use crate::run::openings::Openings;
use crate::run::play::{Adjudication, TimeControl};
use crate::run::schedule::{self, Flow, Match, MatchSettings, Observer, Order, Played, Slot};
use crate::stats::{fixed, EloModel, Sprt, SprtStatus, Stats};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;
use variantlab_engine::game::Game;
use variantlab_engine::{with_variant, Color, VariantKind};

/// Everything that defines an SPRT match; saved as `sprt_config.json` and read back strictly,
/// as `run.json` is ([`crate::run::format::RunConfig`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtConfig {
    /// The variant (written as its name).
    #[serde(with = "crate::run::variant_file::by_name")]
    pub variant: VariantKind,
    /// The variant's definition when it was read from a file: part of the match's identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant_file: Option<crate::run::variant_file::VariantDefinition>,
    /// The reference configuration.
    pub base: EngineConfig,
    /// The candidate (the "first engine" of every pair).
    pub test: EngineConfig,
    /// H0 bound.
    pub elo0: f64,
    /// H1 bound.
    pub elo1: f64,
    /// Type I error.
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
    /// `logistic` or `normalized` Elo bounds.
    pub model: String,
    /// Nodes per move unless a configuration says otherwise (or `movetime`/`tc` is set).
    pub nodes: u64,
    /// Time per move in milliseconds instead of nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movetime: Option<u64>,
    /// A clock per game for every player; a side out of time loses (`time_forfeit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// Whether the games (and so the decision) are fixed by the seed: false with time
    /// limits or an external engine.
    pub reproducible: bool,
    /// Stop after this many games without a decision.
    pub max_games: u64,
    /// Master seed.
    pub seed: u64,
    /// Openings.
    pub openings: String,
    /// Ply limit.
    pub max_plies: u32,
}

impl SprtConfig {
    /// The settings the games are played with: the test configuration is engine A (White
    /// in the first game of each pair), and a player whose configuration sets no limits
    /// gets `nodes`, or the time per move or clock instead.
    pub fn settings(&self) -> MatchSettings {
        let timed = self.movetime.is_some() || self.tc.is_some();
        MatchSettings {
            variant: self.variant,
            engines: [self.test.clone(), self.base.clone()],
            limits: crate::run::format::default_limits(
                (!timed).then_some(self.nodes),
                None,
                self.movetime,
                self.tc,
            ),
            tc: self.tc,
            seed: self.seed,
            openings: self.openings.clone(),
            adjudication: Adjudication {
                max_plies: self.max_plies,
                resign: None,
                draw: None,
            },
            record_moves: false,
        }
    }

    /// Whether these settings fix every game by the seed ([`MatchSettings::is_reproducible`]).
    pub fn is_reproducible(&self) -> bool {
        self.settings().is_reproducible()
    }

    fn test(&self) -> Result<Sprt> {
        let model = match self.model.as_str() {
            "logistic" => EloModel::Logistic,
            "normalized" => EloModel::Normalized,
            m => bail!("--model {m:?}: expected logistic or normalized"),
        };
        if !(self.alpha > 0.0 && self.alpha < 0.5 && self.beta > 0.0 && self.beta < 0.5) {
            bail!("--alpha and --beta must be between 0 and 0.5");
        }
        if self.elo1 <= self.elo0 {
            bail!(
                "--elo1 ({}) must be greater than --elo0 ({})",
                self.elo1,
                self.elo0
            );
        }
        Ok(Sprt {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            model,
        })
    }
}

/// The test's verdict, or `None` while it continues.
fn verdict(sprt: &Sprt, s: &Stats) -> Option<SprtStatus> {
    match sprt.status(&s.penta) {
        SprtStatus::Continue => None,
        v => Some(v),
    }
}

/// Columns of `sprt.csv`.
pub const HEADER: [&str; 9] = [
    "pair_id",
    "test_points_1",
    "test_points_2",
    "plies_1",
    "plies_2",
    "termination_1",
    "termination_2",
    "penta_index",
    "llr",
];

/// The final (or current) state of a match, written as `sprt.json`: what fishtest and
/// fastchess users read after a match. Every count and figure is from the test
/// configuration's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtSummary {
    /// `H0`, `H1` or `none` (game limit reached).
    pub result: String,
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound (accept H0).
    pub lower: f64,
    /// Upper bound (accept H1).
    pub upper: f64,
    /// Games played.
    pub games: u64,
    /// Games the test configuration won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games the test configuration lost.
    pub losses: u64,
    /// Draws per game.
    pub draw_ratio: f64,
    /// The test configuration's points per game, in percent.
    pub points_pct: f64,
    /// Pentanomial counts (LL, LD, DD+WL, WD, WW) from the test configuration's side.
    pub penta: [u64; 5],
    /// (WW + WD) / (LL + LD): pairs won against pairs lost; `null` with no lost pair.
    pub pair_ratio: Option<f64>,
    /// Likelihood of superiority: the probability that the test configuration is the
    /// stronger, from the normal approximation of the pair score.
    pub los: f64,
    /// Elo of test over base with its 95% interval: right for a match of fixed length,
    /// biased at an SPRT's stop (`elo_at_stop`).
    pub elo: [f64; 3],
    /// The median-unbiased Elo at the stop with its 95% interval (fishtest's estimate, logistic
    /// Elo); `null` with no spread in the pairs.
    pub elo_at_stop: Option<[f64; 3]>,
    /// Normalised Elo with its 95% interval.
    pub nelo: [f64; 3],
    /// Whether the match is fixed by its seed (false with time limits or external engines).
    pub reproducible: bool,
}

/// `x` with a negative zero made positive, so that no file says `-0.0`.
fn unsigned_zero(x: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else {
        x
    }
}

/// Wins, draws and losses of the test configuration in a pair's two games.
fn add_results(wdl: &mut [u64; 3], points: [f64; 2]) {
    for p in points {
        wdl[if p == 1.0 {
            0
        } else if p == 0.5 {
            1
        } else {
            2
        }] += 1;
    }
}

fn summary(sprt: &Sprt, s: &Stats, wdl: [u64; 3], decided: Option<SprtStatus>) -> SprtSummary {
    let (lower, upper) = sprt.bounds();
    let (el, eh) = s.pair_elo_interval(0.95);
    let nelo = s
        .normalized_elo_estimate(0.95)
        .map_or([0.0, f64::NEG_INFINITY, f64::INFINITY], |e| {
            [e.value, e.low, e.high]
        });
    let games = 2 * s.pairs();
    let per_game = |x: u64| {
        if games == 0 {
            0.0
        } else {
            x as f64 / games as f64
        }
    };
    let p = s.penta;
    let lost_pairs = p[0] + p[1];
    let clean = |v: [f64; 3]| v.map(unsigned_zero);
    SprtSummary {
        result: match decided {
            Some(SprtStatus::AcceptH0) => "H0",
            Some(SprtStatus::AcceptH1) => "H1",
            _ => "none",
        }
        .to_string(),
        llr: unsigned_zero(sprt.llr(&s.penta)),
        lower,
        upper,
        games,
        wins: wdl[0],
        draws: wdl[1],
        losses: wdl[2],
        draw_ratio: per_game(wdl[1]),
        points_pct: 100.0 * (per_game(wdl[0]) + 0.5 * per_game(wdl[1])),
        penta: s.penta,
        pair_ratio: (lost_pairs > 0).then(|| (p[3] + p[4]) as f64 / lost_pairs as f64),
        los: s.pair_los(),
        elo: clean([s.pair_elo(), el, eh]),
        elo_at_stop: sprt
            .stop_estimate(&s.penta, 0.95)
            .map(|e| clean([e.elo, e.low, e.high])),
        nelo: clean(nelo),
        reproducible: true,
    }
}

/// The summary's lines, as the terminal shows them (the same figures as `sprt.json`).
pub fn summary_text(s: &SprtSummary) -> String {
    let triple = |v: [f64; 3]| format!("{} [{}, {}]", signed(v[0]), signed(v[1]), signed(v[2]));
    let mut t = format!(
        "result {}  LLR {} [{}, {}]\n\
         games {}: W {} D {} L {}  draw ratio {}%  points {}%\n\
         penta {:?}  pair ratio {}  LOS {}%\n\
         Elo {} (plain: for a match of fixed length)\n",
        s.result,
        fixed(s.llr, 3),
        fixed(s.lower, 3),
        fixed(s.upper, 3),
        s.games,
        s.wins,
        s.draws,
        s.losses,
        fixed(100.0 * s.draw_ratio, 1),
        fixed(s.points_pct, 1),
        s.penta,
        s.pair_ratio.map_or("-".into(), |r| fixed(r, 2)),
        fixed(100.0 * s.los, 1),
        triple(s.elo),
    );
    if let Some(e) = s.elo_at_stop {
        t += &format!(
            "Elo {} (median-unbiased at the SPRT's stop, fishtest's estimate)\n",
            triple(e)
        );
    }
    t += &format!("nElo {}", triple(s.nelo));
    t
}

/// What to run: a match with these settings (started, or resumed where the folder holds
/// the same), or the folder's own match resumed, its game cap replaced where one is given
/// (a match stopped undecided at its cap goes on).
pub enum Job {
    /// A match with these settings.
    Start(Box<SprtConfig>),
    /// The match in the folder, with a new cap on its games if given, and the engines the
    /// command line named (`--base`, `--test`; see [`crate::run::tournament::confirm_engines`]).
    Resume {
        /// A new cap on the match's games.
        max_games: Option<u64>,
        /// `--base` and `--test`, if given.
        named: Box<crate::run::tournament::Named>,
    },
}

/// Runs (or, with an existing folder, resumes) a match.
///
/// # Errors
/// Bad settings, unreadable configuration, an unwritable folder, a damaged `sprt.csv`.
pub fn run(job: Job, dir: &Path, threads: usize, quiet: bool, force: bool) -> Result<SprtSummary> {
    let cpath = dir.join("sprt_config.json");
    let saved = || -> Result<SprtConfig> {
        if !cpath.exists() {
            bail!("--resume {}: no sprt_config.json there", dir.display());
        }
        crate::run::variant_file::load_stored(&cpath)?;
        let c: SprtConfig = crate::output::read_json(&cpath)?;
        for engine in [&c.base, &c.test] {
            engine
                .check_name()
                .with_context(|| format!("reading {}", cpath.display()))?;
        }
        Ok(c)
    };
    let config = match job {
        // The same match is resumed; another is refused, or replaced with --force.
        Job::Start(c) if cpath.exists() && saved()? == *c => *c,
        Job::Start(c) => {
            if cpath.exists() {
                if !force {
                    bail!(
                        "{} holds an SPRT match with other settings; use --resume {} to finish that one, --force to replace it, or choose another --out",
                        dir.display(),
                        dir.display()
                    );
                }
                let _lock = crate::run::folder_lock::FolderLock::acquire(dir)?;
                crate::run::folder::clear(dir)?;
            }
            c.test()?;
            c.settings().validate()?;
            std::fs::create_dir_all(dir)
                .with_context(|| format!("creating output folder {}", dir.display()))?;
            write_json(&cpath, &c)?;
            *c
        }
        Job::Resume { max_games, named } => {
            let mut c = saved()?;
            crate::run::tournament::confirm_engines(
                &cpath,
                [&c.base, &c.test],
                &named,
                ["--base", "--test"],
            )?;
            if let Some(cap) = max_games {
                crate::run::folder_lock::ensure_unused(dir)?;
                c.max_games = cap;
                write_json(&cpath, &c)?;
            }
            c
        }
    };
    crate::run::config::check_memory(threads, config.max_games, [&config.base, &config.test])?;
    let _lock = crate::run::folder_lock::FolderLock::acquire(dir)?;
    with_variant!(config.variant, G => run_variant::<G>(&config, dir, threads, quiet))
}

/// How often a match without a terminal prints where it stands.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// Where the running match stands, for the Ctrl-C handler to print.
static LATEST: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// On Ctrl-C: where the match stood and how to go on, then exit (every finished pair is
/// already in `sprt.csv`; a row cut short is dropped on resume).
fn on_interrupt(dir: &Path) {
    let dir = dir.display().to_string();
    let _ = ctrlc::set_handler(move || {
        let latest = LATEST.lock().map(|l| l.clone()).unwrap_or_default();
        eprintln!(
            "\ninterrupted at {}; `variantlab sprt --resume {dir}` continues the match",
            if latest.is_empty() {
                "the start".into()
            } else {
                latest
            }
        );
        std::process::exit(130);
    });
}

/// `variantlab sprt`: [`run`], then the verdict, the Elo figures and the files written.
///
/// # Errors
/// Those of [`run`].
pub fn command(job: Job, dir: &Path, threads: usize, quiet: bool, force: bool) -> Result<()> {
    if !quiet {
        eprintln!(
            "{}: safe to interrupt; `variantlab sprt --resume {}` continues the match",
            dir.display(),
            dir.display()
        );
    }
    on_interrupt(dir);
    let s = run(job, dir, threads, quiet, force)?;
    out!("{}", summary_text(&s));
    if !s.reproducible {
        out!("not reproducible: time limits or external engines");
    }
    out!(
        "wrote {} and {}",
        dir.join("sprt.csv").display(),
        dir.join("sprt.json").display()
    );
    Ok(())
}

/// An Elo figure with its sign and one decimal, never `-0.0` (0 prints as `0.0`).
fn signed(x: f64) -> String {
    let t = fixed(x, 1);
    if t.starts_with('-') || t == "0.0" || !x.is_finite() {
        t
    } else {
        format!("+{t}")
    }
}

/// The SPRT watching a match: it takes the games in id order, writes each pair's row to
/// `sprt.csv` (flushed) and stops the match once the test decides.
struct Watch<'a> {
    sprt: &'a Sprt,
    stats: Stats,
    wdl: [u64; 3],
    out: csv::Writer<std::io::BufWriter<std::fs::File>>,
    bar: indicatif::ProgressBar,
    /// Without a terminal: a plain line now and then instead of the bar.
    plain_progress: bool,
    last_line: std::time::Instant,
    /// The first game of the pair under way: the test's points, plies and termination.
    first: Option<(f64, u32, &'static str)>,
    decided: Option<SprtStatus>,
}

impl Observer for Watch<'_> {
    fn game(&mut self, g: Played) -> Result<Flow> {
        let test_color = if g.slot.a_is_white() {
            Color::White
        } else {
            Color::Black
        };
        let points = match g.outcome.end.winner() {
            Some(c) if c == test_color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        let game = (points, g.outcome.plies, g.outcome.end.reason());
        let Some(first) = self.first.take().filter(|_| !g.slot.a_is_white()) else {
            self.first = Some(game);
            return Ok(Flow::Continue);
        };
        let (r, pair) = ([first, game], g.slot.pair);
        let (stats, wdl, sprt) = (&mut self.stats, &mut self.wdl, self.sprt);
        stats.add_pair(r[0].0, r[1].0);
        add_results(wdl, [r[0].0, r[1].0]);
        let llr = sprt.llr(&stats.penta);
        self.out.write_record([
            pair.to_string(),
            r[0].0.to_string(),
            r[1].0.to_string(),
            r[0].1.to_string(),
            r[1].1.to_string(),
            r[0].2.to_string(),
            r[1].2.to_string(),
            ((r[0].0 + r[1].0) * 2.0).round().to_string(),
            format!("{llr:.4}"),
        ])?;
        self.out.flush()?;
        self.bar.inc(1);
        let (lo, hi) = sprt.bounds();
        let progress = format!(
            "LLR {llr:.2} [{lo:.2}, {hi:.2}]  penta {:?}  W {} D {} L {}",
            stats.penta, wdl[0], wdl[1], wdl[2]
        );
        if self.plain_progress && self.last_line.elapsed() >= PROGRESS_EVERY {
            eprintln!("{} pairs  {progress}", pair + 1);
            self.last_line = std::time::Instant::now();
        }
        if let Ok(mut latest) = LATEST.lock() {
            *latest = format!("{} pairs  {progress}", pair + 1);
        }
        self.bar.set_message(progress);
        self.decided = verdict(sprt, stats);
        Ok(if self.decided.is_some() {
            Flow::Stop
        } else {
            Flow::Continue
        })
    }
}

fn run_variant<G: Game>(
    config: &SprtConfig,
    dir: &Path,
    threads: usize,
    quiet: bool,
) -> Result<SprtSummary> {
    let sprt = config.test()?;
    let settings = config.settings();
    // Checked before sprt_config.json was written, so a failure here comes from that file.
    let openings = Openings::parse::<G>(&settings.openings)
        .with_context(|| format!("the openings of {}", dir.join("sprt_config.json").display()))?;
    let path = dir.join("sprt.csv");
    crate::run::format::drop_partial_line(&path)?;
    let header: Vec<String> = HEADER.iter().map(|s| s.to_string()).collect();
    let done = if has_content(&path)? {
        read_csv(&path, &header)?
    } else {
        Vec::new()
    };
    let mut stats = Stats::default();
    let mut wdl = [0u64; 3];
    for (i, r) in done.iter().enumerate() {
        let p = |c: usize| -> Result<f64> {
            r[c].parse().with_context(|| {
                format!("{}: line {}: bad points {:?}", path.display(), i + 2, r[c])
            })
        };
        stats.add_pair(p(1)?, p(2)?);
        add_results(&mut wdl, [p(1)?, p(2)?]);
    }
    let out = open_append(&path, &HEADER)?;
    let pool = schedule::pool(threads)?;
    let players = settings.players::<G>(Some(dir))?;
    let max_pairs = config.max_games.div_ceil(2);
    let decided = verdict(&sprt, &stats);
    let mut watch = Watch {
        sprt: &sprt,
        stats,
        wdl,
        out,
        bar: schedule::progress(quiet, None, "{spinner} {pos} pairs  {msg}  {per_sec}"),
        plain_progress: !quiet && !std::io::IsTerminal::is_terminal(&std::io::stderr()),
        last_line: std::time::Instant::now(),
        first: None,
        decided,
    };
    let next = done.len() as u64;
    if decided.is_none() && next < max_pairs {
        let start = |slot: &Slot| schedule::pair_opening::<G>(&openings, config.seed, slot);
        let games = Match {
            settings: &settings,
            players: [&players[0], &players[1]],
            start: &start,
        };
        games.run(
            &pool,
            next * 2..max_pairs * 2,
            &|_| true,
            Order::ById,
            &mut watch,
        )?;
    }
    watch.bar.finish_and_clear();
    drop(players);
    let s = SprtSummary {
        reproducible: config.reproducible,
        ..summary(&sprt, &watch.stats, watch.wdl, watch.decided)
    };
    write_json(&dir.join("sprt.json"), &s)?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::signed;

    #[test]
    fn signed_elo_never_prints_negative_zero() {
        assert_eq!(signed(-0.0), "0.0");
        assert_eq!(signed(-0.04), "0.0");
        assert_eq!(signed(12.34), "+12.3");
        assert_eq!(signed(-5.0), "-5.0");
    }
}
