//! The variant's own ends (issue #56: King of the Hill's flag, three- and five-check,
//! extinction) against Fairy-Stockfish (Debian's `/usr/games/fairy-stockfish`, or
//! `FAIRY_STOCKFISH`; skipped and listed without it): seeded random games are played with
//! Fairy-Stockfish's moves, and at every position variantlab must list the same legal moves
//! (none where the game has ended) and, at the end, give the same result.
//!
//! The variants are the catalogue's (`data/variants/fairy-stockfish.ini`: among them Horde
//! and Three Kings, whose sides play without a royal King, and antichess, whose captures are
//! compulsory) and sections written here whose parents both programs know: extinction of
//! Knights, and compulsory captures with a royal King (`capture`, `coffeehouse`).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Games per variant, and the most plies of each (a game still going then stops).
const GAMES: u64 = 4;
const MAX_PLIES: usize = 300;
/// Plies between the positions of a game whose perft 3 is compared.
const PERFT_EVERY: usize = 60;

/// The sections written for these tests, beside the catalogue's.
const WRITTEN: &str = "[knightless:chess]\nextinctionValue = loss\nextinctionPieceTypes = n\n\n\
                       [capture:chess]\nmustCapture = true\n\n\
                       [coffeehouse:crazyhouse]\nmustCapture = true\n";

