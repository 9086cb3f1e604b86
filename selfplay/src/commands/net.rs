//! The arguments of `variantlab datagen` and `variantlab train-net`.

use crate::commands::args::{
    at_least, game_count, parse_shard, positive_scale, unit_share, unit_share_positive, VariantArg,
    WorkerArgs,
};
use crate::net::datagen::{self, DatagenOptions};
use anyhow::{bail, Result};
use std::path::PathBuf;

/// Options of `variantlab datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    #[command(flatten)]
    pub(crate) variant: VariantArg,
    /// Games in all (pairs of two from one opening, colours swapped); a larger count extends
    /// a file made with the same settings.
    #[arg(long, required_unless_present = "merge", value_parser = game_count(1), allow_negative_numbers = true)]
    games: Option<u64>,
    /// Nodes per move (a configuration's own `nodes` wins).
    #[arg(long, default_value_t = crate::run::config::DEFAULT_NODES, value_parser = at_least(1), allow_negative_numbers = true)]
    nodes: u64,
    /// Master seed: the same seed and settings give the same file, whatever the threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Openings, as for `play`.
    #[arg(long, default_value = crate::run::config::DEFAULT_OPENINGS)]
    openings: String,
    /// Draw after this many plies [default: the variant's]
    #[arg(long)]
    max_plies: Option<u32>,
    /// Plies after the opening whose positions are left out.
    #[arg(long, default_value_t = 4)]
    skip_plies: u32,
    /// The engine configuration that plays and scores: `default` or a JSON file (its
    /// `"eval"` may name a network, `net:PATH`).
    #[arg(long, default_value = "default")]
    engine: String,
    /// The data file, or a folder for `VARIANT.vldata` (`VARIANT.shard-I-of-N.vldata`).
    /// A file made with the same settings is resumed (or extended to --games).
    #[arg(long, default_value = "out/net/")]
    out: PathBuf,
    /// Play the I-th of N disjoint slices of the games: `I/N` (merge them with --merge).
    #[arg(long)]
    shard: Option<String>,
    /// Merge these shard files of one run into --out (a file) instead of playing.
    #[arg(long, num_args = 1.., conflicts_with_all = ["games", "shard"])]
    merge: Vec<PathBuf>,
    #[command(flatten)]
    workers: WorkerArgs,
}

/// `variantlab datagen`.
///
/// # Errors
/// Bad arguments, and those of [`datagen::run`] and [`datagen::merge`].
pub fn datagen(a: DatagenArgs) -> Result<()> {
    if !a.merge.is_empty() {
        if a.out.is_dir() {
            bail!(
                "--merge writes one file: give --out FILE, not the folder {}",
                a.out.display()
            );
        }
        return datagen::merge(&a.merge, &a.out);
    }
    let opts = a.workers.options()?;
    let variant = a.variant.kind()?;
    let games = a.games.expect("clap requires --games");
    let shard = a
        .shard
        .as_deref()
        .map(|s| parse_shard(s, games))
        .transpose()?;
    datagen::run(&DatagenOptions {
        variant,
        engine: a.engine,
        nodes: a.nodes,
        games,
        seed: a.seed,
        openings: a.openings,
        max_plies: a
            .max_plies
            .unwrap_or_else(|| crate::run::config::default_max_plies(variant)),
        skip_plies: a.skip_plies,
        out: a.out,
        shard,
        threads: opts.threads,
        quiet: opts.quiet,
    })?;
    Ok(())
}

/// Options of `variantlab train-net`.
#[derive(clap::Args, Debug)]
pub struct TrainNetArgs {
    /// Data files from `variantlab datagen` (one or more), all of one variant.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The network file [default: data/eval/nets/VARIANT.vlnet]
    #[arg(long)]
    out: Option<PathBuf>,
    /// Accumulator cells per perspective.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hidden: u32,
    /// Most epochs (passes over the training positions).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: u32,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.001, value_parser = positive_scale)]
    lr: f64,
    /// Each epoch's step size is the previous one's times this (1: a constant step). A
    /// shrinking step lets the last epochs settle into the minimum the first ones found.
    #[arg(long, default_value_t = 1.0, value_parser = unit_share_positive, allow_negative_numbers = true)]
    lr_decay: f64,
    /// Positions per batch (one Adam step each).
    #[arg(long, default_value_t = 4096, value_parser = at_least(1), allow_negative_numbers = true)]
    batch: u64,
    /// Share of games held out, for early stopping and the reported loss.
    #[arg(long, default_value_t = 0.1, value_parser = unit_share)]
    holdout: f64,
    /// Stop when the held-out loss has not improved for this many epochs.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    patience: u32,
    /// Share of each position's target taken from its search score (as an expected result,
    /// σ(K·score/400)) instead of its game's result: 1 = scores only (what won for the linear
    /// evaluation's fits, docs/evaluation.md "The loop: what works"), 0 = results only.
    #[arg(long, default_value_t = 1.0, value_parser = unit_share)]
    score_weight: f64,
    /// The scaling constant K of the logistic σ(K·cp/400), or `auto`: fitted so that the
    /// data's scores predict its results best. With scores as the target K only weighs the
    /// positions (decided ones less); a fitted K goes near 0 where the results say little
    /// (Gateway's draws), which flattens every target to ½.
    #[arg(long, default_value = "1", value_parser = scale_choice)]
    scale: ScaleChoice,
    /// Seed of the held-out split, the initial weights and the shuffles: the same seed and
    /// data give the same network, whatever the thread count.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Train the network on the linear evaluation's residual: the search adds its output to
    /// the variant's linear evaluation, so it learns only what the hand-made terms miss, and
    /// it starts where the linear evaluation stands (docs/evaluation.md).
    #[arg(long)]
    on_linear: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// `variantlab train-net`.
///
/// # Errors
/// Those of [`crate::net::train::run`].
pub fn train_net(a: TrainNetArgs) -> Result<()> {
    crate::net::train::run(&crate::net::train::TrainOptions {
        data: a.data,
        out: a.out,
        hidden: a.hidden as usize,
        epochs: a.epochs,
        lr: a.lr as f32,
        lr_decay: a.lr_decay as f32,
        batch: usize::try_from(a.batch)?,
        holdout: a.holdout,
        patience: a.patience,
        score_weight: a.score_weight,
        scale: a.scale.0,
        seed: a.seed,
        on_linear: a.on_linear,
        quiet: a.quiet,
    })?;
    Ok(())
}

/// `--scale`: a K given, or `auto` (`None`).
#[derive(Clone, Copy, Debug)]
pub struct ScaleChoice(Option<f64>);

fn scale_choice(s: &str) -> Result<ScaleChoice, String> {
    if s == "auto" {
        return Ok(ScaleChoice(None));
    }
    positive_scale(s).map(|k| ScaleChoice(Some(k)))
}
