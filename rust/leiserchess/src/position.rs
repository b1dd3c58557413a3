//! [`Position`]: a board with the game's history, for the rules that need it — Ko, the draw by
//! threefold repetition — and for taking moves back.

use crate::{
    board::{Board, Rules, TurnReport, QUIET_PLIES_DRAW_2018},
    error::{IllegalMoveError, MoveError},
    moves::Move,
    types::Color,
};

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A laser hit a king: its side lost.
    KingHit,
    /// The same position, with the same side to move, for the third time: a draw.
    Repetition,
    /// 2018 only: 50 moves by each side without a zap: a draw.
    QuietMoves,
    /// The side to move has no move that Ko allows: it loses. (A king can always turn, and at most
    /// two of its turns can be forbidden by Ko, so this never happens in play; it is defined so that
    /// nothing is left open.)
    NoMoves,
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// How it ended.
    pub termination: Termination,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
}

/// A board and the moves that led to it from the first board (FEN or start).
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    history: Vec<(Board, Move)>,
}

impl Position {
    /// The game from `board`.
    pub fn new(board: Board) -> Position {
        Position { board, history: Vec::new() }
    }

    /// The game from the start position under `rules`.
    pub fn start(rules: Rules) -> Position {
        Position::new(Board::start(rules))
    }

