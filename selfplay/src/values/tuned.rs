//! Piece values read off a fitted evaluation (`variantlab values --method tuned`).
//!
//! The material-only regression lets everything that goes with a piece speak through its
//! count: a pawn's advance, a knight's poor outpost. The tuned evaluation gives those their
//! own features (a cell table per kind, mobility), so its material weight is the piece's
//! worth with the position held apart. A piece's *value* is then its material weight plus
//! its average cell and mobility terms over the recorded positions (so the value does not
//! depend on how the fit splits a constant between the material weight and the cell table,
//! which the data cannot tell apart), its share of the pair bonus and of the per-kind terms (files, outposts, royal-zone attacks),
//! and for the calibration kind of a variant with pawn structure the average pawn terms per
//! pawn (passed, doubled, isolated, supported, shelter ...: what a pawn is worth with its
//! usual structure), blended between middle game and end game at the
//! positions' mean phase, in units of the pawn's value (or of the unit asked for).
//!
//! Honesty guards: the fit starts every non-royal kind at one common material weight (the
//! mean of the defaults), puts no L2 penalty on material, and uses the game results only
//! (the recorded search scores were made with the default values and would pull towards
//! them). Intervals: a percentile bootstrap over games (positions of one game share its
//! result). Each replicate is fitted cold, from the same flat start and for as many epochs
//! as the full fit: a replicate started from the full fit's weights stays near them and
//! understates the spread. The interval is the replicates' 2.5% and 97.5% quantiles, not
//! the estimate ± 1.96 standard deviations (which is symmetric where the ratio to the unit
//! is not, and reaches below zero for a poorly measured piece). Where the unit's own value
//! is not clearly positive across the replicates (its interval reaches zero), no value is
//! estimable, as in the other methods.

use crate::stats::{fixed, quantile_sorted};
use crate::tune::{fit, mimic_classic, read_positions, split, Dataset, FitSettings};
use crate::values::row::{pawn_kind, unit_kind, ValueRow, UNIT_NOTE};
use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use variantlab_engine::eval::{Evaluator, KindTerm, Layout};
use variantlab_engine::game::Game;
use variantlab_engine::zobrist::SplitMix64;

/// Replicates by default: with 100, the 2.5% and 97.5% quantiles are each an interpolation
/// between neighbouring order statistics near the ends, stable to about a tenth of the
/// interval's width (with 40, they were the second-smallest and second-largest replicate).
pub const DEFAULT_REPLICATES: u32 = 100;

/// Settings of the tuned-values method.
#[derive(Clone, Debug)]
pub struct TunedSettings {
    /// Bootstrap replicates (0: no intervals), each a cold fit of `epochs` epochs.
    pub bootstrap: u32,
    /// Epochs of the full fit and of every replicate.
    pub epochs: u32,
    /// L2 penalty on the non-material weights (per squared centipawn from the start).
    pub l2: f64,
    /// Seed of the held-out split and the resampling.
    pub seed: u64,
    /// The unit's key (`None`: the pawn); see [`unit_kind`].
    pub unit: Option<String>,
    /// No progress bar.
    pub quiet: bool,
}

impl Default for TunedSettings {
    fn default() -> Self {
        TunedSettings {
            bootstrap: DEFAULT_REPLICATES,
            epochs: 400,
            l2: 1e-6,
            seed: 1,
            unit: None,
            quiet: false,
        }
    }
}

/// Each kind's value in centipawns under weights `w`: material plus the average cell,
/// mobility, pair and per-kind terms of its pieces (and, for the `pawn` kind, the average
/// pawn structure terms), at middle-game share `phase`. `None` for a kind no recorded position
/// has on the board.
fn kind_values(
    w: &[[f64; 2]],
    data: &Dataset,
    layout: Layout,
    phase: f64,
    pawn: usize,
) -> Vec<Option<f64>> {
    let per_piece =
        |j: usize, p: usize, pieces: u64| w[j][p] * data.totals[j] as f64 / pieces as f64;
    (0..layout.kinds)
        .map(|k| {
            let cells: Vec<(usize, u64)> = (0..layout.cells)
                .map(|c| layout.cell(k, c))
                .map(|j| (j, data.totals[j]))
                .filter(|&(_, n)| n > 0)
                .collect();
            let pieces: u64 = cells.iter().map(|c| c.1).sum();
            if pieces == 0 {
                return None;
            }
            let mobility = data.totals[layout.mobility(k)] as f64 / pieces as f64;
            let term = |p: usize| {
                let cell: f64 =
                    cells.iter().map(|&(j, n)| w[j][p] * n as f64).sum::<f64>() / pieces as f64;
                let mut structure = std::iter::once(layout.pair(k))
                    .chain(KindTerm::ALL.map(|t| layout.kind_term(k, t)))
                    .map(|j| per_piece(j, p, pieces))
                    .sum::<f64>();
                if k == pawn && layout.pawn_ranks > 0 {
                    structure += layout
                        .pawn_terms()
                        .into_iter()
                        .map(|j| per_piece(j, p, pieces))
                        .sum::<f64>();
                }
                w[layout.material(k)][p] + cell + w[layout.mobility(k)][p] * mobility + structure
            };
            Some(phase * term(0) + (1.0 - phase) * term(1))
        })
        .collect()
}