/// The file variantlab reads `variant` from: `written` (holding [`WRITTEN`]) for the
/// sections written here, else the catalogue.
fn variant_file<'a>(variant: &str, written: &'a Path, catalogue: &'a Path) -> &'a Path {
    if WRITTEN.contains(&format!("[{variant}:")) {
        written
    } else {
        catalogue
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fairy_stockfish() -> Option<PathBuf> {
    let p = std::env::var_os("FAIRY_STOCKFISH").map_or_else(
        || PathBuf::from("/usr/games/fairy-stockfish"),
        PathBuf::from,
    );
    p.exists().then_some(p)
}

/// A Fairy-Stockfish process playing one variant, read line by line.
struct Fsf {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Fsf {
    fn start(program: &Path, ini: &Path, variant: &str) -> Fsf {
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("fairy-stockfish starts");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut f = Fsf {
            child,
            input,
            output,
        };
        f.send(&format!(
            "uci\nsetoption name VariantPath value {}\nsetoption name UCI_Variant value {variant}\nisready",
            ini.display()
        ));
        f.until(|l| l == "readyok");
        f
    }

    fn send(&mut self, s: &str) {
        writeln!(self.input, "{s}").expect("write to fairy-stockfish");
        self.input.flush().expect("flush");
    }

    /// Lines up to and including the first that `end` accepts.
    fn until(&mut self, end: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            let n = self.output.read_line(&mut l).expect("read fairy-stockfish");
            assert!(n > 0, "fairy-stockfish ended early after {lines:?}");
            let l = l.trim().to_string();
            let done = end(&l);
            lines.push(l);
            if done {
                return lines;
            }
        }
    }

    /// The legal moves and the FEN after `moves` from the start.
    fn position(&mut self, moves: &[String]) -> (Vec<String>, String) {
        self.send(&format!("position startpos moves {}", moves.join(" ")));
        self.send("go perft 1");
        let lines = self.until(|l| l.starts_with("Nodes searched"));
        let mut legal: Vec<String> = lines
            .iter()
            .filter(|l| !l.starts_with("Nodes searched"))
            .filter_map(|l| l.strip_suffix(": 1").map(str::to_string))
            .collect();
        legal.sort();
        self.send("d");
        let lines = self.until(|l| l.starts_with("Checkers:"));
        let fen = lines
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .expect("d prints the FEN")
            .to_string();
        (legal, fen)
    }

    /// Fairy-Stockfish's score of a finished game for the side to move: `mate 0` (it has
    /// lost) or `cp 0` (a draw).
    fn end_score(&mut self) -> String {
        self.send("go depth 1");
        let lines = self.until(|l| l.starts_with("bestmove"));
        assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
        let info = lines
            .iter()
            .rev()
            .find(|l| l.contains(" score "))
            .expect("a score");
        info.split(" score ").nth(1).unwrap_or("").to_string()
    }
}

impl Drop for Fsf {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

/// variantlab's legal moves at `fen` (its perft divide at depth 1: none where the game ended).
fn our_moves(ini: &Path, variant: &str, fen: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["--variant-file"])
        .arg(ini)
        .args([
            "perft",
            "--variant",
            variant,
            "--depth",
            "1",
            "--divide",
            "--position",
            fen,
        ])
        .output()
        .expect("variantlab runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{variant} {fen}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut moves: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_suffix(" 1").map(str::to_string))
        .collect();
    moves.sort();
    moves
}

/// variantlab's score of `fen` for the side to move, from its search's JSON.
fn our_score(ini: &Path, variant: &str, fen: &str) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["--variant-file"])
        .arg(ini)
        .args([
            "search",
            "--variant",
            variant,
            "--depth",
            "1",
            "--json",
            "--position",
            fen,
        ])
        .output()
        .expect("variantlab runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("search --json")
}

/// SplitMix64, for the seeded choice of moves.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Plays `GAMES` seeded random games of `variant` (variantlab reading it from `ini`,
/// Fairy-Stockfish with `fsf_ini` loaded), comparing perft 3 every `PERFT_EVERY` plies too;
/// returns Fairy-Stockfish's score of each game that
/// ended by the rules before the ply cap ("mate 0" or "cp 0"). Fairy-Stockfish says
/// "mate 0" for a game the side to move has lost and for one it has won: `mover_wins` says
/// which (antichess: a side with no piece, or no move, has won).
fn play(
    program: &Path,
    fsf_ini: &Path,
    ini: &Path,
    variant: &str,
    mover_wins: bool,
) -> Vec<String> {
    let mut ends = Vec::new();
    for game in 0..GAMES {
        let mut fsf = Fsf::start(program, fsf_ini, variant);
        let mut rng = 0x5eed_0000 + game;
        let mut moves: Vec<String> = Vec::new();
        loop {
            let (legal, fen) = fsf.position(&moves);
            let ours = our_moves(ini, variant, &fen);
            assert_eq!(ours, legal, "{variant} game {game}: legal moves at {fen}");
            if legal.is_empty() {
                let theirs = fsf.end_score();
                let score = our_score(ini, variant, &fen);
                let text = score.to_string();
                assert!(score["best"].is_null(), "{variant} {fen}: {text}");
                // A decided game is scored as a mate now, for the side to move or against it;
                // a draw as 0.
                let ours = score["score"].as_i64().expect("a score").signum();
                let decided = if mover_wins { 1 } else { -1 };
                match theirs.as_str() {
                    "mate 0" => assert_eq!(
                        ours, decided,
                        "{variant} {fen}: ours {text}, theirs {theirs}"
                    ),
                    "cp 0" => assert_eq!(ours, 0, "{variant} {fen}: ours {text}, theirs {theirs}"),
                    other => panic!("{variant} {fen}: Fairy-Stockfish's score {other}"),
                }
                ends.push(theirs);
                break;
            }
            // Deeper now and then: perft from a position of the game.
            if moves.len() % PERFT_EVERY == PERFT_EVERY / 2 {
                assert_eq!(
                    our_perft(ini, variant, &fen, 3),
                    fsf_perft(program, fsf_ini, variant, &fen, 3),
                    "{variant} game {game}: perft 3 at {fen}"
                );
            }
            if moves.len() >= MAX_PLIES {
                break;
            }
            let pick = (next(&mut rng) % legal.len() as u64) as usize;
            moves.push(legal[pick].clone());
        }
    }
    ends
}

#[test]
fn random_games_end_as_fairy_stockfish_ends_them() {
    let Some(program) = fairy_stockfish() else {
        common::skipped(
            "fsf_ends::random_games_end_as_fairy_stockfish_ends_them",
            "no /usr/games/fairy-stockfish (set FAIRY_STOCKFISH)",
        );
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("variantlab-fsf-ends");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    // Sections whose parents both programs know (chess and crazyhouse: Fairy-Stockfish's
    // built-ins, variantlab's catalogue): Knights that must not die out, and compulsory
    // captures with a royal King (`variants.ini`'s `capture` and `coffeehouse`). The other
    // variants are Fairy-Stockfish's built-ins and the catalogue's sections.
    let written = dir.join("written.ini");
    std::fs::write(&written, WRITTEN).expect("write");
    let catalogue = root().join("data/variants/fairy-stockfish.ini");
    let mut decided = 0;
    for variant in [
        "kingofthehill",
        "3check",
        "5check",
        "knightless",
        "horde",
        "threekings",
        "antichess",
        "capture",
        "coffeehouse",
    ] {
        let ours = variant_file(variant, &written, &catalogue);
        let ends = play(&program, &written, ours, variant, variant == "antichess");
        println!("{variant}: {} games, ended by the rules: {ends:?}", GAMES);
        decided += ends.iter().filter(|e| *e == "mate 0").count();
    }
    // Random play ends most of these games by the rules within the cap.
    assert!(decided >= 4, "{decided} games decided");
}

/// Fairy-Stockfish's perft of `fen` (`fsf_ini` loaded).
fn fsf_perft(program: &Path, fsf_ini: &Path, variant: &str, fen: &str, depth: u32) -> u64 {
    let mut fsf = Fsf::start(program, fsf_ini, variant);
    fsf.send(&format!("position fen {fen}"));
    fsf.send(&format!("go perft {depth}"));
    let lines = fsf.until(|l| l.starts_with("Nodes searched"));
    lines
        .last()
        .and_then(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.trim().parse().ok())
        .expect("a node count")
}

/// variantlab's perft of `fen`.
fn our_perft(ini: &Path, variant: &str, fen: &str, depth: u32) -> u64 {
    let d = depth.to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
        .args(["--variant-file"])
        .arg(ini)
        .args([
            "perft",
            "--variant",
            variant,
            "--depth",
            &d,
            "--json",
            "--position",
            fen,
        ])
        .output()
        .expect("variantlab runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("perft --json");
    v["nodes"].as_u64().expect("nodes")
}

/// Perft a few plies deep from positions where the ends come within reach: a King two steps
/// from the hill, the last check to give, the last Knights. (A flag region without
/// `flagPiece`, any piece a flag, is not compared: Debian's 11.1 reads it as no flag, the
/// current source as any piece, which the engine follows; `engine/tests/end_rules.rs`.)
#[test]
fn perft_near_the_end_agrees_with_fairy_stockfish() {
    let Some(program) = fairy_stockfish() else {
        common::skipped(
            "fsf_ends::perft_near_the_end_agrees_with_fairy_stockfish",
            "no /usr/games/fairy-stockfish (set FAIRY_STOCKFISH)",
        );
        return;
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("variantlab-fsf-ends-perft");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let written = dir.join("written.ini");
    std::fs::write(&written, WRITTEN).expect("write");
    let catalogue = root().join("data/variants/fairy-stockfish.ini");
    let cases: &[(&str, &str, u32)] = &[
        ("kingofthehill", "4k3/8/8/8/8/8/4K3/8 w - - 0 1", 4),
        (
            "kingofthehill",
            "r1bq1bnr/ppppkppp/2n5/4p3/4P3/5N2/PPPPKPPP/RNBQ1B1R w - - 4 4",
            3,
        ),
        (
            "3check",
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 1+2 4 4",
            3,
        ),
        (
            "5check",
            "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5Q2/PPPP1PPP/RNB1KBNR b KQkq - 1+1 1 3",
            3,
        ),
        ("knightless", "4k3/8/8/3n4/8/2N5/8/4K3 w - - 0 1", 4),
        // Horde: White's last Pawns, one on its first rank (a double step past no en passant
        // right), one en prise; Black's King among White's Pawns.
        ("horde", "4k3/8/8/8/8/3p4/1q6/P3P3 w - - 0 1", 4),
        ("horde", "4k3/8/8/4q3/3P4/8/4P3/8 b - - 0 1", 4),
        ("horde", "8/8/2PPP3/3k4/8/8/8/8 b - - 0 1", 4),
        (
            "horde",
            "rnbqkbnr/pp1ppppp/8/2p5/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq c6 0 3",
            3,
        ),
        // Crazyhouse (no end of its own, compared here with the same harness): full hands,
        // promoted pieces that go back to hand as Pawns, a check blocked by drops.
        ("crazyhouse", "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1", 2),
        ("crazyhouse", "4k3/8/8/3q~4/8/2Q~5/8/4K3[Pp] w - - 0 1", 3),
        ("crazyhouse", "4k3/8/8/8/8/8/8/r3K3[Nn] w - - 0 1", 3),
        // Three Kings: the first King lost loses; a King may step into attack.
        ("threekings", "k6k/8/8/8/8/8/3r4/K3K2K w - - 0 1", 4),
        (
            "threekings",
            "knbqkbnk/pppp1ppp/8/4p3/4P3/5Q2/PPPP1PPP/KNB1KBNK w - - 0 3",
            3,
        ),
        // Compulsory captures: en passant the only capture; a promotion that takes, beside
        // quiet ones and a King to promote to; a side down to its last pieces, which wins by
        // losing them.
        ("antichess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", 4),
        ("antichess", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", 4),
        ("antichess", "8/8/8/8/3q4/8/2P5/8 w - - 0 1", 5),
        // With a royal King: a capture by a pinned Pawn is illegal and forces nothing; in
        // check, a capture among the evasions is compulsory; drops are never captures.
        ("capture", "4k3/8/8/8/1b6/4n3/3P4/4K3 w - - 0 1", 4),
        ("capture", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", 4),
        ("coffeehouse", "4k3/8/8/3p4/4P3/8/8/4K3[Nn] w - - 0 1", 3),
    ];
    for &(variant, fen, depth) in cases {
        let ini = variant_file(variant, &written, &catalogue);
        let theirs = fsf_perft(&program, &written, variant, fen, depth);
        assert_eq!(
            our_perft(ini, variant, fen, depth),
            theirs,
            "{variant} {fen} depth {depth}"
        );
    }
}

/// Bad end keys in an `.ini` section are refused with the file, line, section and key.
#[test]
fn bad_end_keys_are_refused_naming_the_key() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("variantlab-fsf-ends-bad");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases: &[(&str, &str)] = &[
        (
            "[mine:chess]\nflagPiece = k\nflagRegion = d4 e9\n",
            ":3: [mine] flagRegion: \"e9\" is not a cell",
        ),
        (
            "[mine:chess]\nflagPiece = nb\nflagRegion = d4\n",
            ":2: [mine] flagPiece: \"nb\": expected one piece letter",
        ),
        (
            "[mine:chess]\nflagPiece = k\nflagRegion = d4\nflagMove = true\n",
            ":4: [mine] flagMove: \"true\": not supported",
        ),
        (
            "[mine:chess]\ncheckCounting = true\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x+3 0 1\n",
            ":3: [mine] startFen: the start position's check count \"x+3\"",
        ),
        (
            "[mine:chess]\ncheckCounting = yes\n",
            ":2: [mine] checkCounting: \"yes\": expected true or false",
        ),
        (
            "[mine:chess]\ndoubleStepRegionWhite = *1 *2\n",
            ":2: [mine] enPassantRegionBlack: missing: a double step from the first rank is supported without en passant past it; set enPassantRegionBlack = *3",
        ),
        (
            "[mine:chess]\ndoubleStepRegionWhite = *2\nenPassantRegionBlack = *4\n",
            ":3: [mine] enPassantRegionBlack: only the whole rank the opponent's double step passes (*3) is supported",
        ),
        (
            "[mine:chess]\ndoubleStepRegionWhite = *1 *3\n",
            ":2: [mine] doubleStepRegion: double steps from one whole rank (and, for a side, its first rank too), Black's the mirror",
        ),
        (
            "[mine:chess]\nextinctionValue = lose\nextinctionPieceTypes = n\n",
            ":2: [mine] extinctionValue: \"lose\"",
        ),
        (
            "[mine:chess]\nextinctionValue = loss\nextinctionPieceTypes = z\n",
            ":3: [mine] extinctionPieceTypes: 'z' is no piece",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{i}.ini"));
        std::fs::write(&path, text).expect("write");
        let p = path.display().to_string();
        let out = Command::new(env!("CARGO_BIN_EXE_variantlab"))
            .args([
                "--variant-file",
                &p,
                "perft",
                "--variant",
                "mine",
                "--depth",
                "1",
            ])
            .output()
            .expect("variantlab runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "case {i} accepted");
        assert!(!err.contains("panicked"), "case {i} panicked: {err}");
        assert!(
            err.contains(&format!("{p}{expected}")),
            "case {i}: expected {p}{expected} in:\n{err}"
        );
    }
}
