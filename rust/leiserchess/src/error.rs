//! Leiserchess's errors: the games framework's (`camelpy_games::error`), in Leiserchess's words. Each
//! names the problem and quotes the input (the core's quoting rule, which `camelpy/_quote.py`
//! matches); a text that cannot be read is kept apart from a move the position does not allow.

camelpy_games::game_errors! {
    /// Leiserchess's wording of the errors: `invalid Leiserchess FEN (reason)`, the notation expected,
    /// `illegal Leiserchess move`. [`MoveError`] is what [`crate::Position::push_text`] can refuse.
    pub struct LeiserchessWords: ParseFenError, ParseMoveError, IllegalMoveError, MoveError;
    "invalid Leiserchess FEN",
    concat!(
        "invalid Leiserchess move (expected e.g. 'e6e7', 'b3R', 'h0h0', ",
        "or with the 2018 rules 'd5e4f5', 'd5e4L')"
    ),
    "illegal Leiserchess move"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_before() {
        let fen = ParseFenError::new("expected 8 ranks", "8/8 W");
        assert_eq!(fen.to_string(), "invalid Leiserchess FEN (expected 8 ranks): '8/8 W'");
        let parse = MoveError::Parse(ParseMoveError::new("e9"));
        assert!(parse.to_string().starts_with("invalid Leiserchess move (expected e.g. 'e6e7',"));
        assert!(parse.to_string().ends_with("'d5e4L'): 'e9'"));
        let illegal = IllegalMoveError::new("h0h0".into(), Some("Ko".into()), "8/8 W".into());
        assert_eq!(
            MoveError::Illegal(illegal).to_string(),
            "illegal Leiserchess move 'h0h0' (Ko) in '8/8 W'"
        );
    }
}
