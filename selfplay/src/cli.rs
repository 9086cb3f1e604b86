//! Command-line parsing (clap) and the subcommands.

/// `println!` for the command's output: a closed standard output (the reader of a pipe
/// went away, as `| head` does) ends the program quietly with success, as `grep` and `ls`
/// do, instead of panicking.
macro_rules! out {
    ($($t:tt)*) => {
        $crate::cli::write_stdout(format_args!($($t)*))
    };
}
pub(crate) use out;

use crate::config::EngineConfig;
use crate::play::Adjudication;
use crate::stats::fixed;
use crate::tournament::{self, RunConfig, RunOptions};
use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::time::Instant;
use variantlab_engine::perft::{divide, perft};
use variantlab_engine::search::{Limits, SearchConfig, Searcher};
use variantlab_engine::{with_variant, VariantKind};

/// Self-play, statistics and move-generation tools for chess variants.
#[derive(Parser, Debug)]
#[command(name = "variantlab", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the variants: board sizes, cell counts and which rules are reconstructions.
    Variants {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the legal-move tree (perft) from a position.
    Perft {
        /// Variant name (see `variantlab variants`).
        #[arg(long)]
        variant: String,
        /// Depth in plies (1 to 20).
        #[arg(long, value_parser = within(1, 20), allow_negative_numbers = true)]
        depth: u32,
        /// Position in the variant's text format (default: the start position).
        #[arg(long)]
        position: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Print one JSON object: variant, depth, nodes, seconds, nps.
        #[arg(long)]
        json: bool,
    },
    /// Search a position and print the best move, score, depth, nodes, nps and PV.
    Search {
        /// Variant name (see `variantlab variants`).
        #[arg(long)]
        variant: String,
        /// Position in the variant's text format (default: the start position).
        #[arg(long)]
        position: Option<String>,
        /// Node budget (reproducible).
        #[arg(long, group = "limit", value_parser = at_least(1), allow_negative_numbers = true)]
        nodes: Option<u64>,
        /// Fixed depth in plies (1 to 100).
        #[arg(long, group = "limit", value_parser = within(1, 100), allow_negative_numbers = true)]
        depth: Option<u32>,
        /// Time per move in milliseconds (not reproducible).
        #[arg(long, group = "limit", value_parser = at_least(1), allow_negative_numbers = true)]
        movetime: Option<u64>,
        /// Transposition table size in MiB (0 disables it).
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Piece values overriding the defaults: `name=centipawns,...`, or `@FILE` with one
        /// `name=centipawns` per line.
        #[arg(long)]
        values: Option<String>,
        /// Root randomisation in centipawns (0 = off).
        #[arg(long, default_value_t = 0)]
        randomize: i32,
        /// Seed for the root randomisation.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Play a self-play tournament and write games.csv (and moves.csv), run.json.
    Play(PlayArgs),
    /// Combine shard folders of one study into one folder.
    Merge {
        /// Shard folders.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
    },
    /// Balance and game-length statistics of tournament folders: balance.csv, length.csv.
    Stats {
        /// Tournament folders (each with run.json and games.csv).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Folder for balance.csv and length.csv.
        #[arg(long, default_value = "out/stats")]
        out: PathBuf,
    },
    /// Fit a variant's evaluation weights to recorded games (Texel method); see
    /// docs/evaluation.md.
    Tune(TuneArgs),
    /// One self-contained HTML page with SVG plots of tournament folders.
    Report {
        /// Tournament folders (each with run.json and games.csv; piece_values.csv beside them
        /// or inside them is plotted too).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Output HTML file.
        #[arg(long, default_value = "report.html")]
        out: PathBuf,
    },
    /// Estimate piece values by imbalance self-play and/or regression on recorded games.
    Values(ValuesArgs),
    /// Sequential probability ratio test of one configuration against another.
    Sprt(SprtArgs),
    /// The default job: a small balance study of every variant, with a summary.
    Study(StudyArgs),
    /// The engine signature (total nodes of a fixed-depth search over fixed positions) and
    /// speed: search nodes per second and perft leaves per second.
    Bench {
        /// A variant name or `all`.
        #[arg(long, default_value = "all")]
        variant: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Only the search signature, no perft timing.
        #[arg(long)]
        no_perft: bool,
        /// Also measure self-play games per minute and write the figures table into this
        /// markdown file between its `<!-- figures -->` markers (bench/README.md).
        #[arg(long)]
        table: Option<PathBuf>,
    },
    /// Speak UCI on standard input and output: the engine as a process, for tournament
    /// managers, GUIs and `engine:` players (option `UCI_Variant` picks the variant).
    Uci,
    /// Run perft on the start position of every variant, one line per depth as it finishes.
    PerftAll {
        /// Depth for every variant (default: deepen each variant while the next depth is
        /// predicted to take under two seconds, so the whole run stays well under a minute).
        #[arg(long, value_parser = within(1, 20), allow_negative_numbers = true)]
        depth: Option<u32>,
    },
}

/// A share from 0 to 1.
fn unit_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{s:?} is not a number from 0 to 1")),
    }
}

