//! Gateway Chess: every test position and perft figure of `shared/rules/gateway-chess.md`,
//! the position text format, and the compiled tables against a slow cell-by-cell walk.

use variantlab_engine::bitboard::Bitboard;
use variantlab_engine::game::outcome;
use variantlab_engine::perft::perft;
use variantlab_engine::piece::Atom;
use variantlab_engine::variants::gateway::{
    attack_tables, role_atoms, topology, Gateway, GatewayBb, GatewayMoves, ROLES, START,
};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{Color, Game, Outcome, PositionError, Role, Square, Termination};

fn pos(text: &str) -> Gateway {
    Gateway::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn all_moves(p: &Gateway) -> Vec<String> {
    let mut list = GatewayMoves::default();
    p.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| p.move_text(m)).collect();
    v.sort();
    v
}

/// The destinations of the legal moves from `from` (cell names, sorted).
fn targets(p: &Gateway, from: &str) -> Vec<String> {
    let mut v: Vec<String> = all_moves(p)
        .into_iter()
        .filter_map(|m| m.strip_prefix(from).map(str::to_string))
        .filter(|t| t.len() >= 3 && t.starts_with(['v', 'w', 'x', 'y', 'z']))
        .collect();
    v.sort();
    v
}

fn sorted(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list
        .split(',')
        .map(|s| s.trim().replace(['-', ':'], ""))
        .filter(|s| !s.is_empty())
        .collect();
    v.sort();
    v
}

#[test]
fn g1_initial_position() {
    let p = Gateway::start();
    assert_eq!(p.to_text(), START);
    let expected = sorted(
        "vb3-vb4, vc3-vc4, wb3-wb4, wc3-wc4, xb3-xb4, xc3-xc4, yb3-yb4, yc3-yc4, zb3-zb4, \
         zc3-zc4, vb2-vc4, vb2-wb4, vc2-vb4, vc2-wc4, zb2-yb4, zb2-zc4, zc2-yc4, zc2-zb4, \
         wb2-vc4, wb2-xc4, wc2-vb4, wc2-xb4, yb2-xc4, yb2-zc4, yc2-xb4, yc2-zb4, \
         xb2-vc4, xb2-zc4, xc2-vb4, xc2-zb4",
    );
    assert_eq!(all_moves(&p), expected);
    assert!(!p.in_check());
    // Black's 30 are the rank mirror images.
    let mut b = p;
    b.play_text("xb3xb4").unwrap();
    let mirrored: Vec<String> = expected
        .iter()
        .map(|m| {
            let (a, c) = m.split_at(m[1..].find(['v', 'w', 'x', 'y', 'z']).unwrap() + 1);
            let flip = |s: &str| format!("{}{}", &s[..2], 11 - s[2..].parse::<u32>().unwrap());
            format!("{}{}", flip(a), flip(c))
        })
        .collect();
    let mut mirrored = mirrored;
    mirrored.sort();
    assert_eq!(all_moves(&b), mirrored);
}

#[test]
fn g1_perft() {
    let p = Gateway::start();
    assert_eq!(perft(&p, 1), 30);
    assert_eq!(perft(&p, 2), 900);
    assert_eq!(perft(&p, 3), 32_040);
    assert_eq!(perft(&p, 4), 1_140_716);
}

#[test]
fn g2_bishop_at_a_gateway_corner() {
    let p = pos("W: Kx1, Bwa4. B: Ezb10. White to move.");
    assert_eq!(
        targets(&p, "wa4"),
        sorted("va5, vb4, wb5, wc6, wd7, xa5, xb4, ya6, yc4, za7, zd4")
    );
    assert!(!targets(&p, "wa4").contains(&"wb3".to_string()));
    assert_eq!(all_moves(&p).len(), 16);
}

#[test]
fn g3_bishop_beside_the_gateway() {
    let p = pos("W: Kx1, Bwb4. B: Ezb10. White to move.");
    assert_eq!(
        targets(&p, "wb4"),
        sorted(
            "va4, vb3, vb5, vc4, wa5, wc3, wc5, wd6, xa4, xb3, xb5, xc4, yb2, yb6, yd4, zb1, zb7"
        )
    );
}

