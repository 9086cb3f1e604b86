//! The Elo of an SPRT at its stop, without the bias of stopping.
//!
//! A sequential test stops when its LLR crosses a bound, so a match that stopped on H1 has
//! by construction been lucky: the plain Elo of its games overstates the truth (at bounds
//! [0, 10] the mean printed Elo of the matches that accepted H1 is 11 to 13 whether the
//! truth was 0, 5 or 10), and the plain interval covers too seldom. fishtest reports a
//! *median-unbiased* estimate instead, and so does this module, by the same method
//! (Michel Van den Bergh's, fishtest's `stats/sprt.py`):
//!
//! * The LLR is modelled as a Brownian motion with drift `mu` and variance `sigma²` per
//!   pair, in the corridor `(a, b)` of the test's bounds, started at 0. For a true score
//!   `s`, `mu = (s - (s0 + s1)/2) (s1 - s0) / v` and `sigma² = (s1 - s0)² / v`, with `v`
//!   the observed per-pair score variance (the Brownian approximation of the GSPRT).
//! * The match's outcome is the point `(T, y)` where it stopped (the LLR `y` after `T`
//!   pairs; a stop past a bound is pulled back onto it along the straight line from the
//!   origin). Outcomes are ordered: an earlier H0, then a later H0, then a later H1, then
//!   an earlier H1, and for an unfinished match the LLR at `T`.
//! * For a candidate Elo, [`outcome_cdf`] is the probability of an outcome worse than the
//!   observed one. The median-unbiased estimate is the Elo at which that probability is
//!   1/2; the ends of the interval are where it is `(1 ∓ confidence)/2`. `LOS` is the
//!   probability at Elo 0.
//!
//! The probability comes from the eigenfunction series of a Brownian motion absorbed at
//! both bounds, or, where that converges slowly (short times or strong drift), from
//! Siegmund's approximation. As fishtest says of its own, the method is made for small
//! Elo differences; far from the bounds its numbers are qualitative.

use super::*;

/// The median-unbiased Elo at an SPRT's stop, with its interval and LOS.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StopEstimate {
    /// Median-unbiased logistic Elo.
    pub elo: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
    /// Likelihood of superiority: the probability of an outcome worse than the one
    /// observed if the true Elo were 0.
    pub los: f64,
}

/// A Brownian motion with drift `mu` and variance `sigma2` per unit time, started at 0
/// and absorbed at `a < 0 < b`.
#[derive(Debug, Clone, Copy)]
struct Corridor {
    a: f64,
    b: f64,
    mu: f64,
    sigma2: f64,
}

impl Corridor {
    /// Probability that the path ends "worse" than passing through `(t, y)`: absorbed at
    /// `a` before `t`, or still inside at `t` below `y`, or absorbed at `b` after `t`
    /// (with `y` on a bound, the corresponding half of this).
    fn outcome_cdf(&self, t: f64, y: f64) -> f64 {
        let width = self.b - self.a;
        let gamma = self.mu / self.sigma2;
        let p = if self.sigma2 * t / (width * width) < 1e-2 || (gamma * width).abs() > 15.0 {
            self.siegmund(t, y)
        } else {
            self.series(t, y)
        };
        p.clamp(0.0, 1.0)
    }

