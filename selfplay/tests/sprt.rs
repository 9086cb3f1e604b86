//! SPRT matches end to end.

use std::path::PathBuf;
use std::process::{Command, Output};

fn variantlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .output()
        .expect("runs")
}

fn tmp(name: &str) -> PathBuf {
    let d =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-sprt-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn crippled() -> PathBuf {
    let p = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("variantlab-crippled.json");
    // Material-only evaluation at a tenth of the nodes.
    std::fs::write(
        &p,
        r#"{"name": "crippled", "nodes": 40, "positional": false}"#,
    )
    .unwrap();
    p
}

fn json(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("sprt.json")).unwrap()).unwrap()
}

fn csv(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("sprt.csv")).unwrap()
}

/// A short chess match of the default against itself at 50 nodes into `dir`, capped at
/// `max_games`, with `extra` arguments.
fn quick_match(dir: &std::path::Path, max_games: &str, extra: &[&str]) -> std::process::Output {
    let mut a = vec![
        "sprt",
        "--variant",
        "chess",
        "--test",
        "default",
        "--nodes",
        "50",
        "--max-games",
        max_games,
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ];
    a.extend_from_slice(extra);
    variantlab(&a)
}

#[test]
fn a_configuration_beats_its_crippled_copy() {
    let c = crippled();
    let dir = tmp("h1");
    let o = variantlab(&[
        "sprt",
        "--variant",
        "chess",
        "--base",
        c.to_str().unwrap(),
        "--test",
        "default",
        "--nodes",
        "400",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = json(&dir);
    assert_eq!(s["result"], "H1");
    assert!(s["llr"].as_f64().unwrap() >= s["upper"].as_f64().unwrap());
    assert!(s["elo"][0].as_f64().unwrap() > 0.0);
    let pairs = csv(&dir).lines().count() - 1;
    assert_eq!(pairs as u64 * 2, s["games"].as_u64().unwrap());
    // What a fastchess user reads: W/D/L adding up to the games and agreeing with the
    // pentanomial counts, the draw ratio, points, LOS, the pair ratio, and the
    // median-unbiased Elo at the stop beside the plain one; no negative zero anywhere.
    let n = |k: &str| s[k].as_u64().unwrap_or_else(|| panic!("{k}: {s}"));
    assert_eq!(n("wins") + n("draws") + n("losses"), n("games"));
    let penta: Vec<u64> = (0..5).map(|i| s["penta"][i].as_u64().unwrap()).collect();
    let points = penta
        .iter()
        .enumerate()
        .map(|(i, c)| i as u64 * c)
        .sum::<u64>();
    assert_eq!(2 * n("wins") + n("draws"), points, "{s}");
    let pct = s["points_pct"].as_f64().unwrap();
    assert!(
        (pct - 50.0 * points as f64 / n("games") as f64).abs() < 1e-9,
        "{s}"
    );
    assert!(s["los"].as_f64().unwrap() > 0.5, "{s}");
    assert!(
        s["pair_ratio"].is_null() || s["pair_ratio"].as_f64().unwrap() > 1.0,
        "{s}"
    );
    let stop = &s["elo_at_stop"];
    assert!(
        stop[1].as_f64().unwrap() <= stop[0].as_f64().unwrap(),
        "{s}"
    );
    assert!(
        stop[0].as_f64().unwrap() <= stop[2].as_f64().unwrap(),
        "{s}"
    );
    let text = std::fs::read_to_string(dir.join("sprt.json")).unwrap();
    assert!(!text.contains("-0.0,") && !text.contains("-0.0]"), "{text}");
    let shown = String::from_utf8_lossy(&o.stdout);
    for part in [
        "W ",
        "draw ratio",
        "points",
        "LOS",
        "pair ratio",
        "median-unbiased",
        "nElo",
    ] {
        assert!(shown.contains(part), "{part:?} missing from {shown}");
    }
    // The crippled copy against the full one is rejected: H0 at elo0 = 0.
    let dir = tmp("h0");
    let o = variantlab(&[
        "sprt",
        "--variant",
        "dream-chess-46",
        "--base",
        "default",
        "--test",
        c.to_str().unwrap(),
        "--nodes",
        "400",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert_eq!(json(&dir)["result"], "H0");
    // Without --quiet and without a terminal, the match says how to resume it.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("safe to interrupt") && err.contains("--resume"),
        "{err}"
    );
}

#[test]
fn same_decision_for_any_thread_count_and_after_a_resume() {
    let c = crippled();
    let args = |dir: &PathBuf, threads: &str| {
        variantlab(&[
            "sprt",
            "--variant",
            "chess",
            "--base",
            c.to_str().unwrap(),
            "--test",
            "default",
            "--nodes",
            "150",
            "--elo0",
            "0",
            "--elo1",
            "5",
            "--max-games",
            "60",
            "--threads",
            threads,
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
        ])
    };
    let (a, b) = (tmp("t1"), tmp("t2"));
    assert!(args(&a, "1").status.success());
    assert!(args(&b, "2").status.success());
    let csv_a = csv(&a);
    assert_eq!(csv_a, csv(&b));
    assert_eq!(json(&a), json(&b));
    // Cut the file after four pairs and half a row, as a kill would, and resume.
    let kept: Vec<&str> = csv_a.lines().take(5).collect();
    std::fs::write(a.join("sprt.csv"), kept.join("\n") + "\n4,1,0.").unwrap();
    let o = variantlab(&["sprt", "--resume", a.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(csv(&a), csv_a);
}

#[test]
fn bad_settings_are_refused() {
    let err = |extra: &[&str]| {
        let mut args = vec![
            "sprt",
            "--variant",
            "chess",
            "--test",
            "default",
            "--out",
            "/tmp/variantlab-never",
        ];
        args.extend_from_slice(extra);
        String::from_utf8_lossy(&variantlab(&args).stderr).into_owned()
    };
    assert!(
        err(&["--elo0", "5", "--elo1", "0"]).contains("--elo1 (0) must be greater than --elo0 (5)")
    );
    assert!(err(&["--alpha", "0.7"]).contains("--alpha and --beta must be between 0 and 0.5"));
    assert!(err(&["--model", "bayes"]).contains("expected logistic or normalized"));
    assert!(!std::path::Path::new("/tmp/variantlab-never").exists());
}

/// A match with other settings in the output folder is refused, not overwritten; `--force`
/// replaces it and the same settings resume it.
#[test]
fn another_match_is_not_overwritten() {
    let dir = tmp("refuse");
    let sprt = |elo1: &str, extra: &[&str]| {
        let mut a = vec!["--elo1", elo1];
        a.extend_from_slice(extra);
        quick_match(&dir, "4", &a)
    };
    assert!(sprt("10", &[]).status.success());
    let before = csv(&dir);
    let o = sprt("20", &[]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("other settings"));
    assert_eq!(csv(&dir), before);
    assert!(sprt("10", &[]).status.success(), "same settings resume");
    assert_eq!(csv(&dir), before);
    assert!(sprt("20", &["--force"]).status.success());
    let cfg = std::fs::read_to_string(dir.join("sprt_config.json")).unwrap();
    assert!(cfg.contains("\"elo1\": 20.0"), "{cfg}");
}

/// A match stopped undecided at its cap goes on when resumed with a higher `--max-games`,
/// and ends as a match started with that cap would have.
#[test]
fn a_resumed_match_takes_a_new_cap() {
    let (short, long) = (tmp("cap4"), tmp("cap8"));
    assert!(quick_match(&short, "4", &[]).status.success());
    assert_eq!(json(&short)["games"], 4);
    assert!(quick_match(&long, "8", &[]).status.success());
    assert_eq!(json(&long)["games"], 8);
    let o = variantlab(&[
        "sprt",
        "--resume",
        short.to_str().unwrap(),
        "--max-games",
        "8",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(json(&short)["games"], 8);
    assert_eq!(csv(&short), csv(&long));
    let cfg = std::fs::read_to_string(short.join("sprt_config.json")).unwrap();
    assert!(cfg.contains("\"max_games\": 8"), "{cfg}");
    // The saved settings are the match's: another setting given on resume is refused, and
    // the folder is left as it was.
    for extra in [["--nodes", "100"], ["--elo1", "5"], ["--seed", "2"]] {
        let mut a = vec!["sprt", "--resume", short.to_str().unwrap(), "--quiet"];
        a.extend_from_slice(&extra);
        let o = variantlab(&a);
        assert!(!o.status.success(), "{extra:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("cannot be used with"), "{extra:?}: {err}");
    }
    assert_eq!(csv(&short), csv(&long));
}
