//! Gateway Chess against the simple reference generator of `reference/gateway.rs`: legal move
//! texts and check status at every ply of seeded random games, from the start array and from
//! the rules file's test positions, plus the rules file's perft figures computed by the
//! reference.

mod common;

#[path = "reference/gateway.rs"]
mod reference_gateway;

use variantlab_engine::variants::gateway::Gateway;
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::Game;

use common::sorted_move_texts as engine_moves;

/// What the random games reached, so the test can insist the special rules were exercised.
#[derive(Default, Debug)]
struct Seen {
    plies: u64,
    checks: u64,
    transformations: u64,
    qk_steps: u64,
    qk_captures: u64,
    promotions: u64,
    mates: u64,
}

/// One random game: at each ply the engine and the reference must agree on the legal moves
/// and on check; the reference position is both played along and re-read from the engine's
/// text. Captures are preferred half of the time so that the game opens up.
fn play_game(start: &Gateway, rng: &mut SplitMix64, max_plies: usize, seen: &mut Seen) {
    let mut ours = *start;
    let mut theirs = reference_gateway::parse(&ours.to_text()).expect("reference parses");
    for _ in 0..max_plies {
        let text = ours.to_text();
        let reread = reference_gateway::parse(&text).expect("reference parses");
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
        if mine.is_empty() {
            seen.mates += ours.in_check() as u64;
            return;
        }
        if ours.halfmove_clock() >= 100 || ours.insufficient_material() {
            return;
        }
        let captures: Vec<&String> = mine
            .iter()
            .filter(|m| ours.is_tactical(ours.parse_move(m).unwrap()))
            .collect();
        let mv = if !captures.is_empty() && rng.next().is_multiple_of(2) {
            captures[(rng.next() % captures.len() as u64) as usize].clone()
        } else {
            mine[(rng.next() % mine.len() as u64) as usize].clone()
        };
        seen.transformations += mv.starts_with("T@") as u64;
        seen.qk_steps += mv.starts_with("K>") as u64;
        if mv.starts_with("K>") && captures.contains(&&mv) {
            seen.qk_captures += 1;
        }
        seen.promotions += mv.ends_with(|c: char| c.is_ascii_alphabetic()) as u64;
        ours.play_text(&mv).unwrap();
        theirs = theirs.play(&mv);
    }
}

#[test]
fn random_games_agree_with_the_reference() {
    let starts = [
        Gateway::start().to_text(),
        "W: Kx1, Bwa4. B: Ezb10. White to move.".to_string(),
        "W: Kx1. B: Uxa2, Uxd2, Ezb10. White to move.".to_string(),
        "W: Kx1. B: Rwb6, Ryb6, Nxc4, Ezb10. White to move.".to_string(),
        "W: Kx1, Qwb5, Rva5, Pxc7, Pyb8. B: Kz10, Oxa6, Gvc5, Pvb4, Pzc3. White to move."
            .to_string(),
        "W: Kv2, Nwb4, Sxc4, Jxb5, Pwb7. B: Kw9, Dxd6, Myb5, Pyc8, Pxc2. Black to move."
            .to_string(),
        "W: Pxc9, Pwb7, Eza1, Rza5. B: Nwc8, Nvb8, Eva10, Pyc4. White to move.".to_string(),
        "W: Kx1. B: Gyb2, Rvd1, Ezb10. White to move.".to_string(),
        "W: Kx1, Qxc5. B: Rva1, Nxb3, Ezb10. White to move.".to_string(),
        "W: Rwb7, Qwb9, Eza1. B: Eva10. Black to move.".to_string(),
    ];
    let mut rng = SplitMix64(1810);
    let mut seen = Seen::default();
    let games = 300;
    for game in 0..games {
        let text = &starts[game % starts.len()];
        let start = Gateway::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        play_game(&start, &mut rng, 150, &mut seen);
    }
    eprintln!("{seen:?}");
    assert!(seen.plies > 10_000, "{seen:?}");
    assert!(seen.checks > 100, "{seen:?}");
    assert!(seen.transformations > 50, "{seen:?}");
    assert!(seen.qk_steps > 200, "{seen:?}");
    assert!(seen.qk_captures > 0, "{seen:?}");
    assert!(seen.promotions > 0, "{seen:?}");
    assert!(seen.mates > 0, "{seen:?}");
}

#[test]
fn reference_perft_matches_the_rules_file() {
    let start = reference_gateway::parse(&Gateway::start().to_text()).unwrap();
    let counts: Vec<u64> = (1..=2).map(|d| start.perft(d)).collect();
    assert_eq!(counts, [30, 900]);
    for (text, expected) in [
        ("W: Kx1. B: Rxb6, Ezb10. White to move.", [3, 81, 951]),
        (
            "W: Kx1. B: Rwb6, Ryb6, Nxc4, Ezb10. White to move.",
            [4, 228, 2158],
        ),
        ("W: Kx1. B: Uxa2, Uxd2, Ezb10. White to move.", [3, 41, 163]),
        ("W: Kx1. B: Exb3. Black to move.", [11, 44, 880]),
    ] {
        let engine = Gateway::from_text(text).unwrap();
        let r = reference_gateway::parse(&engine.to_text()).unwrap();
        let counts: Vec<u64> = (1..=3).map(|d| r.perft(d)).collect();
        assert_eq!(counts, expected, "{text}");
    }
}
