//! Extreme 2D Chess against the simple reference generator of `reference/extreme2d.rs`:
//! legal move texts and check status at every ply of seeded random games, from the start
//! array and from the rules file's test positions, plus perft on a few of them; the same for
//! the simple-powers form (`extreme-2d-simple`, one disc of each colour per stack) against the
//! reference with that cap.

mod common;

#[path = "reference/extreme2d.rs"]
mod reference_x2d;

use variantlab_engine::variants::extreme2d::{Extreme2d, Extreme2dPos, Extreme2dSimple};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::Game;

use common::sorted_move_texts as engine_moves;

/// What the random games reached, so the test can insist the rare rules were exercised.
#[derive(Default, Debug)]
struct Seen {
    plies: u64,
    checks: u64,
    swaps: u64,
    promotions: u64,
    double_discs: u64,
    royal_powers: u64,
    /// Stacks of two or more power discs (counted per ply).
    mixed_stacks: u64,
}

/// One random game: at each ply the engine and the reference must agree on the legal moves
/// and on check; the reference position is both played along and re-read from the engine's
/// text. Captures are preferred a third of the time so stacks grow and rare rules show up.
fn play_game<const SIMPLE: bool>(
    start: &Extreme2dPos<SIMPLE>,
    rng: &mut SplitMix64,
    max_plies: usize,
    seen: &mut Seen,
) {
    let reference = |text: &str| {
        let r = reference_x2d::parse(text).expect("reference parses");
        if SIMPLE {
            r.simple()
        } else {
            r
        }
    };
    let mut ours = *start;
    let mut theirs = reference(&ours.to_text());
    for _ in 0..max_plies {
        let text = ours.to_text();
        let reread = reference(&text);
        assert_eq!(reread, theirs, "positions drifted at {text}");
        let mine = engine_moves(&ours);
        let refs = theirs.legal_moves();
        assert_eq!(mine, refs, "legal moves differ in {text}");
        assert_eq!(
            ours.in_check(),
            theirs.in_check(),
            "check differs in {text}"
        );
        seen.plies += 1;
        seen.checks += ours.in_check() as u64;
        if text.contains("rr") || text.contains("bb") || text.contains("yy") {
            seen.double_discs += 1;
        }
        if text.contains("[K") || text.contains("[k") {
            seen.royal_powers += 1;
        }
        seen.mixed_stacks += text
            .split('[')
            .skip(1)
            .filter(|s| s.split(']').next().is_some_and(|discs| discs.len() >= 3))
            .count() as u64;
        if mine.is_empty() || ours.halfmove_clock() >= 100 || ours.insufficient_material() {
            return;
        }
        let captures: Vec<&String> = mine
            .iter()
            .filter(|m| {
                let mut q = ours;
                q.play_text(m).unwrap();
                q.material() != ours.material()
            })
            .collect();
        let mv = if !captures.is_empty() && rng.next().is_multiple_of(3) {
            captures[(rng.next() % captures.len() as u64) as usize].clone()
        } else {
            mine[(rng.next() % mine.len() as u64) as usize].clone()
        };
        seen.swaps += mv.contains("<>") as u64;
        seen.promotions += mv.ends_with('h') as u64;
        ours.play_text(&mv).unwrap();
        theirs = theirs.play(&mv);
    }
}

#[test]
fn random_games_agree_with_the_reference() {
    let starts = [
        Extreme2d::start().to_text(),
        "White: Kh10, (rr)a1. Black: Kh8, Pc3. White to move.".to_string(),
        "White: Ka1, (bb)e5, Pf4, Pf5. Black: Kj9, Pe7, Pg5. White to move.".to_string(),
        "White: Ke1, H(rr)h5, Pc7, Pd8. Black: Ka10, (r)e8, (yy)g3, Pb3, Pi2. White to move."
            .to_string(),
        "White: Ka1, Ha3, Pc9, Pe9, Pg9, (rb)d4. Black: Kj8, Hc10, (b)g10, (ry)f6. White to move."
            .to_string(),
        "White: Kc1, Hh1, (rr)a1, (bb)d1, (yy)g1, Pa3, Pb3. Black: Kh10, Hc10, (rr)j10, (bb)g10, (yy)d10, Pj8, Pi8. White to move."
            .to_string(),
    ];
    let mut rng = SplitMix64(2008);
    let mut seen = Seen::default();
    for game in 0..480 {
        let text = &starts[game % starts.len()];
        let start = Extreme2d::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        play_game(&start, &mut rng, 200, &mut seen);
    }
    eprintln!("{seen:?}");
    assert!(seen.plies > 10_000, "{seen:?}");
    assert!(seen.checks > 100, "{seen:?}");
    assert!(seen.swaps > 0, "{seen:?}");
    assert!(seen.promotions > 0, "{seen:?}");
    assert!(seen.double_discs > 1000, "{seen:?}");
    assert!(seen.royal_powers > 0, "{seen:?}");
}

