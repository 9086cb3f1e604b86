//! Up to 64 cells in one machine word.

/// A bitboard for boards of at most 64 cells.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug, Hash)]
pub struct Bb64(pub u64);

super::int_bitboard!(Bb64, u64, 64);
