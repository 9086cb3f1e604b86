//! The `variantlab` command end to end: outputs, and clear errors on bad input.

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

#[test]
fn perft_json_reports_nodes() {
    let o = variantlab(&["perft", "--variant", "chess", "--depth", "3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["nodes"], 8902);
    assert_eq!(v["variant"], "chess");
    assert_eq!(v["depth"], 3);
    assert!(v["seconds"].is_number() && v["nps"].is_number());
}

#[test]
fn perft_divide_sums_to_the_total() {
    let o = variantlab(&[
        "perft",
        "--variant",
        "dream-chess-46",
        "--depth",
        "2",
        "--divide",
    ]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 14, "13 root moves and a total: {out}");
    let sum: u64 = lines[..13]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert!(lines[13].contains(&format!("= {sum}")), "{out}");
}

#[test]
fn perft_from_a_position() {
    let o = variantlab(&[
        "perft",
        "--variant",
        "dream-chess-46",
        "--depth",
        "1",
        "--json",
        "--position",
        "***4k/***5/***5/8/2N5/5***/5***/K4*** w",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // Knight: 6 moves; King a1: a2 b1 b2.
    assert_eq!(v["nodes"], 9);
}

#[test]
fn variants_lists_reconstructions() {
    let o = variantlab(&["variants"]);
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("dream-chess-46") && out.contains("46 cells") && out.contains("[R] setup")
    );
    let o = variantlab(&["variants", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[1]["cells"], 46);
}

#[test]
fn bad_input_gets_clear_errors() {
    let o = variantlab(&["perft", "--variant", "shogi", "--depth", "2"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains(
        "unknown variant \"shogi\"; known variants: chess, dream-chess-46, dialectic, dialectic-hegelian, extreme-2d, extreme-2d-simple, gateway, dai-mitregi, dai-mitregi-stepping"
    ));

    let o = variantlab(&["perft", "--variant", "chess", "--depth", "0"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("must be 1 to 20, got 0"),
        "{}",
        stderr(&o)
    );

    let o = variantlab(&["perft", "--variant", "chess", "--depth", "two"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("invalid value 'two'"));

    let o = variantlab(&[
        "perft",
        "--variant",
        "dream-chess-46",
        "--depth",
        "2",
        "--position",
        "***4k/***5 w",
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("2 ranks given, the board has 8"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn search_prints_a_reproducible_best_move() {
    let args = [
        "search",
        "--variant",
        "chess",
        "--position",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "--depth",
        "3",
        "--json",
    ];
    let o = variantlab(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["best"], "a1a8");
    assert_eq!(v["mate"], 1);
    assert_eq!(v["pv"][0], "a1a8");
    let again: serde_json::Value = serde_json::from_slice(&variantlab(&args).stdout).unwrap();
    assert_eq!(v["nodes"], again["nodes"]);

    let o = variantlab(&["search", "--variant", "dream-chess-46", "--nodes", "5000"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("bestmove "));
}

#[test]
fn search_takes_an_engine_configuration() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("vl-search-config");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("no-null.json");
    std::fs::write(&file, r#"{"disable": ["null_move"]}"#).unwrap();
    let nodes = |extra: &[&str]| {
        let mut args = vec!["search", "--variant", "chess", "--depth", "7", "--json"];
        args.extend_from_slice(extra);
        let o = variantlab(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["nodes"].as_u64().unwrap()
    };
    let path = file.to_str().unwrap();
    // Without the null move the same depth costs another number of nodes, the same each time.
    assert_ne!(nodes(&[]), nodes(&["--config", path]));
    assert_eq!(nodes(&["--config", path]), nodes(&["--config", path]));
    let external = [
        "search",
        "--variant",
        "chess",
        "--depth",
        "2",
        "--config",
        "engine:x",
    ];
    let o = variantlab(&external);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("an external engine"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn search_rejects_bad_limits_and_values() {
    let o = variantlab(&["search", "--variant", "chess"]);
    assert!(stderr(&o).contains("give one limit"), "{}", stderr(&o));
    let o = variantlab(&[
        "search",
        "--variant",
        "chess",
        "--depth",
        "3",
        "--nodes",
        "5",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    let o = variantlab(&[
        "search",
        "--variant",
        "chess",
        "--depth",
        "2",
        "--values",
        "queen=900,dragon=5",
    ]);
    assert!(
        stderr(&o)
            .contains("unknown piece \"dragon\"; known: pawn, knight, bishop, rook, queen, king"),
        "{}",
        stderr(&o)
    );
    let o = variantlab(&[
        "search",
        "--variant",
        "chess",
        "--depth",
        "2",
        "--values",
        "queen=lots",
    ]);
    assert!(
        stderr(&o).contains("\"lots\" is not a whole number"),
        "{}",
        stderr(&o)
    );
    let o = variantlab(&[
        "search",
        "--variant",
        "chess",
        "--depth",
        "2",
        "--values",
        "queen=900",
    ]);
    assert!(o.status.success());
}

/// A closed standard output (`variantlab perft --divide | head -1`) ends the program quietly
/// with success, not with a "Broken pipe" panic. The pipe is closed before the program has
/// printed anything (its perft takes far longer than the close), so its first write fails.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::process::Stdio;
    for args in [
        &["perft", "--variant", "chess", "--depth", "4", "--divide"][..],
        &["perft", "--variant", "dream-chess-46", "--depth", "4"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "{args:?}: {err}");
        assert!(out.status.success(), "{args:?}: {:?} {err}", out.status);
    }
}

/// Meaningless settings are refused before any work, with a message naming the setting.
#[test]
fn meaningless_settings_are_refused() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("variantlab-cli-bad");
    let out = dir.to_str().unwrap();
    let zero_nodes =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("variantlab-cli-zero.json");
    std::fs::write(&zero_nodes, r#"{"name": "zero", "nodes": 0}"#).unwrap();
    let huge_hash =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("variantlab-cli-hash.json");
    std::fs::write(&huge_hash, r#"{"name": "huge", "hash_mib": 100000000}"#).unwrap();
    let play = |extra: &[&str]| {
        let mut a = vec![
            "play",
            "--variant",
            "chess",
            "--games",
            "4",
            "--out",
            out,
            "--quiet",
        ];
        a.extend_from_slice(extra);
        variantlab(&a)
    };
    let cases: Vec<(Output, &str)> = vec![
        (play(&["--nodes", "0"]), "must be at least 1, got 0"),
        (play(&["--depth", "0"]), "must be 1 to 100, got 0"),
        (play(&["--nodes", "-5"]), "must be at least 1, got -5"),
        (
            play(&["--white", zero_nodes.to_str().unwrap()]),
            "\"nodes\" must be at least 1",
        ),
        (
            play(&["--white", huge_hash.to_str().unwrap()]),
            "at most 65536 MiB",
        ),
        (play(&["--shard", "3/4"]), "would play nothing"),
        (
            play(&["--adjudicate-resign", "0:0"]),
            "must both be at least 1",
        ),
        (
            variantlab(&["study", "--games", "0", "--out", out]),
            "must be at least 1, got 0",
        ),
        (
            variantlab(&[
                "sprt",
                "--variant",
                "chess",
                "--test",
                "default",
                "--max-games",
                "0",
                "--out",
                out,
            ]),
            "must be at least 2, got 0",
        ),
        (
            variantlab(&[
                "search",
                "--variant",
                "chess",
                "--depth",
                "2",
                "--hash",
                "100000000",
            ]),
            "at most 65536 MiB",
        ),
    ];
    for (o, want) in cases {
        assert!(!o.status.success(), "accepted; wanted {want:?}");
        let e = stderr(&o);
        assert!(e.contains(want), "wanted {want:?} in {e}");
        assert!(!e.contains("panicked"), "{e}");
    }
    assert!(!dir.exists(), "nothing written before the check");
}

/// Piece names are read whatever their case and word separator.
#[test]
fn piece_names_are_case_insensitive() {
    let o = variantlab(&[
        "search",
        "--variant",
        "gateway",
        "--depth",
        "1",
        "--values",
        "Quantum_King=0,ROOK=480",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Outputs in the way or failed runs leave nothing behind: `report --out` an existing folder
/// says so and leaves no `.tmp`; `stats --out` an existing file says "is a file"; a `values`
/// run refused before any game leaves no empty output folder.
#[test]
fn failed_outputs_leave_nothing_behind() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("variantlab-cli-outputs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("existing")).unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/samples/chess");
    let existing = dir.join("existing");
    let o = variantlab(&["report", sample, "--out", existing.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is a folder, not a file"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("existing.tmp").exists());
    let file = dir.join("file");
    std::fs::write(&file, "kept").unwrap();
    let o = variantlab(&["stats", sample, "--out", file.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is a file, not a folder"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
    let new = dir.join("values");
    let o = variantlab(&[
        "values",
        "--variant",
        "chess",
        "--unit",
        "dragon",
        "--out",
        new.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--unit dragon"), "{}", stderr(&o));
    assert!(!new.exists(), "a failed values run left {}", new.display());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every command's help writes its defaults one way, `[default: ...]`, and `values` names
/// each of its methods.
#[test]
fn help_writes_defaults_one_way() {
    for command in [
        "variants",
        "perft",
        "search",
        "play",
        "merge",
        "stats",
        "tune",
        "report",
        "values",
        "sprt",
        "study",
        "bench",
        "uci",
        "perft-all",
    ] {
        let o = variantlab(&[command, "--help"]);
        assert!(o.status.success(), "{command}: {}", stderr(&o));
        let help = String::from_utf8_lossy(&o.stdout);
        for other in ["(default", "(the default", "reproducible default"] {
            assert!(
                !help.contains(other),
                "{command} --help writes {other:?}:\n{help}"
            );
        }
    }
    let o = variantlab(&["--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("values"))
        .unwrap();
    for method in ["imbalance", "regression", "balance", "evaluation"] {
        assert!(line.contains(method), "{line}");
    }
}

/// `variantlab uci` fed `input`: its standard output.
fn uci_session(input: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .arg("uci")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A line that is not UTF-8 ended the UCI conversation without a word; an EngineConfig
/// naming an external engine was accepted silently (the UCI engine starts no process).
#[test]
fn uci_answers_bad_lines_and_refuses_external_engines() {
    let out = uci_session(b"uci\nposition startpos moves e2e4 \xff\xfe\nisready\nquit\n");
    assert!(
        out.contains("info string") && out.contains("UTF-8"),
        "{out}"
    );
    assert!(out.contains("readyok"), "the conversation goes on: {out}");

    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("variantlab-uci");
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("ext.json");
    std::fs::write(&json, r#"{"name": "ext", "engine": "/bin/true"}"#).unwrap();
    let input = format!(
        "uci\nsetoption name EngineConfig value engine:/bin/true\n\
         setoption name EngineConfig value {}\nisready\nquit\n",
        json.display()
    );
    let out = uci_session(input.as_bytes());
    let refusals = out
        .lines()
        .filter(|l| l.starts_with("info string EngineConfig") && l.contains("external engine"))
        .count();
    assert_eq!(refusals, 2, "{out}");
    assert!(out.contains("readyok"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
