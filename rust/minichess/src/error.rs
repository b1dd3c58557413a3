//! MiniChess's errors: the games framework's (`camelpy_games::error`), in MiniChess's words. Each
//! names the problem and quotes the input (the core's quoting rule, which `camelpy/_quote.py`
//! matches); syntax errors (a text or move that cannot be read) are kept apart from legality errors
//! (a move the position does not allow).

camelpy_games::game_errors! {
    /// MiniChess's wording of the errors: a board text's reason alone, the move format, `illegal move:`.
    pub struct MiniChessWords: ParseBoardError, ParseMoveError, IllegalMoveError, MoveError;
    "", "invalid move (expected 'from_row from_col to_row to_col' on the 6x5 board)", "illegal move:"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_as_before() {
        assert_eq!(
            ParseBoardError::new("no king on the board", "5 w").to_string(),
            "no king on the board: '5 w'"
        );
        assert_eq!(
            ParseMoveError::new("9 9").to_string(),
            "invalid move (expected 'from_row from_col to_row to_col' on the 6x5 board): '9 9'"
        );
        let illegal = IllegalMoveError::new("0 0 1 1".into(), None, "k4/5/5/5/5/4K w 0".into());
        assert_eq!(illegal.to_string(), "illegal move: '0 0 1 1' in 'k4/5/5/5/5/4K w 0'");
    }
}
