//! Up to 128 cells in a `u128`.

/// A bitboard for boards of at most 128 cells (Extreme 2D's 10x10).
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug, Hash)]
pub struct Bb128(pub u128);

super::int_bitboard!(Bb128, u128, 128);
