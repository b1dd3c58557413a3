//! The two text forms of a [`Board`].
//!
//! **One-line form** (ours, FEN-like): the six rows from row 0 (top, Black's back rank) to row 5,
//! separated by `/`, each as piece letters (`KQBNRP` White, `kqbnrp` Black) and digits for runs of empty
//! squares; then `w` or `b` for the side to move; then the plies played (optional when reading, 0 if
//! absent). The start is `kqbnr/ppppp/5/5/PPPPP/RNBQK w 0`.
//!
//! **`state` file** (the course's): line 1 the side to move (`0` White, `1` Black); then 6 lines of 5
//! numbers for White's pieces, then 6 lines of 5 numbers for Black's (0 empty, 1 pawn, 2 rook, 3 knight,
//! 4 bishop, 5 queen, 6 king). It has no ply count: reading one takes the ply count as an argument.
//! Reading is lenient about whitespace (any spaces or tabs between numbers, `\r\n` line ends, blank
//! lines after the last row); anything else is refused with the reason and the input.
//!
//! Both readers refuse only what would break the rules' own meaning: more than one king of a colour, no
//! king at all, a pawn on its promotion row (it would have become a queen), and in a `state` file a
//! square given to both sides. Piece counts are not limited, so test positions may be crowded.

use crate::{
    board::Board,
    error::ParseBoardError,
    types::{Color, Piece, PieceType, Square, COLS, NUM_SQUARES, ROWS},
};

/// The start in the one-line form.
pub const START_TEXT: &str = "kqbnr/ppppp/5/5/PPPPP/RNBQK w 0";

/// Largest ply count the readers accept (far beyond the 50 a game lasts, so "after the count" boards can
/// be written, and small enough for any arithmetic on it).
pub const MAX_PLY: u32 = 1_000_000;

/// The checks both readers share, on a board whose pieces are set.
fn check_rules(board: &Board, text: &str) -> Result<(), ParseBoardError> {
    for color in Color::ALL {
        if board.pieces_of(color, PieceType::King).count() > 1 {
            let name = if color == Color::White { "white" } else { "black" };
            return Err(ParseBoardError::new(format!("more than one {name} king"), text));
        }
        let last_row = color.promotion_row();
        if board.pieces_of(color, PieceType::Pawn).any(|sq| sq.row() == last_row) {
            let name = if color == Color::White { "white" } else { "black" };
            return Err(ParseBoardError::new(format!("{name} pawn on its promotion row {last_row}"), text));
        }
    }
    if Color::ALL.iter().all(|&c| board.pieces_of(c, PieceType::King).is_empty()) {
        return Err(ParseBoardError::new("no king on the board", text));
    }
    Ok(())
}

impl Board {
    /// Reads the one-line form (see the module documentation).
    ///
    /// ```
    /// use camelpy_minichess::Board;
    /// let board = Board::from_text("kqbnr/ppppp/5/5/PPPPP/RNBQK w 0").unwrap();
    /// assert_eq!(board, Board::start());
    /// assert_eq!(
    ///     Board::from_text("kqbnr/ppppp w 0").unwrap_err().to_string(),
    ///     "expected 6 rows separated by '/', got 2: 'kqbnr/ppppp w 0'"
    /// );
    /// ```
    pub fn from_text(text: &str) -> Result<Board, ParseBoardError> {
        let err = |reason: String| ParseBoardError::new(reason, text);
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(2..=3).contains(&fields.len()) {
            return Err(err(format!(
                "expected 'rows side [ply]' (2 or 3 fields), got {} field{}",
                fields.len(),
                if fields.len() == 1 { "" } else { "s" }
            )));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != ROWS as usize {
            return Err(err(format!("expected 6 rows separated by '/', got {}", rows.len())));
        }
        let mut board = Board::empty();
        for (r, row) in rows.iter().enumerate() {
            let mut col = 0u8;
            for c in row.chars() {
                if let Some(run) = c.to_digit(10).filter(|d| (1..=5).contains(d)) {
                    col += run as u8;
                } else if let Some(piece) = Piece::from_symbol(c) {
                    if let Some(sq) = Square::new(r as u8, col) {
                        board.put(piece, sq);
                    }
                    col += 1;
                } else {
                    return Err(err(format!("unexpected character {:?} in row {r}", c)));
                }
                if col > COLS {
                    break;
                }
            }
            if col != COLS {
                return Err(err(format!("row {r} ({row:?}) does not describe exactly 5 squares")));
            }
        }
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(err(format!("side to move must be 'w' or 'b', got {other:?}"))),
        };
        let ply = match fields.get(2) {
            None => 0,
            Some(p) => match p.parse::<u32>() {
                Ok(n) if n <= MAX_PLY && p.chars().all(|c| c.is_ascii_digit()) => n,
                _ => return Err(err(format!("ply count must be a number from 0 to {MAX_PLY}, got {p:?}"))),
            },
        };
        board.set_side_and_ply(side, ply);
        check_rules(&board, text)?;
        Ok(board)
    }

