//! Every test position of `shared/rules/extreme-2d-chess.md` (XT1–XT10), the start-position
//! perft figures, text round trips and refused position texts; then the simple-powers form
//! (`extreme-2d-simple`, \[X14\]): its start, its capped absorption and its refused stacks.

use std::collections::BTreeSet;
use variantlab_engine::game::outcome;
use variantlab_engine::perft::perft;
use variantlab_engine::variants::extreme2d::{Extreme2d, Extreme2dSimple};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{Color, Game, Outcome, PositionError, Termination};

fn pos(text: &str) -> Extreme2d {
    Extreme2d::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(p: &Extreme2d) -> BTreeSet<String> {
    let mut list = Default::default();
    p.legal_moves(&mut list);
    list.iter().map(|&m| p.move_text(m)).collect()
}

/// Destinations of the plain moves from `from` (move texts `from` + cell).
fn targets(p: &Extreme2d, from: &str) -> BTreeSet<String> {
    moves(p)
        .into_iter()
        .filter(|t| !t.contains(['<', '@']))
        .filter_map(|t| t.strip_prefix(from).map(str::to_string))
        .filter(|t| t.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .collect()
}

fn set(words: &str) -> BTreeSet<String> {
    words.split_whitespace().map(str::to_string).collect()
}

fn played(p: &Extreme2d, mv: &str) -> Extreme2d {
    let mut q = *p;
    q.play_text(mv).unwrap_or_else(|e| panic!("{e}"));
    q
}

fn perfts(p: &Extreme2d, expected: &[u64]) {
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(
            perft(p, d as u32 + 1),
            n,
            "perft {} of {}",
            d + 1,
            p.to_text()
        );
    }
}

#[test]
fn xt1_placement_and_first_moves() {
    let start = Extreme2d::start();
    assert!(!start.in_check());
    assert_eq!(moves(&start), set("K@c1,H@h1 K@h1,H@c1"));
    let after_white = played(&start, "K@c1,H@h1");
    assert_eq!(after_white.turn(), Color::Black);
    assert_eq!(moves(&after_white), set("K@c10,H@h10 K@h10,H@c10"));
    let p = played(&after_white, "K@h10,H@c10");
    assert_eq!(p.stack_at("c1"), Some((true, 'K', 0, 0, 0)));
    assert_eq!(p.stack_at("h10"), Some((false, 'K', 0, 0, 0)));
    assert_eq!(p.stack_at("c10"), Some((false, 'H', 0, 0, 0)));
    let all = moves(&p);
    assert_eq!(all.len(), 32);
    let expect = [
        ("a1", "a2"),
        ("e1", "e2"),
        ("f1", "f2"),
        ("j1", "j2"),
        ("b1", "a2 c2"),
        ("d1", "c2 e2"),
        ("g1", "f2 h2"),
        ("i1", "h2 j2"),
        ("b2", "a4 c4"),
        ("d2", "c4 e4"),
        ("g2", "f4 h4"),
        ("i2", "h4 j4"),
        ("c1", "c2"),
        ("h1", "h2"),
    ];
    for (from, to) in expect {
        assert_eq!(targets(&p, from), set(to), "from {from}");
    }
    for file in 'a'..='j' {
        assert_eq!(targets(&p, &format!("{file}3")), set(&format!("{file}4")));
    }
    // The mirrored placement and the i9 yellow [X1] make the position symmetric.
    let mirrored = played(&played(&start, "K@h1,H@c1"), "K@c10,H@h10");
    assert_eq!(moves(&mirrored).len(), 32);
    assert_eq!(start.stack_at("i9"), Some((false, 'P', 0, 0, 1)));
    assert_eq!(start.stack_at("j9"), None);
}

#[test]
fn xt1_start_perft() {
    perfts(&Extreme2d::start(), &[2, 4, 128, 4096, 137_200]);
}

#[test]
fn xt2_orthogonal_area_blocked_by_one_cell() {
    let p = pos("White: Kh10, (rr)a1. Black: Kh8, Pc3. White to move.");
    assert_eq!(moves(&p).len(), 38);
    assert_eq!(
        targets(&p, "a1"),
        set(
            "a2 a3 a4 a5 a6 a7 a8 a9 a10 b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 \
             c1 c2 d1 d2 e1 e2 f1 f2 g1 g2 h1 h2 i1 i2 j1 j2 c3"
        )
    );
    assert_eq!(targets(&p, "h10"), set("g10 i10"));
    perfts(&p, &[38, 62, 2196]);
    // With a White Pawn on c3 instead: minus a1xc3, plus c3c4.
    let q = pos("White: Kh10, (rr)a1, Pc3. Black: Kh8. White to move.");
    let mut expected = moves(&p);
    expected.remove("a1c3");
    expected.insert("c3c4".to_string());
    assert_eq!(moves(&q), expected);
}

#[test]
fn xt3_diagonal_area_at_the_edge() {
    let p = pos("White: Kj1, (bb)b1. Black: Kj10, Pb2, Pe4. White to move.");
    assert_eq!(moves(&p).len(), 9);
    assert_eq!(targets(&p, "b1"), set("a2 c2 d3 e4 b3 c4"));
    assert_eq!(targets(&p, "j1"), set("i1 i2 j2"));
    perfts(&p, &[9, 39, 784]);
    let single = pos("White: Kj1, (b)b1. Black: Kj10, Pb2, Pe4. White to move.");
    assert_eq!(moves(&single).len(), 7);
    assert_eq!(targets(&single, "b1"), set("a2 c2 d3 e4"));
}

#[test]
fn xt4_diagonal_area_in_the_open() {
    let p = pos("White: Ka1, (bb)e5, Pf4, Pf5. Black: Kj9, Pe7, Pg5. White to move.");
    assert_eq!(moves(&p).len(), 23);
    assert_eq!(
        targets(&p, "e5"),
        set("f6 g7 h8 i9 j10 d6 c7 b8 a9 d4 c3 b2 c5 b4 a3 b6 a5 a7 e7")
    );
    assert_eq!(targets(&p, "a1"), set("a2 b1 b2"));
    assert_eq!(targets(&p, "f5"), set("f6"));
    perfts(&p, &[23, 136, 2962]);
}

#[test]
fn xt5_nightrider_against_knight() {
    let p = pos("White: Ka10, (yy)b1, Pd5. Black: Kj10, Pf3. White to move.");
    assert_eq!(moves(&p).len(), 8);
    assert_eq!(targets(&p, "b1"), set("a3 c3 d2 f3"));
    assert_eq!(targets(&p, "a10"), set("a9 b9 b10"));
    assert_eq!(targets(&p, "d5"), set("d6"));
    perfts(&p, &[8, 30, 402]);
    let one = pos("White: Ka10, (y)b1, Pd5. Black: Kj10, Pf3. White to move.");
    assert_eq!(moves(&one).len(), 7);
    assert_eq!(targets(&one, "b1"), set("a3 c3 d2"));
}

#[test]
fn xt6_absorption() {
    let p = pos("White: Ka1, Pe5. Black: Kj10, (ry)e6. White to move.");
    assert_eq!(moves(&p), set("a1a2 a1b1 a1b2 e5e6"));
    let q = played(&p, "e5e6");
    assert_eq!(q.stack_at("e6"), Some((true, 'P', 1, 0, 1)));
    assert_eq!(q.stack_at("e5"), None);
    let r = pos("White: Ka1, (ry)e6. Black: Kj10. White to move.");
    assert_eq!(
        targets(&r, "e6"),
        set("a6 b6 c6 d6 f6 g6 h6 i6 j6 e1 e2 e3 e4 e5 e7 e8 e9 e10 \
             c5 c7 d4 d8 f4 f8 g5 g7")
    );
    // (b): (rry) takes (rby) -> (rrbyy), one red leaves play.
    let b = pos("White: Ka1, (rry)c3. Black: Kj10, (rby)c5. White to move.");
    let after = played(&b, "c3c5");
    assert_eq!(after.stack_at("c5"), Some((true, 'P', 2, 1, 2)));
    let m = after.material();
    assert_eq!((m[0][1], m[0][2], m[0][3]), (2, 1, 2));
    assert_eq!((m[1][1], m[1][2], m[1][3]), (0, 0, 0));
}

#[test]
fn xt7_promotion() {
    let a = pos("White: Ka1, Pc9, Pe9, Pg9. Black: Kj8, Hc10, (b)g10. White to move.");
    assert!(a.heir_reserved(Color::White));
    assert_eq!(moves(&a), set("a1a2 a1b1 a1b2 e9e10h c9c10 g9g10"));
    let promoted = played(&a, "e9e10h");
    assert_eq!(promoted.stack_at("e10"), Some((true, 'H', 0, 0, 0)));
    assert!(!promoted.heir_reserved(Color::White));
    assert_eq!(promoted.halfmove_clock(), 0);
    let took_heir = played(&a, "c9c10");
    assert_eq!(took_heir.stack_at("c10"), Some((true, 'P', 0, 0, 0)));
    assert!(took_heir.heir_reserved(Color::Black));
    let took_bishop = played(&a, "g9g10");
    assert_eq!(took_bishop.stack_at("g10"), Some((true, 'P', 0, 1, 0)));

    let b = pos("White: Ka1, Ha3, Pc9, Pe9, Pg9. Black: Kj8, Hc10, (b)g10. White to move.");
    assert_eq!(
        moves(&b),
        set("a1a2 a1b1 a1b2 a3a2 a3a4 a3b2 a3b3 a3b4 c9c10 g9g10")
    );
    // The stranded Pawn on c10 has no moves; a Black Pawn promotes on rank 1.
    let stranded = pos("White: Ka1, Pc10. Black: Kj8. White to move.");
    assert_eq!(targets(&stranded, "c10"), set(""));
    let black = pos("White: Ka10, Hj10. Black: Kj8, Pd2. Black to move.");
    assert!(moves(&black).contains("d2d1h"));
}

#[test]
fn xt8_king_heir_swap() {
    let a = pos("White: Ke1, H(rr)h5. Black: Ka10, (r)e8. White to move.");
    assert!(a.in_check());
    assert_eq!(
        moves(&a),
        set("e1d1 e1d2 e1f1 e1f2 h5e2 h5e3 h5e4 h5e5 h5e6 h5e7 h5e8 e1<>h5")
    );
    let swapped = played(&a, "e1<>h5");
    assert_eq!(swapped.stack_at("h5"), Some((true, 'K', 2, 0, 0)));
    assert_eq!(swapped.stack_at("e1"), Some((true, 'H', 0, 0, 0)));
    assert_eq!(Extreme2d::from_text(&swapped.to_text()), Ok(swapped));

    let b = pos("White: Ke1, H(rr)h5. Black: Ka10, (r)e8, (b)f7. White to move.");
    assert_eq!(
        moves(&b),
        set("e1d1 e1d2 e1f1 e1f2 h5e2 h5e3 h5e4 h5e5 h5e6")
    );

    let c = pos("White: Ke1, Hh5, Pe3. Black: Ka10, (r)e8. White to move.");
    assert!(!c.in_check());
    assert_eq!(
        moves(&c),
        set("e1d1 e1d2 e1e2 e1f1 e1f2 h5g4 h5g5 h5g6 h5h4 h5h6 h5i4 h5i5 h5i6 e3e4")
    );
}

#[test]
fn xt9_kings_origin_is_vacated() {
    let p = pos("White: Ka1, (rr)d4. Black: Kf6, Pg5. Black to move.");
    assert!(p.in_check());
    assert_eq!(moves(&p), set("f6g6 f6g7"));
    perfts(&p, &[2, 156, 566]);
}

#[test]
fn xt10_game_end() {
    let mate = pos("White: Ka1, (rr)h8. Black: Kj10. Black to move.");
    assert!(mate.in_check());
    assert!(moves(&mate).is_empty());
    assert_eq!(
        outcome(&mate, &[]),
        Some(Outcome::Decisive {
            winner: Color::White,
            reason: Termination::Checkmate
        })
    );
    let king_mate = pos("White: K(rr)h8. Black: Kj10. Black to move.");
    assert!(moves(&king_mate).is_empty() && king_mate.in_check());
    assert!(!king_mate.insufficient_material());

    let stale = pos("White: Ka8, (y)c8. Black: Ka10. Black to move.");
    assert!(!stale.in_check());
    assert!(moves(&stale).is_empty());
    assert_eq!(
        outcome(&stale, &[]),
        Some(Outcome::Draw {
            reason: Termination::Stalemate
        })
    );

    let dead = pos("White: Ka1. Black: Kj10. White to move.");
    assert!(dead.insufficient_material());
    assert_eq!(
        outcome(&dead, &[]),
        Some(Outcome::Draw {
            reason: Termination::InsufficientMaterial
        })
    );
    let clock = pos("K9/10/10/10/10/10/10/10/P9/9k w 100 80");
    assert_eq!(
        outcome(&clock, &[]),
        Some(Outcome::Draw {
            reason: Termination::MoveRule
        })
    );
}

#[test]
fn repetition_and_clock() {
    let mut p = pos("White: Ka1, (r)e4. Black: Kj10, (b)c8. White to move.");
    let mut history = Vec::new();
    for mv in [
        "e4e5", "c8d7", "e5e4", "d7c8", "e4e5", "c8d7", "e5e4", "d7c8",
    ] {
        assert_eq!(outcome(&p, &history), None);
        history.push(p.hash());
        p.play_text(mv).unwrap();
    }
    assert_eq!(p.halfmove_clock(), 8);
    assert_eq!(
        outcome(&p, &history),
        Some(Outcome::Draw {
            reason: Termination::Repetition
        })
    );
    // A former Pawn's move does not reset the clock; a Pawn step and a capture do.
    let q = pos("K9/10/10/10/10/10/1p8/10/[Pr]P8/1[Pb]6k1 w 7 3");
    assert_eq!(played(&q, "a2a3").halfmove_clock(), 8);
    assert_eq!(played(&q, "b2b3").halfmove_clock(), 0);
    assert_eq!(played(&q, "b1c2").halfmove_clock(), 8);
    let after = played(&played(&q, "a2a3"), "i1h1");
    assert_eq!(
        (after.halfmove_clock(), after.to_text().ends_with(" 9 4")),
        (9, true)
    );
}

#[test]
fn text_round_trips() {
    let start = Extreme2d::start();
    let text = start.to_text();
    assert_eq!(
        text,
        "[pr][pb]1[pb][pr][pr][pb]1[pb][pr]/1[py]1[py]2[py]1[py]1/pppppppppp/10/10/10/10/\
         PPPPPPPPPP/1[Py]1[Py]2[Py]1[Py]1/[Pr][Pb]1[Pb][Pr][Pr][Pb]1[Pb][Pr] w 0 1"
    );
    assert_eq!(Extreme2d::from_text(&text), Ok(start));
    // Clocks are optional; disc order inside brackets is free on input.
    let short = pos("[Kyrb]9/10/10/10/10/10/10/10/10/9k b");
    assert_eq!(short.to_text(), "[Krby]9/10/10/10/10/10/10/10/10/9k b 0 1");
    // Random games: every position round-trips exactly and keeps its hash.
    let mut rng = SplitMix64(7);
    for _ in 0..40 {
        let mut p = Extreme2d::start();
        for _ in 0..120 {
            let text = p.to_text();
            let back = Extreme2d::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back, p, "{text}");
            assert_eq!(back.to_text(), text);
            let mut list = Default::default();
            p.legal_moves(&mut list);
            let list: &[_] = list.as_ref();
            if list.is_empty() {
                break;
            }
            let m = list[(rng.next() % list.len() as u64) as usize];
            p.play_unchecked(m);
        }
    }
    let listed = pos("White: Ke1, H(rr)h5. Black: Ka10, (r)e8. White to move.");
    assert_eq!(
        listed.to_text(),
        "k9/10/4[pr]5/10/10/7[Hrr]2/10/10/10/4K5 w 0 1"
    );
}

