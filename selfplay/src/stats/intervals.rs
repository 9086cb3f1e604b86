//! Intervals for means, proportions and ratios, and the normal distribution they use.

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

/// A mean per game with the spread behind its interval: the centre an interval is drawn
/// around and `root / games`, its standard error. Kept apart from the interval so that a
/// difference of two runs' means can add their variances ([`crate::analysis::compare`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// The interval's centre: the plain mean, or for a quantity in `[0, 1]` the mean with
    /// the pseudo-clusters added.
    pub centre: f64,
    /// Square root of the cluster-robust summed squares (with the small-sample factor for
    /// an unbounded mean).
    pub root: f64,
    /// Games (with the pseudo-clusters, for a quantity in `[0, 1]`).
    pub games: f64,
}

impl Spread {
    /// The standard error of the mean.
    pub fn se(&self) -> f64 {
        self.root / self.games
    }
}

/// The [`Spread`] behind [`unit_mean_interval`]; `None` with no games.
pub fn unit_mean_spread(clusters: &[(Cluster, f64)], z: f64) -> Option<Spread> {
    let games: f64 = clusters.iter().map(|(c, w)| c.size * w).sum();
    let count: f64 = clusters.iter().map(|(_, w)| w).sum();
    if games <= 0.0 || count <= 0.0 {
        return None;
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
    Some(Spread {
        centre: s,
        root: ss.sqrt(),
        games: n,
    })
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
    let Some(Spread {
        centre: s,
        root,
        games: n,
    }) = unit_mean_spread(clusters, z)
    else {
        return (0.0, 1.0);
    };
    let half = z * root / n;
    ((s - half).max(0.0), (s + half).min(1.0))
}

/// The [`Spread`] behind [`mean_interval`]; `None` with fewer than two clusters.
pub fn mean_spread(clusters: &[Cluster]) -> Option<Spread> {
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
    Some(Spread {
        centre: s,
        root: (ss * c / (c - 1.0)).sqrt(),
        games,
    })
}

/// Interval for an unbounded mean per game (game length) from clusters of games,
/// with the cluster-robust variance and the small-sample factor `C / (C - 1)`.
/// `None` with fewer than two clusters: one cluster says nothing about the spread.
pub fn mean_interval(clusters: &[Cluster], z: f64) -> Option<Estimate> {
    let Spread {
        centre: s,
        root,
        games,
    } = mean_spread(clusters)?;
    let half = z * root / games;
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