#[test]
fn g4_knight_in_front_of_the_gateway() {
    let p = pos("W: Kx1, Nwb4. B: Ezb10. White to move.");
    assert_eq!(
        targets(&p, "wb4"),
        sorted("vb2, vb6, vd4, wa6, wc2, wc6, wd5, xb2, xb6, xd4, ya4, yb3, yb5, yc4")
    );
}

#[test]
fn g5_knight_on_the_a_file() {
    let p = pos("W: Kx1, Nwa4. B: Ezb10. White to move.");
    assert_eq!(
        targets(&p, "wa4"),
        sorted("va6, vc4, wb6, wc5, xa6, xc4, ya5, yb4")
    );
}

#[test]
fn g6_unicorn_through_the_gateway() {
    let p = pos("W: Kz1, Uxb2. B: Ezb10. White to move.");
    assert_eq!(targets(&p, "xb2"), sorted("wa1, wc1, wc3, ya1, yc1, yc3"));
}

#[test]
fn g7_sexton() {
    let p = pos("W: Kx1, Sxc4. B: Ezb10. White to move.");
    assert_eq!(
        targets(&p, "xc4"),
        sorted("vb3, vb5, vd5, wa5, wb2, wb6, wd6, ya5, yb2, yb6, yd6, zb3, zb5, zd5")
    );
}

#[test]
fn g8_ninja() {
    let p = pos("W: Kx1, Jxb5. B: Ezb10. White to move.");
    assert_eq!(
        targets(&p, "xb5"),
        sorted("va7, vc3, vc7, vd4, vd6, wd7, yd7, za7, zc3, zc7, zd4, zd6")
    );
}

#[test]
fn g9_emperor_in_the_gateway() {
    let p = pos("W: Ewb3. B: Ezb10. White to move.");
    assert_eq!(
        targets(&p, "wb3"),
        sorted(
            "vb2, vb3, vb4, vc2, vc3, vc4, wb2, wb4, wc2, wc3, wc4, xb2, xb3, xb4, xc2, xc3, xc4"
        )
    );
}

#[test]
fn g10_quantum_king_steps() {
    let p = pos("W: Kx1. B: Ezb10. White to move.");
    assert_eq!(all_moves(&p), sorted("K>w1, K>w2, K>x2, K>y1, K>y2"));
    let p = pos("W: Kv2. B: Ezb10. White to move.");
    assert_eq!(all_moves(&p), sorted("K>v1, K>w1, K>w2"));
}

#[test]
fn g11_one_threat_forces_transformation() {
    let p = pos("W: Kx1. B: Rxb6, Ezb10. White to move.");
    assert_eq!(all_moves(&p), sorted("T@xa1, T@xc1, T@xd1"));
    assert!(p.in_check());
    assert_eq!([1, 2, 3].map(|d| perft(&p, d)), [3, 81, 951], "G11 perft");
    let mut q = p;
    q.play_text("T@xa1").unwrap();
    assert!(!q.has_quantum_king(Color::White));
    assert_eq!(
        q.to_text(),
        "4/4/2/4/4/4/4/2/4/4|4/4/2/4/4/4/4/2/4/4|4/4/2/4/1r2/4/4/2/4/E3|\
         4/4/2/4/4/4/4/2/4/4|1e2/4/2/4/4/4/4/2/4/4 b 0 1"
    );
    assert_eq!(q.halfmove_clock(), 0);
}

#[test]
fn g12_two_threats() {
    let p = pos("W: Kx1. B: Rva1, Nxb3, Ezb10. White to move.");
    assert_eq!(all_moves(&p), sorted("T@xb1, T@xd1"));
}

#[test]
fn g13_parrying_is_not_allowed() {
    let p = pos("W: Kx1, Rwb6. B: Rxb6, Ezb10. White to move.");
    assert_eq!(all_moves(&p), sorted("T@xa1, T@xc1, T@xd1"));
}

