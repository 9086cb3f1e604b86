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
//! * Score intervals ([`unit_mean_interval`]): cluster-robust variance (a pair's two
//!   games are one cluster) with `z²/2` pseudo-clusters at each end of `[0, 1]`, the
//!   Agresti–Coull idea, so an all-draw or tiny sample still gets a real interval.
//! * Normalised Elo (fishtest): with pair score `a_i = i/4`, `mu` and `var` its mean
//!   and variance over the regularised counts, `nt = (mu - 0.5) / sqrt(2 var)` and
//!   `nElo = nt * 800 / ln 10`; its interval by the delta method including the
//!   third and fourth moments, valid away from zero.
//! * SPRT: the exact generalised log-likelihood ratio over pentanomial counts (each
//!   hypothesis represented by its maximum-likelihood distribution), see
//!   [`gsprt_llr`].

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

    /// Two-sided `confidence` interval for White's expected score, treating games
    /// as independent ([`unit_mean_interval`] with one game a cluster: the
    /// Agresti–Coull interval, extended to draws). Never a point: twenty draws give
    /// about `[0.42, 0.58]`. `(0, 1)` with no games. Where the games come in
    /// colour-swapped pairs, `analysis` clusters them by pair instead.
    ///
    /// # Panics
    ///
    /// If `confidence` is not strictly between 0 and 1.
    pub fn score_interval(&self, confidence: f64) -> (f64, f64) {
        let z = z_for_confidence(confidence);
        let one = |total: f64, w: u64| (Cluster { total, size: 1.0 }, w as f64);
        unit_mean_interval(
            &[
                one(1.0, self.white_wins),
                one(0.5, self.draws),
                one(0.0, self.black_wins),
            ],
            z,
        )
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

    /// The first engine's mean score per game over the pentanomial pairs; 0.5 with
    /// no pairs.
    pub fn pair_score(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        self.penta
            .iter()
            .zip(PAIR_SCORE)
            .map(|(&c, a)| c as f64 * a)
            .sum::<f64>()
            / n as f64
    }

    /// Confidence interval for the first engine's expected score from the
    /// pentanomial counts: each pair one cluster of two games
    /// ([`unit_mean_interval`]), so the correlation between the two games of a pair
    /// is accounted for and an all-draw sample still gets a real interval. `(0, 1)`
    /// with no pairs.
    ///
    /// # Panics
    ///
    /// If `confidence` is not strictly between 0 and 1.
    pub fn pair_score_interval(&self, confidence: f64) -> (f64, f64) {
        let z = z_for_confidence(confidence);
        let clusters: Vec<(Cluster, f64)> = self
            .penta
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                (
                    Cluster {
                        total: i as f64 / 2.0,
                        size: 2.0,
                    },
                    c as f64,
                )
            })
            .collect();
        unit_mean_interval(&clusters, z)
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
        self.normalized_elo_estimate(0.95).map_or(0.0, |e| e.value)
    }

    /// Normalised Elo with its `confidence` interval; `None` with no pairs or no
    /// spread at all. The standard error of `t = (mu - 1/2) / sigma` by the delta
    /// method is `sqrt((1 - t g + t² (k - 1) / 4) / N)` with `g` and `k` the
    /// skewness and kurtosis of the pair score: at `t = 0` it is the familiar
    /// `1 / sqrt N`, and unlike that it stays right for large differences.
    ///
    /// # Panics
    ///
    /// If `confidence` is not strictly between 0 and 1.
    pub fn normalized_elo_estimate(&self, confidence: f64) -> Option<Estimate> {
        let z = z_for_confidence(confidence);
        let counts = regularized(&self.penta)?;
        let n: f64 = counts.iter().sum();
        let (mu, var, m3, m4) = moments(&to_pdf(&counts));
        if var.is_nan() || var <= 0.0 {
            return None;
        }
        let sigma = var.sqrt();
        let t = (mu - 0.5) / sigma;
        let (g, k) = (m3 / (sigma * var), m4 / (var * var));
        let se_t = ((1.0 - t * g + t * t * (k - 1.0) / 4.0).max(0.0) / n).sqrt();
        // Per-game t is the pair t over sqrt 2.
        let scale = NELO_DIVIDED_BY_NT / std::f64::consts::SQRT_2;
        Some(Estimate {
            value: t * scale,
            low: (t - z * se_t) * scale,
            high: (t + z * se_t) * scale,
        })
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

/// Standard normal cumulative distribution function `Φ(x)` (statrs).
pub fn normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    0.5 * statrs::function::erf::erfc(-x / std::f64::consts::SQRT_2)
}

