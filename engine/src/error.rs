//! Errors for bad input: every one says what is wrong and where.

use thiserror::Error;

/// A position string that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum PositionError {
    /// The text does not follow the format (syntax).
    #[error("bad position text at column {column} ({field} field): {message}")]
    Syntax {
        /// Which field: board, side, castling, en passant, halfmove, fullmove.
        field: &'static str,
        /// 1-based character column in the whole string.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The text is well formed but describes an impossible position.
    #[error("impossible position: {0}")]
    Setup(String),
}

impl PositionError {
    pub(crate) fn syntax(field: &'static str, column: usize, message: impl Into<String>) -> Self {
        PositionError::Syntax {
            field,
            column,
            message: message.into(),
        }
    }
}

/// A move text that is not a legal move in the position.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
#[error("move {text:?} is not legal in {position}")]
pub struct MoveError {
    /// The move as given.
    pub text: String,
    /// The position it was tried in.
    pub position: String,
}
