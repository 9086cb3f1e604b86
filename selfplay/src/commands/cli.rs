//! Command-line parsing (clap): the arguments, their checks, and dispatch to the command
//! bodies in their modules.

use crate::commands::args::{
    at_least, files_or_all, game_count, parse_shard, positive_scale, unit_share, variant,
    VariantArg, WorkerArgs,
};
use crate::commands::inspect;
use crate::commands::study::Study;
use crate::run::config::EngineConfig;
use crate::run::format::{self, RunConfig};
use crate::run::play::Adjudication;
use crate::run::tournament::{self, PlayJob};
use crate::values::ValuesJob;
use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use variantlab_engine::search::{Limits, SearchConfig};
use variantlab_engine::variants::file::fsf;
use variantlab_engine::VariantKind;

/// The `--openings` help of `play`, `study` and `sprt`: one text for the three.
const OPENINGS_HELP: &str = "Openings: `balanced-plies:P[:CP]`, `random-plies:P`, `trades:P[:M]` (a near-even trade made, at the start or after P random and M engine plies) or a file of positions, one per line";

/// The flags of `play`, `study` and `sprt` that say where the games start, how they are
/// seeded and when they are drawn.
#[derive(clap::Args, Debug)]
struct MatchArgs {
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value = crate::run::config::DEFAULT_OPENINGS, help = OPENINGS_HELP)]
    openings: String,
    /// Draw after this many plies (0 = no limit) [default: the variant's, which `variantlab variants` lists]
    #[arg(long)]
    max_plies: Option<u32>,
}

/// Self-play, statistics and move-generation tools for chess variants.
#[derive(Parser, Debug)]
#[command(name = "variantlab", version, about)]
pub struct Cli {
    /// A variant defined in a TOML file (docs/variant-files.md): loaded before the command
    /// runs, its `name` is then a variant name like the built-in ones, and the default
    /// `--variant` of the command. A Fairy-Stockfish `.ini` file: the section the command's
    /// `--variant` names (of `study`, its `--variants` in the file), or its only one. Give it
    /// up to three times to load several files (`study` then plays each file's variant)
    #[arg(long, global = true, value_name = "FILE")]
    variant_file: Vec<PathBuf>,
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
        #[command(flatten)]
        variant: VariantArg,
        /// Depth in plies (1 to 20).
        #[arg(long, value_parser = within(1, 20), allow_negative_numbers = true)]
        depth: u32,
        /// Position in the variant's text format [default: the start position]
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
        #[command(flatten)]
        variant: VariantArg,
        /// Position in the variant's text format [default: the start position]
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
        /// An engine configuration (JSON, as `play --white` takes): its techniques, evaluation
        /// and piece values; this command's --hash, --randomize, --seed and --values apply
        /// on top. An external engine (`engine:`) is refused.
        #[arg(long)]
        config: Option<String>,
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
        /// Replace a run of another study in the output folder (only variantlab's files are
        /// removed; a folder holding others is refused).
        #[arg(long)]
        force: bool,
    },
    /// Statistics of tournament folders: balance.csv, length.csv, ladder.csv, trend.csv, usage.csv,
    /// diversity.csv, typical.csv (docs/statistics.md).
    Stats {
        /// Tournament folders (each with run.json and games.csv).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Folder for the CSV files.
        #[arg(long, default_value = "out/stats")]
        out: PathBuf,
    },
    /// A variant's alternatives against it: each figure's difference ALT − BASE with its 95%
    /// interval and the games that would show it (compare.csv); see docs/statistics.md.
    Compare {
        /// The base run folder, then one or more alternatives' (each with run.json and
        /// games.csv; piece_values.csv beside them or inside them is compared too).
        #[arg(required = true, value_name = "DIR")]
        dirs: Vec<PathBuf>,
        /// Folder for compare.csv.
        #[arg(long, default_value = "out/compare")]
        out: PathBuf,
        /// The difference sizes the games needed are computed for, as KEY=SIZE pairs (keys:
        /// score, draw, decisive, unconverted, length, value); unnamed keys keep the defaults.
        #[arg(long, default_value = crate::analysis::compare::DEFAULT_DETECT)]
        detect: String,
    },
    /// Fit a variant's evaluation weights to recorded games (Texel method); see
    /// docs/evaluation.md.
    Tune(TuneArgs),
    /// Self-play positions with the search's score and the game's result, for training a
    /// network (a data file, docs/evaluation.md "Network data").
    Datagen(crate::commands::net::DatagenArgs),
    /// Train a network evaluation from data files (docs/evaluation.md "Network evaluation").
    TrainNet(crate::commands::net::TrainNetArgs),

    /// One self-contained HTML page with SVG plots of tournament folders.
    Report {
        /// Tournament folders (each with run.json and games.csv; piece_values.csv beside them
        /// or inside them is plotted too).
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// Output HTML file.
        #[arg(long, default_value = "report.html")]
        out: PathBuf,
        /// A run to compare the others against (a "Comparison" section, as `compare`
        /// prints); shown on the page too.
        #[arg(long)]
        base: Option<PathBuf>,
    },
    /// Estimate piece values: by imbalance self-play, regression on recorded games, the
    /// regression near material balance (even trades), or a fitted evaluation (see --method).
    Values(ValuesArgs),
    /// Sequential probability ratio test of one configuration against another.
    Sprt(SprtArgs),
    /// The default job: a small balance study of every variant, with a summary.
    Study(StudyArgs),
    /// The engine signature (total nodes of a fixed-depth search over fixed positions) and
    /// speed: search nodes per second and perft leaves per second.
    Bench {
        /// A variant name or `all` [default: `all`, or the --variant-file's variant]
        #[arg(long)]
        variant: Option<String>,
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
    /// Write a variant in another program's format: `--fsf VARIANT` prints a built-in
    /// chess-family variant, or the --variant-file's, as a Fairy-Stockfish `variants.ini`
    /// section (docs/variant-files.md); a rule the format cannot express is an error.
    Export {
        /// The variant to write in Fairy-Stockfish's format.
        #[arg(long, value_name = "VARIANT")]
        fsf: String,
    },
    /// Run perft on the start position of every variant, one line per depth as it finishes.
    PerftAll {
        /// Depth for every variant [default: deepen each variant while the next depth is
        /// predicted to take under two seconds, so the whole run stays well under a minute]
        #[arg(long, value_parser = within(1, 20), allow_negative_numbers = true)]
        depth: Option<u32>,
    },
}

