//! A small deterministic pseudo-random generator: SplitMix64 (Steele, Lea and Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014; the constants are the published ones), for Zobrist keys,
//! data generation, the trainer and the benches. It is fast, has a 64-bit state that any seed fills well,
//! and passes BigCrush; nothing here needs cryptographic quality, only a stream that is the same on every
//! machine.

/// The increment of the state at each step: 2⁶⁴ divided by the golden ratio, odd.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function (a variant of MurmurHash3's finaliser): a bijection of `u64` that
/// spreads every input bit over the output.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The output of SplitMix64's step from `state`: `mix(state + GAMMA)`, the stream's next number when
/// its state is `state`. A `const fn`, for tables of random numbers built at compile time (Zobrist
/// keys: the chess core's, MiniChess's and Leiserchess's all come from here).
pub const fn splitmix64(state: u64) -> u64 {
    mix(state.wrapping_add(GAMMA))
}

/// A SplitMix64 stream.
///
/// ```
/// use camelpy_core::hash::SplitMix64;
/// let mut rng = SplitMix64::new(0);
/// assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF); // the reference implementation's first output
/// assert!(rng.below(20) < 20);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The stream that starts from `seed`.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The stream of game `index` of a run seeded with `seed`. The state is a hash of both (not
    /// `seed + index`, which would make game `i + 1`'s stream game `i`'s shifted by one step), so every
    /// game's choices depend only on `(seed, index)`, whichever thread plays it.
    pub const fn for_game(seed: u64, index: u64) -> SplitMix64 {
        SplitMix64(mix(seed ^ mix(index.wrapping_add(GAMMA))))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix(self.0)
    }

    /// A number in `0..n` (`n` > 0), by multiplying and keeping the high half (Lemire): no division, and
    /// a bias of at most n / 2⁶⁴.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_outputs_and_independent_game_streams() {
        let mut rng = SplitMix64::new(1234567);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        // The reference implementation (Vigna's splitmix64.c) with x = 1234567.
        assert_eq!(first, [6457827717110365317, 3203168211198807973, 9817491932198370423]);
        let mut a = SplitMix64::for_game(7, 0);
        let mut b = SplitMix64::for_game(7, 1);
        let (a0, a1, b0) = (a.next_u64(), a.next_u64(), b.next_u64());
        assert_ne!(a0, b0);
        assert_ne!(a1, b0, "game 1 is not game 0 shifted by one step");
        assert_eq!(SplitMix64::for_game(7, 1), SplitMix64::for_game(7, 1));
        let counts = (0..6000).fold([0u32; 6], |mut c, _| {
            c[a.below(6)] += 1;
            c
        });
        assert!(counts.iter().all(|&c| (800..1200).contains(&c)), "{counts:?}");
    }
}
