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

/// `assert_close!(a, b, tol)`: `|a - b| <= tol`, naming both; for every test module here.
#[cfg(test)]
macro_rules! assert_close {
    ($a:expr, $b:expr, $tol:expr) => {{
        let (a, b): (f64, f64) = ($a, $b);
        assert!((a - b).abs() <= $tol, "{a} vs {b} (tol {})", $tol);
    }};
}

/// [LL, LD, LW|DD, WD, WW] = [1, 3, 6, 6, 4], N = 20 pairs, the tests' sample. By hand:
/// sum of scores = 0·1 + 0.25·3 + 0.5·6 + 0.75·6 + 1·4 = 12.25,
/// mu = 12.25 / 20 = 0.6125;
/// E[a²] = (0.0625·3 + 0.25·6 + 0.5625·6 + 1·4) / 20 = 9.0625 / 20
///       = 0.453125, var = 0.453125 - 0.6125² = 0.07796875.
#[cfg(test)]
const PENTA: [u64; 5] = [1, 3, 6, 6, 4];

mod gsprt;
mod intervals;
mod length;
mod sprt_estimate;

pub use gsprt::*;
pub use intervals::*;
pub use length::*;
pub use sprt_estimate::StopEstimate;

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

    /// Likelihood of superiority of the first engine, as fastchess prints it: `Φ((mu - ½) /
    /// se)` with `mu` the pair score and `se` its standard error over the pairs; 0.5 with no
    /// pairs, and 0 or 1 (by the sign of `mu - ½`) when every pair scored alike.
    pub fn pair_los(&self) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.5;
        }
        let (mu, var, _, _) = moments(&to_pdf(&self.penta.map(|c| c as f64)));
        if var > 0.0 {
            normal_cdf((mu - 0.5) / (var / n).sqrt())
        } else if mu == 0.5 {
            0.5
        } else if mu > 0.5 {
            1.0
        } else {
            0.0
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
        self.normalized_elo_estimate(0.95).map_or(0.0, |e| e.value)
    }

    /// Normalised Elo with its `confidence` interval; `None` with no pairs or no
    /// spread at all. The interval is the profile-likelihood one for the t-value
    /// `(mu - 1/2) / sigma` of the pair score ([`t_value_interval`]), mapped to nElo,
    /// with its threshold taken from Student's t with one degree of freedom less than the
    /// pairs (the likelihood ratio's chi-square undercovers at a few pairs, 92% at ten, as
    /// a z-interval for a mean does); a one-sided sample stays on its own side of zero.
    /// Coverage by simulation: `tests/interval_coverage.rs`, tabulated in
    /// `docs/statistics.md`.
    ///
    /// # Panics
    ///
    /// If `confidence` is not strictly between 0 and 1.
    pub fn normalized_elo_estimate(&self, confidence: f64) -> Option<Estimate> {
        let z = z_for_confidence(confidence);
        let counts = regularized(&self.penta)?;
        let (mu, var, _, _) = moments(&to_pdf(&counts));
        if var.is_nan() || var <= 0.0 {
            return None;
        }
        let t = (mu - 0.5) / var.sqrt();
        let pairs = self.pairs() as f64;
        let z = statrs::distribution::StudentsT::new(0.0, 1.0, (pairs - 1.0).max(1.0))
            .map_or(z, |d| {
                statrs::distribution::ContinuousCDF::inverse_cdf(&d, 0.5 + 0.5 * confidence)
            });
        let (low, high) = t_value_interval(&counts, z);
        // Per-game t is the pair t over sqrt 2.
        let scale = NELO_DIVIDED_BY_NT / std::f64::consts::SQRT_2;
        Some(Estimate {
            value: t * scale,
            low: low.min(t) * scale,
            high: high.max(t) * scale,
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_close!(s.draw_rate(), 0.3, 1e-15);
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
    fn empty_stats_give_neutral_values_not_nan() {
        let s = Stats::default();
        assert_eq!(s.games(), 0);
        assert_eq!(s.white_score(), 0.5);
        assert_eq!(s.white_elo(), 0.0);
        assert_eq!(s.score_interval(0.95), (0.0, 1.0));
        let (lo, hi) = s.elo_interval(0.95);
        assert!(lo < -1000.0 && hi > 1000.0 && lo.is_finite() && hi.is_finite());
        assert_eq!(s.draw_rate(), 0.0);
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
        // Profile likelihood of t at Student's t(19) threshold 2.093: an independent
        // Python check (scipy's SLSQP maximising the likelihood under the t constraint,
        // brentq for the ends) gives [-21.414398, 233.040990].
        let e = s.normalized_elo_estimate(0.95).unwrap();
        assert_close!(e.low, -21.414_397_8, 1e-5);
        assert_close!(e.high, 233.040_990, 1e-5);
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

    /// LOS by hand for PENTA: mu 0.6125, var 0.07796875 over 20 pairs, z = 0.1125 /
    /// sqrt(var / 20) = 1.801803, Φ(z) = 0.964212; no pairs 0.5; one-sided samples 0 or 1.
    #[test]
    fn likelihood_of_superiority() {
        let s = |penta| Stats {
            penta,
            ..Stats::default()
        };
        assert_close!(s(PENTA).pair_los(), 0.964_211_773_955, 1e-9);
        assert_eq!(s([0; 5]).pair_los(), 0.5);
        assert_eq!(s([0, 0, 0, 0, 4]).pair_los(), 1.0);
        assert_eq!(s([3, 0, 0, 0, 0]).pair_los(), 0.0);
        assert_eq!(s([0, 0, 5, 0, 0]).pair_los(), 0.5);
    }

    /// A build that lost nearly every game: its nElo interval lies wholly below zero (the
    /// delta method gave -8403 [-17706, +899] for 600 losses in 602 games), and the mirror
    /// image wholly above; both are finite and hold the estimate.
    #[test]
    fn one_sided_samples_keep_their_nelo_interval_on_their_side() {
        for (penta, below) in [([300, 1, 0, 0, 0], true), ([0, 0, 0, 1, 300], false)] {
            let s = Stats {
                penta,
                ..Stats::default()
            };
            let e = s.normalized_elo_estimate(0.95).unwrap();
            assert!(e.low <= e.value && e.value <= e.high, "{e:?}");
            assert!(e.low.is_finite() && e.high.is_finite(), "{e:?}");
            if below {
                assert!(e.high < 0.0, "{penta:?}: {e:?}");
            } else {
                assert!(e.low > 0.0, "{penta:?}: {e:?}");
            }
        }
    }
}