/// Options of `variantlab tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Run folders recorded with --record-moves (repeat the flag for more), all of one variant.
    #[arg(long, required = true)]
    games: Vec<PathBuf>,
    /// Where to write the weights (JSON; data/eval/<variant>.json is the variant's default).
    #[arg(long)]
    out: PathBuf,
    /// Starting weights: default (the variant's current ones), classic (material only) or a
    /// weights file.
    #[arg(long, default_value = "default")]
    from: String,
    /// Share of games held out for early stopping.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// L2 penalty per squared centipawn away from the starting weights.
    #[arg(long, default_value_t = 1e-7)]
    l2: f64,
    /// Share of each position's target taken from its recorded search score (as an expected
    /// result) instead of the game's result: 0 = results only.
    #[arg(long, default_value_t = 0.0, value_parser = unit_share)]
    score_weight: f64,
    /// Most training epochs.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: u32,
    /// Plies at the start of each recorded game left out.
    #[arg(long, default_value_t = 0)]
    skip_plies: u32,
    /// Seed of the training/held-out split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Options of `variantlab play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Variant name (see `variantlab variants`).
    #[arg(long, required_unless_present = "resume")]
    variant: Option<String>,
    /// Number of games (pairs of two, colours swapped).
    #[arg(long, required_unless_present = "resume", value_parser = at_least(1), allow_negative_numbers = true)]
    games: Option<u64>,
    /// Nodes per move (the reproducible default: 1000).
    #[arg(long, conflicts_with = "depth", value_parser = at_least(1), allow_negative_numbers = true)]
    nodes: Option<u64>,
    /// Depth per move instead of nodes.
    #[arg(long, value_parser = within(1, 100), allow_negative_numbers = true)]
    depth: Option<u32>,
    /// Time per move in milliseconds instead of nodes (not reproducible).
    #[arg(long, conflicts_with_all = ["nodes", "depth", "tc"], value_parser = at_least(1), allow_negative_numbers = true)]
    movetime: Option<u64>,
    /// A clock per game, `BASE+INC` in seconds (`2+0.02`), instead of nodes: a side out of
    /// time loses (`time_forfeit`). Not reproducible.
    #[arg(long, conflicts_with_all = ["nodes", "depth"])]
    tc: Option<String>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `random-plies:P` or a file of positions, one per line.
    #[arg(long, default_value = crate::config::DEFAULT_OPENINGS)]
    openings: String,
    /// Engine A (White in the first game of each pair): `default`, a JSON file, or
    /// `engine:CMD`, an external UCI engine started with the command line CMD
    /// (`engine:stockfish`, `engine:"target/release/variantlab uci"`).
    #[arg(long, default_value = "default")]
    white: String,
    /// Engine B: `default`, a JSON file, or `engine:CMD`.
    #[arg(long, default_value = "default")]
    black: String,
    /// Output folder (default out/VARIANT).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write moves.csv (one row per ply, for piece-value regression).
    #[arg(long)]
    record_moves: bool,
    /// Draw after this many plies (0 = no limit).
    #[arg(long, default_value_t = crate::config::DEFAULT_MAX_PLIES)]
    max_plies: u32,
    /// Resign adjudication `CP:MOVES`: a side whose score is at most -CP for MOVES of its
    /// moves in a row loses. Off by default.
    #[arg(long)]
    adjudicate_resign: Option<String>,
    /// Draw adjudication `CP:MOVES:FROM`: scores within CP of 0 for MOVES plies from ply FROM.
    #[arg(long)]
    adjudicate_draw: Option<String>,
    /// Play the I-th of N disjoint slices of the game list: `I/N`.
    #[arg(long)]
    shard: Option<String>,
    /// Finish the run in this folder.
    /// With `--games N`, a finished run is extended to N games.
    #[arg(long, conflicts_with_all = ["variant", "nodes", "depth", "movetime", "tc", "seed", "white", "black", "out", "shard"])]
    resume: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
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

