//! Variants defined in files (`data/variants/*.toml`): each file's perft suite (beside it, or
//! the built-in variant's in `data/perft/`) must match, and bad files must be refused with
//! the file, the line and the field.
//!
//! One variant file per process (the compiled rules live in a static), so the suite test
//! runs this binary again once per file, selecting [`one_variant_file`] with
//! `VARIANTLAB_VARIANT_FILE`.

use std::path::{Path, PathBuf};
use std::process::Command;
use variantlab_engine::perft::perft;
use variantlab_engine::position::Variant;
use variantlab_engine::variants::file;
use variantlab_engine::{with_variant, VariantKind};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The perft suite of a variant file: `NAME.perft` beside it, else the built-in variant's
/// suite it reproduces (`chess.toml` -> `data/perft/chess.perft`).
fn suite_of(toml: &Path) -> PathBuf {
    let beside = toml.with_extension("perft");
    if beside.exists() {
        return beside;
    }
    let stem = toml.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    root().join("data/perft").join(format!("{stem}.perft"))
}

/// (id, position, depth, nodes) per line of a `.perft` file.
fn read_suite(path: &Path) -> Vec<(String, String, u32, u64)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut id, mut fen, mut out) = (String::new(), String::new(), Vec::new());
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => id = rest.to_string(),
            "epd" => fen = rest.to_string(),
            "perft" => {
                let v: Vec<u64> = rest
                    .split_whitespace()
                    .map(|x| x.parse().unwrap())
                    .collect();
                out.push((id.clone(), fen.clone(), v[0] as u32, v[1]));
            }
            _ => panic!("{}: unknown key {key}", path.display()),
        }
    }
    out
}

