//! Tournaments end to end: reproducible across thread counts, resumable after a kill,
//! shardable and mergeable, with clear errors on bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn variantlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .output()
        .expect("runs")
}

fn tmp(name: &str) -> PathBuf {
    let d =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-test-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A CSV's rows without the timing column, for comparing runs.
fn rows_without_timing(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| l.rsplit_once(',').map_or(l, |(a, _)| a).to_string())
        .collect()
}

fn play(dir: &Path, extra: &[&str]) -> Output {
    play_n(dir, "12", extra)
}

fn play_n(dir: &Path, games: &str, extra: &[&str]) -> Output {
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "play",
        "--variant",
        "chess",
        "--games",
        games,
        "--nodes",
        "300",
        "--out",
        d,
        "--quiet",
        "--record-moves",
    ];
    args.extend_from_slice(extra);
    variantlab(&args)
}

#[test]
fn same_seed_same_games_whatever_the_thread_count() {
    let (a, b) = (tmp("t1"), tmp("t2"));
    assert!(play(&a, &["--threads", "1"]).status.success());
    assert!(play(&b, &["--threads", "2"]).status.success());
    let rows = rows_without_timing(&a.join("games.csv"));
    assert_eq!(rows.len(), 13);
    assert_eq!(rows, rows_without_timing(&b.join("games.csv")));
    assert_eq!(
        std::fs::read(a.join("moves.csv")).unwrap(),
        std::fs::read(b.join("moves.csv")).unwrap()
    );
    // The two games of a pair start from the same opening, colours swapped.
    let g0: Vec<&str> = rows[1].split(',').collect();
    let g1: Vec<&str> = rows[2].split(',').collect();
    assert_eq!((g0[1], g1[1]), ("0", "0"));
    assert_eq!(g0[4], g1[4]);
}

