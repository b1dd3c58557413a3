//! Finding our own magic numbers, and the slow ray walk every table entry is checked against.
//!
//! This file is compiled twice: by `build.rs` (which runs [`find_all`] and emits the attack tables as Rust
//! source into `OUT_DIR`) and into the crate (so tests can rerun the search and compare with the reference).
//! It therefore depends on nothing but `core`: squares are `usize` indices (A1 = 0) and sets are `u64`.
//!
//! The search is Stockfish's recipe (<https://www.chessprogramming.org/Looking_for_Magics>): draw sparse
//! random numbers from a fixed-seed generator until one maps every blocker subset of a square's relevant
//! mask to an index whose slot holds no conflicting attack set ("fancy" magics, a per-square shift of
//! `64 - bits`). Fixed seeds make the tables identical on every build.

/// Rook directions as (file step, rank step).
pub const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file step, rank step).
pub const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Seeds of the generator, one per slider kind. Any seed works; these are fixed so builds are reproducible.
pub const ROOK_SEED: u64 = 0x00C4_3E15_CA7E_1A5D;
/// See [`ROOK_SEED`].
pub const BISHOP_SEED: u64 = 0x5EED_B15B_0A2D_0001;

/// The attack set of a slider on `square` moving in `directions`, stopping at (and including) the first
/// occupied square of each ray. The slow, obviously correct reference.
pub const fn slider_attacks_slow(square: usize, occupied: u64, directions: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut f = (square % 8) as i8 + df;
        let mut r = (square / 8) as i8 + dr;
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The squares whose occupancy changes the attack set: each ray without its last (edge) square.
pub const fn relevant_mask(square: usize, directions: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut f = (square % 8) as i8 + df;
        let mut r = (square / 8) as i8 + dr;
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// xorshift64* (Vigna): small, fast, and good enough to draw magic candidates.
pub struct Rng(u64);

impl Rng {
    /// A generator with a non-zero seed.
    pub const fn new(seed: u64) -> Rng {
        Rng(if seed == 0 { 0x9E37_79B9_7F4A_7C15 } else { seed })
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number with about 8 of 64 bits set: sparse candidates are far likelier to be magic.
    pub fn sparse_u64(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }
}

/// The magic entry for one square: index = `((occupied & mask) * magic) >> shift`, plus `offset` into the
/// shared table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MagicEntry {
    /// Relevant occupancy mask.
    pub mask: u64,
    /// The multiplier we found.
    pub magic: u64,
    /// `64 - mask.count_ones()`.
    pub shift: u32,
    /// Start of this square's slice in the shared attack table.
    pub offset: u32,
}

/// Every subset of `mask`, the empty set first (carry-rippler).
pub fn subsets(mask: u64) -> impl Iterator<Item = u64> {
    let mut subset = 0u64;
    let mut done = false;
    core::iter::from_fn(move || {
        if done {
            return None;
        }
        let current = subset;
        subset = subset.wrapping_sub(mask) & mask;
        done = subset == 0;
        Some(current)
    })
}

/// Searches a magic for `square` and returns it with the square's attack slice in magic-index order.
pub fn find_magic(square: usize, directions: &[(i8, i8); 4], rng: &mut Rng) -> (u64, Vec<u64>) {
    let mask = relevant_mask(square, directions);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let (occupancies, attacks): (Vec<u64>, Vec<u64>) =
        subsets(mask).map(|occ| (occ, slider_attacks_slow(square, occ, directions))).unzip();
    let size = 1usize << bits;
    let mut table = vec![0u64; size];
    // `epoch[i] == attempt` marks slot i as written during this attempt, so the table needs no clearing.
    let mut epoch = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        let magic = rng.sparse_u64();
        // A good magic spreads the mask's bits into the top byte; skip candidates that cannot.
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let mut ok = true;
        for (&occ, &att) in occupancies.iter().zip(&attacks) {
            let index = (occ.wrapping_mul(magic) >> shift) as usize;
            if epoch[index] != attempt {
                epoch[index] = attempt;
                table[index] = att;
            } else if table[index] != att {
                ok = false;
                break;
            }
        }
        if ok {
            return (magic, table);
        }
    }
}

/// The attack slice of `square` in PEXT order: entry `pext(occupied, mask)`.
pub fn pext_slice(square: usize, directions: &[(i8, i8); 4]) -> Vec<u64> {
    let mask = relevant_mask(square, directions);
    let mut table = vec![0u64; 1 << mask.count_ones()];
    for (i, occ) in subsets(mask).enumerate() {
        // The carry-rippler enumerates subsets in increasing PEXT value, so `i` is the PEXT index.
        table[i] = slider_attacks_slow(square, occ, directions);
    }
    table
}

/// Finds the magics for all 64 squares of one slider and builds the shared table, either in magic-index
/// order or (when `pext` is set, for CPUs with BMI2) in PEXT order; offsets are identical in both layouts.
pub fn find_all(directions: &[(i8, i8); 4], seed: u64, pext: bool) -> ([MagicEntry; 64], Vec<u64>) {
    let mut rng = Rng::new(seed);
    let mut entries = [MagicEntry { mask: 0, magic: 0, shift: 0, offset: 0 }; 64];
    let mut table = Vec::new();
    for (square, entry) in entries.iter_mut().enumerate() {
        let mask = relevant_mask(square, directions);
        let (magic, slice) = find_magic(square, directions, &mut rng);
        *entry = MagicEntry { mask, magic, shift: 64 - mask.count_ones(), offset: table.len() as u32 };
        if pext {
            table.extend(pext_slice(square, directions));
        } else {
            table.extend(slice);
        }
    }
    (entries, table)
}
