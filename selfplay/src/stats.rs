//! Match statistics for self-play: result counts, score and Elo estimates with
//! confidence intervals, normalised Elo, a fishtest-style SPRT, and game-length
//! summaries.
//!
//! Everything here is plain `std` so it can run inside worker threads and be
//! tested without any numerical crate. The conventions follow fishtest (the
//! Stockfish testing framework, `server/fishtest/stats/{LLRcalc,stat_util}.py`)
//! so numbers can be compared with what chess programmers are used to.
//!
//! Two kinds of counts are kept in [`Stats`]:
//!
//! * **Trinomial** counts `white_wins / draws / black_wins`, seen from White.
//!   They answer "how big is the first-move advantage in this variant?"
//!   ([`Stats::white_score`], [`Stats::elo_interval`], [`Stats::draw_rate`]).
//! * **Pentanomial** counts over colour-swapped game pairs, seen from the
//!   *first engine* of the match. Pairing cancels most of the opening and
//!   colour bias, so these are what engine-strength estimates and the SPRT use
//!   ([`Stats::pair_score`], [`Stats::normalized_elo`], [`Sprt`]).
//!
//! Every estimator is total: with no games it returns a neutral value
//! (score 0.5, Elo 0, LLR 0, interval `(0, 1)`) rather than NaN, so progress
//! displays can be drawn from the very first update.
//!
//! # Formulas
//!
//! * Logistic Elo: `elo(s) = -400 log10(1/s - 1)`, inverse
//!   `s(elo) = 1 / (1 + 10^(-elo/400))`.
//! * Pentanomial moments: with bin `i` holding `n_i` pairs and pair score
//!   `a_i = i/4` (the average per-game score of the pair), `N = sum n_i`,
//!   `mu = sum n_i a_i / N`, `var = sum n_i (a_i - mu)^2 / N`
//!   (population variance, as fishtest). Empty bins are regularised first,
//!   see [`PENTA_PRIOR`].
//! * Normalised Elo (fishtest): `sigma_pg = sqrt(2 var)` is the per-game
//!   standard deviation implied by the pair variance, `nt = (mu - 0.5) /
//!   sigma_pg`, and `nElo = nt * 800 / ln 10`.
//! * GSPRT LLR (fishtest `LLR_alt2`): `LLR = N (s1 - s0) (2 mu - s0 - s1) /
//!   (2 var)`.

use std::iter::Sum;
use std::ops::{Add, AddAssign};

/// Outcome of a single game from White's point of view.
///
/// A closed enum rather than a score so that [`Stats::add_game`] cannot be fed
/// an impossible value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won.
    WhiteWin,
    /// Drawn game.
    Draw,
    /// Black won.
    BlackWin,
}

/// Additive result counts for a match.
///
/// Counts (not averages) are stored so that shards computed on different
/// threads or machines can be merged exactly with `+`, `+=` or
/// [`Iterator::sum`], in any order and grouping.
///
/// The trinomial fields and `penta` are independent: [`Stats::add_game`]
/// updates only the former and [`Stats::add_pair`] only the latter, because a
/// pair does not know which colour each engine had. A tournament driver calls
/// `add_game` for each game and `add_pair` once per finished pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Games won by White.
    pub white_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games won by Black.
    pub black_wins: u64,
    /// Colour-swapped pairs by the first engine's total over the pair, in
    /// half-points: `[LL, LD, LW or DD, WD, WW]` (order within a pair
    /// ignored).
    pub penta: [u64; 5],
}

impl AddAssign for Stats {
    fn add_assign(&mut self, rhs: Self) {
        *self += &rhs;
    }
}

impl AddAssign<&Stats> for Stats {
    fn add_assign(&mut self, rhs: &Stats) {
        self.white_wins += rhs.white_wins;
        self.draws += rhs.draws;
        self.black_wins += rhs.black_wins;
        for (a, b) in self.penta.iter_mut().zip(rhs.penta) {
            *a += b;
        }
    }
}

impl Add for Stats {
    type Output = Stats;

    fn add(mut self, rhs: Self) -> Stats {
        self += &rhs;
        self
    }
}

impl Sum for Stats {
    fn sum<I: Iterator<Item = Stats>>(iter: I) -> Stats {
        iter.fold(Stats::default(), Add::add)
    }
}

impl<'a> Sum<&'a Stats> for Stats {
    fn sum<I: Iterator<Item = &'a Stats>>(iter: I) -> Stats {
        iter.fold(Stats::default(), |mut acc, s| {
            acc += s;
            acc
        })
    }
}

impl Stats {
    /// Number of games in the trinomial counts.
    pub fn games(&self) -> u64 {
        self.white_wins + self.draws + self.black_wins
    }

    /// Number of game pairs in the pentanomial counts.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// Records one finished game (trinomial counts only).
    pub fn add_game(&mut self, result: GameResult) {
        match result {
            GameResult::WhiteWin => self.white_wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BlackWin => self.black_wins += 1,
        }
    }

    /// Records one colour-swapped pair (pentanomial counts only), given the
    /// first engine's points in each of the two games.
    ///
    /// # Panics
    ///
    /// If either value is not exactly `0.0`, `0.5` or `1.0`: anything else is
    /// a bug in the caller, and silently rounding it would corrupt the counts.
    pub fn add_pair(&mut self, first_points_game1: f64, first_points_game2: f64) {
        let idx = half_points(first_points_game1) + half_points(first_points_game2);
        self.penta[idx] += 1;
    }

