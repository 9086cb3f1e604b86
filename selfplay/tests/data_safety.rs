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
    let d =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("variantlab-safety-{name}"));
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

/// A `games.csv`'s lines without their last column (`wall_ms`, the only one that is timing).
fn without_wall_ms(text: String) -> Vec<String> {
    text.lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string())
        .collect()
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
        let stats_out = format!("{d}-stats");
        for args in [
            vec!["play", "--resume", d, "--quiet"],
            vec!["stats", d, "--out", &stats_out],
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
        (
            "\"reproducible\": true,",
            "",
            "missing field `reproducible`",
        ),
    ] {
        std::fs::write(&cfg, &good).unwrap();
        edit(&cfg, from, to);
        let o = variantlab(&["sprt", "--resume", d, "--quiet"]);
        let e = stderr(&o);
        assert!(!o.status.success(), "{from} -> {to}: {e}");
        assert!(e.contains(says) && e.contains("sprt_config.json"), "{e}");
    }
}

/// An SPRT killed between creating `sprt.csv` and writing its header resumes, with the
/// file written afresh.
#[test]
fn an_sprt_csv_left_empty_by_a_kill_is_written_afresh_on_resume() {
    let full = tmp("sprt-empty-full");
    let o = sprt_match(&full, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = tmp("sprt-empty");
    let o = sprt_match(&dir, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(dir.join("sprt.csv"), "").unwrap();
    let o = variantlab(&["sprt", "--resume", dir.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&dir.join("sprt.csv")), read(&full.join("sprt.csv")));
}

/// Cuts the last line of `path` in half.
fn cut_last_line(path: &Path) {
    let text = read(path);
    let body = text.trim_end_matches('\n');
    let start = body.rfind('\n').unwrap() + 1;
    let half = start + (body.len() - start) / 2;
    std::fs::write(path, &text[..half]).unwrap();
}

#[test]
fn a_short_or_missing_moves_csv_is_never_taken_as_complete() {
    let full = tmp("moves-full");
    finished_run(&full, "6", &[]);
    let dir = tmp("moves-cut");
    let d = dir.to_str().unwrap();
    for (damage, name) in [(0, "cut"), (1, "deleted"), (2, "header only")] {
        finished_run(&dir, "6", &["--force"]);
        let moves = dir.join("moves.csv");
        match damage {
            0 => cut_last_line(&moves),
            1 => std::fs::remove_file(&moves).unwrap(),
            _ => std::fs::write(&moves, "game_id,ply,move,side,material,eval_white_cp\n").unwrap(),
        }
        // Every reader refuses, naming the file, the game and the line.
        let out = format!("{d}-out");
        let stats_out = format!("{d}-stats");
        for args in [
            vec!["stats", d, "--out", &stats_out],
            vec!["report", d, "--out", &format!("{out}.html")],
            vec!["merge", d, "--out", &out],
            vec!["tune", "--games", d, "--out", &format!("{out}.json")],
            vec![
                "values",
                "--variant",
                "chess",
                "--method",
                "regression",
                "--from",
                d,
                "--out",
                &out,
            ],
        ] {
            let o = variantlab(&args);
            let e = stderr(&o);
            assert!(!o.status.success(), "{name}: {args:?}: {e}");
            assert!(e.contains("moves.csv"), "{name}: {args:?}: {e}");
            let game = if damage == 0 { "game 5" } else { "game 0" };
            if damage != 1 {
                assert!(
                    e.contains(game) && e.contains("line"),
                    "{name}: {args:?}: {e}"
                );
            }
        }
        // Resume plays the games again, and the run is whole.
        let o = variantlab(&["play", "--resume", d, "--quiet"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert_eq!(read(&moves), read(&full.join("moves.csv")), "{name}");
        assert_eq!(
            without_wall_ms(read(&dir.join("games.csv"))),
            without_wall_ms(read(&full.join("games.csv"))),
            "{name}"
        );
        let no_date = |t: String| {
            t.lines()
                .filter(|l| !l.starts_with("[Date"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(
            no_date(read(&dir.join("games.pgn"))),
            no_date(read(&full.join("games.pgn"))),
            "{name}"
        );
        let o = variantlab(&["stats", d, "--out", &format!("{d}-stats")]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
    }
}

/// A run killed between creating its CSVs and writing their headers leaves them empty: they
/// hold no game, and the resume writes them afresh (found by the fault-injection suite).
#[test]
fn csvs_left_empty_by_a_kill_are_written_afresh_on_resume() {
    let full = tmp("empty-full");
    finished_run(&full, "4", &[]);
    let dir = tmp("empty-csvs");
    let d = dir.to_str().unwrap();
    finished_run(&dir, "4", &[]);
    for name in ["games.csv", "moves.csv", "games.pgn"] {
        std::fs::write(dir.join(name), "").unwrap();
    }
    let o = variantlab(&["play", "--resume", d, "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        without_wall_ms(read(&dir.join("games.csv"))),
        without_wall_ms(read(&full.join("games.csv")))
    );
    assert_eq!(read(&dir.join("moves.csv")), read(&full.join("moves.csv")));
}

#[test]
fn merge_swaps_the_whole_result_in_and_refuses_another_run() {
    let (a, b) = (tmp("merge-a"), tmp("merge-b"));
    finished_run(&a, "8", &["--shard", "1/2"]);
    finished_run(&b, "8", &["--shard", "2/2"]);
    let out = tmp("merge-out");
    let (da, db, dout) = (
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        out.to_str().unwrap(),
    );
    let o = variantlab(&["merge", da, db, "--out", dout]);
    assert!(o.status.success(), "{}", stderr(&o));
    let merged = read(&out.join("moves.csv"));
    assert!(!Path::new(&format!("{dout}.merging")).exists());
    assert!(!out.join("lock").exists());
    // Merging again into the same study's folder replaces it with the same result.
    let o = variantlab(&["merge", da, db, "--out", dout]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&out.join("moves.csv")), merged);

    // Another study's run there is refused unless --force ...
    let other = tmp("merge-other");
    let dother = other.to_str().unwrap();
    let o = variantlab(&[
        "play",
        "--variant",
        "dream-chess-46",
        "--games",
        "2",
        "--nodes",
        "100",
        "--out",
        dother,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = variantlab(&["merge", da, db, "--out", dother]);
    let e = stderr(&o);
    assert!(
        !o.status.success() && e.contains("another run") && e.contains("--force"),
        "{e}"
    );
    assert!(read(&other.join("run.json")).contains("dream-chess-46"));
    // ... and with it, only variantlab's files are replaced: others' stay.
    std::fs::write(other.join("notes.md"), "mine").unwrap();
    std::fs::create_dir(other.join("shards")).unwrap();
    std::fs::write(other.join("shards").join("log"), "kept").unwrap();
    let o = variantlab(&["merge", da, db, "--out", dother, "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&other.join("moves.csv")), merged);
    assert!(read(&other.join("run.json")).contains("\"chess\""));
    assert_eq!(read(&other.join("notes.md")), "mine");
    assert_eq!(read(&other.join("shards").join("log")), "kept");

    // A shard whose moves are cut is refused, and the target is left as it was.
    cut_last_line(&b.join("moves.csv"));
    let o = variantlab(&["merge", da, db, "--out", dout]);
    let e = stderr(&o);
    assert!(
        !o.status.success() && e.contains("moves.csv") && e.contains("line"),
        "{e}"
    );
    assert_eq!(read(&out.join("moves.csv")), merged);
}

#[test]
fn force_removes_only_the_toolkits_files() {
    // sprt
    let dir = tmp("force-sprt");
    assert!(sprt_match(&dir, &[]).status.success());
    std::fs::write(dir.join("thesis.tex"), "years of work").unwrap();
    let o = sprt_match(&dir, &["--seed", "2", "--force"]);
    let e = stderr(&o);
    assert!(!o.status.success() && e.contains("thesis.tex"), "{e}");
    assert_eq!(read(&dir.join("thesis.tex")), "years of work");
    assert!(dir.join("sprt_config.json").exists());
    std::fs::remove_file(dir.join("thesis.tex")).unwrap();
    let o = sprt_match(&dir, &["--seed", "2", "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(read(&dir.join("sprt_config.json")).contains("\"seed\": 2"));

    // play: --force replaces a run, as the README says, and keeps others' files
    let dir = tmp("force-play");
    finished_run(&dir, "2", &[]);
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--nodes",
        "150",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        !o.status.success() && stderr(&o).contains("--force"),
        "{}",
        stderr(&o)
    );
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let again = |extra: &[&str]| {
        let mut args = vec![
            "play",
            "--variant",
            "chess",
            "--games",
            "2",
            "--nodes",
            "150",
            "--out",
            dir.to_str().unwrap(),
            "--quiet",
        ];
        args.extend_from_slice(extra);
        variantlab(&args)
    };
    let o = again(&["--force"]);
    assert!(
        !o.status.success() && stderr(&o).contains("notes.txt"),
        "{}",
        stderr(&o)
    );
    assert!(read(&dir.join("run.json")).contains("\"nodes\": 200"));
    std::fs::remove_file(dir.join("notes.txt")).unwrap();
    let o = again(&["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(read(&dir.join("run.json")).contains("\"nodes\": 150"));
    assert!(!dir.join("moves.csv").exists());

    // study
    let out = tmp("force-study");
    let study = |nodes: &str, force: bool| {
        let mut args = vec![
            "study",
            "--variants",
            "chess",
            "--games",
            "2",
            "--nodes",
            nodes,
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ];
        if force {
            args.push("--force");
        }
        variantlab(&args)
    };
    assert!(study("100", false).status.success());
    std::fs::write(out.join("chess").join("draft.md"), "mine").unwrap();
    let o = study("120", true);
    assert!(
        !o.status.success() && stderr(&o).contains("draft.md"),
        "{}",
        stderr(&o)
    );
    assert_eq!(read(&out.join("chess").join("draft.md")), "mine");
}

#[test]
fn resume_starts_no_program_the_command_line_did_not_name() {
    let dir = tmp("resume-engines");
    let d = dir.to_str().unwrap();
    let bin = env!("CARGO_BIN_EXE_variantlab");
    let engine = format!("engine:\"{bin}\" uci");
    // A name that would climb out of the run folder, as a log file name.
    let escape = tmp("escaped");
    std::fs::create_dir_all(&escape).unwrap();
    let cfg = dir.with_extension("json");
    std::fs::write(
        &cfg,
        format!(
            "{{\"name\": \"../../../../../../../..{}/x\", \"engine\": {:?}}}",
            escape.display(),
            format!("\"{bin}\" uci")
        ),
    )
    .unwrap();
    let c = cfg.to_str().unwrap();
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--nodes",
        "60",
        "--out",
        d,
        "--quiet",
        "--white",
        &engine,
        "--black",
        c,
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_dir(&escape).unwrap().count(),
        0,
        "a log escaped the run folder"
    );
    let logs: Vec<String> = std::fs::read_dir(dir.join("engines"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(logs.len(), 2, "{logs:?}");

    // Without the engines named again, even a finished run's resume is refused.
    let o = variantlab(&["play", "--resume", d, "--quiet"]);
    let e = stderr(&o);
    assert!(
        !o.status.success() && e.contains("--white") && e.contains("external engine"),
        "{e}"
    );
    // An edited command is refused, not run.
    let marker = tmp("pwned");
    let run = dir.join("run.json");
    let good = read(&run);
    let text = good.replacen(
        &format!("\"engine\": {:?}", format!("\"{bin}\" uci")),
        &format!("\"engine\": \"touch {}\"", marker.display()),
        1,
    );
    assert_ne!(text, good);
    std::fs::write(&run, text).unwrap();
    for args in [
        vec![
            "play", "--resume", d, "--quiet", "--white", &engine, "--black", c,
        ],
        vec![
            "play", "--resume", d, "--games", "4", "--quiet", "--white", &engine, "--black", c,
        ],
    ] {
        let o = variantlab(&args);
        let e = stderr(&o);
        assert!(!o.status.success() && e.contains("differs"), "{e}");
        assert!(!marker.exists(), "the edited command ran");
    }
    std::fs::write(&run, &good).unwrap();
    let o = variantlab(&[
        "play", "--resume", d, "--games", "4", "--quiet", "--white", &engine, "--black", c,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&dir.join("games.csv")).lines().count(), 5);

    // sprt --resume alike.
    let sdir = tmp("resume-sprt");
    let sd = sdir.to_str().unwrap();
    let o = variantlab(&[
        "sprt",
        "--variant",
        "chess",
        "--test",
        &engine,
        "--max-games",
        "2",
        "--nodes",
        "60",
        "--out",
        sd,
        "--quiet",
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = variantlab(&["sprt", "--resume", sd, "--quiet"]);
    let e = stderr(&o);
    assert!(!o.status.success() && e.contains("--test"), "{e}");
    let o = variantlab(&["sprt", "--resume", sd, "--quiet", "--test", "default"]);
    assert!(
        !o.status.success() && stderr(&o).contains("differs"),
        "{}",
        stderr(&o)
    );
    let o = variantlab(&["sprt", "--resume", sd, "--quiet", "--test", &engine]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_name_with_a_control_character_is_refused() {
    let dir = tmp("ctrl-name");
    let cfg = dir.with_extension("json");
    std::fs::write(&cfg, "{\"name\": \"strong\\nengine\"}").unwrap();
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
        "--white",
        cfg.to_str().unwrap(),
    ]);
    let e = stderr(&o);
    assert!(
        !o.status.success() && e.contains("control character") && e.contains("name"),
        "{e}"
    );
    assert!(!dir.exists());
}

#[test]
fn limits_too_large_are_clear_errors_naming_the_option() {
    let dir = tmp("limits");
    let d = dir.to_str().unwrap();
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "18446744073709551615",
        "--out",
        d,
        "--quiet",
    ]);
    let e = stderr(&o);
    assert!(
        !o.status.success() && e.contains("--games") && e.contains("too large"),
        "{e}"
    );
    assert!(!dir.exists(), "nothing is written for a refused count");
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--threads",
        "1000",
        "--out",
        d,
        "--quiet",
    ]);
    let e = stderr(&o);
    assert!(
        !o.status.success() && e.contains("--threads 1000") && e.contains("too large"),
        "{e}"
    );
    // Every concurrent game's two tables count: 256 games at once of 2 x 512 MiB.
    let cfg = dir.with_extension("json");
    std::fs::write(&cfg, "{\"name\": \"big\", \"hash_mib\": 512}").unwrap();
    let c = cfg.to_str().unwrap();
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "512",
        "--threads",
        "256",
        "--white",
        c,
        "--black",
        c,
        "--out",
        d,
        "--quiet",
    ]);
    let e = stderr(&o);
    assert!(
        !o.status.success() && e.contains("--threads 256") && e.contains("hash_mib"),
        "{e}"
    );
    assert!(!dir.exists(), "nothing is written for refused settings");
}
