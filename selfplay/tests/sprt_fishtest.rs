//! The SPRT's figures against fishtest's own (`data/stats/`, made by
//! `scripts/fishtest_reference.py` from fishtest's statistics modules): the generalised LLR
//! of both Elo models on 200 samples (all draws, all wins and losses, one pair, 100,000
//! pairs, random ones), and the median-unbiased Elo at a stop with its interval and LOS.

use variantlab_selfplay::stats::{EloModel, Sprt};

fn rows(file: &str) -> Vec<csv::StringRecord> {
    let path = format!("{}/../data/stats/{file}", env!("CARGO_MANIFEST_DIR"));
    let mut r = csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    r.records().map(|x| x.unwrap()).collect()
}

fn num(r: &csv::StringRecord, i: usize) -> f64 {
    r[i].parse()
        .unwrap_or_else(|_| panic!("bad number {:?} in {r:?}", &r[i]))
}

fn penta(r: &csv::StringRecord, from: usize) -> [u64; 5] {
    std::array::from_fn(|i| r[from + i].parse().unwrap())
}

fn sprt(model: EloModel, elo0: f64, elo1: f64) -> Sprt {
    Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model,
    }
}

#[test]
fn llr_equals_fishtest_for_both_models() {
    let rows = rows("llr_fishtest.csv");
    let mut checked = [0usize; 2];
    let mut worst = 0f64;
    for r in &rows {
        let model = match &r[0] {
            "logistic" => EloModel::Logistic,
            "normalized" => EloModel::Normalized,
            m => panic!("unknown model {m}"),
        };
        let (e0, e1, expected) = (num(r, 1), num(r, 2), num(r, 8));
        let p = penta(r, 3);
        let got = sprt(model, e0, e1).llr(&p);
        let rel = (got - expected).abs() / expected.abs().max(1e-3);
        worst = worst.max(rel);
        assert!(
            rel <= 1e-6,
            "{model:?} [{e0}, {e1}] {p:?}: {got} against fishtest's {expected} (relative {rel:e})"
        );
        checked[model as usize] += 1;
    }
    eprintln!("largest relative difference {worst:e}");
    assert!(checked.iter().all(|&n| n >= 150), "{checked:?}");
}

#[test]
fn stop_estimate_equals_fishtest() {
    let rows = rows("sprt_estimate_fishtest.csv");
    assert!(rows.len() >= 50);
    for r in &rows {
        let (e0, e1) = (num(r, 0), num(r, 1));
        let p = penta(r, 2);
        let e = sprt(EloModel::Logistic, e0, e1)
            .stop_estimate(&p, 0.95)
            .unwrap_or_else(|| panic!("{p:?}: no estimate"));
        for (what, got, expected, tol) in [
            ("elo", e.elo, num(r, 7), 1e-4),
            ("low", e.low, num(r, 8), 1e-4),
            ("high", e.high, num(r, 9), 1e-4),
            ("los", e.los, num(r, 10), 1e-6),
        ] {
            assert!(
                (got - expected).abs() <= tol * expected.abs().max(1.0),
                "[{e0}, {e1}] {p:?} {what}: {got} against fishtest's {expected}"
            );
        }
    }
}
