//! Errors that name the problem and quote the input (the core's quoting rule, `camelpy_core::error::quote`,
//! which `camelpy/_quote.py` matches). A text that cannot be read is kept apart from a move the
//! position does not allow.

use std::fmt;

fn quote(input: &str) -> String {
    format!("'{}'", camelpy_core::error::quote(input))
}

/// A FEN that cannot be read, or that describes a board the rules do not allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFenError {
    /// What is wrong, in a few lowercase words.
    pub reason: String,
    /// The whole input.
    pub fen: String,
}

impl ParseFenError {
    pub(crate) fn new(reason: impl Into<String>, fen: &str) -> ParseFenError {
        ParseFenError { reason: reason.into(), fen: fen.to_string() }
    }
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid Leiserchess FEN ({}): {}", self.reason, quote(&self.fen))
    }
}

impl std::error::Error for ParseFenError {}

/// A move text that is not a move in the course's notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The input.
    pub text: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid Leiserchess move (expected e.g. 'e6e7', 'b3R', 'h0h0', or with the 2018 rules 'd5e4f5', 'd5e4L'): {}",
            quote(&self.text)
        )
    }
}

impl std::error::Error for ParseMoveError {}

/// A well-formed move the position does not allow (the position is left unchanged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// The move as written.
    pub text: String,
    /// Why, in a few lowercase words.
    pub reason: String,
    /// The position's FEN.
    pub fen: String,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal Leiserchess move {} ({}) in {}", quote(&self.text), self.reason, quote(&self.fen))
    }
}

impl std::error::Error for IllegalMoveError {}

/// Either of the move errors: what [`crate::Position::push_text`] can refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move at all.
    Parse(ParseMoveError),
    /// A move this position does not allow.
    Illegal(IllegalMoveError),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Parse(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MoveError {}
