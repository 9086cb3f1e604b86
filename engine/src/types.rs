//! Vocabulary types shared by every variant.

use std::ops::{Index, IndexMut, Not};

/// A cell number in a board's [`Topology`](crate::geometry::Topology).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash, Default)]
pub struct Square(pub u16);

impl Square {
    /// The cell number as an index into per-cell tables.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first in every implemented variant.
    White = 0,
    /// The second player.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `w` or `b`, as in FEN.
    pub fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The side a written piece letter belongs to: White's are upper case, Black's lower.
    #[inline]
    pub fn of_case(letter: char) -> Color {
        if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        }
    }

    /// An upper-case piece letter as this side writes it (Black's in lower case).
    #[inline]
    pub fn cased(self, letter: char) -> char {
        match self {
            Color::White => letter,
            Color::Black => letter.to_ascii_lowercase(),
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

/// A piece kind, as an index into the variant's piece list.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Role(pub u8);

impl Role {
    /// The role as an index into per-role tables.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A coloured piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub role: Role,
}

impl Piece {
    /// The mailbox code of this piece: never 0, which marks an empty cell.
    #[inline]
    pub fn code(self) -> u8 {
        1 + self.role.0 * 2 + self.color as u8
    }

    /// The piece a non-zero mailbox code stands for.
    #[inline]
    pub fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            return None;
        }
        let c = code - 1;
        let color = if c & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece {
            color,
            role: Role(c >> 1),
        })
    }
}

/// One value per colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        &self.0[c as usize]
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c as usize]
    }
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// The given side won.
    Decisive {
        /// The winner.
        winner: Color,
        /// Why.
        reason: Termination,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: Termination,
    },
}

/// Why a game ended, as recorded in statistics.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Termination {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// A position occurred as often as the repetition rule allows (the third time in chess).
    Repetition,
    /// The move-count rule (50 moves by each side without progress).
    MoveRule,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A variant's own end condition.
    VariantEnd,
}

impl Termination {
    /// The snake_case name used in CSV files.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::MoveRule => "move_rule",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::VariantEnd => "variant_end",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip_and_avoid_zero() {
        for role in 0..100u8 {
            for color in Color::ALL {
                let p = Piece {
                    color,
                    role: Role(role),
                };
                assert_ne!(p.code(), 0);
                assert_eq!(Piece::from_code(p.code()), Some(p));
            }
        }
        assert_eq!(Piece::from_code(0), None);
    }
}