#[test]
fn a_killed_run_resumes_without_losing_or_repeating_games() {
    let full = tmp("full");
    assert!(play_n(&full, "80", &[]).status.success());

    let dir = tmp("killed");
    let d = dir.to_str().unwrap().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args([
            "play",
            "--variant",
            "chess",
            "--games",
            "80",
            "--nodes",
            "300",
            "--out",
            &d,
            "--quiet",
            "--record-moves",
            "--threads",
            "1",
        ])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    loop {
        let n = std::fs::read_to_string(dir.join("games.csv")).map_or(0, |s| s.lines().count());
        if n >= 4 || t.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    // A second writer is refused while the first runs (both would append the same games);
    // once the first is killed its lock is stale and the resume below takes it over.
    let o = variantlab(&["play", "--resume", &d, "--quiet"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && e.contains("in use by process"),
        "{e}"
    );
    child.kill().unwrap();
    let _ = child.wait();
    let partial = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let done_before = partial.lines().count() - 1;
    // Simulate a row cut in half by the kill.
    std::fs::write(
        dir.join("games.csv"),
        format!("{partial}41,20,123,chess,trunc"),
    )
    .unwrap();

    let o = variantlab(&["play", "--resume", &d, "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(done_before < 80, "the run was killed before it finished");
    assert_eq!(
        rows_without_timing(&dir.join("games.csv")),
        rows_without_timing(&full.join("games.csv"))
    );
    assert_eq!(
        std::fs::read(dir.join("moves.csv")).unwrap(),
        std::fs::read(full.join("moves.csv")).unwrap()
    );
    // games.pgn too: the record the kill may have cut is rebuilt, none is repeated (the
    // Date tag is the run's start day, so it is left out of the comparison).
    let pgn = |d: &Path| {
        std::fs::read_to_string(d.join("games.pgn"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("[Date "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(pgn(&dir), pgn(&full));
}

#[test]
fn shards_merge_into_the_single_run() {
    let single = tmp("single");
    assert!(play(&single, &[]).status.success());
    let shards: Vec<PathBuf> = (1..=3).map(|i| tmp(&format!("shard{i}"))).collect();
    for (i, s) in shards.iter().enumerate() {
        let spec = format!("{}/3", i + 1);
        let o = play(s, &["--shard", &spec]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let merged = tmp("merged");
    let mut args = vec!["merge", "--out", merged.to_str().unwrap()];
    args.extend(shards.iter().map(|s| s.to_str().unwrap()));
    let o = variantlab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        rows_without_timing(&merged.join("games.csv")),
        rows_without_timing(&single.join("games.csv"))
    );
    assert_eq!(
        std::fs::read(merged.join("moves.csv")).unwrap(),
        std::fs::read(single.join("moves.csv")).unwrap()
    );

    // A folder from a different study is refused.
    let other = tmp("other");
    assert!(play(&other, &["--seed", "2", "--shard", "1/3"])
        .status
        .success());
    let o = variantlab(&[
        "merge",
        "--out",
        tmp("bad").to_str().unwrap(),
        shards[1].to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("different configuration"));
}

#[test]
fn bad_input_is_reported_clearly() {
    let err = |args: &[&str]| String::from_utf8_lossy(&variantlab(args).stderr).into_owned();
    let out = tmp("bad-input");
    let d = out.to_str().unwrap();
    assert!(
        err(&["play", "--variant", "xiangqi", "--games", "2", "--out", d])
            .contains("unknown variant \"xiangqi\"")
    );
    assert!(err(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--shard",
        "4/3",
        "--out",
        d
    ])
    .contains("need 1 <= I <= N"));
    assert!(err(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--openings",
        "random-plies:x",
        "--out",
        d
    ])
    .contains("not a number of plies"));
    let book = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("variantlab-book.txt");
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a position\n",
    )
    .unwrap();
    let e = err(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--openings",
        book.to_str().unwrap(),
        "--out",
        d,
    ]);
    assert!(e.contains(", line 2"), "{e}");
    let cfg = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("variantlab-cfg.json");
    std::fs::write(&cfg, r#"{"name": "x", "values": {"dragon": 5}}"#).unwrap();
    let e = err(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--white",
        cfg.to_str().unwrap(),
        "--out",
        d,
    ]);
    assert!(e.contains("unknown piece \"dragon\""), "{e}");
    std::fs::write(&cfg, r#"{"name": "x", "nodez": 5}"#).unwrap();
    let e = err(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--white",
        cfg.to_str().unwrap(),
        "--out",
        d,
    ]);
    assert!(e.contains("unknown field `nodez`"), "{e}");
    assert!(err(&["play", "--resume", "/nonexistent/variantlab"]).contains("no run.json there"));
    // An unwritable output folder.
    let e = err(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--out",
        "/proc/variantlab-no",
    ]);
    assert!(e.contains("creating output folder"), "{e}");
    // A damaged CSV is named with its line on resume.
    let dir = tmp("damaged");
    assert!(play_n(&dir, "4", &[]).status.success());
    let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut lines: Vec<&str> = csv.lines().collect();
    lines[2] = "1,0,5";
    std::fs::write(dir.join("games.csv"), lines.join("\n") + "\n").unwrap();
    std::fs::remove_file(dir.join("games.csv")).ok();
    std::fs::write(dir.join("games.csv"), lines[..3].join("\n") + "\n").unwrap();
    let e = err(&["play", "--resume", dir.to_str().unwrap(), "--quiet"]);
    assert!(e.contains("line 3 (game 1) has 3 fields"), "{e}");
    // Starting over an existing run is refused rather than overwriting it.
    let e = String::from_utf8_lossy(&play(&dir, &[]).stderr).into_owned();
    assert!(e.contains("already holds a run"), "{e}");
}

/// The default job covers every variant, resumes a run made with the same settings instead of
/// replaying it, grows with `--games` keeping what was played, and refuses to replace a run
/// made with other settings (or more games) unless `--force`.
#[test]
fn study_covers_every_variant_and_keeps_earlier_runs() {
    let dir = tmp("study");
    let d = dir.to_str().unwrap();
    let study = |games: &str, force: bool| {
        let mut args = vec![
            "study", "--games", games, "--nodes", "100", "--out", d, "--quiet",
        ];
        if force {
            args.push("--force");
        }
        variantlab(&args)
    };
    let o = study("2", false);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    for name in [
        "chess",
        "dream-chess-46",
        "dialectic",
        "dialectic-hegelian",
        "extreme-2d",
        "extreme-2d-simple",
        "gateway",
        "dai-mitregi",
        "dai-mitregi-stepping",
    ] {
        assert!(summary.contains(name), "{name} missing from summary.csv");
        assert_eq!(
            rows_without_timing(&dir.join(name).join("games.csv")).len(),
            3,
            "{name}: header and two games"
        );
    }
    // Resumed, not replayed: the rows keep their timings too.
    let read = |name: &str| std::fs::read_to_string(dir.join(name).join("games.csv")).unwrap();
    let before = read("gateway");
    let o = study("2", false);
    assert!(o.status.success());
    assert_eq!(read("gateway"), before);
    // Grown, not replaced: the games played stay as they were, the summary is refreshed.
    let o = study("4", false);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(read("gateway").starts_with(&before));
    assert_eq!(
        rows_without_timing(&dir.join("chess").join("games.csv")).len(),
        5
    );
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    assert!(
        summary.lines().any(|l| l.starts_with("chess,4,")),
        "{summary}"
    );
    // Fewer games than played: refused, the games kept, unless --force replaces them.
    let o = study("2", false);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--force") && err.contains("chess"), "{err}");
    assert_eq!(
        rows_without_timing(&dir.join("chess").join("games.csv")).len(),
        5
    );
    let o = study("2", true);
    assert!(o.status.success());
    assert_eq!(
        rows_without_timing(&dir.join("chess").join("games.csv")).len(),
        3
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A finished run grows to more games: the first games stay, the new ones are those a run
/// of the larger size would have played.
#[test]
fn a_finished_run_extends_to_more_games() {
    let (small, big) = (tmp("extend"), tmp("extend-ref"));
    assert!(play_n(&small, "4", &[]).status.success());
    let o = variantlab(&[
        "play",
        "--resume",
        small.to_str().unwrap(),
        "--games",
        "8",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(play_n(&big, "8", &[]).status.success());
    let rows = rows_without_timing(&small.join("games.csv"));
    assert_eq!(rows.len(), 9);
    assert_eq!(rows, rows_without_timing(&big.join("games.csv")));
    let o = variantlab(&["play", "--resume", small.to_str().unwrap(), "--games", "6"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("can grow, not shrink"));
    // run.json says which code played.
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(small.join("run.json")).unwrap()).unwrap();
    assert!(run.get("git_commit").is_some(), "{run}");
}

/// An openings file is copied into the run folder with its checksum: a moved folder still
/// resumes, a changed file is refused instead of mixing old and new openings.
#[test]
fn an_openings_file_travels_with_the_run() {
    let dir = tmp("openings");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("openings.fen");
    std::fs::write(
        &file,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let run = dir.join("run");
    assert!(play_n(&run, "4", &["--openings", file.to_str().unwrap()])
        .status
        .success());
    assert!(run.join("openings.txt").exists());
    // Moved elsewhere (the original file gone), grown, it still plays from its own copy.
    let moved = tmp("openings-moved");
    std::fs::rename(&run, &moved).unwrap();
    std::fs::remove_file(&file).unwrap();
    let grow = |d: &Path, n: &str| {
        variantlab(&[
            "play",
            "--resume",
            d.to_str().unwrap(),
            "--games",
            n,
            "--quiet",
        ])
    };
    let o = grow(&moved, "6");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A changed copy is noticed.
    std::fs::write(
        moved.join("openings.txt"),
        "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1\n",
    )
    .unwrap();
    let o = grow(&moved, "8");
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("openings changed"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The ply cap is the variant's unless `--max-plies` sets one: Gateway's 47-piece armies get
/// 1500 plies (their decided games run past 400), chess keeps 400; both land in run.json.
#[test]
fn the_ply_cap_defaults_to_the_variants_own() {
    let cap_of = |dir: &Path| {
        let run: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
        run["adjudication"]["max_plies"].as_u64().unwrap()
    };
    let played = |variant: &str, extra: &[&str], name: &str| {
        let dir = tmp(name);
        let d = dir.to_str().unwrap().to_string();
        let mut args = vec!["play", "--variant", variant, "--games", "1", "--depth", "1"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", &d, "--quiet"]);
        let o = variantlab(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        dir
    };
    let gateway = played("gateway", &["--max-plies", "30"], "cap-gateway-set");
    assert_eq!(cap_of(&gateway), 30);
    let plies = std::fs::read_to_string(gateway.join("games.csv")).unwrap();
    let row = plies.lines().nth(1).unwrap();
    assert!(row.contains(",max_plies,30,"), "{row}");
    let chess = played("chess", &[], "cap-chess");
    assert_eq!(cap_of(&chess), 400);
    let gateway = played("gateway", &["--openings", "random-plies:0"], "cap-gateway");
    assert_eq!(cap_of(&gateway), 1500);
}