/// Inverse of the standard normal CDF, `Φ⁻¹(p)` (statrs): turns a confidence
/// level into a critical value. `-∞` for `p <= 0`, `+∞` for `p >= 1`, NaN
/// for NaN.
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
    // erfc⁻¹ keeps relative precision in both tails.
    -std::f64::consts::SQRT_2 * statrs::function::erf::erfc_inv(2.0 * p)
}

/// A number with `decimals` digits after the point, never `-0`: a value that rounds to
/// zero prints as `0.000`, not `-0.000`, whatever its sign. Every figure the toolkit
/// prints or writes to a CSV goes through here.
pub fn fixed(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => s,
    }
}

/// One group of games whose results are not independent (the two games of a
/// colour-swapped pair share an opening): its summed value and its number of games.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cluster {
    /// Sum of the per-game values in the cluster.
    pub total: f64,
    /// Games in the cluster.
    pub size: f64,
}

/// A mean per game with its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The plain sample mean.
    pub value: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

impl Estimate {
    /// `value [low, high]` with `decimals` digits, never `-0`.
    pub fn show(&self, decimals: usize) -> String {
        format!(
            "{} [{}, {}]",
            fixed(self.value, decimals),
            fixed(self.low, decimals),
            fixed(self.high, decimals)
        )
    }
}

/// Interval for the mean per game of a quantity in `[0, 1]` (a score, a draw
/// indicator), from clusters of games, `(cluster, how many such clusters)`.
///
/// The variance is the cluster-robust (ratio-estimator) one,
/// `Σ w (T - m s)² / (Σ w m)²`, so games that share an opening are not counted as
/// independent evidence. To keep the interval honest when every game is alike (all
/// draws) or the sample is tiny, `z²/2` pseudo-clusters of the mean cluster size are
/// added at each end of the range before the variance is taken: for single games this
/// is exactly the Agresti–Coull interval, which never collapses to a point. `(0, 1)`
/// with no games. The point estimate reported beside it stays the plain mean.
pub fn unit_mean_interval(clusters: &[(Cluster, f64)], z: f64) -> (f64, f64) {
    let games: f64 = clusters.iter().map(|(c, w)| c.size * w).sum();
    let count: f64 = clusters.iter().map(|(_, w)| w).sum();
    if games <= 0.0 || count <= 0.0 {
        return (0.0, 1.0);
    }
    let m = games / count;
    let k = z * z / 2.0;
    let total: f64 = clusters.iter().map(|(c, w)| c.total * w).sum::<f64>() + k * m;
    let n = games + 2.0 * k * m;
    let s = total / n;
    let ss: f64 = clusters
        .iter()
        .map(|(c, w)| w * (c.total - c.size * s).powi(2))
        .sum::<f64>()
        + k * (m * s).powi(2)
        + k * (m - m * s).powi(2);
    let half = z * ss.sqrt() / n;
    ((s - half).max(0.0), (s + half).min(1.0))
}

