//! The generalised sequential probability ratio test over pentanomial counts: the exact
//! log-likelihood ratio for logistic and normalised Elo bounds, and the test itself.

use super::*;

/// Prior count given to each *empty* pentanomial bin before the LLR and nElo are
/// computed, as fishtest's `regularize` does (non-empty bins are left alone). Without
/// it an empty bin would have probability zero under every fitted distribution and the
/// likelihood ratio could not move mass into it.
pub const PENTA_PRIOR: f64 = 1e-3;

/// The per-game score of each pentanomial bin: a pair scoring `i` half-points averages
/// `i / 4` per game.
pub(super) const PAIR_SCORE: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Counts with empty bins set to [`PENTA_PRIOR`]; `None` with no pairs at all (the
/// prior alone is not data).
pub(super) fn regularized(penta: &[u64; 5]) -> Option<[f64; 5]> {
    if penta.iter().all(|&c| c == 0) {
        return None;
    }
    Some(penta.map(|c| if c == 0 { PENTA_PRIOR } else { c as f64 }))
}

/// Mean, variance, third and fourth central moments of the pair score under the
/// probabilities `p` (summing to 1).
pub(super) fn moments(p: &[f64; 5]) -> (f64, f64, f64, f64) {
    let mu: f64 = p.iter().zip(PAIR_SCORE).map(|(p, a)| p * a).sum();
    let central = |k: i32| -> f64 {
        p.iter()
            .zip(PAIR_SCORE)
            .map(|(p, a)| p * (a - mu).powi(k))
            .sum()
    };
    (mu, central(2), central(3), central(4))
}

/// Normalises counts to probabilities.
pub(super) fn to_pdf(counts: &[f64; 5]) -> [f64; 5] {
    let n: f64 = counts.iter().sum();
    counts.map(|c| c / n)
}

/// Solves the secular equation `Σ p̂_i d_i / (1 + λ d_i) = 0` for `λ` and returns
/// `p̂_i / (1 + λ d_i)`: the distribution closest to `p̂` in Kullback–Leibler terms
/// (the maximum-likelihood one) among those with `Σ p_i d_i = 0`.
///
/// The left side falls strictly in `λ` on the interval where every `1 + λ d_i` is
/// positive and runs from `+∞` to `-∞` across it, so bisection finds the one root;
/// it runs until the interval is a few ulps of `1 + λ d` wide. `None` when the `d_i`
/// (over bins with mass) do not take both signs: no such distribution exists.
fn closest_with_zero_mean(phat: &[f64; 5], d: &[f64; 5]) -> Option<[f64; 5]> {
    let dmax = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let dmin = d.iter().copied().fold(f64::INFINITY, f64::min);
    if !(dmax > 0.0 && dmin < 0.0) {
        return None;
    }
    let f = |l: f64| -> f64 { phat.iter().zip(d).map(|(p, d)| p * d / (1.0 + l * d)).sum() };
    let (mut lo, mut hi) = (-1.0 / dmax, -1.0 / dmin);
    loop {
        let mid = 0.5 * (lo + hi);
        // A few ulps of `1 + λ d` are all the precision the likelihood can use.
        if hi - lo <= 4.0 * f64::EPSILON * (1.0 + mid.abs()) {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let l = 0.5 * (lo + hi);
    let p: [f64; 5] = std::array::from_fn(|i| phat[i] / (1.0 + l * d[i]));
    // Renormalise away the last rounding.
    Some(to_pdf(&p))
}

/// The maximum-likelihood pentanomial distribution given the observed frequencies
/// `phat`, under the constraint that the expected per-game score is `s`.
fn mle_with_score(phat: &[f64; 5], s: f64) -> Option<[f64; 5]> {
    closest_with_zero_mean(phat, &PAIR_SCORE.map(|a| a - s))
}

/// The maximum-likelihood pentanomial distribution given `phat` under the constraint
/// that the pair-level t-value `(mu - 1/2) / sigma` equals `t`.
///
/// With the Lagrange condition linearised around the current `(mu, sigma)`, the
/// optimum has the form `p̂_i / (1 + λ v_i)` with
/// `v_i = (a_i - 1/2) - t (sigma² + (a_i - mu)²) / (2 sigma)` (so that `Σ p_i v_i`
/// is exactly the constraint `mu - 1/2 - t sigma`); iterating until the distribution
/// stops changing gives the constrained maximum.
///
/// The iteration starts from the uniform distribution, as fishtest and fastchess do,
/// not from `phat`: on a lopsided sample (one bin holding nearly every pair) `phat`'s
/// spread is so small that every `v_i` has the same sign, no distribution of that form
/// exists, and the test would be stuck at an LLR of 0. From the uniform start the
/// `v_i` straddle zero for any `t` the SPRT uses. A step that finds no root (which a
/// far-off `t` could still give) ends the iteration at the last distribution found.
fn mle_with_t_value(phat: &[f64; 5], t: f64) -> Option<[f64; 5]> {
    mle_with_t_value_from(phat, t, [0.2; 5])
}

/// [`mle_with_t_value`] iterated from `start`: for a `t` far from the sample's (where the
/// uniform start has no root, |t| above about 0.94) the interval search starts from the
/// solution at a nearer `t`.
fn mle_with_t_value_from(phat: &[f64; 5], t: f64, start: [f64; 5]) -> Option<[f64; 5]> {
    let mut p = start;
    let mut found = false;
    for _ in 0..500 {
        let (mu, var, _, _) = moments(&p);
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            break;
        }
        let v = PAIR_SCORE.map(|a| (a - 0.5) - t * (var + (a - mu).powi(2)) / (2.0 * sigma));
        let Some(next) = closest_with_zero_mean(phat, &v) else {
            break;
        };
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        found = true;
        if change < 1e-15 {
            break;
        }
    }
    found.then_some(p)
}

/// Profile-likelihood interval for the pair-level t-value `(mu - 1/2) / sigma` of the
/// (regularised) pentanomial `counts`: the `t` whose constrained maximum-likelihood
/// distribution ([`mle_with_t_value`]) is within `z² / 2` of the unconstrained one in
/// log-likelihood (Wilks). Unlike a symmetric delta-method interval it follows the shape of
/// the likelihood, so a one-sided sample (a build that lost nearly every game) gets an
/// interval on its own side of zero. An end that the likelihood does not bound within
/// `T_SPAN` of the estimate is that far.
pub(super) fn t_value_interval(counts: &[f64; 5], z: f64) -> (f64, f64) {
    let phat = to_pdf(counts);
    let (mu, var, _, _) = moments(&phat);
    let t_hat = (mu - 0.5) / var.sqrt();
    // Twice the log-likelihood ratio of the best distribution with t-value `t`, less z²,
    // and that distribution (the start for the next `t` further out).
    let excess = |t: f64, start: [f64; 5]| -> Option<(f64, [f64; 5])> {
        let p = mle_with_t_value_from(&phat, t, start)?;
        Some((2.0 * llr_of(counts, &p, &phat) - z * z, p))
    };
    let end = |direction: f64| -> f64 {
        // Walk out in small steps (each solution starting the next) until the likelihood
        // has fallen far enough, then bisect between the last two points.
        let (mut inside, mut at) = (t_hat, phat);
        let limit = t_hat + direction * T_SPAN;
        let mut outside = loop {
            let t = inside + direction * 0.05;
            if (t - t_hat).abs() >= T_SPAN {
                return limit;
            }
            match excess(t, at) {
                Some((e, _)) if e > 0.0 => break t,
                Some((_, p)) => (inside, at) = (t, p),
                // No distribution found: the data set no bound on this side.
                None => return limit,
            }
        };
        for _ in 0..100 {
            if (outside - inside).abs() < 1e-10 {
                break;
            }
            let mid = 0.5 * (inside + outside);
            match excess(mid, at) {
                Some((e, p)) if e <= 0.0 => (inside, at) = (mid, p),
                _ => outside = mid,
            }
        }
        0.5 * (inside + outside)
    };
    (end(-1.0), end(1.0))
}

/// How far from the estimate an end of the t-value interval may lie (nElo about 2,500):
/// where the likelihood has not fallen by then, the data set no bound.
pub(super) const T_SPAN: f64 = 10.0;

/// Log-likelihood ratio `Σ n_i ln(p1_i / p0_i)` of two fitted distributions.
fn llr_of(counts: &[f64; 5], p0: &[f64; 5], p1: &[f64; 5]) -> f64 {
    (0..5).map(|i| counts[i] * (p1[i] / p0[i]).ln()).sum()
}

/// Exact generalised log-likelihood ratio of `H1: score = s1` against
/// `H0: score = s0` for pentanomial counts: each hypothesis is represented by the
/// pentanomial distribution of highest likelihood whose expected per-game score is
/// `s0` (resp. `s1`), as fishtest's `LLRcalc.LLR` and fastchess compute it, with empty
/// bins regularised ([`PENTA_PRIOR`]). It grows linearly in the number of pairs at any
/// draw rate, unlike the Brownian approximation it replaces (which grew like k² on k
/// drawn pairs).
///
/// Returns 0 with no pairs, never NaN.
pub fn gsprt_llr(penta: &[u64; 5], s0: f64, s1: f64) -> f64 {
    let Some(counts) = regularized(penta) else {
        return 0.0;
    };
    let phat = to_pdf(&counts);
    match (mle_with_score(&phat, s0), mle_with_score(&phat, s1)) {
        (Some(p0), Some(p1)) => llr_of(&counts, &p0, &p1),
        _ => 0.0,
    }
}

/// Exact generalised LLR for normalised-Elo bounds: each hypothesis is the
/// maximum-likelihood distribution whose per-game t-value
/// `(mu - 1/2) / sigma_pg` is `nelo / (800 / ln 10)` (as fishtest's
/// `LLR_normalized`); the pair-level t-value is that times `sqrt 2`.
pub fn gsprt_llr_normalized(penta: &[u64; 5], nelo0: f64, nelo1: f64) -> f64 {
    let Some(counts) = regularized(penta) else {
        return 0.0;
    };
    let phat = to_pdf(&counts);
    let t = |nelo: f64| nelo / NELO_DIVIDED_BY_NT * std::f64::consts::SQRT_2;
    match (
        mle_with_t_value(&phat, t(nelo0)),
        mle_with_t_value(&phat, t(nelo1)),
    ) {
        (Some(p0), Some(p1)) => llr_of(&counts, &p0, &p1),
        _ => 0.0,
    }
}

/// How the SPRT's Elo bounds are interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EloModel {
    /// Bounds are logistic Elo: `s = 1 / (1 + 10^(-elo/400))`.
    Logistic,
    /// Bounds are normalised Elo (see [`Stats::normalized_elo`]).
    Normalized,
}

/// Decision of a sequential test at the current sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtStatus {
    /// LLR still between the bounds: play more pairs.
    Continue,
    /// LLR at or below the lower bound: accept `H0` (elo = elo0).
    AcceptH0,
    /// LLR at or above the upper bound: accept `H1` (elo = elo1).
    AcceptH1,
}

