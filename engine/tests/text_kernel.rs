//! The position-text kernel of the free-form variants (`variants::text`): every variant's
//! start, bench and played positions round-trip through it, each variant keeps its own
//! strictness (spacing, runs, counters), and the piece lists read both header spellings.

use variantlab_engine::game::random_move;
use variantlab_engine::geometry::Topology;
use variantlab_engine::variants::dai_mitregi::{DaiMitregi, DaiMitregiStepping};
use variantlab_engine::variants::dialectic::{Dialectic, DialecticHegelian};
use variantlab_engine::variants::extreme2d::{Extreme2d, Extreme2dSimple};
use variantlab_engine::variants::gateway::{self, Gateway};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::{Game, PositionError};

/// Text → position → text is the identity for the start, the bench positions (as
/// `selfplay`'s bench makes them: 8, 16, 24 and 32 seeded random plies) and every position of
/// a longer random game; the position read back has the same hash.
fn round_trips<G: Game>() {
    let mut positions = vec![G::start()];
    let mut rng = SplitMix64(0xbe9c);
    for target in [8, 16, 24, 32] {
        let mut pos = G::start();
        for _ in 0..target {
            let Some(m) = random_move(&pos, &mut rng) else {
                break;
            };
            pos.play_unchecked(m);
        }
        positions.push(pos);
    }
    let mut pos = G::start();
    for _ in 0..300 {
        let Some(m) = random_move(&pos, &mut rng) else {
            break;
        };
        pos.play_unchecked(m);
        positions.push(pos.clone());
    }
    for p in positions {
        let text = p.to_text();
        let back = G::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back.to_text(), text);
        assert_eq!(back.hash(), p.hash(), "{text}");
    }
}

#[test]
fn every_variant_round_trips_its_positions() {
    round_trips::<Dialectic>();
    round_trips::<DialecticHegelian>();
    round_trips::<Extreme2d>();
    round_trips::<Extreme2dSimple>();
    round_trips::<Gateway>();
    round_trips::<DaiMitregi>();
    round_trips::<DaiMitregiStepping>();
}

fn syntax_field<G: Game>(text: &str) -> &'static str {
    match G::from_text(text) {
        Err(PositionError::Syntax { field, .. }) => field,
        other => panic!(
            "{text:?}: expected a syntax error, got {:?}",
            other.map(|p| p.to_text())
        ),
    }
}