fn setup_error(text: &str, needle: &str) {
    match Extreme2d::from_text(text) {
        Err(PositionError::Setup(m)) => assert!(m.contains(needle), "{text}: {m}"),
        other => panic!("{text}: expected a setup error about {needle:?}, got {other:?}"),
    }
}

fn syntax_error(text: &str, want_field: &str, want_column: usize, needle: &str) {
    match Extreme2d::from_text(text) {
        Err(PositionError::Syntax {
            field,
            column,
            message,
        }) => {
            assert_eq!(
                (field, column),
                (want_field, want_column),
                "{text}: {message}"
            );
            assert!(message.contains(needle), "{text}: {message}");
        }
        other => panic!("{text}: expected a syntax error, got {other:?}"),
    }
}

#[test]
fn impossible_stacks_are_refused() {
    let board = |first: &str| format!("{first}/10/10/10/10/10/10/10/10/9k w");
    setup_error(&board("[Krrr]9"), "three red");
    setup_error(&board("[Kbbb]9"), "three blue");
    setup_error(&board("K[Pyyy]8"), "three yellow");
    setup_error(&board("K[Pp]8"), "one ownership disc");
    setup_error(&board("[Kp]9"), "found K and p");
    setup_error(&board("K[rr]8"), "without an ownership disc");
    setup_error(&board("K[]8"), "without an ownership disc");
    setup_error(&board("KK8"), "2 Kings");
    setup_error(&board("KHH7"), "2 Heirs");
    setup_error("H9/10/10/10/10/10/10/10/10/9k w", "no King");
    setup_error("[Krr]9/10/10/10/10/10/10/10/10/9k w", "in check");
    setup_error("10/10/10/10/10/10/10/10/10/2P7 w", "placement cell c1");
    setup_error("10/10/10/10/10/10/10/10/10/10 b", "White is to move");
    setup_error("10/10/10/10/10/10/10/10/10/K9 w", "Black is to move");
    setup_error(
        "[prr][prr][prr][prr][prr]5/10/10/10/10/10/10/10/10/K8k w",
        "red discs on the board",
    );
    setup_error(
        "White: Ka1, K(rrr)b1. Black: Kj10. White to move.",
        "three red",
    );
}

