//! Errors that name the problem and quote the input (the quoting rule of `camelpy-core` and of
//! `camelpy/_quote.py`: single quotes, Python-style escapes, cut after 120 characters). Syntax errors
//! (a text or move that cannot be read) are kept apart from legality errors (a move the position does
//! not allow).

use std::fmt;

/// Longest input quoted in full; the same as camelpy's other quoting.
const MAX_QUOTED: usize = 120;

/// `input` between single quotes, escaped and cut as `camelpy._quote.quote` does.
pub(crate) fn quote(input: &str) -> String {
    let mut out = String::from("'");
    for (i, c) in input.chars().enumerate() {
        if i == MAX_QUOTED {
            out.push('…');
            break;
        }
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() && (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
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
