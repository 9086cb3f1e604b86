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