#[test]
fn malformed_texts_are_located() {
    let ok_rest = "/10/10/10/10/10/10/10/10/9k w";
    syntax_error(&format!("K8{ok_rest}"), "board", 3, "rank 10 has 9 cells");
    syntax_error(&format!("K10{ok_rest}"), "board", 2, "more than 10 cells");
    syntax_error(&format!("K9k{ok_rest}"), "board", 3, "more than 10 cells");
    syntax_error(&format!("Kx8{ok_rest}"), "board", 2, "unexpected character");
    syntax_error(&format!("K[Pr8{ok_rest}"), "board", 2, "unclosed [");
    syntax_error(&format!("K[Pq]8{ok_rest}"), "board", 2, "unknown disc");
    syntax_error(&format!("Kr8{ok_rest}"), "board", 2, "outside a stack");
    syntax_error(&format!("K09{ok_rest}"), "board", 2, "empty run");
    syntax_error("K9/10/10/10/10/10/10/10/9k w", "board", 27, "only 9 ranks");
    syntax_error("K9/10/10/10/10/10/10/10/10/9k x", "side", 31, "w or b");
    syntax_error("K9/10/10/10/10/10/10/10/10/9k", "side", 30, "missing side");
    syntax_error(
        "K9/10/10/10/10/10/10/10/10/9k w 5",
        "fullmove",
        34,
        "missing fullmove",
    );
    syntax_error(
        "K9/10/10/10/10/10/10/10/10/9k w x 1",
        "halfmove",
        33,
        "not a number",
    );
    syntax_error(
        "K9/10/10/10/10/10/10/10/10/9k w 0 1 z",
        "end",
        37,
        "unexpected",
    );
    syntax_error("", "board", 1, "missing board");
    syntax_error(
        "White: Ka1, Zb2. Black: Kj10. White to move.",
        "pieces",
        13,
        "cell",
    );
    syntax_error("White: Ka1. Black: Kj10.", "side", 25, "to move");
}

