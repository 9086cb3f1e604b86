//! `variantlab train-net`: fits a variant's network to data files from `variantlab datagen`,
//! on the CPU ([`crate::net::model`]), and writes its integer form (`.vlnet`).
//!
//! 1. Every record's position text is read back and turned into the network's inputs, from
//!    the side to move's perspective and the other side's.
//! 2. The games are split, by a seeded hash of (file, game), into training and held-out
//!    positions (`--holdout`); the positions of one game never straddle the two.
//! 3. The target of a position is `(1 − w) · result + w · σ(K · score / 400)` (`--score-weight
//!    w`, as `tune`); K is fitted first so that `σ(K · score / 400)` predicts the results best
//!    (or given, `--scale`), and the network's centipawns are then on the scale of the
//!    search's scores that made the data.
//! 4. Adam on shuffled batches; after each epoch the held-out loss is measured, the best
//!    network so far is kept, and training stops when it has not improved for `--patience`
//!    epochs (early stopping).

use crate::net::data::{self, Tail};
use crate::net::model::{self, Adam, Gradient, Inputs};
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;
use variantlab_engine::game::Game;
use variantlab_engine::nnue::{
    active_features, Active, FloatNet, InputLayout, NetInfo, Network, BASE_LINEAR, SCALE,
};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{with_variant, VariantKind};

/// What `variantlab train-net` is asked to do.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Data files, all of one variant.
    pub data: Vec<PathBuf>,
    /// The network file [default: data/eval/nets/VARIANT.vlnet].
    pub out: Option<PathBuf>,
    /// Accumulator cells per perspective.
    pub hidden: usize,
    /// Most epochs.
    pub epochs: u32,
    /// Adam's step size.
    pub lr: f32,
    /// Each epoch's step size is the previous one's times this.
    pub lr_decay: f32,
    /// Positions per batch.
    pub batch: usize,
    /// Share of games held out.
    pub holdout: f64,
    /// Stop after this many epochs without a better held-out loss.
    pub patience: u32,
    /// Share of the target taken from the score instead of the result.
    pub score_weight: f64,
    /// The logistic's scale K; `None` fits it to the data's scores and results.
    pub scale: Option<f64>,
    /// Seed of the split, the initial weights and the shuffles.
    pub seed: u64,
    /// Train on the linear evaluation's residual ([`variantlab_engine::nnue::BASE_LINEAR`]).
    pub on_linear: bool,
    /// No progress bar.
    pub quiet: bool,
}

/// The positions of the data files, as inputs, with what the targets are made of.
struct Loaded {
    inputs: Inputs,
    result: Vec<f32>,
    score: Vec<f32>,
    /// (file index, game) of each position, for the split.
    game: Vec<u64>,
    /// The variant's default linear evaluation of each position (side to move's view): the
    /// loss a network must beat.
    linear: Vec<f32>,
    games: usize,
}

/// The variant of a data file (its header's), with the file's variant definition loaded
/// when it has one.
///
/// # Errors
/// An unreadable file, an unknown variant.
pub fn variant_of(path: &Path) -> Result<VariantKind> {
    let file = data::read(path, Tail::Refuse)?;
    let s = &file.settings;
    crate::run::variant_file::ensure(&s.variant, s.variant_file.as_ref(), path)?;
    VariantKind::from_name(&s.variant).with_context(|| format!("{}", path.display()))
}

/// `variantlab train-net`: returns where the network was written.
///
/// # Errors
/// Bad options, unreadable or damaged data files (named, with the byte), data of another
/// variant, no positions, an unwritable output.
pub fn run(o: &TrainOptions) -> Result<PathBuf> {
    let Some(first) = o.data.first() else {
        bail!("give at least one data file with --data");
    };
    if !(0.0..1.0).contains(&o.holdout) {
        bail!("--holdout must be at least 0 and below 1");
    }
    if o.hidden == 0 || o.batch == 0 {
        bail!("--hidden and --batch must be at least 1");
    }
    if !(o.lr.is_finite() && o.lr > 0.0) {
        bail!("--lr must be a number above 0");
    }
    let kind = variant_of(first)?;
    with_variant!(kind, G => train::<G>(o))
}