    /// White's mean score per game (win 1, draw 1/2, loss 0); 0.5 with no
    /// games, the neutral value, so callers need no special case.
    pub fn white_score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.white_wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Two-sided `confidence` interval for White's expected score, clamped to
    /// `[0, 1]`.
    ///
    /// Normal approximation with the trinomial variance of the per-game score,
    /// `var = (W (1-s)^2 + D (1/2-s)^2 + B s^2) / n`, giving
    /// `s ± z sqrt(var / n)`. Draws shrink the interval, which a binomial
    /// model would ignore. With no games the interval is `(0, 1)`; with zero
    /// variance (all games alike) it collapses to a point, as the normal
    /// approximation does.
    ///
    /// # Panics
    ///
    /// If `confidence` is not strictly between 0 and 1.
    pub fn score_interval(&self, confidence: f64) -> (f64, f64) {
        let z = z_for_confidence(confidence);
        let n = self.games();
        if n == 0 {
            return (0.0, 1.0);
        }
        let nf = n as f64;
        let s = self.white_score();
        let var = (self.white_wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.black_wins as f64 * s.powi(2))
            / nf;
        let half = z * (var / nf).sqrt();
        ((s - half).max(0.0), (s + half).min(1.0))
    }

    /// White's advantage in logistic Elo, [`elo_from_score`] of
    /// [`Stats::white_score`]: the colour bias of the variant.
    pub fn white_elo(&self) -> f64 {
        elo_from_score(self.white_score())
    }

    /// Confidence interval for White's Elo advantage, obtained by mapping the
    /// ends of [`Stats::score_interval`] through the monotone
    /// [`elo_from_score`] (so it is asymmetric around the estimate).
    ///
    /// # Panics
    ///
    /// If `confidence` is not strictly between 0 and 1.
    pub fn elo_interval(&self, confidence: f64) -> (f64, f64) {
        let (lo, hi) = self.score_interval(confidence);
        (elo_from_score(lo), elo_from_score(hi))
    }

    /// Fraction of drawn games; 0 with no games.
    pub fn draw_rate(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        self.draws as f64 / n as f64
    }

    /// Wilson score interval for the draw rate. Wilson rather than the normal
    /// approximation because draw rates in decisive variants sit near 0, where
    /// the normal interval degenerates.
    ///
    /// # Panics
    ///
    /// If `confidence` is not strictly between 0 and 1.
    pub fn draw_rate_interval(&self, confidence: f64) -> (f64, f64) {
        wilson_interval(self.draws, self.games(), z_for_confidence(confidence))
    }

    /// The first engine's mean score per game over the pentanomial pairs
    /// (`mu` in the module formulas, regularised as in [`PENTA_PRIOR`]);
    /// 0.5 with no pairs.
    pub fn pair_score(&self) -> f64 {
        PentaMoments::from_counts(&self.penta).map_or(0.5, |m| m.mu)
    }

    /// Confidence interval for the first engine's expected score from the
    /// pentanomial counts: `mu ± z sqrt(var / N)`, clamped to `[0, 1]`, as in
    /// fishtest's `get_elo`. The pair variance accounts for the correlation
    /// between the two games of a pair, which per-game counts cannot.
    /// `(0, 1)` with no pairs.
    ///
    /// # Panics
    ///
    /// If `confidence` is not strictly between 0 and 1.
    pub fn pair_score_interval(&self, confidence: f64) -> (f64, f64) {
        let z = z_for_confidence(confidence);
        match PentaMoments::from_counts(&self.penta) {
            None => (0.0, 1.0),
            Some(m) => {
                let half = z * (m.var / m.n).sqrt();
                ((m.mu - half).max(0.0), (m.mu + half).min(1.0))
            }
        }
    }

    /// The first engine's logistic Elo from the pentanomial counts.
    pub fn pair_elo(&self) -> f64 {
        elo_from_score(self.pair_score())
    }

    /// Elo interval from [`Stats::pair_score_interval`], ends mapped through
    /// [`elo_from_score`].
    ///
    /// # Panics
    ///
    /// If `confidence` is not strictly between 0 and 1.
    pub fn pair_elo_interval(&self, confidence: f64) -> (f64, f64) {
        let (lo, hi) = self.pair_score_interval(confidence);
        (elo_from_score(lo), elo_from_score(hi))
    }

    /// Normalised Elo of the first engine, as defined by fishtest.
    ///
    /// ```text
    /// sigma_pg = sqrt(2 * var)            // per-game std. dev. implied by pairs
    /// nElo     = (mu - 0.5) / sigma_pg * 800 / ln(10)
    ///          = (mu - 0.5) / sqrt(var) * 800 / ln(10) / sqrt(2)
    /// ```
    ///
    /// where `mu` and `var` are the mean and variance of the per-pair score
    /// `i/4` (see the module docs). The factor `sqrt(2)` converts the variance
    /// of a two-game average back to a per-game scale; `800 / ln 10` makes
    /// nElo equal logistic Elo for small differences when every game is
    /// decisive and independent. Unlike Elo, nElo measures how *detectable*
    /// a difference is, so it does not shrink with the draw rate and fixed
    /// SPRT bounds cost a similar number of games across time controls and
    /// variants. Returns 0 with no pairs.
    pub fn normalized_elo(&self) -> f64 {
        match PentaMoments::from_counts(&self.penta) {
            Some(m) if m.var > 0.0 => (m.mu - 0.5) / (2.0 * m.var).sqrt() * NELO_DIVIDED_BY_NT,
            _ => 0.0,
        }
    }
}

/// Maps an exact score of a single game to half-points.
fn half_points(points: f64) -> usize {
    if points == 0.0 {
        0
    } else if points == 0.5 {
        1
    } else if points == 1.0 {
        2
    } else {
        panic!("game points must be 0, 0.5 or 1, got {points}")
    }
}

