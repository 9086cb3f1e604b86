//! Seeded random games for the tests that check a property on many positions of every
//! variant (included with `#[path = "common/random_games.rs"] mod random_games;`).
#![allow(dead_code)]

use variantlab_engine::game::{outcome, Game};
use variantlab_engine::zobrist::SplitMix64;
use variantlab_engine::Move;

/// The legal moves of `p`.
pub fn legal<G: Game>(p: &G) -> Vec<Move> {
    let mut m = G::Moves::default();
    p.legal_moves(&mut m);
    m.as_ref().to_vec()
}

/// Positions along `games` seeded random games of at most `plies` plies, half of the plies
/// a capture where one exists, so material comes off, pieces promote and royal pieces get
/// checked.
pub fn positions<G: Game>(seed: u64, games: usize, plies: usize) -> Vec<G> {
    let mut rng = SplitMix64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = G::start();
        for _ in 0..plies {
            let moves = legal(&p);
            if moves.is_empty() || outcome(&p, &[]).is_some() {
                break;
            }
            out.push(p.clone());
            let tactical: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| p.is_tactical(m))
                .collect();
            let pool = if !tactical.is_empty() && rng.next().is_multiple_of(2) {
                &tactical
            } else {
                &moves
            };
            p.play_unchecked(pool[(rng.next() % pool.len() as u64) as usize]);
        }
    }
    out
}
