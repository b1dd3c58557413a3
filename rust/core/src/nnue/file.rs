//! The network file: a 48-byte header, then the quantised weights. All numbers little-endian.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `CAMELNET` |
//! | 8 | 2 | format version ([`NET_VERSION`]) |
//! | 10 | 2 | activation: 1 = SCReLU |
//! | 12 | 4 | inputs per perspective (768) |
//! | 16 | 4 | hidden neurons per perspective ([`HIDDEN`]) |
//! | 20 | 2 | `QA` (255) |
//! | 22 | 2 | `QB` (64) |
//! | 24 | 4 | `SCALE` (400) |
//! | 28 | 4 | reserved, 0 |
//! | 32 | 8 | FNV-1a 64 checksum of the payload |
//! | 40 | 8 | payload length in bytes |
//! | 48 | … | payload: feature-transformer weights `i16[inputs × hidden]` (feature-major), biases `i16[hidden]`, output weights `i16[2 × hidden]` (side to move first), output bias `i32` |
//!
//! A file that is not this (another magic, version, shape, length or checksum, an output weight beyond
//! ±[`MAX_OUTPUT_WEIGHT`](super::MAX_OUTPUT_WEIGHT)) is refused with a [`NetError`] saying which.

use std::{
    path::Path,
    sync::{Arc, OnceLock},
};

use super::{NetError, Network, HIDDEN, INPUTS, QA, QB, SCALE};
use crate::{error::AllocError, fsio, hash::fnv1a};

/// The first eight bytes of every network file.
pub const NET_MAGIC: [u8; 8] = *b"CAMELNET";
/// The network format version this build writes and reads.
pub const NET_VERSION: u16 = 1;
/// Bytes in the header.
pub const NET_HEADER_SIZE: usize = 48;
/// The activation code of SCReLU.
const ACTIVATION_SCRELU: u16 = 1;
/// Payload bytes of this build's architecture.
const PAYLOAD_SIZE: usize = 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

pub(crate) fn payload(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(PAYLOAD_SIZE);
    for w in net.ft_weights.iter().chain(&net.ft_bias).chain(&net.out_weights) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&net.out_bias.to_le_bytes());
    out
}

fn fallible_vec(len: usize, what: &'static str) -> Result<Vec<i16>, AllocError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| AllocError { what, bytes: len * 2 })?;
    Ok(v)
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl Network {
    /// The file's bytes: header and payload.
    ///
    /// ```
    /// use camelpy_core::nnue::Network;
    /// let net = Network::example(7);
    /// assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = payload(self);
        let mut out = Vec::with_capacity(NET_HEADER_SIZE + payload.len());
        out.extend_from_slice(&NET_MAGIC);
        out.extend_from_slice(&NET_VERSION.to_le_bytes());
        out.extend_from_slice(&ACTIVATION_SCRELU.to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        out.extend_from_slice(&(QA as u16).to_le_bytes());
        out.extend_from_slice(&(QB as u16).to_le_bytes());
        out.extend_from_slice(&(SCALE as u32).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        debug_assert_eq!(out.len(), NET_HEADER_SIZE);
        out.extend_from_slice(&payload);
        out
    }

    /// Checks a file's header (its first [`NET_HEADER_SIZE`] bytes, or all of a shorter file) against
    /// this build and against the file's length `file_len`, before its weights are read.
    fn check_header(header: &[u8], file_len: u64) -> Result<(), NetError> {
        let path = String::new();
        if header.len() < NET_HEADER_SIZE || header[..8] != NET_MAGIC {
            return Err(NetError::NotNetFile { path });
        }
        let version = u16_at(header, 8);
        if version != NET_VERSION {
            return Err(NetError::Version { path, found: version });
        }
        let shape = [
            ("activation", u16_at(header, 10) as u64, ACTIVATION_SCRELU as u64),
            ("inputs", u32_at(header, 12) as u64, INPUTS as u64),
            ("hidden neurons", u32_at(header, 16) as u64, HIDDEN as u64),
            ("QA", u16_at(header, 20) as u64, QA as u64),
            ("QB", u16_at(header, 22) as u64, QB as u64),
            ("scale", u32_at(header, 24) as u64, SCALE as u64),
            ("reserved field", u32_at(header, 28) as u64, 0),
        ];
        if let Some((name, found, want)) = shape.iter().find(|(_, found, want)| found != want) {
            return Err(NetError::Architecture {
                path,
                reason: format!("{name} is {found}, this build needs {want}"),
            });
        }
        let declared = u64_at(header, 40);
        let actual = file_len - NET_HEADER_SIZE as u64;
        if declared != PAYLOAD_SIZE as u64 || actual != declared {
            return Err(NetError::Corrupt {
                path,
                reason: format!(
                    "{actual} bytes of weights after the header, which declares {declared} ({PAYLOAD_SIZE} expected)"
                ),
            });
        }
        Ok(())
    }

    /// A network from a file's bytes. Errors name no file; [`Network::load`] adds the path.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let path = String::new();
        Network::check_header(&bytes[..bytes.len().min(NET_HEADER_SIZE)], bytes.len() as u64)?;
        let body = &bytes[NET_HEADER_SIZE..];
        let (stored, computed) = (u64_at(bytes, 32), fnv1a(body));
        if stored != computed {
            return Err(NetError::Corrupt {
                path,
                reason: format!("checksum {computed:#018x} of the weights, the header says {stored:#018x}"),
            });
        }
        let mut words = body.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize, what: &'static str| -> Result<Vec<i16>, NetError> {
            let mut v = fallible_vec(n, what)?;
            v.extend(words.by_ref().take(n));
            Ok(v)
        };
        let ft_weights = take(INPUTS * HIDDEN, "network's feature weights")?;
        let ft_bias = take(HIDDEN, "network's biases")?;
        let out_weights = take(2 * HIDDEN, "network's output weights")?;
        let out_bias = i32::from_le_bytes(body[PAYLOAD_SIZE - 4..].try_into().expect("4 bytes"));
        // The sizes are right by construction; this checks the output weights' range.
        Network::from_parts(ft_weights, ft_bias, out_weights, out_bias)
    }

    /// Reads a network file: a regular file whose header this build reads and whose length is the
    /// one the header declares, checked before the weights are read ([`crate::fsio`]).
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let name = path.display().to_string();
        let io = |error| NetError::Io { path: name.clone(), error };
        let (mut file, len) = fsio::open_regular(path).map_err(io)?;
        let header = fsio::read_up_to(&mut file, NET_HEADER_SIZE).map_err(io)?;
        Network::check_header(&header, len).map_err(|e| e.with_path(&name))?;
        let bytes = fsio::read_rest(&mut file, header, len).map_err(io)?;
        Network::from_bytes(&bytes).map_err(|e| e.with_path(&name))
    }

    /// The network built into camelpy ([`EMBEDDED_NAME`]), decoded once per process and shared by
    /// every caller (each engine starts with it).
    ///
    /// ```
    /// use camelpy_core::nnue::{Network, EMBEDDED_NAME};
    /// let net = Network::embedded().unwrap();
    /// assert!(std::sync::Arc::ptr_eq(&Network::open(EMBEDDED_NAME).unwrap(), &net)); // no such file here
    /// ```
    pub fn embedded() -> Result<Arc<Network>, NetError> {
        static EMBEDDED: OnceLock<Arc<Network>> = OnceLock::new();
        if let Some(net) = EMBEDDED.get() {
            return Ok(net.clone());
        }
        let net = Network::from_bytes(EMBEDDED_BYTES).map_err(|e| e.with_path(EMBEDDED_NAME))?;
        Ok(EMBEDDED.get_or_init(|| Arc::new(net)).clone())
    }

    /// The network an `EvalFile` setting names: the file at `name`, or, when no file is there and the
    /// name is [`EMBEDDED_NAME`], the network built into camelpy (as Stockfish resolves its
    /// `EvalFile`).
    pub fn open(name: &str) -> Result<Arc<Network>, NetError> {
        let path = Path::new(name);
        if name == EMBEDDED_NAME && !path.exists() {
            return Network::embedded();
        }
        Network::load(path).map(Arc::new)
    }
}