/// `--l2`: chosen by held-out loss, or given.
#[derive(Clone, Copy, Debug)]
struct L2Choice(Option<f64>);

/// `auto` or a penalty of at least 0.
fn l2_choice(s: &str) -> Result<L2Choice, String> {
    if s == "auto" {
        return Ok(L2Choice(None));
    }
    match s.parse::<f64>() {
        Ok(v) if v >= 0.0 && v.is_finite() => Ok(L2Choice(Some(v))),
        _ => Err(format!("{s:?} is neither auto nor a penalty of at least 0")),
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
    /// Starting weights: default (the variant's current tuned weights; --rescore-nodes then
    /// searches with its default evaluation, network included), linear (the same weights,
    /// rescored by them alone), classic (a least-squares copy of the classic evaluation, fitted
    /// from material-only weights) or a weights file.
    #[arg(long, default_value = "default")]
    from: String,
    /// Share of games held out for early stopping.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// L2 penalty per squared centipawn away from the starting weights, or `auto`: the one
    /// of 1e-8, 3e-8, 1e-7, 3e-7, 1e-6, 3e-6 with the lowest held-out loss (one fit each).
    #[arg(long, default_value = "auto", value_parser = l2_choice, allow_negative_numbers = true)]
    l2: L2Choice,
    /// Share of each position's target taken from its recorded search score (as an expected
    /// result) instead of the game's result: 0 = results only.
    #[arg(long, default_value_t = 0.0, value_parser = unit_share)]
    score_weight: f64,
    /// Search every position again with this many nodes (the starting weights, a cleared
    /// table each) and take that score instead of the recorded one for --score-weight;
    /// cached in OUT.rescore, so an interrupted run resumes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    rescore_nodes: Option<u64>,
    /// Rescore with this UCI engine (a command line, as after `engine:`) instead of our own
    /// search: `position fen TEXT` and `go nodes N` for each position (with `ucinewgame`
    /// before it). The engine must read the variant's position text (FEN for chess).
    #[arg(long)]
    rescore_engine: Option<String>,
    /// The scaling constant K of the logistic (an evaluation e predicts 1/(1 + exp(−K·e/400))),
    /// instead of fitting it to the games' results: for fits to the scores alone where the
    /// results say little (a variant of mostly draws fits a K near 0).
    #[arg(long, value_parser = positive_scale, allow_negative_numbers = true)]
    scale: Option<f64>,
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
    #[command(flatten)]
    variant: VariantArg,
    /// Number of games (pairs of two, colours swapped).
    #[arg(long, required_unless_present = "resume", value_parser = game_count(1), allow_negative_numbers = true)]
    games: Option<u64>,
    /// Nodes per move [default: 1000]
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
    #[command(flatten)]
    workers: WorkerArgs,
    #[command(flatten)]
    setup: MatchArgs,
    /// Engine A (White in the first game of each pair): `default`, a JSON file, or
    /// `engine:CMD`, an external UCI engine started with the command line CMD
    /// (`engine:stockfish`, `engine:"target/release/variantlab uci"`).
    /// With --resume, the run's external engines must be named again (see --resume).
    #[arg(long)]
    white: Option<String>,
    /// Engine B: `default`, a JSON file, or `engine:CMD`.
    #[arg(long)]
    black: Option<String>,
    /// Output folder [default: out/VARIANT]
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write moves.csv (one row per ply, for piece-value regression) and games.pgn.
    #[arg(long)]
    record_moves: bool,
    /// With --record-moves, no games.pgn.
    #[arg(long, requires = "record_moves")]
    no_pgn: bool,
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
    /// With `--games N`, a finished run is extended to N games. A run with external engines
    /// resumes only with the same --white/--black given again: nothing in a run folder is
    /// run that the command line did not name.
    #[arg(long, conflicts_with_all = ["variant", "nodes", "depth", "movetime", "tc", "seed", "out", "shard", "force"])]
    resume: Option<PathBuf>,
    /// Replace a run already in the output folder (only variantlab's files are removed; a
    /// folder holding others is refused).
    #[arg(long)]
    force: bool,
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

fn play(args: PlayArgs) -> Result<()> {
    let opts = args.workers.options()?;
    let (job, dir) = if let Some(dir) = args.resume {
        let load = |spec: &Option<String>| spec.as_deref().map(EngineConfig::load).transpose();
        let named = [load(&args.white)?, load(&args.black)?];
        match args.games {
            Some(games) => (PlayJob::Extend(games, named), dir),
            None => (PlayJob::Resume(named), dir),
        }
    } else {
        let variant = args.variant.kind()?;
        let games = args.games.expect("clap requires --games");
        if games == 0 {
            bail!("--games must be at least 1");
        }
        let shard = args
            .shard
            .as_deref()
            .map(|s| parse_shard(s, games))
            .transpose()?;
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
            .map(crate::run::play::TimeControl::parse)
            .transpose()?;
        let timed = args.movetime.is_some() || tc.is_some();
        let mut config = RunConfig {
            variant_file: crate::run::variant_file::definition_for(variant),
            variant,
            games,
            nodes: args.nodes.or(if args.depth.is_none() && !timed {
                Some(crate::run::config::DEFAULT_NODES)
            } else {
                None
            }),
            depth: args.depth,
            movetime: args.movetime,
            tc,
            reproducible: true,
            seed: args.setup.seed,
            openings: args.setup.openings,
            white: EngineConfig::load(args.white.as_deref().unwrap_or("default"))?,
            black: EngineConfig::load(args.black.as_deref().unwrap_or("default"))?,
            adjudication: Adjudication {
                max_plies: args
                    .setup
                    .max_plies
                    .unwrap_or_else(|| crate::run::config::default_max_plies(variant)),
                resign: resign.map(|[cp, n]| (cp as i32, n as u32)),
                draw: draw.map(|[cp, n, from]| (cp as i32, n as u32, from as u32)),
            },
            record_moves: args.record_moves,
            pgn: !args.no_pgn,
            shard,
            openings_checksum: None,
            engine_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: format::git_commit(),
            threads: opts.threads,
            started: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            finished: None,
        };
        config.reproducible = config.is_reproducible();
        let dir = args
            .out
            .unwrap_or_else(|| PathBuf::from("out").join(variant.name()));
        (PlayJob::Start(Box::new(config), args.force), dir)
    };
    tournament::play_command(job, &dir, &opts)
}

fn study(a: StudyArgs) -> Result<()> {
    let opts = a.workers.options()?;
    let kinds: Vec<VariantKind> = if a.variants.is_empty() {
        files_or_all()
    } else {
        a.variants
            .iter()
            .map(|v| variant(v.trim()))
            .collect::<Result<_>>()?
    };
    let study = Study {
        kinds,
        games: a.games,
        nodes: a.nodes,
        seed: a.setup.seed,
        openings: a.setup.openings,
        max_plies: a.setup.max_plies,
        force: a.force,
        out: a.out,
    };
    crate::commands::study::command(&study, &opts)
}

/// Options of `variantlab study`.
#[derive(clap::Args, Debug)]
pub struct StudyArgs {
    /// Games per variant.
    #[arg(long, default_value_t = 20, value_parser = game_count(1), allow_negative_numbers = true)]
    games: u64,
    /// Variants to study, comma-separated [default: all; with --variant-file, the files' variants]
    #[arg(long, value_delimiter = ',')]
    variants: Vec<String>,
    #[command(flatten)]
    setup: MatchArgs,
    /// Nodes per move.
    #[arg(long, default_value_t = crate::run::config::DEFAULT_NODES, value_parser = at_least(1), allow_negative_numbers = true)]
    nodes: u64,
    #[command(flatten)]
    workers: WorkerArgs,
    /// Output folder.
    #[arg(long, default_value = "out/study")]
    out: PathBuf,
    /// Replace runs already in the output folder that were made with other settings
    /// (without it the study refuses; a run with the same settings is resumed, and one with
    /// fewer games grows to --games, keeping those played).
    #[arg(long)]
    force: bool,
}

/// Options of `variantlab sprt`.
#[derive(clap::Args, Debug)]
pub struct SprtArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// The reference configuration: `default`, a JSON file, or `engine:CMD` (an external
    /// UCI engine).
    /// [default: default]. With --resume, the match's external engines must be named again.
    #[arg(long)]
    base: Option<String>,
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
    #[arg(long, default_value_t = crate::run::config::DEFAULT_NODES, value_parser = at_least(1), allow_negative_numbers = true)]
    nodes: u64,
    /// Time per move in milliseconds instead of nodes (not reproducible).
    #[arg(long, conflicts_with_all = ["nodes", "tc"], value_parser = at_least(1), allow_negative_numbers = true)]
    movetime: Option<u64>,
    /// A clock per game, `BASE+INC` in seconds (`2+0.02`), instead of nodes: a side out of
    /// time loses (`time_forfeit`). Not reproducible.
    #[arg(long, conflicts_with = "nodes")]
    tc: Option<String>,
    /// Give up undecided after this many games; with --resume, the match's new cap (a match
    /// stopped undecided at its cap goes on to this one) [default: 20000]
    #[arg(long, value_parser = game_count(2), allow_negative_numbers = true)]
    max_games: Option<u64>,
    #[command(flatten)]
    workers: WorkerArgs,
    #[command(flatten)]
    setup: MatchArgs,
    /// Replace a match in the output folder made with other settings.
    #[arg(long)]
    force: bool,
    /// Output folder [default: out/sprt]
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the match in this folder with its saved settings: only --max-games,
    /// --threads and --quiet may be given with it.
    #[arg(long, conflicts_with_all = ["variant", "elo0", "elo1", "alpha", "beta", "model", "nodes", "movetime", "tc", "seed", "openings", "max_plies", "force", "out"])]
    resume: Option<PathBuf>,
}

/// The game cap of an SPRT match without `--max-games`.
const DEFAULT_SPRT_GAMES: u64 = 20_000;

fn sprt(a: SprtArgs) -> Result<()> {
    let opts = a.workers.options()?;
    let (job, dir) = match a.resume {
        Some(dir) => (
            crate::run::sprt::Job::Resume {
                max_games: a.max_games,
                named: Box::new([
                    a.base.as_deref().map(EngineConfig::load).transpose()?,
                    a.test.as_deref().map(EngineConfig::load).transpose()?,
                ]),
            },
            dir,
        ),
        None => {
            let variant = a.variant.kind()?;
            let max_plies = a
                .setup
                .max_plies
                .unwrap_or_else(|| crate::run::config::default_max_plies(variant));
            let mut config = crate::run::sprt::SprtConfig {
                variant_file: crate::run::variant_file::definition_for(variant),
                variant,
                base: EngineConfig::load(a.base.as_deref().unwrap_or("default"))?,
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
                    .map(crate::run::play::TimeControl::parse)
                    .transpose()?,
                reproducible: true,
                max_games: a.max_games.unwrap_or(DEFAULT_SPRT_GAMES),
                seed: a.setup.seed,
                openings: a.setup.openings,
                max_plies,
            };
            config.reproducible = config.is_reproducible();
            (
                crate::run::sprt::Job::Start(Box::new(config)),
                a.out.unwrap_or_else(|| PathBuf::from("out/sprt")),
            )
        }
    };
    crate::run::sprt::command(job, &dir, opts.threads, opts.quiet, a.force)
}

/// Options of `variantlab values`.
#[derive(clap::Args, Debug)]
pub struct ValuesArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// `imbalance`, `regression`, `balanced` (the regression near material balance: even
    /// trades), `tuned` (material of a fitted evaluation), `both` (imbalance and regression)
    /// or `all` (regression, balanced and tuned work for every variant; imbalance needs
    /// positions with a piece removed, which every built-in variant provides).
    #[arg(long, default_value = "regression", value_parser = ["imbalance", "regression", "balanced", "tuned", "both", "all"])]
    method: String,
    /// Tuned: bootstrap replicates over games (each a cold refit) for the 95% percentile
    /// intervals.
    #[arg(long, default_value_t = crate::values::tuned::DEFAULT_REPLICATES)]
    bootstrap: u32,
    /// Imbalance: game pairs per piece kind.
    #[arg(long, default_value_t = 100, value_parser = game_count(1), allow_negative_numbers = true)]
    pairs: u64,
    /// Regression, balanced, tuned: self-play games to record when no --from folders are given.
    #[arg(long, default_value_t = 400, value_parser = game_count(2), allow_negative_numbers = true)]
    games: u64,
    /// Regression, balanced, tuned: tournament folders played with --record-moves.
    #[arg(long, num_args = 1..)]
    from: Vec<PathBuf>,
    /// Regression, balanced, tuned: the openings of the recorded self-play games (as for
    /// `play`); `trades:P` starts every game with a near-even trade made, which measures the
    /// heavy pieces far better by `balanced`.
    #[arg(long, default_value = crate::run::config::DEFAULT_OPENINGS)]
    openings: String,
    /// Nodes per move.
    #[arg(long, default_value_t = crate::run::config::DEFAULT_NODES, value_parser = at_least(1), allow_negative_numbers = true)]
    nodes: u64,
    #[command(flatten)]
    workers: WorkerArgs,
    /// Master seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The piece the values are measured in, by its key in piece_values.csv (`rook`,
    /// `great_philosopher`); default the pawn, or else the cheapest piece. Choose a dearer
    /// one where the cheapest is too small or too uncertain to divide by.
    #[arg(long)]
    unit: Option<String>,
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
    /// Balanced: also the middle game's values and the end game's, fitted apart (rows of
    /// method balanced-middle and balanced-end; the end game: at most half the start's pieces,
    /// pawns left out, on the board)
    #[arg(long)]
    phases: bool,
}