    /// The exact probability as a sum over the corridor's eigenfunctions
    /// `sin(n π x / A)`, which converges fast once `σ² t / A²` is not small.
    fn series(&self, t: f64, y: f64) -> f64 {
        use std::f64::consts::PI;
        let width = self.b - self.a;
        let (start, end) = (-self.a, y - self.a);
        let gamma = self.mu / self.sigma2;
        let drift_term = self.mu * self.mu / self.sigma2 / 2.0;
        let lambda = |n: f64| (n * PI / width).powi(2) * self.sigma2 / 2.0 + drift_term;
        let scale = (-lambda(1.0) * t - start * gamma + end * gamma).exp();
        // ∫ e^{γ u} sin(nπu/A) du up to `end`, times 2/A e^{-γ end}.
        let primitive = |n: f64| {
            let k = n * PI / width;
            (2.0 * width * gamma * (k * end).sin() - 2.0 * PI * n * (k * end).cos())
                / (width * width * gamma * gamma + PI * PI * n * n)
        };
        let mut sum = 0.0;
        let mut n = 1.0;
        loop {
            let decay = (-(lambda(n) - lambda(1.0)) * t).exp();
            let term = decay * primitive(n);
            sum += term * (n * PI * start / width).sin();
            if (scale * term).abs() <= 1e-9 || n > 100_000.0 {
                break;
            }
            n += 1.0;
        }
        // Probability of leaving through `a` at all, from the start.
        let exit_low = if gamma * width > 30.0 {
            (-2.0 * gamma * start).exp()
        } else if (gamma * width).abs() < 1e-8 {
            (width - start) / width
        } else {
            (1.0 - (2.0 * gamma * (width - start)).exp()) / (1.0 - (2.0 * gamma * width).exp())
        };
        exit_low + scale * sum
    }

    /// Siegmund's approximation: the free motion's normal law, corrected by the images
    /// of the start in both bounds. `e^{c} Φ(z)` for large `c` is taken from the
    /// asymptotic expansion of `Φ` in its lower tail, so that it neither overflows nor
    /// loses its digits.
    fn siegmund(&self, t: f64, y: f64) -> f64 {
        let sd = (t * self.sigma2).sqrt();
        let offset = self.mu * t;
        let gamma = self.mu / self.sigma2;
        let z = (y - offset) / sd;
        let za = (-y + offset + 2.0 * self.a) / sd;
        let zb = (y - offset - 2.0 * self.b) / sd;
        let image = |exponent: f64, z: f64| {
            if exponent >= 10.0 {
                -(-(z * z) / 2.0 + exponent).exp() / (2.0 * std::f64::consts::PI).sqrt()
                    * (1.0 / z - 1.0 / z.powi(3))
            } else {
                exponent.exp() * normal_cdf(z)
            }
        };
        normal_cdf(z) + image(2.0 * gamma * self.a, za) - image(2.0 * gamma * self.b, zb)
    }
}

/// The observed state of a match in the terms of the Brownian model.
struct Observed {
    /// Per-pair mean and variance of the pair score.
    var: f64,
    /// Scores of the two hypotheses.
    s0: f64,
    s1: f64,
    /// Wald's bounds.
    a: f64,
    b: f64,
    /// Where the match stopped: pairs and LLR (pulled back onto a bound it passed).
    t: f64,
    y: f64,
}

impl Observed {
    fn new(sprt: &Sprt, penta: &[u64; 5]) -> Option<Observed> {
        let counts = regularized(penta)?;
        let n: f64 = counts.iter().sum();
        let (mean, var, _, _) = moments(&to_pdf(&counts));
        if var.is_nan() || var <= 0.0 {
            return None;
        }
        let (s0, s1) = match sprt.model {
            EloModel::Logistic => (score_from_elo(sprt.elo0), score_from_elo(sprt.elo1)),
            EloModel::Normalized => {
                // nElo to a score through the observed per-game deviation.
                let sigma_pg = (2.0 * var).sqrt();
                let s = |nelo: f64| 0.5 + nelo / NELO_DIVIDED_BY_NT * sigma_pg;
                (s(sprt.elo0), s(sprt.elo1))
            }
        };
        let (a, b) = sprt.bounds();
        let slope = (mean - (s0 + s1) / 2.0) * (s1 - s0) / var;
        let llr = n * slope;
        let (t, y) = if llr < a {
            (a / slope, a)
        } else if llr > b {
            (b / slope, b)
        } else {
            (n, llr)
        };
        Some(Observed {
            var,
            s0,
            s1,
            a,
            b,
            t,
            y,
        })
    }

    /// Probability of a worse outcome than the observed one at a true logistic Elo.
    fn worse_outcome(&self, elo: f64) -> f64 {
        let s = score_from_elo(elo);
        let d = self.s1 - self.s0;
        Corridor {
            a: self.a,
            b: self.b,
            mu: (s - (self.s0 + self.s1) / 2.0) * d / self.var,
            sigma2: d * d / self.var,
        }
        .outcome_cdf(self.t, self.y)
    }