/// Piece values in units (the pawn by default), with bootstrap intervals, from the recorded
/// games in `dirs` (all of variant `G`).
///
/// # Errors
/// Those of [`read_positions`]; a variant without a calibration kind.
pub fn tuned<G: Game>(dirs: &[PathBuf], settings: &TunedSettings) -> Result<Vec<ValueRow>> {
    let start_pos = G::start();
    let kinds = start_pos.material_kinds();
    let Some(pawn) = pawn_kind(&kinds) else {
        bail!("{}: no kind to measure values in", start_pos.variant_name());
    };
    // The pawn keeps the pawn-structure terms; the unit (the pawn by default) divides.
    let unit = unit_kind(&kinds, settings.unit.as_deref())?;
    let layout = Layout::of(&start_pos);
    let data = read_positions::<G>(dirs, 0)?;
    let (train, holdout) = split(&data, 0.1, settings.seed);
    if train.is_empty() || holdout.is_empty() {
        bail!(
            "too few games ({}) to hold some out: record more",
            data.games
        );
    }
    // The classic evaluation's positional terms, then one material weight for every
    // non-royal kind, so the start says nothing about which piece is worth more.
    let classic: Vec<[f64; 2]> = Evaluator::material_only::<G>()
        .weights()
        .iter()
        .map(|w| [w[0] as f64, w[1] as f64])
        .collect();
    let mut start = mimic_classic(&data, &train, &classic);
    let priced: Vec<usize> = (0..kinds.len()).filter(|&k| kinds[k].1 > 0).collect();
    let flat = priced.iter().map(|&k| kinds[k].1 as f64).sum::<f64>() / priced.len() as f64;
    for &k in &priced {
        start[layout.material(k)] = [flat, flat];
    }
    let mut l2 = vec![settings.l2; start.len()];
    for k in 0..kinds.len() {
        l2[layout.material(k)] = 0.0;
    }
    let full = FitSettings {
        l2,
        score_weight: 0.0,
        epochs: settings.epochs,
        learning_rate: 4.0,
        patience: None,
        scale: None,
        // One material weight per kind for the whole game: a tapered pair would let the
        // end-game pawn stand in for passed pawns and promotion races.
        untapered: (0..kinds.len()).map(|k| layout.material(k)).collect(),
    };
    let total = settings.epochs as u64 * (1 + settings.bootstrap as u64);
    let bar = if settings.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total)
    };
    bar.set_style(
        ProgressStyle::with_template("tuned values {bar:30} {pos}/{len} epochs {msg} [{elapsed}]")
            .expect("template"),
    );
    bar.set_message("full fit");
    let f = fit(&data, &train, &holdout, &start, &full, &bar);
    let phase = data.phase.iter().map(|&p| p as f64).sum::<f64>() / data.len() as f64;
    let ratios = |v: &[Option<f64>]| -> Vec<Option<f64>> {
        let unit = v[unit].filter(|&u| u > 0.0);
        v.iter().map(|x| Some((*x)? / unit?)).collect()
    };
    let centipawns = kind_values(&f.weights, &data, layout, phase, pawn);
    let unit_cp = centipawns[unit];
    let point = ratios(&centipawns);
    // Bootstrap: resample games with replacement; the games left out check the loss.
    let mut replicates: Vec<Vec<Option<f64>>> = Vec::new();
    let mut unit_replicates: Vec<f64> = Vec::new();
    let per_game: Vec<Vec<usize>> = {
        let mut g = vec![Vec::new(); data.games as usize];
        for i in 0..data.len() {
            g[data.game[i] as usize].push(i);
        }
        g
    };
    for b in 0..settings.bootstrap {
        bar.set_message(format!("bootstrap {}/{}", b + 1, settings.bootstrap));
        let mut rng = SplitMix64(settings.seed ^ 0xb007_5742_u64.wrapping_mul(b as u64 + 1));
        let n = per_game.len() as u64;
        let mut times = vec![0u32; per_game.len()];
        for _ in 0..n {
            times[(rng.next() % n) as usize] += 1;
        }
        let mut rows = Vec::new();
        let mut out_of_bag = Vec::new();
        for (g, positions) in per_game.iter().enumerate() {
            if times[g] == 0 {
                out_of_bag.extend_from_slice(positions);
            }
            for _ in 0..times[g] {
                rows.extend_from_slice(positions);
            }
        }
        // Cold: the flat start and the full fit's settings; only the logistic's scale (a
        // property of the games, not of the values) is the full fit's.
        let replicate = FitSettings {
            scale: Some(f.scale),
            ..full.clone()
        };
        let r = fit(&data, &rows, &out_of_bag, &start, &replicate, &bar);
        let cp = kind_values(&r.weights, &data, layout, phase, pawn);
        unit_replicates.push(cp[unit].unwrap_or(0.0));
        replicates.push(ratios(&cp));
    }
    bar.finish_and_clear();
    // The unit must be clearly positive for any ratio to it to be estimable.
    let unit_low = percentile_interval(&unit_replicates).map(|(lo, _)| lo);
    let unit_unclear = unit_low.is_some_and(|lo| lo <= 0.0);
    let name = start_pos.variant_name();
    Ok((0..kinds.len())
        .map(|k| {
            let base = ValueRow {
                variant: name.to_string(),
                piece: crate::run::config::piece_key(kinds[k].0),
                method: "tuned".into(),
                value: None,
                interval: None,
                games: data.games as u64,
                note: String::new(),
            };
            if k == unit {
                return ValueRow {
                    value: Some(1.0),
                    note: UNIT_NOTE.into(),
                    ..base
                };
            }
            if kinds[k].1 == 0 {
                return ValueRow {
                    note: "left out: royal (never captured)".into(),
                    ..base
                };
            }
            let Some(cp) = centipawns[k] else {
                return ValueRow {
                    note: "left out: never on the board at a recorded position".into(),
                    ..base
                };
            };
            let Some(v) = point[k] else {
                return ValueRow {
                    note: format!(
                        "not estimable: the {}'s fitted value ({} cp) is not positive; play more games",
                        kinds[unit].0,
                        unit_cp.map_or("-".into(), |u| fixed(u, 0))
                    ),
                    ..base
                };
            };
            if unit_unclear {
                return ValueRow {
                    note: format!(
                        "not estimable: the {}'s own value ({} cp) has an interval reaching zero ({} cp); play more games",
                        kinds[unit].0,
                        unit_cp.map_or("-".into(), |u| fixed(u, 0)),
                        fixed(unit_low.unwrap_or(0.0), 0)
                    ),
                    ..base
                };
            }
            // A replicate where the unit came out non-positive has no ratio: it counts as
            // beyond either end, so the interval widens instead of silently dropping it.
            let lost = replicates.iter().filter(|r| r[k].is_none()).count();
            let xs: Vec<f64> = replicates.iter().filter_map(|r| r[k]).collect();
            let Some((low, high)) = percentile_interval(&xs).filter(|_| lost == 0) else {
                return ValueRow {
                    value: Some(v),
                    note: format!(
                        "{} cp; no interval: {}",
                        fixed(cp, 0),
                        if lost > 0 {
                            format!("the unit was not positive in {lost} replicates")
                        } else {
                            "give --bootstrap 2 or more".into()
                        }
                    ),
                    ..base
                };
            };
            if v < low || v > high {
                return ValueRow {
                    note: format!(
                        "not estimable: the fit ({}) lies outside its bootstrap interval [{}, {}] (refits on resampled games disagree with it); play more games",
                        fixed(v, 2),
                        fixed(low, 2),
                        fixed(high, 2)
                    ),
                    ..base
                };
            }
            ValueRow {
                value: Some(v),
                interval: Some((low, high)),
                note: format!(
                    "{} cp against the {}'s {} cp; percentile bootstrap: {} cold-started replicates",
                    fixed(cp, 0),
                    kinds[unit].0,
                    unit_cp.map_or("-".into(), |u| fixed(u, 0)),
                    xs.len(),
                ),
                ..base
            }
        })
        .collect())
}

/// The 2.5% and 97.5% quantiles of bootstrap replicates ([`quantile_sorted`]); `None` with
/// fewer than two.
fn percentile_interval(xs: &[f64]) -> Option<(f64, f64)> {
    if xs.len() < 2 {
        return None;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    Some((
        quantile_sorted(&sorted, 0.025),
        quantile_sorted(&sorted, 0.975),
    ))
}

#[cfg(test)]
mod tests {
    use super::percentile_interval;

    #[test]
    fn percentile_ends_interpolate_between_order_statistics() {
        assert_eq!(percentile_interval(&[1.0]), None);
        // 101 values 0..=100 in any order: the 2.5% and 97.5% quantiles are 2.5 and 97.5.
        let xs: Vec<f64> = (0..=100).rev().map(f64::from).collect();
        assert_eq!(percentile_interval(&xs), Some((2.5, 97.5)));
        // Skewed replicates give an asymmetric interval.
        let skewed = [1.0, 1.1, 1.2, 1.3, 5.0];
        let (lo, hi) = percentile_interval(&skewed).unwrap();
        assert!(
            (lo - 1.01).abs() < 1e-12 && (hi - 4.63).abs() < 1e-12,
            "{lo} {hi}"
        );
    }
}