/// Scores are clamped to `[SCORE_CLAMP, 1 - SCORE_CLAMP]` before conversion to
/// Elo (fishtest's `elo()` does the same), so a perfect score gives about
/// ±1199.8 Elo instead of infinity.
pub const SCORE_CLAMP: f64 = 1e-3;

/// Logistic Elo difference that predicts the expected `score`,
/// `-400 log10(1/s - 1)`.
///
/// The score is first clamped to `[0.001, 0.999]` (see [`SCORE_CLAMP`]) so a
/// clean sweep yields a large finite value rather than ±∞. NaN stays NaN.
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score of a logistic Elo difference, `1 / (1 + 10^(-elo/400))`;
/// the inverse of [`elo_from_score`] away from the clamp.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Normalised Elo per unit of per-game t-value, `800 / ln 10`
/// (≈ 347.4356), fishtest's `nelo_divided_by_nt`.
pub const NELO_DIVIDED_BY_NT: f64 = 800.0 / std::f64::consts::LN_10;

/// Two-sided standard normal critical value for a `confidence` level, i.e.
/// `Φ⁻¹((1 + confidence) / 2)`; 1.959964 for 0.95. Shared by every
/// interval method so the confidence convention lives in one place.
///
/// # Panics
///
/// If `confidence` is not strictly between 0 and 1 (0 would give an empty
/// interval and 1 an infinite one, both mistakes).
pub fn z_for_confidence(confidence: f64) -> f64 {
    assert!(
        confidence > 0.0 && confidence < 1.0,
        "confidence must be in (0, 1), got {confidence}"
    );
    normal_quantile(0.5 + 0.5 * confidence)
}

/// Wilson score interval for a binomial proportion `successes / n` with
/// critical value `z`:
///
/// ```text
/// centre = (p + z²/2n) / (1 + z²/n)
/// half   = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)
/// ```
///
/// Preferred over `p ± z sqrt(p(1-p)/n)` because it stays inside `[0, 1]`
/// and does not collapse to a point at 0 or n successes. Returns `(0, 1)`
/// when `n == 0`. Ends are clamped to `[0, 1]` against rounding.
pub fn wilson_interval(successes: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let nf = n as f64;
    let p = successes as f64 / nf;
    let z2 = z * z;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = z / denom * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Standard normal cumulative distribution function `Φ(x)`, via
/// `Φ(x) = erfc(-x/√2) / 2`, which keeps full relative precision in the lower
/// tail (needed by LOS values and by [`normal_quantile`]'s refinement).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Error function, `erf(x) = 2/√π ∫₀ˣ e^(-t²) dt`.
///
/// For `|x| < 1.5` the everywhere-positive series
/// `erf(x) = 2/√π e^(-x²) Σ (2x²)ⁿ x / (1·3·…·(2n+1))` is summed (no
/// cancellation, relative error ~1e-16); beyond that `1 - erfc(|x|)` is used.
/// Implemented here because `std` has no `erf`.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let ax = x.abs();
    let r = if ax < ERF_SPLIT {
        erf_series(ax)
    } else {
        1.0 - erfc_cf(ax)
    };
    r.copysign(x)
}

/// Complementary error function, `erfc(x) = 1 - erf(x)`, accurate in
/// relative terms for large positive `x` (a Lentz-evaluated continued
/// fraction for `x ≥ 1.5`), where `1 - erf(x)` would lose all digits.
/// Relative error about 1e-13 or better over the whole range.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 1.0 + erf(-x);
    }
    if x < ERF_SPLIT {
        1.0 - erf_series(x)
    } else {
        erfc_cf(x)
    }
}

/// Switch point between the series and the continued fraction. Below it the
/// fraction converges slowly (about 90 steps at 1.5); above it `1 - erf`
/// would lose digits to cancellation in `erfc` (1e-12 relative at 2.5,
/// 1e-14 at 1.5).
const ERF_SPLIT: f64 = 1.5;

/// `erf(x)` for `0 <= x < ERF_SPLIT` by the positive-term series.
fn erf_series(x: f64) -> f64 {
    let two_x2 = 2.0 * x * x;
    let mut term = x;
    let mut sum = x;
    let mut k = 0.0;
    // Below x = 1.5 the terms fall below 1e-17 of the sum within about 40
    // terms; 200 is a generous cap.
    for _ in 0..200 {
        k += 1.0;
        term *= two_x2 / (2.0 * k + 1.0);
        sum += term;
        if term <= sum * 1e-17 {
            break;
        }
    }
    std::f64::consts::FRAC_2_SQRT_PI * (-x * x).exp() * sum
}

/// `erfc(x)` for `x >= ERF_SPLIT` by the continued fraction
/// `erfc(x) = e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))))`
/// (Abramowitz & Stegun 7.1.14), evaluated with the modified Lentz method.
fn erfc_cf(x: f64) -> f64 {
    // e^(-x²) underflows to zero beyond this point (also catches +∞).
    if x > 27.3 {
        return 0.0;
    }
    const TINY: f64 = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..500 {
        let a = 0.5 * f64::from(k);
        d = x + a * d;
        if d.abs() < TINY {
            d = TINY;
        }
        d = 1.0 / d;
        c = x + a / c;
        if c.abs() < TINY {
            c = TINY;
        }
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / (f * std::f64::consts::PI.sqrt())
}

/// Inverse of the standard normal CDF, `Φ⁻¹(p)`: turns a confidence level
/// into a critical value.
///
/// Peter J. Acklam's rational approximation (relative error < 1.15e-9),
/// followed by one Halley step on `Φ(x) - p` using [`normal_cdf`], which
/// brings the result to near machine precision. The upper half is computed
/// by symmetry from `1 - p` (exact in floating point for `p >= 0.5`) so both
/// tails keep relative accuracy. Returns `-∞` for `p <= 0`, `+∞` for
/// `p >= 1` and NaN for NaN.
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() {
        return f64::NAN;
    }
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    if p > 0.5 {
        -lower_normal_quantile(1.0 - p)
    } else {
        lower_normal_quantile(p)
    }
}