/// A value parser for counts (`--nodes`, `--games` ...): a whole number of at least `min`,
/// with a message that says so for `0` or `-5` alike.
fn at_least(min: u64) -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    move |text| {
        let v: i128 = text
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a whole number"))?;
        if v < i128::from(min) {
            return Err(format!("must be at least {min}, got {v}"));
        }
        u64::try_from(v).map_err(|_| format!("{v} is too large"))
    }
}

/// A value parser for a whole number from `lo` to `hi` (depths).
fn within(
    lo: u32,
    hi: u32,
) -> impl Fn(&str) -> Result<u32, String> + Clone + Send + Sync + 'static {
    move |text| {
        let v: i128 = text
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not a whole number"))?;
        if v < i128::from(lo) || v > i128::from(hi) {
            return Err(format!("must be {lo} to {hi}, got {v}"));
        }
        Ok(v as u32)
    }
}

fn numbers<const N: usize>(flag: &str, text: &str) -> Result<[i64; N]> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != N {
        bail!("{flag} {text:?}: expected {N} numbers separated by ':'");
    }
    let mut out = [0; N];
    for (o, p) in out.iter_mut().zip(parts) {
        *o = p
            .parse()
            .with_context(|| format!("{flag} {text:?}: {p:?} is not a number"))?;
        if *o < 0 {
            bail!("{flag} {text:?}: numbers must not be negative");
        }
    }
    Ok(out)
}

