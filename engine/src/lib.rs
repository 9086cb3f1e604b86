//! # variantlab engine
//!
//! Move generation, perft and search for chess variants on boards of any shape: flat or 3D,
//! with holes, with restricted steps. Geometry lives in [`geometry`], pieces are data
//! ([`piece`], Betza strings) compiled into [`attacks`] tables, bitboards are sized per board
//! ([`bitboard`]), and each variant is one file under [`variants`].
//!
//! ```
//! use variantlab_engine::{Game, perft::perft, position::Position, variants::Dream46};
//! let start = Position::<Dream46>::start();
//! assert_eq!(perft(&start, 1), 13);
//! ```
#![warn(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod diagram;
pub mod ends;
pub mod error;
pub mod eval;
mod features;
mod fen;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod perft;
pub mod piece;
pub mod position;
pub mod rules;
pub mod search;
pub mod see;
pub mod textfile;
mod types;
pub mod variants;
pub mod zobrist;

pub use error::{MoveError, PositionError};
pub use game::Game;
pub use moves::{Move, MoveKind};
pub use types::*;
pub use variants::VariantKind;