/// [`normal_quantile`] for `0 < p <= 0.5`.
fn lower_normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const P_LOW: f64 = 0.02425;

    let x = if p < P_LOW {
        // Lower tail.
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else {
        // Central region.
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };

    // One Halley step: e = Φ(x) - p, u = e / φ(x).
    let e = normal_cdf(x) - p;
    let u = e * (2.0 * std::f64::consts::PI).sqrt() * (0.5 * x * x).exp();
    if !u.is_finite() {
        // Only for p in the far subnormal tail, where φ(x) underflows.
        return x;
    }
    x - u / (1.0 + 0.5 * x * u)
}

/// Prior count given to each *empty* pentanomial bin before any pentanomial
/// statistic is computed, exactly as fishtest's `LLRcalc.regularize` does
/// (non-empty bins are left alone, so with every bin populated the
/// statistics are the plain empirical ones).
///
/// Without it the early-match variance can be exactly zero (e.g. only
/// draw-pairs so far), which would make the LLR and nElo divide by zero, and
/// a single lopsided pair would make the LLR jump to ±∞.
pub const PENTA_PRIOR: f64 = 1e-3;

/// Mean and variance of the per-pair score `i/4` over regularised counts.
#[derive(Debug, Clone, Copy)]
struct PentaMoments {
    /// Regularised number of pairs.
    n: f64,
    /// Mean per-game score of the pairs.
    mu: f64,
    /// Population variance of the pair score.
    var: f64,
}

impl PentaMoments {
    /// `None` when there are no pairs at all (the prior alone is not data).
    fn from_counts(penta: &[u64; 5]) -> Option<Self> {
        if penta.iter().all(|&c| c == 0) {
            return None;
        }
        let counts = penta.map(|c| if c == 0 { PENTA_PRIOR } else { c as f64 });
        let n: f64 = counts.iter().sum();
        let score = |i: usize| i as f64 / 4.0;
        let mu = counts
            .iter()
            .enumerate()
            .map(|(i, c)| c * score(i))
            .sum::<f64>()
            / n;
        let var = counts
            .iter()
            .enumerate()
            .map(|(i, c)| c * (score(i) - mu).powi(2))
            .sum::<f64>()
            / n;
        Some(PentaMoments { n, mu, var })
    }
}

/// Approximate generalised log-likelihood ratio of `H1: score = s1` against
/// `H0: score = s0` for pentanomial counts (fishtest's `LLR_alt2`, times `N`):
///
/// ```text
/// LLR ≈ N (s1 - s0) (2 mu - s0 - s1) / (2 var)
/// ```
///
/// with `N`, `mu`, `var` the regularised pair count and the mean and variance
/// of the per-pair score `i/4` (see [`PENTA_PRIOR`]); `s0`, `s1` are expected
/// per-game scores. This is the Brownian-motion approximation of the exact
/// multinomial GLR (vdbergh, "GSPRT approximation"); it is closed-form, needs
/// no root finding and is within a few percent of fishtest's exact value for
/// the small Elo bounds used in practice.
///
/// Returns 0 with no pairs or a non-positive/non-finite variance, never NaN.
pub fn gsprt_llr(penta: &[u64; 5], s0: f64, s1: f64) -> f64 {
    match PentaMoments::from_counts(penta) {
        Some(m) if m.var > 0.0 && m.var.is_finite() => {
            m.n * (s1 - s0) * (2.0 * m.mu - s0 - s1) / (2.0 * m.var)
        }
        _ => 0.0,
    }
}

/// How the SPRT's Elo bounds are interpreted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EloModel {
    /// Bounds are logistic Elo: `s = 1 / (1 + 10^(-elo/400))`.
    Logistic,
    /// Bounds are normalised Elo (see [`Stats::normalized_elo`]), converted to
    /// scores with the empirical per-game deviation:
    /// `s = 0.5 + nelo / (800 / ln 10) * sqrt(2 var)`.
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
/// fixed-length match. The LLR is [`gsprt_llr`]; the Wald bounds are
/// `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`. fishtest's
/// dynamic-overshoot correction is not applied.
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

    /// Log-likelihood ratio of H1 against H0 for the pentanomial counts.
    ///
    /// Logistic model: `s0, s1` = [`score_from_elo`] of the bounds, then
    /// [`gsprt_llr`]. Normalised model: `s_i = 0.5 + nelo_i / (800/ln 10) *
    /// sqrt(2 var)` with the regularised empirical pair variance, then the
    /// same formula; this simplifies to `N (nt1 - nt0) (2 nt - nt0 - nt1)`
    /// with `nt = (mu - 0.5) / sqrt(2 var)`, the first-order expansion of
    /// fishtest's `LLR_normalized_alt`. Returns 0 with no pairs or zero
    /// variance.
    pub fn llr(&self, penta: &[u64; 5]) -> f64 {
        let (s0, s1) = match self.model {
            EloModel::Logistic => (score_from_elo(self.elo0), score_from_elo(self.elo1)),
            EloModel::Normalized => {
                let Some(m) = PentaMoments::from_counts(penta) else {
                    return 0.0;
                };
                let sigma_pg = (2.0 * m.var).sqrt();
                let s = |nelo: f64| 0.5 + nelo / NELO_DIVIDED_BY_NT * sigma_pg;
                (s(self.elo0), s(self.elo1))
            }
        };
        gsprt_llr(penta, s0, s1)
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

/// Five-number summary plus mean of game lengths (in plies or moves, as the
/// caller counts them), to spot variants whose games are too short or hit
/// the move cap.
///
/// Quantiles use linear interpolation between order statistics (Hyndman &
/// Fan type 7, the default of R and NumPy): see [`quantile_sorted`]. An empty
/// input gives `count == 0` and every other field 0.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LengthSummary {
    /// Number of games summarised.
    pub count: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// 50% quantile.
    pub median: f64,
    /// 25% quantile.
    pub q1: f64,
    /// 75% quantile.
    pub q3: f64,
    /// Shortest game.
    pub min: u32,
    /// Longest game.
    pub max: u32,
}

