//! `--variant-file` end to end: a file-defined variant plays, its definition is stored in
//! run.json (text and hash) so the run resumes without the file, and `merge` refuses shards
//! of different definitions.

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
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-vf-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn los_alamos() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/variants/los-alamos.toml")
}

fn play(file: &Path, dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "play",
        "--variant-file",
        file.to_str().unwrap(),
        "--games",
        "4",
        "--nodes",
        "200",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    variantlab(&args)
}

fn run_json(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

#[test]
fn perft_and_errors_through_the_command_line() {
    let f = los_alamos();
    let o = variantlab(&[
        "perft",
        "--variant-file",
        f.to_str().unwrap(),
        "--depth",
        "4",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["variant"].as_str(), v["nodes"].as_u64()),
        (Some("los-alamos"), Some(14332))
    );

    let bad = tmp("bad.toml");
    std::fs::write(
        &bad,
        "name = \"bad\"\ninherits = \"chess\"\n\n[[pieces]]\nletter = \"N\"\nbetza = \"NJ\"\n",
    )
    .unwrap();
    let o = variantlab(&[
        "perft",
        "--variant-file",
        bad.to_str().unwrap(),
        "--depth",
        "1",
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains(&format!("{}:6: pieces[0].betza:", bad.display())),
        "{e}"
    );
}

#[test]
fn a_file_variant_plays_resumes_and_merges_by_definition() {
    let f = los_alamos();
    let text = std::fs::read_to_string(&f).unwrap();
    let (s1, s2) = (tmp("s1"), tmp("s2"));
    for (dir, shard) in [(&s1, "1/2"), (&s2, "2/2")] {
        let o = play(&f, dir, &["--shard", shard]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let rj = run_json(&s1);
    assert_eq!(rj["variant"], "los-alamos");
    assert_eq!(rj["variant_file"]["text"].as_str(), Some(text.as_str()));
    assert_eq!(rj["variant_file"]["hash"].as_str().unwrap().len(), 16);

    // Merge works without the file: the definition comes from run.json.
    let merged = tmp("merged");
    let o = variantlab(&[
        "merge",
        "--out",
        merged.to_str().unwrap(),
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(run_json(&merged)["variant_file"], rj["variant_file"]);
    let games = std::fs::read_to_string(merged.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 5, "{games}");

    // A run folder extends without the file, from its stored definition.
    let o = variantlab(&[
        "play",
        "--resume",
        s1.to_str().unwrap(),
        "--games",
        "6",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    // The same name with another definition (the Knight changed) is another study.
    let changed = tmp("changed.toml");
    std::fs::write(
        &changed,
        text.clone() + "\n[[pieces]]\nletter = \"N\"\nbetza = \"NW\"\n",
    )
    .unwrap();
    let other = tmp("other");
    let o = play(&changed, &other, &["--shard", "2/2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_ne!(
        run_json(&other)["variant_file"]["hash"],
        rj["variant_file"]["hash"]
    );
    let o = variantlab(&[
        "merge",
        "--out",
        tmp("bad-merge").to_str().unwrap(),
        s2.to_str().unwrap(),
        other.to_str().unwrap(),
    ]);
    // Refused as soon as the second definition is read, naming both folders' run.json.
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("a different variant file")
            && e.contains("other/run.json")
            && e.contains("s2/run.json"),
        "{e}"
    );

    // Resuming a run of one definition while another file is loaded is refused.
    let o = variantlab(&[
        "play",
        "--variant-file",
        changed.to_str().unwrap(),
        "--resume",
        s2.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("a different variant file"),
        "{}",
        stderr(&o)
    );

    // A hand-edited definition is noticed.
    let edited = std::fs::read_to_string(s2.join("run.json"))
        .unwrap()
        .replace("Los Alamos chess (Paul Stein", "Los Alamos chess (P. Stein");
    std::fs::write(s2.join("run.json"), edited).unwrap();
    let o = variantlab(&["play", "--resume", s2.to_str().unwrap(), "--quiet"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("does not match its hash"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn study_of_a_file_variant() {
    let f = los_alamos();
    let out = tmp("study");
    let o = variantlab(&[
        "study",
        "--variant-file",
        f.to_str().unwrap(),
        "--games",
        "2",
        "--nodes",
        "200",
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("los-alamos/games.csv").exists());
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(summary.contains("los-alamos"), "{summary}");
}

/// `variants` printed a file's title and notes as written, terminal escape sequences
/// included; control characters are now shown escaped.
#[test]
fn variants_escapes_control_characters_of_a_file() {
    let dir = tmp("escapes");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("esc.toml");
    std::fs::write(
        &f,
        "name = \"esc\"\ninherits = \"chess\"\ntitle = \"\\u001b[31mred\"\nnotes = [\"\\u001b]0;title\\u0007bell\"]\n",
    )
    .unwrap();
    let o = variantlab(&["variants", "--variant-file", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("esc"), "{text}");
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    assert!(text.contains("\\u{1b}[31mred"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A one-file board of `ranks` cells: White's King and Rook on a1 and a2, Black's Rook and
/// King on the two last cells, every rule that needs more pieces off.
fn line_variant(ranks: usize) -> String {
    let mut rows = vec!["k".to_string(), "r".to_string()];
    rows.extend(std::iter::repeat_n("1".to_string(), ranks - 4));
    rows.extend(["R".to_string(), "K".to_string()]);
    format!(
        "name = \"line-{ranks}\"\nsetup = \"{} w - - 0 1\"\n\n[board]\nfiles = 1\nranks = {ranks}\n\n\
         [[pieces]]\nname = \"rook\"\nletter = \"R\"\nbetza = \"R\"\nvalue = 500\n\n\
         [[pieces]]\nname = \"king\"\nletter = \"K\"\nbetza = \"K\"\nvalue = 0\nroyal = true\n\n\
         [rules]\ncastling = []\ninsufficient_material = false\n",
        rows.join("/")
    )
}

/// A 1x128 board is inside the documented limits (at most 128 cells, 26 files) but was refused
/// ("rank -128 has more than 1 cells": the rank count wrapped in an `i8`). Its perft figures
/// by reasoning: the King is boxed in by its own Rook, so White has the Rook's 124 quiet moves
/// and the capture of Black's Rook (125); after a quiet move to rank k Black's Rook has
/// 126 - k quiet moves and one capture, and after the capture only Kxa127 (1 + ... + 124 + 1
/// = 7,751). Depth 3 (643,127) is a brute-force count of the same rules on a line.
#[test]
fn a_board_of_one_file_and_128_ranks_plays() {
    let dir = tmp("line128");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("line.toml");
    std::fs::write(&f, line_variant(128)).unwrap();
    for (depth, nodes) in [("1", 125), ("2", 7751), ("3", 643_127)] {
        let o = variantlab(&[
            "perft",
            "--variant-file",
            f.to_str().unwrap(),
            "--depth",
            depth,
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["nodes"].as_u64(), Some(nodes), "depth {depth}");
    }
    // The evaluation and a short match on it: cells a100 to a128 are named in the openings.
    let o = variantlab(&[
        "search",
        "--variant-file",
        f.to_str().unwrap(),
        "--nodes",
        "2000",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = dir.join("run");
    let o = play(&f, &run, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let games = std::fs::read_to_string(run.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 5, "{games}");
    assert!(games.contains("a127"), "{games}");

    // 128 files are past the 26 files have letters for: refused with the supported sizes.
    let wide = dir.join("wide.toml");
    let text = line_variant(128).replace("files = 1\nranks = 128", "files = 128\nranks = 1");
    std::fs::write(&wide, text).unwrap();
    let o = variantlab(&[
        "perft",
        "--variant-file",
        wide.to_str().unwrap(),
        "--depth",
        "1",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("a 128x1 board (128 cells) is not supported"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn variant_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../data/variants/{name}.toml"))
}

/// `variantlab --variant-file F ... ARGS`, each of `files` loaded.
fn with_files(files: &[&Path], args: &[&str]) -> Output {
    let mut all: Vec<&str> = Vec::new();
    for f in files {
        all.extend(["--variant-file", f.to_str().unwrap()]);
    }
    all.extend_from_slice(args);
    variantlab(&all)
}

/// A designer's variant files compared in one command: `study` plays each file's variant
/// (a 6x6 board and a 10x8 one, so both board sizes hold a file at once), its statistics
/// and report read both runs, and a later `compare` of the two runs loads both stored
/// definitions. A second definition of a loaded name, a fourth file, and a command about one
/// variant given two files without `--variant` are refused, each saying why.
#[test]
fn several_variant_files_in_one_command() {
    let (a, b) = (los_alamos(), variant_file("capablanca"));
    let dir = tmp("several");
    let o = with_files(
        &[&a, &b],
        &[
            "study",
            "--games",
            "2",
            "--nodes",
            "100",
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let balance = std::fs::read_to_string(dir.join("balance.csv")).unwrap();
    for name in ["los-alamos", "capablanca"] {
        assert_eq!(run_json(&dir.join(name))["variant"], name);
        assert_eq!(run_json(&dir.join(name))["variant_file"]["name"], name);
        assert!(summary.contains(name), "{summary}");
        assert!(balance.contains(name), "{balance}");
    }
    assert_eq!(summary.lines().count(), 3, "{summary}");

    // A later process: both definitions come from the runs' run.json.
    let cmp = dir.join("compare");
    let o = variantlab(&[
        "compare",
        dir.join("los-alamos").to_str().unwrap(),
        dir.join("capablanca").to_str().unwrap(),
        "--out",
        cmp.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = std::fs::read_to_string(cmp.join("compare.csv")).unwrap();
    assert!(
        rows.contains("capablanca") && rows.contains("los-alamos"),
        "{rows}"
    );

    // One command about one variant, two files and no --variant: which is meant is asked.
    let o = with_files(&[&a, &b], &["perft", "--depth", "1"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("give --variant NAME: the variant files define los-alamos, capablanca"),
        "{}",
        stderr(&o)
    );
    let o = with_files(
        &[&a, &b],
        &["perft", "--variant", "capablanca", "--depth", "1", "--json"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("28"));

    // Another definition under a loaded name is refused, naming both files.
    let edited = tmp("several-edited.toml");
    let text = std::fs::read_to_string(&a).unwrap();
    std::fs::write(&edited, text + "\n").unwrap();
    let o = with_files(&[&a, &edited], &["variants"]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("several-edited.toml")
            && e.contains("los-alamos.toml")
            && e.contains("defines variant \"los-alamos\""),
        "{e}"
    );

    // Three files load (`variants` lists each); a fourth does not fit.
    let (c, d) = (variant_file("grand"), variant_file("omicron-like"));
    let o = with_files(&[&a, &b, &c], &["variants", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let listed: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert!(
        names.ends_with(&["los-alamos", "capablanca", "grand"]),
        "{names:?}"
    );
    let o = with_files(&[&a, &b, &c, &d], &["variants"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("at most 3 variant files in one process"),
        "{}",
        stderr(&o)
    );
}
