//! Standard chess (FIDE), the calibration variant: its perft numbers and piece values are
//! published, so it checks the shared machinery that every other variant relies on.

use crate::bitboard::{Bb64, Bitboard};
use crate::ends::EndValue;
use crate::geometry::Topology;
use crate::piece::PieceSpec;
use crate::position::{Position, Variant};
use crate::rules::{
    CastlingSpec, ClockRule, DoubleStep, FenStyle, PromotionRule, RepetitionRule, Rules,
    VariantSpec,
};
use crate::Color;
use std::sync::OnceLock;

/// Marker type for standard chess.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Chess;

/// The FIDE pieces; values are the usual centipawn figures.
const PIECES: [PieceSpec; 6] = [
    PieceSpec::new("pawn", 'P', "fmWfcF", 100),
    PieceSpec::new("knight", 'N', "N", 305),
    PieceSpec::new("bishop", 'B', "B", 333),
    PieceSpec::new("rook", 'R', "R", 563),
    PieceSpec::new("queen", 'Q', "Q", 950),
    PieceSpec::new("king", 'K', "K", 0).royal(),
];

fn spec() -> VariantSpec {
    let castle = |right, color, king, rook| CastlingSpec {
        right,
        color,
        king,
        rook,
        rook_letter: 'R',
    };
    VariantSpec {
        name: super::VariantKind::Chess.const_name(),
        title: "Chess",
        rules_file: "docs/rules/chess.md",
        topology: Topology::rect(8, 8),
        pieces: PIECES.to_vec(),
        start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        fen_style: FenStyle::Chess,
        double_step: Some(DoubleStep {
            letter: 'P',
            ranks: [1, 6],
            en_passant: true,
            first_rank: [false; 2],
        }),
        promotion: Some(PromotionRule {
            pieces: &['P'],
            zone: [
                vec!["a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"],
                vec!["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"],
            ],
            choices: &['Q', 'R', 'B', 'N'],
            mandatory: true,
            only_lost: false,
        }),
        castling: vec![
            castle('K', Color::White, ("e1", "g1"), ("h1", "f1")),
            castle('Q', Color::White, ("e1", "c1"), ("a1", "d1")),
            castle('k', Color::Black, ("e8", "g8"), ("h8", "f8")),
            castle('q', Color::Black, ("e8", "c8"), ("a8", "d8")),
        ],
        clock: ClockRule {
            reset_by: &['P'],
            promotion_resets: true,
        },
        move_rule_plies: 100,
        repetition: RepetitionRule::THREEFOLD,
        stalemate: EndValue::Draw,
        insufficient_material: true,
        notes: &["nothing reconstructed: FIDE rules"],
        max_plies: super::DEFAULT_MAX_PLIES,
        end: crate::ends::EndRules::default(),
        drops: None,
        must_capture: false,
    }
}

impl Variant for Chess {
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

/// The FIDE dead positions that are cheap to recognise: bare Kings, King and one minor piece
/// against a bare King, and Kings with Bishops all on one colour of square.
pub(crate) fn dead_position<V: Variant>(pos: &Position<V>) -> bool {
    let rules = V::rules();
    let role = |c: char| rules.role_of_letter(c);
    let (Some(p), Some(n), Some(b), Some(r), Some(q)) =
        (role('P'), role('N'), role('B'), role('R'), role('Q'))
    else {
        return false;
    };
    if (pos.by_role(p) | pos.by_role(r) | pos.by_role(q)).any() {
        return false;
    }
    // Any other non-royal kind (a file variant's Archbishop, say) may still mate.
    let others = (0..rules.spec.pieces.len())
        .map(|i| crate::Role(i as u8))
        .filter(|&x| x != rules.king && x != n && x != b)
        .any(|x| pos.by_role(x).any());
    if others {
        return false;
    }
    let minors = pos.by_role(n) | pos.by_role(b);
    if minors.count() <= 1 {
        return true;
    }
    if pos.by_role(n).any() {
        return false;
    }
    let topo = &rules.spec.topology;
    let shade = |s: crate::Square| {
        let c = topo.coord(s);
        (c.file + c.rank) % 2
    };
    let mut bishops = pos.by_role(b).squares();
    let first = bishops.next().map(shade);
    bishops.all(|s| Some(shade(s)) == first)
}