    /// The Elo at which a worse outcome has probability `1 - p`: the root of a falling
    /// function, searched in a bracket around the bounds that widens until it holds the
    /// root or reaches ±1000 Elo (then the nearer end).
    fn elo_at(&self, sprt: &Sprt, p: f64) -> f64 {
        let f = |elo: f64| self.worse_outcome(elo) - (1.0 - p);
        let (centre, delta) = ((sprt.elo0 + sprt.elo1) / 2.0, sprt.elo1 - sprt.elo0);
        let mut width = 30.0;
        loop {
            let lo = (centre - width * delta).max(-1000.0);
            let hi = (centre + width * delta).min(1000.0);
            let (flo, fhi) = (f(lo), f(hi));
            if flo.signum() != fhi.signum() || flo == 0.0 || fhi == 0.0 {
                return bisect(&f, lo, hi, flo);
            }
            if lo <= -1000.0 && hi >= 1000.0 {
                return if flo > 0.0 { hi } else { lo };
            }
            width *= 2.0;
        }
    }
}

/// The root of `f` in `[lo, hi]`, where `f(lo)` is `flo` and `f` changes sign, to about
/// 1e-10 Elo.
fn bisect(f: &impl Fn(f64) -> f64, mut lo: f64, mut hi: f64, flo: f64) -> f64 {
    let rising = flo < 0.0;
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if hi - lo <= 1e-10 {
            break;
        }
        let fm = f(mid);
        if fm == 0.0 {
            return mid;
        }
        if (fm < 0.0) == rising {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

impl Sprt {
    /// The median-unbiased Elo of a match that stopped (or stands) at `penta`, with its
    /// `confidence` interval and LOS (see the module docs); `None` with no pairs or no
    /// spread in the pair scores.
    ///
    /// # Panics
    ///
    /// If `confidence` is not strictly between 0 and 1.
    pub fn stop_estimate(&self, penta: &[u64; 5], confidence: f64) -> Option<StopEstimate> {
        assert!(
            confidence > 0.0 && confidence < 1.0,
            "confidence must be in (0, 1), got {confidence}"
        );
        let o = Observed::new(self, penta)?;
        let p = 1.0 - confidence;
        Some(StopEstimate {
            elo: o.elo_at(self, 0.5),
            low: o.elo_at(self, p / 2.0),
            high: o.elo_at(self, 1.0 - p / 2.0),
            los: o.worse_outcome(0.0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        }
    }

    /// The two ways of computing the probability agree where both are accurate.
    #[test]
    fn series_and_siegmund_agree_in_between() {
        for (mu, t, y) in [(0.0, 3.0, 0.5), (0.05, 8.0, -1.0), (-0.08, 6.0, 1.5)] {
            let c = Corridor {
                a: -2.944,
                b: 2.944,
                mu,
                sigma2: 0.1,
            };
            // At small times the image terms are negligible and both are the normal law.
            let (series, siegmund) = (c.series(t, y), c.siegmund(t, y));
            assert!(
                (series - siegmund).abs() < 2e-3,
                "mu {mu} t {t} y {y}: {series} vs {siegmund}"
            );
        }
    }

    /// Better data give a higher estimate, the interval holds the estimate, and a match
    /// that sits exactly between the hypotheses is estimated between them.
    #[test]
    fn estimates_are_ordered() {
        let s = sprt(0.0, 10.0);
        let weak = s.stop_estimate(&[300, 900, 1600, 900, 300], 0.95).unwrap();
        let strong = s.stop_estimate(&[280, 880, 1600, 920, 320], 0.95).unwrap();
        assert!(weak.elo < strong.elo, "{weak:?} {strong:?}");
        for e in [weak, strong] {
            assert!(e.low < e.elo && e.elo < e.high, "{e:?}");
            assert!(e.los > 0.0 && e.los < 1.0);
        }
        assert!(weak.elo.abs() < 5.0, "{weak:?}");
        assert!(s.stop_estimate(&[0; 5], 0.95).is_none());
    }
}