fn values(a: ValuesArgs) -> Result<()> {
    let kind = a.variant.kind()?;
    let opts = a.workers.options()?;
    let out = a
        .out
        .unwrap_or_else(|| PathBuf::from("out/values").join(kind.name()));
    crate::values::command(&ValuesJob {
        kind,
        method: a.method,
        bootstrap: a.bootstrap,
        pairs: a.pairs,
        games: a.games,
        from: a.from,
        openings: a.openings,
        nodes: a.nodes,
        threads: opts.threads,
        seed: a.seed,
        unit: a.unit,
        out,
        write_values: a.write_values,
        force: a.force,
        phases: a.phases,
        quiet: opts.quiet,
    })
}

/// The sections of an `.ini` variant file a command is about: its `--variant` (of `study`,
/// those of its `--variants` that are sections of the file), or else the file's only one.
fn ini_sections(command: &Command, path: &std::path::Path) -> Result<Vec<String>> {
    let asked: Vec<String> = match command {
        Command::Perft { variant, .. } | Command::Search { variant, .. } => {
            variant.variant.iter().cloned().collect()
        }
        Command::Play(a) => a.variant.variant.iter().cloned().collect(),
        Command::Datagen(a) => a.variant.variant.iter().cloned().collect(),
        Command::Values(a) => a.variant.variant.iter().cloned().collect(),
        Command::Sprt(a) => a.variant.variant.iter().cloned().collect(),
        Command::Study(a) => a.variants.clone(),
        Command::Bench { variant, .. } => variant.iter().cloned().collect(),
        Command::Export { fsf } => vec![fsf.clone()],
        _ => Vec::new(),
    };
    let text = variantlab_engine::textfile::read_text_file(
        path,
        variantlab_engine::variants::file::MAX_FILE_BYTES,
    )
    .with_context(|| path.display().to_string())?;
    let sections = fsf::section_names(&path.display().to_string(), &text)?;
    let in_file: Vec<String> = asked
        .iter()
        .filter(|a| sections.contains(a))
        .cloned()
        .collect();
    let study = matches!(command, Command::Study(_));
    match (in_file.as_slice(), sections.as_slice(), asked.len()) {
        ([_], _, _) => Ok(in_file),
        ([_, ..], _, _) if study => Ok(in_file),
        ([], [only], 0) => Ok(vec![only.clone()]),
        ([], _, 1) => Ok(asked), // not in the file: the reader says so
        _ => bail!(
            "{}: name one of its sections with --variant (sections: {})",
            path.display(),
            sections.join(", ")
        ),
    }
}

