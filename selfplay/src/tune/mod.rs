//! `variantlab tune`: fits a variant's evaluation weights to the results of recorded games by
//! the Texel method (logistic loss of the evaluation against the result, on quiet positions).
//!
//! 1. Positions: every game of the given run folders (`moves.csv` replayed from the opening in
//!    `games.csv`) is replayed; a position is kept when the side to move is not in check and
//!    the move played from it was quiet, so the static evaluation is a fair summary of it.
//!    Forfeited games are left out.
//! 2. The games are split, by a seeded hash of the game, into a training set and a held-out
//!    set (`--holdout`); the positions of one game never straddle the two.
//! 3. The scaling constant K of `result ≈ σ(K · eval / 400)` is fitted first, with the
//!    starting weights, so the fitted weights stay in centipawns.
//! 4. The weights are fitted by Adam on the training loss plus an L2 penalty that pulls each
//!    weight towards its starting value; the held-out loss is checked every few epochs and
//!    the best weights so far are kept (early stopping).

pub mod rescore;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use variantlab_engine::eval::{EvalWeights, Evaluator, FeatureRecorder, Layout, Provenance};
use variantlab_engine::game::Game;
use variantlab_engine::search::EvalChoice;
use variantlab_engine::with_variant;

/// What `variantlab tune` is asked to do.
#[derive(Clone, Debug)]
pub struct TuneOptions {
    /// Run folders with `games.csv`, `moves.csv` and `run.json`, all of one variant.
    pub games: Vec<PathBuf>,
    /// Where to write the weights.
    pub out: PathBuf,
    /// Starting weights: `default`, `classic` (a least-squares copy of the classic evaluation,
    /// [`mimic_classic`]) or a file.
    pub from: String,
    /// Share of games held out.
    pub holdout: f64,
    /// L2 penalty per squared centipawn of distance from the starting weights; `None` = the
    /// one of [`L2_GRID`] with the lowest held-out loss.
    pub l2: Option<f64>,
    /// Share of the target taken from the recorded search score instead of the result.
    pub score_weight: f64,
    /// Search each position again with this many nodes (with the starting weights) and take
    /// that score instead of the recorded one ([`crate::tune::rescore`]).
    pub rescore_nodes: Option<u64>,
    /// An external UCI engine (a command line) that rescores instead of our own search.
    pub rescore_engine: Option<String>,
    /// The scaling constant K; `None` fits it to the games' results first.
    pub scale: Option<f64>,
    /// Most training epochs.
    pub epochs: u32,
    /// Plies at the start of each recorded game that are not used.
    pub skip_plies: u32,
    /// Seed of the training/held-out split.
    pub seed: u64,
    /// No progress bar.
    pub quiet: bool,
}

/// Quiet positions of recorded games, as sparse feature vectors.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Start of each position's features in `index`/`count` (one more entry than positions).
    pub offsets: Vec<u32>,
    /// Weight index of each feature.
    pub index: Vec<u32>,
    /// White-minus-Black count of each feature.
    pub count: Vec<i16>,
    /// Middle-game share of each position (phase / PHASE_MAX).
    pub phase: Vec<f32>,
    /// Result from White's side: 1, 0.5 or 0.
    pub result: Vec<f32>,
    /// The classic evaluation of each position (White's side, centipawns): what
    /// `--from classic` starts from.
    pub classic: Vec<f32>,
    /// The recorded search score of each position (White's side, centipawns, clamped to
    /// ±[`crate::tune::rescore::SCORE_CLAMP`]), for `--score-weight`.
    pub score: Vec<f32>,
    /// The game (numbered across folders) each position comes from.
    pub game: Vec<u32>,
    /// Games read.
    pub games: u32,
    /// Per weight index, how often its feature occurred, both sides counted
    /// ([`FeatureRecorder::totals`]).
    pub totals: Vec<u64>,
}