/// Cases above this many nodes are skipped (`VARIANTLAB_PERFT_LIMIT`), so each file stays
/// within a few seconds.
fn node_limit() -> u64 {
    std::env::var("VARIANTLAB_PERFT_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000_000)
}

fn variant_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("data/variants"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

/// Runs the perft suite of the file named by `VARIANTLAB_VARIANT_FILE` (a child process of
/// [`every_variant_file_matches_its_perft_suite`]); does nothing without it.
#[test]
fn one_variant_file() {
    let Ok(path) = std::env::var("VARIANTLAB_VARIANT_FILE") else {
        return;
    };
    let path = PathBuf::from(path);
    let loaded = file::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let kind = loaded.kind;
    assert_eq!(VariantKind::from_name(loaded.name), Ok(kind));
    let limit = node_limit();
    let mut ran = 0;
    for (id, fen, depth, nodes) in read_suite(&suite_of(&path)) {
        if nodes > limit {
            continue;
        }
        let got = with_variant!(kind, G => {
            let pos = G::from_text(&fen).unwrap_or_else(|e| panic!("{id}: {e}"));
            perft(&pos, depth)
        });
        assert_eq!(got, nodes, "{} {id} depth {depth}", path.display());
        ran += 1;
    }
    assert!(ran > 0);
    // A file named after a built-in variant also plays like it move for move: perft from the
    // start, depth by depth, against the built-in (data/perft/dream-chess-46.perft alone
    // goes only one ply deep).
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if let Some(builtin) = VariantKind::from_name(stem).ok().filter(|k| !k.is_file()) {
        for depth in 1..=5 {
            let want = with_variant!(builtin, G => perft(&G::start(), depth));
            if want > limit {
                break;
            }
            let got = with_variant!(kind, G => perft(&G::start(), depth));
            assert_eq!(
                got, want,
                "{stem} start depth {depth}: file against built-in"
            );
            ran += 1;
        }
    }
    println!("{}: {ran} perft cases match", path.display());
}

/// Every `data/variants/*.toml` matches its perft suite, each in its own process.
#[test]
fn every_variant_file_matches_its_perft_suite() {
    if std::env::var("VARIANTLAB_VARIANT_FILE").is_ok() {
        return;
    }
    let files = variant_files();
    for name in [
        "chess",
        "dream-chess-46",
        "capablanca",
        "grand",
        "los-alamos",
    ] {
        assert!(
            files
                .iter()
                .any(|f| f.file_stem().is_some_and(|s| s == name)),
            "data/variants/{name}.toml missing"
        );
    }
    let exe = std::env::current_exe().unwrap();
    for f in files {
        assert!(suite_of(&f).exists(), "{}: no perft suite", f.display());
        let out = Command::new(&exe)
            .args([
                "one_variant_file",
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("VARIANTLAB_VARIANT_FILE", &f)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{}:\n{text}", f.display());
        assert!(
            text.contains("perft cases match"),
            "{}:\n{text}",
            f.display()
        );
    }
}

/// A file identical to a built-in variant plays the same: the same move counts from the
/// start, and the same piece table.
#[test]
fn the_chess_file_describes_chess() {
    let text = std::fs::read_to_string(root().join("data/variants/chess.toml")).unwrap();
    let parsed = file::parse("chess.toml", &text).unwrap();
    let builtin = &variantlab_engine::variants::Chess::rules().spec;
    assert_eq!(parsed.spec.pieces.len(), builtin.pieces.len());
    for (a, b) in parsed.spec.pieces.iter().zip(&builtin.pieces) {
        assert_eq!(
            (a.letter, a.betza, a.royal, a.value),
            (b.letter, b.betza, b.royal, b.value)
        );
    }
    assert_eq!(parsed.spec.start, builtin.start);
    assert_eq!(parsed.spec.castling.len(), 4);
    assert_eq!(parsed.spec.move_rule_plies, 100);
}

/// Parses `text` and returns the error's text.
fn error_of(text: &str) -> String {
    match file::parse("bad.toml", text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

const BASE: &str = "name = \"x\"\ninherits = \"chess\"\n";

#[test]
fn errors_name_the_file_the_line_and_the_field() {
    // An unknown Betza atom.
    let e = error_of(&format!(
        "{BASE}\n[[pieces]]\nname = \"wizard\"\nletter = \"W\"\nbetza = \"FX\"\n"
    ));
    assert!(e.starts_with("bad.toml:7: pieces[0].betza:"), "{e}");
    assert!(e.contains("'X'") || e.contains("X"), "{e}");

    // A letter used twice.
    let e = error_of(&format!(
        "{BASE}[[pieces]]\nletter = \"N\"\nbetza = \"NW\"\n[[pieces]]\nletter = \"N\"\nbetza = \"NF\"\n"
    ));
    assert!(
        e.starts_with("bad.toml:7: pieces[1].letter: letter N used twice"),
        "{e}"
    );

    // A setup that does not fit the board.
    let e = error_of(&format!(
        "{BASE}setup = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1\"\n"
    ));
    assert!(
        e.starts_with("bad.toml:3: setup: 7 ranks in the setup, the board has 8"),
        "{e}"
    );
    let e = error_of(&format!(
        "{BASE}setup = \"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"\n"
    ));
    assert!(
        e.contains("setup: rank 6 covers 9 files, the board has 8"),
        "{e}"
    );
    // A run of empty cells too long for any integer: an error, not an overflow.
    let e = error_of(&format!(
        "{BASE}setup = \"rnbqkbnr/pppppppp/99999999999999999999/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"\n"
    ));
    assert!(
        e.contains("setup: rank 6 covers more than 8 files, the board has 8"),
        "{e}"
    );

    // No royal piece is allowed (issue 56, engine/tests/kingless.rs), but castling moves it.
    let e = error_of(&format!(
        "{BASE}[[pieces]]\nletter = \"K\"\nroyal = false\n"
    ));
    assert!(
        e.contains("rules.castling: castling moves the royal piece, and there is none"),
        "{e}"
    );

    // A board too large, naming the supported sizes.
    let e = error_of(
        "name = \"big\"\nsetup = \"k/K w\"\n[board]\nfiles = 12\nranks = 12\n[[pieces]]\nname = \"king\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n",
    );
    assert!(
        e.starts_with("bad.toml:4: board: a 12x12 board (144 cells) is not supported"),
        "{e}"
    );
    assert!(e.contains("at most 128 cells"), "{e}");

    // A typo in a field name, and a TOML syntax error.
    let e = error_of(&format!("{BASE}[rules]\nstalmate = \"draw\"\n"));
    assert!(
        e.starts_with("bad.toml:4:") && e.contains("stalmate"),
        "{e}"
    );
    let e = error_of("name = \"x\"\ninherits = \n");
    assert!(e.starts_with("bad.toml:2:"), "{e}");

    // A built-in name, a promotion to an unknown piece, a castling cell off the board.
    let e = error_of("name = \"chess\"\ninherits = \"chess\"\n");
    assert!(
        e.starts_with("bad.toml:1: name: \"chess\" is a built-in variant"),
        "{e}"
    );
    let e = error_of(&format!(
        "{BASE}[[pieces]]\nletter = \"P\"\npromotes_to = [\"Z\"]\n"
    ));
    assert!(e.contains("promotes to Z, which is no piece here"), "{e}");
    let e = error_of(&format!(
        "{BASE}[rules]\ncastling = [{{ king = [\"e1\", \"g1\"], rook = [\"k1\", \"f1\"] }}]\n"
    ));
    assert!(
        e.starts_with("bad.toml:4: rules.castling[0]: no cell \"k1\""),
        "{e}"
    );
}

/// Overriding only what differs: a Knight that also steps like a Wazir, the rest chess.
#[test]
fn inheriting_changes_only_what_is_written() {
    let parsed = file::parse(
        "n.toml",
        &format!("{BASE}[[pieces]]\nletter = \"N\"\nbetza = \"NW\"\nvalue = 400\n[rules]\nstalemate = \"loss\"\nmove_rule = 0\n"),
    )
    .unwrap();
    let s = &parsed.spec;
    let n = s.pieces.iter().find(|p| p.letter == 'N').unwrap();
    assert_eq!((n.name, n.betza, n.value), ("knight", "NW", 400));
    assert_eq!(s.pieces.len(), 6);
    assert_eq!(s.castling.len(), 4);
    assert!(s.double_step.is_some());
    assert_eq!(s.stalemate, variantlab_engine::ends::EndValue::Loss);
    assert_eq!(s.move_rule_plies, 0);
    assert_eq!(
        s.start,
        variantlab_engine::variants::Chess::rules().spec.start
    );
}

/// A castling list of other than two cells was read as its first two (a third King cell
/// was silently dropped); two pieces of one name gave duplicate CSV columns.
#[test]
fn castling_lists_and_piece_names_are_checked() {
    let e = error_of(&format!(
        "{BASE}[rules]\ncastling = [{{ king = [\"e1\", \"f1\", \"g1\"], rook = [\"h1\", \"f1\"] }}]\n"
    ));
    assert!(
        e.starts_with("bad.toml:4: rules.castling[0].king: 3 cells"),
        "{e}"
    );
    let e = error_of(&format!(
        "{BASE}[rules]\ncastling = [{{ king = [\"e1\", \"g1\"], rook = [\"h1\"] }}]\n"
    ));
    assert!(
        e.starts_with("bad.toml:4: rules.castling[0].rook: 1 cell"),
        "{e}"
    );
    let e = error_of(&format!(
        "{BASE}[[pieces]]\nname = \"knight\"\nletter = \"W\"\nbetza = \"W\"\n"
    ));
    assert!(
        e.starts_with("bad.toml:3: pieces: \"knight\" names two pieces (N and W)"),
        "{e}"
    );
}

/// `file::load` of `path` on another thread, so a read that never ends fails the test
/// instead of hanging it.
fn load_error_within_seconds(path: &Path) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    let p = path.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(file::load(&p).map(|l| l.name).map_err(|e| e.to_string()));
    });
    match rx.recv_timeout(std::time::Duration::from_secs(20)) {
        Ok(Err(e)) => e,
        Ok(Ok(name)) => panic!("{} loaded as {name}", path.display()),
        Err(_) => panic!("loading {} did not finish", path.display()),
    }
}

/// `--variant-file /dev/zero` read forever, and a FIFO waited for a writer: only regular
/// files up to a size limit are read.
#[test]
fn only_regular_files_of_bounded_size_are_read() {
    let e = load_error_within_seconds(Path::new("/dev/zero"));
    assert!(
        e.contains("/dev/zero") && e.contains("not a regular file"),
        "{e}"
    );
    let dir = std::env::temp_dir().join(format!("variantlab-vf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.toml");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let e = load_error_within_seconds(&fifo);
        assert!(e.contains("not a regular file"), "{e}");
    }
    let big = dir.join("big.toml");
    std::fs::write(&big, "# x\n".repeat(1 << 19)).unwrap();
    let e = load_error_within_seconds(&big);
    assert!(e.contains("big.toml") && e.contains("larger than"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