/// Parses the command line and runs it.
pub fn run() -> Result<()> {
    let cli = Cli::parse();
    for path in &cli.variant_file {
        if fsf::is_ini(path) {
            for section in ini_sections(&cli.command, path)? {
                fsf::load_ini(path, &section)?;
            }
        } else {
            variantlab_engine::variants::file::load(path)?;
        }
    }
    match cli.command {
        Command::Variants { json } => inspect::variants_command(json),
        Command::Perft {
            variant: name,
            depth,
            position,
            divide,
            json,
        } => inspect::perft_command(name.kind()?, depth, position.as_deref(), divide, json),
        Command::Search {
            variant: name,
            position,
            nodes,
            depth,
            movetime,
            hash,
            values,
            randomize,
            seed,
            config: engine_config,
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
                ..SearchConfig::default()
            };
            inspect::search_command(
                name.kind()?,
                position.as_deref(),
                limits,
                config,
                engine_config.as_deref(),
                values.as_deref(),
                json,
            )
        }
        Command::Play(args) => play(args),
        Command::Datagen(args) => crate::commands::net::datagen(args),
        Command::TrainNet(args) => crate::commands::net::train_net(args),
        Command::Tune(a) => crate::tune::run(&crate::tune::TuneOptions {
            games: a.games,
            out: a.out,
            from: a.from,
            holdout: a.holdout,
            l2: a.l2.0,
            score_weight: a.score_weight,
            rescore_nodes: a.rescore_nodes,
            rescore_engine: a.rescore_engine,
            scale: a.scale,
            epochs: a.epochs,
            skip_plies: a.skip_plies,
            seed: a.seed,
            quiet: a.quiet,
        }),
        Command::Values(args) => values(args),
        Command::Sprt(args) => sprt(args),
        Command::Stats { dirs, out } => crate::analysis::stats_command(&dirs, &out),
        Command::Report { dirs, out, base } => {
            crate::analysis::report::compared_command(&dirs, base.as_deref(), &out)
        }
        Command::Compare { dirs, out, detect } => {
            crate::analysis::compare::command(&dirs, &out, &detect)
        }
        Command::Merge { dirs, out, force } => crate::run::merge::merge_command(&dirs, &out, force),
        Command::Study(args) => study(args),
        Command::Bench {
            variant: name,
            json,
            no_perft,
            table,
        } => {
            let kinds = match name.as_deref() {
                Some("all") => VariantKind::ALL.to_vec(),
                None => files_or_all(),
                Some(name) => vec![variant(name)?],
            };
            crate::commands::bench::command(&kinds, json, no_perft, table.as_deref())
        }
        Command::Uci => crate::commands::uci::run(),
        Command::PerftAll { depth } => inspect::perft_all_command(depth),
        Command::Export { fsf: name } => {
            let text = fsf::export_kind(variant(&name)?).map_err(|e| {
                anyhow::anyhow!("{name} cannot be written in Fairy-Stockfish's format: {e}")
            })?;
            print!("{text}");
            Ok(())
        }
    }
}
