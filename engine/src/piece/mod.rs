//! Pieces as data.
//!
//! A piece is a [`PieceSpec`]: a name, a FEN letter and a Betza movement string such as
//! `"RF"` (Chatelaine) or `"mWcF"` (Steward). The string is parsed once into [`Atom`]s (vectors
//! with a range and a move/capture modality), and [`crate::attacks::AttackTables`] compiles
//! the atoms of every piece into leap and ray tables. A new ordinary piece is one line of data,
//! in every variant: the free-form ones keep their pieces in the same type, with their own
//! extras.
//!
//! ```
//! use variantlab_engine::piece::{betza, material_kinds, Modality, PieceSpec};
//! let atoms = betza::parse("mWcF").unwrap();
//! assert_eq!(atoms.len(), 8);
//! assert!(atoms.iter().all(|a| a.range == 1));
//! assert_eq!(atoms.iter().filter(|a| a.modality == Modality::MoveOnly).count(), 4);
//!
//! const PIECES: [PieceSpec; 2] = [
//!     PieceSpec::new("steward", 'S', "mWcF", 120),
//!     PieceSpec::new("king", 'K', "K", 0).royal(),
//! ];
//! assert!(PIECES[1].royal && !PIECES[0].royal);
//! assert_eq!(variantlab_engine::piece::index_of_letter(&PIECES, 'k'), Some(1));
//! assert_eq!(variantlab_engine::piece::letters(&PIECES), ['S', 'K']);
//! assert_eq!(variantlab_engine::piece::values(&PIECES), [120, 0]);
//! assert_eq!(material_kinds(&PIECES).collect::<Vec<_>>(), [("steward", 120), ("king", 0)]);
//! ```

pub mod betza;

use crate::geometry::Vector;

/// One piece kind as data: a line of its variant's `const` table. Every variant's pieces are
/// these: the chess family's compiled from the Betza string by [`crate::rules`], the free-form
/// variants' (Dialectic, Extreme 2D, Gateway, Dai Mitregi) read by their own move generators,
/// with what only one variant needs in `extra` (Gateway's 3D vector families, Dai Mitregi's
/// second form, promotion and drop limit). The material kinds, letter look-ups and default
/// values of the evaluation and the tuner come from the table through [`material_kinds`],
/// [`index_of_letter`], [`letters`] and [`values`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct PieceSpec<X = ()> {
    /// Human name, used in reports and CSV column names.
    pub name: &'static str,
    /// FEN letter, upper case (White); Black's is the lower case.
    pub letter: char,
    /// Betza movement string, from White's point of view ("forward" = up the ranks); empty
    /// where the variant's own code moves the piece (Dialectic's Philosophers, Extreme 2D's
    /// discs) or `extra` describes it (Gateway).
    pub betza: &'static str,
    /// Whether capturing or checkmating this piece decides the game.
    pub royal: bool,
    /// Default material value in centipawns (the search's evaluation; overridable).
    pub value: i32,
    /// What only this piece's variant reads.
    pub extra: X,
}

impl PieceSpec {
    /// A piece that is not royal and has no extras: one line of a table.
    pub const fn new(name: &'static str, letter: char, betza: &'static str, value: i32) -> Self {
        PieceSpec {
            name,
            letter,
            betza,
            royal: false,
            value,
            extra: (),
        }
    }

    /// The same piece with its variant's extras.
    pub const fn with<X>(self, extra: X) -> PieceSpec<X> {
        PieceSpec {
            name: self.name,
            letter: self.letter,
            betza: self.betza,
            royal: self.royal,
            value: self.value,
            extra,
        }
    }
}

impl<X: Copy> PieceSpec<X> {
    /// The same piece, royal.
    pub const fn royal(self) -> Self {
        PieceSpec {
            royal: true,
            ..self
        }
    }
}

/// The material kinds of a table, in its order, with their default values: what
/// [`crate::Game::material_kinds`] reports for a variant whose kinds are its pieces.
pub fn material_kinds<X>(
    pieces: &[PieceSpec<X>],
) -> impl Iterator<Item = (&'static str, i32)> + '_ {
    pieces.iter().map(|p| (p.name, p.value))
}

/// The index of the piece written `letter` (either case).
pub fn index_of_letter<X>(pieces: &[PieceSpec<X>], letter: char) -> Option<usize> {
    let upper = letter.to_ascii_uppercase();
    pieces.iter().position(|p| p.letter == upper)
}

/// The piece and side a written letter stands for: its index in `pieces` (either case, a
/// letter only) and White for upper case, Black for lower.
pub fn read_letter<X>(pieces: &[PieceSpec<X>], letter: char) -> Option<(crate::Color, usize)> {
    let color = crate::Color::of_case(letter);
    letter.is_ascii_alphabetic().then_some(())?;
    index_of_letter(pieces, letter).map(|i| (color, i))
}

/// The upper-case letters of a table, in its order (`const`, for a variant's own constants).
pub const fn letters<X, const N: usize>(pieces: &[PieceSpec<X>; N]) -> [char; N] {
    let mut out = ['?'; N];
    let mut i = 0;
    while i < N {
        out[i] = pieces[i].letter;
        i += 1;
    }
    out
}

/// The default values of a table, in its order (`const`, for a variant's own constants).
pub const fn values<X, const N: usize>(pieces: &[PieceSpec<X>; N]) -> [i32; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = pieces[i].value;
        i += 1;
    }
    out
}

/// Whether an atom may move to an empty cell, capture, or both.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Modality {
    /// Moves and captures.
    Both,
    /// Only to an empty cell (Betza `m`).
    MoveOnly,
    /// Only onto an enemy piece (Betza `c`).
    CaptureOnly,
}

impl Modality {
    /// Whether this modality includes quiet moves.
    pub fn moves(self) -> bool {
        self != Modality::CaptureOnly
    }
    /// Whether this modality includes captures.
    pub fn captures(self) -> bool {
        self != Modality::MoveOnly
    }
}

/// One direction of movement: a vector, repeated up to `range` times (1 = a leap or a single
/// step; 0 = unlimited, a rider).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Atom {
    /// The displacement of one step, from White's point of view.
    pub vector: Vector,
    /// How many steps at most: 1 for a leaper, 0 for an unlimited rider.
    pub range: u8,
    /// Move, capture or both.
    pub modality: Modality,
}

impl Atom {
    /// The atom as seen by `black`: forward is down the ranks, so the rank part flips.
    pub fn for_black(self) -> Atom {
        Atom {
            vector: [self.vector[0], -self.vector[1], self.vector[2]],
            ..self
        }
    }
}
