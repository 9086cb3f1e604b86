//! Multi-word bitboards for boards beyond 128 cells.

use super::Bitboard;
use crate::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A bitboard of `W` 64-bit words: Dai Mitregi's 256 cells use `W = 4`, Gateway's 180 use
/// `W = 3`. Word 0 holds cells 0..64.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct BbWide<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for BbWide<W> {
    fn default() -> Self {
        BbWide([0; W])
    }
}

macro_rules! wide_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt, $aop:tt) => {
        impl<const W: usize> $tr for BbWide<W> {
            type Output = Self;
            #[inline]
            fn $f(self, o: Self) -> Self {
                let mut r = self.0;
                for (a, b) in r.iter_mut().zip(o.0) {
                    *a $aop b;
                }
                BbWide(r)
            }
        }
        impl<const W: usize> $atr for BbWide<W> {
            #[inline]
            fn $af(&mut self, o: Self) {
                for (a, b) in self.0.iter_mut().zip(o.0) {
                    *a $aop b;
                }
            }
        }
    };
}
wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &, &=);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |, |=);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^, ^=);

impl<const W: usize> BbWide<W> {
    /// Calls `f` with the index of every cell, lowest first, a word at a time. Why: the
    /// generic [`Bitboard::squares`] pops the lowest cell, which scans from word 0 again for
    /// every cell.
    #[inline]
    pub fn for_each_index(self, mut f: impl FnMut(usize)) {
        for (i, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f(i * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }
}

impl<const W: usize> Not for BbWide<W> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        BbWide(self.0.map(|w| !w))
    }
}

impl<const W: usize> Bitboard for BbWide<W> {
    const EMPTY: Self = BbWide([0; W]);
    const CAPACITY: usize = 64 * W;
    #[inline]
    fn from_square(sq: Square) -> Self {
        let mut w = [0; W];
        w[sq.0 as usize / 64] = 1 << (sq.0 % 64);
        BbWide(w)
    }
    /// One word written in place: the trait's default ORs a whole one-cell board, which the
    /// compiler builds in memory and reads back wider than it wrote (a store-forwarding stall
    /// that made Dai Mitregi's attack walk more than twice as slow).
    #[inline]
    fn insert(&mut self, sq: Square) {
        self.0[sq.0 as usize / 64] |= 1 << (sq.0 % 64);
    }
    #[inline]
    fn remove(&mut self, sq: Square) {
        self.0[sq.0 as usize / 64] &= !(1 << (sq.0 % 64));
    }
    #[inline]
    fn contains(self, sq: Square) -> bool {
        (self.0[sq.0 as usize / 64] >> (sq.0 % 64)) & 1 != 0
    }
    #[inline]
    fn lsb(self) -> Option<Square> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(Square((i * 64) as u16 + w.trailing_zeros() as u16));
            }
        }
        None
    }
    #[inline]
    fn msb(self) -> Option<Square> {
        for i in (0..W).rev() {
            let w = self.0[i];
            if w != 0 {
                return Some(Square((i * 64 + 63) as u16 - w.leading_zeros() as u16));
            }
        }
        None
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn pop_lsb(&mut self) -> Option<Square> {
        for (i, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let s = w.trailing_zeros();
                *w &= *w - 1;
                return Some(Square((i * 64) as u16 + s as u16));
            }
        }
        None
    }
}