impl Dataset {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.result.len()
    }
    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }
    fn features(&self, i: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        self.index[a..b]
            .iter()
            .zip(&self.count[a..b])
            .map(|(&j, &n)| (j as usize, n as f64))
    }
    /// The evaluation of position `i` (White's side, centipawns) under flat weights.
    fn eval(&self, i: usize, w: &[[f64; 2]]) -> f64 {
        let ph = self.phase[i] as f64;
        self.features(i)
            .map(|(j, n)| n * (w[j][0] * ph + w[j][1] * (1.0 - ph)))
            .sum()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean logistic loss (cross-entropy against the targets) of the positions `rows`.
fn loss(data: &Dataset, target: &[f32], rows: &[usize], w: &[[f64; 2]], k: f64) -> f64 {
    // Fixed chunks summed in order: the same total whatever the thread count.
    let parts: Vec<f64> = rows
        .par_chunks(4096)
        .map(|chunk| {
            chunk
                .iter()
                .map(|&i| {
                    let p = sigmoid(k * data.eval(i, w) / 400.0).clamp(1e-12, 1.0 - 1e-12);
                    let y = target[i] as f64;
                    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
                })
                .sum::<f64>()
        })
        .collect();
    parts.iter().sum::<f64>() / rows.len().max(1) as f64
}

/// Gradient of a mean loss over `rows` with respect to the flat weights, given the loss's
/// derivative with respect to each position's evaluation.
fn gradient(
    data: &Dataset,
    rows: &[usize],
    w: &[[f64; 2]],
    d_eval: impl Fn(usize, f64) -> f64 + Sync,
) -> Vec<[f64; 2]> {
    let n = w.len();
    // Fixed chunks added in order: the same gradient whatever the thread count.
    let parts: Vec<Vec<[f64; 2]>> = rows
        .par_chunks(4096)
        .map(|chunk| {
            let mut g = vec![[0.0; 2]; n];
            for &i in chunk {
                let d = d_eval(i, data.eval(i, w));
                let ph = data.phase[i] as f64;
                for (j, x) in data.features(i) {
                    g[j][0] += d * x * ph;
                    g[j][1] += d * x * (1.0 - ph);
                }
            }
            g
        })
        .collect();
    let mut g = vec![[0.0; 2]; n];
    for part in parts {
        for (x, y) in g.iter_mut().zip(part) {
            x[0] += y[0];
            x[1] += y[1];
        }
    }
    let scale = 1.0 / rows.len().max(1) as f64;
    g.iter_mut().for_each(|x| {
        x[0] *= scale;
        x[1] *= scale;
    });
    g
}

/// The K minimising the loss with weights `w` (golden-section search over 0.05..5).
fn fit_scale(data: &Dataset, rows: &[usize], w: &[[f64; 2]]) -> f64 {
    let target = &data.result;
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - r * (b - a);
        let d = a + r * (b - a);
        if loss(data, target, rows, w, c) < loss(data, target, rows, w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Terminations after which the result says nothing about the position.
const FORFEITS: [&str; 4] = [
    "illegal_move",
    "engine_crash",
    "time_forfeit",
    "engine_protocol",
];

/// Reads the quiet positions of every game in `dirs` (all of variant `G`).
///
/// # Errors
/// A folder of another variant, a missing `moves.csv` (a run without `--record-moves`), a
/// truncated or malformed file, or a recorded move that is not legal where it was played.
pub fn read_positions<G: Game>(dirs: &[PathBuf], skip_plies: u32) -> Result<Dataset> {
    read_positions_keeping::<G>(dirs, skip_plies, false).map(|(data, _)| data)
}

/// [`read_positions`], and with `keep` the positions themselves, in the dataset's order.
///
/// # Errors
/// Those of [`read_positions`].
pub fn read_positions_keeping<G: Game>(
    dirs: &[PathBuf],
    skip_plies: u32,
    keep: bool,
) -> Result<(Dataset, Vec<G>)> {
    const CLAMP: f32 = crate::tune::rescore::SCORE_CLAMP as f32;
    let mut kept = Vec::new();
    let start = G::start();
    let layout = Layout::of(&start);
    let phase_eval = Evaluator::material_only::<G>();
    let mut data = Dataset {
        offsets: vec![0],
        ..Dataset::default()
    };
    let mut recorder = FeatureRecorder::new(layout);
    let kinds = start.material_kinds();
    for dir in dirs {
        let run = crate::run::recorded::read_run(dir)?;
        if run.variant.name() != start.variant_name() {
            bail!(
                "{}: games of {}, not {} (tune one variant at a time)",
                dir.display(),
                run.variant.name(),
                start.variant_name()
            );
        }
        let games = read_games(dir)?;
        crate::run::recorded::check_moves(
            dir,
            &run,
            games.iter().map(|(g, _)| (g.id, u64::from(g.plies))),
        )?;
        let moves = crate::run::recorded::read_moves(dir)?;
        for (game, result) in &games {
            let Some(list) = moves.get(&game.id) else {
                continue;
            };
            crate::run::recorded::replay::<G>(&run, dir, game, list, |ply, pos, m| {
                if ply as u32 >= skip_plies && !pos.in_check() && !pos.is_tactical(m) {
                    recorder.record(pos);
                    for &(j, n) in &recorder.features {
                        data.index.push(j);
                        data.count.push(n);
                    }
                    data.offsets.push(data.index.len() as u32);
                    data.phase.push(
                        phase_eval.phase(pos) as f32 / variantlab_engine::eval::PHASE_MAX as f32,
                    );
                    data.result.push(*result);
                    data.score
                        .push(list[ply].eval_white_cp.clamp(-CLAMP, CLAMP));
                    let m = pos.material();
                    let material: i32 = (0..kinds.len())
                        .map(|k| (m[0][k] as i32 - m[1][k] as i32) * kinds[k].1)
                        .sum();
                    let positional = match pos.turn() {
                        variantlab_engine::Color::White => pos.positional(),
                        variantlab_engine::Color::Black => -pos.positional(),
                    };
                    data.classic.push((material + positional) as f32);
                    data.game.push(data.games);
                    if keep {
                        kept.push(pos.clone());
                    }
                }
                Ok(())
            })?;
            data.games += 1;
        }
    }
    if data.is_empty() {
        bail!("no quiet positions in the given games (were they recorded with --record-moves?)");
    }
    data.totals = recorder.totals;
    Ok((data, kept))
}

/// What the positions' features are, as one number: with the node count and the starting
/// weights, what a rescoring cache's scores depend on.
fn fingerprint(data: &Dataset, start: &[[f64; 2]], from: &str, nodes: u64) -> u64 {
    let features = data
        .offsets
        .iter()
        .chain(&data.index)
        .flat_map(|x| x.to_le_bytes())
        .chain(data.count.iter().flat_map(|x| x.to_le_bytes()));
    let weights = start.iter().flatten().flat_map(|x| x.to_le_bytes());
    let rest = from.bytes().chain(nodes.to_le_bytes());
    variantlab_engine::zobrist::fnv1a(features.chain(weights).chain(rest))
}

/// Every game that was not forfeited, with its result from White's side.
fn read_games(dir: &Path) -> Result<Vec<(crate::run::recorded::GameRow, f32)>> {
    Ok(crate::run::recorded::read_games(dir)?
        .into_iter()
        .filter(|g| !FORFEITS.contains(&g.termination.as_str()))
        .map(|g| {
            let points = g.white_points();
            (g, points)
        })
        .collect())
}

/// The outcome of a fit.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The fitted weights.
    pub weights: Vec<[f64; 2]>,
    /// The scaling constant.
    pub scale: f64,
    /// Held-out loss with the starting and the fitted weights.
    pub holdout_loss: [f64; 2],
    /// Training loss with the starting and the fitted weights.
    pub train_loss: [f64; 2],
    /// Epochs run.
    pub epochs: u32,
}

/// One Adam step (learning rate `lr`, step number `t` from 1) on weights `w` with moments
/// `m` and `v`.
fn adam_step(
    w: &mut [[f64; 2]],
    g: &[[f64; 2]],
    m: &mut [[f64; 2]],
    v: &mut [[f64; 2]],
    t: u32,
    lr: f64,
) {
    let (beta1, beta2) = (0.9f64, 0.999f64);
    for j in 0..w.len() {
        for p in 0..2 {
            let grad = g[j][p];
            m[j][p] = beta1 * m[j][p] + (1.0 - beta1) * grad;
            v[j][p] = beta2 * v[j][p] + (1.0 - beta2) * grad * grad;
            let mh = m[j][p] / (1.0 - beta1.powi(t as i32));
            let vh = v[j][p] / (1.0 - beta2.powi(t as i32));
            w[j][p] -= lr * mh / (vh.sqrt() + 1e-12);
        }
    }
}

/// Weights that reproduce the classic evaluation on the positions `rows` as closely as the
/// features allow (least squares from material only): the start of `--from classic`, so the
/// tuner improves on the evaluation the engine plays with rather than starting over.
pub fn mimic_classic(data: &Dataset, rows: &[usize], start: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![[0.0f64; 2]; w.len()], vec![[0.0f64; 2]; w.len()]);
    for t in 1..=300 {
        let g = gradient(data, rows, &w, |i, e| 2.0 * (e - data.classic[i] as f64));
        adam_step(&mut w, &g, &mut m, &mut v, t, 0.5);
    }
    w
}

/// How a fit runs.
#[derive(Clone, Debug)]
pub struct FitSettings {
    /// L2 penalty per weight, per squared centipawn of distance from the starting weights.
    pub l2: Vec<f64>,
    /// Share of the target taken from the recorded search score instead of the result.
    pub score_weight: f64,
    /// Most epochs.
    pub epochs: u32,
    /// Adam's step size in centipawns.
    pub learning_rate: f64,
    /// Stop when the held-out loss has not improved for this many checks (one every 10
    /// epochs); `None` runs every epoch and keeps the last weights.
    pub patience: Option<u32>,
    /// The scaling constant; fitted to the starting weights when `None`.
    pub scale: Option<f64>,
    /// Weights whose middle-game and end-game values are kept equal (one value for the
    /// whole game).
    pub untapered: Vec<usize>,
}

impl FitSettings {
    /// The settings of `variantlab tune`: one L2 for every weight, early stopping.
    pub fn tune(len: usize, l2: f64, score_weight: f64, epochs: u32) -> FitSettings {
        FitSettings {
            l2: vec![l2; len],
            score_weight,
            epochs,
            learning_rate: 1.0,
            patience: Some(20),
            scale: None,
            untapered: Vec::new(),
        }
    }
}

/// Fits weights to the positions `train` (a position may be listed more than once: a
/// bootstrap sample), checking the loss on `holdout`. The target of a position is its
/// game's result, blended with `score_weight` of its recorded search score (as an expected
/// result).
pub fn fit(
    data: &Dataset,
    train: &[usize],
    holdout: &[usize],
    start: &[[f64; 2]],
    settings: &FitSettings,
    bar: &ProgressBar,
) -> Fit {
    let scale = settings
        .scale
        .unwrap_or_else(|| fit_scale(data, train, start));
    let score_weight = settings.score_weight;
    let target: Vec<f32> = (0..data.len())
        .map(|i| {
            let s = sigmoid(scale * data.score[i] as f64 / 400.0);
            ((1.0 - score_weight) * data.result[i] as f64 + score_weight * s) as f32
        })
        .collect();
    let target = &target;
    let loss = |rows: &[usize], w: &[[f64; 2]]| loss(data, target, rows, w, scale);
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![[0.0f64; 2]; w.len()], vec![[0.0f64; 2]; w.len()]);
    let check = |w: &[[f64; 2]]| loss(if holdout.is_empty() { train } else { holdout }, w);
    let start_holdout = check(&w);
    let (mut best, mut best_loss, mut since_best) = (w.clone(), start_holdout, 0);
    // The smallest held-out gain that counts as progress. Near the logistic's middle an
    // evaluation error costs loss in proportion to K², so a variant whose results say little
    // about its evaluations (a small K: Gateway's draws, K ≈ 0.05) needs a smaller one, or
    // the fit stops before it has moved; at K ≥ 1 it is the fixed 1e-7 of earlier fits.
    let min_gain = MIN_GAIN * scale.min(1.0).powi(2);
    let mut run = 0;
    for epoch in 1..=settings.epochs {
        run = epoch;
        let mut g = gradient(data, train, &w, |i, e| {
            (sigmoid(scale * e / 400.0) - target[i] as f64) * scale / 400.0
        });
        for (j, (gj, (wj, sj))) in g.iter_mut().zip(w.iter().zip(start)).enumerate() {
            let l2 = settings.l2.get(j).copied().unwrap_or(0.0);
            gj[0] += l2 * (wj[0] - sj[0]);
            gj[1] += l2 * (wj[1] - sj[1]);
        }
        for &j in &settings.untapered {
            let mean = (g[j][0] + g[j][1]) / 2.0;
            g[j] = [mean, mean];
        }
        adam_step(&mut w, &g, &mut m, &mut v, epoch, settings.learning_rate);
        bar.inc(1);
        let Some(patience) = settings.patience else {
            continue;
        };
        if epoch % 10 == 0 {
            let l = check(&w);
            bar.set_message(format!("held-out loss {l:.5}"));
            if l < best_loss - min_gain {
                best_loss = l;
                best = w.clone();
                since_best = 0;
            } else {
                since_best += 1;
                if since_best >= patience {
                    break;
                }
            }
        }
    }
    if settings.patience.is_none() {
        best_loss = check(&w);
        best = w;
    }
    Fit {
        train_loss: [loss(train, start), loss(train, &best)],
        holdout_loss: [start_holdout, best_loss],
        weights: best,
        scale,
        epochs: run,
    }
}

