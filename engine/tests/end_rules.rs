//! The variant's own ends (issue #56, `engine/src/ends.rs`) on hand-made positions: a King
//! entering the centre wins King of the Hill, any piece reaching a flag corner wins where
//! every piece is a flag, the third check wins three-check, the last Knight taken loses when
//! Knights must not die out, two Rooks (or one in a full region) where two must stand in it,
//! a repeated position losing for the side to move where repetition loses, a seventh
//! occurrence playing on where none ends the game; the check counters are part of the
//! position's text and hash; bad rules and bad counters are refused, naming what is wrong.
//!
//! One variant file per process (the compiled rules live in a static), so each variant's
//! case runs this binary again, selecting [`one_end_case`] with `VARIANTLAB_END_CASE`.

use std::process::Command;
use variantlab_engine::game::outcome;
use variantlab_engine::perft::{divide, perft};
use variantlab_engine::position::Position;
use variantlab_engine::search::{Limits, SearchConfig, Searcher};
use variantlab_engine::variants::file::{self, FileVariant64};
use variantlab_engine::{Color, Game, Outcome, PositionError, Termination};

type P = Position<FileVariant64<0>>;

const KOTH: &str = "name = \"koth\"\ninherits = \"chess\"\n[rules]\nflag_piece = \"K\"\nflag_region = [\"d4\", \"e4\", \"d5\", \"e5\"]\n";
const THREE: &str = "name = \"three\"\ninherits = \"chess\"\n[rules]\ncheck_count = 3\n";
const CORNERS: &str = "name = \"corners\"\ninherits = \"chess\"\n[rules]\nflag_piece = \"*\"\nflag_region = [\"a8\", \"h8\"]\n";
const KNIGHTS: &str = "name = \"knights\"\ninherits = \"chess\"\n[rules]\nextinction = [\"N\"]\nextinction_value = \"loss\"\n";
const TWO_ROOKS: &str = "name = \"two-rooks\"\ninherits = \"chess\"\n[rules]\nflag_piece = \"R\"\nflag_region = [\"a8\", \"b8\", \"h8\"]\nflag_count = 2\nflag_blocked_win = true\n";
const REPEAT_LOSES: &str = "name = \"repeat-loses\"\ninherits = \"chess\"\n[rules]\nrepetition = 2\nrepetition_value = \"loss\"\n";
const NO_REPETITION: &str =
    "name = \"no-repetition\"\ninherits = \"chess\"\n[rules]\nrepetition = false\n";

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

fn koth() {
    let start = P::start();
    assert_eq!(start.variant_outcome(), None);
    assert!(!P::from_text(&start.to_text())
        .unwrap()
        .insufficient_material());
    // The King stepping into the centre wins at once; a step beside it does not.
    let before = "8/8/8/8/8/4K3/8/k7 w - - 0 1";
    assert_eq!(
        played(before, &["e3e4"]).variant_outcome(),
        won_by(Color::White)
    );
    assert_eq!(
        played(before, &["e3d4"]).variant_outcome(),
        won_by(Color::White)
    );
    assert_eq!(played(before, &["e3f4"]).variant_outcome(), None);
    // A lone King against a lone King is no draw here: it can still reach the hill.
    assert_eq!(outcome(&played(before, &["e3f4"]), &[]), None);
    // The game record's end and perft agree: the winning moves have no replies.
    let end = played(before, &["e3e4"]);
    assert_eq!(outcome(&end, &[]), won_by(Color::White));
    assert_eq!(perft(&end, 3), 0);
    for (m, n) in divide(&pos(before), 2) {
        let to = pos(before).move_text(m);
        assert_eq!(
            n == 0,
            to.ends_with("e4") || to.ends_with("d4"),
            "{to}: {n}"
        );
    }
    assert_eq!(perft(&pos(before), 1), 8);
    // The search learns the end through the Game hooks: the one step onto the hill the Queen
    // does not cover is a win in one; at the end itself there is no move, and a lost score.
    let mut s = Searcher::new(SearchConfig::default());
    let p = pos("k7/8/8/8/8/4K3/8/7q w - - 0 1");
    let r = s.search(&p, &[], Limits::depth(3));
    assert_eq!(r.best.map(|m| p.move_text(m)).as_deref(), Some("e3d4"));
    assert_eq!(r.mate_in(), Some(1));
    let r = s.search(&end, &[], Limits::depth(3));
    assert_eq!(r.best, None);
    assert!(r.score < -29_000, "{}", r.score);
    // Black's King on the hill with White to move: Black has won (the side that just moved).
    assert_eq!(
        pos("8/8/8/3k4/8/8/8/4K3 w - - 0 1").variant_outcome(),
        won_by(Color::Black)
    );
    // The hill is the side's own region: White's King on d5 is on it too (d4 e4 d5 e5).
    assert_eq!(
        pos("8/8/8/3K4/8/8/8/4k3 b - - 0 1").variant_outcome(),
        won_by(Color::White)
    );
}

