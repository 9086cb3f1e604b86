//! Dai Mitregi: every test position of `shared/rules/dai-mitregi.md` in both forms, the start
//! position's move lists, position-text round trips and errors.

mod common;

use variantlab_engine::perft::perft;
use variantlab_engine::variants::dai_mitregi::{
    DaiMitregi, DaiMitregiMoves, DaiMitregiStepping, START,
};
use variantlab_engine::{Color, Game, PositionError};

use common::sorted_move_texts as moves;

#[path = "common/feature_calls.rs"]
mod feature_calls;
use feature_calls::FeatureCalls;

#[path = "common/random_games.rs"]
mod random_games;

/// Destinations of the piece on `from` (board moves only, promotion suffix dropped, sorted,
/// deduplicated).
fn dests<G: Game<Moves = DaiMitregiMoves>>(p: &G, from: &str) -> Vec<String> {
    let mut v: Vec<String> = moves(p)
        .into_iter()
        .filter(|m| !m.contains('*'))
        .filter_map(|m| {
            let m = m.trim_end_matches('+').to_string();
            // Split "h8h10" into from and to at the second letter.
            let i = m[1..].find(|c: char| c.is_ascii_lowercase())? + 1;
            (m[..i] == *from).then(|| m[i..].to_string())
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

fn sorted(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(|x| x.to_string()).collect();
    v.sort();
    v
}

fn both(text: &str) -> (DaiMitregi, DaiMitregiStepping) {
    (
        DaiMitregi::from_text(text).expect("leaping parses"),
        DaiMitregiStepping::from_text(text).expect("stepping parses"),
    )
}

/// A position text from a list of (cell, piece text) with White to move or Black.
fn setup(pieces: &[(&str, &str)], side: char, hands: &str) -> String {
    let mut cells = vec![String::new(); 256];
    for (sq, p) in pieces {
        let b = sq.as_bytes();
        let f = (b[0] - b'a') as usize;
        let r: usize = sq[1..].parse().unwrap();
        cells[(r - 1) * 16 + f] = p.to_string();
    }
    let mut s = String::new();
    for r in (0..16).rev() {
        let mut e = 0;
        for f in 0..16 {
            let c = &cells[r * 16 + f];
            if c.is_empty() {
                e += 1;
            } else {
                if e > 0 {
                    s += &e.to_string();
                    e = 0;
                }
                s += c;
            }
        }
        if e > 0 {
            s += &e.to_string();
        }
        if r > 0 {
            s.push('/');
        }
    }
    format!("{s} {side} {hands}")
}

#[test]
fn t1_goldsow() {
    let (l, s) = both("15k/16/16/16/16/16/16/6nZ8/7G8/16/16/16/16/16/16/K15 w -");
    assert_eq!(dests(&l, "h8"), sorted("g8 g9 h7 h10 i8 i9"));
    assert_eq!(dests(&s, "h8"), sorted("g8 g9 h7 i8 i9"));
}

#[test]
fn t2_silversahib() {
    let (l, s) = both("15k/16/16/16/16/16/16/16/7f8/6n9/5I10/4Z11/16/16/16/K15 w -");
    assert_eq!(dests(&l, "f6"), sorted("d4 d8 e7 f8 g7 h4 h8"));
    assert_eq!(dests(&s, "f6"), sorted("d8 e7 f8 g7 h4"));
}

#[test]
fn t3_black_goldmemsahib() {
    let (l, s) = both("15k/16/16/16/10e5/10NR4/10z1F3/16/16/16/16/16/16/16/16/K15 b -");
    assert_eq!(dests(&l, "k12"), sorted("i10 i12 k11 k14 m10 m12"));
    assert_eq!(dests(&s, "k12"), sorted("i10 i12 k11 k14 m12"));
    let empty = setup(&[("k12", "e"), ("p16", "k"), ("a1", "K")], 'b', "-");
    let (l, s) = both(&empty);
    let seven = sorted("i10 i12 k10 k11 k14 m10 m12");
    assert_eq!(dests(&l, "k12"), seven);
    assert_eq!(dests(&s, "k12"), seven);
}

#[test]
fn t4_pawn_rank_pieces() {
    let (l, s) = both("15k/16/16/16/16/16/16/16/16/16/16/5n10/3FF11/3Z12/16/K15 w -");
    assert_eq!(dests(&l, "d3"), sorted("d5"));
    assert!(dests(&s, "d3").is_empty());
    assert_eq!(dests(&l, "d4"), sorted("b6 c5 e5 f6"));
    assert_eq!(dests(&s, "d4"), sorted("b6 c5 e5 f6"));
    assert_eq!(dests(&l, "e4"), sorted("c6 d5 f5 g6"));
    assert_eq!(dests(&s, "e4"), sorted("c6 d5 f5"));
}

#[test]
fn t5_grandpasha() {
    let (l, s) = both("15k/16/16/16/16/16/16/7Zn7/6f+K8/16/16/16/16/16/16/16 w -");
    // Pseudo-legal lists less the two cells the rules file names as attacked.
    let pl = sorted("f6 f8 f10 g7 g8 g9 h6 h7 h10 i7 i8 i9 j6 j8 j10");
    let ps = sorted("f6 f10 g7 g8 g9 h6 h7 i7 i8 i9 j6 j8");
    let legal = |v: Vec<String>| -> Vec<String> {
        v.into_iter().filter(|x| x != "g8" && x != "h7").collect()
    };
    assert_eq!(dests(&l, "h8"), legal(pl));
    assert_eq!(dests(&s, "h8"), legal(ps));
    assert_eq!(dests(&l, "h8").len(), 13);
    assert_eq!(dests(&s, "h8").len(), 10);
}

#[test]
fn t6_forward_only_leapers() {
    let (l, s) = both("15k/16/16/16/16/16/16/16/16/16/16/1n14/16/Z15/2U13/KH14 w -");
    for_both(&l, &s, |d| {
        assert_eq!(d("b1"), sorted("c3"));
        assert_eq!(d("c2"), sorted("b5 d5"));
    });
}

fn for_both(l: &DaiMitregi, s: &DaiMitregiStepping, f: impl Fn(&dyn Fn(&str) -> Vec<String>)) {
    f(&|c| dests(l, c));
    f(&|c| dests(s, c));
}

#[test]
fn t7_empty_board_counts() {
    let cases = [
        ('G', 7, ""),
        ('S', 9, "f6 f10 g8 h7 h9 h10 i8 j6 j10"),
        ('O', 10, "f8 f10 g7 g9 h6 h10 i7 i9 j8 j10"),
        ('V', 7, "f10 g7 g9 h9 i7 i9 j10"),
        ('E', 7, "f8 f10 h6 h9 h10 j8 j10"),
        ('Y', 9, "f8 g7 g9 h6 h9 h10 i7 i9 j8"),
        ('A', 10, "f6 f10 g8 g9 h7 h9 i8 i9 j6 j10"),
        ('I', 7, ""),
    ];
    for (letter, n, list) in cases {
        let text = setup(
            &[("h8", &letter.to_string()), ("a1", "K"), ("p16", "k")],
            'w',
            "-",
        );
        let (l, s) = both(&text);
        assert_eq!(dests(&l, "h8").len(), n, "{letter} leaping");
        assert_eq!(dests(&s, "h8").len(), n, "{letter} stepping");
        if !list.is_empty() {
            assert_eq!(dests(&l, "h8"), sorted(list), "{letter}");
            assert_eq!(dests(&s, "h8"), sorted(list), "{letter}");
        }
    }
}

/// (may play unpromoted, may promote) for a move of the piece `p` from `from` to `to`.
fn promotion_options(p: &str, from: &str, to: &str, side: char) -> (bool, bool) {
    let (wk, bk) = ("a1", "p16");
    let text = setup(&[(from, p), (wk, "K"), (bk, "k")], side, "-");
    let text = if p == "K" {
        setup(&[(from, p), (bk, "k")], side, "-")
    } else {
        text
    };
    let (l, s) = both(&text);
    let ml = moves(&l);
    assert_eq!(ml, moves(&s));
    let plain = format!("{from}{to}");
    let promo = format!("{plain}+");
    (ml.contains(&plain), ml.contains(&promo))
}

#[test]
fn t8_promotion_decisions() {
    let must = (false, true);
    let may = (true, true);
    let none = (true, false);
    assert_eq!(promotion_options("H", "d13", "c15", 'w'), must);
    assert_eq!(promotion_options("W", "a12", "a13", 'w'), may);
    assert_eq!(promotion_options("F", "e15", "f16", 'w'), must);
    assert_eq!(promotion_options("Z", "g15", "g16", 'w'), must);
    assert_eq!(promotion_options("Z", "g14", "g15", 'w'), may);
    assert_eq!(promotion_options("B", "c11", "f14", 'w'), may);
    assert_eq!(promotion_options("R", "m14", "m10", 'w'), may);
    assert_eq!(promotion_options("U", "c10", "d13", 'w'), may);
    assert_eq!(promotion_options("u", "c7", "d4", 'b'), may);
    assert_eq!(promotion_options("u", "c6", "b3", 'b'), must);
    assert_eq!(promotion_options("K", "h12", "h13", 'w'), may);
    assert_eq!(promotion_options("G", "h11", "h12", 'w'), none);
    // The promotee is fixed by group; a promoted King stays royal.
    let text = setup(&[("d13", "H"), ("a1", "K"), ("p16", "k")], 'w', "-");
    let mut l = DaiMitregi::from_text(&text).unwrap();
    l.play_text("d13c15+").unwrap();
    assert_eq!(l.piece_at("c15"), Some((Color::White, "Helm", true)));
    assert!(l.to_text().contains("+H"));
}

#[test]
fn t9_drops_and_limits() {
    let text = "8k7/16/16/16/4+Z11/16/16/4Z11/6B9/10E5/16/2E13/16/4Z11/4B11/7K8 w [ZHBE]";
    let (l, s) = both(text);
    for m in [moves(&l), moves(&s)] {
        let has = |x: &str| m.iter().any(|y| y == x);
        for r in 1..=16 {
            assert!(!has(&format!("Z*e{r}")), "Wazchick on e{r}");
        }
        for f in 'a'..='p' {
            assert!(!has(&format!("Z*{f}16")));
            assert!(!has(&format!("H*{f}15")) && !has(&format!("H*{f}16")));
        }
        assert!(has("Z*d15"));
        assert!(!has("H*c15"));
        assert!(has("H*c14"));
        assert!(!has("B*c4"));
        assert!(has("B*d4"));
        assert!(has("E*d1"));
        assert!(!has("E*e1"));
    }
}

#[test]
fn t9_promoting_frees_a_deployment_slot() {
    let text = setup(
        &[("a1", "K"), ("p16", "k"), ("c3", "Z"), ("c14", "Z")],
        'w',
        "[Z]",
    );
    let mut p = DaiMitregi::from_text(&text).unwrap();
    assert!(!moves(&p).iter().any(|m| m.starts_with("Z*c")));
    p.play_text("c14c15+").unwrap();
    p.play_text("p16o16").unwrap();
    assert!(moves(&p).iter().any(|m| m == "Z*c5"));
}

#[test]
fn t10_check_depends_on_form() {
    let (l, s) = both("16/16/16/16/16/16/7k8/6f9/5I10/16/16/16/16/16/16/K15 b -");
    assert!(l.in_check());
    assert!(!s.in_check());
}

const T11: &str =
    "a1-a2 a3-a5 a4-b5 a4-c6 b3-b5 b4-a5 b4-c5 b4-d6 c2-b5 c2-d5 c3-c5 c4-a6 c4-b5 c4-d5
c4-e6 d2-c5 d2-e5 d3-d5 d4-b6 d4-c5 d4-e5 d4-f6 e3-e5 e4-c6 e4-d5 e4-f5 e4-g6 f1-g2
f3-f5 f4-d6 f4-e5 f4-g5 f4-h6 g1-g2 g1-h2 g3-g5 g4-e6 g4-f5 g4-h5 g4-i6 h1-g2 h1-h2
h1-i2 h3-h5 h4-f6 h4-g5 h4-i5 h4-j6 i1-h2 i1-i2 i3-i5 i4-g6 i4-h5 i4-j5 i4-k6 j1-i2
j2-g2 j2-h2 j2-i2 j3-j5 j4-h6 j4-i5 j4-k5 j4-l6 k2-j5 k2-l5 k3-k5 k4-i6 k4-j5 k4-l5
k4-m6 l2-k5 l2-m5 l3-l5 l4-j6 l4-k5 l4-m5 l4-n6 m3-m5 m4-k6 m4-l5 m4-n5 m4-o6 n3-n5
n4-l6 n4-m5 n4-o5 n4-p6 o3-o5 o4-m6 o4-n5 o4-p5 p1-p2 p3-p5 p4-n6 p4-o5";

#[test]
fn t11_start_position() {
    let l = DaiMitregi::start();
    let s = DaiMitregiStepping::start();
    assert_eq!(l.to_text(), START);
    let leaping = sorted(&T11.replace('-', ""));
    assert_eq!(leaping.len(), 96);
    assert_eq!(moves(&l), leaping);
    let stepping: Vec<String> = leaping
        .iter()
        .filter(|m| !(m.ends_with('5') && m.as_bytes()[1] == b'3' && m.len() == 4))
        .cloned()
        .collect();
    assert_eq!(stepping.len(), 80);
    assert_eq!(moves(&s), stepping);
    assert_eq!(perft(&l, 1), 96);
    assert_eq!(perft(&s, 1), 80);
    // Black's reply count mirrors White's (the array is rotationally symmetric).
    assert_eq!(perft(&l, 2), 96 * 96);
    assert_eq!(perft(&s, 2), 80 * 80);
    // Engine figures, depth 3 recomputed by the reference generator (differential test).
    assert_eq!(perft(&l, 3), 883_872);
    assert_eq!(perft(&s, 3), 512_640);
}

#[test]
fn round_trips() {
    let texts = [
        START.to_string(),
        "15k/16/16/16/16/16/16/7Zn7/6f+K8/16/16/16/16/16/16/16 w -".to_string(),
        "8k7/16/16/16/4+Z11/16/16/4Z11/6B9/10E5/16/2E13/16/4Z11/4B11/7K8 w [BHZE]".to_string(),
        "8k7/16/16/16/4+Z11/16/16/4Z11/6B9/10E5/16/2E13/16/4Z11/4B11/7K8 b [RRFnn]".to_string(),
    ];
    for t in texts {
        let (l, s) = both(&t);
        assert_eq!(l.to_text(), t);
        assert_eq!(s.to_text(), t);
    }
    // Hands are written in the canonical order.
    let p = DaiMitregi::from_text(
        "8k7/16/16/16/4+Z11/16/16/4Z11/6B9/10E5/16/2E13/16/4Z11/4B11/7K8 w [ZHBE]",
    )
    .unwrap();
    assert!(p.to_text().ends_with("w [BHZE]"));
    assert_eq!(p.in_hand(Color::White, 'Z'), 1);
}

#[test]
fn hashes_follow_the_position() {
    let mut a = DaiMitregi::start();
    let b = DaiMitregi::start();
    assert_eq!(a.hash(), b.hash());
    for m in ["h1h2", "i16i15", "h2h1", "i15i16"] {
        a.play_text(m).unwrap();
    }
    assert_eq!(a.hash(), b.hash());
    let c = DaiMitregi::from_text(&a.to_text()).unwrap();
    assert_eq!(c.hash(), a.hash());
    // Hands are part of the hash.
    let x = DaiMitregi::from_text("15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w [N]");
    let y = DaiMitregi::from_text("15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w [n]");
    assert_ne!(x.unwrap().hash(), y.unwrap().hash());
}

#[test]
fn captures_go_to_hand_unpromoted() {
    let text = setup(
        &[("a1", "K"), ("p16", "k"), ("d5", "R"), ("d9", "+f")],
        'w',
        "-",
    );
    let mut p = DaiMitregi::from_text(&text).unwrap();
    p.play_text("d5d9").unwrap();
    assert_eq!(p.in_hand(Color::White, 'F'), 1);
    assert!(p.to_text().ends_with("b [F]"));
    p.play_text("p16p15").unwrap();
    assert!(moves(&p).iter().any(|m| m == "F*e8"));
    assert!(!moves(&p).iter().any(|m| m == "F*e16"));
}

/// Black King a16 boxed in by its own pieces, none of which reaches b14; White holds a Knight,
/// whose drop on b14 mates.
fn drop_mate_setup() -> String {
    setup(
        &[
            ("a16", "k"),
            ("b16", "m"),
            ("a15", "z"),
            ("b15", "f"),
            ("h1", "K"),
        ],
        'w',
        "[N]",
    )
}

#[test]
fn checkmate_by_drop_is_allowed() {
    let text = drop_mate_setup();
    let mut p = DaiMitregi::from_text(&text).unwrap();
    p.play_text("N*b14").unwrap();
    assert!(p.in_check());
    assert!(moves(&p).is_empty());
}

#[test]
fn errors_are_located_and_never_panic() {
    let bad = [
        ("", "board"),
        ("15k/16 w -", "board"),
        (
            "17/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K14k w -",
            "board",
        ),
        (
            "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 x -",
            "side",
        ),
        (
            "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w [K]",
            "hands",
        ),
        (
            "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w [N",
            "hands",
        ),
        (
            "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w [X]",
            "hands",
        ),
        (
            "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w - x",
            "hands",
        ),
        (
            "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/X15 w -",
            "board",
        ),
        (
            "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15+ w -",
            "board",
        ),
        (
            "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K015 w -",
            "board",
        ),
    ];
    for (t, field) in bad {
        match DaiMitregi::from_text(t) {
            Err(PositionError::Syntax { field: f, .. }) => assert_eq!(f, field, "{t}"),
            other => panic!("{t}: {other:?}"),
        }
    }
    let impossible = [
        "16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w -",
        "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/KK14 w -",
        "Z14k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w -",
        "15k/H15/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w -",
        "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/2u13/K15 w -",
    ];
    for t in impossible {
        assert!(
            matches!(DaiMitregi::from_text(t), Err(PositionError::Setup(_))),
            "{t}"
        );
    }
    // Arbitrary bytes never panic.
    let mut rng = variantlab_engine::zobrist::SplitMix64(7);
    let alphabet: Vec<char> = "kKzZfF+/0123456789 wb-[]nN\u{e9}".chars().collect();
    for _ in 0..3000 {
        let n = (rng.next() % 80) as usize;
        let s: String = (0..n)
            .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
            .collect();
        let _ = DaiMitregi::from_text(&s);
        let mut t = START.to_string();
        let cut = (rng.next() % t.len() as u64) as usize;
        t.truncate(cut);
        let _ = DaiMitregiStepping::from_text(&t);
    }
}

#[test]
fn game_ends_as_the_rules_file_decides() {
    use variantlab_engine::game::outcome;
    use variantlab_engine::{Outcome, Termination};
    // Stalemate is a draw.
    let p =
        DaiMitregi::from_text("k15/15R/16/16/16/16/16/16/16/16/16/16/16/16/16/1R5K8 b -").unwrap();
    assert!(!p.in_check() && moves(&p).is_empty());
    assert_eq!(
        outcome(&p, &[]),
        Some(Outcome::Draw {
            reason: Termination::Stalemate
        })
    );
    // Checkmate (here by a drop) wins.
    let text = drop_mate_setup();
    let mut p = DaiMitregiStepping::from_text(&text).unwrap();
    p.play_text("N*b14").unwrap();
    assert_eq!(
        outcome(&p, &[]),
        Some(Outcome::Decisive {
            winner: Color::White,
            reason: Termination::Checkmate
        })
    );
    // The third occurrence of a position (board, hands, side to move) is a draw; there is no
    // move-count rule.
    let mut p =
        DaiMitregi::from_text("15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w [Nn]").unwrap();
    let mut history = Vec::new();
    for _ in 0..2 {
        for m in ["a1a2", "p16p15", "a2a1", "p15p16"] {
            assert_eq!(outcome(&p, &history), None);
            history.push(p.hash());
            p.play_text(m).unwrap();
        }
    }
    assert_eq!(
        outcome(&p, &history),
        Some(Outcome::Draw {
            reason: Termination::Repetition
        })
    );
}

#[test]
fn evaluation_hooks() {
    let p = DaiMitregi::start();
    // The array is symmetric: material equal, positional term zero.
    let m = p.material();
    assert_eq!(m[0], m[1]);
    let kinds = p.material_kinds();
    assert_eq!(kinds.len(), 22);
    let fearless = kinds.iter().position(|k| k.0 == "Fearless").unwrap();
    assert_eq!(m[0][fearless], 16);
    assert_eq!(p.positional(), 0);
    // Hand pieces count as material; captures are tactical, drops (hundreds) are quiet.
    let q =
        DaiMitregi::from_text("15k/16/16/16/16/16/16/16/16/16/16/16/16/16/n15/K15 w [NN]").unwrap();
    let knight = kinds.iter().position(|k| k.0 == "Knight").unwrap();
    assert_eq!(q.material()[0][knight], 2);
    let mut list = DaiMitregiMoves::default();
    q.legal_moves(&mut list);
    assert!(
        list.iter()
            .filter(|&&m| q.move_text(m).contains('*'))
            .count()
            > 200
    );
    let tactical: Vec<String> = list
        .iter()
        .filter(|&&m| q.is_tactical(m))
        .map(|&m| q.move_text(m))
        .collect();
    assert_eq!(tactical, ["a1a2"]);
}

/// The position turned half a turn with the colours swapped (the start array is
/// point-symmetric, so this is the same game from the other side).
fn swap_colours(text: &str) -> String {
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    let mut fields = text.split(' ');
    let (board, side, hands) = (
        fields.next().unwrap(),
        fields.next().unwrap(),
        fields.next().unwrap(),
    );
    let ranks: Vec<String> = board
        .split('/')
        .rev()
        .map(|rank| {
            // Cells as tokens ("" empty, "Z", "+Z"), reversed and re-encoded.
            let (mut cells, chars) = (Vec::new(), rank.chars().collect::<Vec<_>>());
            let mut i = 0;
            while i < chars.len() {
                if chars[i].is_ascii_digit() {
                    let mut n = 0;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        n = n * 10 + chars[i].to_digit(10).unwrap();
                        i += 1;
                    }
                    cells.extend((0..n).map(|_| String::new()));
                } else if chars[i] == '+' {
                    cells.push(format!("+{}", swap(chars[i + 1])));
                    i += 2;
                } else {
                    cells.push(swap(chars[i]).to_string());
                    i += 1;
                }
            }
            let (mut out, mut empty) = (String::new(), 0);
            for c in cells.iter().rev() {
                if c.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                out += c;
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            out
        })
        .collect();
    let hands: String = hands
        .chars()
        .map(|c| if c.is_ascii_alphabetic() { swap(c) } else { c })
        .collect();
    let side = if side == "w" { "b" } else { "w" };
    format!("{} {side} {hands}", ranks.join("/"))
}

/// A move text turned half a turn.
fn turn_move(m: &str) -> String {
    let cell = |s: &str| {
        let file = s.as_bytes()[0] - b'a';
        let rank: u32 = s[1..].parse().unwrap();
        format!("{}{}", (b'a' + 15 - file) as char, 17 - rank)
    };
    if let Some((piece, to)) = m.split_once('*') {
        return format!("{piece}*{}", cell(to));
    }
    let (body, plus) = m.strip_suffix('+').map_or((m, ""), |b| (b, "+"));
    let i = body[1..].find(|c: char| c.is_ascii_lowercase()).unwrap() + 1;
    format!("{}{}{plus}", cell(&body[..i]), cell(&body[i..]))
}

/// Colour symmetry along seeded random games: the colour-swapped position has the turned
/// moves in the same order, the same check status and evaluation, and a node-limited search
/// of it returns the same score after the same number of nodes. (Move order once came from
/// cell numbers alone, which gave Black the better self-play results.)
#[test]
fn colour_swapped_positions_play_alike() {
    use variantlab_engine::search::{Limits, SearchConfig, Searcher};
    let run = || {
        let mut rng = variantlab_engine::zobrist::SplitMix64(3);
        let mut searched = 0;
        for _ in 0..6 {
            let mut p = DaiMitregi::start();
            for ply in 0..200 {
                let q = DaiMitregi::from_text(&swap_colours(&p.to_text())).unwrap();
                let (mut lp, mut lq) = (DaiMitregiMoves::default(), DaiMitregiMoves::default());
                p.legal_moves(&mut lp);
                q.legal_moves(&mut lq);
                let turned: Vec<String> = lp.iter().map(|&m| turn_move(&p.move_text(m))).collect();
                let theirs: Vec<String> = lq.iter().map(|&m| q.move_text(m)).collect();
                assert_eq!(turned, theirs, "{}", p.to_text());
                assert_eq!(p.in_check(), q.in_check());
                assert_eq!(p.positional(), q.positional());
                if lp.is_empty() {
                    break;
                }
                if ply % 40 == 20 {
                    let a =
                        Searcher::new(SearchConfig::default()).search(&p, &[], Limits::nodes(2000));
                    let b =
                        Searcher::new(SearchConfig::default()).search(&q, &[], Limits::nodes(2000));
                    assert_eq!((a.score, a.nodes), (b.score, b.nodes), "{}", p.to_text());
                    searched += 1;
                }
                p.play_unchecked(lp[(rng.next() % lp.len() as u64) as usize]);
            }
        }
        assert!(searched >= 6);
    };
    std::thread::Builder::new()
        .stack_size(variantlab_engine::search::THREAD_STACK)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}

/// The quiescence search's move list leaves drops out only when that cannot matter: it has
/// every legal tactical move, every legal move when in check, and answers "any legal move"
/// exactly as the full list does.
#[test]
fn quiescence_moves_keep_every_tactical_move() {
    let mut rng = variantlab_engine::zobrist::SplitMix64(11);
    let (mut with_hand, mut in_check) = (0, 0);
    for _ in 0..8 {
        let mut p = DaiMitregi::start();
        for _ in 0..250 {
            let (mut all, mut q) = (DaiMitregiMoves::default(), DaiMitregiMoves::default());
            p.legal_moves(&mut all);
            let any = p.quiescence_moves(&mut q);
            assert_eq!(any, !all.is_empty(), "{}", p.to_text());
            for m in &all {
                if p.is_tactical(*m) || p.in_check() {
                    assert!(q.contains(m), "{} lacks {}", p.to_text(), p.move_text(*m));
                }
            }
            assert!(q.iter().all(|m| all.contains(m)));
            with_hand += all.iter().any(|m| p.move_text(*m).contains('*')) as u32;
            in_check += p.in_check() as u32;
            if all.is_empty() {
                break;
            }
            // Captures half the time, so hands fill.
            let captures: Vec<_> = all.iter().copied().filter(|&m| p.is_tactical(m)).collect();
            let pool = if !captures.is_empty() && rng.next().is_multiple_of(2) {
                &captures[..]
            } else {
                &all[..]
            };
            p.play_unchecked(pool[(rng.next() % pool.len() as u64) as usize]);
        }
    }
    assert!(with_hand > 100 && in_check > 5, "{with_hand} {in_check}");
}

/// The static exchange of a move in both forms, with the material values of the rules file.
fn see_both(pieces: &[(&str, &str)], mv: &str) -> (Option<i32>, Option<i32>) {
    let (l, s) = both(&setup(pieces, 'w', "-"));
    let values: Vec<i32> = l.material_kinds().iter().map(|k| k.1).collect();
    let ml = l.parse_move(mv).expect("legal in Leaping");
    let ms = s.parse_move(mv).expect("legal in Stepping");
    (l.see(ml, &values), s.see(ms, &values))
}

/// Hand-checked exchanges. A capture scores the victim twice over (its owner loses it, the
/// captor gains it in hand): a Knight 300 + 300, a Rook 700 + 700, a Wazchick 90 + 90.
#[test]
fn static_exchanges_count_the_piece_gained_in_hand() {
    let kings = [("a1", "K"), ("p16", "k")];
    let with = |extra: &[(&'static str, &'static str)]| -> Vec<(&'static str, &'static str)> {
        kings.iter().chain(extra).copied().collect()
    };
    // An undefended Knight.
    let p = with(&[("d4", "R"), ("d10", "n")]);
    assert_eq!(see_both(&p, "d4d10"), (Some(600), Some(600)));
    // Defended by a Wazchick's step: the Rook is lost for the Knight.
    let p = with(&[("d4", "R"), ("d10", "n"), ("d11", "z")]);
    assert_eq!(see_both(&p, "d4d10"), (Some(-800), Some(-800)));
    // A second Rook behind the first joins in (x-ray); Black still takes: 600 - 1400 + 180.
    let p = with(&[("d3", "R"), ("d4", "R"), ("d10", "n"), ("d11", "z")]);
    assert_eq!(see_both(&p, "d4d10"), (Some(-620), Some(-620)));
    // Defended by the Wazchick's two-cell move, which the Stepping form's lame atom cannot
    // make over an occupied cell.
    let p = with(&[("d4", "R"), ("d10", "n"), ("d11", "Z"), ("d12", "z")]);
    assert_eq!(see_both(&p, "d4d10"), (Some(-800), Some(600)));
    // The King recaptures only where nothing takes back.
    let kings_near = [("a1", "K"), ("d11", "k"), ("d4", "R"), ("d10", "n")];
    assert_eq!(see_both(&kings_near, "d4d10"), (Some(-800), Some(-800)));
    let guarded: Vec<_> = kings_near.iter().chain(&[("d3", "R")]).copied().collect();
    assert_eq!(see_both(&guarded, "d4d10"), (Some(600), Some(600)));
    // A capture that promotes a Wazchick (90) to a Goldrider (950) gains the promotion too;
    // a drop captures nothing, but a piece dropped where it can be taken is lost (the
    // Wazchick on e7 reaches e6 and, by its two-cell move, e5).
    let p = with(&[("d12", "Z"), ("d13", "n")]);
    assert_eq!(see_both(&p, "d12d13+"), (Some(600 + 860), Some(600 + 860)));
    assert_eq!(see_both(&p, "d12d13"), (Some(600), Some(600)));
    let p: Vec<_> = kings.iter().chain(&[("e7", "z")]).copied().collect();
    let (l, _) = both(&setup(&p, 'w', "[N]"));
    let values: Vec<i32> = l.material_kinds().iter().map(|k| k.1).collect();
    let see = |mv: &str| l.see(l.parse_move(mv).unwrap(), &values);
    assert_eq!(see("N*e6"), Some(-600));
    assert_eq!(see("N*e5"), Some(-600));
    assert_eq!(see("N*h5"), Some(0));
}

/// Hand-checked mobility, royal-zone attacks and threats (kinds: Rook 1, Bishop 3, Knight 5,
/// Wazchick 10).
#[test]
fn activity_features_mobility_royal_zone_and_threats() {
    let p = [
        ("a1", "K"),
        ("p16", "k"),
        ("d4", "R"),
        ("o4", "R"),
        ("g5", "B"),
        ("d10", "n"),
        ("d11", "z"),
        ("e6", "n"),
    ];
    let (l, s) = both(&setup(&p, 'w', "-"));
    let (al, as_) = (FeatureCalls::of(&l), FeatureCalls::of(&s));
    let of_kinds = |a: &FeatureCalls| {
        let mut m: Vec<_> = a
            .mobility
            .iter()
            .filter(|m| [1, 5, 10].contains(&m.1))
            .copied()
            .collect();
        m.sort_by_key(|&(c, k, n)| (c == Color::Black, k, n));
        m
    };
    // The Rook on d4 rides 6 up (to the Knight on d10), 3 down, 3 left and 10 right (the
    // Rook on o4 stops it); the one on o4 12 up, 3 down, 10 left and 1 right. The Knights
    // reach 8 cells each. The Wazchick on d11 steps onto its own Knight (not counted) and
    // jumps to d9 in the Leaping form; the Stepping form's lame two-cell move is blocked.
    let rooks_and_knights = [
        (Color::White, 1, 22),
        (Color::White, 1, 26),
        (Color::Black, 5, 8),
        (Color::Black, 5, 8),
    ];
    let with_wazchick = |n: u32| {
        let mut v = rooks_and_knights.to_vec();
        v.push((Color::Black, 10, n));
        v
    };
    assert_eq!(of_kinds(&al), with_wazchick(1));
    assert_eq!(of_kinds(&as_), with_wazchick(0));
    for a in [&al, &as_] {
        // The Rook on o4 attacks o15 and o16, next to the Black King; nothing of Black's
        // comes near White's.
        assert_eq!(a.king_attacks, vec![(Color::White, 2), (Color::Black, 0)]);
        // The Knight on e6 (300) attacks the Rook on d4 (700) and the Bishop on g5 (550):
        // White, to move, has two threatened pieces. The Knight on d10 is attacked by a
        // dearer Rook and defended by the Wazchick: not threatened.
        assert_eq!(
            a.threatened,
            vec![(Color::White, 1, true, 1), (Color::White, 3, true, 1)]
        );
        assert_eq!(a.multiple, vec![(Color::White, true)]);
    }
    // Undefended, the Knight on d10 is threatened by the dearer Rook; Black is not to move.
    let p: Vec<_> = p.iter().filter(|x| x.0 != "d11").copied().collect();
    let (l, _) = both(&setup(&p, 'w', "-"));
    assert!(FeatureCalls::of(&l)
        .threatened
        .contains(&(Color::Black, 5, false, 1)));
}

/// The material counts the position keeps up to date move by move (captures to hand,
/// promotions) equal those of the same position read afresh from its text, over seeded
/// random games of both forms.
#[test]
fn material_counts_follow_the_moves() {
    fn check<G: Game>(seed: u64) {
        let mut captures_and_promotions = 0;
        let positions = random_games::positions::<G>(seed, 8, 200);
        for (p, next) in positions.iter().zip(positions.iter().skip(1)) {
            if p.material() != next.material() {
                captures_and_promotions += 1;
            }
            let fresh = G::from_text(&p.to_text()).expect("the position's own text");
            assert_eq!(p.material(), fresh.material(), "{}", p.to_text());
        }
        // The games changed the material often enough to test the updates.
        assert!(captures_and_promotions > 50, "{captures_and_promotions}");
    }
    check::<DaiMitregi>(15);
    check::<DaiMitregiStepping>(16);
}
