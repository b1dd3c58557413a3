//! Zobrist keys: our own 64-bit numbers, generated at compile time from a fixed seed, so keys are the
//! same on every build and platform.
//!
//! A position's key is the XOR of one number per (piece, square) and one more when Black is to move.
//! The ply count is not in the key: a table that needs it (the 50-ply horizon) adds it itself.

use camelpy_core::data::rng::splitmix64;

use crate::types::{Piece, Square, NUM_SQUARES};

/// Seed of the key stream (any fixed value; this one spells "camelpy minichess" loosely).
const SEED: u64 = 0x6D1C_4E55_0630_0018;

struct Keys {
    pieces: [[u64; NUM_SQUARES]; 12],
    black_to_move: u64,
}

const fn generate() -> Keys {
    let mut keys = Keys { pieces: [[0; NUM_SQUARES]; 12], black_to_move: 0 };
    let mut state = SEED;
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < NUM_SQUARES {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            keys.pieces[p][s] = splitmix64(state);
            s += 1;
        }
        p += 1;
    }
    keys.black_to_move = splitmix64(state.wrapping_add(0x9E37_79B9_7F4A_7C15));
    keys
}

static KEYS: Keys = generate();

/// The number for `piece` on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.index()][sq.index()]
}

/// A number for the ply count, for a search's table key (the 50-ply horizon makes the same pieces worth
/// different things at different plies); distinct from every piece key (another stream of the same
/// mixer).
#[inline]
pub fn ply_key(ply: u32) -> u64 {
    splitmix64(!SEED ^ u64::from(ply).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The number XORed in when Black is to move.
#[inline]
pub fn black_to_move_key() -> u64 {
    KEYS.black_to_move
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut seen: HashSet<u64> = KEYS.pieces.iter().flatten().copied().collect();
        assert_eq!(seen.len(), 12 * NUM_SQUARES);
        assert!(seen.insert(KEYS.black_to_move));
        assert!(!seen.contains(&0));
    }
}