/// Interval for an unbounded mean per game (game length) from clusters of games,
/// with the cluster-robust variance and the small-sample factor `C / (C - 1)`.
/// `None` with fewer than two clusters: one cluster says nothing about the spread.
pub fn mean_interval(clusters: &[Cluster], z: f64) -> Option<Estimate> {
    let c = clusters.len() as f64;
    let games: f64 = clusters.iter().map(|k| k.size).sum();
    if clusters.len() < 2 || games <= 0.0 {
        return None;
    }
    let s = clusters.iter().map(|k| k.total).sum::<f64>() / games;
    let ss: f64 = clusters
        .iter()
        .map(|k| (k.total - k.size * s).powi(2))
        .sum();
    let half = z * (ss * c / (c - 1.0)).sqrt() / games;
    Some(Estimate {
        value: s,
        low: s - half,
        high: s + half,
    })
}

/// An interval for a ratio `a / b` of two estimates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RatioInterval {
    /// A finite interval.
    Bounded(f64, f64),
    /// The data do not bound the ratio: the denominator's own interval reaches zero,
    /// so the confidence set is the whole line or two half-lines.
    NotEstimable,
}

/// Fieller's interval for the ratio `a / b` of two (approximately jointly normal)
/// estimates with variances `va`, `vb` and covariance `cab`: the set of `r` with
/// `(a - r b)² <= z² (va - 2 r cab + r² vb)`. Unlike the delta method it is not
/// symmetric, and it says [`RatioInterval::NotEstimable`] when `b` is not
/// significantly different from zero (`b² <= z² vb`), where a symmetric interval
/// would print meaningless numbers.
pub fn fieller_interval(a: f64, b: f64, va: f64, vb: f64, cab: f64, z: f64) -> RatioInterval {
    let z2 = z * z;
    // Quadratic in r: (b² - z² vb) r² - 2 (a b - z² cab) r + (a² - z² va) <= 0.
    let qa = b * b - z2 * vb;
    let qb = a * b - z2 * cab;
    let qc = a * a - z2 * va;
    if qa.is_nan() || qa <= 0.0 {
        return RatioInterval::NotEstimable;
    }
    let disc = qb * qb - qa * qc;
    if disc < 0.0 {
        // Cannot happen for a valid covariance matrix; treat as unbounded.
        return RatioInterval::NotEstimable;
    }
    let root = disc.sqrt();
    RatioInterval::Bounded((qb - root) / qa, (qb + root) / qa)
}

/// Prior count given to each *empty* pentanomial bin before the LLR and nElo are
/// computed, as fishtest's `regularize` does (non-empty bins are left alone). Without
/// it an empty bin would have probability zero under every fitted distribution and the
/// likelihood ratio could not move mass into it.
pub const PENTA_PRIOR: f64 = 1e-3;

