//! Dialectic Chess: the test positions DT1..DT10 and perft figures of
//! `shared/rules/dialectic-chess.md`, text round trips and malformed texts.

mod common;

use variantlab_engine::game::{outcome, Game};
use variantlab_engine::moves::MoveBuf;
use variantlab_engine::variants::dialectic::{Dialectic, DialecticHegelian};
use variantlab_engine::{Color, Outcome, PositionError, Termination};

fn perft<G: Game>(p: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut ms = G::Moves::default();
    p.legal_moves(&mut ms);
    if depth == 1 {
        return ms.len() as u64;
    }
    ms.as_ref()
        .iter()
        .map(|&m| {
            let mut q = p.clone();
            q.play_unchecked(m);
            perft(&q, depth - 1)
        })
        .sum()
}

use common::sorted_move_texts as moves;

fn token_moves<G: Game>(p: &G) -> Vec<String> {
    moves(p)
        .into_iter()
        .filter(|m| m.starts_with(['T', 'A', 'S']))
        .collect()
}

fn sorted(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

fn basic(t: &str) -> Dialectic {
    Dialectic::from_text(t).unwrap_or_else(|e| panic!("{t}: {e}"))
}

fn hegel(t: &str) -> DialecticHegelian {
    DialecticHegelian::from_text(t).unwrap_or_else(|e| panic!("{t}: {e}"))
}

fn check_perft(text: &str, b: &[u64], h: &[u64]) {
    for (d, &n) in b.iter().enumerate() {
        assert_eq!(
            perft(&basic(text), d as u32 + 1),
            n,
            "basic {text} depth {}",
            d + 1
        );
    }
    for (d, &n) in h.iter().enumerate() {
        assert_eq!(
            perft(&hegel(text), d as u32 + 1),
            n,
            "hegelian {text} depth {}",
            d + 1
        );
    }
}

const START: &str = "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T12A21";

#[test]
fn dt1_start() {
    let p = Dialectic::start();
    assert_eq!(p.to_text(), START);
    let ms = moves(&p);
    assert_eq!(ms.len(), 26);
    for m in ["b1a3", "b1c3", "g1f3", "g1h3", "a2a3", "h2h4"] {
        assert!(ms.contains(&m.to_string()), "{m}");
    }
    assert_eq!(token_moves(&p), sorted("T02 T11 T22 A11 A20 A22"));
    check_perft(START, &[26, 652, 17_234], &[26, 660, 17_754]);
}

#[test]
fn dt1_depth2_by_hand() {
    for (mv, b, h) in [
        ("T02", 22, 22),
        ("T22", 20, 22),
        ("T11", 20, 22),
        ("A11", 24, 26),
        ("A20", 24, 24),
        ("A22", 22, 24),
    ] {
        let mut p = Dialectic::start();
        p.play_text(mv).unwrap();
        assert_eq!(moves(&p).len(), b, "basic after {mv}");
        let mut q = DialecticHegelian::start();
        q.play_text(mv).unwrap();
        assert_eq!(moves(&q).len(), h, "hegelian after {mv}");
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug builds; run with --release")]
fn dt1_start_depth4() {
    check_perft(
        START,
        &[26, 652, 17_234, 451_047],
        &[26, 660, 17_754, 474_521],
    );
}

#[test]
fn dt2_dialectic_check_exposing_own_king() {
    let t = "8/8/3k4/8/3H4/4h3/8/4K3 w - - 0 1 T12A21";
    let p = basic(t);
    assert_eq!(
        moves(&p),
        sorted("e1d2 e1e2 e1f2 d4b3 d4b5 d4c2 d4c6 d4e2 d4e6 d4f3 d4f5 T02 T11 T22 A11 A22")
    );
    check_perft(t, &[16, 276, 3_840], &[16, 284, 4_142]);
}

#[test]
fn dt3_antithesis_evasion() {
    let t = "k7/8/8/5B2/8/2hh4/P7/4K3 w - - 0 1 T12A21";
    let p = basic(t);
    assert!(p.in_check());
    assert_eq!(moves(&p), sorted("e1d2 e1f1 f5d3 A11 A20"));
    check_perft(t, &[5, 109, 2_090], &[5, 111, 2_158]);
}

#[test]
fn dt4_great_philosopher() {
    let t = "7k/3r4/4p3/8/p2G2P1/8/7P/7K w - - 0 1 T12A01";
    let p = basic(t);
    assert_eq!(
        moves(&p),
        sorted(
            "d4b3 d4b5 d4b8 d4c2 d4c6 d4e2 d4f3 d4f5 d4h6 d4d7 d4a4 h1g1 h1g2 g4g5 h2h3 h2h4 \
             T02 T11 T22 A00 A02 A11"
        )
    );
    check_perft(t, &[22, 426, 8_100], &[22, 432, 8_438]);
}

#[test]
fn dt5_visited_set() {
    let mut p = Dialectic::start();
    p.play_text("g1f3").unwrap();
    assert_eq!(token_moves(&p), sorted("T02 T11 T22 A11 A20 A22"));
    p.play_text("A22").unwrap();
    assert_eq!(token_moves(&p), sorted("T02 T11"));
    p.play_text("T11").unwrap();
    assert_eq!(token_moves(&p), sorted("T01 T10 T21 A12 A21"));
    p.play_text("A21").unwrap();
    assert_eq!(token_moves(&p), sorted("T01 T10 A20"));
    assert!(p.to_text().ends_with("T11A21 V1122,1221,1222"));
    let reread = basic(&p.to_text());
    assert_eq!(reread.to_text(), p.to_text());
    assert_eq!(reread.hash(), p.hash());
    p.play_text("e2e4").unwrap();
    assert_eq!(token_moves(&p), sorted("T01 T10 T12 A20 A22"));
    assert!(p.to_text().ends_with("T11A21"));
}

#[test]
fn dt6_synthesis() {
    let p = hegel("4k3/8/8/8/8/8/8/4K3 w - - 0 1 T11A11");
    assert_eq!(
        token_moves(&p),
        sorted("T01 T10 T12 T21 A01 A10 A12 A21 S01 S10 S12 S21")
    );
    assert_eq!(moves(&p).len(), 17);
    let q = hegel("4k3/8/8/8/8/8/8/4K3 w - - 0 1 T11A11 V1211,1212");
    let tm = token_moves(&q);
    assert_eq!(tm.len(), 10);
    assert!(!tm.contains(&"T12".to_string()) && !tm.contains(&"S12".to_string()));
    assert!(tm.contains(&"A12".to_string()));
    assert_eq!(moves(&q).len(), 15);
    assert!(Dialectic::from_text("4k3/8/8/8/8/8/8/4K3 w - - 0 1 T11A11").is_err());
}

#[test]
fn dt7_promotions_and_great_philosopher() {
    let t = "g1h4k/1P6/3H4/1g6/8/8/8/4K3 w - - 0 1 T11A21";
    let p = basic(t);
    assert_eq!(
        moves(&p),
        sorted(
            "b7b8q b7b8r b7b8b b7b8h b7a8q b7a8r b7a8b b7a8h b7c8q b7c8r b7c8b b7c8h \
             d6c5 d6c7 d6e5 d6e7 d6c8 d6b5 e1e2 e1f1 e1f2 T01 T10 T12 A20 A22"
        )
    );
    let mut q = p;
    q.play_text("d6c8").unwrap();
    assert!(q.to_text().starts_with("g1G4k/"));
    let mut q = p;
    q.play_text("d6b5").unwrap();
    assert!(q.to_text().contains("/1G6/"));
    let mut q = p;
    q.play_text("b7a8h").unwrap();
    assert!(q.to_text().starts_with("H1h4k/"));
    let h = hegel(t);
    assert_eq!(moves(&h).len(), 28);
    assert!(token_moves(&h).contains(&"T21".to_string()));
    assert!(token_moves(&h).contains(&"A11".to_string()));
    check_perft(t, &[26, 523, 11_059], &[28, 616, 14_097]);
}

#[test]
fn dt8_mate_by_antithesis() {
    let t = "6rk/5Hpp/7H/8/8/8/8/K7 w - - 0 1 T22A11";
    let p = basic(t);
    assert_eq!(
        moves(&p),
        sorted("a1a2 a1b1 a1b2 f7d5 f7h5 f7g8 h6f4 h6f8 h6g7 T12 T21 A01 A10 A12 A21")
    );
    let mut b = p;
    b.play_text("A21").unwrap();
    assert_eq!(b.to_text(), "6rk/5Hpp/7H/8/8/8/8/K7 b - - 1 1 T22A21 V2211");
    assert!(b.in_check());
    assert!(moves(&b).is_empty());
    assert_eq!(
        outcome(&b, &[]),
        Some(Outcome::Decisive {
            winner: Color::White,
            reason: Termination::Checkmate
        })
    );
    let mut h = hegel(t);
    h.play_text("A21").unwrap();
    assert!(h.in_check());
    assert_eq!(moves(&h), vec!["A22".to_string()]);
}

#[test]
fn dt9_castling_switched() {
    let t = "4k3/8/8/8/8/6h1/8/R3K2R w KQ - 0 1 T12A21";
    let p = basic(t);
    let ms = moves(&p);
    assert_eq!(ms.len(), 28);
    assert!(ms.contains(&"e1c1".to_string()));
    assert!(!ms.contains(&"e1g1".to_string()));
    assert!(!ms.contains(&"A22".to_string()));
    // After A11 and a Black pass, O-O is legal.
    let mut q = p;
    q.play_text("A11").unwrap();
    q.play_text("T02").unwrap();
    assert!(moves(&q).contains(&"e1g1".to_string()));
    check_perft(t, &[28, 415, 11_884], &[28, 421, 12_231]);
}

#[test]
fn dt10_stalemate_after_dialectic_move() {
    let t = "k7/1H6/H1K5/8/8/8/8/8 b - - 0 1 T00A10 V0110";
    let p = basic(t);
    assert!(!p.in_check());
    assert!(moves(&p).is_empty());
    assert_eq!(
        outcome(&p, &[]),
        Some(Outcome::Draw {
            reason: Termination::Stalemate
        })
    );
    assert_eq!(moves(&hegel(t)), sorted("A00 T10"));
}

#[test]
fn round_trips() {
    for t in [
        START,
        "8/8/3k4/8/3H4/4h3/8/4K3 w - - 0 1 T12A21",
        "g1h4k/1P6/3H4/1g6/8/8/8/4K3 w - - 0 1 T11A21",
        "k7/1H6/H1K5/8/8/8/8/8 b - - 0 1 T00A10 V0110",
        "rhbqkbhr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RHBQKBHR b KQkq e3 0 3 T12A21",
    ] {
        assert_eq!(basic(t).to_text(), t);
        assert_eq!(hegel(t).to_text(), t);
    }
    let t = "4k3/8/8/8/8/8/8/4K3 w - - 7 9 T11A11 V1211,1212";
    assert_eq!(hegel(t).to_text(), t);
}

#[test]
fn hash_tracks_position() {
    let mut a = Dialectic::start();
    let mut b = Dialectic::start();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        a.play_text(m).unwrap();
    }
    assert_eq!(a.hash(), b.hash());
    b.play_text("T02").unwrap();
    let c = basic(&b.to_text());
    assert_eq!(b.hash(), c.hash());
    assert_ne!(b.hash(), Dialectic::start().hash());
}

#[test]
fn malformed_texts() {
    let bad = [
        "",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T12A2",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T13A21",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 X12A21",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T12A21 V",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T12A21 V1221",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T12A21 V0211,0211",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T12A21 V02ß1",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHN w KQkq - 0 1 T12A21",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBH w KQkq - 0 1 T12A21",
        "rhbqkbhr/pppppppp/9/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T12A21",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR x KQkq - 0 1 T12A21",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkx - 0 1 T12A21",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq e9 0 1 T12A21",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - -1 1 T12A21",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 0 T12A21",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T12A21 V0011 extra",
        "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQ1BHR w kq - 0 1 T12A21",
        "4k3/8/8/8/8/8/8/4K2R w Q - 0 1 T12A21",
        "4k3/8/8/8/8/8/8/P3K3 w - - 0 1 T12A21",
    ];
    for t in bad {
        assert!(Dialectic::from_text(t).is_err(), "{t}");
        assert!(DialecticHegelian::from_text(t).is_err(), "{t}");
    }
    let t = "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T13A21";
    match Dialectic::from_text(t) {
        Err(PositionError::Syntax { field, column, .. }) => {
            assert_eq!(field, "tokens");
            // 1-based column of the first cell digit after `T`.
            assert_eq!(Some(column), t.find("T13").map(|i| i + 2));
        }
        other => panic!("{other:?}"),
    }
    // Basic game: tokens never share a cell, even in the visited list.
    assert!(Dialectic::from_text("4k3/8/8/8/8/8/8/4K3 w - - 0 1 T12A21 V1111").is_err());
    assert!(DialecticHegelian::from_text("4k3/8/8/8/8/8/8/4K3 w - - 0 1 T12A21 V1111").is_ok());
}

#[test]
fn draws() {
    assert!(basic("4k3/8/8/8/8/8/8/4K3 w - - 0 1 T12A21").insufficient_material());
    assert!(basic("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1 T12A21").insufficient_material());
    assert!(basic("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1 T12A21").insufficient_material());
    assert!(!basic("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1 T12A21").insufficient_material());
    assert!(!basic("4k3/8/8/8/8/8/8/2H1K3 w - - 0 1 T12A21").insufficient_material());
    // Dialectic moves do not reset the fifty-move counter.
    let mut p = basic("4k3/8/8/8/8/8/8/2H1K3 w - - 5 1 T12A21");
    p.play_text("T02").unwrap();
    assert_eq!(p.halfmove_clock(), 6);
}

/// Random single-character edits, truncations and insertions never panic the reader, and
/// whatever it accepts round-trips through its own text.
#[test]
fn reader_never_panics() {
    let base = "rhbqkbhr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RHBQKBHR b KQkq e3 0 3 T12A21 V0211,1122";
    let alphabet: Vec<char> = "0123456789/ -wbKQkqRBHGPrhgpVTAS,eß".chars().collect();
    let mut rng = variantlab_engine::zobrist::SplitMix64(7);
    for _ in 0..20_000 {
        let mut chars: Vec<char> = base.chars().collect();
        for _ in 0..1 + rng.next() % 3 {
            let i = (rng.next() % chars.len() as u64) as usize;
            let c = alphabet[(rng.next() % alphabet.len() as u64) as usize];
            match rng.next() % 3 {
                0 => chars[i] = c,
                1 => chars.insert(i, c),
                _ => chars.truncate(i.max(1)),
            }
        }
        let t: String = chars.into_iter().collect();
        if let Ok(p) = DialecticHegelian::from_text(&t) {
            let again = hegel(&p.to_text());
            assert_eq!(again.to_text(), p.to_text());
            assert_eq!(again.hash(), p.hash());
        }
        let _ = Dialectic::from_text(&t);
    }
}

/// Hand-checked exchanges with the default values (Pawn 100, Philosopher 300, Rook 500,
/// Great Philosopher 500).
#[test]
fn static_exchanges_follow_the_antithesis() {
    let see = |text: &str, mv: &str| {
        let p = basic(text);
        let values: Vec<i32> = p.material_kinds().iter().map(|k| k.1).collect();
        p.see(p.parse_move(mv).expect("legal"), &values)
    };
    // With the Antithesis on (2,1) the Philosopher on c3 captures like a Knight: an
    // undefended pawn, then one a pawn on e6 defends.
    let free = "4k3/8/8/3p4/8/2H5/8/4K3 w - - 0 1 T12A21";
    assert_eq!(see(free, "c3d5"), Some(100));
    let defended = "4k3/8/4p3/3p4/8/2H5/8/4K3 w - - 0 1 T12A21";
    assert_eq!(see(defended, "c3d5"), Some(100 - 300));
    // Taking a Philosopher makes a Great Philosopher (worth 500): undefended it gains the
    // Great one; if the pawn then takes it, White has traded a Philosopher for one.
    let philosopher = "4k3/8/8/3h4/8/2H5/8/4K3 w - - 0 1 T12A21";
    assert_eq!(see(philosopher, "c3d5"), Some(500));
    let traded = "4k3/8/4p3/3h4/8/2H5/8/4K3 w - - 0 1 T12A21";
    assert_eq!(see(traded, "c3d5"), Some(0));
    // With the Antithesis on (1,1) the Great Philosopher on a8 rides diagonally and defends
    // d5 over b7 and c6; a Philosopher on b7 (attacking only a8, c8, a6 and c6) blocks it.
    let great = "g3k3/8/8/3p4/8/8/8/3RK3 w - - 0 1 T12A11";
    assert_eq!(see(great, "d1d5"), Some(100 - 500));
    let blocked = "g3k3/1H6/8/3p4/8/8/8/3RK3 w - - 0 1 T12A11";
    assert_eq!(see(blocked, "d1d5"), Some(100));
    // A token step changes every Philosopher's reach: no single cell settles it.
    let p = basic(free);
    let step = p.parse_move("A11").expect("legal");
    assert_eq!(p.see(step, &[0; 7]), None);
}
