//! Errors that name the problem and quote the input (the quoting rule of `camelpy-core`, shared, and of
//! `camelpy/_quote.py`: single quotes, Python-style escapes, cut after 120 characters). Syntax errors
//! (a text or move that cannot be read) are kept apart from legality errors (a move the position does
//! not allow).

use std::fmt;

/// `input` between single quotes, escaped and cut by the core's rule (`camelpy_core::error::quote`,
/// which `camelpy/_quote.py` matches).
pub(crate) fn quote(input: &str) -> String {
    format!("'{}'", camelpy_core::error::quote(input))
}

/// A board text (the one-line form or a `state` file) that cannot be read, or that describes a board
/// the rules cannot reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseBoardError {
    /// What is wrong, in a few lowercase words.
    pub reason: String,
    /// The whole input.
    pub text: String,
}

impl ParseBoardError {
    pub(crate) fn new(reason: impl Into<String>, text: &str) -> ParseBoardError {
        ParseBoardError { reason: reason.into(), text: text.to_string() }
    }
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.reason, quote(&self.text))
    }
}

impl std::error::Error for ParseBoardError {}

/// A move text that is not four numbers `from_row from_col to_row to_col` on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The input.
    pub text: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid move (expected 'from_row from_col to_row to_col' on the 6x5 board): {}",
            quote(&self.text)
        )
    }
}

impl std::error::Error for ParseMoveError {}

/// A well-formed move that the position does not allow (the board is left unchanged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// The move, as `from_row from_col to_row to_col`.
    pub mv: String,
    /// The position, in the one-line text form.
    pub board: String,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move: {} in {}", quote(&self.mv), quote(&self.board))
    }
}

impl std::error::Error for IllegalMoveError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_matches_python() {
        assert_eq!(quote("it's\ta \u{0} test\n"), "'it\\'s\\ta \\x00 test\\n'");
        assert_eq!(quote(&"A".repeat(200)).chars().count(), 123);
    }
}