/// Sequential probability ratio test on pentanomial counts, fishtest style.
///
/// Lets a match stop as soon as the data decide between `elo = elo0` and
/// `elo = elo1` with error rates `alpha` (false accept of H1) and `beta`
/// (false accept of H0), which typically needs far fewer games than a
/// fixed-length match. The LLR is the exact generalised one ([`gsprt_llr`],
/// [`gsprt_llr_normalized`]); the Wald bounds are `ln(beta / (1 - alpha))` and
/// `ln((1 - beta) / alpha)`. fishtest's dynamic-overshoot correction is not applied.
///
/// `alpha` and `beta` must lie in `(0, 1)`; `elo0 < elo1` is the usual set-up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative hypothesis.
    pub elo1: f64,
    /// Type I error: probability of accepting H1 when elo = elo0.
    pub alpha: f64,
    /// Type II error: probability of accepting H0 when elo = elo1.
    pub beta: f64,
    /// Scale of `elo0`/`elo1`.
    pub model: EloModel,
}

impl Sprt {
    /// Wald's stopping bounds `(ln(beta/(1-alpha)), ln((1-beta)/alpha))`;
    /// ±2.944 for `alpha = beta = 0.05`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 for the pentanomial counts; 0 with no
    /// pairs.
    pub fn llr(&self, penta: &[u64; 5]) -> f64 {
        match self.model {
            EloModel::Logistic => {
                gsprt_llr(penta, score_from_elo(self.elo0), score_from_elo(self.elo1))
            }
            EloModel::Normalized => gsprt_llr_normalized(penta, self.elo0, self.elo1),
        }
    }

