//! Zobrist keys: our own 64-bit random numbers, generated at compile time from a fixed seed.
//!
//! A position's key is the XOR of one number per (piece, square), one per castling-rights set (indexed
//! by the 4-bit mask, so any change is one XOR pair), one per en-passant file (only when an en-passant
//! capture is actually legal, which keeps the key canonical), and one if Black is to move.

use crate::{
    hash::splitmix64,
    types::{Piece, Square},
};

/// Seed for the key generator; fixed so keys are identical on every build and platform.
const SEED: u64 = 0xCA3E_1B07_2024_0001;

/// All Zobrist numbers.
pub struct Keys {
    pieces: [[u64; 64]; 12],
    castling: [u64; 16],
    en_passant: [u64; 8],
    black_to_move: u64,
}

const fn generate() -> Keys {
    let mut keys = Keys { pieces: [[0; 64]; 12], castling: [0; 16], en_passant: [0; 8], black_to_move: 0 };
    let mut state = SEED;
    let mut p = 0;
    while p < 12 {
        let mut s = 0;
        while s < 64 {
            state = state.wrapping_add(1);
            keys.pieces[p][s] = splitmix64(state);
            s += 1;
        }
        p += 1;
    }
    // Castling: one number per single right; a set's key is the XOR of its rights.
    let mut single = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        state = state.wrapping_add(1);
        single[i] = splitmix64(state);
        i += 1;
    }
    let mut mask = 0;
    while mask < 16 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 4 {
            if mask >> bit & 1 == 1 {
                k ^= single[bit];
            }
            bit += 1;
        }
        keys.castling[mask] = k;
        mask += 1;
    }
    let mut f = 0;
    while f < 8 {
        state = state.wrapping_add(1);
        keys.en_passant[f] = splitmix64(state);
        f += 1;
    }
    state = state.wrapping_add(1);
    keys.black_to_move = splitmix64(state);
    keys
}

/// The key table.
pub static KEYS: Keys = generate();

impl Keys {
    /// The number for `piece` on `square`.
    #[inline(always)]
    pub fn piece(&self, piece: Piece, square: Square) -> u64 {
        self.pieces[piece as usize][square as usize]
    }

    /// The number for a castling-rights mask (see `CastlingRights::mask`).
    #[inline(always)]
    pub fn castling(&self, mask: usize) -> u64 {
        self.castling[mask & 15]
    }

    /// The number for an en-passant square on `file` (0..8).
    #[inline(always)]
    pub fn en_passant(&self, file: usize) -> u64 {
        self.en_passant[file & 7]
    }

    /// The number XORed in when Black is to move.
    #[inline(always)]
    pub fn black_to_move(&self) -> u64 {
        self.black_to_move
    }
}
