//! Issue 49: nothing lost, nothing run or deleted that the user did not ask for. Damaged
//! settings and move files, racing writers, `--force` next to other files, and resumes that
//! would start a program the command line did not name.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn variantlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .output()
        .expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("variantlab-safety-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A finished run of `games` chess games at 200 nodes, with moves recorded.
fn finished_run(dir: &Path, games: &str, extra: &[&str]) {
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "play",
        "--variant",
        "chess",
        "--games",
        games,
        "--nodes",
        "200",
        "--out",
        d,
        "--quiet",
        "--record-moves",
        "--threads",
        "2",
    ];
    args.extend_from_slice(extra);
    let o = variantlab(&args);
    assert!(o.status.success(), "{}", stderr(&o));
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = read(path);
    assert!(text.contains(from), "{} lacks {from}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_damaged_run_json_is_refused_naming_the_field() {
    let dir = tmp("runjson");
    finished_run(&dir, "4", &[]);
    let d = dir.to_str().unwrap();
    let run = dir.join("run.json");
    let good = read(&run);
    for (from, to, says) in [
        ("\"nodes\"", "\"nOdes\"", "nOdes"),
        ("\"nodes\": 200,", "", "missing field `nodes`"),
        ("\"nodes\": 200", "\"nodes\": \"200\"", "nodes"),
        ("\"seed\": 1,", "", "missing field `seed`"),
        ("\"pgn\": true,", "", "missing field `pgn`"),
        ("\"max_plies\"", "\"max_plys\"", "max_plys"),
    ] {
        std::fs::write(&run, &good).unwrap();
        edit(&run, from, to);
        for args in [
            vec!["play", "--resume", d, "--quiet"],
            vec!["stats", d],
            vec!["merge", d, "--out", &format!("{d}-merged")],
        ] {
            let o = variantlab(&args);
            let e = stderr(&o);
            assert!(!o.status.success(), "{args:?} after {from} -> {to}: {e}");
            assert!(e.contains(says) && e.contains("run.json"), "{args:?}: {e}");
        }
    }
    // Nothing was changed by the refusals.
    std::fs::write(&run, &good).unwrap();
    let o = variantlab(&["play", "--resume", d, "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A two-game SPRT match at 100 nodes in `dir`.
fn sprt_match(dir: &Path, extra: &[&str]) -> Output {
    let d = dir.to_str().unwrap();
    let mut args = vec![
        "sprt",
        "--variant",
        "chess",
        "--test",
        "default",
        "--max-games",
        "2",
        "--nodes",
        "100",
        "--out",
        d,
        "--quiet",
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    variantlab(&args)
}

#[test]
fn a_damaged_sprt_config_is_refused_naming_the_field() {
    let dir = tmp("sprtjson");
    let o = sprt_match(&dir, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let d = dir.to_str().unwrap();
    let cfg = dir.join("sprt_config.json");
    let good = read(&cfg);
    for (from, to, says) in [
        ("\"nodes\"", "\"nOdes\"", "nOdes"),
        ("\"seed\": 1,", "", "missing field `seed`"),
        ("\"reproducible\": true,", "", "missing field `reproducible`"),
    ] {
        std::fs::write(&cfg, &good).unwrap();
        edit(&cfg, from, to);
        let o = variantlab(&["sprt", "--resume", d, "--quiet"]);
        let e = stderr(&o);
        assert!(!o.status.success(), "{from} -> {to}: {e}");
        assert!(e.contains(says) && e.contains("sprt_config.json"), "{e}");
    }
}