/// The per-game score of each pentanomial bin: a pair scoring `i` half-points averages
/// `i / 4` per game.
const PAIR_SCORE: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Counts with empty bins set to [`PENTA_PRIOR`]; `None` with no pairs at all (the
/// prior alone is not data).
fn regularized(penta: &[u64; 5]) -> Option<[f64; 5]> {
    if penta.iter().all(|&c| c == 0) {
        return None;
    }
    Some(penta.map(|c| if c == 0 { PENTA_PRIOR } else { c as f64 }))
}

/// Mean, variance, third and fourth central moments of the pair score under the
/// probabilities `p` (summing to 1).
fn moments(p: &[f64; 5]) -> (f64, f64, f64, f64) {
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
fn to_pdf(counts: &[f64; 5]) -> [f64; 5] {
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
fn mle_with_t_value(phat: &[f64; 5], t: f64) -> Option<[f64; 5]> {
    let mut p = *phat;
    for _ in 0..200 {
        let (mu, var, _, _) = moments(&p);
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let v = PAIR_SCORE.map(|a| (a - 0.5) - t * (var + (a - mu).powi(2)) / (2.0 * sigma));
        let next = closest_with_zero_mean(phat, &v)?;
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-14 {
            break;
        }
    }
    Some(p)
}

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
    fn normal_cdf_and_quantile() {
        // statrs computes these; the tolerances are its documented accuracy.
        assert_eq!(normal_cdf(0.0), 0.5);
        assert_close!(normal_cdf(1.96), 0.975_002_104_851_779_6, 1e-11);
        assert_close!(normal_cdf(-1.96), 1.0 - 0.975_002_104_851_779_6, 1e-11);
        // Reference quantiles: standard tables / Python
        // statistics.NormalDist().inv_cdf (Wichura AS241).
        assert_close!(normal_quantile(0.975), 1.959_963_984_540_054, 1e-10);
        assert_close!(normal_quantile(0.95), 1.644_853_626_951_472, 1e-10);
        assert_close!(normal_quantile(0.999), 3.090_232_306_167_813, 1e-10);
        assert_close!(normal_quantile(0.3), -0.524_400_512_708_040_7, 1e-10);
        assert_close!(normal_quantile(0.02425), -1.972_961_051_311_884_5, 1e-10);
        assert_close!(normal_quantile(1e-10), -6.361_340_902_404_056, 1e-9);
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
            assert_close!(normal_cdf(x), p, 1e-9);
            assert_close!(normal_quantile(1.0 - p), -x, 1e-10);
        }
        assert_close!(z_for_confidence(0.95), 1.959_963_984_540_054, 1e-10);
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
        assert_close!(s.white_score(), 0.65, 1e-15);
        // Agresti–Coull extended to draws, by hand (k = z²/2 = 1.920729 pseudo-games
        // at 0 and at 1): n = 13.841459, s~ = (6.5 + k) / n = 0.608374,
        // ss = 5(1-s~)² + 3(0.5-s~)² + 2 s~² + k s~² + k (1-s~)² = 3.126283,
        // half = z sqrt(ss) / n = 0.226011 (also /tmp-free: see docs/statistics.md).
        let (lo, hi) = s.score_interval(0.95);
        assert_close!(lo, 0.382_348_602_513_795, 1e-9);
        assert_close!(hi, 0.834_391_557_527_338, 1e-9);
        let (elo_lo, elo_hi) = s.elo_interval(0.95);
        assert_close!(elo_lo, elo_from_score(lo), 1e-12);
        assert_close!(elo_hi, elo_from_score(hi), 1e-12);
        assert_close!(s.white_elo(), 400.0 * (0.65f64 / 0.35).log10(), 1e-9);
        assert!(elo_lo < s.white_elo() && s.white_elo() < elo_hi);
        // Draw rate 3/10 with Wilson at z = 1.959964: (0.107791, 0.603222).
        assert_close!(s.draw_rate(), 0.3, 1e-15);
        let (lo, hi) = s.draw_rate_interval(0.95);
        assert_close!(lo, 0.107_791_267_4, 1e-9);
        assert_close!(hi, 0.603_221_852_5, 1e-9);
        // All draws: the interval does not collapse to a point (20 draws:
        // 0.5 ± z sqrt(2k · 0.25) / (20 + 2k) = [0.419437, 0.580563]).
        let d = Stats {
            draws: 20,
            ..Stats::default()
        };
        let (lo, hi) = d.score_interval(0.95);
        assert_close!(lo, 0.419_437_420_973_590, 1e-9);
        assert_close!(hi, 0.580_562_579_026_410, 1e-9);
        // With no draws it is the Agresti–Coull binomial interval: 0 of 10 has the
        // upper end (x + z²/2)/(n + z²) + z sqrt(p~(1-p~)/(n + z²)) = 0.320887.
        let l = Stats {
            black_wins: 10,
            ..Stats::default()
        };
        let (lo, hi) = l.score_interval(0.95);
        assert_eq!(lo, 0.0);
        assert_close!(hi, 0.320_887_305_750_546, 1e-9);
    }

    #[test]
    fn fixed_never_prints_negative_zero() {
        assert_eq!(fixed(-0.0, 3), "0.000");
        assert_eq!(fixed(-0.0004, 3), "0.000");
        assert_eq!(fixed(-0.4, 0), "0");
        assert_eq!(fixed(-0.0006, 3), "-0.001");
        assert_eq!(fixed(1.25, 1), "1.2");
        assert_eq!(fixed(-12.5, 1), "-12.5");
        assert_eq!(fixed(f64::NAN, 2), "NaN");
    }

    #[test]
    fn fieller_interval_is_asymmetric_and_knows_when_to_give_up() {
        // a/b = 3 with va = 0.25, vb = 0.04, cab = 0.01 at z = 1.959964:
        // roots of (b² - z²vb) r² - 2(ab - z²cab) r + (a² - z²va) = 0, by hand
        // 1.842271 and 5.156286 (the delta method would give a symmetric 3 ± 1.42).
        let RatioInterval::Bounded(lo, hi) =
            fieller_interval(3.0, 1.0, 0.25, 0.04, 0.01, 1.959_963_984_540_054)
        else {
            panic!("bounded expected")
        };
        assert_close!(lo, 1.842_271_434_340_02, 1e-9);
        assert_close!(hi, 5.156_286_232_503_38, 1e-9);
        // Denominator 1 ± 1.96 · 0.6 reaches zero: not estimable.
        assert_eq!(
            fieller_interval(3.0, 1.0, 0.25, 0.36, 0.0, 1.96),
            RatioInterval::NotEstimable
        );
        // Zero variances: the point itself.
        assert_eq!(
            fieller_interval(2.0, 4.0, 0.0, 0.0, 0.0, 1.96),
            RatioInterval::Bounded(0.5, 0.5)
        );
    }

    #[test]
    fn length_mean_interval() {
        // Clusters (10, 2), (14, 2), (30, 2): mean 54 / 6 = 9, residuals 10 - 18 = -8,
        // 14 - 18 = -4, 30 - 18 = 12, ss = 224, C/(C-1) = 1.5, half = z sqrt(336) / 6.
        let c = |total: f64| Cluster { total, size: 2.0 };
        let e = mean_interval(&[c(10.0), c(14.0), c(30.0)], 1.96).unwrap();
        assert_close!(e.value, 9.0, 1e-12);
        assert_close!(e.high - e.value, 1.96 * 336f64.sqrt() / 6.0, 1e-12);
        assert!(mean_interval(&[c(10.0)], 1.96).is_none());
        assert_eq!(e.show(1), "9.0 [3.0, 15.0]");
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
        // Pairs as clusters of two games with k = z²/2 pseudo-pairs at 0 and at 2
        // points: worked out by hand / an independent script as [0.462827, 0.725920].
        let (lo, hi) = s.pair_score_interval(0.95);
        assert_close!(lo, 0.462_826_787_469_635, 1e-9);
        assert_close!(hi, 0.725_920_051_968_481, 1e-9);
        let (elo_lo, elo_hi) = s.pair_elo_interval(0.95);
        assert!(elo_lo < s.pair_elo() && s.pair_elo() < elo_hi);
        // sigma_pg = sqrt(2 · 0.07796875) = 0.394889, nt = 0.1125 / 0.394889
        // = 0.284890, nElo = 0.284890 · 347.4356 = 98.98.
        assert_close!(s.normalized_elo(), 98.980_931_611_737_87, 1e-9);
        // Delta method with skewness and kurtosis (moments of PENTA by hand):
        // t = 0.402894, se(t) = 0.173822 → nElo interval [-17.868, 215.830].
        let e = s.normalized_elo_estimate(0.95).unwrap();
        assert_close!(e.low, -17.868_315_875_436, 1e-6);
        assert_close!(e.high, 215.830_179_098_912, 1e-6);
        // Symmetric counts: nElo 0.
        let sym = Stats {
            penta: [2, 4, 8, 4, 2],
            ..Stats::default()
        };
        assert_close!(sym.normalized_elo(), 0.0, 1e-12);
        // Ten drawn pairs: the interval is not a point.
        let dd = Stats {
            penta: [0, 0, 10, 0, 0],
            ..Stats::default()
        };
        let (lo, hi) = dd.pair_score_interval(0.95);
        assert_close!(lo, 0.361_233_600_068_555, 1e-9);
        assert_close!(hi, 0.638_766_399_931_445, 1e-9);
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
