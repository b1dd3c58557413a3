//! Perft: counts the leaves of the legal move tree, the law for move generation
//! (<https://www.chessprogramming.org/Perft>). The last ply is bulk counted: the legal generator's count
//! is the number of leaves, with no make/unmake.

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