#[test]
fn reference_perft_matches_the_rules_file() {
    let start = reference_x2d::parse(&Extreme2d::start().to_text()).unwrap();
    let counts: Vec<u64> = (1..=4).map(|d| start.perft(d)).collect();
    assert_eq!(counts, [2, 4, 128, 4096]);
    for (text, expected) in [
        (
            "White: Kh10, (rr)a1. Black: Kh8, Pc3. White to move.",
            [38, 62, 2196],
        ),
        (
            "White: Kj1, (bb)b1. Black: Kj10, Pb2, Pe4. White to move.",
            [9, 39, 784],
        ),
        (
            "White: Ka1, (bb)e5, Pf4, Pf5. Black: Kj9, Pe7, Pg5. White to move.",
            [23, 136, 2962],
        ),
        (
            "White: Ka10, (yy)b1, Pd5. Black: Kj10, Pf3. White to move.",
            [8, 30, 402],
        ),
        (
            "White: Ka1, (rr)d4. Black: Kf6, Pg5. Black to move.",
            [2, 156, 566],
        ),
    ] {
        let engine = Extreme2d::from_text(text).unwrap();
        let r = reference_x2d::parse(&engine.to_text()).unwrap();
        let counts: Vec<u64> = (1..=3).map(|d| r.perft(d)).collect();
        assert_eq!(counts, expected, "{text}");
    }
}

/// The simple-powers form against the reference capped at one disc of a colour: random games
/// from the start and from positions with single discs ready to capture each other. No stack
/// ever holds two discs of a colour, yet stacks do absorb other colours.
#[test]
fn simple_random_games_agree_with_the_reference() {
    let starts = [
        Extreme2dSimple::start().to_text(),
        "White: Ka1, (r)d4. Black: Kj10, (r)d8. White to move.".to_string(),
        "White: Ka1, (b)c3, (y)e2, Pf4. Black: Kj10, (b)f6, (y)g7, Pe7. White to move.".to_string(),
        "White: Ke1, H(r)h5, Pc7, Pd8. Black: Ka10, (r)e8, (y)g3, Pb3, Pi2. White to move."
            .to_string(),
        "White: Kc1, Hh1, (r)a1, (b)d1, (y)g1, Pa3, Pb3. Black: Kh10, Hc10, (r)j10, (b)g10, (y)d10, Pj8, Pi8. White to move."
            .to_string(),
    ];
    let mut rng = SplitMix64(2026);
    let mut seen = Seen::default();
    for game in 0..240 {
        let text = &starts[game % starts.len()];
        let start = Extreme2dSimple::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        play_game(&start, &mut rng, 200, &mut seen);
    }
    eprintln!("{seen:?}");
    assert!(seen.plies > 5_000, "{seen:?}");
    assert!(seen.checks > 50, "{seen:?}");
    assert!(seen.swaps > 0, "{seen:?}");
    assert!(seen.promotions > 0, "{seen:?}");
    assert_eq!(seen.double_discs, 0, "{seen:?}");
    assert!(seen.mixed_stacks > 1000, "{seen:?}");
}

/// The figures of `data/perft/extreme-2d-simple.perft`, counted by the reference with the cap
/// of one disc per colour (the start to depth 5; depth 6 is the ignored test below).
#[test]
fn reference_perft_matches_the_simple_suite() {
    let start = reference_x2d::parse(&Extreme2dSimple::start().to_text())
        .unwrap()
        .simple();
    let counts: Vec<u64> = (1..=5).map(|d| start.perft(d)).collect();
    assert_eq!(counts, [2, 4, 128, 4096, 137_200]);
    for (text, expected) in [
        (
            "White: Ka1, (r)d4. Black: Kj10, (r)d8. White to move.",
            [19, 334, 6229, 116_055],
        ),
        (
            "White: Ka1, (y)c3. Black: Kj10, (y)d5. White to move.",
            [11, 113, 989, 11_028],
        ),
        (
            "White: Ka1, (b)c3. Black: Kj10, (b)f6. White to move.",
            [7, 54, 527, 5839],
        ),
    ] {
        let engine = Extreme2dSimple::from_text(text).unwrap();
        let r = reference_x2d::parse(&engine.to_text()).unwrap().simple();
        let counts: Vec<u64> = (1..=4).map(|d| r.perft(d)).collect();
        assert_eq!(counts, expected, "{text}");
    }
}

/// The simple form's start-position perft(6) against the reference with the cap (slow: run
/// with `--ignored`).
#[test]
#[ignore]
fn simple_start_perft_6_agrees() {
    let engine = Extreme2dSimple::start();
    let r = reference_x2d::parse(&engine.to_text()).unwrap().simple();
    assert_eq!(r.perft(6), variantlab_engine::perft::perft(&engine, 6));
    assert_eq!(r.perft(6), 4_595_140);
}

/// The engine's start-position perft(6), beyond the rules file's figures, checked against the
/// reference (slow: run with `--ignored`).
#[test]
#[ignore]
fn start_perft_6_agrees() {
    let engine = Extreme2d::start();
    let r = reference_x2d::parse(&engine.to_text()).unwrap();
    assert_eq!(r.perft(6), variantlab_engine::perft::perft(&engine, 6));
    assert_eq!(r.perft(6), 4_595_140);
}
