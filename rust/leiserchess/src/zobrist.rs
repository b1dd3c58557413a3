//! Zobrist keys: our own 64-bit numbers (piece × orientation × square, and the side to move), made at
//! compile time from a fixed seed by the core's SplitMix64, so keys are the same on every build.

use camelpy_core::data::rng::splitmix64;

use crate::types::{Piece, Square, NUM_SQUARES};

/// Seed of the key stream (any fixed value).
const SEED: u64 = 0x1E15_E5C4_E550_2016;

struct Keys {
    pieces: [[u64; NUM_SQUARES]; 16],
    side: u64,
}

const fn generate() -> Keys {
    let mut keys = Keys { pieces: [[0; NUM_SQUARES]; 16], side: 0 };
    let mut state = SEED;
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < NUM_SQUARES {
            state = state.wrapping_add(1);
            keys.pieces[p][s] = splitmix64(state);
            s += 1;
        }
        p += 1;
    }
    keys.side = splitmix64(state.wrapping_add(1));
    keys
}

static KEYS: Keys = generate();

/// The number for `piece` (side, kind and orientation) on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.index()][sq.index()]
}

/// The number XORed in when Lavender is to move.
#[inline]
pub fn side_key() -> u64 {
    KEYS.side
}
