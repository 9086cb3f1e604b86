//! Dialectic Chess (both forms): the engine against the mailbox reference generator
//! (`reference/dialectic.rs`, written from the rules file), at every ply of seeded random games.

mod common;

#[path = "reference/dialectic.rs"]
mod reference_dialectic;

use variantlab_engine::game::Game;
use variantlab_engine::variants::dialectic::{Dialectic, DialecticHegelian};
use variantlab_engine::zobrist::SplitMix64;

use common::sorted_move_texts as engine_moves;

fn random_games<G: Game>(hegelian: bool, games: u64, plies: usize) {
    for g in 0..games {
        let mut rng = SplitMix64(0xd1a1 + g + if hegelian { 1 << 32 } else { 0 });
        let mut p = G::start();
        let mut r = reference_dialectic::parse_form(&p.to_text(), hegelian).expect("start");
        for ply in 0..plies {
            let mine = engine_moves(&p);
            assert_eq!(mine, r.legal_moves(), "game {g} ply {ply}: {}", p.to_text());
            assert_eq!(
                p.in_check(),
                r.in_check(),
                "game {g} ply {ply}: {}",
                p.to_text()
            );
            // The text round-trips at every ply.
            let q = G::from_text(&p.to_text()).expect("reread");
            assert_eq!(q.to_text(), p.to_text());
            assert_eq!(q.hash(), p.hash());
            if mine.is_empty() {
                break;
            }
            // Favour token moves now and then, so long dialectic runs happen.
            let mv = &mine[(rng.next() % mine.len() as u64) as usize];
            p.play_text(mv).expect("legal");
            r = r.play(mv);
        }
    }
}

#[test]
fn basic_matches_reference() {
    random_games::<Dialectic>(false, 200, 120);
}

#[test]
fn hegelian_matches_reference() {
    random_games::<DialecticHegelian>(true, 200, 120);
}

#[test]
fn reference_perft_matches_spec() {
    let start = "rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1 T12A21";
    assert_eq!(
        reference_dialectic::parse(start).expect("start").perft(2),
        652
    );
    let h = reference_dialectic::parse_form(start, true).expect("start");
    assert_eq!(h.perft(2), 660);
    let dt7 = "g1h4k/1P6/3H4/1g6/8/8/8/4K3 w - - 0 1 T11A21";
    assert_eq!(reference_dialectic::parse(dt7).expect("dt7").perft(2), 523);
}
