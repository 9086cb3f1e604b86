//! Statistics, reports and piece values end to end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_selfplay::values::logistic_clustered;

fn variantlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .output()
        .expect("runs")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("variantlab-an-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn small_run(dir: &Path, variant: &str) {
    let o = variantlab(&[
        "play",
        "--variant",
        variant,
        "--games",
        "16",
        "--nodes",
        "300",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
        "--record-moves",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let mut rows = vec![r.headers().unwrap().iter().map(String::from).collect()];
    rows.extend(
        r.records()
            .map(|x| x.unwrap().iter().map(String::from).collect()),
    );
    rows
}

#[test]
fn stats_and_report_describe_the_games() {
    let (a, b) = (tmp("chess"), tmp("dream"));
    small_run(&a, "chess");
    small_run(&b, "dream-chess-46");
    let out = tmp("stats");
    let o = variantlab(&[
        "stats",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bal = csv_rows(&out.join("balance.csv"));
    assert_eq!(bal.len(), 3);
    let col = |name: &str| bal[0].iter().position(|h| h == name).unwrap();
    for row in &bal[1..] {
        let n = |c: &str| row[col(c)].parse::<f64>().unwrap();
        assert_eq!(n("white_wins") + n("draws") + n("black_wins"), 16.0);
        assert_eq!(
            n("penta_ll") + n("penta_ld") + n("penta_dd_wl") + n("penta_wd") + n("penta_ww"),
            8.0
        );
        assert!(
            n("white_score_low") <= n("white_score") && n("white_score") <= n("white_score_high")
        );
        assert!((n("decisiveness") + n("draw_rate") - 1.0).abs() < 1e-3);
        let ends: f64 = bal[0]
            .iter()
            .enumerate()
            .filter(|(_, h)| h.starts_with("end_"))
            .map(|(i, _)| row[i].parse::<f64>().unwrap())
            .sum();
        assert_eq!(ends, 16.0);
    }
    let len = csv_rows(&out.join("length.csv"));
    assert_eq!(len.len(), 1 + 2 * 4);
    assert_eq!(&len[1][3], "all");

    let html = tmp("report").with_extension("html");
    let o = variantlab(&[
        "report",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--out",
        html.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.matches("<svg").count() >= 4,
        "score, draw rate and two histograms"
    );
    assert!(page.contains("[R] setup: the start array is reconstructed"));

    // A truncated games.csv is reported with its line.
    let text = std::fs::read_to_string(a.join("games.csv")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[4] = "3,1,99";
    std::fs::write(a.join("games.csv"), lines.join("\n")).unwrap();
    let o = variantlab(&["stats", a.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("line 5") && e.contains("games.csv"), "{e}");
}

#[test]
fn logistic_regression_recovers_known_coefficients() {
    // y ~ Bernoulli(logistic(0.2 + 0.8 x1 - 0.5 x2)), clustered in groups of 5.
    let mut rng = SplitMix64(11);
    let unif = |r: &mut SplitMix64| (r.next() >> 11) as f64 / (1u64 << 53) as f64;
    let (mut x, mut y, mut g) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..20_000u64 {
        let x1 = (unif(&mut rng) * 6.0).floor() - 3.0;
        let x2 = (unif(&mut rng) * 4.0).floor() - 2.0;
        let p = 1.0 / (1.0 + (-(0.2 + 0.8 * x1 - 0.5 * x2)).exp());
        x.push(vec![1.0, x1, x2]);
        y.push(if unif(&mut rng) < p { 1.0 } else { 0.0 });
        g.push(i / 5);
    }
    let (beta, cov) = logistic_clustered(&x, &y, &g).unwrap();
    for (b, want) in beta.iter().zip([0.2, 0.8, -0.5]) {
        assert!((b - want).abs() < 0.06, "{beta:?}");
    }
    for (i, row) in cov.iter().enumerate() {
        assert!(row[i] > 0.0 && row[i] < 0.01, "{cov:?}");
    }
}

#[test]
fn values_runs_both_methods_and_writes_a_usable_configuration() {
    let out = tmp("values");
    let cfg = tmp("values-cfg").with_extension("json");
    let o = variantlab(&[
        "values",
        "--variant",
        "chess",
        "--pairs",
        "30",
        "--games",
        "160",
        "--nodes",
        "300",
        "--out",
        out.to_str().unwrap(),
        "--write-values",
        cfg.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = csv_rows(&out.join("piece_values.csv"));
    assert_eq!(
        rows[0],
        ["variant", "piece", "method", "value", "low", "high", "games"]
    );
    let imb: Vec<&Vec<String>> = rows.iter().filter(|r| r[2] == "imbalance").collect();
    assert_eq!(
        imb.iter().map(|r| r[1].as_str()).collect::<Vec<_>>(),
        ["pawn", "knight", "bishop", "rook", "queen"]
    );
    assert_eq!(imb[0][3], "1.000", "the pawn calibrates the scale");
    assert!(rows.iter().any(|r| r[2] == "regression"));
    for r in &rows[1..] {
        let (v, lo, hi): (f64, f64, f64) = (
            r[3].parse().unwrap(),
            r[4].parse().unwrap(),
            r[5].parse().unwrap(),
        );
        assert!(lo <= v && v <= hi, "{r:?}");
    }
    // The written values feed straight back into a tournament.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    assert_eq!(json["values"]["pawn"], 100);
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--nodes",
        "100",
        "--white",
        cfg.to_str().unwrap(),
        "--out",
        tmp("loop").to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let o = variantlab(&[
        "values",
        "--variant",
        "extreme-2d",
        "--method",
        "imbalance",
        "--pairs",
        "1",
        "--out",
        tmp("x").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("use --method regression"));
}