fn three() {
    let start = P::start();
    assert_eq!(start.checks_remaining(), [3, 3]);
    assert_eq!(
        start.to_text(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"
    );
    // A text without the counters starts from the variant's count.
    assert_eq!(
        pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").checks_remaining(),
        [3, 3]
    );
    // A check is counted, and the count is part of the text and the hash.
    let p = played(&start.to_text(), &["e2e4", "f7f6", "d1h5"]);
    assert_eq!(p.checks_remaining(), [2, 3]);
    assert_eq!(
        p.to_text(),
        "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+3 1 2"
    );
    assert_eq!(pos(&p.to_text()), p);
    assert_eq!(p.hash(), p.compute_hash());
    let same_board = pos("rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 3+3 1 2");
    assert_ne!(same_board.hash(), p.hash());
    assert_eq!(p.variant_outcome(), None);
    // The third check wins though the King can escape it (not a mate).
    let last = "rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 2";
    let p = played(last, &["d1h5"]);
    assert!(p.in_check());
    assert_eq!(p.checks_remaining(), [0, 3]);
    assert_eq!(p.variant_outcome(), won_by(Color::White));
    assert_eq!(outcome(&p, &[]), won_by(Color::White));
    assert_eq!(perft(&p, 2), 0);
    // A move that gives no check counts nothing.
    assert_eq!(played(last, &["d1e2"]).checks_remaining(), [1, 3]);
    // Bad counters are refused, naming the field.
    for bad in ["x+3", "3+", "3+10", "+3", "3+3+3", "-1+3"] {
        let text = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {bad} 0 1");
        match P::from_text(&text) {
            Err(PositionError::Syntax { field, .. }) => assert_eq!(field, "checks", "{bad}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
}

fn corners() {
    // Any piece is a flag: a Rook reaching a far corner wins, wherever the Kings stand.
    let before = "4k3/8/8/8/8/8/6r1/R3K3 w - - 0 1";
    assert_eq!(
        played(before, &["a1a8"]).variant_outcome(),
        won_by(Color::White)
    );
    assert_eq!(played(before, &["a1a7"]).variant_outcome(), None);
    // Black's region is the mirror, a1 and h1; White's pieces there do not count for Black.
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/R3K2R b - - 0 1").variant_outcome(),
        None
    );
    assert_eq!(
        played(before, &["a1b1", "g2g1"]).variant_outcome(),
        None,
        "g1 is no corner"
    );
    assert_eq!(
        played(before, &["a1b1", "g2h2", "b1b2", "h2h1"]).variant_outcome(),
        won_by(Color::Black)
    );
}

fn knights() {
    assert_eq!(P::start().variant_outcome(), None);
    // Black takes White's last Knight: White loses.
    let before = "4k3/8/8/8/8/8/3n4/1N2K3 b - - 0 1";
    assert_eq!(pos(before).variant_outcome(), None);
    let p = played(before, &["d2b1"]);
    assert_eq!(p.variant_outcome(), won_by(Color::Black));
    assert_eq!(perft(&p, 1), 0);
    // White takes Black's last Knight with its own: Black loses.
    let p = played("4k3/8/8/8/8/2n5/8/1N2K3 w - - 0 1", &["b1c3"]);
    assert_eq!(p.variant_outcome(), won_by(Color::White));
}

fn two_rooks() {
    // Two Rooks must stand in the region; one is not enough while a cell of it is empty.
    let before = "4k3/8/8/8/8/8/8/R3K2R w - - 0 1";
    assert_eq!(played(before, &["a1a8"]).variant_outcome(), None);
    assert_eq!(
        played(before, &["a1a8", "e8e7", "h1h8"]).variant_outcome(),
        won_by(Color::White)
    );
    // One Rook wins once the region is full, whoever fills it (flagPieceBlockedWin).
    let blocked = "1n2k2b/8/8/8/8/8/8/R3K3 w - - 0 1";
    assert_eq!(
        played(blocked, &["a1a8"]).variant_outcome(),
        won_by(Color::White)
    );
    assert_eq!(
        played("1n2k3/8/8/8/8/8/8/R3K3 w - - 0 1", &["a1a8"]).variant_outcome(),
        None,
        "h8 is empty"
    );
}

/// The hashes of the positions before each of `moves`, played from the start, and the last.
fn game(moves: &[&str]) -> (Vec<u64>, P) {
    let mut p = P::start();
    let mut history = Vec::new();
    for m in moves {
        history.push(p.hash());
        p.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    (history, p)
}

fn repeat_loses() {
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    // The start position's second occurrence ends the game: White, to move, loses.
    let (history, p) = game(&shuffle[..3]);
    assert_eq!(outcome(&p, &history), None);
    let (history, p) = game(&shuffle);
    assert_eq!(
        outcome(&p, &history),
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: Termination::Repetition
        })
    );
    // The search sees it: Black, to move before the repetition, takes the win.
    let (history, p) = game(&shuffle[..3]);
    let r = Searcher::new(SearchConfig::default()).search(&p, &history, Limits::depth(3));
    assert_eq!(r.best.map(|m| p.move_text(m)).as_deref(), Some("f6g8"));
    assert_eq!(r.mate_in(), Some(1));
}

fn no_repetition() {
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = shuffle.iter().cycle().take(24).copied().collect();
    let (history, p) = game(&moves);
    assert_eq!(
        outcome(&p, &history),
        None,
        "the seventh occurrence plays on"
    );
}

/// Runs the case named by `VARIANTLAB_END_CASE` (see [`every_end_rule_case`]); does nothing
/// without it.
#[test]
fn one_end_case() {
    let Ok(case) = std::env::var("VARIANTLAB_END_CASE") else {
        return;
    };
    let (text, run): (&str, fn()) = match case.as_str() {
        "koth" => (KOTH, koth),
        "three" => (THREE, three),
        "knights" => (KNIGHTS, knights),
        "corners" => (CORNERS, corners),
        "two-rooks" => (TWO_ROOKS, two_rooks),
        "repeat-loses" => (REPEAT_LOSES, repeat_loses),
        "no-repetition" => (NO_REPETITION, no_repetition),
        other => panic!("no case {other}"),
    };
    let loaded = file::load_text("case.toml", text).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(
        loaded.kind,
        variantlab_engine::VariantKind::File64(_)
    ));
    run();
    println!("end case {case} passed");
}

/// Each variant's case in its own process.
#[test]
fn every_end_rule_case() {
    if std::env::var("VARIANTLAB_END_CASE").is_ok() {
        return;
    }
    for case in [
        "koth",
        "three",
        "knights",
        "corners",
        "two-rooks",
        "repeat-loses",
        "no-repetition",
    ] {
        let out = Command::new(std::env::current_exe().expect("test binary"))
            .args([
                "--exact",
                "one_end_case",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env("VARIANTLAB_END_CASE", case)
            .output()
            .expect("test binary runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "case {case}:\n{text}");
        assert!(text.contains(&format!("end case {case} passed")), "{text}");
    }
}

fn error_of(text: &str) -> String {
    match file::parse("bad.toml", text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// Bad end rules are refused with the file, the line and the field.
#[test]
fn bad_end_rules_name_the_line_and_field() {
    let base = "name = \"x\"\ninherits = \"chess\"\n[rules]\n";
    let cases = [
        (
            "flag_piece = \"K\"\nflag_region = [\"d4\", \"i9\"]\n",
            "bad.toml:5: rules.flag_region:",
        ),
        (
            "flag_piece = \"K\"\n",
            "bad.toml:4: rules.flag_region: missing",
        ),
        (
            "flag_piece = \"Z\"\nflag_region = [\"d4\"]\n",
            "bad.toml:4: rules.flag_piece: no piece with letter Z",
        ),
        (
            "flag_region = [\"d4\"]\n",
            "bad.toml:4: rules.flag_piece: missing",
        ),
        (
            "check_count = 10\n",
            "bad.toml:4: rules.check_count: 10: at most 9",
        ),
        (
            "extinction = [\"Z\"]\n",
            "bad.toml:4: rules.extinction: no piece with letter Z",
        ),
        (
            "extinction = [\"N\"]\nextinction_value = \"lost\"\n",
            "bad.toml:5: rules.extinction_value: \"lost\"",
        ),
        (
            "extinction_value = \"win\"\n",
            "bad.toml:4: rules.extinction: missing",
        ),
        (
            "flag_count = 2\n",
            "bad.toml:4: rules.flag_count: needs a flag",
        ),
        (
            "flag_piece = \"K\"\nflag_region = [\"d4\"]\nflag_count = 0\n",
            "bad.toml:6: rules.flag_count: 0: expected 1 to 255",
        ),
        (
            "flag_blocked_win = true\n",
            "bad.toml:4: rules.flag_blocked_win: needs a flag",
        ),
        (
            "repetition = 1\n",
            "bad.toml:4: rules.repetition: 1: expected true, false or the occurrence",
        ),
        (
            "repetition_value = \"lost\"\n",
            "bad.toml:4: rules.repetition_value: \"lost\": expected \"loss\", \"win\" or \"draw\" (for the side to move)",
        ),
        (
            "check_count = 3\ninsufficient_material = true\n",
            "rules.insufficient_material: the dead-position draw cannot go with",
        ),
    ];
    for (rules, want) in cases {
        let e = error_of(&format!("{base}{rules}"));
        assert!(e.contains(want), "{rules}: expected {want:?} in {e}");
    }
}
