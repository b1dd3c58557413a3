//! Perft: counts the leaves of the legal move tree, the law for move generation
//! (<https://www.chessprogramming.org/Perft>). The last ply is bulk counted: the legal generator's count
//! is the number of leaves, with no make/unmake.

use core::sync::atomic::{AtomicBool, Ordering};

use crate::{board::Position, types::Move};

/// The number of leaf nodes `depth` plies below `pos` (1 at depth 0).
///
/// ```
/// use camelpy_core::{perft::perft, Position};
/// assert_eq!(perft(&mut Position::startpos(), 3), 8902);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let moves = pos.legal_moves();
            let mut nodes = 0;
            for &mv in moves.iter() {
                pos.play_unchecked(mv);
                nodes += perft(pos, depth - 1);
                pos.undo_move();
            }
            nodes
        }
    }
}

/// Perft split by root move: each legal move with the leaf count below it (for finding a wrong subtree).
/// Empty at depth 0.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            pos.play_unchecked(mv);
            let n = perft(pos, depth - 1);
            pos.undo_move();
            (mv, n)
        })
        .collect()
}

/// [`perft`] that gives up (returning `None`) soon after `stop` is set: the flag is read at every node
/// three or more plies above the leaves, so the bulk-counted bottom of the tree runs at full speed.
pub fn perft_interruptible(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut nodes = 0;
    for &mv in pos.legal_moves().iter() {
        pos.play_unchecked(mv);
        let below = perft_interruptible(pos, depth - 1, stop);
        pos.undo_move();
        nodes += below?;
    }
    Some(nodes)
}

/// [`divide`] that gives up (returning `None`) soon after `stop` is set.
pub fn divide_interruptible(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let moves = pos.legal_moves();
    let mut lines = Vec::with_capacity(moves.len());
    for &mv in moves.iter() {
        pos.play_unchecked(mv);
        let below = perft_interruptible(pos, depth - 1, stop);
        pos.undo_move();
        lines.push((mv, below?));
    }
    Some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interruptible_matches_and_stops() {
        let stop = AtomicBool::new(false);
        let mut pos = Position::startpos();
        assert_eq!(perft_interruptible(&mut pos, 4, &stop), Some(197_281));
        let lines = divide_interruptible(&mut pos, 3, &stop).unwrap();
        assert_eq!(lines.iter().map(|l| l.1).sum::<u64>(), 8_902);
        stop.store(true, Ordering::Relaxed);
        assert_eq!(perft_interruptible(&mut pos, 6, &stop), None);
        assert_eq!(
            pos.fen(),
            Position::startpos().fen(),
            "an interrupted perft leaves the position as it was"
        );
    }
}
