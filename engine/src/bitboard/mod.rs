//! Bitboards sized per board.
//!
//! One trait, three storages: [`Bb64`] for boards of at most 64 cells (chess, Dream Chess 46),
//! [`Bb128`] for at most 128 (Extreme 2D's 100) and [`BbWide`] for anything larger (Dai
//! Mitregi's 256 cells, Gateway's 3D board). Move generation is generic over the trait and
//! monomorphised per variant, so no variant pays for a wider board than its own.
//!
//! ```
//! use variantlab_engine::bitboard::{Bitboard, Bb64};
//! use variantlab_engine::Square;
//! let b = Bb64::from_square(Square(3)) | Bb64::from_square(Square(9));
//! assert_eq!(b.count(), 2);
//! assert_eq!(b.lsb(), Some(Square(3)));
//! assert_eq!(b.msb(), Some(Square(9)));
//! ```

mod b128;
mod b64;
mod wide;

pub use b128::Bb128;
pub use b64::Bb64;
pub use wide::BbWide;

use crate::Square;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells. Cell numbering is the topology's: rays are monotone in it, so "first
/// blocker" is the lowest or highest set bit of `ray & occupied` whatever the width.
pub trait Bitboard:
    Copy
    + Eq
    + Default
    + Debug
    + Hash
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const EMPTY: Self;
    /// How many cells this storage can hold.
    const CAPACITY: usize;
    /// The set holding one cell.
    fn from_square(sq: Square) -> Self;
    /// Whether `sq` is in the set.
    fn contains(self, sq: Square) -> bool;
    /// Lowest cell, if any.
    fn lsb(self) -> Option<Square>;
    /// Highest cell, if any.
    fn msb(self) -> Option<Square>;
    /// Number of cells.
    fn count(self) -> u32;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;

    /// Whether the set has at least one cell.
    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }
    /// Whether the set has two or more cells (double check, for example).
    #[inline]
    fn more_than_one(self) -> bool {
        self.count() > 1
    }
    /// Removes and returns the lowest cell.
    #[inline]
    fn pop_lsb(&mut self) -> Option<Square> {
        let sq = self.lsb()?;
        *self ^= Self::from_square(sq);
        Some(sq)
    }
    /// Adds one cell.
    #[inline]
    fn insert(&mut self, sq: Square) {
        *self |= Self::from_square(sq);
    }
    /// Removes one cell.
    #[inline]
    fn remove(&mut self, sq: Square) {
        *self &= !Self::from_square(sq);
    }
    /// Iterates the cells in increasing order.
    #[inline]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// Iterator over the cells of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<B>(B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        self.0.pop_lsb()
    }
}

/// Implements the operator traits for a newtype over an integer.
macro_rules! int_bitboard {
    ($name:ident, $int:ty, $bits:expr) => {
        impl std::ops::BitAnd for $name {
            type Output = Self;
            #[inline]
            fn bitand(self, o: Self) -> Self {
                $name(self.0 & o.0)
            }
        }
        impl std::ops::BitOr for $name {
            type Output = Self;
            #[inline]
            fn bitor(self, o: Self) -> Self {
                $name(self.0 | o.0)
            }
        }
        impl std::ops::BitXor for $name {
            type Output = Self;
            #[inline]
            fn bitxor(self, o: Self) -> Self {
                $name(self.0 ^ o.0)
            }
        }
        impl std::ops::Not for $name {
            type Output = Self;
            #[inline]
            fn not(self) -> Self {
                $name(!self.0)
            }
        }
        impl std::ops::BitAndAssign for $name {
            #[inline]
            fn bitand_assign(&mut self, o: Self) {
                self.0 &= o.0
            }
        }
        impl std::ops::BitOrAssign for $name {
            #[inline]
            fn bitor_assign(&mut self, o: Self) {
                self.0 |= o.0
            }
        }
        impl std::ops::BitXorAssign for $name {
            #[inline]
            fn bitxor_assign(&mut self, o: Self) {
                self.0 ^= o.0
            }
        }
        impl $crate::bitboard::Bitboard for $name {
            const EMPTY: Self = $name(0);
            const CAPACITY: usize = $bits;
            #[inline]
            fn from_square(sq: $crate::Square) -> Self {
                debug_assert!((sq.0 as usize) < $bits);
                $name((1 as $int) << sq.0)
            }
            #[inline]
            fn contains(self, sq: $crate::Square) -> bool {
                (self.0 >> sq.0) & 1 != 0
            }
            #[inline]
            fn lsb(self) -> Option<$crate::Square> {
                if self.0 == 0 {
                    None
                } else {
                    Some($crate::Square(self.0.trailing_zeros() as u16))
                }
            }
            #[inline]
            fn msb(self) -> Option<$crate::Square> {
                if self.0 == 0 {
                    None
                } else {
                    Some($crate::Square(($bits - 1 - self.0.leading_zeros()) as u16))
                }
            }
            #[inline]
            fn count(self) -> u32 {
                self.0.count_ones()
            }
            #[inline]
            fn is_empty(self) -> bool {
                self.0 == 0
            }
            #[inline]
            fn pop_lsb(&mut self) -> Option<$crate::Square> {
                if self.0 == 0 {
                    None
                } else {
                    let sq = self.0.trailing_zeros();
                    self.0 &= self.0 - 1;
                    Some($crate::Square(sq as u16))
                }
            }
        }
    };
}
pub(crate) use int_bitboard;

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: Bitboard>() {
        let cells = [
            0u16,
            1,
            63,
            (B::CAPACITY - 1) as u16,
            (B::CAPACITY / 2) as u16,
        ];
        let mut b = B::EMPTY;
        for &c in &cells {
            b.insert(Square(c));
        }
        let mut sorted: Vec<u16> = cells.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(b.count() as usize, sorted.len());
        assert_eq!(b.lsb(), Some(Square(sorted[0])));
        assert_eq!(b.msb(), Some(Square(*sorted.last().unwrap())));
        let got: Vec<u16> = b.squares().map(|s| s.0).collect();
        assert_eq!(got, sorted);
        for &c in &sorted {
            assert!(b.contains(Square(c)));
        }
        assert!(!b.contains(Square(2)));
        b.remove(Square(0));
        assert!(!b.contains(Square(0)));
        assert!((!B::EMPTY).count() as usize == B::CAPACITY);
        assert!(B::EMPTY.lsb().is_none() && B::EMPTY.msb().is_none());
        let x = B::from_square(Square(5)) ^ B::from_square(Square(5));
        assert!(x.is_empty());
    }

    #[test]
    fn all_storages_behave_alike() {
        exercise::<Bb64>();
        exercise::<Bb128>();
        exercise::<BbWide<4>>();
        exercise::<BbWide<3>>();
    }
}
