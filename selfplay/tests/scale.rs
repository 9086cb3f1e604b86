//! The scale-out recipes (examples/parallel/study.sh, examples/slurm/study.sbatch) run
//! locally on two shards: the merged study must be the single run's study.
//!
//! "The same" means: games.csv row for row apart from `wall_ms`; moves.csv byte for byte;
//! games.pgn apart from the `Date` tag (each run's start day); run.json apart from `started`,
//! `finished` and `threads` (when and how the games were played, not which games).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PLAY: [&str; 8] = [
    "--variant",
    "chess",
    "--games",
    "12",
    "--nodes",
    "300",
    "--record-moves",
    "--seed",
];

fn tmp(name: &str) -> PathBuf {
    let d =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-scale-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn script(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `bash SCRIPT ARGS... PLAY-OPTIONS` with the binary under test as `variantlab`.
fn recipe(script_path: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new("bash");
    c.arg(script(script_path))
        .args(args)
        .env("VARIANTLAB", env!("CARGO_BIN_EXE_variantlab"));
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("bash runs")
}

fn play_args(extra: &[&str]) -> Vec<String> {
    PLAY.iter()
        .chain(&["7"])
        .chain(extra)
        .map(|s| s.to_string())
        .collect()
}

fn single_run(name: &str) -> PathBuf {
    let dir = tmp(name);
    let mut args = vec!["play".to_string()];
    args.extend(play_args(&["--threads", "2", "--quiet", "--out"]));
    args.push(dir.to_str().unwrap().into());
    ok(&Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(&args)
        .output()
        .unwrap());
    dir
}

fn lines_without(path: &Path, skip: impl Fn(&str) -> bool) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !skip(l))
        .map(String::from)
        .collect()
}

fn run_json(dir: &Path) -> serde_json::Value {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert!(
        v["finished"].is_u64(),
        "{}: the study is complete",
        dir.display()
    );
    for k in ["started", "finished", "threads"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

fn assert_same_study(merged: &Path, single: &Path) {
    let rows = |d: &Path| {
        lines_without(&d.join("games.csv"), |_| false)
            .into_iter()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(merged).len(), 13);
    assert_eq!(rows(merged), rows(single), "games.csv");
    assert_eq!(
        std::fs::read(merged.join("moves.csv")).unwrap(),
        std::fs::read(single.join("moves.csv")).unwrap(),
        "moves.csv"
    );
    let pgn = |d: &Path| lines_without(&d.join("games.pgn"), |l| l.starts_with("[Date "));
    assert_eq!(pgn(merged), pgn(single), "games.pgn");
    assert_eq!(run_json(merged), run_json(single), "run.json");
}

fn gnu_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("GNU parallel"))
}

#[test]
fn the_gnu_parallel_recipe_merges_into_the_single_run() {
    if !gnu_parallel() {
        assert!(
            std::env::var_os("CI").is_none(),
            "GNU parallel is not installed, and CI must run this test (.ci/run installs it)"
        );
        common::skipped(
            "the_gnu_parallel_recipe_merges_into_the_single_run",
            "GNU parallel is not installed (apt-get install parallel); CI installs it and runs this test",
        );
        return;
    }
    let single = single_run("parallel-single");
    let out = tmp("parallel");
    let mut args = vec![out.to_str().unwrap().to_string(), "2".into()];
    args.extend(play_args(&[]));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = recipe("examples/parallel/study.sh", &args, &[]);
    ok(&o);
    assert!(out.join("shards/1/run.json").exists() && out.join("shards/2/run.json").exists());
    assert_same_study(&out, &single);

    // Interrupted: shard 2 lost its last games and the merge never happened. Running the
    // recipe again resumes the shard and merges the same study.
    let games = out.join("shards/2/games.csv");
    let kept = lines_without(&games, |_| false)[..3].join("\n") + "\n";
    std::fs::write(&games, kept).unwrap();
    for f in ["games.csv", "moves.csv", "games.pgn", "run.json"] {
        std::fs::remove_file(out.join(f)).unwrap();
    }
    ok(&recipe("examples/parallel/study.sh", &args, &[]));
    assert_same_study(&out, &single);

    // Without its arguments it says how to use it.
    let o = recipe("examples/parallel/study.sh", &[], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("OUT SHARDS PLAY-OPTIONS"));
    for d in [single, out] {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// The Slurm script's array tasks and merge job, run here as Slurm would run them (the
/// task index in SLURM_ARRAY_TASK_ID), so the recipe is tested without a cluster.
#[test]
fn the_slurm_recipe_merges_into_the_single_run() {
    let single = single_run("slurm-single");
    let out = tmp("slurm");
    let o = out.to_str().unwrap().to_string();
    let mut args = vec![o.clone(), "2".into()];
    args.extend(play_args(&[]));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Task 2 first: the order tasks run in does not matter; task 1 twice: a requeued task
    // resumes its shard.
    for task in ["2", "1", "1"] {
        ok(&recipe(
            "examples/slurm/study.sbatch",
            &args,
            &[("SLURM_ARRAY_TASK_ID", task), ("SLURM_CPUS_PER_TASK", "1")],
        ));
    }
    ok(&recipe(
        "examples/slurm/study.sbatch",
        &["--merge", &o, "2"],
        &[],
    ));
    assert_same_study(&out, &single);
    for d in [single, out] {
        let _ = std::fs::remove_dir_all(d);
    }
}
