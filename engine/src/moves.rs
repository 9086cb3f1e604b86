//! Moves: packed into 32 bits for every implemented board.

use crate::{Role, Square};
use arrayvec::ArrayVec;

/// What kind of move a [`Move`] is; variant files may use the `Special*` kinds for their own
/// moves (token moves, placements, drops).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A move or capture.
    Normal = 0,
    /// A pawn's initial two-step move (sets the en passant cell).
    DoubleStep = 1,
    /// An en passant capture.
    EnPassant = 2,
    /// Castling, written as the King's move.
    Castle = 3,
    /// A move that ends in promotion to the move's role.
    Promotion = 4,
    /// A piece placed from outside the board (the role says which).
    Drop = 5,
    /// Gateway: the Quantum King steps to another row (`to` is a cell of that row).
    QuantumStep = 6,
    /// Gateway: the Quantum King transforms into an Emperor on `to`.
    Transform = 7,
    /// Extreme 2D: a side's first turn, the King placed on `from` and the Heir on `to`.
    RoyalPlacement = 8,
    /// Extreme 2D: the King on `from` and the Heir on `to` swap their top discs.
    RoyalSwap = 9,
    /// Dialectic: the Thesis token steps to the dialectic cell `to`.
    ThesisStep = 10,
    /// Dialectic: the Antithesis token steps to the dialectic cell `to`.
    AntithesisStep = 11,
    /// Hegelian Dialectic: both tokens, sharing a cell, step together to `to` (the
    /// Synthesis).
    SynthesisStep = 12,
}

impl MoveKind {
    /// The special rule a move of this kind uses, as the rule-usage table names it
    /// ([`crate::game::RuleUse`]); `None` for an ordinary move or capture and a pawn's double
    /// step.
    pub fn rule_name(self) -> Option<&'static str> {
        match self {
            MoveKind::Normal | MoveKind::DoubleStep => None,
            MoveKind::EnPassant => Some("en passant"),
            MoveKind::Castle => Some("castling"),
            MoveKind::Promotion => Some("promotion"),
            MoveKind::Drop => Some("drop"),
            MoveKind::QuantumStep => Some("quantum king step"),
            MoveKind::Transform => Some("transformation"),
            MoveKind::RoyalPlacement => Some("royal placement"),
            MoveKind::RoyalSwap => Some("king-heir swap"),
            MoveKind::ThesisStep => Some("thesis step"),
            MoveKind::AntithesisStep => Some("antithesis step"),
            MoveKind::SynthesisStep => Some("synthesis"),
        }
    }

    /// Every kind, indexed by its code; the codes 13 to 15 are unused and read as `Normal`
    /// (only a corrupt table entry could hold one, and a table move is checked against the
    /// legal moves before it is played).
    const ALL: [MoveKind; 16] = [
        MoveKind::Normal,
        MoveKind::DoubleStep,
        MoveKind::EnPassant,
        MoveKind::Castle,
        MoveKind::Promotion,
        MoveKind::Drop,
        MoveKind::QuantumStep,
        MoveKind::Transform,
        MoveKind::RoyalPlacement,
        MoveKind::RoyalSwap,
        MoveKind::ThesisStep,
        MoveKind::AntithesisStep,
        MoveKind::SynthesisStep,
        MoveKind::Normal,
        MoveKind::Normal,
        MoveKind::Normal,
    ];
}

/// A move: from (10 bits), to (10 bits), kind (4 bits), role (8 bits: the promotion or drop
/// role). 1024 cell numbers cover every board here, the largest being 256 cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct Move(u32);

impl Move {
    /// Packs a move.
    #[inline]
    pub fn new(from: Square, to: Square, kind: MoveKind, role: Role) -> Move {
        debug_assert!(from.0 < 1024 && to.0 < 1024);
        Move(from.0 as u32 | (to.0 as u32) << 10 | (kind as u32) << 20 | (role.0 as u32) << 24)
    }

    /// A plain move or capture.
    #[inline]
    pub fn normal(from: Square, to: Square) -> Move {
        Move::new(from, to, MoveKind::Normal, Role(0))
    }

    /// Origin cell.
    #[inline]
    pub fn from(self) -> Square {
        Square((self.0 & 0x3ff) as u16)
    }

    /// Destination cell.
    #[inline]
    pub fn to(self) -> Square {
        Square(((self.0 >> 10) & 0x3ff) as u16)
    }

    /// Kind.
    #[inline]
    pub fn kind(self) -> MoveKind {
        MoveKind::ALL[((self.0 >> 20) & 0xf) as usize]
    }

    /// Promotion or drop role (meaningful for those kinds only).
    #[inline]
    pub fn role(self) -> Role {
        Role((self.0 >> 24) as u8)
    }

    /// The raw 32-bit value (stored in transposition tables).
    #[inline]
    pub fn raw(self) -> u32 {
        self.0
    }

    /// A move from its raw value.
    #[inline]
    pub fn from_raw(raw: u32) -> Move {
        Move(raw)
    }
}

/// A stack-allocated move list. Its capacity is the variant's: callers pick one large enough
/// for the variant's most mobile position (218 legal moves is the known chess maximum).
pub trait MoveBuf: Default + Clone + AsRef<[Move]> + Send {
    /// Appends a move.
    fn push(&mut self, m: Move);
    /// Empties the list.
    fn clear(&mut self);
    /// Number of moves.
    fn len(&self) -> usize {
        self.as_ref().len()
    }
    /// Whether the list is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Keeps the moves from index `start` on for which `keep` holds (those before stay).
    fn retain_from(&mut self, start: usize, keep: impl FnMut(Move) -> bool);
}

impl<const N: usize> MoveBuf for ArrayVec<Move, N> {
    #[inline]
    fn push(&mut self, m: Move) {
        ArrayVec::push(self, m)
    }
    #[inline]
    fn clear(&mut self) {
        ArrayVec::clear(self)
    }
    fn retain_from(&mut self, start: usize, mut keep: impl FnMut(Move) -> bool) {
        let mut i = 0;
        ArrayVec::retain(self, |m| {
            i += 1;
            i <= start || keep(*m)
        });
    }
}

/// The move list of the 8x8-sized variants: 256 exceeds the chess maximum of 218.
pub type MoveList = ArrayVec<Move, 256>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_is_four_bytes_and_round_trips() {
        assert_eq!(std::mem::size_of::<Move>(), 4);
        for kind in MoveKind::ALL {
            let m = Move::new(Square(1023), Square(517), kind, Role(255));
            assert_eq!(
                (m.from(), m.to(), m.kind(), m.role()),
                (Square(1023), Square(517), kind, Role(255))
            );
            assert_eq!(Move::from_raw(m.raw()), m);
        }
    }
}