fn threads(t: Option<usize>) -> Result<usize> {
    match t {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

fn play(args: PlayArgs) -> Result<()> {
    let opts = RunOptions {
        threads: threads(args.threads)?,
        quiet: args.quiet,
    };
    let (summary, dir) = if let Some(dir) = args.resume {
        match args.games {
            Some(games) => (tournament::extend(&dir, games, &opts)?, dir),
            None => (tournament::resume(&dir, &opts)?, dir),
        }
    } else {
        let name = args.variant.expect("clap requires --variant");
        VariantKind::from_name(&name)?;
        let games = args.games.expect("clap requires --games");
        if games == 0 {
            bail!("--games must be at least 1");
        }
        let shard = match &args.shard {
            None => None,
            Some(s) => {
                let (i, n) = s
                    .split_once('/')
                    .with_context(|| format!("--shard {s:?}: expected I/N"))?;
                let (i, n): (u64, u64) = (
                    i.parse()
                        .with_context(|| format!("--shard {s:?}: {i:?} is not a number"))?,
                    n.parse()
                        .with_context(|| format!("--shard {s:?}: {n:?} is not a number"))?,
                );
                if n == 0 || i == 0 || i > n {
                    bail!("--shard {s:?}: need 1 <= I <= N");
                }
                let pairs = games.div_ceil(2);
                if i > pairs {
                    bail!("--shard {s:?}: {games} games make {pairs} pairs, so slice {i} of {n} would play nothing; use at most {pairs} shards");
                }
                Some((i, n))
            }
        };
        let resign = args
            .adjudicate_resign
            .as_deref()
            .map(|t| numbers::<2>("--adjudicate-resign", t))
            .transpose()?;
        if let Some([cp, moves]) = resign {
            if cp < 1 || moves < 1 {
                bail!("--adjudicate-resign {cp}:{moves}: the score margin and the move count must both be at least 1");
            }
        }
        let draw = args
            .adjudicate_draw
            .as_deref()
            .map(|t| numbers::<3>("--adjudicate-draw", t))
            .transpose()?;
        if let Some([_, moves, _]) = draw {
            if moves < 1 {
                bail!("--adjudicate-draw: the number of plies must be at least 1");
            }
        }
        let tc = args
            .tc
            .as_deref()
            .map(crate::play::TimeControl::parse)
            .transpose()?;
        let timed = args.movetime.is_some() || tc.is_some();
        let mut config = RunConfig {
            variant: name.clone(),
            games,
            nodes: args.nodes.or(if args.depth.is_none() && !timed {
                Some(crate::config::DEFAULT_NODES)
            } else {
                None
            }),
            depth: args.depth,
            movetime: args.movetime,
            tc,
            reproducible: true,
            seed: args.seed,
            openings: args.openings,
            white: EngineConfig::load(&args.white)?,
            black: EngineConfig::load(&args.black)?,
            adjudication: Adjudication {
                max_plies: args.max_plies,
                resign: resign.map(|[cp, n]| (cp as i32, n as u32)),
                draw: draw.map(|[cp, n, from]| (cp as i32, n as u32, from as u32)),
            },
            record_moves: args.record_moves,
            shard,
            openings_checksum: None,
            engine_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: tournament::git_commit(),
            threads: opts.threads,
            started: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            finished: None,
        };
        config.reproducible = config.is_reproducible();
        let dir = args.out.unwrap_or_else(|| PathBuf::from("out").join(&name));
        (tournament::start(config, &dir, &opts)?, dir)
    };
    out!("{}", summary.line());
    out!("wrote {}", dir.join("games.csv").display());
    Ok(())
}

fn study(a: StudyArgs) -> Result<()> {
    let opts = RunOptions {
        threads: threads(a.threads)?,
        quiet: a.quiet,
    };
    let kinds: Vec<VariantKind> = if a.variants.is_empty() {
        VariantKind::ALL.to_vec()
    } else {
        a.variants
            .iter()
            .map(|v| variant(v.trim()))
            .collect::<Result<_>>()?
    };
    let (games, nodes, out) = (a.games, a.nodes, a.out);
    let mut lines = Vec::new();
    for &kind in &kinds {
        let dir = out.join(kind.name());
        let mut config = RunConfig::self_play(kind.name(), games, nodes, a.seed, opts.threads);
        config.openings = a.openings.clone();
        config.adjudication.max_plies = a.max_plies;
        let config = config.with_openings_checksum()?;
        // A run with the same settings is resumed (finished runs cost nothing); one made with
        // other settings is kept unless --force.
        let resume = tournament::resume_or_replace(&dir, &config, a.force)?;
        eprintln!(
            "{}: {games} games at {nodes} nodes per move ...",
            kind.name()
        );
        let summary = if resume {
            tournament::resume(&dir, &opts)?
        } else {
            tournament::start(config, &dir, &opts)?
        };
        out!("{:<16} {}", kind.name(), summary.line());
        lines.push((kind.name(), summary));
    }
    crate::report::write_summary_csv(&out.join("summary.csv"), &lines)?;
    let runs = kinds
        .iter()
        .map(|k| crate::analysis::load(&out.join(k.name())))
        .collect::<Result<Vec<_>>>()?;
    crate::analysis::write(&runs, &out)?;
    crate::report::write_html(&runs, &out.join("report.html"))?;
    out!(
        "wrote {}: summary.csv, balance.csv, length.csv, report.html, and games.csv + moves.csv per variant",
        out.display()
    );
    Ok(())
}

/// Options of `variantlab study`.
#[derive(clap::Args, Debug)]
pub struct StudyArgs {
    /// Games per variant.
    #[arg(long, default_value_t = 20, value_parser = at_least(1), allow_negative_numbers = true)]
    games: u64,
    /// Variants to study, comma-separated (default: all).
    #[arg(long, value_delimiter = ',')]
    variants: Vec<String>,
    /// Openings: `random-plies:P` or a file of positions, one per line.
    #[arg(long, default_value = crate::config::DEFAULT_OPENINGS)]
    openings: String,
    /// Draw after this many plies (0 = no limit).
    #[arg(long, default_value_t = crate::config::DEFAULT_MAX_PLIES)]
    max_plies: u32,
    /// Nodes per move.
    #[arg(long, default_value_t = crate::config::DEFAULT_NODES, value_parser = at_least(1), allow_negative_numbers = true)]
    nodes: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Output folder.
    #[arg(long, default_value = "out/study")]
    out: PathBuf,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
    /// Replace runs already in the output folder that were made with other settings
    /// (without it the study refuses; a run with the same settings is resumed).
    #[arg(long)]
    force: bool,
}

/// Options of `variantlab sprt`.
#[derive(clap::Args, Debug)]
pub struct SprtArgs {
    /// Variant name.
    #[arg(long, required_unless_present = "resume")]
    variant: Option<String>,
    /// The reference configuration: `default`, a JSON file, or `engine:CMD` (an external
    /// UCI engine).
    #[arg(long, default_value = "default")]
    base: String,
    /// The candidate configuration: `default`, a JSON file, or `engine:CMD`.
    #[arg(long, required_unless_present = "resume")]
    test: Option<String>,
    /// Elo of H0 (the candidate is no better than this).
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    elo0: f64,
    /// Elo of H1 (the candidate is at least this much better).
    #[arg(long, default_value_t = 10.0, allow_negative_numbers = true)]
    elo1: f64,
    /// Type I error.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// Type II error.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// `logistic` (Elo) or `normalized` (nElo) bounds.
    #[arg(long, default_value = "logistic")]
    model: String,
    /// Nodes per move unless a configuration sets its own.
    #[arg(long, default_value_t = crate::config::DEFAULT_NODES, value_parser = at_least(1), allow_negative_numbers = true)]
    nodes: u64,
    /// Time per move in milliseconds instead of nodes (not reproducible).
    #[arg(long, conflicts_with_all = ["nodes", "tc"], value_parser = at_least(1), allow_negative_numbers = true)]
    movetime: Option<u64>,
    /// A clock per game, `BASE+INC` in seconds (`2+0.02`), instead of nodes: a side out of
    /// time loses (`time_forfeit`). Not reproducible.
    #[arg(long, conflicts_with = "nodes")]
    tc: Option<String>,
    /// Give up undecided after this many games.
    #[arg(long, default_value_t = 20000, value_parser = at_least(2), allow_negative_numbers = true)]
    max_games: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Openings: `random-plies:P` or a file.
    #[arg(long, default_value = crate::config::DEFAULT_OPENINGS)]
    openings: String,
    /// Draw after this many plies (0 = no limit).
    #[arg(long, default_value_t = crate::config::DEFAULT_MAX_PLIES)]
    max_plies: u32,
    /// Replace a match in the output folder made with other settings.
    #[arg(long)]
    force: bool,
    /// Output folder (default out/sprt).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the match in this folder.
    #[arg(long)]
    resume: Option<PathBuf>,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
}

fn sprt(a: SprtArgs) -> Result<()> {
    let threads = threads(a.threads)?;
    let (config, dir) = match a.resume {
        Some(dir) => (None, dir),
        None => {
            let name = a.variant.expect("clap requires --variant");
            variant(&name)?;
            let mut config = crate::sprt::SprtConfig {
                variant: name,
                base: EngineConfig::load(&a.base)?,
                test: EngineConfig::load(a.test.as_deref().expect("clap requires --test"))?,
                elo0: a.elo0,
                elo1: a.elo1,
                alpha: a.alpha,
                beta: a.beta,
                model: a.model,
                nodes: a.nodes,
                movetime: a.movetime,
                tc: a
                    .tc
                    .as_deref()
                    .map(crate::play::TimeControl::parse)
                    .transpose()?,
                reproducible: true,
                max_games: a.max_games,
                seed: a.seed,
                openings: a.openings,
                max_plies: a.max_plies,
            };
            config.reproducible = config.is_reproducible();
            (
                Some(config),
                a.out.unwrap_or_else(|| PathBuf::from("out/sprt")),
            )
        }
    };
    let s = crate::sprt::run(config, &dir, threads, a.quiet, a.force)?;
    out!(
        "result {}  LLR {} [{}, {}]  games {}  penta {:?}  Elo {} [{}, {}]  nElo {} [{}, {}]",
        s.result,
        fixed(s.llr, 3),
        fixed(s.lower, 3),
        fixed(s.upper, 3),
        s.games,
        s.penta,
        signed(s.elo[0]),
        signed(s.elo[1]),
        signed(s.elo[2]),
        signed(s.nelo[0]),
        signed(s.nelo[1]),
        signed(s.nelo[2])
    );
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

/// Options of `variantlab values`.
#[derive(clap::Args, Debug)]
pub struct ValuesArgs {
    /// Variant name.
    #[arg(long)]
    variant: String,
    /// `imbalance`, `regression` or `both`.
    /// (regression works for every variant; imbalance needs positions with a piece
    /// removed, which chess and Dream Chess 46 provide).
    #[arg(long, default_value = "regression", value_parser = ["imbalance", "regression", "both"])]
    method: String,
    /// Imbalance: game pairs per piece kind.
    #[arg(long, default_value_t = 100, value_parser = at_least(1), allow_negative_numbers = true)]
    pairs: u64,
    /// Regression: self-play games to record when no --from folders are given.
    #[arg(long, default_value_t = 400, value_parser = at_least(2), allow_negative_numbers = true)]
    games: u64,
    /// Regression: tournament folders played with --record-moves.
    #[arg(long, num_args = 1..)]
    from: Vec<PathBuf>,
    /// Nodes per move.
    #[arg(long, default_value_t = crate::config::DEFAULT_NODES, value_parser = at_least(1), allow_negative_numbers = true)]
    nodes: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output folder: piece_values.csv (and the recorded games for regression).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write the estimates as an engine configuration (JSON) usable with --white.
    #[arg(long)]
    write_values: Option<PathBuf>,
    /// Replace a self-play folder made with other settings, and write --write-values even
    /// when some estimate is not bounded above zero.
    #[arg(long)]
    force: bool,
    /// No progress bars.
    #[arg(long)]
    quiet: bool,
}

fn values(a: ValuesArgs) -> Result<()> {
    use crate::values::{imbalance, regression, write_config, write_csv, ImbalanceSettings};
    let kind = variant(&a.variant)?;
    let threads = threads(a.threads)?;
    let out = a
        .out
        .unwrap_or_else(|| PathBuf::from("out/values").join(kind.name()));
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let kinds = with_variant!(kind, G => G::start().material_kinds());
    let mut rows = Vec::new();
    if a.method != "regression" {
        if a.pairs == 0 {
            bail!("--pairs must be at least 1");
        }
        let set = ImbalanceSettings {
            pairs: a.pairs,
            nodes: a.nodes,
            seed: a.seed,
            threads,
            quiet: a.quiet,
        };
        rows.extend(with_variant!(kind, G => imbalance::<G>(&set))?);
    }
    if a.method != "imbalance" {
        let dirs = if a.from.is_empty() {
            let dir = out.join("selfplay");
            let opts = RunOptions {
                threads,
                quiet: a.quiet,
            };
            let config = RunConfig::self_play(kind.name(), a.games, a.nodes, a.seed, threads);
            if tournament::resume_or_replace(&dir, &config, a.force)? {
                tournament::resume(&dir, &opts)?;
            } else {
                tournament::start(config, &dir, &opts)?;
            }
            vec![dir]
        } else {
            a.from.clone()
        };
        let runs = dirs
            .iter()
            .map(|d| crate::analysis::load(d))
            .collect::<Result<Vec<_>>>()?;
        for r in &runs {
            if r.config.variant != kind.name() {
                bail!(
                    "{} holds games of {}, not of {}: its pieces are not this variant's",
                    r.dir.display(),
                    r.config.variant,
                    kind.name()
                );
            }
        }
        rows.extend(regression(&runs, &kinds)?);
    }
    let path = out.join("piece_values.csv");
    write_csv(&path, &rows)?;
    for r in &rows {
        out!(
            "{:<22} {:<16} {:<11} {}  ({} games)",
            r.variant,
            r.piece,
            r.method,
            r.show(),
            r.games
        );
    }
    out!("wrote {}", path.display());
    if let Some(file) = &a.write_values {
        // Imbalance estimates when both were made: they come from controlled games.
        let method = if rows.iter().any(|r| r.method == "imbalance") {
            "imbalance"
        } else {
            "regression"
        };
        let chosen: Vec<_> = rows
            .iter()
            .filter(|r| r.method == method)
            .cloned()
            .collect();
        write_config(file, &chosen, &kinds, a.force)?;
        out!("wrote {} ({method} values)", file.display());
    }
    Ok(())
}

/// Parses the command line and runs it.
pub fn run() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Variants { json } => variants(json),
        Command::Perft {
            variant,
            depth,
            position,
            divide,
            json,
        } => perft_cmd(&variant, depth, position.as_deref(), divide, json),
        Command::Search {
            variant,
            position,
            nodes,
            depth,
            movetime,
            hash,
            values,
            randomize,
            seed,
            json,
        } => {
            let limits = match (nodes, depth, movetime) {
                (Some(n), _, _) if n > 0 => Limits::nodes(n),
                (_, Some(d), _) if (1..=100).contains(&d) => Limits::depth(d),
                (_, _, Some(ms)) if ms > 0 => Limits::movetime(ms),
                (None, None, None) => {
                    bail!("give one limit: --nodes N, --depth D or --movetime MS")
                }
                _ => bail!("--nodes and --movetime must be positive, --depth between 1 and 100"),
            };
            let config = SearchConfig {
                values: Vec::new(),
                hash_mib: hash,
                positional: true,
                randomize,
                seed,
                disabled: 0,
                eval: Default::default(),
            };
            search_cmd(
                &variant,
                position.as_deref(),
                limits,
                config,
                values.as_deref(),
                json,
            )
        }
        Command::Play(args) => play(args),
        Command::Tune(a) => crate::tune::run(&crate::tune::TuneOptions {
            games: a.games,
            out: a.out,
            from: a.from,
            holdout: a.holdout,
            l2: a.l2,
            score_weight: a.score_weight,
            epochs: a.epochs,
            skip_plies: a.skip_plies,
            seed: a.seed,
            quiet: a.quiet,
        }),
        Command::Values(args) => values(args),
        Command::Sprt(args) => sprt(args),
        Command::Stats { dirs, out } => {
            let runs = dirs
                .iter()
                .map(|d| crate::analysis::load(d))
                .collect::<Result<Vec<_>>>()?;
            crate::analysis::write(&runs, &out)?;
            for r in &runs {
                let b = crate::analysis::balance(r);
                out!(
                    "{:<22} {}  White {}  Elo {}  draws {}  balance {} of {} decisive",
                    r.config.variant,
                    b.games_text(),
                    b.white_score.show(3),
                    b.white_elo.show(0),
                    b.draw_rate.show(3),
                    b.balance.map_or("n/a".to_string(), |e| e.show(3)),
                    b.decisive,
                );
            }
            out!(
                "wrote {} and {}",
                out.join("balance.csv").display(),
                out.join("length.csv").display()
            );
            Ok(())
        }
        Command::Report { dirs, out } => {
            let runs = dirs
                .iter()
                .map(|d| crate::analysis::load(d))
                .collect::<Result<Vec<_>>>()?;
            crate::report::write_html(&runs, &out)?;
            out!("wrote {}", out.display());
            Ok(())
        }
        Command::Merge { dirs, out } => {
            let summary = tournament::merge(&dirs, &out)?;
            out!("{}", summary.line());
            out!("wrote {}", out.join("games.csv").display());
            Ok(())
        }
        Command::Study(args) => study(args),
        Command::Bench {
            variant,
            json,
            no_perft,
            table,
        } => {
            let kinds = if variant == "all" {
                VariantKind::ALL.to_vec()
            } else {
                vec![VariantKind::from_name(&variant)?]
            };
            let results: Vec<_> = kinds
                .iter()
                .map(|&k| crate::bench::run(k, !no_perft))
                .collect();
            if let Some(path) = &table {
                let gpm: Vec<(f64, f64)> = kinds
                    .iter()
                    .map(|&k| {
                        (
                            crate::bench::games_per_minute(k, 1000, 20),
                            crate::bench::games_per_minute(k, 10000, 4),
                        )
                    })
                    .collect();
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                let (Some(a), Some(b)) = (
                    text.find("<!-- figures -->"),
                    text.rfind("<!-- /figures -->"),
                ) else {
                    bail!(
                        "{}: no <!-- figures --> ... <!-- /figures --> markers",
                        path.display()
                    );
                };
                let new = format!(
                    "{}<!-- figures -->\n{}{}",
                    &text[..a],
                    crate::bench::markdown_table(&results, &gpm),
                    &text[b..]
                );
                std::fs::write(path, new).with_context(|| format!("writing {}", path.display()))?;
            }
            if json {
                out!("{}", serde_json::to_string_pretty(&results)?);
            } else {
                for r in &results {
                    let perft = if r.perft_depth == 0 {
                        String::new()
                    } else {
                        format!(
                            "  perft({}) {:>11}  {:>6.1} M leaves/s",
                            r.perft_depth,
                            r.perft_nodes,
                            r.perft_nps / 1e6
                        )
                    };
                    out!(
                        "{:<22} signature {:>10}  search {:>6.2} M nodes/s{perft}",
                        r.variant,
                        r.nodes,
                        r.nps / 1e6
                    );
                }
                out!(
                    "total signature {}",
                    results.iter().map(|r| r.nodes).sum::<u64>()
                );
            }
            Ok(())
        }
        Command::Uci => crate::uci::run(),
        Command::PerftAll { depth: Some(depth) } => {
            for kind in VariantKind::ALL {
                perft_cmd(kind.name(), depth, None, false, false)?;
            }
            Ok(())
        }
        Command::PerftAll { depth: None } => {
            for kind in VariantKind::ALL {
                with_variant!(kind, G => {
                    let start = G::start();
                    let (mut prev_nodes, mut predicted) = (1u64, 0.0f64);
                    for depth in 1..=20 {
                        if predicted > 2.0 {
                            break;
                        }
                        let t = Instant::now();
                        let nodes = perft(&start, depth);
                        let secs = t.elapsed().as_secs_f64();
                        out!(
                            "{} perft({depth}) = {nodes}  ({secs:.3} s, {:.1} M nodes/s)",
                            kind.name(),
                            nodes as f64 / secs.max(1e-9) / 1e6
                        );
                        // The next depth costs about this one times the branching factor.
                        predicted = secs * nodes as f64 / prev_nodes.max(1) as f64;
                        prev_nodes = nodes;
                    }
                });
            }
            Ok(())
        }
    }
}

fn variant(name: &str) -> Result<VariantKind> {
    Ok(VariantKind::from_name(name)?)
}

fn variants(json: bool) -> Result<()> {
    let mut rows = Vec::new();
    for kind in VariantKind::ALL {
        let info = kind.info();
        let (files, ranks, levels) = info.dims;
        rows.push(serde_json::json!({
            "name": info.name,
            "title": info.title,
            "files": files,
            "ranks": ranks,
            "levels": levels,
            "cells": info.cells,
            "rules": info.rules_file,
            "notes": info.notes,
        }));
        if !json {
            out!(
                "{:<22} {:<26} {}x{}{} board, {} cells  (rules: {})",
                info.name,
                info.title,
                files,
                ranks,
                if levels > 1 {
                    format!("x{levels}")
                } else {
                    String::new()
                },
                info.cells,
                info.rules_file
            );
            for note in info.notes {
                out!("{:<22} - {note}", "");
            }
        }
    }
    if json {
        out!("{}", serde_json::to_string_pretty(&rows)?);
    }
    Ok(())
}

fn perft_cmd(name: &str, depth: u32, position: Option<&str>, div: bool, json: bool) -> Result<()> {
    let kind = variant(name)?;
    with_variant!(kind, G => {
        let pos = match position {
            Some(text) => G::from_text(text).with_context(|| format!("reading --position for {name}"))?,
            None => G::start(),
        };
        let t = Instant::now();
        let nodes = if div {
            let mut total = 0;
            for (m, n) in divide(&pos, depth) {
                if !json {
                    out!("{} {n}", pos.move_text(m));
                }
                total += n;
            }
            total
        } else {
            perft(&pos, depth)
        };
        let secs = t.elapsed().as_secs_f64();
        let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
        if json {
            out!(
                "{}",
                serde_json::json!({"variant": name, "depth": depth, "nodes": nodes, "seconds": secs, "nps": nps.round()})
            );
        } else {
            out!("{name} perft({depth}) = {nodes}  ({secs:.3} s, {:.1} M nodes/s)", nps / 1e6);
        }
    });
    Ok(())
}

/// Reads piece values: `name=cp,...` or `@FILE` with one `name=cp` per line; every name must
/// be one of the variant's material kinds.
pub fn parse_values(spec: &str, kinds: &[(&'static str, i32)]) -> Result<Vec<i32>> {
    let text = match spec.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("reading piece values from {path}"))?,
        None => spec.replace(',', "\n"),
    };
    let mut values: Vec<i32> = kinds.iter().map(|k| k.1).collect();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((name, value)) = line.split_once('=') else {
            bail!(
                "piece values, entry {}: {line:?} is not name=centipawns",
                n + 1
            );
        };
        let Some(i) = crate::config::piece_index(kinds, name) else {
            let known: Vec<String> = kinds
                .iter()
                .map(|k| crate::config::piece_key(k.0))
                .collect();
            bail!(
                "piece values, entry {}: unknown piece {:?}; known: {}",
                n + 1,
                name.trim(),
                known.join(", ")
            );
        };
        values[i] = value.trim().parse().with_context(|| {
            format!(
                "piece values, entry {}: {:?} is not a whole number",
                n + 1,
                value.trim()
            )
        })?;
    }
    Ok(values)
}