    /// The one-line form (see the module documentation).
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(40);
        for row in 0..ROWS {
            if row > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for col in 0..COLS {
                match Square::new(row, col).and_then(|sq| self.piece_at(sq)) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(piece.symbol());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
        }
        out.push_str(if self.side_to_move() == Color::White { " w " } else { " b " });
        out.push_str(&self.ply().to_string());
        out
    }

    /// Reads the course's `state` file (see the module documentation); `ply` is the plies played, which
    /// the file does not hold.
    ///
    /// ```
    /// use camelpy_minichess::Board;
    /// let start = Board::start();
    /// assert_eq!(Board::from_state(&start.to_state(), 0).unwrap(), start);
    /// assert!(start.to_state().starts_with("0\n0 0 0 0 0\n"));
    /// ```
    pub fn from_state(text: &str, ply: u32) -> Result<Board, ParseBoardError> {
        let err = |reason: String| ParseBoardError::new(reason, text);
        if ply > MAX_PLY {
            return Err(err(format!("ply count must be a number from 0 to {MAX_PLY}, got {ply}")));
        }
        let mut lines: Vec<&str> = text.lines().collect();
        while lines.last().is_some_and(|l| l.trim().is_empty()) {
            lines.pop();
        }
        let want = 1 + 2 * ROWS as usize;
        if lines.len() != want {
            return Err(err(format!(
                "expected {want} lines (side to move, then 6 rows for each side), got {}",
                lines.len()
            )));
        }
        let side = match lines[0].trim() {
            "0" => Color::White,
            "1" => Color::Black,
            other => {
                return Err(err(format!("line 1 must be 0 (White to move) or 1 (Black), got {other:?}")))
            }
        };
        let mut board = Board::empty();
        for (i, line) in lines[1..].iter().enumerate() {
            let color = if i < ROWS as usize { Color::White } else { Color::Black };
            let row = (i % ROWS as usize) as u8;
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() != COLS as usize {
                return Err(err(format!("line {} must hold 5 numbers, got {}", i + 2, words.len())));
            }
            for (col, word) in words.iter().enumerate() {
                let code = match *word {
                    "0" => None,
                    w => match w
                        .parse::<u8>()
                        .ok()
                        .filter(|_| w.len() == 1)
                        .and_then(PieceType::from_state_code)
                    {
                        Some(kind) => Some(kind),
                        None => {
                            return Err(err(format!("line {}: {w:?} is not a piece number 0-6", i + 2)));
                        }
                    },
                };
                let Some(kind) = code else { continue };
                let sq = Square::new(row, col as u8).expect("5 columns checked above");
                if board.piece_at(sq).is_some() {
                    return Err(err(format!(
                        "row {row} column {col} holds both a white and a black piece (line {})",
                        i + 2
                    )));
                }
                board.put(Piece::new(color, kind), sq);
            }
        }
        board.set_side_and_ply(side, ply);
        check_rules(&board, text)?;
        Ok(board)
    }

