//! Perft: counting the leaves of the legal-move tree, the standard test of move generation.

use crate::game::Game;
use crate::moves::{Move, MoveBuf};

/// Number of leaf nodes `depth` plies below `pos`. The last ply is counted in bulk (the length
/// of the legal move list), without playing the moves. A position the variant's own rules end
/// ([`Game::variant_outcome`]: a flag reached, the last check given) has no moves, as
/// Fairy-Stockfish counts.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.variant_outcome().is_some() {
        return 0;
    }
    let mut moves = G::Moves::default();
    pos.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &m in moves.as_ref() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        total += perft(&child, depth - 1);
    }
    total
}

/// Perft split by root move: each legal move with the leaf count below it, in generation
/// order.
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = G::Moves::default();
    if pos.variant_outcome().is_some() {
        return Vec::new();
    }
    pos.legal_moves(&mut moves);
    moves
        .as_ref()
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
