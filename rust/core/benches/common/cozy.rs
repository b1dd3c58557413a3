//! cozy-chess's bulk-counting perft, the competitor of both perft benches (`perft.rs`, criterion, and
//! `perft_vs_cozy.rs`, interleaved): written the usual way for its API, `generate_moves` handing over
//! moves grouped by piece, counted without playing them at the last ply.

/// The leaves of cozy-chess's move tree `depth` plies below `board`.
pub fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}
