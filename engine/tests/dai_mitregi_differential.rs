//! Dai Mitregi (both forms) against the simple reference generator of
//! `reference/dai_mitregi.rs`: legal move texts and check status at every ply of seeded random
//! games, from the start array and from the rules file's test positions, plus the start
//! position's perft figures computed by the reference.

mod common;

#[path = "reference/dai_mitregi.rs"]
mod reference_dai;

use variantlab_engine::perft::perft;
use variantlab_engine::variants::dai_mitregi::{DaiMitregi, DaiMitregiMoves, DaiMitregiStepping};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::Game;

use common::sorted_move_texts as engine_moves;

/// What the random games reached, so the test can insist the special rules were exercised.
#[derive(Default, Debug)]
struct Seen {
    plies: u64,
    checks: u64,
    drops: u64,
    promotions: u64,
    mates: u64,
}

fn play_game<G: Game<Moves = DaiMitregiMoves>>(
    start: &G,
    stepping: bool,
    rng: &mut SplitMix64,
    max_plies: usize,
    seen: &mut Seen,
) {
    let mut ours = start.clone();
    let mut theirs =
        reference_dai::parse_form(&ours.to_text(), stepping).expect("reference parses");
    for _ in 0..max_plies {
        let text = ours.to_text();
        let reread = reference_dai::parse_form(&text, stepping).expect("reference parses");
        assert_eq!(reread, theirs, "positions drifted at {text}");
        let mine = engine_moves(&ours);
        let refs = theirs.legal_moves();
        assert_eq!(
            mine, refs,
            "legal moves differ in {text} (stepping {stepping})"
        );
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
        let mut list = DaiMitregiMoves::default();
        ours.legal_moves(&mut list);
        let tactical: Vec<_> = list
            .iter()
            .copied()
            .filter(|&m| ours.is_tactical(m))
            .collect();
        let pick = if !tactical.is_empty() && rng.next().is_multiple_of(2) {
            tactical[(rng.next() % tactical.len() as u64) as usize]
        } else {
            list[(rng.next() % list.len() as u64) as usize]
        };
        let t = ours.move_text(pick);
        seen.drops += t.contains('*') as u64;
        seen.promotions += t.ends_with('+') as u64;
        ours.play_unchecked(pick);
        theirs = theirs.play(&t);
    }
}

const POSITIONS: [&str; 6] = [
    "15k/16/16/16/16/16/16/6nZ8/7G8/16/16/16/16/16/16/K15 w [RBNz]",
    "15k/16/16/16/10e5/10NR4/10z1F3/16/16/16/16/16/16/16/16/K15 b [Ffuu]",
    "15k/16/16/16/16/16/16/7Zn7/6f+K8/16/16/16/16/16/16/16 w [Zz]",
    "8k7/16/16/16/4+Z11/16/16/4Z11/6B9/10E5/16/2E13/16/4Z11/4B11/7K8 w [ZHBE]",
    "16/16/16/16/16/16/7k8/6f9/5I10/16/16/16/16/16/16/K15 b [ooyy]",
    "8k7/1nmmccr3bbuun1/zzzzzzzzzzzzzzzz/ffffffffffffffff/16/16/16/16/16/16/16/16/FFFFFFFFFFFFFFFF/ZZZZZZZZZZZZZZZZ/1NUUBB3RCCMMN1/7K8 w [GSOOVAYEEIIWHwh]",
];

#[test]
fn random_games_agree_with_the_reference() {
    let mut rng = SplitMix64(2006);
    let mut seen = Seen::default();
    for g in 0..6 {
        play_game(
            &DaiMitregi::start(),
            false,
            &mut rng,
            80 + 30 * g,
            &mut seen,
        );
        play_game(
            &DaiMitregiStepping::start(),
            true,
            &mut rng,
            80 + 30 * g,
            &mut seen,
        );
    }
    for t in POSITIONS {
        play_game(
            &DaiMitregi::from_text(t).unwrap(),
            false,
            &mut rng,
            40,
            &mut seen,
        );
        play_game(
            &DaiMitregiStepping::from_text(t).unwrap(),
            true,
            &mut rng,
            40,
            &mut seen,
        );
    }
    eprintln!("{seen:?}");
    assert!(seen.plies > 2000, "{seen:?}");
    assert!(
        seen.checks > 0 && seen.drops > 0 && seen.promotions > 0,
        "{seen:?}"
    );
}

#[test]
fn reference_perft_matches_the_rules_file() {
    let l = reference_dai::parse(&DaiMitregi::start().to_text()).unwrap();
    let s = reference_dai::parse_stepping(&DaiMitregiStepping::start().to_text()).unwrap();
    assert_eq!(l.perft(1), 96);
    assert_eq!(s.perft(1), 80);
    assert_eq!(l.perft(2), perft(&DaiMitregi::start(), 2));
    assert_eq!(s.perft(2), perft(&DaiMitregiStepping::start(), 2));
}

#[test]
fn reference_perft_agrees_on_the_test_positions() {
    for t in POSITIONS {
        let l = reference_dai::parse(t).unwrap();
        let s = reference_dai::parse_stepping(t).unwrap();
        assert_eq!(
            l.perft(2),
            perft(&DaiMitregi::from_text(t).unwrap(), 2),
            "{t}"
        );
        assert_eq!(
            s.perft(2),
            perft(&DaiMitregiStepping::from_text(t).unwrap(), 2),
            "{t}"
        );
    }
}

/// The engine's depth-3 figures from the start (see `variants/dai_mitregi/`), recomputed by the
/// reference (several seconds).
#[test]
fn reference_perft_depth_3() {
    let l = reference_dai::parse(&DaiMitregi::start().to_text()).unwrap();
    let s = reference_dai::parse_stepping(&DaiMitregiStepping::start().to_text()).unwrap();
    assert_eq!(s.perft(3), 512_640);
    assert_eq!(l.perft(3), 883_872);
}
