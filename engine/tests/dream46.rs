//! Every test position of `shared/rules/dream-chess-46.md` (D1–D10).

use std::collections::BTreeSet;
use variantlab_engine::position::Position;
use variantlab_engine::variants::Dream46;
use variantlab_engine::Game;

fn pos(fen: &str) -> Position<Dream46> {
    Position::from_text(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Every legal move text starting with `from`.
fn moves_from(p: &Position<Dream46>, from: &str) -> BTreeSet<String> {
    let mut list = Default::default();
    p.legal_moves(&mut list);
    list.iter()
        .map(|&m| p.move_text(m))
        .filter(|t| t.starts_with(from))
        .collect()
}

/// Destinations of the moves from `from`, ignoring promotion suffixes.
fn targets(p: &Position<Dream46>, from: &str) -> BTreeSet<String> {
    moves_from(p, from)
        .into_iter()
        .map(|t| {
            t[from.len()..]
                .trim_end_matches(['q', 'c', 'p', 'n'])
                .to_string()
        })
        .collect()
}

fn set(cells: &str) -> BTreeSet<String> {
    cells.split_whitespace().map(str::to_string).collect()
}

#[test]
fn d1_knight_forbidden_leap() {
    let p = pos("***4k/***5/***5/8/2N5/5***/5***/K4*** w");
    assert_eq!(targets(&p, "c4"), set("a3 a5 b2 d2 e3 e5"));
}

#[test]
fn d2_queen_at_the_a_side_notch() {
    let p = pos("***4k/***5/***5/2Q5/8/5***/5***/K4*** w");
    assert_eq!(
        targets(&p, "c5"),
        set("a3 a5 b4 b5 c1 c2 c3 c4 d4 d5 e3 e5 f5 g5 h5")
    );
}

#[test]
fn d3_primate_at_the_other_notch() {
    let p = pos("***4k/***5/***5/8/8/4P***/5***/K4*** w");
    assert_eq!(targets(&p, "e3"), set("c1 c5 d2 d3 d4 e2 e4"));
}

#[test]
fn d4_chatelaine_in_the_intersection() {
    let p = pos("***4k/***5/***5/8/3C4/5***/5***/K4*** w");
    assert_eq!(
        targets(&p, "d4"),
        set("a4 b4 c4 d1 d2 d3 d5 d6 d7 d8 e4 f4 g4 h4 c3 c5 e3 e5")
    );
}

#[test]
fn d5_lines_across_the_notch_give_no_check() {
    let p = pos("***4k/***5/***5/5nq1/8/4K***/5***/5*** w");
    assert!(!p.in_check());
    assert_eq!(targets(&p, "e3"), set("d2 d3 e2 e4"));
}

#[test]
fn d6_the_other_notch() {
    let p = pos("***4k/***1q3/***5/2K5/8/5***/5***/5*** w");
    assert!(!p.in_check());
    assert_eq!(targets(&p, "c5"), set("b4 b5 c4 d4 d5"));
}

#[test]
fn d7_steward_moves_and_captures() {
    let p = pos("***4k/***5/***5/8/3c1n2/4S***/3N1***/K4*** w");
    assert_eq!(targets(&p, "e3"), set("d3 e2 e4 d4"));
}

#[test]
fn d8_steward_promotion_to_any_lost_type() {
    let p = pos("***2n2/***3S1/***k3s/8/8/5***/5***/K4*** w");
    let got = moves_from(&p, "g7");
    let mut want = set("g7f7 g7g6");
    for to in ["g8", "f8", "h7", "h6"] {
        want.insert(format!("g7{to}"));
        for s in ["q", "c", "p", "n"] {
            want.insert(format!("g7{to}{s}"));
        }
    }
    assert_eq!(got, want);
}

#[test]
fn d8_promotion_only_to_a_type_actually_lost() {
    // The D8 position with White's army complete but for one Knight: only a Knight may be
    // chosen.
    let p = pos("***2n2/***3S1/***k3s/8/C7/C4***/PNP2***/KQ3*** w");
    let got = moves_from(&p, "g7");
    let want = set("g7f7 g7g6 g7g8 g7g8n g7f8 g7f8n g7h7 g7h7n g7h6 g7h6n");
    assert_eq!(got, want);
}

#[test]
fn d8_a_steward_already_on_the_edge_promotes_only_by_moving() {
    // A Steward on h5 may promote by moving along the edge to h6 (decision 8 of the rules).
    let p = pos("***4k/***5/***5/7S/8/5***/5***/K4*** w");
    assert!(moves_from(&p, "h5").contains("h5h6q"));
    assert!(moves_from(&p, "h5").contains("h5h6"));
}

#[test]
fn d9_slide_through_the_intersection() {
    let p = pos("***2k2/***3s1/***5/8/8/5***/1P3***/K4*** w");
    assert_eq!(targets(&p, "b2"), set("a2 a3 b1 b3 c1 c2 c3 d4 e5 f6 g7"));
}

#[test]
fn d10_initial_position() {
    let start = Position::<Dream46>::start();
    let mut list = Default::default();
    start.legal_moves(&mut list);
    let got: BTreeSet<String> = list.iter().map(|&m| start.move_text(m)).collect();
    let white = set("a3c4 b2c3 b2d4 b2e5 b2f6 b2g7 b3c3 b4c4 b5c5 c1d3 c2c3 d2d3 e2e3");
    assert_eq!(got, white);

    // Black's moves are the 180° images: (f, r) -> (9 - f, 9 - r).
    let black = pos("***scnpk/***sssqp/***3sn/SS4sc/CS4ss/NS3***/PQSSS***/KPNCS*** b");
    let mut list = Default::default();
    black.legal_moves(&mut list);
    let got: BTreeSet<String> = list.iter().map(|&m| black.move_text(m)).collect();
    let rotate = |c: u8, base: u8, top: u8| (top - (c - base)) as char;
    let images: BTreeSet<String> = white
        .iter()
        .map(|m| {
            m.bytes()
                .enumerate()
                .map(|(i, b)| {
                    if i % 2 == 0 {
                        rotate(b, b'a', b'h')
                    } else {
                        rotate(b, b'1', b'8')
                    }
                })
                .collect()
        })
        .collect();
    assert_eq!(got, images);
    assert!(got.contains("g7b2") && got.contains("f8e6"));
}

#[test]
fn queen_exchange_on_the_long_diagonal() {
    // Ambiguity 3: 1.Qxg7+ Kxg7 is legal.
    let mut p = Position::<Dream46>::start();
    p.play_text("b2g7").unwrap();
    assert!(p.in_check());
    p.play_text("h8g7").unwrap();
    assert_eq!(
        p.to_text(),
        "***scnp1/***ssskp/***3sn/SS4sc/CS4ss/NS3***/P1SSS***/KPNCS*** w 0 2"
    );
}
