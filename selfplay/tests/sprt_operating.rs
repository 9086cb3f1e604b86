//! Operating characteristic of the SPRT: simulated matches at a known true Elo end, and
//! accept H1 and H0 at the rates alpha and beta promise, at low and at high (80-90%) draw
//! rates, on lopsided matches (one side far stronger) and on matches of nothing but draws,
//! in both Elo models.
//!
//! Every run must end: a match still undecided after 200,000 pairs counts as a failure, not
//! as "neither error" (an LLR stuck at 0 would otherwise pass). The power at elo1 must be at
//! least 1 - beta less three simulation standard errors (with 200 runs, 1.5 points each), and
//! the false-H1 rate at most 12% (4.5 standard errors above alpha); the Brownian
//! approximation this replaced accepted H0 in about half of the runs at a true elo1 with a
//! 90% draw rate, which fails both by a wide margin.

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
    // A lopsided Elo leaves room for fewer draws than asked: take what it allows.
    let draw = draws.min(2.0 * s.min(1.0 - s));
    let win = s - draw / 2.0;
    assert!(win >= -1e-12 && win + draw <= 1.0 + 1e-12);
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

/// Decisions over `runs` matches: (accept H1, accept H0, undecided) as rates.
fn rates(sprt: &Sprt, elo: f64, draws: f64, runs: u32, seed: u64) -> (f64, f64, f64) {
    let mut rng = Rng(seed);
    let mut count = [0u32; 3];
    for _ in 0..runs {
        count[match one_match(sprt, elo, draws, &mut rng) {
            SprtStatus::AcceptH1 => 0,
            SprtStatus::AcceptH0 => 1,
            SprtStatus::Continue => 2,
        }] += 1;
    }
    let r = |i: usize| f64::from(count[i]) / f64::from(runs);
    (r(0), r(1), r(2))
}

const RUNS: u32 = 200;
const LIMIT: f64 = 0.12;
const BETA: f64 = 0.05;

/// The least power that 200 runs can show for a test of power `1 - BETA`: three standard
/// errors below it.
fn least_power() -> f64 {
    1.0 - BETA - 3.0 * (BETA * (1.0 - BETA) / f64::from(RUNS)).sqrt()
}

/// At the true Elo `true0` (where H0 holds) and `true1` (where H1 holds): every run ends,
/// false H1 at most [`LIMIT`], power at least [`least_power`].
fn check_rates(sprt: &Sprt, label: &str, draws: f64, true0: f64, true1: f64, seed: u64) {
    let (false_h1, _, open0) = rates(sprt, true0, draws, RUNS, seed);
    let (power, _, open1) = rates(sprt, true1, draws, RUNS, seed + 100);
    eprintln!("{label} draws {draws}: false H1 {false_h1}, power {power}");
    assert_eq!(open0 + open1, 0.0, "{label} draws {draws}: undecided runs");
    assert!(
        false_h1 <= LIMIT,
        "{label} draws {draws}: H1 accepted in {false_h1} of runs at elo0"
    );
    assert!(
        power >= least_power(),
        "{label} draws {draws}: H1 accepted in only {power} of runs at elo1"
    );
}

fn check(model: EloModel, elo0: f64, elo1: f64, true0: f64, true1: f64) {
    let sprt = Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: BETA,
        model,
    };
    for (draws, seed) in [(0.3f64, 1), (0.8, 2)] {
        check_rates(&sprt, &format!("{model:?}"), draws, true0, true1, seed);
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
        check_rates(&sprt, "Normalized", draws, 0.0, elo1, seed);
    }
}

/// One side far stronger (a lopsided match, +-400 Elo at bounds [0, 5]), and matches of
/// nothing but draws: each model decides every run, and decides it right. Before the
/// normalized model's fit started from the uniform distribution, its LLR stayed at exactly
/// 0 on such samples and these matches never ended.
#[test]
fn lopsided_and_all_draw_matches_end_rightly() {
    for model in [EloModel::Logistic, EloModel::Normalized] {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: BETA,
            model,
        };
        for (elo, draws, want) in [
            (-400.0, 0.1, SprtStatus::AcceptH0),
            (400.0, 0.1, SprtStatus::AcceptH1),
            (-400.0, 0.0, SprtStatus::AcceptH0),
            (0.0, 1.0, SprtStatus::AcceptH0),
        ] {
            let mut rng = Rng(7);
            for run in 0..20 {
                let got = one_match(&sprt, elo, draws, &mut rng);
                assert_eq!(got, want, "{model:?} elo {elo} draws {draws} run {run}");
            }
        }
    }
}
