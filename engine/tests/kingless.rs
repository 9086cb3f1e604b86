//! Sides without a royal piece (issue #56) on hand-made positions: Horde's White, which has
//! no King, loses when its last piece goes, may leave its pieces attacked, double-steps from
//! its first rank without giving an en passant right, and is stalemated rather than mated,
//! while Black's King still may not step into a Pawn's attack; in a variant without any royal
//! piece (Kings that are ordinary pieces which must not die out) a King may step into attack
//! and its capture ends the game; in antichess captures are compulsory and a side wins by
//! losing all its pieces. Fairy-Stockfish's own counts are compared in
//! `selfplay/tests/fsf_ends.rs` and `fsf_format.rs`.
//!
//! One variant file per process (the compiled rules live in a static), so each variant's
//! case runs this binary again, selecting [`one_kingless_case`] with `VARIANTLAB_KINGLESS`.

use std::process::Command;
use variantlab_engine::game::outcome;
use variantlab_engine::perft::{divide, perft};
use variantlab_engine::position::Position;
use variantlab_engine::search::{Limits, SearchConfig, Searcher};
use variantlab_engine::variants::file::{self, FileVariant64};
use variantlab_engine::{Color, Game, Outcome, PositionError, Termination};

type P = Position<FileVariant64<0>>;

/// Horde as a TOML file: chess's pieces and castling, White's 36 Pawns without a King.
const HORDE: &str = "name = \"horde-test\"\ninherits = \"chess\"\nsetup = \"rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1\"\n[rules]\ndouble_step_first_rank = [\"white\"]\nextinction = [\"*\"]\nextinction_value = \"loss\"\n";

/// No royal piece at all: chess whose King is an ordinary piece that must not die out.
const NO_ROYAL: &str = "name = \"no-royal\"\ninherits = \"chess\"\nsetup = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"\n[[pieces]]\nletter = \"K\"\nroyal = false\n[rules]\ncastling = []\nextinction = [\"K\"]\nextinction_value = \"loss\"\n";

/// Antichess (Fairy-Stockfish's and lichess's): compulsory captures, a King that is an
/// ordinary piece and a Pawn may promote to, and a side that loses all its pieces, or is
/// stalemated, has won.
const ANTICHESS: &str = "name = \"antichess-test\"\ninherits = \"chess\"\nsetup = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"\n[[pieces]]\nletter = \"K\"\nroyal = false\n[[pieces]]\nletter = \"P\"\npromotes_to = [\"N\", \"B\", \"R\", \"Q\", \"K\"]\n[rules]\ncastling = []\nstalemate = \"win\"\nextinction = [\"*\"]\nextinction_value = \"win\"\nmust_capture = true\n";

fn won_by(c: Color) -> Option<Outcome> {
    Some(Outcome::Decisive {
        winner: c,
        reason: Termination::VariantEnd,
    })
}