#[test]
fn g14_checkmate_of_the_quantum_king() {
    let p = pos("W: Kx1. B: Gyb2, Rvd1, Ezb10. White to move.");
    assert_eq!(all_moves(&p), Vec::<String>::new());
    assert!(p.in_check());
    assert_eq!(
        outcome(&p, &[]),
        Some(Outcome::Decisive {
            winner: Color::Black,
            reason: Termination::Checkmate
        })
    );
}

#[test]
fn g15_no_valid_move_retaining_the_quantum_king() {
    let p = pos("W: Kx1 (no other White piece). B: Rwb6, Ryb6, Nxc4, Ezb10. White to move.");
    assert!(!p.in_check());
    assert_eq!(all_moves(&p), sorted("T@xa1, T@xb1, T@xc1, T@xd1"));
    assert_eq!([1, 2, 3].map(|d| perft(&p, d)), [4, 228, 2158], "G15 perft");
}

#[test]
fn g16_pinned_piece() {
    let p = pos("W: Kx1, Nxb2. B: Rxb6, Ezb10. White to move.");
    assert_eq!(targets(&p, "xb2"), Vec::<String>::new());
    assert_eq!(all_moves(&p), sorted("K>w1, K>w2, K>y1, K>y2"));
}

#[test]
fn g17_knight_passing_between_quantum_king_cells() {
    let p = pos("W: Kx1, Nwa1. B: Ezb10. White to move.");
    assert_eq!(targets(&p, "wa1"), sorted("vc1, wc2, ya2, yb1"));
    let p = pos("W: Kx1, Nwa2. B: Ezb10. White to move.");
    assert_eq!(targets(&p, "wa2"), sorted("vc2, wc1, xc2, ya1, yb2"));
}

#[test]
fn g18_quantum_king_capture_and_safety() {
    let p = pos("W: Kx1. B: Uxa2, Uxd2, Ezb10. White to move.");
    assert!(!p.in_check());
    assert_eq!(all_moves(&p), sorted("K>x2, K>w2, K>y2"));
    let mut q = p;
    q.play_text("K>x2").unwrap();
    assert_eq!(q.material()[1][3], 0, "both Unicorns are captured");
    assert_eq!(q.halfmove_clock(), 0);
    assert_eq!([1, 2, 3].map(|d| perft(&p, d)), [3, 41, 163], "G18 perft");
}

#[test]
fn g19_emperor_next_to_an_enemy_quantum_king() {
    let p = pos("W: Kx1. B: Exb3. Black to move.");
    assert_eq!(
        targets(&p, "xb3"),
        sorted("wb3, wb4, wc3, wc4, xb4, xc3, xc4, yb3, yb4, yc3, yc4")
    );
    assert_eq!([1, 2, 3].map(|d| perft(&p, d)), [11, 44, 880], "G19 perft");
}

#[test]
fn g20_pawns() {
    let p = pos("W: Pwa7, Eza1. B: Nwb8, Eva10. White to move.");
    assert_eq!(targets(&p, "wa7"), Vec::<String>::new());
    let p = pos("W: Pwb7, Eza1. B: Nwc8, Nvb8, Nxb8, Eva10. White to move.");
    assert_eq!(targets(&p, "wb7"), sorted("wb8, vb8, wc8, xb8"));
    let p = pos("W: Pxc9, Eza1. B: Nxd10, Eva10. White to move.");
    let promos: Vec<String> = all_moves(&p)
        .into_iter()
        .filter(|m| m.starts_with("xc9"))
        .collect();
    let mut expected = Vec::new();
    for to in ["xc10", "xd10"] {
        for l in "rbuqdgnsjcmo".chars() {
            expected.push(format!("xc9{to}{l}"));
        }
    }
    expected.sort();
    assert_eq!(promos, expected);
    let mut q = p;
    q.play_text("xc9xd10m").unwrap();
    assert_eq!(q.material()[0][11], 1, "a Samurai");
    assert_eq!(q.material()[0][0], 0, "no Pawn");
}

#[test]
fn g21_black_pawn_at_its_gateway() {
    let p = pos("W: Ryb7, Ryd7, Nxc7, Eza1. B: Pyc8, Eva10. Black to move.");
    assert_eq!(targets(&p, "yc8"), sorted("yc7, yb7, xc7"));
}