    /// Whether to stop: [`SprtStatus::AcceptH1`] once the LLR reaches the
    /// upper bound, [`SprtStatus::AcceptH0`] once it reaches the lower one.
    pub fn status(&self, penta: &[u64; 5]) -> SprtStatus {
        let llr = self.llr(penta);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sprt_bounds() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        // ln(0.05 / 0.95) = -ln 19 = -2.944439.
        let (lo, hi) = sprt.bounds();
        assert_close!(lo, -2.944_438_979_166_44, 1e-12);
        assert_close!(hi, 2.944_438_979_166_44, 1e-12);
        let asym = Sprt {
            alpha: 0.05,
            beta: 0.1,
            ..sprt
        };
        // (ln(0.1/0.95), ln(0.9/0.05)) = (-2.2513, 2.8904).
        let (lo, hi) = asym.bounds();
        assert_close!(lo, (0.1f64 / 0.95).ln(), 1e-15);
        assert_close!(hi, 18f64.ln(), 1e-15);
    }

    /// Exact GSPRT values. The first three are the figures fishtest's reference
    /// formulas (`LLRcalc.LLR_logistic`, `LLR_normalized`) give, as quoted in issue 18;
    /// the others come from an independent Python implementation that solves the
    /// Lagrange condition by Newton's method instead of bisection
    /// (`docs/statistics.md`, "Checking the SPRT").
    #[test]
    #[allow(clippy::approx_constant)] // 0.318 is fishtest's LLR, not 1/π
    fn exact_llr_known_values() {
        let logistic = |elo1: f64| Sprt {
            elo0: 0.0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        let normalized = |elo1: f64| Sprt {
            model: EloModel::Normalized,
            ..logistic(elo1)
        };
        // Issue 18's table (fishtest): ten drawn pairs, 6 WD + 4 WW, and normalised.
        assert_close!(logistic(10.0).llr(&[0, 0, 10, 0, 0]), -0.286, 5e-4);
        assert_close!(logistic(10.0).llr(&[0, 0, 0, 6, 4]), 0.284, 5e-4);
        assert_close!(normalized(5.0).llr(&[0, 0, 2, 11, 7]), 0.318, 5e-4);
        // Full precision against the independent implementation.
        for (penta, elo1, expected) in [
            ([0, 0, 10, 0, 0], 10.0, -0.285_795_862_019_030_3),
            ([0, 0, 0, 6, 4], 10.0, 0.283_694_182_604_477_2),
            ([1, 3, 6, 6, 4], 10.0, 0.335_472_454_454_500_1),
            ([0, 0, 0, 0, 10], 10.0, 0.283_737_482_840_293_9),
            ([10, 0, 0, 0, 0], 10.0, -0.292_023_869_750_430_65),
            ([0, 0, 7, 0, 0], 5.0, -0.096_300_502_355_274_3),
        ] {
            assert_close!(logistic(elo1).llr(&penta), expected, 1e-9);
        }
        for (penta, expected) in [
            ([0, 0, 2, 11, 7], 0.317_778_840_993_234_3),
            ([1, 3, 6, 6, 4], 0.147_538_939_420_539_86),
            ([0, 0, 7, 0, 0], -0.001_779_112_973_145_520_8),
            ([0, 0, 0, 0, 10], 0.201_446_538_726_929_39),
        ] {
            assert_close!(normalized(5.0).llr(&penta), expected, 1e-7);
        }
        // Swapping the hypotheses flips the sign.
        assert_close!(
            gsprt_llr(&PENTA, 0.55, 0.5),
            -gsprt_llr(&PENTA, 0.5, 0.55),
            1e-12
        );
    }

    /// The LLR grows linearly, not quadratically, in the number of drawn pairs: the
    /// flaw of the Brownian approximation that made drawish variants accept H0 early.
    #[test]
    fn llr_is_linear_in_drawn_pairs() {
        let l10 = gsprt_llr(&[0, 0, 10, 0, 0], 0.5, score_from_elo(10.0));
        let l100 = gsprt_llr(&[0, 0, 100, 0, 0], 0.5, score_from_elo(10.0));
        assert!(l10 < 0.0 && l10 > -0.3, "{l10}");
        assert!((l100 / l10 - 10.0).abs() < 0.5, "{l10} {l100}");
    }

    #[test]
    fn sprt_decisions() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        // 100 × PENTA: mu = 0.6125 ≫ s1, LLR = 100 × (per-20-pair value) > 2.94.
        let strong = PENTA.map(|c| c * 100);
        assert!(sprt.llr(&strong) > 2.95);
        assert_eq!(sprt.status(&strong), SprtStatus::AcceptH1);
        let mut weak = strong;
        weak.reverse(); // mu = 0.3875 ≪ s0
        assert!(sprt.llr(&weak) < -2.95);
        assert_eq!(sprt.status(&weak), SprtStatus::AcceptH0);
        let normalized = Sprt {
            model: EloModel::Normalized,
            ..sprt
        };
        assert_eq!(normalized.status(&strong), SprtStatus::AcceptH1);
        assert_eq!(normalized.status(&weak), SprtStatus::AcceptH0);
    }

    #[test]
    fn regularisation_keeps_degenerate_samples_finite() {
        // Only WW pairs: a bounded LLR (0.2837, see exact_llr_known_values), not the
        // 378 the approximation gave for ten won pairs.
        let ww = [0, 0, 0, 0, 10];
        let s = Stats {
            penta: ww,
            ..Stats::default()
        };
        assert_eq!(s.pair_score(), 1.0);
        assert!(s.normalized_elo().is_finite() && s.normalized_elo() > 0.0);
        let dd = [0, 0, 7, 0, 0];
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let sprt = Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05,
                model,
            };
            for p in [dd, ww, [3, 0, 0, 0, 0]] {
                let llr = sprt.llr(&p);
                assert!(llr.is_finite() && llr.abs() < 1.0, "{model:?} {p:?}: {llr}");
            }
        }
    }
}