/// The held-out gain that counts as progress in early stopping, at a scale K of 1 or more.
const MIN_GAIN: f64 = 1e-7;

/// Splits positions by game into (training, held out), a seeded share `holdout` of games out.
pub fn split(data: &Dataset, holdout: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let held = |g: u32| {
        let mut h = variantlab_engine::zobrist::SplitMix64(seed ^ (g as u64).wrapping_mul(0x9e37));
        (h.next() as f64 / u64::MAX as f64) < holdout
    };
    (0..data.len()).partition(|&i| !held(data.game[i]))
}

/// The evaluation a tune starts from: a file, the variant's default (its search, network
/// included, rescores; its tuned weights are the start), its tuned weights alone (`linear`),
/// or the classic one.
fn starting_choice(from: &str) -> Result<EvalChoice> {
    Ok(match from {
        "classic" => EvalChoice::Classic,
        "default" => EvalChoice::Default,
        "linear" => EvalChoice::Linear,
        path => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("reading --from {path}"))?;
            EvalChoice::Weights(std::sync::Arc::new(
                EvalWeights::parse(&text).with_context(|| format!("--from {path}"))?,
            ))
        }
    })
}

/// The starting weights of a tune (material only for the classic evaluation, which the fit
/// then brings near the classic one, [`mimic_classic`]).
fn starting_weights<G: Game>(choice: &EvalChoice, from: &str) -> Result<Evaluator> {
    // A tune fits weights: where the default is a network, it starts from the weights beside it.
    let weights = match choice {
        EvalChoice::Default => &EvalChoice::Linear,
        other => other,
    };
    Ok(weights
        .evaluator::<G>()
        .with_context(|| format!("--from {from}"))?
        .unwrap_or_else(Evaluator::material_only::<G>))
}

