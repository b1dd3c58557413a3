//! [`ZobristKeys`]: a game's hashing numbers, one per (piece, square) and one for the second player to
//! move, made at compile time from a fixed seed by the core's SplitMix64 (`camelpy_core::hash`), so
//! that keys are the same on every build and platform.

use camelpy_core::hash::splitmix64;

/// `PIECES × SQUARES` piece keys and the side key, drawn in that order from one stream: the state starts
/// at the seed and grows by the step before each draw, and each key is SplitMix64's mix of the state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZobristKeys<const PIECES: usize, const SQUARES: usize> {
    /// The number of each piece (a game's own numbering of its pieces) on each square.
    pub pieces: [[u64; SQUARES]; PIECES],
    /// The number XORed in when the second player is to move.
    pub side: u64,
}

impl<const PIECES: usize, const SQUARES: usize> ZobristKeys<PIECES, SQUARES> {
    /// The keys of the stream that starts at `seed` and advances by `step` (a game's keys are part of
    /// its signatures: both numbers are fixed for good once chosen).
    pub const fn generate(seed: u64, step: u64) -> Self {
        let mut keys = ZobristKeys { pieces: [[0; SQUARES]; PIECES], side: 0 };
        let mut state = seed;
        let mut p = 0;
        while p < PIECES {
            let mut s = 0;
            while s < SQUARES {
                state = state.wrapping_add(step);
                keys.pieces[p][s] = splitmix64(state);
                s += 1;
            }
            p += 1;
        }
        keys.side = splitmix64(state.wrapping_add(step));
        keys
    }

    /// The number of piece `piece` on square `square`.
    #[inline]
    pub const fn piece(&self, piece: usize, square: usize) -> u64 {
        self.pieces[piece][square]
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn keys_are_distinct_nonzero_and_follow_the_stream() {
        const KEYS: ZobristKeys<16, 64> = ZobristKeys::generate(7, 0x9E37_79B9_7F4A_7C15);
        let mut seen: HashSet<u64> = KEYS.pieces.iter().flatten().copied().collect();
        assert_eq!(seen.len(), 16 * 64);
        assert!(seen.insert(KEYS.side) && !seen.contains(&0));
        assert_eq!(KEYS.piece(0, 0), splitmix64(7u64.wrapping_add(0x9E37_79B9_7F4A_7C15)));
        let small = ZobristKeys::<1, 2>::generate(5, 1);
        assert_eq!([small.pieces[0][0], small.pieces[0][1], small.side], [6, 7, 8].map(splitmix64));
    }
}
