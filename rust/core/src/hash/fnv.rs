//! FNV-1a, 64 bits: the one checksum and digest of camelpy's files (the data files' settings digest,
//! the network file's checksum, the trainer's checkpoint). A guard against damage and mismatched
//! settings, not against tampering.

/// FNV-1a's offset basis: the hash of no bytes.
const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a's 64-bit prime.
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// A running FNV-1a hash: feed bytes (or little-endian integers) in order, then read [`Fnv::finish`].
///
/// ```
/// use camelpy_core::hash::{fnv1a, Fnv};
/// assert_eq!(Fnv::new().bytes(b"ab").u64(7).finish(), fnv1a(&[b"ab".as_slice(), &7u64.to_le_bytes()].concat()));
/// assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv::new()
    }
}

impl Fnv {
    /// The hash of nothing yet.
    pub const fn new() -> Fnv {
        Fnv(OFFSET)
    }

    /// Feeds `bytes`.
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Fnv {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(PRIME);
        }
        self
    }

    /// Feeds `v` as 8 little-endian bytes.
    pub fn u64(&mut self, v: u64) -> &mut Fnv {
        self.bytes(&v.to_le_bytes())
    }

    /// The hash of everything fed.
    pub const fn finish(&self) -> u64 {
        self.0
    }
}

/// The FNV-1a hash of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    Fnv::new().bytes(bytes).finish()
}

impl core::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.bytes(bytes);
    }
}

/// A `HashMap` hasher state for small keys: FNV-1a is several times faster than the default SipHash
/// on a few bytes, and the keys are ours (no flooding to fear).
pub type FnvBuildHasher = core::hash::BuildHasherDefault<Fnv>;