#[test]
fn arbitrary_text_never_panics() {
    let mut rng = SplitMix64(99);
    let alphabet: Vec<char> = "PHKphkrby[]()/0123456789 wb.,:@WhiteBlack toemv\u{e9}-"
        .chars()
        .collect();
    let base = Extreme2d::start().to_text();
    for i in 0..20_000 {
        let text: String = if i % 2 == 0 {
            let n = (rng.next() % 60) as usize;
            (0..n)
                .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
                .collect()
        } else {
            let mut chars: Vec<char> = base.chars().collect();
            for _ in 0..1 + rng.next() % 3 {
                let at = (rng.next() % chars.len() as u64) as usize;
                match rng.next() % 3 {
                    0 => {
                        chars.remove(at);
                    }
                    1 => chars.insert(at, alphabet[(rng.next() % alphabet.len() as u64) as usize]),
                    _ => chars[at] = alphabet[(rng.next() % alphabet.len() as u64) as usize],
                }
            }
            chars.into_iter().collect()
        };
        if let Ok(p) = Extreme2d::from_text(&text) {
            let again = Extreme2d::from_text(&p.to_text());
            assert_eq!(again, Ok(p), "{text}");
            let mut list = Default::default();
            p.legal_moves(&mut list);
        }
    }
}

fn simple(text: &str) -> Extreme2dSimple {
    Extreme2dSimple::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// \[X14\] The simple form starts from the same array, written and read back the same way.
#[test]
fn simple_start_is_the_full_start() {
    let start = Extreme2dSimple::start();
    let text = start.to_text();
    assert_eq!(text, Extreme2d::start().to_text());
    assert_eq!(Extreme2dSimple::from_text(&text), Ok(start));
    assert_eq!(start.variant_name(), "extreme-2d-simple");
}

/// \[X14\] A capture keeps at most one disc of a colour: the Rook that takes a Rook stays a
/// Rook, so d4xd8 (mate in the full form, where (rr) sweeps the rectangle d8-j10) leaves the
/// Black King i9, i10 and j9; other colours are still absorbed.
#[test]
fn simple_absorption_keeps_one_disc_of_a_colour() {
    let text = "White: Ka1, (r)d4. Black: Kj10, (r)d8. White to move.";
    let full = played(&pos(text), "d4d8");
    assert_eq!(full.stack_at("d8"), Some((true, 'P', 2, 0, 0)));
    assert!(full.in_check() && moves(&full).is_empty(), "full: mate");
    let mut q = simple(text);
    q.play_text("d4d8").unwrap();
    assert_eq!(q.stack_at("d8"), Some((true, 'P', 1, 0, 0)));
    assert_eq!(q.to_text(), "9k/10/3[Pr]6/10/10/10/10/10/10/K9 b 0 1");
    assert!(!q.in_check());
    let mut list = Default::default();
    q.legal_moves(&mut list);
    let replies: BTreeSet<String> = list.iter().map(|&m| q.move_text(m)).collect();
    assert_eq!(replies, set("j10i9 j10i10 j10j9"));
    // The discs beyond the cap leave the game: White keeps one red, Black has none.
    let m = q.material();
    assert_eq!((m[0][1], m[1][1]), (1, 0));
    // (ry) takes (rby): one red, one blue, one yellow.
    let mut b = simple("White: Ka1, (ry)c3. Black: Kj10, (rby)c5. White to move.");
    b.play_text("c3c5").unwrap();
    assert_eq!(b.stack_at("c5"), Some((true, 'P', 1, 1, 1)));
    // A Knight that takes a Knight does not become a Nightrider: c3xd5, then d5 leaps once.
    let mut n = simple("White: Ka1, (y)c3. Black: Kj10, (y)d5. White to move.");
    n.play_text("c3d5").unwrap();
    n.play_text("j10j9").unwrap();
    let mut list = Default::default();
    n.legal_moves(&mut list);
    let from_d5: BTreeSet<String> = list
        .iter()
        .map(|&m| n.move_text(m))
        .filter_map(|t| t.strip_prefix("d5").map(str::to_string))
        .collect();
    assert_eq!(from_d5, set("b4 b6 c3 c7 e3 e7 f4 f6"));
}

/// \[X14\] A text with two discs of a colour in a stack cannot arise in the simple form: refused
/// with the cell named, in both text forms; the full form reads it.
#[test]
fn simple_refuses_two_discs_of_a_colour() {
    for (text, needle) in [
        ("K9/10/10/10/10/10/10/10/4[prr]5/9k w", "e2: two red discs"),
        (
            "K[Pbb]8/10/10/10/10/10/10/10/10/9k w",
            "b10: two blue discs",
        ),
        (
            "White: Ka1, H(yy)c3. Black: Kj10. White to move.",
            "c3: two yellow discs",
        ),
    ] {
        assert!(Extreme2d::from_text(text).is_ok(), "{text}");
        match Extreme2dSimple::from_text(text) {
            Err(PositionError::Setup(m)) => assert!(m.contains(needle), "{text}: {m}"),
            other => panic!("{text}: expected a setup error about {needle:?}, got {other:?}"),
        }
    }
}
