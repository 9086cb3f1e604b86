//! Dream Chess 46: the engine against the mailbox reference generator
//! (`reference/dream46.rs`, written from the rules file), at every ply of seeded random games.

mod common;

#[path = "reference/dream46.rs"]
mod reference_dream46;

use variantlab_engine::perft::perft;
use variantlab_engine::position::Position;
use variantlab_engine::variants::Dream46;
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::Game;

use common::sorted_move_texts as engine_moves;

#[test]
fn reference_agrees_with_the_rules_file_and_the_engine_on_perft() {
    let start = Position::<Dream46>::start();
    let r = reference_dream46::parse(&start.to_text()).unwrap();
    assert_eq!(r.legal_moves().len(), 13);
    for depth in 1..=3 {
        assert_eq!(r.perft(depth), perft(&start, depth), "depth {depth}");
    }
}

#[test]
fn random_games_agree_with_the_reference() {
    let mut rng = SplitMix64(46);
    let (mut plies, mut promotions, mut checks) = (0, 0, 0);
    for game in 0..1000 {
        let mut pos = Position::<Dream46>::start();
        for _ in 0..200 {
            let text = pos.to_text();
            let r = reference_dream46::parse(&text).unwrap();
            let moves = engine_moves(&pos);
            assert_eq!(moves, r.legal_moves(), "game {game}: {text}");
            assert_eq!(pos.is_check(), r.in_check(), "game {game}: check in {text}");
            checks += usize::from(r.in_check());
            if moves.is_empty() {
                break;
            }
            // Prefer captures and promotions half the time, so games reach the edges.
            let sharp: Vec<&String> = moves
                .iter()
                .filter(|m| m.len() == 5 || pos.piece_at(pos.parse_move(m).unwrap().to()).is_some())
                .collect();
            let pick = if !sharp.is_empty() && rng.next().is_multiple_of(2) {
                sharp[(rng.next() % sharp.len() as u64) as usize].clone()
            } else {
                moves[(rng.next() % moves.len() as u64) as usize].clone()
            };
            promotions += usize::from(pick.len() == 5);
            pos.play_text(&pick).unwrap();
            plies += 1;
        }
    }
    assert!(
        plies > 50_000 && promotions > 100 && checks > 1000,
        "{plies} plies, {promotions} promotions, {checks} checks"
    );
}