#[test]
fn g22_lines_that_do_not_give_check() {
    let p = pos("W: Bwc7, Nwb7, Eza1. B: Ewa9. Black to move.");
    assert!(!p.in_check());
    assert_eq!(
        targets(&p, "wa9"),
        sorted("va9, va10, vb10, wa10, wb9, wb10, xa9, xa10, xb10")
    );
}

#[test]
fn list_and_compact_forms_agree_and_round_trip() {
    let texts = [
        "W: Kx1, Bwa4. B: Ezb10. White to move.",
        "W: Kx1. B: Exb3. Black to move.",
        "W: Pxc9, Eza1. B: Nxd10, Eva10. White to move.",
        "W: Kv2, Qwb5, Pzc7. B: Kz10, Oxa6, Pvb4. Black to move.",
    ];
    for t in texts {
        let p = pos(t);
        let text = p.to_text();
        let q = pos(&text);
        assert_eq!(p, q, "{t}");
        assert_eq!(q.to_text(), text);
    }
    // Along random games too.
    let mut rng = SplitMix64(46);
    let mut p = Gateway::start();
    for _ in 0..300 {
        let moves = all_moves(&p);
        if moves.is_empty() {
            break;
        }
        let m = &moves[(rng.next() % moves.len() as u64) as usize];
        p.play_text(m).unwrap();
        let q = pos(&p.to_text());
        assert_eq!(q, p);
        assert_eq!(q.to_text(), p.to_text());
    }
}

