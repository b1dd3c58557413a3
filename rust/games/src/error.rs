//! The errors every game's texts and moves can raise, written once: a position text that cannot be read
//! (or describes a position the rules cannot reach), a move text that cannot be read, and a move the
//! position does not allow, kept apart as the core keeps syntax from legality. Each names the problem
//! and quotes the input by the core's rule (`camelpy_core::error::quote`, which `camelpy/_quote.py`
//! matches: single quotes, Python-style escapes, cut after 120 characters); a game chooses only the
//! words around the quotes, by its [`Wording`].

use std::{fmt, marker::PhantomData};

/// `input` between single quotes, escaped and cut by the core's rule.
pub fn quote(input: &str) -> String {
    format!("'{}'", camelpy_core::error::quote(input))
}

/// How a game's errors read: the words around the quoted input. A game names a marker type for its
/// wording, and its error types are this module's with that marker.
pub trait Wording: fmt::Debug + Clone + Copy + PartialEq + Eq + 'static {
    /// What a position text should have been: `"invalid Leiserchess FEN"` gives `invalid Leiserchess FEN
    /// (reason): 'text'`; empty, the reason stands alone: `reason: 'text'`.
    const POSITION: &'static str;
    /// What a move text should have been, the whole message before the quoted text: `"invalid move
    /// (expected 'from_row from_col to_row to_col')"`.
    const MOVE: &'static str;
    /// How a refused move's message begins, before the quoted move: `"illegal move:"`.
    const ILLEGAL: &'static str;
}

/// A position text that cannot be read, or that describes a position the rules do not allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePositionError<W: Wording> {
    /// What is wrong, in a few lowercase words.
    pub reason: String,
    /// The whole input.
    pub text: String,
    wording: PhantomData<W>,
}

impl<W: Wording> ParsePositionError<W> {
    /// The error `reason` about the whole input `text`.
    pub fn new(reason: impl Into<String>, text: &str) -> Self {
        ParsePositionError { reason: reason.into(), text: text.to_string(), wording: PhantomData }
    }
}

impl<W: Wording> fmt::Display for ParsePositionError<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match W::POSITION {
            "" => write!(f, "{}: {}", self.reason, quote(&self.text)),
            what => write!(f, "{what} ({}): {}", self.reason, quote(&self.text)),
        }
    }
}

impl<W: Wording> std::error::Error for ParsePositionError<W> {}

/// A move text that is not a move in the game's notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseMoveError<W: Wording> {
    /// The input.
    pub text: String,
    wording: PhantomData<W>,
}

impl<W: Wording> ParseMoveError<W> {
    /// The error about the input `text`.
    pub fn new(text: &str) -> Self {
        ParseMoveError { text: text.to_string(), wording: PhantomData }
    }
}

impl<W: Wording> fmt::Display for ParseMoveError<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", W::MOVE, quote(&self.text))
    }
}

impl<W: Wording> std::error::Error for ParseMoveError<W> {}

/// A well-formed move that the position does not allow (the position is left unchanged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMoveError<W: Wording> {
    /// The move, in the game's notation.
    pub mv: String,
    /// Why, in a few lowercase words, where the game says.
    pub reason: Option<String>,
    /// The position, in the game's text form.
    pub position: String,
    wording: PhantomData<W>,
}

impl<W: Wording> IllegalMoveError<W> {
    /// The move `mv` refused in `position`, for `reason` if the game gives one.
    pub fn new(mv: String, reason: Option<String>, position: String) -> Self {
        IllegalMoveError { mv, reason, position, wording: PhantomData }
    }
}

impl<W: Wording> fmt::Display for IllegalMoveError<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", W::ILLEGAL, quote(&self.mv))?;
        if let Some(reason) = &self.reason {
            write!(f, " ({reason})")?;
        }
        write!(f, " in {}", quote(&self.position))
    }
}

impl<W: Wording> std::error::Error for IllegalMoveError<W> {}

/// Either of the move errors: what playing a move given as text can refuse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError<W: Wording> {
    /// Not a move at all.
    Parse(ParseMoveError<W>),
    /// A move this position does not allow.
    Illegal(IllegalMoveError<W>),
}

impl<W: Wording> fmt::Display for MoveError<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Parse(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl<W: Wording> std::error::Error for MoveError<W> {}

/// Declares a game's wording of the errors and the game's names for the framework's four error types:
/// a marker type (documented by the caller) implementing [`Wording`] with the three strings, then
/// aliases for [`ParsePositionError`], [`ParseMoveError`], [`IllegalMoveError`] and [`MoveError`] with
/// that marker.
///
/// ```
/// camelpy_games::game_errors! {
///     /// Nim's words.
///     pub struct NimWords: ParseHeapError, ParseTakeError, IllegalTakeError, TakeError;
///     "invalid heap", "invalid take (expected 1, 2 or 3)", "illegal take"
/// }
/// assert_eq!(ParseTakeError::new("4").to_string(), "invalid take (expected 1, 2 or 3): '4'");
/// ```
#[macro_export]
macro_rules! game_errors {
    (
        $(#[$meta:meta])*
        $vis:vis struct $words:ident: $position:ident, $parse_move:ident, $illegal:ident, $either:ident;
        $position_words:expr, $move_words:expr, $illegal_words:expr $(,)?
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        $vis struct $words;

        impl $crate::Wording for $words {
            const POSITION: &'static str = $position_words;
            const MOVE: &'static str = $move_words;
            const ILLEGAL: &'static str = $illegal_words;
        }

        /// A position text that cannot be read, or that describes a position the rules do not allow
        /// (`camelpy_games::ParsePositionError` in this game's words).
        $vis type $position = $crate::ParsePositionError<$words>;
        /// A move text that is not a move in the game's notation (`camelpy_games::ParseMoveError`).
        $vis type $parse_move = $crate::ParseMoveError<$words>;
        /// A well-formed move the position does not allow; the position is left unchanged
        /// (`camelpy_games::IllegalMoveError`).
        $vis type $illegal = $crate::IllegalMoveError<$words>;
        /// Either of the move errors: what playing a move given as text can refuse
        /// (`camelpy_games::MoveError`).
        $vis type $either = $crate::MoveError<$words>;
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Named;
    impl Wording for Named {
        const POSITION: &'static str = "invalid Nim heap";
        const MOVE: &'static str = "invalid Nim move (expected 1, 2 or 3)";
        const ILLEGAL: &'static str = "illegal Nim move";
    }

    #[test]
    fn messages_quote_the_input_in_the_games_words() {
        // (A game whose position errors are the reason alone: MiniChess's tests.)
        assert_eq!(quote("it's\ta \u{0} test\n"), "'it\\'s\\ta \\x00 test\\n'");
        assert_eq!(quote(&"A".repeat(200)).chars().count(), 123);
        assert_eq!(
            ParsePositionError::<Named>::new("no heap", "x").to_string(),
            "invalid Nim heap (no heap): 'x'"
        );
        let illegal = IllegalMoveError::<Named>::new("3".into(), None, "2".into());
        assert_eq!(illegal.to_string(), "illegal Nim move '3' in '2'");
        let why = IllegalMoveError::<Named>::new("3".into(), Some("too many".into()), "2".into());
        assert_eq!(MoveError::Illegal(why).to_string(), "illegal Nim move '3' (too many) in '2'");
        assert_eq!(
            MoveError::<Named>::Parse(ParseMoveError::new("x")).to_string(),
            "invalid Nim move (expected 1, 2 or 3): 'x'"
        );
    }
}