impl From<&[u32]> for LengthSummary {
    fn from(lengths: &[u32]) -> Self {
        if lengths.is_empty() {
            return LengthSummary::default();
        }
        let mut sorted = lengths.to_vec();
        sorted.sort_unstable();
        let total: u64 = sorted.iter().map(|&x| u64::from(x)).sum();
        LengthSummary {
            count: sorted.len(),
            mean: total as f64 / sorted.len() as f64,
            median: quantile_sorted(&sorted, 0.5),
            q1: quantile_sorted(&sorted, 0.25),
            q3: quantile_sorted(&sorted, 0.75),
            min: sorted[0],
            max: sorted[sorted.len() - 1],
        }
    }
}

/// The `p`-quantile of ascending `sorted` data by linear interpolation
/// (type 7): with `h = (n - 1) p`, the result is
/// `x[⌊h⌋] + (h - ⌊h⌋) (x[⌊h⌋ + 1] - x[⌊h⌋])` (0-based). So for
/// `[1, 2, 3, 4]` the quartiles are 1.75, 2.5, 3.25. `p` is clamped to
/// `[0, 1]`; empty data gives 0.
pub fn quantile_sorted(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let h = (sorted.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    let (a, b) = (f64::from(sorted[lo]), f64::from(sorted[hi]));
    a + (h - lo as f64) * (b - a)
}

/// One histogram bin: lengths in `start .. start + bin_width`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HistogramBin {
    /// Inclusive lower edge, a multiple of the bin width.
    pub start: u32,
    /// Number of lengths in the bin.
    pub count: u64,
}