#[test]
fn bad_texts_are_located_errors() {
    let start = START.to_string();
    let syntax = [
        ("", 1),
        (" w", 1),
        ("4/4/2 w", 6),
        (&start.replacen("ommo", "ommoo", 1), 5),
        (&start.replacen("ommo", "omXo", 1), 3),
        (&start.replacen("/pp/", "/ppp/", 1), 13),
        (
            &start.replacen(" w ", " x ", 1),
            start.find(" w").unwrap() + 2,
        ),
        (&start.replacen(" 0 1", " 0", 1), start.len() - 1),
        (&start.replacen(" 0 1", " 0 0", 1), start.len()),
        (&start.replacen(" 0 1", " 0 1 x", 1), start.len() + 2),
        (&start.replacen(" 0 1", " -1 1", 1), start.len() - 2),
        ("W: Kx1, Bwa3. B: Ezb10. White to move.", 10),
        ("W: Kx1, Xwa4. B: Ezb10. White to move.", 9),
        ("W: Kx3. B: Ezb10. White to move.", 5),
        ("W: Kx1. B: Ezb10. Red to move.", 19),
        ("W: Kx1. B: Ezb10", 17),
        ("W: Kx1, . B: Ezb10. White to move.", 9),
    ];
    let mut bad = Vec::new();
    for (t, col) in syntax {
        match Gateway::from_text(t) {
            Err(PositionError::Syntax { column, .. }) if column == col => {}
            other => bad.push(format!("{t:?} {col}: {other:?}")),
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let setup = [
        "W: Kx1. B: Ezb10, Ezb9. White to move.",
        "W: Kx1, Eza5. B: Ezb10. White to move.",
        "W: Bwa4. B: Ezb10. White to move.",
        "W: Kx1, Pxa10. B: Ezb10. White to move.",
        "W: Kx1, Bxb1. B: Ezb10. White to move.",
        "W: Kx1. B: Rxb6, Ezb10. Black to move.",
        "W: Kx2. B: Kx2. White to move.",
        &START.replacen("KKKK", "KK2", 1),
        &START.replacen("4/PP/BJJB", "K3/PP/BJJB", 1),
    ];
    for t in setup {
        assert!(
            matches!(Gateway::from_text(t), Err(PositionError::Setup(_))),
            "{t:?}: {:?}",
            Gateway::from_text(t)
        );
    }
}

#[test]
fn garbage_never_panics() {
    let mut rng = SplitMix64(7);
    let alphabet: Vec<char> = "KkEePpRrQqNn1234567/| wb0-:.,WB#xyzvabcdé"
        .chars()
        .collect();
    for len in 0..80 {
        for _ in 0..60 {
            let s: String = (0..len)
                .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
                .collect();
            let _ = Gateway::from_text(&s);
            let _ = Gateway::from_text(&format!("W: {s}"));
        }
    }
    // Mutations of valid texts.
    let base = START.as_bytes().to_vec();
    for i in 0..base.len() {
        for b in [b'K', b'1', b'/', b'|', b' ', b'p', b'4'] {
            let mut t = base.clone();
            t[i] = b;
            let _ = Gateway::from_text(std::str::from_utf8(&t).unwrap());
        }
    }
}

#[test]
fn incremental_hash_matches_and_repetition_is_seen() {
    let mut p = Gateway::start();
    let h0 = p.hash();
    for m in ["vb2vc4", "vb9vc7", "vc4vb2", "vc7vb9"] {
        p.play_text(m).unwrap();
        assert_eq!(p.hash(), pos(&p.to_text()).hash());
    }
    assert_eq!(p.hash(), h0);
    let q = pos("W: Kx1. B: Ezb10. White to move.");
    let r = pos("W: Kx1. B: Ezb10. Black to move.");
    assert_ne!(q.hash(), r.hash());
    let s = pos("W: Kw1. B: Ezb10. White to move.");
    assert_ne!(q.hash(), s.hash());
}

#[test]
fn stalemate_and_dead_positions() {
    // The Queen covers every neighbour of va10 but not va10 itself (no triagonal move); the
    // Rook guards the Queen.
    let p = pos("W: Rwb7, Qwb9, Eza1. B: Eva10. Black to move.");
    assert!(!p.in_check());
    assert_eq!(all_moves(&p), Vec::<String>::new());
    assert_eq!(
        outcome(&p, &[]),
        Some(Outcome::Draw {
            reason: Termination::Stalemate
        })
    );
    let bare = pos("W: Eza1. B: Ezb10. White to move.");
    assert!(bare.insufficient_material());
    let bare = pos("W: Kx1. B: Ezb10. White to move.");
    assert!(bare.insufficient_material());
    assert!(!Gateway::start().insufficient_material());
}

/// Whether a cell exists: closed form of the rules file, independent of the engine.
fn exists(f: i32, r: i32, l: i32) -> bool {
    (0..4).contains(&f)
        && (0..10).contains(&r)
        && (0..5).contains(&l)
        && !((f == 0 || f == 3) && (r == 2 || r == 7))
}

/// One-foot-in-the-grave, cell by cell.
fn box_ok(a: (i32, i32, i32), b: (i32, i32, i32)) -> bool {
    for f in a.0.min(b.0)..=a.0.max(b.0) {
        for r in a.1.min(b.1)..=a.1.max(b.1) {
            for l in a.2.min(b.2)..=a.2.max(b.2) {
                if !exists(f, r, l) {
                    return false;
                }
            }
        }
    }
    true
}

fn num(c: (i32, i32, i32)) -> Square {
    Square(((c.2 * 10 + c.1) * 4 + c.0) as u16)
}

fn slow_attacks(atoms: &[Atom], black: bool, from: (i32, i32, i32), occ: &[bool]) -> Vec<Square> {
    let mut out = Vec::new();
    for a in atoms.iter().filter(|a| a.modality.captures()) {
        let v = a.vector;
        let dr = if black { -v[1] } else { v[1] } as i32;
        let mut cur = from;
        loop {
            let next = (cur.0 + v[0] as i32, cur.1 + dr, cur.2 + v[2] as i32);
            if !exists(next.0, next.1, next.2) || !box_ok(cur, next) {
                break;
            }
            out.push(num(next));
            if a.range == 1 || occ[num(next).index()] {
                break;
            }
            cur = next;
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn compiled_tables_agree_with_a_slow_one_foot_walk() {
    let topo = topology();
    let at = attack_tables();
    let atoms = role_atoms();
    assert_eq!(topo.num_cells(), 180);
    let mut cells = Vec::new();
    for l in 0..5 {
        for r in 0..10 {
            for f in 0..4 {
                let sq = num((f, r, l));
                assert_eq!(topo.exists(sq), exists(f, r, l));
                if exists(f, r, l) {
                    cells.push((f, r, l));
                    let name = format!(
                        "{}{}{}",
                        (b'v' + l as u8) as char,
                        (b'a' + f as u8) as char,
                        r + 1
                    );
                    assert_eq!(topo.square_name(sq), name);
                }
            }
        }
    }
    let mut rng = SplitMix64(2007);
    for round in 0..12 {
        let mut occ_v = vec![false; 200];
        let mut occ = GatewayBb::EMPTY;
        for &c in &cells {
            if round > 0 && rng.next().is_multiple_of(5) {
                occ_v[num(c).index()] = true;
                occ.insert(num(c));
            }
        }
        for (r, a) in atoms.iter().enumerate() {
            for color in Color::ALL {
                for &c in &cells {
                    let got: Vec<Square> = at
                        .attacks(color, Role(r as u8), num(c), occ)
                        .squares()
                        .collect();
                    assert_eq!(
                        got,
                        slow_attacks(a, color == Color::Black, c, &occ_v),
                        "{} {color:?} at {:?}",
                        ROLES[r].name,
                        c
                    );
                }
            }
        }
    }
}

#[test]
fn move_list_capacity_bounds_every_position() {
    let at = attack_tables();
    let topo = topology();
    let mut most = 0;
    for r in 1..ROLES.len() {
        for sq in topo.cells() {
            most = most.max(
                at.attacks(Color::White, Role(r as u8), sq, GatewayBb::EMPTY)
                    .count() as usize,
            );
        }
    }
    let bound = 46 * most.max(5 * 12) + 26 + 8;
    assert!(
        bound <= GatewayMoves::default().capacity(),
        "{most} {bound}"
    );
}

/// Hand-checked exchanges with the default values (Pawn 100, Rook 500, Knight 300).
#[test]
fn static_exchanges_on_the_attack_tables() {
    let see = |text: &str, mv: &str| {
        let p = pos(text);
        let values: Vec<i32> = p.material_kinds().iter().map(|k| k.1).collect();
        p.see(p.parse_move(mv).expect("legal"), &values)
    };
    // An undefended Knight; then defended by a Pawn's diagonal capture (xc8 to xb7).
    assert_eq!(
        see("W: Ky1, Rxb2. B: Ky10, Nxb7. White to move.", "xb2xb7"),
        Some(300)
    );
    let defended = "W: Ky1, Rxb2. B: Ky10, Nxb7, Pxc8. White to move.";
    assert_eq!(see(defended, "xb2xb7"), Some(-200));
    // A second Rook behind the first joins in; Black still takes: 300 - 500 + 100.
    let xray = "W: Ky1, Rxb1, Rxb2. B: Ky10, Nxb7, Pxc8. White to move.";
    assert_eq!(see(xray, "xb2xb7"), Some(-100));
    // A Rook defends along the file, unless a Quantum King's row (x9) stands between.
    let rook = "W: Ky1, Rxb2. B: Ky10, Rxb10, Nxb7. White to move.";
    assert_eq!(see(rook, "xb2xb7"), Some(-200));
    let blocked = "W: Ky1, Rxb2. B: Kx9, Rxb10, Nxb7. White to move.";
    assert_eq!(see(blocked, "xb2xb7"), Some(300));
    // The Emperor recaptures only where nothing takes back.
    let emperor = "W: Exa1, Rxb2. B: Exc8, Nxb7. White to move.";
    assert_eq!(see(emperor, "xb2xb7"), Some(-200));
    let guarded = "W: Exa1, Rxb1, Rxb2. B: Exc8, Nxb7. White to move.";
    assert_eq!(see(guarded, "xb2xb7"), Some(300));
    // A Quantum King's step has no exchange.
    let p = pos("W: Ky1, Rxb2. B: Ky10, Nxb7. White to move.");
    let step = p.parse_move("K>y2").expect("legal");
    assert_eq!(p.see(step, &[0; 15]), None);
}