    /// The board now.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The moves played, first first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|(_, mv)| *mv)
    }

    /// The first board.
    pub fn root(&self) -> &Board {
        self.history.first().map_or(&self.board, |(b, _)| b)
    }

    /// True if a turn that leaves the pieces as `after` would break Ko: the pieces are as they were
    /// before this move, or as they were before the opponent's previous move. A turn whose shot hits a
    /// king is never Ko: the hit king is out of the game, so the board is not as it was.
    pub fn is_ko(&self, after: &Board) -> bool {
        after.loser().is_none()
            && (after.same_pieces(&self.board)
                || self.history.last().is_some_and(|(before, _)| after.same_pieces(before)))
    }

    /// Every board of the game, the first first and the one now last.
    pub fn boards(&self) -> impl Iterator<Item = &Board> + '_ {
        self.history.iter().map(|(b, _)| b).chain(std::iter::once(&self.board))
    }

    /// Why `mv` may not be played here, or `None` if it may.
    pub fn illegality(&self, mv: Move) -> Option<&'static str> {
        if self.board.loser().is_some() {
            return Some("the game is over: a king was hit");
        }
        if !self.board.is_pseudo_legal(mv) {
            return Some(match self.board.piece_at(mv.from()) {
                None => "no piece on that square",
                Some(p) if p.color() != self.board.side_to_move() => "not a piece of the side to move",
                Some(_) => "that piece cannot move so here (a pinned pawn, or against the rules' moves)",
            });
        }
        if self.is_ko(&self.board.after(mv).0) {
            return Some("Ko: it would restore an earlier board");
        }
        None
    }

    /// The moves the rules allow now, Ko included; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mut moves = Vec::with_capacity(128);
        self.board.generate(&mut moves);
        moves.retain(|&mv| !self.is_ko(&self.board.after(mv).0));
        moves
    }

    /// Plays `mv` and its laser shot if the rules allow it (Ko included); otherwise the position is
    /// unchanged.
    pub fn push(&mut self, mv: Move) -> Result<TurnReport, IllegalMoveError> {
        if let Some(reason) = self.illegality(mv) {
            return Err(IllegalMoveError::new(mv.to_string(), Some(reason.to_string()), self.board.fen()));
        }
        Ok(self.push_unchecked(mv))
    }

    /// Reads and plays a move in the course's notation.
    pub fn push_text(&mut self, text: &str) -> Result<(Move, TurnReport), MoveError> {
        let mv: Move = text.trim().parse().map_err(MoveError::Parse)?;
        let report = self.push(mv).map_err(MoveError::Illegal)?;
        Ok((mv, report))
    }

    /// Plays `mv`, one of the board's generated moves, without checking it (the search's way).
    pub fn push_unchecked(&mut self, mv: Move) -> TurnReport {
        let before = self.board.clone();
        let report = self.board.play(mv);
        self.history.push((before, mv));
        report
    }

    /// Takes back the last move.
    pub fn pop(&mut self) -> Option<Move> {
        let (board, mv) = self.history.pop()?;
        self.board = board;
        Some(mv)
    }

    /// How many times the board now (pieces and side to move) has stood, this time included.
    pub fn repetitions(&self) -> usize {
        let now = &self.board;
        1 + self
            .history
            .iter()
            .filter(|(b, _)| {
                b.key() == now.key() && b.side_to_move() == now.side_to_move() && b.same_pieces(now)
            })
            .count()
    }

    /// The result if the game is over: a king hit, the third repetition, the 2018 quiet-move draw, or
    /// no move left.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(loser) = self.board.loser() {
            return Some(Outcome { termination: Termination::KingHit, winner: Some(loser.flip()) });
        }
        if self.repetitions() >= 3 {
            return Some(Outcome { termination: Termination::Repetition, winner: None });
        }
        if self.board.rules() == Rules::R2018 && self.board.quiet_plies() >= QUIET_PLIES_DRAW_2018 {
            return Some(Outcome { termination: Termination::QuietMoves, winner: None });
        }
        let mut moves = Vec::with_capacity(128);
        self.board.generate(&mut moves);
        if moves.iter().all(|&mv| self.is_ko(&self.board.after(mv).0)) {
            let side = self.board.side_to_move();
            return Some(Outcome { termination: Termination::NoMoves, winner: Some(side.flip()) });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ko_forbids_doing_nothing_and_undoing_the_opponents_move() {
        // At the start, the king's null move zaps nothing, and a shift of an SE pawn onto a
        // neighbouring SE pawn exchanges two identical pieces (six such pairs): each leaves the board
        // as it was.
        let pos = Position::start(Rules::R2016);
        assert!(pos.illegality(mv("h0h0")).unwrap().starts_with("Ko"));
        assert!(pos.illegality(mv("f2e1")).unwrap().starts_with("Ko"));
        assert_eq!(pos.legal_moves().len(), 78 - 1 - 12);
        // Lavender's pawn exchanges with Tangerine's; Tangerine may not exchange them straight back.
        let mut pos = Position::new(Board::from_fen("ss7/8/8/3nw4/3NW4/8/8/7NN B", Rules::R2016).unwrap());
        pos.push(mv("d4d3")).unwrap();
        assert_eq!(pos.board().fen(), "ss7/8/8/3NW4/3nw4/8/8/7NN W");
        assert!(pos.illegality(mv("d4d3")).unwrap().starts_with("Ko"));
        assert!(!pos.legal_moves().contains(&mv("d4d3")));
        assert_eq!(pos.illegality(mv("d4d5")), None);
    }

    #[test]
    fn repetition_draws_at_the_third_time() {
        let mut pos = Position::new(Board::from_fen("ss7/8/8/8/8/8/8/7NN W", Rules::R2016).unwrap());
        for _ in 0..2 {
            for text in ["h0R", "a7R", "h0L", "a7L"] {
                assert!(pos.outcome().is_none());
                pos.push(mv(text)).unwrap();
            }
        }
        assert_eq!(pos.repetitions(), 3);
        assert_eq!(pos.outcome(), Some(Outcome { termination: Termination::Repetition, winner: None }));
        assert!(pos.legal_moves().is_empty());
        assert_eq!(pos.pop(), Some(mv("a7L")));
        assert_eq!(pos.outcome(), None);
    }

    #[test]
    fn a_hit_king_ends_the_game_and_pop_restores() {
        let mut pos = Position::new(Board::from_fen("8/8/8/8/8/8/8/NN6nn W", Rules::R2016).unwrap());
        let report = pos.push(mv("a0R")).unwrap();
        assert_eq!(report.king_hit, Some(Color::Lavender));
        assert_eq!(
            pos.outcome(),
            Some(Outcome { termination: Termination::KingHit, winner: Some(Color::Tangerine) })
        );
        assert!(pos.legal_moves().is_empty());
        assert!(pos.push(mv("h0h1")).unwrap_err().to_string().contains("the game is over"));
        assert_eq!(pos.pop(), Some(mv("a0R")));
        assert_eq!(pos.board().fen(), "8/8/8/8/8/8/8/NN6nn W");
    }

    #[test]
    fn illegal_moves_say_why_and_change_nothing() {
        let mut pos = Position::start(Rules::R2016);
        let before = pos.board().clone();
        for (text, reason) in
            [("a5a6", "no piece"), ("a7a6", "not a piece of the side to move"), ("f4R", ""), ("h0h0", "Ko")]
        {
            let result = pos.push_text(text);
            if reason.is_empty() {
                assert!(result.is_ok(), "{text}");
                pos.pop();
            } else {
                let e = result.unwrap_err().to_string();
                assert!(e.contains(reason) && e.contains(text), "{text}: {e}");
            }
        }
        assert!(matches!(pos.push_text("e6e8"), Err(MoveError::Parse(_))));
        assert_eq!(pos.board(), &before);
    }

    /// The move written `text`.
    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }
}
