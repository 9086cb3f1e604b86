//! Coverage of every interval the toolkit prints, by simulation: matches of known truth are
//! drawn many times, and the share of intervals holding the truth is counted, at small and
//! large samples and at low and high draw rates. The table is `docs/statistics.md`'s
//! ("Coverage"): this test recomputes it (same seeds, same figures) and fails when the page
//! differs; `VARIANTLAB_WRITE_DOCS=1` writes it instead.
//!
//! Each interval must cover at least 93% wherever it is shown (a 95% interval with the
//! simulation's own error, 2000 runs: ±1 point).

use std::collections::HashMap;
use std::fmt::Write as _;
use variantlab_selfplay::stats::{
    score_from_elo, unit_mean_interval, z_for_confidence, Cluster, EloModel, Sprt, SprtStatus,
    Stats, NELO_DIVIDED_BY_NT,
};

/// SplitMix64, seeded: the same table on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A game's points (0, 1 or 2 half-points) for the side winning with `win` and
    /// drawing with `draw`.
    fn game(&mut self, win: f64, draw: f64) -> usize {
        let u = self.next();
        if u < win {
            2
        } else if u < win + draw {
            1
        } else {
            0
        }
    }
}

/// A match of known truth: a side scoring `score` per game with draw rate `draw`, the two
/// games of a pair sharing an opening that moves the win chance by ±`shift` (so they are
/// correlated, as colour-swapped pairs from one opening are).
#[derive(Clone, Copy)]
struct Truth {
    elo: f64,
    draw: f64,
}

impl Truth {
    fn probs(self) -> (f64, f64) {
        let s = score_from_elo(self.elo);
        (s - self.draw / 2.0, self.draw)
    }

    fn shift(self) -> f64 {
        let (win, draw) = self.probs();
        0.5 * win.min(1.0 - win - draw)
    }

    /// The pentanomial distribution of a pair under the model.
    fn penta(self) -> [f64; 5] {
        let (win, draw) = self.probs();
        let mut p = [0.0; 5];
        for sign in [-1.0, 1.0] {
            let w = win + sign * self.shift();
            let g = [1.0 - w - draw, draw, w];
            for i in 0..3 {
                for j in 0..3 {
                    p[i + j] += 0.5 * g[i] * g[j];
                }
            }
        }
        p
    }

    /// The true normalised Elo.
    fn nelo(self) -> f64 {
        let p = self.penta();
        let a = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mu: f64 = (0..5).map(|i| p[i] * a[i]).sum();
        let var: f64 = (0..5).map(|i| p[i] * (a[i] - mu).powi(2)).sum();
        (mu - 0.5) / (2.0 * var).sqrt() * NELO_DIVIDED_BY_NT
    }

    /// One pair's two games, in half-points of the side.
    fn pair(self, rng: &mut Rng) -> [usize; 2] {
        let (win, draw) = self.probs();
        let w = win + if rng.next() < 0.5 { -1.0 } else { 1.0 } * self.shift();
        [rng.game(w, draw), rng.game(w, draw)]
    }
}

const RUNS: u32 = 2000;
const LEAST: f64 = 0.93;

/// Coverage of the fixed-sample intervals at `pairs` pairs: score (clustered by pair, as
/// `balance.csv`'s White score), draw rate (clustered), the pentanomial score (the SPRT's
/// Elo, mapped from it) and nElo.
fn fixed_sample(truth: Truth, pairs: u64, seed: u64) -> [f64; 4] {
    let z = z_for_confidence(0.95);
    let mut rng = Rng(seed);
    let score = score_from_elo(truth.elo);
    let nelo = truth.nelo();
    let mut hits = [0u32; 4];
    let mut nelo_cache: HashMap<[u64; 5], (f64, f64)> = HashMap::new();
    for _ in 0..RUNS {
        let mut stats = Stats::default();
        let (mut points, mut draws) = (Vec::new(), Vec::new());
        for _ in 0..pairs {
            let [a, b] = truth.pair(&mut rng);
            stats.add_pair(a as f64 / 2.0, b as f64 / 2.0);
            let cluster = |total: f64| (Cluster { total, size: 2.0 }, 1.0);
            points.push(cluster((a + b) as f64 / 2.0));
            draws.push(cluster(f64::from(u8::from(a == 1) + u8::from(b == 1))));
        }
        let inside = |(lo, hi): (f64, f64), x: f64| lo <= x && x <= hi;
        hits[0] += u32::from(inside(unit_mean_interval(&points, z), score));
        hits[1] += u32::from(inside(unit_mean_interval(&draws, z), truth.draw));
        hits[2] += u32::from(inside(stats.pair_score_interval(0.95), score));
        let n = *nelo_cache.entry(stats.penta).or_insert_with(|| {
            stats
                .normalized_elo_estimate(0.95)
                .map_or((f64::NEG_INFINITY, f64::INFINITY), |e| (e.low, e.high))
        });
        hits[3] += u32::from(inside(n, nelo));
    }
    hits.map(|h| f64::from(h) / f64::from(RUNS))
}