fn load<G: Game>(files: &[PathBuf]) -> Result<Loaded> {
    let layout = InputLayout::of::<G>();
    let variant = G::start().variant_name();
    let mut out = Loaded {
        inputs: Inputs::default(),
        result: Vec::new(),
        score: Vec::new(),
        game: Vec::new(),
        linear: Vec::new(),
        games: 0,
    };
    let evaluator = variantlab_engine::search::EvalChoice::Linear
        .evaluator::<G>()
        .context("the variant's linear evaluation")?;
    let kinds = G::start().material_kinds();
    // The variant's linear evaluation (what an `--on-linear` network is added to): the tuned
    // weights, or else the classic material and positional terms.
    let linear = |pos: &G| -> i32 {
        match &evaluator {
            Some(e) => e.evaluate(pos),
            None => {
                let m = pos.material();
                let us = pos.turn().index();
                let material: i32 = (0..kinds.len())
                    .map(|k| (m[us][k] as i32 - m[1 - us][k] as i32) * kinds[k].1)
                    .sum();
                material + pos.positional()
            }
        }
    };
    for (fi, path) in files.iter().enumerate() {
        let file = data::read(path, Tail::Refuse)?;
        if file.settings.variant != variant {
            bail!(
                "{}: data of {}, not {variant} (the variant of {}); train one variant at a time",
                path.display(),
                file.settings.variant,
                files[0].display()
            );
        }
        let lists: Vec<([Vec<u16>; 2], i32)> = file
            .records
            .par_iter()
            .zip(&file.offsets)
            .map(|(r, &at)| {
                let pos = G::from_text(&r.text).map_err(|e| {
                    anyhow::anyhow!(
                        "{}: the record at byte {at}: position {:?}: {e}",
                        path.display(),
                        r.text
                    )
                })?;
                let mut a = Box::<Active>::default();
                active_features(&pos, &layout, &mut a);
                if !a.complete() {
                    bail!(
                        "{}: the record at byte {at}: more inputs than a network takes",
                        path.display()
                    );
                }
                let us = pos.turn().index();
                Ok((
                    [
                        a.lists[us].as_slice().to_vec(),
                        a.lists[1 - us].as_slice().to_vec(),
                    ],
                    linear(&pos),
                ))
            })
            .collect::<Result<_>>()?;
        for (r, ([us, them], lin)) in file.records.iter().zip(lists) {
            out.inputs.push(&us, &them, 0.0);
            out.linear.push(lin as f32);
            out.result.push((f32::from(r.result) + 1.0) / 2.0);
            out.score.push(f32::from(r.score));
            out.game.push(((fi as u64) << 32) | u64::from(r.game));
        }
    }
    out.games = out
        .game
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    if out.inputs.is_empty() {
        bail!("no positions in the data files");
    }
    Ok(out)
}

