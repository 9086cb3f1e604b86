//! Operating characteristic of the SPRT: simulated matches at a known true Elo accept H1
//! and H0 at the rates alpha and beta promise, at low and at high (80-90%) draw rates.
//!
//! The Brownian approximation this replaced accepted H0 in about half of the runs at a true
//! elo1 with a 90% draw rate; the bounds below fail that by a wide margin, and cannot be met
//! by chance: with 200 runs the standard error of a 5% rate is 1.5 points, and the limit is
//! 12% (4.5 standard errors).

use variantlab_selfplay::stats::{score_from_elo, EloModel, Sprt, SprtStatus};

/// SplitMix64: a seeded generator, so the test is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Runs one SPRT on simulated pairs of independent games with the first engine's true
/// logistic Elo `elo` and draw rate `draws`; returns the decision.
fn one_match(sprt: &Sprt, elo: f64, draws: f64, rng: &mut Rng) -> SprtStatus {
    let s = score_from_elo(elo);
    let (win, draw) = (s - draws / 2.0, draws);
    assert!(win >= 0.0 && win + draw <= 1.0);
    let mut game = || {
        let u = rng.next();
        if u < win {
            2
        } else if u < win + draw {
            1
        } else {
            0
        }
    };
    let mut penta = [0u64; 5];
    for _ in 0..200_000 {
        penta[game() + game()] += 1;
        // Check every pair, as `variantlab sprt` does.
        let v = sprt.status(&penta);
        if v != SprtStatus::Continue {
            return v;
        }
    }
    SprtStatus::Continue
}

/// Rates of (accept H1, accept H0) over `runs` matches.
fn rates(sprt: &Sprt, elo: f64, draws: f64, runs: u32, seed: u64) -> (f64, f64) {
    let mut rng = Rng(seed);
    let (mut h1, mut h0) = (0, 0);
    for _ in 0..runs {
        match one_match(sprt, elo, draws, &mut rng) {
            SprtStatus::AcceptH1 => h1 += 1,
            SprtStatus::AcceptH0 => h0 += 1,
            SprtStatus::Continue => {}
        }
    }
    (
        f64::from(h1) / f64::from(runs),
        f64::from(h0) / f64::from(runs),
    )
}

const RUNS: u32 = 200;
const LIMIT: f64 = 0.12;

fn check(model: EloModel, elo0: f64, elo1: f64, true0: f64, true1: f64) {
    let sprt = Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model,
    };
    for (draws, seed) in [(0.3f64, 1), (0.8, 2)] {
        let (false_h1, _) = rates(&sprt, true0, draws, RUNS, seed);
        let (_, false_h0) = rates(&sprt, true1, draws, RUNS, seed + 100);
        eprintln!("{model:?} draws {draws}: false H1 {false_h1}, false H0 {false_h0}");
        assert!(
            false_h1 <= LIMIT,
            "{model:?} draws {draws}: H1 accepted in {false_h1} of runs at elo0"
        );
        assert!(
            false_h0 <= LIMIT,
            "{model:?} draws {draws}: H0 accepted in {false_h0} of runs at elo1"
        );
    }
}

#[test]
fn logistic_bounds_keep_their_error_rates() {
    // Wide bounds keep the simulated matches short; the statistic is the same.
    check(EloModel::Logistic, 0.0, 40.0, 0.0, 40.0);
}

#[test]
fn normalized_bounds_keep_their_error_rates() {
    // nElo 0 is Elo 0; nElo 40 is a different logistic Elo at each draw rate, so the
    // true Elo at H1 is found from the draw rate: per-game sigma with independent games
    // is sqrt(s(1-s) - d/4), and nElo = (s - 1/2) / sigma * 800 / ln 10.
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 40.0,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Normalized,
    };
    for (draws, seed) in [(0.3f64, 3), (0.9, 4)] {
        // Solve (s - 1/2) / sqrt(s(1-s) - d/4) = 40 / (800 / ln 10) for s by bisection.
        let target = 40.0 / (800.0 / std::f64::consts::LN_10);
        let (mut lo, mut hi) = (0.5, 0.5 + (1.0 - draws) / 2.0 - 1e-9);
        for _ in 0..100 {
            let s = 0.5 * (lo + hi);
            if (s - 0.5) / (s * (1.0 - s) - draws / 4.0).sqrt() < target {
                lo = s;
            } else {
                hi = s;
            }
        }
        let s1 = 0.5 * (lo + hi);
        let elo1 = -400.0 * (1.0 / s1 - 1.0).log10();
        let (false_h1, _) = rates(&sprt, 0.0, draws, RUNS, seed);
        let (_, false_h0) = rates(&sprt, elo1, draws, RUNS, seed + 100);
        eprintln!("Normalized draws {draws}: false H1 {false_h1}, false H0 {false_h0}");
        assert!(false_h1 <= LIMIT, "draws {draws}: false H1 rate {false_h1}");
        assert!(false_h0 <= LIMIT, "draws {draws}: false H0 rate {false_h0}");
    }
}