    /// The course's `state` file text (ends with a newline; no ply count).
    pub fn to_state(&self) -> String {
        let mut out = String::with_capacity(2 + 2 * NUM_SQUARES * 2);
        out.push_str(if self.side_to_move() == Color::White { "0\n" } else { "1\n" });
        for color in Color::ALL {
            for row in 0..ROWS {
                let codes: Vec<String> = (0..COLS)
                    .map(|col| match Square::new(row, col).and_then(|sq| self.piece_at(sq)) {
                        Some(p) if p.color == color => p.kind.state_code().to_string(),
                        _ => "0".to_string(),
                    })
                    .collect();
                out.push_str(&codes.join(" "));
                out.push('\n');
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_state_is_the_course_start() {
        let expected = "0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n1 1 1 1 1\n2 3 4 5 6\n\
                        6 5 4 3 2\n1 1 1 1 1\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n";
        assert_eq!(Board::start().to_state(), expected);
        assert_eq!(Board::from_state(expected, 0).unwrap(), Board::start());
        assert_eq!(Board::from_text(START_TEXT).unwrap(), Board::start());
        assert_eq!(Board::start().to_text(), START_TEXT);
    }

    #[test]
    fn round_trips_and_leniency() {
        for text in ["k4/5/3p1/2pPp/2PRP/3BK w 10", "k3r/3P1/5/5/2p2/1N2K b 3", "5/5/1k3/5/5/5 b 50"] {
            let board = Board::from_text(text).unwrap();
            assert_eq!(board.to_text(), text);
            assert_eq!(Board::from_state(&board.to_state(), board.ply()).unwrap(), board);
        }
        assert_eq!(Board::from_text("kqbnr/ppppp/5/5/PPPPP/RNBQK w").unwrap(), Board::start());
        let crlf = Board::start().to_state().replace('\n', "\r\n").replace(' ', " \t ") + "\n\n";
        assert_eq!(Board::from_state(&crlf, 0).unwrap(), Board::start());
    }

    #[test]
    fn bad_text_names_the_problem_and_quotes_the_input() {
        let cases = [
            ("", "expected 'rows side [ply]' (2 or 3 fields), got 0 fields: ''"),
            ("kqbnr/ppppp/5/5/PPPPP/RNBQK x 0", "side to move must be 'w' or 'b', got \"x\""),
            ("kqbnr/ppppp/5/5/PPPPP/RNBQK w -1", "ply count must be a number from 0 to 1000000"),
            ("kqbnr/ppppp/6/5/PPPPP/RNBQK w 0", "unexpected character '6' in row 2"),
            ("kqbnr/pppp/5/5/PPPPP/RNBQK w 0", "row 1 (\"pppp\") does not describe exactly 5 squares"),
            ("kqbnr/ppppp/5/5/PPPPP/RNBQKK w 0", "row 5"),
            ("kqbnk/ppppp/5/5/PPPPP/RNBQK w 0", "more than one black king"),
            ("5/5/5/5/5/5 w 0", "no king on the board"),
            ("kP3/5/5/5/5/4K w 0", "white pawn on its promotion row 0"),
            ("k4/5/5/5/5/p3K w 0", "black pawn on its promotion row 5"),
            ("k4/5/5/5/5/4K w 0 0", "got 4 fields"),
        ];
        for (text, want) in cases {
            let e = Board::from_text(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
        let start = Board::start().to_state();
        let state_cases = [
            (start.replacen("0\n", "2\n", 1), "line 1 must be 0 (White to move) or 1 (Black), got \"2\""),
            (start.replacen("2 3 4 5 6", "2 3 4 5 7", 1), "line 7: \"7\" is not a piece number 0-6"),
            (start.replacen("2 3 4 5 6", "2 3 4 5", 1), "line 7 must hold 5 numbers, got 4"),
            (
                start.replacen("0 0 0 0 0", "1 0 0 0 0", 1).replacen("6 5 4 3 2", "0 5 4 3 2", 1),
                "white pawn on its promotion row 0",
            ),
            (start.replacen("1 1 1 1 1\n2", "1 1 1 1 1\n6", 1), "more than one white king"),
            (start.lines().take(12).collect::<Vec<_>>().join("\n"), "expected 13 lines"),
            (start.replacen("2 3 4 5 6", "2 3 4 5 06", 1), "\"06\" is not a piece number"),
        ];
        for (text, want) in &state_cases {
            let e = Board::from_state(text, 0).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
            assert!(e.ends_with('\''), "quotes the input: {e}");
        }
        // A square taken by both sides.
        let both = start.replacen(
            "0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n1",
            "1 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n0 0 0 0 0\n1",
            1,
        );
        let e = Board::from_state(&both, 0).unwrap_err().to_string();
        assert!(e.starts_with("row 0 column 0 holds both a white and a black piece"), "{e}");
        assert!(Board::from_state(&start, MAX_PLY + 1).is_err());
    }
}
