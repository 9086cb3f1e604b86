//! Helpers shared by the integration tests (each test file that needs them says `mod common;`).

use variantlab_engine::Game;

/// The legal moves of `p` as move texts, sorted: the form in which the tests compare move
/// lists with the rules files and with the reference generators.
pub fn sorted_move_texts<G: Game>(p: &G) -> Vec<String> {
    let mut list = G::Moves::default();
    p.legal_moves(&mut list);
    let mut v: Vec<String> = list.as_ref().iter().map(|&m| p.move_text(m)).collect();
    v.sort();
    v
}
