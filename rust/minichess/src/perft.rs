//! Perft: the number of leaves of the legal move tree, counted in bulk at the last ply (the length of
//! the move list). Finished games are leaves of no deeper tree: a king capture or the 50th ply stops a
//! line, as a mate does in chess.

pub use camelpy_games::perft::{divide, perft, perft_interruptible};
use camelpy_games::Perft;

use crate::{
    board::{Board, MoveList},
    types::Move,
};

/// Perft walks the legal moves by make/unmake (the framework's [`perft`], [`divide`] and
/// [`perft_interruptible`] count).
impl Perft for Board {
    type Move = Move;
    type Moves = MoveList;

    #[inline]
    fn perft_moves(&self) -> MoveList {
        self.legal_moves()
    }

    #[inline]
    fn perft_play(&mut self, mv: Move) {
        self.play_unchecked(mv);
    }

    #[inline]
    fn perft_undo(&mut self) {
        self.undo();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;

    /// Perft that also checks, at every node, that make/unmake restores the board and that the
    /// incremental key equals the recomputed one.
    fn checked_perft(board: &mut Board, depth: u32) -> u64 {
        assert_eq!(board.key(), board.compute_key());
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        for &mv in board.legal_moves().iter() {
            let before = board.clone();
            board.play_unchecked(mv);
            nodes += checked_perft(board, depth - 1);
            assert_eq!(board.undo(), Some(mv));
            assert_eq!(*board, before);
            assert_eq!(board.key(), before.key());
        }
        nodes
    }

    /// `(position, [perft 1, 2, ...])`; the counts are cross-checked by the independent pure-Python
    /// generator in `tests/test_minichess.py`.
    pub(crate) const CASES: &[(&str, &[u64])] = &[
        (crate::text::START_TEXT, &[7, 49, 452, 4230, 47_102, 532_718]),
        ("kqbnr/ppppp/5/2P2/PP1PP/RNBQK b 1", &[7, 63, 594, 7157]),
        ("k1n1r/1P1P1/5/5/1p1p1/R1N1K w 10", &[19, 289, 5102, 85_014]),
        ("5/2k2/1Q3/3q1/2K2/5 w 20", &[23, 485, 8953, 165_611]),
        ("kqbnr/ppppp/QQQQQ/qqqqq/PPPPP/RNBQK w 0", &[36, 1223, 40_090]),
        ("k1b1r/p1p1p/1p1n1/1PqP1/P1N1P/R1BQK b 12", &[22, 282, 6285]),
        ("kqbnr/ppppp/5/5/PPPPP/RNBQK w 48", &[7, 49, 0]),
        ("k4/5/3p1/2pPp/2PRP/3BK w 10", &[0, 0]),
    ];

    #[test]
    fn perft_table() {
        for (text, counts) in CASES {
            let mut board = Board::from_text(text).unwrap();
            for (i, &want) in counts.iter().enumerate() {
                let depth = i as u32 + 1;
                assert_eq!(perft(&mut board, depth), want, "{text} depth {depth}");
                if want < 50_000 {
                    assert_eq!(checked_perft(&mut board, depth), want, "{text} depth {depth} (checked)");
                }
            }
            let split = divide(&mut board, counts.len() as u32);
            assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), *counts.last().unwrap());
            let stop = AtomicBool::new(false);
            assert_eq!(perft_interruptible(&mut board, counts.len() as u32, &stop), counts.last().copied());
            stop.store(true, Ordering::Relaxed);
            if counts.len() > 2 {
                assert_eq!(perft_interruptible(&mut board, counts.len() as u32, &stop), None);
            }
        }
    }
}
