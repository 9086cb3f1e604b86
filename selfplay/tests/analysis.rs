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
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-an-{name}"));
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

/// `variantlab stats DIR... --out OUT`, which must succeed; its `balance.csv` rows.
fn stats_balance(dirs: &[&Path], out: &Path) -> Vec<Vec<String>> {
    let mut args = vec!["stats".to_string()];
    args.extend(dirs.iter().map(|d| d.display().to_string()));
    args.extend(["--out".to_string(), out.display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = variantlab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    csv_rows(&out.join("balance.csv"))
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
    for row in &bal[1..] {
        assert_eq!(row[col("complete")], "true");
        assert_eq!(row[col("games_expected")], "16");
        assert_eq!(row[col("nodes")], "300");
        assert!(!row[col("run")].is_empty());
        let n = |c: &str| row[col(c)].parse::<f64>().unwrap();
        for m in ["completion", "duration", "draw_rate"] {
            assert!(
                n(&format!("{m}_low")) <= n(m) && n(m) <= n(&format!("{m}_high")),
                "{m}: {row:?}"
            );
        }
        assert_eq!(
            n("decisive_games"),
            n("white_wins") + n("black_wins"),
            "balance is over decisive games"
        );
    }
    let len = csv_rows(&out.join("length.csv"));
    assert_eq!(len.len(), 1 + 2 * 4);
    let subset = len[0].iter().position(|h| h == "subset").unwrap();
    assert_eq!(&len[1][subset], "all");
    assert!(len[0].iter().any(|h| h == "run"));

    // An unfinished run (12 of its 16 games) is flagged in the text, the CSV and the report.
    let part = tmp("part");
    std::fs::create_dir_all(&part).unwrap();
    std::fs::copy(a.join("run.json"), part.join("run.json")).unwrap();
    let games = std::fs::read_to_string(a.join("games.csv")).unwrap();
    let kept: Vec<&str> = games.lines().take(13).collect();
    std::fs::write(part.join("games.csv"), kept.join("\n") + "\n").unwrap();
    // With the kept games' moves: a run that records moves is read only with all of them.
    let ids: Vec<&str> = kept[1..]
        .iter()
        .map(|l| l.split(',').next().unwrap())
        .collect();
    let moves = std::fs::read_to_string(a.join("moves.csv")).unwrap();
    let kept_moves: Vec<&str> = moves
        .lines()
        .enumerate()
        .filter(|(i, l)| *i == 0 || ids.contains(&l.split(',').next().unwrap()))
        .map(|(_, l)| l)
        .collect();
    std::fs::write(part.join("moves.csv"), kept_moves.join("\n") + "\n").unwrap();
    let pout = tmp("part-stats");
    let o = variantlab(&[
        "stats",
        part.to_str().unwrap(),
        "--out",
        pout.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("12 of 16 games (INCOMPLETE"), "{text}");
    let pbal = csv_rows(&pout.join("balance.csv"));
    let pcol = |name: &str| pbal[0].iter().position(|h| h == name).unwrap();
    assert_eq!(pbal[1][pcol("complete")], "false");
    assert_eq!(pbal[1][pcol("games")], "12");
    let phtml = tmp("part-report").with_extension("html");
    let _ = std::fs::remove_file(&phtml);
    let o = variantlab(&[
        "report",
        part.to_str().unwrap(),
        "--out",
        phtml.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(std::fs::read_to_string(&phtml)
        .unwrap()
        .contains("12 of 16 (incomplete)"));

    let html = tmp("report").with_extension("html");
    let _ = std::fs::remove_file(&html);
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
    assert!(page.contains("<span class=tag>[R]</span> setup: the start array is reconstructed"));

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
    let _ = std::fs::remove_file(&cfg);
    let args = |extra: &[&str]| -> Vec<String> {
        [
            "values",
            "--variant",
            "chess",
            "--method",
            "both",
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
        ]
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect()
    };
    let run = |a: &[String]| variantlab(&a.iter().map(String::as_str).collect::<Vec<_>>());
    // 30 pairs cannot pin the pawn's odds down: the estimates are written to the CSV, but
    // not as engine values without --force.
    let o = run(&args(&[]));
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("not bounded above zero") && e.contains("--force"),
        "{e}"
    );
    assert!(!cfg.exists());
    let rows = csv_rows(&out.join("piece_values.csv"));
    assert_eq!(
        rows[0],
        ["variant", "piece", "method", "value", "low", "high", "games", "note"]
    );
    let imb: Vec<&Vec<String>> = rows.iter().filter(|r| r[2] == "imbalance").collect();
    assert_eq!(
        imb.iter().map(|r| r[1].as_str()).collect::<Vec<_>>(),
        ["pawn", "knight", "bishop", "rook", "queen", "king"]
    );
    assert_eq!(imb[0][3], "1.000", "the pawn calibrates the scale");
    assert_eq!(
        (imb[0][4].as_str(), imb[0][5].as_str()),
        ("", ""),
        "no interval on the unit"
    );
    assert!(imb[5][7].starts_with("left out"), "{:?}", imb[5]);
    assert!(rows.iter().any(|r| r[2] == "regression"));
    for r in &rows[1..] {
        if r[4].is_empty() {
            assert!(!r[7].is_empty(), "a missing interval says why: {r:?}");
            continue;
        }
        let (v, lo, hi): (f64, f64, f64) = (
            r[3].parse().unwrap(),
            r[4].parse().unwrap(),
            r[5].parse().unwrap(),
        );
        assert!(lo <= v && v <= hi, "{r:?}");
        // No negative zero; only White's tempo (not a piece) may be below zero.
        let negative_zero = |x: &str| x.starts_with('-') && x.parse::<f64>().unwrap() == 0.0;
        assert!(!negative_zero(&r[4]) && !negative_zero(&r[5]), "{r:?}");
        if r[1] != "tempo" {
            assert!(!r[4].starts_with("-0") && !r[5].starts_with("-0"), "{r:?}");
        }
    }
    // The same settings resume the recorded games; --force writes the values.
    let o = run(&args(&["--force"]));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    assert_eq!(json["values"]["pawn"], 100);
    // The written values feed straight back into a tournament.
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

    // The recorded chess games are not reused for another variant or other settings...
    let selfplay = out.join("selfplay");
    let o = variantlab(&[
        "values",
        "--variant",
        "dream-chess-46",
        "--games",
        "160",
        "--nodes",
        "300",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("other settings"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // ... nor read as another variant's through --from.
    let o = variantlab(&[
        "values",
        "--variant",
        "gateway",
        "--from",
        selfplay.to_str().unwrap(),
        "--out",
        tmp("from").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not of gateway"));

    // Every built-in variant now gives material odds; a variant with nothing to give (Kings
    // only) is refused.
    let dir = tmp("x");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("kings.toml");
    std::fs::write(
        &file,
        "name = \"kings-only\"\ninherits = \"chess\"\nsetup = \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n",
    )
    .unwrap();
    let o = variantlab(&[
        "values",
        "--variant-file",
        file.to_str().unwrap(),
        "--method",
        "imbalance",
        "--pairs",
        "1",
        "--out",
        dir.join("out").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("use --method regression"));
}

/// `values --unit`: the same fit measured in Rooks instead of pawns. Every ratio is the
/// pawn-unit value over the Rook's, the Rook's row is the unit, the written configuration
/// keeps the Rook at its default centipawns and scales the rest from it; a royal or unknown unit is refused before
/// anything is written.
#[test]
fn values_can_be_measured_in_another_unit() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/samples/chess");
    let fit = |name: &str, unit: &[&str]| -> (Output, PathBuf) {
        let out = tmp(name);
        let mut args = vec![
            "values",
            "--variant",
            "chess",
            "--method",
            "regression",
            "--from",
            sample.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ];
        args.extend_from_slice(unit);
        (variantlab(&args), out)
    };
    let value = |rows: &[Vec<String>], piece: &str| -> f64 {
        let r = rows.iter().find(|r| r[1] == piece).unwrap();
        r[3].parse().unwrap()
    };
    let (o, pawns) = fit("unit-pawn", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cfg = tmp("unit-cfg").with_extension("json");
    let _ = std::fs::remove_file(&cfg);
    let (o, rooks) = fit(
        "unit-rook",
        &[
            "--unit",
            "rook",
            "--write-values",
            cfg.to_str().unwrap(),
            "--force",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("values in units of the rook"));
    let (p, r) = (
        csv_rows(&pawns.join("piece_values.csv")),
        csv_rows(&rooks.join("piece_values.csv")),
    );
    let rook = r.iter().find(|r| r[1] == "rook").unwrap();
    assert_eq!(
        (rook[3].as_str(), rook[4].as_str()),
        ("1.000", ""),
        "{rook:?}"
    );
    assert!(rook[7].contains("unit"), "{rook:?}");
    let rook_in_pawns = value(&p, "rook");
    for piece in ["pawn", "knight", "bishop", "queen"] {
        let want = value(&p, piece) / rook_in_pawns;
        let got = value(&r, piece);
        assert!((got - want).abs() < 0.002, "{piece}: {got} against {want}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    // The unit at its default centipawns, the rest scaled from it.
    let rook_cp = json["values"]["rook"].as_f64().unwrap();
    assert!(rook_cp > 300.0, "{json}");
    let pawn_cp = json["values"]["pawn"].as_f64().unwrap();
    assert!(
        (pawn_cp - value(&r, "pawn") * rook_cp).abs() <= 1.0,
        "{json}"
    );
    for (unit, says) in [("king", "royal"), ("dragon", "no such piece")] {
        let (o, out) = fit(&format!("unit-{unit}"), &["--unit", unit]);
        assert!(!o.status.success());
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(says) && e.contains("--unit"), "{e}");
        assert!(!out.join("piece_values.csv").exists(), "nothing written");
    }
}

#[test]
fn values_from_trade_openings_score_each_trade() {
    let out = tmp("trades");
    let o = variantlab(&[
        "values",
        "--variant",
        "chess",
        "--method",
        "balanced",
        "--games",
        "48",
        "--nodes",
        "200",
        "--openings",
        "trades:4",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("selfplay/run.json")).unwrap())
            .unwrap();
    assert_eq!(run["openings"], "trades:4");
    let rows = csv_rows(&out.join("trades.csv"));
    assert_eq!(rows[0][..3], ["trade", "games", "score"]);
    let games: u64 = rows[1..].iter().map(|r| r[1].parse::<u64>().unwrap()).sum();
    // Every game starts with a trade made (random plies may add a capture to it).
    assert_eq!(games, 48, "{rows:?}");
    for r in &rows[1..] {
        assert!(r[0].contains(" against "), "{r:?}");
        let (s, lo, hi): (f64, f64, f64) = (
            r[2].parse().unwrap(),
            r[3].parse().unwrap(),
            r[4].parse().unwrap(),
        );
        assert!(lo <= s && s <= hi && (0.0..=1.0).contains(&s), "{r:?}");
    }
    // The free-form variants trade too (each removes its own pieces: the dialectic's, Gateway's,
    // Dai Mitregi's, Extreme 2D's discs).
    for variant in ["dialectic", "gateway", "dai-mitregi", "extreme-2d"] {
        let out = tmp(&format!("trades-{variant}"));
        let o = variantlab(&[
            "play",
            "--variant",
            variant,
            "--games",
            "2",
            "--nodes",
            "100",
            "--openings",
            "trades:2",
            "--max-plies",
            "40",
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ]);
        assert!(
            o.status.success(),
            "{variant}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        // Each game starts from a position text that the variant reads (the trade made).
        let games = csv_rows(&out.join("games.csv"));
        let opening = games[0].iter().position(|h| h == "opening").unwrap();
        for g in &games[1..] {
            let o = variantlab(&[
                "perft",
                "--variant",
                variant,
                "--depth",
                "1",
                "--position",
                &g[opening],
            ]);
            assert!(o.status.success(), "{variant}: {}", g[opening]);
        }
        let run: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
        assert_eq!(run["openings"], "trades:2", "{variant}");
    }
    // A variant with nothing to trade says so: Kings and Pawns only.
    let dir = tmp("trades-pawns");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pawns.toml");
    std::fs::write(
        &file,
        "name = \"pawns-only\"\ninherits = \"chess\"\nsetup = \"4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1\"\n",
    )
    .unwrap();
    let o = variantlab(&[
        "values",
        "--variant-file",
        file.to_str().unwrap(),
        "--method",
        "balanced",
        "--games",
        "2",
        "--openings",
        "trades:4",
        "--out",
        dir.join("out").to_str().unwrap(),
        "--quiet",
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no near-even trades"));
}

/// One figure, one interval: the White score `play` prints is the one `stats` writes to
/// `balance.csv` (pairs as clusters), not an interval that takes the games as independent.
#[test]
fn play_and_stats_give_white_score_one_interval() {
    let dir = tmp("one-interval");
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "16",
        "--nodes",
        "300",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let shown = String::from_utf8_lossy(&o.stdout).to_string();
    let after = shown
        .split("White score ")
        .nth(1)
        .unwrap_or_else(|| panic!("no White score in {shown}"));
    let interval = &after[after.find('[').unwrap() + 1..after.find(']').unwrap()];
    let printed: Vec<f64> = interval.split(", ").map(|x| x.parse().unwrap()).collect();
    let out = dir.join("stats");
    let o = variantlab(&[
        "stats",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = csv_rows(&out.join("balance.csv"));
    let col = |name: &str| -> f64 {
        let i = rows[0].iter().position(|h| h == name).unwrap();
        rows[1][i].parse().unwrap()
    };
    for (p, name) in printed.iter().zip(["white_score_low", "white_score_high"]) {
        assert!(
            (p - col(name)).abs() < 6e-4,
            "play {printed:?} against {name} {}",
            col(name)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine match's summary gives engine A's own score and Elo with their intervals (from
/// the pairs), beside White's view, and they agree with `balance.csv`'s engine columns.
#[test]
fn an_engine_match_shows_each_engines_score() {
    let dir = tmp("engine-view");
    std::fs::create_dir_all(&dir).unwrap();
    let weak = dir.join("weak.json");
    std::fs::write(&weak, r#"{"name": "weak", "nodes": 20}"#).unwrap();
    let run = dir.join("run");
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "16",
        "--nodes",
        "400",
        "--white",
        "default",
        "--black",
        weak.to_str().unwrap(),
        "--out",
        run.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let shown = String::from_utf8_lossy(&o.stdout).to_string();
    let line = shown
        .lines()
        .find(|l| l.starts_with("default against weak"))
        .unwrap_or_else(|| panic!("no engine line in {shown}"));
    assert!(line.contains("(8 pairs): default scores "), "{line}");
    let out = dir.join("stats");
    let o = variantlab(&[
        "stats",
        run.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = csv_rows(&out.join("balance.csv"));
    let i = rows[0].iter().position(|h| h == "engine_a_elo").unwrap();
    let elo: f64 = rows[1][i].parse().unwrap();
    assert!(
        line.contains(&format!("Elo {elo:.1} [")),
        "{line} against {elo}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A draw by repetition, the move rule or the ply cap with one side three pawns or more
/// ahead is an unconverted win in `balance.csv`; an even draw, a stalemate with the same
/// lead and a won game are not.
#[test]
fn stats_count_draws_with_a_material_lead_as_unconverted() {
    let dir = tmp("unconverted");
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "6",
        "--nodes",
        "100",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Rewrite each game's end: (result, termination, White's rooks, Black's rooks, Black's pawns).
    let ends = [
        ("1/2-1/2", "move_rule", 2, 1, 8),  // a Rook ahead: unconverted
        ("1/2-1/2", "repetition", 1, 1, 4), // Black four pawns ahead: unconverted
        ("1/2-1/2", "max_plies", 2, 2, 8),  // even: a draw
        ("1/2-1/2", "stalemate", 2, 0, 8),  // stalemate: the rules' result
        ("1-0", "checkmate", 2, 0, 8),      // won
        ("1/2-1/2", "repetition", 2, 2, 6), // two pawns: under the margin
    ];
    let path = dir.join("games.csv");
    let rows = csv_rows(&path);
    let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    let mut w = csv::Writer::from_path(&path).unwrap();
    w.write_record(&rows[0]).unwrap();
    for (row, (result, end, wr, br, bp)) in rows[1..].iter().zip(ends) {
        let mut row = row.clone();
        row[col("result")] = result.into();
        row[col("termination")] = end.into();
        row[col("white_rook")] = wr.to_string();
        row[col("black_rook")] = br.to_string();
        row[col("white_pawn")] = "8".into();
        row[col("black_pawn")] = bp.to_string();
        for k in ["knight", "bishop", "queen"] {
            row[col(&format!("white_{k}"))] = "0".into();
            row[col(&format!("black_{k}"))] = "0".into();
        }
        w.write_record(&row).unwrap();
    }
    w.flush().unwrap();
    let bal = stats_balance(&[&dir], &tmp("unconverted-stats"));
    let field = |name: &str| &bal[1][bal[0].iter().position(|h| h == name).unwrap()];
    assert_eq!(field("unconverted_games"), "2");
    assert_eq!(field("unconverted_rate"), "0.3333");
    let (low, high): (f64, f64) = (
        field("unconverted_rate_low").parse().unwrap(),
        field("unconverted_rate_high").parse().unwrap(),
    );
    assert!(low < 1.0 / 3.0 && high > 1.0 / 3.0, "{low} {high}");
}

/// Runs of one variant by the same players at several node counts make a ladder: `stats`
/// writes a row per level to `ladder.csv` and each figure's trend to `trend.csv`, and the
/// report draws it; a run at other settings (another seed) is a ladder of its own.
#[test]
fn stats_and_report_show_a_strength_ladder() {
    let runs: Vec<PathBuf> = [("100", "1"), ("400", "1"), ("200", "9")]
        .iter()
        .map(|(nodes, seed)| {
            let dir = tmp(&format!("ladder-{nodes}-{seed}"));
            let o = variantlab(&[
                "play",
                "--variant",
                "chess",
                "--games",
                "6",
                "--nodes",
                nodes,
                "--seed",
                seed,
                "--out",
                dir.to_str().unwrap(),
                "--quiet",
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            dir
        })
        .collect();
    let out = tmp("ladder-stats");
    let dirs: Vec<&Path> = runs.iter().map(PathBuf::as_path).collect();
    let balance = stats_balance(&dirs, &out);
    let ladder = csv_rows(&out.join("ladder.csv"));
    let col = |name: &str| ladder[0].iter().position(|h| h == name).unwrap();
    let levels: Vec<(&str, &str)> = ladder[1..]
        .iter()
        .map(|r| (r[col("nodes")].as_str(), r[col("games")].as_str()))
        .collect();
    assert_eq!(levels, [("100", "6"), ("400", "6"), ("200", "6")]);
    let bcol = |name: &str| balance[0].iter().position(|h| h == name).unwrap();
    assert_eq!(
        ladder[1][col("white_score")],
        balance[1][bcol("white_score")]
    );
    let trend = csv_rows(&out.join("trend.csv"));
    let figures: Vec<(&str, &str, &str)> = trend[1..]
        .iter()
        .map(|r| (r[2].as_str(), r[4].as_str(), r[5].as_str()))
        .collect();
    assert_eq!(
        figures,
        [
            ("white_score", "100", "400"),
            ("draw_rate", "100", "400"),
            ("unconverted_rate", "100", "400"),
            ("mean_plies", "100", "400"),
        ]
    );
    let report = out.join("report.html");
    let mut args = vec!["report".to_string()];
    args.extend(runs.iter().map(|d| d.display().to_string()));
    args.extend(["--out".to_string(), report.display().to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = variantlab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("<h2>Strength ladder</h2>"));
    assert!(html.contains("white_score: "), "no trend line");
}

/// `usage.csv` counts each special rule from the recorded moves: every Extreme 2D game opens
/// with both sides placing King and Heir (the moves written `K@..`), and a King–Heir swap is
/// written `..<>..`; `diversity.csv` counts the games still going at each ply.
#[test]
fn stats_count_how_the_special_rules_are_used() {
    let (x, c) = (tmp("usage-x"), tmp("usage-c"));
    // From the start itself, so that the placements are the games' first moves, not the
    // opening's (rule usage counts the moves after the opening).
    let o = variantlab(&[
        "play",
        "--variant",
        "extreme-2d",
        "--games",
        "16",
        "--nodes",
        "300",
        "--openings",
        "random-plies:0",
        "--out",
        x.to_str().unwrap(),
        "--quiet",
        "--record-moves",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    small_run(&c, "chess");
    let out = tmp("usage-stats");
    stats_balance(&[&x, &c], &out);
    let usage = csv_rows(&out.join("usage.csv"));
    let col = |name: &str| usage[0].iter().position(|h| h == name).unwrap();
    let row = |variant: &str, rule: &str| {
        usage[1..]
            .iter()
            .find(|r| r[col("variant")] == variant && r[col("rule")] == rule)
            .cloned()
    };
    // Counted independently: the recorded move texts of each run.
    let moves = |dir: &Path| -> Vec<(u64, String)> {
        csv_rows(&dir.join("moves.csv"))[1..]
            .iter()
            .map(|r| (r[0].parse().unwrap(), r[2].clone()))
            .collect()
    };
    let placements = moves(&x).iter().filter(|(_, m)| m.contains("K@")).count();
    let p = row("extreme-2d", "royal placement").expect("placements counted");
    assert_eq!(p[col("uses")], placements.to_string());
    assert_eq!(p[col("games_using")], "16");
    assert_eq!(p[col("share_of_games")], "1.0000");
    assert_eq!(p[col("first_use_ply_median")], "1.0");
    let swaps = moves(&x).iter().filter(|(_, m)| m.contains("<>")).count();
    let counted =
        row("extreme-2d", "king-heir swap").map_or(0, |r| r[col("uses")].parse().unwrap());
    assert_eq!(counted, swaps);
    let div = csv_rows(&out.join("diversity.csv"));
    assert_eq!(div.len(), 1 + 2 * 2);
    let games = csv_rows(&c.join("games.csv"));
    let plies_col = games[0].iter().position(|h| h == "plies").unwrap();
    for r in &div[1..] {
        if r[0] != "chess" {
            continue;
        }
        let ply: usize = r[2].parse().unwrap();
        let reaching = games[1..]
            .iter()
            .filter(|g| g[plies_col].parse::<usize>().unwrap() >= ply)
            .count();
        assert_eq!(r[3], reaching.to_string(), "ply {ply}");
        let distinct: usize = r[4].parse().unwrap();
        assert!(distinct >= 1 && distinct <= reaching);
    }
}

/// `typical.csv` and the report's "Typical games" pick the games the rules name, recomputed here
/// from `games.csv` and the move texts: the decisive game nearest the median length of the
/// decisive games, the longest game not stopped by the ply cap, and the game with the most
/// promotions (a five-letter move in chess's notation), each tie to the lowest id.
#[test]
fn typical_games_are_the_ones_the_rules_name() {
    let run = tmp("typical");
    small_run(&run, "chess");
    let out = tmp("typical-stats");
    stats_balance(&[&run], &out);
    let rows = csv_rows(&out.join("typical.csv"));
    let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    let chosen = |role: &str| -> Vec<String> {
        rows[1..]
            .iter()
            .find(|r| r[col("role")] == role)
            .unwrap_or_else(|| panic!("no {role} game in {rows:?}"))
            .clone()
    };
    let games = csv_rows(&run.join("games.csv"));
    let g = |name: &str| games[0].iter().position(|h| h == name).unwrap();
    // (id, plies, result, termination)
    let list: Vec<(u64, i64, String, String)> = games[1..]
        .iter()
        .map(|r| {
            (
                r[g("game_id")].parse().unwrap(),
                r[g("plies")].parse().unwrap(),
                r[g("result")].clone(),
                r[g("termination")].clone(),
            )
        })
        .collect();
    let mut decisive: Vec<i64> = list
        .iter()
        .filter(|x| x.2 != "1/2-1/2")
        .map(|x| x.1)
        .collect();
    decisive.sort_unstable();
    assert!(!decisive.is_empty(), "a 300-node chess run has won games");
    let n = decisive.len();
    let median = (decisive[(n - 1) / 2] + decisive[n / 2]) as f64 / 2.0;
    let best = list
        .iter()
        .filter(|x| x.2 != "1/2-1/2")
        .map(|x| ((x.1 as f64 - median).abs(), x.0))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .unwrap();
    let d = chosen("decisive");
    assert_eq!(d[col("game")], best.1.to_string());
    assert_eq!(d[col("median_decisive_plies")], format!("{median:.1}"));
    let uncapped: Vec<&(u64, i64, String, String)> =
        list.iter().filter(|x| x.3 != "max_plies").collect();
    let pool = if uncapped.is_empty() {
        list.iter().collect()
    } else {
        uncapped
    };
    let longest = pool.iter().map(|x| x.1).max().unwrap();
    let long_id = pool
        .iter()
        .filter(|x| x.1 == longest)
        .map(|x| x.0)
        .min()
        .unwrap();
    assert_eq!(chosen("long")[col("game")], long_id.to_string());
    // Promotions per game from the move texts, after the opening (the recorded moves are).
    let mut promotions: std::collections::BTreeMap<u64, u64> = Default::default();
    for m in &csv_rows(&run.join("moves.csv"))[1..] {
        if m[2].len() == 5 {
            *promotions.entry(m[0].parse().unwrap()).or_default() += 1;
        }
    }
    let most = *promotions.values().max().expect("some game promotes");
    let special_id = promotions.iter().find(|p| *p.1 == most).unwrap().0;
    let s = chosen("special rule");
    assert_eq!(s[col("rule")], "promotion");
    assert_eq!(s[col("game")], special_id.to_string());
    assert_eq!(s[col("uses")], most.to_string());
    // The report lists the same games, each opening in the viewer with its boards.
    let report = out.join("report.html");
    let o = variantlab(&[
        "report",
        run.to_str().unwrap(),
        "--out",
        report.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&report).unwrap();
    let section = &html[html.find("<h2>Typical games</h2>").expect("section")..];
    let section = &section[..section.find("</table>").unwrap()];
    for role in ["decisive", "long", "special rule"] {
        let id = &chosen(role)[col("game")];
        assert!(
            section.contains(&format!(
                "<td class=l>{role}</td><td class=l><a href=\"#viewer\" data-open-game=\"0:{id}\">game {id}</a>"
            )),
            "{role}: game {id} in {section}"
        );
        assert!(
            html.contains(&format!("\"label\":\"typical {role}\",\"id\":{id}"))
                || html.contains(&format!("\"id\":{id},\"label\":\"typical {role}\"")),
            "{role} among the viewer's examples"
        );
    }
}
