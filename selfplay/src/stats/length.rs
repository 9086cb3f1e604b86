//! Game lengths: the five-number summary, quantiles and histograms.

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
/// `[0, 1]`; empty data gives 0. Game lengths and bootstrap replicates alike.
pub fn quantile_sorted<T: Copy + Into<f64>>(sorted: &[T], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let h = (sorted.len() - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    let (a, b): (f64, f64) = (sorted[lo].into(), sorted[hi].into());
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
        assert_eq!(quantile_sorted::<u32>(&[], 0.5), 0.0);
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
