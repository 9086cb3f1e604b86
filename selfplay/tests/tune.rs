//! `variantlab tune`: recorded games in, a weights file out that an engine configuration can
//! play with; bad input (a truncated moves.csv, games of two variants, unrecorded games)
//! refused with a clear error.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn variantlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .output()
        .expect("runs")
}

fn tmp(name: &str) -> PathBuf {
    let d =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-tune-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn record(variant: &str, dir: &Path, moves: bool) {
    let mut args = vec![
        "play",
        "--variant",
        variant,
        "--games",
        "8",
        "--nodes",
        "200",
        "--max-plies",
        "120",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ];
    if moves {
        args.push("--record-moves");
    }
    let o = variantlab(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `variantlab tune` on the games of `games`, written to `out`, without a progress bar.
fn tune_args<'a>(games: &'a Path, out: &'a Path) -> Vec<&'a str> {
    vec![
        "tune",
        "--games",
        games.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]
}

#[test]
fn tuned_weights_load_and_play() {
    let dir = tmp("chess");
    let games = dir.join("games");
    record("chess", &games, true);
    // A short fit from the classic evaluation to `out`, with `extra` flags; its file.
    let tune = |out: &Path, extra: &[&str]| -> serde_json::Value {
        let mut args = tune_args(&games, out);
        args.extend(["--from", "classic", "--epochs", "20"]);
        args.extend(extra);
        let o = variantlab(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
    };
    let weights = dir.join("chess.json");
    let w = tune(&weights, &["--score-weight", "0.5"]);
    assert_eq!(w["variant"], "chess");
    assert_eq!(w["produced"]["method"], "texel");
    assert!(w["produced"]["positions"].as_u64().unwrap() > 100);
    assert_eq!(w["kinds"].as_array().unwrap().len(), 6);
    // `--l2 auto` (the default) fits once per penalty and keeps the lowest held-out loss,
    // which the file names with every loss tried.
    let settings = w["produced"]["settings"].as_str().unwrap();
    assert!(
        settings.contains("lowest held-out loss of 1e-8: "),
        "{settings}"
    );
    assert!(settings.matches("e-").count() >= 6, "{settings}");
    assert!(!settings.contains("scale"), "K fitted: {settings}");
    let fitted = w["produced"]["scale"].as_f64().unwrap();

    // A given scale K is used as it is, not fitted, and the file says so.
    let g = tune(
        &dir.join("given.json"),
        &["--score-weight", "1", "--scale", "0.75", "--l2", "1e-8"],
    );
    assert_eq!(g["produced"]["scale"].as_f64(), Some(0.75));
    assert_ne!(fitted, 0.75);
    let settings = g["produced"]["settings"].as_str().unwrap();
    assert!(
        settings.contains("scale 0.75 (given, not fitted)"),
        "{settings}"
    );
    assert_eq!(
        w["passed_eg"].as_array().unwrap().len(),
        8,
        "chess has pawn structure"
    );

    let config = dir.join("tuned.json");
    std::fs::write(
        &config,
        format!("{{\"eval\": {:?}}}", weights.to_str().unwrap()),
    )
    .unwrap();
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--nodes",
        "100",
        "--white",
        config.to_str().unwrap(),
        "--quiet",
        "--out",
        dir.join("match").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    // The same weights do not fit another variant.
    let o = variantlab(&[
        "play",
        "--variant",
        "dream-chess-46",
        "--games",
        "2",
        "--white",
        config.to_str().unwrap(),
        "--quiet",
        "--out",
        dir.join("wrong").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("are for \"chess\", not \"dream-chess-46\""),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_clearly() {
    let dir = tmp("bad");
    let chess = dir.join("chess");
    record("chess", &chess, true);
    let dream = dir.join("dream");
    record("dream-chess-46", &dream, true);
    let bare = dir.join("bare");
    record("chess", &bare, false);
    let out = dir.join("w.json");
    let tune = |dirs: &[&Path]| {
        let mut args = vec!["tune".to_string()];
        for d in dirs {
            args.push("--games".into());
            args.push(d.to_str().unwrap().into());
        }
        args.extend([
            "--out".into(),
            out.to_str().unwrap().into(),
            "--quiet".into(),
        ]);
        Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .args(&args)
            .output()
            .unwrap()
    };

    let o = tune(&[&chess, &dream]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("games of dream-chess-46, not chess"),
        "{}",
        stderr(&o)
    );

    let o = tune(&[&bare]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--record-moves"), "{}", stderr(&o));

    // `--l2 auto` needs held-out games to choose by; a penalty must be a number of at least 0.
    for (flags, says) in [
        (
            &["--holdout", "0"][..],
            "--l2 auto chooses by the held-out loss",
        ),
        (&["--l2", "-1"][..], "neither auto nor a penalty"),
        (&["--l2", "lots"][..], "neither auto nor a penalty"),
        (&["--scale", "0"][..], "is not a number above 0"),
        (&["--scale", "-1"][..], "is not a number above 0"),
        (&["--scale", "NaN"][..], "is not a number above 0"),
    ] {
        let mut args = tune_args(&chess, &out);
        args.extend(flags);
        let o = variantlab(&args);
        assert!(!o.status.success(), "{flags:?}");
        assert!(stderr(&o).contains(says), "{flags:?}: {}", stderr(&o));
    }

    // A moves.csv cut off in the middle of a game.
    let moves = std::fs::read_to_string(chess.join("moves.csv")).unwrap();
    let lines: Vec<&str> = moves.lines().collect();
    // Game 0's rows (the first field), one of which is cut below.
    let game_0 = lines[1..].iter().filter(|l| l.starts_with("0,")).count();
    let cut: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 3)
        .map(|(_, l)| *l)
        .collect();
    std::fs::write(chess.join("moves.csv"), cut.join("\n") + "\n").unwrap();
    let o = tune(&[&chess]);
    assert!(!o.status.success());
    // Refused before any fit, naming the file, the game and the line.
    assert!(
        stderr(&o).contains(&format!("moves.csv: game 0 has {} move rows", game_0 - 1))
            && stderr(&o).contains("games.csv, line 2"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists(), "nothing written on bad input");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `values --method tuned` on the recorded chess sample: for every piece that can be
/// captured, a value inside its 95% percentile interval, or no value and "not estimable"
/// with the reason (200 games are few for a fit of this size: cold refits on resampled
/// games can disagree with the full fit); the pawn as the unit, the King left out; the same
/// seed gives the same file whatever the thread count.
#[test]
fn tuned_piece_values_have_bootstrap_intervals() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/samples/chess");
    let run = |name: &str, threads: &str| {
        let out = tmp(name);
        let o = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .env("RAYON_NUM_THREADS", threads)
            .args([
                "values",
                "--variant",
                "chess",
                "--method",
                "tuned",
                "--bootstrap",
                "4",
                "--from",
                sample.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--quiet",
            ])
            .output()
            .expect("runs");
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read_to_string(out.join("piece_values.csv")).unwrap()
    };
    let csv = run("values-a", "2");
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 6, "{csv}");
    for r in &rows {
        assert_eq!(r[2], "tuned", "{csv}");
        match r[1] {
            "pawn" => assert_eq!(r[3], "1.000", "{csv}"),
            "king" => assert!(r[3].is_empty() && r[7].contains("royal"), "{csv}"),
            _ if r[3].is_empty() => {
                assert!(r[4].is_empty() && r[5].is_empty(), "{csv}");
                assert!(
                    r[7].trim_start_matches('"').starts_with("not estimable: "),
                    "{csv}"
                );
            }
            _ => {
                let (v, lo, hi): (f64, f64, f64) = (
                    r[3].parse().unwrap(),
                    r[4].parse().unwrap(),
                    r[5].parse().unwrap(),
                );
                assert!(lo <= v && v <= hi && hi - lo < 10.0, "{csv}");
                assert!(v > 1.0, "a piece worth less than a pawn: {csv}");
                assert!(r[7].contains("percentile bootstrap"), "{csv}");
            }
        }
    }
    assert_eq!(
        csv,
        run("values-b", "1"),
        "same seed, same values, any thread count"
    );
}

/// `tune --rescore-nodes`: every position searched again, the scores cached beside the
/// output; the same cache whatever the thread count, an interrupted cache resumed to the same
/// scores and weights, a cache made with other settings started over, and the rescored
/// scores (not the recorded ones) are what the fit sees.
#[test]
fn rescored_targets_are_reproducible_and_resumable() {
    let dir = tmp("rescore");
    let games = dir.join("games");
    record("chess", &games, true);
    let tune = |out: &Path, threads: &str, extra: &[&str]| {
        let mut args = tune_args(&games, out);
        args.extend(["--score-weight", "1", "--l2", "1e-7", "--epochs", "30"]);
        args.extend(extra);
        let o = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .env("RAYON_NUM_THREADS", threads)
            .args(&args)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    let (one, two) = (dir.join("one.json"), dir.join("two.json"));
    let said = tune(&one, "1", &["--rescore-nodes", "300"]);
    assert!(said.contains(" positions at 300 nodes: "), "{said}");
    tune(&two, "2", &["--rescore-nodes", "300"]);
    let cache = read(&dir.join("one.json.rescore"));
    assert_eq!(cache, read(&dir.join("two.json.rescore")));
    let lines: Vec<&str> = cache.lines().collect();
    let w: serde_json::Value = serde_json::from_str(&read(&one)).unwrap();
    let positions = w["produced"]["positions"].as_u64().unwrap() as usize;
    assert!(positions > 100);
    assert_eq!(
        lines.len(),
        positions + 1,
        "a header, then one score a position"
    );
    assert!(
        lines[0].starts_with("variantlab-rescore-v1 "),
        "{}",
        lines[0]
    );
    assert!(lines[1..]
        .iter()
        .all(|l| l.parse::<i32>().unwrap().abs() <= 2000));
    let settings = w["produced"]["settings"].as_str().unwrap();
    assert!(
        settings.contains("(scores rescored at 300 nodes)"),
        "{settings}"
    );
    let weights = |p: &Path| {
        let mut v: serde_json::Value = serde_json::from_str(&read(p)).unwrap();
        v["produced"] = serde_json::Value::Null;
        v
    };
    assert_eq!(weights(&one), weights(&two));

    // Cut short in the middle of a line, as an interruption leaves it: resumed to the same
    // scores and the same weights.
    let cut = cache.len() / 2 + 1;
    std::fs::write(dir.join("two.json.rescore"), &cache[..cut]).unwrap();
    tune(&two, "2", &["--rescore-nodes", "300"]);
    assert_eq!(read(&dir.join("two.json.rescore")), cache);
    assert_eq!(weights(&one), weights(&two));

    // Another node count does not take the cache's scores: it starts over, and says so.
    let said = tune(&two, "2", &["--rescore-nodes", "200"]);
    assert!(said.contains("made for other games or settings"), "{said}");
    let other = read(&dir.join("two.json.rescore"));
    assert_eq!(other.lines().count(), positions + 1);
    assert_ne!(other.lines().skip(1).collect::<Vec<_>>(), lines[1..]);

    // The fit uses the rescored scores: without them (the recorded ones), other weights.
    let recorded = dir.join("recorded.json");
    tune(&recorded, "2", &[]);
    assert_ne!(weights(&recorded), weights(&one));

    // Rescored scores with no share in the target are refused.
    let o = variantlab(&[
        "tune",
        "--games",
        games.to_str().unwrap(),
        "--out",
        recorded.to_str().unwrap(),
        "--rescore-nodes",
        "300",
        "--quiet",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("give --score-weight above 0"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tune --rescore-engine`: another engine, as a UCI process, rescores every position. Our
/// own build as that engine gives the scores our own rescoring gives (so the position text,
/// the node limit and the side of the score all pass through right); the cache says which
/// engine made it; an engine that gives no score, or none at all, is a clear error.
#[test]
fn an_external_engine_rescores_like_our_own_search() {
    let dir = tmp("rescore-engine");
    let games = dir.join("games");
    record("chess", &games, true);
    let bin = env!("CARGO_BIN_EXE_variantlab");
    let run = |out: &Path, extra: &[&str]| {
        let mut args = tune_args(&games, out);
        args.extend(["--score-weight", "1", "--l2", "1e-7", "--epochs", "5"]);
        args.extend(["--rescore-nodes", "300"]);
        args.extend(extra);
        variantlab(&args)
    };
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    let (own, external) = (dir.join("own.json"), dir.join("external.json"));
    let o = run(&own, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let engine = format!("{bin} uci");
    let o = run(&external, &["--rescore-engine", &engine]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (a, b) = (
        read(&dir.join("own.json.rescore")),
        read(&dir.join("external.json.rescore")),
    );
    assert!(b
        .lines()
        .next()
        .unwrap()
        .ends_with(&format!(" engine {engine}")));
    assert!(a.lines().count() > 100);
    assert_eq!(
        a.lines().skip(1).collect::<Vec<_>>(),
        b.lines().skip(1).collect::<Vec<_>>()
    );
    let w: serde_json::Value = serde_json::from_str(&read(&external)).unwrap();
    let settings = w["produced"]["settings"].as_str().unwrap();
    assert!(
        settings.contains(&format!("rescored by {engine} at 300 nodes")),
        "{settings}"
    );

    // An engine that answers `go` without a score, and a program that does not exist.
    if Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        let script = dir.join("scoreless.py");
        std::fs::write(
            &script,
            "import sys\nfor line in sys.stdin:\n    w = line.split()\n    if not w: continue\n    \
             if w[0] == 'uci': print('id name scoreless'); print('uciok')\n    \
             elif w[0] == 'isready': print('readyok')\n    \
             elif w[0] == 'go': print('bestmove 0000')\n    \
             elif w[0] == 'quit': break\n    sys.stdout.flush()\n",
        )
        .unwrap();
        let command = format!("python3 {}", script.display());
        let o = run(&dir.join("scoreless.json"), &["--rescore-engine", &command]);
        assert!(!o.status.success());
        assert!(stderr(&o).contains("gave no score"), "{}", stderr(&o));
        assert!(!dir.join("scoreless.json").exists());
        // The last exact score counts, not an aspiration window's bound after it.
        let bounded = dir.join("bounded.py");
        let text = read(&script).replace(
            "print('bestmove 0000')",
            "print('info depth 2 score cp 50'); print('info depth 3 score cp 90 upperbound'); \
             print('bestmove 0000')",
        );
        std::fs::write(&bounded, text).unwrap();
        let command = format!("python3 {}", bounded.display());
        let o = run(&dir.join("bounded.json"), &["--rescore-engine", &command]);
        assert!(o.status.success(), "{}", stderr(&o));
        let scores = read(&dir.join("bounded.json.rescore"));
        assert!(
            scores.lines().skip(1).all(|l| l == "50" || l == "-50"),
            "{scores}"
        );
        assert!(
            scores.lines().any(|l| l == "-50"),
            "Black's moves: the side is turned"
        );
    }
    let o = run(
        &dir.join("missing.json"),
        &["--rescore-engine", "/no/such/engine"],
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("/no/such/engine"), "{}", stderr(&o));
    // It needs a node count.
    let mut args = tune_args(&games, &own);
    args.extend(["--score-weight", "1", "--rescore-engine", &engine]);
    let o = variantlab(&args);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--rescore-nodes"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