#[allow(clippy::clone_on_copy)] // generic over variants, some of which are not Copy
fn search_cmd(
    name: &str,
    position: Option<&str>,
    limits: Limits,
    mut config: SearchConfig,
    values: Option<&str>,
    json: bool,
) -> Result<()> {
    let kind = variant(name)?;
    crate::config::check_hash(config.hash_mib).context("--hash")?;
    with_variant!(kind, G => {
        let pos = match position {
            Some(text) => G::from_text(text).with_context(|| format!("reading --position for {name}"))?,
            None => G::start(),
        };
        if let Some(v) = values {
            config.values = parse_values(v, &pos.material_kinds())?;
        }
        let mut searcher = Searcher::new(config);
        let r = searcher.search(&pos, &[], limits);
        // Print the PV in notation by replaying it.
        let mut line = Vec::new();
        let mut p = pos.clone();
        for &m in &r.pv {
            line.push(p.move_text(m));
            p.play_unchecked(m);
        }
        let best = r.best.map(|m| pos.move_text(m));
        let nps = if r.seconds > 0.0 { (r.nodes as f64 / r.seconds).round() } else { 0.0 };
        if json {
            out!(
                "{}",
                serde_json::json!({
                    "variant": name, "best": best, "score": r.score, "mate": r.mate_in(),
                    "depth": r.depth, "nodes": r.nodes, "seconds": r.seconds, "nps": nps, "pv": line,
                })
            );
        } else {
            let score = match r.mate_in() {
                Some(m) => format!("mate {m}"),
                None => format!("cp {}", r.score),
            };
            out!(
                "bestmove {}  score {score}  depth {}  nodes {}  nps {nps}  pv {}",
                best.as_deref().unwrap_or("(none)"),
                r.depth,
                r.nodes,
                line.join(" ")
            );
        }
    });
    Ok(())
}

/// Writes one line to standard output (see [`out!`]).
pub fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    if let Err(e) = o.write_fmt(args).and_then(|()| o.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to standard output: {e}");
        std::process::exit(1);
    }
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