/// The L2 penalties `--l2 auto` tries. Too strong a penalty holds every weight near its start
/// (chess at 1e-6: a passed pawn on the seventh rank learned 9 cp); too weak a one lets
/// weights seen in few positions fit noise. The penalty is added to the *mean* loss, so what
/// one value does depends on the number of positions: no single value suits every data set.
pub const L2_GRID: [f64; 6] = [1e-8, 3e-8, 1e-7, 3e-7, 1e-6, 3e-6];

/// `variantlab tune`.
///
/// # Errors
/// Bad input (see [`read_positions`]), bad starting weights, an unwritable output.
pub fn run(o: &TuneOptions) -> Result<()> {
    let Some(first) = o.games.first() else {
        bail!("give at least one run folder with --games");
    };
    if !(0.0..1.0).contains(&o.holdout) {
        bail!("--holdout must be at least 0 and below 1");
    }
    if o.l2.is_none() && o.holdout == 0.0 {
        bail!(
            "--l2 auto chooses by the held-out loss: give --holdout above 0 or a number for --l2"
        );
    }
    if o.rescore_nodes.is_some() && o.score_weight == 0.0 {
        bail!("--rescore-nodes gives the scores that --score-weight blends in: give --score-weight above 0");
    }
    if o.rescore_engine.is_some() && o.rescore_nodes.is_none() {
        bail!("--rescore-engine searches each position with --rescore-nodes nodes: give --rescore-nodes");
    }
    let kind = crate::run::recorded::read_run(first)?.variant;
    with_variant!(kind, G => tune::<G>(o, kind.name()))
}

