//! Perft: the number of move sequences of a given length, by the rules page's convention — every
//! generated move counts (Ko is a rule of play, not of perft), and a move whose shot hits a king ends
//! its line as one leaf. The counting is the games framework's (`camelpy_games::perft`), over the
//! boards of the line being counted.

use std::sync::atomic::AtomicBool;

use camelpy_games::{perft as framework, Perft};

use crate::{board::Board, moves::Move};

/// The boards of the line perft is counting, the root first: a move is played by copy-make (the
/// board's own way: the shot is part of the move) and taken back by dropping its board.
struct Line(Vec<Board>);

impl Line {
    fn new(root: &Board) -> Line {
        let mut boards = Vec::with_capacity(16);
        boards.push(root.clone());
        Line(boards)
    }

    #[inline]
    fn board(&self) -> &Board {
        // Never empty: the root stays.
        &self.0[self.0.len() - 1]
    }
}

impl Perft for Line {
    type Move = Move;
    type Moves = Vec<Move>;

    #[inline]
    fn perft_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(128);
        self.board().generate(&mut moves);
        moves
    }

    #[inline]
    fn perft_play(&mut self, mv: Move) {
        let next = self.board().after(mv).0;
        self.0.push(next);
    }

    #[inline]
    fn perft_undo(&mut self) {
        self.0.pop();
    }

    /// A shot hit a king.
    #[inline]
    fn line_ended(&self) -> bool {
        self.board().loser().is_some()
    }
}

/// The leaves of the move tree `depth` plies deep from `board`.
///
/// ```
/// use camelpy_leiserchess::{perft::perft, Board, Rules};
/// assert_eq!(perft(&Board::start(Rules::R2016), 2), 6_084);
/// ```
pub fn perft(board: &Board, depth: u32) -> u64 {
    framework::perft(&mut Line::new(board), depth)
}

/// Each move's count at `depth` (perft of `depth − 1` after it), in generation order.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    framework::divide(&mut Line::new(board), depth)
}

/// [`perft`] that gives up (`None`) once `stop` is raised, checked at every node three or more plies
/// above the leaves.
pub fn perft_interruptible(board: &Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    framework::perft_interruptible(&mut Line::new(board), depth, stop)
}
