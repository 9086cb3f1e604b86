//! A feature sink that records the evaluation's pawn-structure, mobility, royal-zone and
//! threat calls of one position, for the tests that check them by hand (`eval.rs`,
//! `dai_mitregi/`). Each test file uses part of it.
#![allow(dead_code)]

use variantlab_engine::eval::{KindTerm, PawnDetails};
use variantlab_engine::{Color, Game};

/// The pawn-structure and threat calls of one position.
#[derive(Default)]
pub struct FeatureCalls {
    pub passed: Vec<(Color, usize)>,
    pub structure: Vec<(Color, u32, u32)>,
    pub threatened: Vec<(Color, usize, bool, u32)>,
    pub multiple: Vec<(Color, bool)>,
    pub mobility: Vec<(Color, usize, u32)>,
    pub king_attacks: Vec<(Color, u32)>,
    pub kind_terms: Vec<(Color, usize, KindTerm, u32)>,
    pub details: Vec<(Color, PawnDetails)>,
}

impl FeatureCalls {
    /// The calls `pos` makes.
    pub fn of<G: Game>(pos: &G) -> FeatureCalls {
        let mut calls = FeatureCalls::default();
        pos.eval_features(&mut calls);
        calls
    }

    /// The per-kind calls of `terms`, in the order made.
    pub fn kind_terms_of(&self, terms: &[KindTerm]) -> Vec<(Color, usize, KindTerm, u32)> {
        let mut t = self.kind_terms.clone();
        t.retain(|c| terms.contains(&c.2));
        t
    }

    /// The threatened-piece calls, White's first, by kind.
    pub fn threatened_by_side(&self) -> Vec<(Color, usize, bool, u32)> {
        let mut t = self.threatened.clone();
        t.sort_by_key(|&(c, k, _, _)| (c == Color::Black, k));
        t
    }
}

impl variantlab_engine::eval::FeatureSink for FeatureCalls {
    fn piece(&mut self, _: Color, _: usize, _: usize) {}
    fn mobility(&mut self, color: Color, kind: usize, cells: u32) {
        self.mobility.push((color, kind, cells));
    }
    fn king_attacks(&mut self, color: Color, attacks: u32) {
        self.king_attacks.push((color, attacks));
    }
    fn threatened(&mut self, color: Color, kind: usize, to_move: bool, count: u32) {
        self.threatened.push((color, kind, to_move, count));
    }
    fn multiple_threats(&mut self, color: Color, to_move: bool) {
        self.multiple.push((color, to_move));
    }
    fn king_danger(&mut self, _: Color, _: u32) {}
    fn in_hand(&mut self, _: Color, _: usize, _: u32) {}
    fn passed(&mut self, color: Color, rank: usize) {
        self.passed.push((color, rank));
    }
    fn pawn_structure(&mut self, color: Color, doubled: u32, isolated: u32) {
        self.structure.push((color, doubled, isolated));
    }
    fn kind_term(&mut self, color: Color, kind: usize, term: KindTerm, count: u32) {
        self.kind_terms.push((color, kind, term, count));
    }
    fn pawn_details(&mut self, color: Color, details: PawnDetails) {
        self.details.push((color, details));
    }
}