fn tune<G: Game>(o: &TuneOptions, variant: &str) -> Result<()> {
    let started = std::time::Instant::now();
    let (mut data, positions) =
        read_positions_keeping::<G>(&o.games, o.skip_plies, o.rescore_nodes.is_some())?;
    let (train, holdout) = split(&data, o.holdout, o.seed);
    if train.is_empty() {
        bail!("no training positions left after holding out {}", o.holdout);
    }
    let choice = starting_choice(&o.from)?;
    let start = starting_weights::<G>(&choice, &o.from)?;
    let mut start_w: Vec<[f64; 2]> = start
        .weights()
        .iter()
        .map(|w| [w[0] as f64, w[1] as f64])
        .collect();
    if let Some(nodes) = o.rescore_nodes {
        let print = fingerprint(&data, &start_w, &o.from, nodes);
        let cache = crate::tune::rescore::cache_path(&o.out);
        let rescorer = match &o.rescore_engine {
            Some(command) => crate::tune::rescore::Rescorer::Engine {
                command: command.clone(),
                variant: variant.to_string(),
            },
            None => crate::tune::rescore::Rescorer::Own(choice.clone()),
        };
        let scores =
            crate::tune::rescore::rescore(&positions, &rescorer, nodes, print, &cache, o.quiet)?;
        let moved: f64 = data
            .score
            .iter()
            .zip(&scores)
            .map(|(&a, &b)| (a as f64 - b as f64).abs())
            .sum();
        crate::output::out!(
            "rescored {} positions at {nodes} nodes: {:.0} cp from the recorded scores on average",
            scores.len(),
            moved / scores.len().max(1) as f64
        );
        data.score = scores.into_iter().map(|s| s as f32).collect();
        drop(positions);
    }
    if o.from == "classic" {
        start_w = mimic_classic(&data, &train, &start_w);
    }
    let bar = if o.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(o.epochs as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("tune {prefix} {bar:30} {pos}/{len} epochs {msg} [{elapsed}]")
            .expect("template"),
    );
    let grid = o.l2.map_or(L2_GRID.to_vec(), |l| vec![l]);
    let mut tried: Vec<(f64, f64)> = Vec::new();
    let mut chosen: Option<(f64, Fit)> = None;
    for &l2 in &grid {
        bar.reset();
        bar.set_prefix(format!("l2 {l2:e}"));
        let settings = FitSettings {
            scale: o.scale,
            ..FitSettings::tune(start_w.len(), l2, o.score_weight, o.epochs)
        };
        let f = fit(&data, &train, &holdout, &start_w, &settings, &bar);
        tried.push((l2, f.holdout_loss[1]));
        if chosen
            .as_ref()
            .is_none_or(|(_, best)| f.holdout_loss[1] < best.holdout_loss[1])
        {
            chosen = Some((l2, f));
        }
    }
    bar.finish_and_clear();
    let (l2, f) = chosen.expect("at least one L2 tried");
    let l2_note = if tried.len() > 1 {
        let losses: Vec<String> = tried
            .iter()
            .map(|(l, loss)| format!("{l:e}: {loss:.5}"))
            .collect();
        format!("{l2:e} (lowest held-out loss of {})", losses.join(", "))
    } else {
        format!("{l2:e}")
    };
    let pos = G::start();
    let layout = Layout::of(&pos);
    let rounded: Vec<[i32; 2]> = f
        .weights
        .iter()
        .map(|w| [w[0].round() as i32, w[1].round() as i32])
        .collect();
    let sources: Vec<String> = o
        .games
        .iter()
        .map(|d| {
            crate::run::recorded::read_run(d).map_or_else(
                |_| d.display().to_string(),
                |r| {
                    format!(
                        "{} (engine {}, nodes {}, openings {}, {} games)",
                        d.display(),
                        r.white.name,
                        r.nodes.map_or("-".into(), |n| n.to_string()),
                        r.openings,
                        r.games
                    )
                },
            )
        })
        .collect();
    let produced = Provenance {
        method: "texel".into(),
        games: data.games as u64,
        positions: data.len() as u64,
        settings: format!(
            "games: {}; from {}, holdout {}, l2 {}, score_weight {}{}{}, skip_plies {}, seed {}, {} epochs",
            sources.join("; "),
            o.from,
            o.holdout,
            l2_note,
            o.score_weight,
            o.rescore_nodes.map_or(String::new(), |n| match &o.rescore_engine {
                Some(e) => format!(" (scores rescored by {e} at {n} nodes)"),
                None => format!(" (scores rescored at {n} nodes)"),
            }),
            o.scale.map_or(String::new(), |k| format!(", scale {k} (given, not fitted)")),
            o.skip_plies,
            o.seed,
            f.epochs
        ),
        date: today(),
        version: format!(
            "variantlab {}{}",
            env!("CARGO_PKG_VERSION"),
            crate::run::format::git_commit().map_or(String::new(), |c| format!(" ({c})"))
        ),
        holdout_loss: Some(f.holdout_loss),
        scale: Some(f.scale),
    };
    let w = EvalWeights::from_dense(
        pos.variant_name(),
        &pos.material_kinds(),
        layout,
        &rounded,
        produced,
    );
    if let Some(parent) = o.out.parent() {
        if !parent.as_os_str().is_empty() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
    }
    crate::output::replace_file(&o.out, w.to_json().as_bytes())?;
    crate::output::out!(
        "{}: {} positions from {} games ({} training, {} held out); K = {:.3}",
        pos.variant_name(),
        data.len(),
        data.games,
        train.len(),
        holdout.len(),
        f.scale
    );
    crate::output::out!(
        "loss: training {:.5} -> {:.5}, held out {:.5} -> {:.5} after {} epochs ({:.0} s)",
        f.train_loss[0],
        f.train_loss[1],
        f.holdout_loss[0],
        f.holdout_loss[1],
        f.epochs,
        started.elapsed().as_secs_f64()
    );
    crate::output::out!("l2 {l2_note}");
    for k in &w.kinds {
        crate::output::out!(
            "  {:<16} material {:>5} {:>5}  mobility {:>3} {:>3}",
            k.name,
            k.material[0],
            k.material[1],
            k.mobility[0],
            k.mobility[1]
        );
    }
    crate::output::out!("wrote {}", o.out.display());
    Ok(())
}

/// Today's date (UTC) as YYYY-MM-DD.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = crate::output::civil_date(secs);
    format!("{y:04}-{m:02}-{d:02}")
}
