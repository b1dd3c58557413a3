//! Perft: the number of move sequences of a given length, by the rules page's convention — every
//! generated move counts (Ko is a rule of play, not of perft), and a move whose shot hits a king ends
//! its line as one leaf.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::{board::Board, moves::Move};

/// The leaves of the move tree `depth` plies deep from `board`.
///
/// ```
/// use camelpy_leiserchess::{perft::perft, Board, Rules};
/// assert_eq!(perft(&Board::start(Rules::R2016), 2), 6_084);
/// ```
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(128);
    board.generate(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let (next, report) = board.after(mv);
            if report.king_hit.is_some() {
                1
            } else {
                perft(&next, depth - 1)
            }
        })
        .sum()
}

/// Each move's count at `depth` (perft of `depth − 1` after it), in generation order.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::with_capacity(128);
    board.generate(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let (next, report) = board.after(mv);
            let count = if report.king_hit.is_some() || depth <= 1 { 1 } else { perft(&next, depth - 1) };
            (mv, count)
        })
        .collect()
}

/// [`perft`] that gives up (`None`) once `stop` is raised, checked at every inner node.
pub fn perft_interruptible(board: &Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(board, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = Vec::with_capacity(128);
    board.generate(&mut moves);
    let mut total = 0;
    for mv in moves {
        let (next, report) = board.after(mv);
        total += if report.king_hit.is_some() { 1 } else { perft_interruptible(&next, depth - 1, stop)? };
    }
    Some(total)
}