fn reads_as<G: Game>(text: &str, written: &str) {
    let p = G::from_text(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(p.to_text(), written, "{text:?}");
}

#[test]
fn each_variant_keeps_its_spacing() {
    // Extreme 2D: any whitespace between fields, at either end too.
    let k = "K9/10/10/10/10/10/10/10/10/9k";
    reads_as::<Extreme2d>(&format!(" {k}\t b\n 3  7 "), &format!("{k} b 3 7"));
    // Dialectic: runs of spaces, but a tab is not a separator.
    let d = "4k3/8/8/8/8/8/8/4K3";
    reads_as::<Dialectic>(
        &format!("  {d}  w - -  0 1 T12A21 "),
        &format!("{d} w - - 0 1 T12A21"),
    );
    assert!(Dialectic::from_text(&format!("{d}\tw - - 0 1 T12A21")).is_err());
    // Gateway and Dai Mitregi: exactly one space between fields and none at the ends.
    let g = gateway::START;
    assert_eq!(
        syntax_field::<Gateway>(&g.replacen(" 0", "  0", 1)),
        "halfmove"
    );
    assert_eq!(syntax_field::<Gateway>(&format!("{g} ")), "end");
    assert_eq!(syntax_field::<Gateway>(&format!(" {g}")), "board");
    let m = "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15";
    reads_as::<DaiMitregi>(&format!("{m} w -"), &format!("{m} w -"));
    assert_eq!(syntax_field::<DaiMitregi>(&format!("{m} w - ")), "end");
    assert_eq!(syntax_field::<DaiMitregi>(&format!("{m}  w -")), "side");
    assert_eq!(syntax_field::<DaiMitregi>(&format!("{m}\tw -")), "board");
}

#[test]
fn each_variant_keeps_its_runs_of_empty_cells() {
    // Dialectic and Gateway: one digit per run, so `44` is two runs of four.
    reads_as::<Dialectic>(
        "4k3/44/8/8/8/8/8/4K3 w - - 0 1 T12A21",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 T12A21",
    );
    assert_eq!(
        syntax_field::<Dialectic>("4k3/08/8/8/8/8/8/4K3 w - - 0 1 T12A21"),
        "board"
    );
    let g = gateway::START;
    reads_as::<Gateway>(&g.replacen("/4/4/4/4/", "/13/22/31/4/", 1), g);
    assert_eq!(
        syntax_field::<Gateway>(&g.replacen("/4/4/4/4/", "/04/4/4/4/", 1)),
        "board"
    );
    // Extreme 2D and Dai Mitregi: one number, no leading zero, at most two digits.
    let e = "K9/10/10/10/10/10/10/10/10/9k w";
    assert_eq!(
        syntax_field::<Extreme2d>(&e.replacen("/10/", "/55/", 1)),
        "board"
    );
    assert_eq!(
        syntax_field::<Extreme2d>(&e.replacen("/10/", "/010/", 1)),
        "board"
    );
    let m = "15k/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w -";
    assert_eq!(
        syntax_field::<DaiMitregi>(&m.replacen("/16/", "/88/", 1)),
        "board"
    );
    assert_eq!(
        syntax_field::<DaiMitregi>(&m.replacen("/16/", "/016/", 1)),
        "board"
    );
    // Ranks are counted on every board: one too few or too many.
    assert_eq!(
        syntax_field::<Extreme2d>(&e.replacen("/10/", "/", 1)),
        "board"
    );
    assert_eq!(
        syntax_field::<Extreme2d>(&e.replacen("/10/", "/10/10/", 1)),
        "board"
    );
    assert_eq!(syntax_field::<Gateway>(&g.replacen('|', "/", 1)), "board");
    assert_eq!(
        syntax_field::<Gateway>(&g.replacen("/4/", "/4|4/", 1)),
        "board"
    );
}

#[test]
fn each_variant_keeps_its_counters() {
    // Dialectic: Rust's number syntax (a `+` too), below a million.
    let d = "4k3/8/8/8/8/8/8/4K3 w - -";
    reads_as::<Dialectic>(&format!("{d} +5 007 T12A21"), &format!("{d} 5 7 T12A21"));
    assert_eq!(
        syntax_field::<Dialectic>(&format!("{d} 1000000 1 T12A21")),
        "halfmove"
    );
    assert_eq!(
        syntax_field::<Dialectic>(&format!("{d} 0 0 T12A21")),
        "fullmove"
    );
    // Gateway: at most nine digits, no sign.
    let g = gateway::START.trim_end_matches(" 0 1");
    reads_as::<Gateway>(&format!("{g} 000000012 3"), &format!("{g} 12 3"));
    assert_eq!(
        syntax_field::<Gateway>(&format!("{g} 0000000012 3")),
        "halfmove"
    );
    assert_eq!(syntax_field::<Gateway>(&format!("{g} +1 3")), "halfmove");
    assert_eq!(syntax_field::<Gateway>(&format!("{g} 1 0")), "fullmove");
    // Extreme 2D: any number of digits up to the u32 range, no sign.
    let e = "K9/10/10/10/10/10/10/10/10/9k w";
    reads_as::<Extreme2d>(
        &format!("{e} 0000000000012 4294967295"),
        &format!("{e} 12 4294967295"),
    );
    assert_eq!(
        syntax_field::<Extreme2d>(&format!("{e} 1 4294967296")),
        "fullmove"
    );
    assert_eq!(syntax_field::<Extreme2d>(&format!("{e} +1 1")), "halfmove");
    assert_eq!(syntax_field::<Extreme2d>(&format!("{e} 1 0")), "fullmove");
}

/// Both piece-list spellings, `White:`/`Black:` and `W:`/`B:`, are read by both variants that
/// have the list form, mixed too (each used to read only its own).
#[test]
fn piece_lists_read_both_header_spellings() {
    let lists = [
        "White: Kh10, (rr)a1. Black: Kh8, Pc3. White to move.",
        "W: Kh10, (rr)a1. B: Kh8, Pc3. White to move.",
        "White to move. B: Kh8, Pc3. White: Kh10, (rr)a1.",
    ];
    let want = Extreme2d::from_text(lists[0]).unwrap().to_text();
    for text in &lists[1..] {
        let p = Extreme2d::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.to_text(), want, "{text}");
    }
    let lists = [
        "W: Kx1, Rwb5. B: Kz10, Nwc7, Ryc3. White to move.",
        "White: Kx1, Rwb5. Black: Kz10, Nwc7, Ryc3. White to move.",
        "Black: Kz10, Nwc7, Ryc3. White to move. W: Kx1 (a remark), Rwb5.",
    ];
    let want = Gateway::from_text(lists[0]).unwrap().to_text();
    for text in &lists[1..] {
        let p = Gateway::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.to_text(), want, "{text}");
    }
    // Each keeps its own punctuation: Gateway's lists end with a full stop and hold no empty
    // item, and both must be given; Extreme 2D's need neither.
    for text in [
        "White: Kx1. Black: Ezb10",
        "White: Kx1,, Rwb5. Black: Ezb10. White to move.",
        "White: Kx1. White to move.",
    ] {
        assert_eq!(syntax_field::<Gateway>(text), "pieces", "{text}");
    }
    reads_as::<Extreme2d>(
        "W: Ka1,, Pc3. White to move. B: Kj10",
        "9k/10/10/10/10/10/10/2P7/10/K9 w 0 1",
    );
    assert_eq!(
        syntax_field::<Extreme2d>("W: Ka1. W: Pc3. White to move."),
        "pieces"
    );
    assert_eq!(
        syntax_field::<Extreme2d>("W: Ka1. White to move. Black to move."),
        "side"
    );
}

#[test]
fn cell_and_row_names_come_from_the_topology() {
    let flat = Topology::rect(10, 10);
    let j10 = flat.parse_name("j10").unwrap();
    assert_eq!(flat.square_name(j10), "j10");
    // Position texts and moves take only the written form: no leading zero.
    assert_eq!(flat.parse_name("a01"), None);
    assert_eq!(flat.parse_square("a01"), flat.parse_name("a1"));
    assert_eq!(flat.parse_name("k1"), None);
    assert_eq!(flat.parse_name("a11"), None);
    let g = gateway::topology();
    let xb4 = g.parse_name("xb4").unwrap();
    assert_eq!(g.square_name(xb4), "xb4");
    // Holes have names (the caller decides whether a cell must exist).
    assert!(!g.exists(g.parse_name("va3").unwrap()));
    assert_eq!(g.parse_row("x1"), Some((0, 2)));
    assert_eq!(g.parse_row("z10"), Some((9, 4)));
    assert_eq!(g.row_name(9, 4), "z10");
    for bad in ["x01", "x11", "u1", "x", "", "xa1"] {
        assert_eq!(g.parse_row(bad), None, "{bad}");
    }
    assert_eq!(flat.parse_row("7"), Some((6, 0)));
    assert_eq!(flat.row_name(6, 0), "7");
}
