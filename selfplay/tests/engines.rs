//! External engines as players: variantlab referees games against UCI processes, and an
//! engine that answers an illegal move, crashes or hangs loses that game (and only that
//! game) with the right termination; a missing program is an error before any game.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn variantlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(args)
        .output()
        .expect("runs")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("variantlab-engines-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn has_python() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A UCI engine in Python that knows no chess: it answers the handshake, and `go` as
/// `on_go` says (a Python statement; `side` is `w` or `b`, `gos` counts the `go`s so far).
fn fault_engine(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(format!("{name}.py"));
    let script = format!(
        r#"import sys
sys.stderr.write("{name} engine started\n")
sys.stderr.flush()
side, gos = "w", 0
for line in sys.stdin:
    cmd = line.split()
    if not cmd:
        continue
    if cmd[0] == "uci":
        print("id name {name}")
        print("uciok", flush=True)
    elif cmd[0] == "isready":
        print("readyok", flush=True)
    elif cmd[0] == "position":
        moves = cmd[cmd.index("moves") + 1:] if "moves" in cmd else []
        side = cmd[3] if cmd[1] == "fen" else "w"
        if len(moves) % 2 == 1:
            side = "b" if side == "w" else "w"
    elif cmd[0] == "go":
        gos += 1
        {on_go}
    elif cmd[0] == "quit":
        break
"#
    );
    std::fs::write(&path, script).unwrap();
    path
}

/// `games.csv` rows as maps from column name to value.
fn games(dir: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("games.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            header
                .iter()
                .zip(l.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Plays two games of chess from the start position, the fault engine as engine A (White
/// in game 0, Black in game 1), and checks that it lost both with `termination`.
fn engine_forfeits_both_games(name: &str, on_go: &str, termination: &str) {
    if !has_python() {
        common::skipped(&format!("the {name} engine test"), "python3 not found");
        return;
    }
    let dir = tmp(name);
    let script = fault_engine(&dir.join("scripts"), name, on_go);
    let out = dir.join("run");
    let white = format!("engine:python3 {}", script.display());
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--white",
        &white,
        "--movetime",
        "100",
        "--openings",
        "random-plies:0",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("not reproducible"));
    let rows = games(&out);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(r["termination"], termination, "{r:?}");
        let engine_white = r["white"] == name;
        assert_eq!(r["black"] == name, !engine_white, "{r:?}");
        let expected = if engine_white { "0-1" } else { "1-0" };
        assert_eq!(r["result"], expected, "the engine loses: {r:?}");
    }
    let log = out.join("engines").join(format!("{name}.stderr.log"));
    let text = std::fs::read_to_string(&log).expect("the engine's stderr log");
    assert!(text.contains(&format!("{name} engine started")), "{text}");
    assert!(
        text.contains(&format!("# variantlab: {termination}")),
        "{text}"
    );
    // balance.csv counts the forfeits.
    let stats = dir.join("stats");
    let o = variantlab(&[
        "stats",
        out.to_str().unwrap(),
        "--out",
        stats.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let balance = std::fs::read_to_string(stats.join("balance.csv")).unwrap();
    let mut lines = balance.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = header
        .iter()
        .position(|h| *h == format!("end_{termination}"))
        .expect("a column per termination");
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(row[col], "2");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_illegal_bestmove_loses_the_game() {
    engine_forfeits_both_games(
        "illegal",
        r#"print("bestmove a1a1", flush=True)"#,
        "illegal_move",
    );
}

#[test]
fn a_crashed_engine_loses_and_is_restarted() {
    // The first move is always legal from the start position (e2e4 for White, e7e5 as
    // Black's first reply); the second `go` ends the process. Game 1 needs a new process.
    engine_forfeits_both_games(
        "crash",
        r#"if gos >= 2: sys.exit(3)
        print("bestmove " + ("e2e4" if side == "w" else "e7e5"), flush=True)"#,
        "engine_crash",
    );
}

#[test]
fn an_engine_that_never_answers_loses_on_time() {
    engine_forfeits_both_games("hang", "pass", "time_forfeit");
}

#[test]
fn an_engine_writing_without_newlines_breaks_the_protocol() {
    // Before the bound, the referee buffered the endless line until the move's deadline
    // (2.4 GB within a second under --tc) and scored a time forfeit.
    engine_forfeits_both_games(
        "flood",
        r#"while True: sys.stdout.write("x" * 65536); sys.stdout.flush()"#,
        "engine_protocol",
    );
}

#[test]
fn an_engine_flooding_lines_breaks_the_protocol() {
    engine_forfeits_both_games(
        "chatter",
        r#"while True: sys.stdout.write(("info string " + "y" * 1000 + "\n") * 1000); sys.stdout.flush()"#,
        "engine_protocol",
    );
}

/// Whether process `pid` is still running (gone, or a zombie waiting for its parent, is not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        s.rsplit(')')
            .next()
            .and_then(|r| r.split_whitespace().next())
            != Some("Z")
    })
}

#[test]
fn a_crash_that_leaves_a_child_is_a_crash_and_the_child_is_killed() {
    if !cfg!(target_os = "linux") {
        return;
    }
    // A wrapper-like engine: at its second `go` it starts a child that keeps its output
    // pipes open, then dies. The referee saw no end of output and waited for the deadline
    // (time_forfeit), and the child ran on.
    let dir = tmp("orphan-pids");
    std::fs::create_dir_all(&dir).unwrap();
    let pids = dir.join("pids");
    engine_forfeits_both_games(
        "orphan",
        &format!(
            r#"if gos >= 2:
            import subprocess, os
            p = subprocess.Popen(["sleep", "300"])
            open({pids:?}, "a").write(str(p.pid) + "\n")
            os._exit(3)
        print("bestmove " + ("e2e4" if side == "w" else "e7e5"), flush=True)"#
        ),
        "engine_crash",
    );
    if !has_python() {
        return;
    }
    let text = std::fs::read_to_string(&pids).unwrap();
    let pids: Vec<u32> = text.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(pids.len(), 2, "one child per game");
    std::thread::sleep(std::time::Duration::from_millis(200));
    for pid in pids {
        assert!(!running(pid), "the crashed engine's child {pid} still runs");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_engine_is_an_error_before_any_game() {
    let dir = tmp("missing");
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--white",
        "engine:/nonexistent/x",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("/nonexistent/x") && e.contains("cannot start"),
        "{e}"
    );
    assert!(!dir.exists(), "nothing written");

    let o = variantlab(&[
        "sprt",
        "--variant",
        "chess",
        "--test",
        "engine:/nonexistent/x",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cannot start"), "{}", stderr(&o));
    assert!(!dir.join("sprt.csv").exists());

    // Stockfish has no UCI_Variant: it plays chess only.
    if let Some(sf) = stockfish() {
        let o = variantlab(&[
            "play",
            "--variant",
            "gateway",
            "--games",
            "2",
            "--white",
            &format!("engine:{}", sf.display()),
            "--quiet",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert!(!o.status.success());
        assert!(stderr(&o).contains("UCI_Variant"), "{}", stderr(&o));
        assert!(!dir.exists());
    }
}

#[test]
fn bad_time_controls_and_engine_settings_are_refused() {
    let dir = tmp("bad");
    let d = dir.to_str().unwrap();
    for (args, message) in [
        (&["--tc", "abc"][..], "not a number of seconds"),
        (&["--tc", "0+1"][..], "BASE above 0"),
        (
            &["--movetime", "100", "--nodes", "5"][..],
            "cannot be used with",
        ),
        (
            &["--tc", "1+0.1", "--depth", "3"][..],
            "cannot be used with",
        ),
        (
            &["--white", "engine:\"unclosed"][..],
            "unclosed double quote",
        ),
    ] {
        let mut all = vec![
            "play",
            "--variant",
            "chess",
            "--games",
            "2",
            "--quiet",
            "--out",
            d,
        ];
        all.extend_from_slice(args);
        let o = variantlab(&all);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
    }
    // Settings of the built-in engine mean nothing to an external one.
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("sf.json");
    std::fs::write(&cfg, r#"{"engine": "stockfish", "values": {"pawn": 90}}"#).unwrap();
    let out = dir.join("run");
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--white",
        cfg.to_str().unwrap(),
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("built-in engine"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_clock_game_between_builtin_players_finishes() {
    let dir = tmp("clock");
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--tc",
        "0.5+0.01",
        "--max-plies",
        "40",
        "--threads",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("not reproducible"));
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["reproducible"], false);
    assert_eq!(run["tc"]["base_ms"], 500);
    assert_eq!(run["tc"]["inc_ms"], 10);
    assert!(run["nodes"].is_null());
    assert_eq!(games(&dir).len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_sprt_match_against_a_faulty_engine_counts_its_forfeits() {
    if !has_python() {
        common::skipped(
            "an_sprt_match_against_a_faulty_engine_counts_its_forfeits",
            "python3 not found",
        );
        return;
    }
    let dir = tmp("sprt");
    let script = fault_engine(
        &dir.join("scripts"),
        "illegal",
        r#"print("bestmove 0000", flush=True)"#,
    );
    let test = format!("engine:python3 {}", script.display());
    let out = dir.join("run");
    let o = variantlab(&[
        "sprt",
        "--variant",
        "chess",
        "--test",
        &test,
        "--max-games",
        "4",
        "--openings",
        "random-plies:0",
        "--threads",
        "1",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(out.join("sprt.csv")).unwrap();
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 2);
    for r in rows {
        // The test engine scores 0 in both games, both lost to illegal moves.
        assert!(
            r.starts_with(&format!("{},0,0,", r.split(',').next().unwrap())),
            "{r}"
        );
        assert!(r.contains("illegal_move,illegal_move"), "{r}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("sprt.json")).unwrap()).unwrap();
    assert_eq!(json["reproducible"], false);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `name` on `PATH`, or where Debian installs it.
fn installed(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Stockfish on `PATH`, or where Debian installs it.
fn stockfish() -> Option<PathBuf> {
    installed("stockfish")
}

#[test]
fn stockfish_plays_legal_games() {
    let Some(sf) = stockfish() else {
        common::skipped(
            "stockfish_plays_legal_games",
            "stockfish not found on PATH or in /usr/games (apt-get install stockfish)",
        );
        return;
    };
    let dir = tmp("stockfish");
    let white = format!("engine:{}", sf.display());
    let o = variantlab(&[
        "play",
        "--variant",
        "chess",
        "--games",
        "2",
        "--white",
        &white,
        "--nodes",
        "1000",
        "--record-moves",
        "--threads",
        "2",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = games(&dir);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert!(
            !["illegal_move", "engine_crash", "time_forfeit"].contains(&r["termination"].as_str()),
            "{r:?}"
        );
        assert!(r["plies"].parse::<u32>().unwrap() > 0);
    }
    assert!(rows.iter().any(|r| r["white"] == "stockfish"));
    // Stockfish's own moves carry its scores.
    let moves = std::fs::read_to_string(dir.join("moves.csv")).unwrap();
    assert!(moves.lines().count() > 10);
    assert!(dir.join("engines/stockfish.stderr.log").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Fairy-Stockfish on `PATH` or where Debian installs it; the skip of `test` recorded without.
fn fairy_stockfish(test: &str) -> Option<PathBuf> {
    let found = installed("fairy-stockfish");
    if found.is_none() {
        common::skipped(
            test,
            "fairy-stockfish not found on PATH or in /usr/games (apt-get install fairy-stockfish)",
        );
    }
    found
}

/// A variant file in the repository (`data/variants/`, `docs/examples/`).
fn repo_file(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
        .display()
        .to_string()
}

/// Two games of Los Alamos chess (a variant file) from `white`'s configuration against the
/// built-in engine, recorded in `dir`; the games must end by the rules, with no forfeit.
fn los_alamos_against(white: &str, dir: &Path) {
    let o = variantlab(&[
        "play",
        "--variant-file",
        &repo_file("data/variants/los-alamos.toml"),
        "--games",
        "2",
        "--white",
        white,
        "--nodes",
        "1000",
        "--record-moves",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = games(dir);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert!(
            ![
                "illegal_move",
                "engine_crash",
                "time_forfeit",
                "engine_protocol"
            ]
            .contains(&r["termination"].as_str()),
            "{r:?}"
        );
        assert!(r["plies"].parse::<u32>().unwrap() > 4, "{r:?}");
    }
}

/// A variant file against Fairy-Stockfish: the variant, exported to Fairy-Stockfish's format,
/// is written into the run folder (and nowhere else) and given as VariantPath before the
/// variant is chosen, so the engine plays legal moves to the end of both games.
#[test]
fn a_variant_file_plays_fairy_stockfish_through_its_exported_definition() {
    let test = "a_variant_file_plays_fairy_stockfish_through_its_exported_definition";
    let Some(fsf) = fairy_stockfish(test) else {
        return;
    };
    let dir = tmp("fsf-file");
    los_alamos_against(&format!("engine:{}", fsf.display()), &dir);
    let ini = std::fs::read_to_string(dir.join("variant.ini")).expect("variant.ini written");
    assert!(
        ini.contains("[los-alamos]") && ini.contains("maxFile = f"),
        "{ini}"
    );
    // Extended from its folder alone (run.json holds the variant file), the definition is
    // written again; --force replaces the run, variant.ini included.
    std::fs::remove_file(dir.join("variant.ini")).unwrap();
    let o = variantlab(&[
        "play",
        "--resume",
        dir.to_str().unwrap(),
        "--games",
        "4",
        "--white",
        &format!("engine:{}", fsf.display()),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = games(&dir);
    assert_eq!(rows.len(), 4);
    assert!(
        rows.iter().all(|r| r["termination"] != "illegal_move"),
        "{rows:?}"
    );
    // The same definition; its comment names where it was read from (now run.json).
    let again = std::fs::read_to_string(dir.join("variant.ini")).unwrap();
    let body = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&again), body(&ini));
    let o = variantlab(&[
        "play",
        "--variant-file",
        &repo_file("data/variants/los-alamos.toml"),
        "--games",
        "2",
        "--nodes",
        "200",
        "--quiet",
        "--force",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!dir.join("variant.ini").exists(), "--force removes it");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A configuration whose options name a VariantPath of its own: the options are sent before the
/// variant is checked, so Fairy-Stockfish knows the variant from that file; no definition is
/// written into the run folder then.
#[test]
fn an_engine_configuration_with_its_own_variant_path_plays_the_variant() {
    let test = "an_engine_configuration_with_its_own_variant_path_plays_the_variant";
    let Some(fsf) = fairy_stockfish(test) else {
        return;
    };
    let work = tmp("fsf-own");
    std::fs::create_dir_all(&work).unwrap();
    let o = variantlab(&[
        "export",
        "--variant-file",
        &repo_file("data/variants/los-alamos.toml"),
        "--fsf",
        "los-alamos",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ini = work.join("custom.ini");
    std::fs::write(&ini, &o.stdout).unwrap();
    let config = work.join("fsf.json");
    let json = serde_json::json!({
        "name": "fsf-own",
        "engine": fsf.display().to_string(),
        "options": {"VariantPath": ini.display().to_string()},
    });
    std::fs::write(&config, json.to_string()).unwrap();
    let dir = work.join("run");
    los_alamos_against(config.to_str().unwrap(), &dir);
    assert!(!dir.join("variant.ini").exists());
    assert!(games(&dir).iter().any(|r| r["white"] == "fsf-own"));
    let _ = std::fs::remove_dir_all(&work);
}

/// A variant file Fairy-Stockfish's format cannot express (Dream Chess 46's holes) is refused
/// against it before any file is written, saying why and what to do.
#[test]
fn a_variant_file_fairy_stockfish_cannot_read_is_refused_before_the_run() {
    let test = "a_variant_file_fairy_stockfish_cannot_read_is_refused_before_the_run";
    let Some(fsf) = fairy_stockfish(test) else {
        return;
    };
    let dir = tmp("fsf-holes");
    let o = variantlab(&[
        "play",
        "--variant-file",
        &repo_file("docs/examples/dream-46-queen-back.toml"),
        "--games",
        "2",
        "--white",
        &format!("engine:{}", fsf.display()),
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("dream-46-queen-back cannot be written in Fairy-Stockfish's format")
            && e.contains("holes")
            && e.contains("VariantPath"),
        "{e}"
    );
    assert!(!dir.exists(), "nothing written");
}
