//! Dream Chess 46 (Charles Gilman, 2007): `docs/rules/` (from the specification
//! `shared/rules/dream-chess-46.md`).
//!
//! An 8x8 board without the blocks f1–h3 and a6–c8, i.e. two 5x5 "supersquares" (a1–e5 for
//! White, d4–h8 for Black) overlapping in d4–e5. Every unit step, every Knight leap and every
//! unit step of a slide must have both ends in one supersquare: that rule lives entirely in
//! the topology ([`StepRule::SameRegion`]), so the compiled rays and leaps already obey it,
//! for moves and for check alike. Stewards (`mWcF`) replace Pawns and promote on the far edges
//! of the enemy supersquare, optionally, only to a type the side has lost. No castling, en
//! passant or double step.
//!
//! Decisions ([D]/[R] in the rules file): the corner pair removed and the start array are
//! reconstructions; the move-count rule is 50 moves by each side without a capture or a
//! promotion (Steward moves do not reset it); a promotion option arises on every Steward move
//! that ends on a promotion cell, including one along the edge.

use crate::bitboard::Bb64;
use crate::ends::EndValue;
use crate::geometry::{StepRule, Topology};
use crate::piece::PieceSpec;
use crate::position::Variant;
use crate::rules::{ClockRule, FenStyle, PromotionRule, RepetitionRule, Rules, VariantSpec};
use std::sync::OnceLock;

/// Marker type for Dream Chess 46.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Dream46;

/// The pieces of the rules file's table; values are starting estimates for the search
/// (Chatelaine ≈ Rook + Ferz, Primate ≈ Bishop + Wazir, Steward ≈ a Pawn that moves back).
const PIECES: [PieceSpec; 6] = [
    PieceSpec::new("steward", 'S', "mWcF", 100),
    PieceSpec::new("knight", 'N', "N", 280),
    PieceSpec::new("primate", 'P', "BW", 450),
    PieceSpec::new("chatelaine", 'C', "RF", 650),
    PieceSpec::new("queen", 'Q', "Q", 850),
    PieceSpec::new("king", 'K', "K", 0).royal(),
];

fn spec() -> VariantSpec {
    let box8 = Topology::rect(8, 8);
    let white_super = box8.rect_region(0, 4, 0, 4);
    let black_super = box8.rect_region(3, 7, 3, 7);
    let topology = box8
        .without(&["f1", "g1", "h1", "f2", "g2", "h2", "f3", "g3", "h3"])
        .without(&["a6", "b6", "c6", "a7", "b7", "c7", "a8", "b8", "c8"])
        .with_rule(StepRule::SameRegion(vec![white_super, black_super]));
    VariantSpec {
        name: super::VariantKind::Dream46.const_name(),
        title: "Dream Chess 46",
        rules_file: "docs/rules/dream-chess-46.md",
        topology,
        pieces: PIECES.to_vec(),
        start: "***scnpk/***sssqp/***3sn/SS4sc/CS4ss/NS3***/PQSSS***/KPNCS*** w 0 1",
        fen_style: FenStyle::Plain,
        double_step: None,
        promotion: Some(PromotionRule {
            pieces: &['S'],
            // The far edges of the enemy supersquare: for White rank 8 and file h of d4–h8,
            // for Black rank 1 and file a of a1–e5.
            zone: [
                vec!["d8", "e8", "f8", "g8", "h8", "h4", "h5", "h6", "h7"],
                vec!["a1", "b1", "c1", "d1", "e1", "a2", "a3", "a4", "a5"],
            ],
            choices: &['Q', 'C', 'P', 'N'],
            mandatory: false,
            only_lost: true,
        }),
        castling: Vec::new(),
        clock: ClockRule { reset_by: &[], promotion_resets: true },
        move_rule_plies: 100,
        repetition: RepetitionRule::THREEFOLD,
        stalemate: EndValue::Draw,
        insufficient_material: false,
        notes: &[
            "[R] board: the removed corners are f1-h3 and a6-c8 (the mirror choice plays the same)",
            "[R] setup: the start array is reconstructed (the original diagram is lost)",
            "[D] draws: threefold repetition; 50 moves each without capture or promotion",
            "[D] promotion: offered on every Steward move ending on a promotion cell, to a type the side has fewer of than at the start",
        ],
        // [V] decided games run past ply 400 (docs/decisions.md, self-play ply caps).
        max_plies: 600,
        end: crate::ends::EndRules::default(),
        drops: None,
        must_capture: false,
    }
}

impl Variant for Dream46 {
    type Bb = Bb64;
    type Cells = [u8; 64];
    type Roles = [Bb64; 6];
    const EMPTY_CELLS: [u8; 64] = [0; 64];
    const EMPTY_ROLES: [Bb64; 6] = [Bb64(0); 6];
    type Hands = [u8; 0];
    const EMPTY_HANDS: [u8; 0] = [];
    type Moves = crate::moves::MoveList;
    fn rules() -> &'static Rules<Bb64> {
        static RULES: OnceLock<Rules<Bb64>> = OnceLock::new();
        RULES.get_or_init(|| Rules::compile(spec()))
    }
}