/// The name of the network built into camelpy: `EvalFile` (and `Engine(eval_file=…)`) with this name
/// selects it unless a file of that name is in the working folder. Its provenance (the commands that
/// make it again) is `rust/core/nets/camelpy-1.md`.
pub const EMBEDDED_NAME: &str = "camelpy-1.nnue";

/// The built-in network's file, in the build (394 KB).
static EMBEDDED_BYTES: &[u8] = include_bytes!("../../nets/camelpy-1.nnue");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_every_damage_is_refused() {
        let net = Network::example(3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), NET_HEADER_SIZE + PAYLOAD_SIZE);
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);

        let refused = |b: &[u8]| Network::from_bytes(b).unwrap_err().to_string();
        assert!(refused(&bytes[..20]).contains("not a camelpy network file"));
        assert!(refused(b"").contains("not a camelpy network file"));
        let mut b = bytes.clone();
        b[8] = 9;
        assert!(refused(&b).contains("version 9"));
        let mut b = bytes.clone();
        b[17] = 0; // hidden 256 → 0
        assert!(refused(&b).contains("hidden neurons is 0, this build needs 256"), "{}", refused(&b));
        assert!(refused(&bytes[..bytes.len() - 1]).contains("damaged"));
        let mut b = bytes.clone();
        b.push(0);
        assert!(refused(&b).contains("damaged"));
        let mut b = bytes.clone();
        b[NET_HEADER_SIZE + 1000] ^= 1;
        assert!(refused(&b).contains("checksum"));

        // An output weight out of range, with a checksum that matches: still refused.
        let mut parts = net.clone();
        parts.out_weights[5] = 200;
        let b = parts.to_bytes();
        assert!(refused(&b).contains("output weight 5 is 200"));
    }

    #[test]
    fn load_names_the_file() {
        let err = Network::load(Path::new("/nonexistent/x.nnue")).unwrap_err().to_string();
        assert!(err.contains("'/nonexistent/x.nnue'"), "{err}");
        let dir = std::env::temp_dir().join(format!("camelpy-net-{}", std::process::id()));
        std::fs::write(&dir, b"hello").unwrap();
        let err = Network::load(&dir).unwrap_err().to_string();
        std::fs::remove_file(&dir).unwrap();
        assert!(err.contains("is not a camelpy network file"), "{err}");
    }
}