/// Histogram of game lengths with bins aligned to multiples of `bin_width`,
/// from the bin holding the shortest game to the bin holding the longest,
/// empty bins in between included (so it plots without gaps). Aligned edges
/// make histograms from different runs directly comparable. Empty input
/// gives no bins.
///
/// # Panics
///
/// If `bin_width` is 0.
pub fn histogram(lengths: &[u32], bin_width: u32) -> Vec<HistogramBin> {
    assert!(bin_width > 0, "histogram bin width must be positive");
    let (Some(&min), Some(&max)) = (lengths.iter().min(), lengths.iter().max()) else {
        return Vec::new();
    };
    let first = min / bin_width;
    let last = max / bin_width;
    let mut bins: Vec<HistogramBin> = (first..=last)
        .map(|b| HistogramBin {
            start: b * bin_width,
            count: 0,
        })
        .collect();
    for &x in lengths {
        bins[(x / bin_width - first) as usize].count += 1;
    }
    bins
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    macro_rules! assert_close {
        ($a:expr, $b:expr, $tol:expr) => {{
            let (a, b): (f64, f64) = ($a, $b);
            assert!(close(a, b, $tol), "{a} vs {b} (tol {})", $tol);
        }};
    }

    /// [LL, LD, LW|DD, WD, WW] = [1, 3, 6, 6, 4], N = 20 pairs. By hand:
    /// sum of scores = 0·1 + 0.25·3 + 0.5·6 + 0.75·6 + 1·4 = 12.25,
    /// mu = 12.25 / 20 = 0.6125;
    /// E[a²] = (0.0625·3 + 0.25·6 + 0.5625·6 + 1·4) / 20 = 9.0625 / 20
    ///       = 0.453125, var = 0.453125 - 0.6125² = 0.07796875.
    const PENTA: [u64; 5] = [1, 3, 6, 6, 4];

    #[test]
    fn elo_score_conversions() {
        assert_close!(elo_from_score(0.5), 0.0, 1e-12);
        // -400 log10(1/3) = 400 log10 3 = 190.8485...
        assert_close!(elo_from_score(0.75), 190.848_501_887_865, 1e-9);
        assert_close!(elo_from_score(0.25), -190.848_501_887_865, 1e-9);
        // Clamped at 0.001 / 0.999: ±400 log10(999).
        assert_close!(elo_from_score(0.0), -1_199.826_195_290_393, 1e-9);
        assert_close!(elo_from_score(1.0), 1_199.826_195_290_393, 1e-9);
        assert_eq!(elo_from_score(-3.0), elo_from_score(0.0));
        assert!(elo_from_score(f64::NAN).is_nan());
        assert_close!(score_from_elo(0.0), 0.5, 1e-15);
        // 10^(-400/400) = 0.1 → 1/1.1.
        assert_close!(score_from_elo(400.0), 1.0 / 1.1, 1e-15);
        for elo in [-500.0, -37.5, 0.0, 3.0, 250.0] {
            assert_close!(elo_from_score(score_from_elo(elo)), elo, 1e-9);
        }
        assert_close!(NELO_DIVIDED_BY_NT, 347.435_585_522_601_46, 1e-12);
    }

    #[test]
    fn wilson_intervals() {
        // p = 0.5, z² = 3.8416, 1 + z²/n = 1.38416, centre 0.5,
        // half = 1.96/1.38416 · sqrt(0.025 + 0.009604) = 0.263410.
        let (lo, hi) = wilson_interval(5, 10, 1.96);
        assert_close!(lo, 0.236_589_6, 1e-6);
        assert_close!(hi, 0.763_410_4, 1e-6);
        // Zero successes: lower end exactly 0, upper z²/(n+z²) = 0.27754.
        let (lo, hi) = wilson_interval(0, 10, 1.96);
        assert_eq!(lo, 0.0);
        assert_close!(hi, 3.8416 / 13.8416, 1e-12);
        let (lo, hi) = wilson_interval(10, 10, 1.96);
        assert_close!(lo, 10.0 / 13.8416, 1e-12);
        assert_eq!(hi, 1.0);
        assert_eq!(wilson_interval(0, 0, 1.96), (0.0, 1.0));
    }

    #[test]
    fn erf_reference_values() {
        // Reference values: Abramowitz & Stegun table 7.1 / Python math.erf.
        assert_eq!(erf(0.0), 0.0);
        assert_close!(erf(0.5), 0.520_499_877_813_046_5, 1e-15);
        assert_close!(erf(1.0), 0.842_700_792_949_714_9, 1e-15);
        assert_close!(erf(-1.0), -0.842_700_792_949_714_9, 1e-15);
        assert_close!(erf(1e-10), 1e-10 * std::f64::consts::FRAC_2_SQRT_PI, 1e-24);
        assert_eq!(erf(f64::INFINITY), 1.0);
        assert_eq!(erf(f64::NEG_INFINITY), -1.0);
        // Relative accuracy of erfc on both sides of the switch and in the tail.
        let rel = |a: f64, b: f64| ((a - b) / b).abs();
        assert!(rel(erfc(1.0), 0.157_299_207_050_285_13) < 1e-13);
        assert!(rel(erfc(1.5), 0.033_894_853_524_689_274) < 1e-13);
        assert!(rel(erfc(2.5), 4.069_520_174_449_589e-4) < 1e-13);
        assert!(rel(erfc(3.0), 2.209_049_699_858_543_8e-5) < 1e-13);
        assert!(rel(erfc(10.0), 2.088_487_583_762_545e-45) < 1e-13);
        assert_close!(erfc(-1.0), 1.842_700_792_949_715, 1e-15);
        assert_eq!(erfc(30.0), 0.0);
        assert!(erf(f64::NAN).is_nan() && erfc(f64::NAN).is_nan());
        // erf and erfc agree on both sides of the series/fraction switch.
        for x in [0.1, 1.499_999, 1.5, 1.500_001, 2.5, 4.0] {
            assert_close!(erf(x) + erfc(x), 1.0, 1e-15);
        }
    }

    #[test]
    fn normal_cdf_and_quantile() {
        assert_eq!(normal_cdf(0.0), 0.5);
        assert_close!(normal_cdf(1.96), 0.975_002_104_851_779_6, 1e-15);
        assert_close!(normal_cdf(-1.96), 1.0 - 0.975_002_104_851_779_6, 1e-15);
        // Reference quantiles: standard tables / Python
        // statistics.NormalDist().inv_cdf (Wichura AS241).
        assert_close!(normal_quantile(0.975), 1.959_963_984_540_054, 1e-12);
        assert_close!(normal_quantile(0.95), 1.644_853_626_951_472, 1e-12);
        assert_close!(normal_quantile(0.999), 3.090_232_306_167_813, 1e-12);
        assert_close!(normal_quantile(0.3), -0.524_400_512_708_040_7, 1e-12);
        assert_close!(normal_quantile(0.02425), -1.972_961_051_311_884_5, 1e-12);
        assert_close!(normal_quantile(1e-10), -6.361_340_902_404_056, 1e-11);
        assert_close!(normal_quantile(1e-300), -37.047_096_299_361_2, 1e-9);
        assert_eq!(normal_quantile(0.5), 0.0);
        assert_eq!(normal_quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(normal_quantile(1.0), f64::INFINITY);
        assert!(normal_quantile(f64::NAN).is_nan());
        // Round trip and symmetry across the whole range (both Acklam
        // branches and the branch edge 0.02425).
        for i in 1..1000 {
            let p = f64::from(i) / 1000.0;
            let x = normal_quantile(p);
            assert_close!(normal_cdf(x), p, 1e-15);
            assert_close!(normal_quantile(1.0 - p), -x, 1e-12);
        }
        assert_close!(z_for_confidence(0.95), 1.959_963_984_540_054, 1e-12);
    }

    #[test]
    #[should_panic(expected = "confidence")]
    fn confidence_must_be_a_probability() {
        Stats::default().score_interval(1.0);
    }

    #[test]
    fn counting_games_and_pairs() {
        let mut s = Stats::default();
        for r in [
            GameResult::WhiteWin,
            GameResult::Draw,
            GameResult::WhiteWin,
            GameResult::BlackWin,
        ] {
            s.add_game(r);
        }
        assert_eq!((s.white_wins, s.draws, s.black_wins), (2, 1, 1));
        assert_eq!(s.games(), 4);
        s.add_pair(0.0, 0.0); // LL → 0
        s.add_pair(0.5, 0.0); // LD → 1
        s.add_pair(0.0, 1.0); // LW → 2
        s.add_pair(0.5, 0.5); // DD → 2
        s.add_pair(1.0, 0.5); // WD → 3
        s.add_pair(1.0, 1.0); // WW → 4
        assert_eq!(s.penta, [1, 1, 2, 1, 1]);
        assert_eq!(s.pairs(), 6);
        assert_eq!(s.games(), 4, "pairs do not touch the trinomial counts");
    }

    #[test]
    #[should_panic(expected = "game points")]
    fn add_pair_rejects_impossible_points() {
        Stats::default().add_pair(0.3, 1.0);
    }

    #[test]
    fn addition_is_associative_and_commutative() {
        let a = Stats {
            white_wins: 3,
            draws: 1,
            black_wins: 4,
            penta: [1, 5, 9, 2, 6],
        };
        let b = Stats {
            white_wins: 5,
            draws: 3,
            black_wins: 5,
            penta: [8, 9, 7, 9, 3],
        };
        let c = Stats {
            white_wins: 2,
            draws: 0,
            black_wins: 0,
            penta: [0, 0, 1, 0, 0],
        };
        assert_eq!(a + b, b + a);
        assert_eq!((a + b) + c, a + (b + c));
        assert_eq!(a + Stats::default(), a);
        let expected = Stats {
            white_wins: 10,
            draws: 4,
            black_wins: 9,
            penta: [9, 14, 17, 11, 9],
        };
        assert_eq!(a + b + c, expected);
        let v = [a, b, c];
        assert_eq!(v.iter().sum::<Stats>(), expected);
        assert_eq!(v.into_iter().rev().sum::<Stats>(), expected);
        let mut d = c;
        d += a;
        d += &b;
        assert_eq!(d, expected);
        // Shape of a parallel fold/reduce: partial sums in any grouping.
        let shards: Vec<Stats> = v.chunks(2).map(|ch| ch.iter().sum()).collect();
        assert_eq!(shards.into_iter().sum::<Stats>(), expected);
    }

    #[test]
    fn white_score_interval_and_draw_rate() {
        let s = Stats {
            white_wins: 5,
            draws: 3,
            black_wins: 2,
            penta: [0; 5],
        };
        // s = (5 + 1.5) / 10 = 0.65;
        // var = (5·0.35² + 3·0.15² + 2·0.65²) / 10 = 1.525 / 10 = 0.1525;
        // half = 1.959964 · sqrt(0.1525 / 10) = 0.2420377.
        assert_close!(s.white_score(), 0.65, 1e-15);
        let (lo, hi) = s.score_interval(0.95);
        assert_close!(lo, 0.407_962_302_5, 1e-9);
        assert_close!(hi, 0.892_037_697_5, 1e-9);
        let (elo_lo, elo_hi) = s.elo_interval(0.95);
        assert_close!(elo_lo, elo_from_score(lo), 1e-12);
        assert_close!(elo_hi, elo_from_score(hi), 1e-12);
        // 400 log10(0.65/0.35) = 107.5...
        assert_close!(s.white_elo(), 400.0 * (0.65f64 / 0.35).log10(), 1e-9);
        assert!(elo_lo < s.white_elo() && s.white_elo() < elo_hi);
        // Draw rate 3/10 with Wilson at z = 1.959964: (0.107791, 0.603222).
        assert_close!(s.draw_rate(), 0.3, 1e-15);
        let (lo, hi) = s.draw_rate_interval(0.95);
        assert_close!(lo, 0.107_791_267_4, 1e-9);
        assert_close!(hi, 0.603_221_852_5, 1e-9);
        // All draws: zero trinomial variance, interval collapses, no NaN.
        let d = Stats {
            draws: 4,
            ..Stats::default()
        };
        assert_eq!(d.score_interval(0.95), (0.5, 0.5));
    }

    #[test]
    fn empty_stats_give_neutral_values_not_nan() {
        let s = Stats::default();
        assert_eq!(s.games(), 0);
        assert_eq!(s.white_score(), 0.5);
        assert_eq!(s.white_elo(), 0.0);
        assert_eq!(s.score_interval(0.95), (0.0, 1.0));
        let (lo, hi) = s.elo_interval(0.95);
        assert!(lo < -1000.0 && hi > 1000.0 && lo.is_finite() && hi.is_finite());
        assert_eq!(s.draw_rate(), 0.0);
        assert_eq!(s.draw_rate_interval(0.95), (0.0, 1.0));
        assert_eq!(s.pair_score(), 0.5);
        assert_eq!(s.pair_elo(), 0.0);
        assert_eq!(s.pair_score_interval(0.95), (0.0, 1.0));
        assert_eq!(s.normalized_elo(), 0.0);
        assert_eq!(gsprt_llr(&[0; 5], 0.5, 0.51), 0.0);
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let sprt = Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05,
                model,
            };
            assert_eq!(sprt.llr(&[0; 5]), 0.0);
            assert_eq!(sprt.status(&[0; 5]), SprtStatus::Continue);
        }
    }

    #[test]
    fn pentanomial_score_and_normalized_elo() {
        let s = Stats {
            penta: PENTA,
            ..Stats::default()
        };
        assert_close!(s.pair_score(), 0.6125, 1e-15);
        // half = 1.959964 · sqrt(0.07796875 / 20) = 0.1223751.
        let (lo, hi) = s.pair_score_interval(0.95);
        assert_close!(
            lo,
            0.6125 - 1.959_963_984_540_054 * (0.077_968_75f64 / 20.0).sqrt(),
            1e-12
        );
        assert_close!(hi, 0.734_875_1, 1e-6);
        let (elo_lo, elo_hi) = s.pair_elo_interval(0.95);
        assert!(elo_lo < s.pair_elo() && s.pair_elo() < elo_hi);
        // sigma_pg = sqrt(2 · 0.07796875) = 0.394889, nt = 0.1125 / 0.394889
        // = 0.284890, nElo = 0.284890 · 347.4356 = 98.98.
        assert_close!(s.normalized_elo(), 98.980_931_611_737_87, 1e-9);
        // Symmetric counts: nElo 0.
        let sym = Stats {
            penta: [2, 4, 8, 4, 2],
            ..Stats::default()
        };
        assert_close!(sym.normalized_elo(), 0.0, 1e-12);
    }

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

    #[test]
    fn llr_hand_computed() {
        // PENTA: N = 20, mu = 0.6125, var = 0.07796875 (see PENTA).
        // s0 = 0.5, s1 = 0.55:
        // LLR = 20 · 0.05 · (1.225 - 1.05) / (2 · 0.07796875)
        //     = 20 · 0.05 · 0.175 / 0.1559375 = 0.175 / 0.1559375 = 1.1222445.
        assert_close!(gsprt_llr(&PENTA, 0.5, 0.55), 1.122_244_488_977_957, 1e-12);
        // Swapping the hypotheses flips the sign.
        assert_close!(gsprt_llr(&PENTA, 0.55, 0.5), -1.122_244_488_977_957, 1e-12);

        // Logistic elo0 = 0, elo1 = 10: s0 = 0.5,
        // s1 = 1 / (1 + 10^(-0.025)) = 1 / 1.9440609 = 0.5143872;
        // LLR = 20 · 0.0143872 · (1.225 - 1.0143872) / 0.1559375
        //     = 20 · 0.0143872 · 0.2106128 / 0.1559375 = 0.388633.
        let logistic = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        assert_close!(logistic.llr(&PENTA), 0.388_633_313_875_539_5, 1e-12);
        assert_eq!(logistic.status(&PENTA), SprtStatus::Continue);

        // Normalised nelo0 = 0, nelo1 = 5: nt = 0.2848900 (above),
        // nt1 = 5 / 347.4356 = 0.0143912;
        // LLR = N (nt1 - nt0)(2 nt - nt0 - nt1)
        //     = 20 · 0.0143912 · (0.5697800 - 0.0143912) = 0.159854.
        let normalized = Sprt {
            model: EloModel::Normalized,
            elo1: 5.0,
            ..logistic
        };
        assert_close!(normalized.llr(&PENTA), 0.159_853_771_565_46, 1e-12);
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
        // Only WW pairs: empty bins get 1e-3 each, N = 10.004,
        // mu = (10 + 1e-3 · (0 + 0.25 + 0.5 + 0.75)) / 10.004 = 0.99975010,
        // var = 1.8736e-4 > 0, so the LLR is large and finite.
        let ww = [0, 0, 0, 0, 10];
        let llr = gsprt_llr(&ww, 0.5, score_from_elo(10.0));
        assert_close!(llr, 378.375_222_686, 1e-6);
        let s = Stats {
            penta: ww,
            ..Stats::default()
        };
        assert_close!(s.pair_score(), 10.0015 / 10.004, 1e-15);
        assert!(s.normalized_elo().is_finite() && s.normalized_elo() > 0.0);
        // Only draw-ish pairs: mu = 0.5 exactly, LLR negative but finite.
        let dd = [0, 0, 7, 0, 0];
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let sprt = Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.05,
                model,
            };
            let llr = sprt.llr(&dd);
            assert!(llr.is_finite() && llr < 0.0, "{model:?}: {llr}");
        }
    }

    #[test]
    fn length_summary_quartiles() {
        // h = 3p: q1 at h = 0.75 → 1.75, median at 1.5 → 2.5, q3 at 2.25 → 3.25.
        let s = LengthSummary::from(&[1, 2, 3, 4][..]);
        assert_eq!(s.count, 4);
        assert_close!(s.mean, 2.5, 1e-15);
        assert_close!(s.q1, 1.75, 1e-15);
        assert_close!(s.median, 2.5, 1e-15);
        assert_close!(s.q3, 3.25, 1e-15);
        assert_eq!((s.min, s.max), (1, 4));
        // Unsorted input, odd n = 5: h = 4p lands on order statistics.
        let s = LengthSummary::from(&[10, 1, 7, 3, 5][..]);
        assert_close!(s.mean, 5.2, 1e-15);
        assert_eq!((s.q1, s.median, s.q3), (3.0, 5.0, 7.0));
        assert_eq!((s.min, s.max), (1, 10));
        let one = LengthSummary::from(&[42][..]);
        assert_eq!(
            (one.q1, one.median, one.q3, one.mean),
            (42.0, 42.0, 42.0, 42.0)
        );
        let empty = LengthSummary::from(&[][..]);
        assert_eq!(empty, LengthSummary::default());
        assert_eq!(empty.count, 0);
        assert!(!empty.mean.is_nan());
        assert_eq!(quantile_sorted(&[], 0.5), 0.0);
        assert_eq!(quantile_sorted(&[1, 2, 3, 4], 1.5), 4.0);
        assert_close!(quantile_sorted(&[1, 2, 3, 4], 0.9), 3.7, 1e-12);
        // Large values do not overflow the mean.
        let big = LengthSummary::from(&[u32::MAX, u32::MAX][..]);
        assert_eq!(big.mean, f64::from(u32::MAX));
    }

    #[test]
    fn histogram_bins() {
        let h = histogram(&[4, 1, 2, 10, 3], 3);
        let expected = [(0, 2), (3, 2), (6, 0), (9, 1)];
        assert_eq!(
            h.iter().map(|b| (b.start, b.count)).collect::<Vec<_>>(),
            expected
        );
        // Bins start at the multiple of the width below the minimum.
        let h = histogram(&[95, 101, 119, 120], 10);
        assert_eq!(
            h.iter().map(|b| (b.start, b.count)).collect::<Vec<_>>(),
            [(90, 1), (100, 1), (110, 1), (120, 1)]
        );
        assert_eq!(histogram(&[7, 7], 1), [HistogramBin { start: 7, count: 2 }]);
        assert_eq!(histogram(&[u32::MAX], 1000).len(), 1);
        assert!(histogram(&[], 5).is_empty());
    }

    #[test]
    #[should_panic(expected = "bin width")]
    fn histogram_rejects_zero_width() {
        histogram(&[1], 0);
    }
}