/// Splits positions by game into (training, held out): a seeded share `holdout` of games.
fn split(game: &[u64], holdout: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let held = |g: u64| {
        let mut h = SplitMix64(seed ^ g.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        (h.next() as f64 / u64::MAX as f64) < holdout
    };
    (0..game.len()).partition(|&i| !held(game[i]))
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The K with which `σ(K · score / 400)` predicts the results of `rows` best (least squares,
/// golden-section search over 0.05 to 5, as `tune` fits it).
fn fit_scale(d: &Loaded, rows: &[usize]) -> f64 {
    let loss = |k: f64| -> f64 {
        let parts: Vec<f64> = rows
            .par_chunks(4096)
            .map(|c| {
                c.iter()
                    .map(|&i| {
                        let e = sigmoid(k * d.score[i] as f64 / 400.0) - d.result[i] as f64;
                        e * e
                    })
                    .sum()
            })
            .collect();
        parts.iter().sum()
    };
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - r * (b - a);
        let e = a + r * (b - a);
        if loss(c) < loss(e) {
            b = e;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Fisher–Yates with a seeded generator.
fn shuffle(rows: &mut [usize], rng: &mut SplitMix64) {
    for i in (1..rows.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        rows.swap(i, j);
    }
}

/// One epoch's losses, recorded in the network file.
#[derive(Clone, Copy, Debug, serde::Serialize)]
struct Epoch {
    epoch: u32,
    train_loss: f64,
    valid_loss: f64,
}

fn train<G: Game>(o: &TrainOptions) -> Result<PathBuf> {
    let started = Instant::now();
    let variant = G::start().variant_name();
    let layout = InputLayout::of::<G>();
    let mut d = load::<G>(&o.data)?;
    let (mut train, holdout) = split(&d.game, o.holdout, o.seed);
    if train.is_empty() {
        bail!("no training positions left after holding out {}", o.holdout);
    }
    let k = o.scale.unwrap_or_else(|| fit_scale(&d, &train));
    let w = o.score_weight;
    d.inputs.target = (0..d.inputs.len())
        .map(|i| {
            let s = sigmoid(k * d.score[i] as f64 / 400.0);
            ((1.0 - w) * d.result[i] as f64 + w * s) as f32
        })
        .collect();
    crate::output::out!(
        "{variant}: {} positions of {} games ({} training, {} held out), {} inputs, {} cells; K = {k:.3}",
        d.inputs.len(),
        d.games,
        train.len(),
        holdout.len(),
        layout.features,
        o.hidden
    );
    let check: Vec<usize> = if holdout.is_empty() {
        eprintln!(
            "note: no game is held out (too few games, or --holdout 0): the \"held-out\" loss below is the training positions' own, and early stopping cannot see overfitting"
        );
        train.clone()
    } else {
        holdout.clone()
    };
    let check = &check[..];
    let kf = k as f32;
    let linear_loss = {
        let sum: f64 = check
            .iter()
            .map(|&i| {
                let e = sigmoid(k * d.linear[i] as f64 / 400.0) - d.inputs.target[i] as f64;
                e * e
            })
            .sum();
        sum / check.len() as f64
    };
    crate::output::out!(
        "the default linear evaluation's loss on these positions: {linear_loss:.6} (a network that does not beat it is unlikely to win its SPRT)"
    );
    let mut net = FloatNet::new(layout.features, o.hidden, o.seed);
    if o.on_linear {
        // On the linear evaluation, which already counts the material: the network starts
        // at 0 (zero output weights) so that it starts exactly where the linear one stands.
        d.inputs.base = d.linear.iter().map(|&l| l / SCALE).collect();
        net.out_weights.iter_mut().for_each(|w| *w = 0.0);
    } else {
        // The linear path starts at the material balance (docs/evaluation.md).
        net.psqt = variantlab_engine::nnue::material_psqt::<G>();
    }
    let mut adam = Adam::new(&net, o.lr);
    let mut grad = Gradient::zero(&net);
    let mut touched = Vec::new();
    let mut rng = SplitMix64(o.seed ^ 0x0073_6875_6666_6c65);
    let start_loss = model::loss(&net, &d.inputs, check, kf);
    let (mut best, mut best_loss, mut best_epoch, mut since) = (net.clone(), start_loss, 0, 0);
    let mut history: Vec<Epoch> = Vec::new();
    let batches = train.len().div_ceil(o.batch) as u64;
    let bar = crate::run::schedule::progress(
        o.quiet,
        Some(batches),
        "train-net epoch {prefix} {bar:30} {pos}/{len} batches {msg} [{elapsed}]",
    );
    for epoch in 1..=o.epochs {
        let t = Instant::now();
        shuffle(&mut train, &mut rng);
        bar.reset();
        bar.set_prefix(epoch.to_string());
        let mut sum = 0.0;
        for batch in train.chunks(o.batch) {
            let l = model::gradient(&net, &d.inputs, batch, kf, &mut grad, &mut touched);
            adam.step(&mut net, &grad);
            model::clear(&mut grad, &touched, o.hidden);
            sum += l * batch.len() as f64;
            bar.inc(1);
        }
        let train_loss = sum / train.len() as f64;
        let valid_loss = model::loss(&net, &d.inputs, check, kf);
        history.push(Epoch {
            epoch,
            train_loss,
            valid_loss,
        });
        bar.suspend(|| {
            crate::output::out!(
                "epoch {epoch}: training loss {train_loss:.6}, held-out loss {valid_loss:.6} (step {:.2e}; {:.1} s)",
                adam.lr,
                t.elapsed().as_secs_f64()
            )
        });
        adam.lr *= o.lr_decay;
        if valid_loss < best_loss {
            (best, best_loss, best_epoch, since) = (net.clone(), valid_loss, epoch, 0);
        } else {
            since += 1;
            if since >= o.patience {
                break;
            }
        }
    }
    bar.finish_and_clear();
    if best_epoch == 0 {
        eprintln!(
            "warning: no epoch lowered the held-out loss of the random starting network; it is written as it is (more data, or another --lr?)"
        );
    }
    let best_train = history
        .iter()
        .find(|e| e.epoch == best_epoch)
        .map_or(start_loss, |e| e.train_loss);
    let mut notes = serde_json::Map::new();
    let mut note = |k: &str, v: serde_json::Value| {
        notes.insert(k.to_string(), v);
    };
    note("scale", serde_json::json!(k));
    note("scale_fitted", serde_json::json!(o.scale.is_none()));
    note(
        "loss",
        serde_json::json!("(sigmoid(K * cp / 400) - target)^2"),
    );
    note("lr", serde_json::json!(o.lr));
    note("lr_decay", serde_json::json!(o.lr_decay));
    note("batch", serde_json::json!(o.batch));
    note("holdout", serde_json::json!(o.holdout));
    note("patience", serde_json::json!(o.patience));
    note("games", serde_json::json!(d.games));
    note("held_out_positions", serde_json::json!(holdout.len()));
    note("start_valid_loss", serde_json::json!(start_loss));
    note("linear_valid_loss", serde_json::json!(linear_loss));
    // No timings: the same seed and data give the same file.
    note("history", serde_json::to_value(&history)?);
    let info = NetInfo {
        data: o.data.iter().map(|p| p.display().to_string()).collect(),
        positions: train.len() as u64,
        epochs: best_epoch,
        train_loss: best_train,
        valid_loss: best_loss,
        score_weight: o.score_weight,
        seed: o.seed,
        commit: crate::run::format::git_commit().unwrap_or_default(),
        notes,
        base: o.on_linear.then(|| BASE_LINEAR.to_string()),
        ..NetInfo::default()
    };
    let (q, clamped) = Network::quantize::<G>(&best, info);
    if clamped > 0 {
        eprintln!("warning: {clamped} weights fell outside the integer range and were clamped");
    }
    let out = o
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("data/eval/nets/{variant}.vlnet")));
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    crate::output::replace_file(&out, &q.to_bytes())?;
    crate::output::out!(
        "kept epoch {best_epoch}: training loss {best_train:.6}, held-out loss {start_loss:.6} -> {best_loss:.6} (the linear evaluation's {linear_loss:.6}; {:.0} s)",
        started.elapsed().as_secs_f64()
    );
    crate::output::out!("wrote {}", out.display());
    Ok(out)
}