/// Sequential matches at bounds [0, 20] (logistic): of those that stop, the share whose
/// plain interval and whose median-unbiased interval hold the truth, and the mean of each
/// estimate.
fn at_stop(truth: Truth, seed: u64, runs: u32) -> [f64; 4] {
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 20.0,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Logistic,
    };
    let mut rng = Rng(seed);
    let (mut plain_hits, mut mu_hits, mut plain_sum, mut mu_sum, mut stopped) =
        (0u32, 0u32, 0.0, 0.0, 0u32);
    for _ in 0..runs {
        let mut stats = Stats::default();
        for _ in 0..100_000 {
            let [a, b] = truth.pair(&mut rng);
            stats.add_pair(a as f64 / 2.0, b as f64 / 2.0);
            if sprt.status(&stats.penta) != SprtStatus::Continue {
                break;
            }
        }
        if sprt.status(&stats.penta) == SprtStatus::Continue {
            continue;
        }
        stopped += 1;
        let (lo, hi) = stats.pair_elo_interval(0.95);
        plain_hits += u32::from(lo <= truth.elo && truth.elo <= hi);
        plain_sum += stats.pair_elo();
        let e = sprt.stop_estimate(&stats.penta, 0.95).expect("pairs");
        mu_hits += u32::from(e.low <= truth.elo && truth.elo <= e.high);
        mu_sum += e.elo;
    }
    let n = f64::from(stopped);
    [
        f64::from(plain_hits) / n,
        f64::from(mu_hits) / n,
        plain_sum / n,
        mu_sum / n,
    ]
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The coverage tables, as `docs/statistics.md` shows them.
fn tables() -> (String, Vec<(String, f64)>) {
    let mut md = String::new();
    let mut checked = Vec::new();
    md.push_str(
        "| pairs | draw rate | Elo | score | draw rate | pair score (SPRT Elo) | nElo |\n|---|---|---|---|---|---|---|\n",
    );
    let mut seed = 1;
    for pairs in [10, 20, 100, 1000] {
        for draw in [0.3, 0.85] {
            for elo in [0.0, 50.0] {
                let truth = Truth { elo, draw };
                let c = fixed_sample(truth, pairs, seed);
                seed += 1;
                let _ = writeln!(
                    md,
                    "| {pairs} | {draw} | {elo} | {} | {} | {} | {} |",
                    pct(c[0]),
                    pct(c[1]),
                    pct(c[2]),
                    pct(c[3])
                );
                for (name, x) in ["score", "draw rate", "pair score", "nElo"].iter().zip(c) {
                    checked.push((
                        format!("{name} at {pairs} pairs, {draw} draws, Elo {elo}"),
                        x,
                    ));
                }
            }
        }
    }
    md.push_str(
        "\n| true Elo | draw rate | plain interval | median-unbiased interval | mean plain Elo | mean median-unbiased Elo |\n|---|---|---|---|---|---|\n",
    );
    for draw in [0.3, 0.85] {
        for elo in [0.0, 10.0, 20.0] {
            let c = at_stop(Truth { elo, draw }, seed, 300);
            seed += 1;
            let _ = writeln!(
                md,
                "| {elo} | {draw} | {} | {} | {:+.1} | {:+.1} |",
                pct(c[0]),
                pct(c[1]),
                c[2],
                c[3]
            );
            checked.push((
                format!("median-unbiased at stop, Elo {elo}, {draw} draws"),
                c[1],
            ));
        }
    }
    (md, checked)
}

#[test]
fn every_interval_covers_and_the_page_says_so() {
    let (md, checked) = tables();
    eprintln!("{md}");
    for (what, c) in &checked {
        assert!(*c >= LEAST, "{what}: coverage {c}");
    }
    let path = format!("{}/../docs/statistics.md", env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(&path).expect("docs/statistics.md");
    let (start, end) = ("<!-- coverage:start -->\n", "<!-- coverage:end -->");
    let (Some(a), Some(b)) = (page.find(start), page.find(end)) else {
        panic!("{path}: no coverage block ({start:?} ... {end:?})");
    };
    let current = &page[a + start.len()..b];
    if std::env::var_os("VARIANTLAB_WRITE_DOCS").is_some() {
        let updated = format!("{}{md}{}", &page[..a + start.len()], &page[b..]);
        std::fs::write(&path, updated).expect("writing the page");
    } else {
        assert_eq!(
            current, md,
            "{path}'s coverage table differs from the simulation; rerun with VARIANTLAB_WRITE_DOCS=1"
        );
    }
}
