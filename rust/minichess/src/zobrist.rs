//! Zobrist keys: our own 64-bit numbers, generated at compile time from a fixed seed by the games
//! framework's key stream (`camelpy_games::ZobristKeys`), so keys are the same on every build and
//! platform.
//!
//! A position's key is the XOR of one number per (piece, square) and one more when Black is to move.
//! The ply count is not in the key: a table that needs it (the 50-ply horizon) adds it itself.

use camelpy_core::hash::splitmix64;
use camelpy_games::ZobristKeys;

use crate::types::{Piece, Square, NUM_SQUARES};

/// Seed of the key stream (any fixed value; this one spells "camelpy minichess" loosely).
const SEED: u64 = 0x6D1C_4E55_0630_0018;
/// The stream's step (the golden ratio's, as SplitMix64's own).
const STEP: u64 = 0x9E37_79B9_7F4A_7C15;

/// The keys of the 12 pieces on the 30 squares, then Black to move.
static KEYS: ZobristKeys<12, NUM_SQUARES> = ZobristKeys::generate(SEED, STEP);

/// The number for `piece` on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.piece(piece.index(), sq.index())
}

/// A number for the ply count, for a search's table key (the 50-ply horizon makes the same pieces worth
/// different things at different plies); distinct from every piece key (another stream of the same
/// mixer).
#[inline]
pub fn ply_key(ply: u32) -> u64 {
    splitmix64(!SEED ^ u64::from(ply).wrapping_mul(STEP))
}

/// The number XORed in when Black is to move.
#[inline]
pub fn black_to_move_key() -> u64 {
    KEYS.side
}

#[cfg(test)]
mod tests {
    use crate::board::Board;

    /// The keys are part of the search's signatures: the start's key and one after a move, as they were
    /// when the keys were first made (the same from the Python `MiniBoard.zobrist_key`).
    #[test]
    fn the_keys_are_the_ones_first_made() {
        let mut board = Board::start();
        assert_eq!(board.key(), 6_713_695_107_239_681_551);
        board.play("4 2 3 2".parse().unwrap());
        assert_eq!(board.key(), 16_509_979_420_018_073_830);
    }
}