fn pos(text: &str) -> P {
    P::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn played(text: &str, moves: &[&str]) -> P {
    let mut p = pos(text);
    for m in moves {
        p.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    p
}

/// The legal moves of `p` as text, sorted.
fn moves(p: &P) -> Vec<String> {
    let mut v: Vec<String> = divide(p, 1)
        .into_iter()
        .map(|(m, _)| p.move_text(m))
        .collect();
    v.sort();
    v
}

fn horde() {
    // Fairy-Stockfish's perft of its built-in horde from the start.
    let start = P::start();
    assert_eq!(
        [1, 2, 3, 4].map(|d| perft(&start, d)),
        [8, 128, 1274, 23310]
    );
    assert!(!start.in_check());
    // Black takes White's last piece: White has lost, and has no moves.
    let before = "4k3/8/8/8/8/3q4/4P3/8 b - - 0 1";
    assert_eq!(pos(before).variant_outcome(), None);
    let p = played(before, &["d3e2"]);
    assert_eq!(p.variant_outcome(), won_by(Color::Black));
    assert_eq!(outcome(&p, &[]), won_by(Color::Black));
    assert_eq!(perft(&p, 2), 0);
    // The search finds the capture as a win in one.
    let mut s = Searcher::new(SearchConfig::default());
    let r = s.search(&pos(before), &[], Limits::depth(3));
    assert_eq!(
        r.best.map(|m| pos(before).move_text(m)).as_deref(),
        Some("d3e2")
    );
    assert_eq!(r.mate_in(), Some(1));
    // White may leave its Pawns attacked: nothing is check, every pseudo-legal move is
    // legal (e2e3 leaves the Pawn on d4 to the Queen).
    let p = pos("4k3/8/8/4q3/3P4/8/4P3/8 w - - 0 1");
    assert!(!p.in_check());
    assert_eq!(moves(&p), ["d4d5", "d4e5", "e2e3", "e2e4"]);
    // A first-rank double step passes rank 2 and gives no en passant right; one from rank 2
    // does.
    let p = played("4k3/8/8/8/8/3p4/8/4P3 w - - 0 1", &["e1e3"]);
    assert_eq!(p.ep_square(), None);
    assert_eq!(moves(&p), ["d3d2", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]);
    let p = played("4k3/8/8/8/3p4/8/4P3/8 w - - 0 1", &["e2e4"]);
    assert!(p.ep_square().is_some());
    assert!(moves(&p).contains(&"d4e3".to_string()));
    // Black's King may not step into a Pawn's attack, and a Pawn checks it.
    assert_eq!(
        moves(&pos("4k3/8/3P4/8/8/8/8/8 b - - 0 1")),
        ["e8d7", "e8d8", "e8f7", "e8f8"]
    );
    let p = pos("4k3/3P4/8/8/8/8/8/8 b - - 0 1");
    assert!(p.in_check());
    assert_eq!(moves(&p), ["e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]);
    // White with no move and no King is stalemated: a draw, as Fairy-Stockfish's
    // stalemateValue.
    let p = pos("4k3/8/8/8/8/8/p7/P7 w - - 0 1");
    assert_eq!(perft(&p, 1), 0);
    assert_eq!(p.variant_outcome(), None);
    assert!(matches!(
        outcome(&p, &[]),
        Some(Outcome::Draw {
            reason: Termination::Stalemate
        })
    ));
    // White's start position has no King, so a White King is refused; Black's has one.
    for (text, want) in [
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "white has 1 kings, needs none",
        ),
        (
            "8/8/8/8/8/8/8/4P3 w - - 0 1",
            "black has 0 kings, needs exactly one",
        ),
    ] {
        match P::from_text(text) {
            Err(e @ PositionError::Setup(_)) => {
                assert!(e.to_string().contains(want), "{text}: {e}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

fn no_royal() {
    let start = P::start();
    // Chess's first two plies: no castling, no check.
    assert_eq!(perft(&start, 2), 400);
    // A King may step into attack and capture a defended piece.
    let p = pos("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
    assert!(!p.in_check());
    assert_eq!(moves(&p), ["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
    // Its capture ends the game: the side without Kings has lost.
    let p = played("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", &["a1e1"]);
    assert_eq!(p.variant_outcome(), won_by(Color::Black));
    assert_eq!(perft(&p, 1), 0);
}

fn antichess() {
    // Fairy-Stockfish's perft of its built-in antichess from the start.
    let start = P::start();
    assert_eq!(
        [1, 2, 3, 4].map(|d| perft(&start, d)),
        [20, 400, 8067, 153299]
    );
    // 1. e3 b5: White must take, with the Bishop (the only capture).
    let p = played(start.to_text().as_str(), &["e2e3", "b7b5"]);
    assert_eq!(moves(&p), ["f1b5"]);
    // En passant, when it is the only capture, is the only move.
    let p = played("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", &["d7d5"]);
    assert_eq!(p.to_text(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    assert_eq!(moves(&p), ["e5d6"]);
    // No capture: every move, promotions to a King among them.
    let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert!(moves(&p).contains(&"a7a8k".to_string()));
    assert_eq!(perft(&p, 1), 5 + 5);
    // A capture that promotes is compulsory; the quiet promotions are not legal then.
    let p = pos("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(moves(&p).len(), 5);
    assert!(moves(&p).iter().all(|m| m.starts_with("a7b8")));
    // A side that still has a piece plays on; one whose last piece is taken has won, and so
    // has one with no move.
    let p = played("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", &["e1d2"]);
    assert_eq!(moves(&p), ["e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]);
    let p = played("8/8/8/8/8/8/3q4/4K3 w - - 0 1", &["e1d2"]);
    assert_eq!(p.variant_outcome(), won_by(Color::Black));
    let p = pos("8/8/8/8/8/p7/P7/8 w - - 0 1");
    assert_eq!(perft(&p, 1), 0);
    assert_eq!(
        outcome(&p, &[]),
        Some(Outcome::Decisive {
            winner: Color::White,
            reason: Termination::Stalemate
        })
    );
}

/// Runs the case named by `VARIANTLAB_KINGLESS` (see [`every_kingless_case`]); does nothing
/// without it.
#[test]
fn one_kingless_case() {
    let Ok(case) = std::env::var("VARIANTLAB_KINGLESS") else {
        return;
    };
    let (text, run): (&str, fn()) = match case.as_str() {
        "horde" => (HORDE, horde),
        "no-royal" => (NO_ROYAL, no_royal),
        "antichess" => (ANTICHESS, antichess),
        other => panic!("no case {other}"),
    };
    let loaded = file::load_text("case.toml", text).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        loaded.kind,
        variantlab_engine::VariantKind::File64(_)
    ));
    run();
    println!("kingless case {case} passed");
}

/// Each variant's case in its own process.
#[test]
fn every_kingless_case() {
    if std::env::var("VARIANTLAB_KINGLESS").is_ok() {
        return;
    }
    for case in ["horde", "no-royal", "antichess"] {
        let out = Command::new(std::env::current_exe().expect("test binary"))
            .args([
                "--exact",
                "one_kingless_case",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env("VARIANTLAB_KINGLESS", case)
            .output()
            .expect("test binary runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "case {case}:\n{text}");
        assert!(
            text.contains(&format!("kingless case {case} passed")),
            "{text}"
        );
    }
}

fn error_of(text: &str) -> String {
    match file::parse("bad.toml", text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// Bad rules of a variant without a royal piece are refused with the file, line and field.
#[test]
fn bad_kingless_rules_name_the_line_and_field() {
    let no_king = "name = \"x\"\ninherits = \"chess\"\nsetup = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\"\n[[pieces]]\nletter = \"K\"\nroyal = false\n";
    let cases = [
        (
            format!("{no_king}[rules]\nextinction = [\"K\"]\n"),
            "bad.toml: rules.castling: castling moves the royal piece, and there is none",
        ),
        (
            "name = \"x\"\ninherits = \"chess\"\n[rules]\ndouble_step_first_rank = [\"red\"]\n"
                .to_string(),
            "bad.toml:4: rules.double_step_first_rank: \"red\": expected \"white\" or \"black\"",
        ),
        (
            "name = \"x\"\ninherits = \"chess\"\n[rules]\ndouble_step = \"\"\ndouble_step_first_rank = [\"white\"]\n"
                .to_string(),
            "bad.toml:5: rules.double_step_first_rank: there is no double step",
        ),
        (
            "name = \"x\"\ninherits = \"chess\"\nsetup = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w - - 0 1\"\n[rules]\ncastling = []\n"
                .to_string(),
            "bad.toml:3: setup: White has 2 royal pieces (K) in the setup; at most one",
        ),
        // Compulsory captures keep a lone piece alive: no dead-position draw with them.
        (
            "name = \"x\"\ninherits = \"chess\"\n[rules]\nmust_capture = true\ninsufficient_material = true\n"
                .to_string(),
            "rules.insufficient_material: the dead-position draw cannot go with a flag, check-count or extinction rule, or compulsory captures",
        ),
    ];
    for (text, want) in cases {
        let e = error_of(&text);
        assert!(e.contains(want), "{text}: expected {want:?} in {e}");
    }
}
