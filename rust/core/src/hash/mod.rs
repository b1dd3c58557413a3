//! Hashing helpers, on the ground floor (they import nothing from the crate): FNV-1a ([`fnv`]), the
//! checksum and digest of camelpy's files and the hasher of small-keyed maps, and SplitMix64
//! ([`splitmix`]), the seeded stream and mixing function that Zobrist keys (the chess core's,
//! MiniChess's and Leiserchess's), data generation, the trainer and the benches draw from.
//!
//! They used to live at `camelpy_core::fnv` and `camelpy_core::data::{rng, SplitMix64}`; those paths
//! still work (re-exports).

pub mod fnv;
pub mod splitmix;

pub use fnv::{fnv1a, Fnv, FnvBuildHasher};
pub use splitmix::{splitmix64, SplitMix64};
