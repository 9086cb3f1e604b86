//! Pieces as data.
//!
//! A piece is a [`PieceSpec`]: a name, a FEN letter and a Betza movement string such as
//! `"RF"` (Chatelaine) or `"mWcF"` (Steward). The string is parsed once into [`Atom`]s (vectors
//! with a range and a move/capture modality), and [`crate::attacks::AttackTables`] compiles
//! the atoms of every piece into leap and ray tables. A new ordinary piece is one line of data.
//!
//! ```
//! use variantlab_engine::piece::{betza, Modality};
//! let atoms = betza::parse("mWcF").unwrap();
//! assert_eq!(atoms.len(), 8);
//! assert!(atoms.iter().all(|a| a.range == 1));
//! assert_eq!(atoms.iter().filter(|a| a.modality == Modality::MoveOnly).count(), 4);
//! ```

pub mod betza;

use crate::geometry::Vector;

/// One movement description of a piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct PieceSpec {
    /// Human name, used in reports and CSV column names.
    pub name: &'static str,
    /// FEN letter, upper case (White); Black's is the lower case.
    pub letter: char,
    /// Betza movement string, from White's point of view ("forward" = up the ranks).
    pub betza: &'static str,
    /// Whether capturing or checkmating this piece decides the game.
    pub royal: bool,
    /// Default material value in centipawns (the search's evaluation; overridable).
    pub value: i32,
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
