//! The network file: a 48-byte header, then the quantised weights. All numbers little-endian.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `CAMELNET` |
//! | 8 | 2 | format version: 1 (camelpy-1's shape only) or 2 ([`NET_VERSION`]) |
//! | 10 | 2 | activation: 1 = SCReLU |
//! | 12 | 4 | inputs per perspective (768) |
//! | 16 | 4 | hidden neurons per perspective: 256 in version 1; 256, 512, 768 or 1,024 ([`Hidden`]) |
//! | 20 | 2 | `QA` (255) |
//! | 22 | 2 | `QB`, the output weights' scale: 64 in version 1; 64 or 256 in version 2 ([`super::QBS`]) |
//! | 24 | 4 | `SCALE` (400) |
//! | 28 | 2 | version 1: reserved, 0; version 2: output buckets, 1 or 8 ([`OutputBuckets`]) |
//! | 30 | 2 | version 1: reserved, 0; version 2: input buckets, 1 or 4 (by king square, [`InputBuckets`]) |
//! | 32 | 8 | FNV-1a 64 checksum of the payload |
//! | 40 | 8 | payload length in bytes |
//! | 48 | … | payload: feature-transformer weights `i16[input buckets × inputs × hidden]` (bucket-major, then feature-major), biases `i16[hidden]`, output weights `i16[buckets × 2 × hidden]` (bucket-major, side to move first), output biases `i32[buckets]` |
//!
//! A version-2 file of camelpy-1's shape and `QB` 64 holds the same payload as the version-1 file (same
//! checksum); [`Network::to_bytes`] writes version 1 for that shape and `QB`, so older builds still read
//! it. camelpy-1 and camelpy-2 have `QB` 64; camelpy-3, camelpy-4 and every net the trainer writes have 256
//! ([`QB_FINE`](super::QB_FINE)), which builds before it refuse by name ("QB is 256, this build needs 64").
//!
//! A file that is not this (another magic or version, a shape or `QB` outside the closed sets above, a length
//! or checksum that does not match, an output weight beyond
//! ±[`MAX_OUTPUT_WEIGHT`](super::MAX_OUTPUT_WEIGHT)) is refused with a [`NetError`] saying which; the
//! header's shape and the file's length are checked before any weight is allocated.

use std::{
    path::Path,
    sync::{Arc, OnceLock},
};

use super::{
    Arch, Hidden, InputBuckets, NetError, Network, OutputBuckets, INPUTS, QA, QBS, QB_FINE, QB_V1, SCALE,
};
use crate::{error::AllocError, fsio, hash::fnv1a};

/// The first eight bytes of every network file.
pub const NET_MAGIC: [u8; 8] = *b"CAMELNET";
/// The newest network format version this build reads and writes (it reads version 1 too).
pub const NET_VERSION: u16 = 2;
/// The version of camelpy-1's file: 768 → 256 × 2 → 1 only, the shape fields at 28–31 reserved.
pub const NET_VERSION_1: u16 = 1;
/// Bytes in the header.
pub const NET_HEADER_SIZE: usize = 48;
/// The activation code of SCReLU.
const ACTIVATION_SCRELU: u16 = 1;

/// Payload bytes of a network of shape `arch`.
pub(crate) const fn payload_size(arch: Arch) -> usize {
    2 * (arch.ft_weights_len() + arch.hidden.size() + arch.out_weights_len())
        + 4 * arch.output_buckets.count()
}

pub(crate) fn payload(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload_size(net.arch));
    for w in net.ft_weights.iter().chain(&net.ft_bias).chain(&net.out_weights) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for b in &net.out_bias {
        out.extend_from_slice(&b.to_le_bytes());
    }
    out
}

fn fallible_vec<T>(len: usize, what: &'static str) -> Result<Vec<T>, AllocError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| AllocError { what, bytes: len * size_of::<T>() })?;
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
    /// The file's bytes: header and payload (version 1 for camelpy-1's shape with `QB` 64, 2 for the
    /// others), the header holding the network's `QB`.
    ///
    /// ```
    /// use camelpy_core::nnue::{Arch, Hidden, Network, OutputBuckets};
    /// let net = Network::example(7);
    /// assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    /// let arch = Arch::new(Hidden::H512, OutputBuckets::Material);
    /// let wide = Network::example_of(arch, 7);
    /// assert_eq!(Network::from_bytes(&wide.to_bytes()).unwrap(), wide);
    /// let fine = Network::example_with(arch, 256, 7);
    /// assert_eq!(Network::from_bytes(&fine.to_bytes()).unwrap().qb(), 256);
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = payload(self);
        let v1 = self.arch == Arch::V1 && self.qb == QB_V1;
        let mut out = Vec::with_capacity(NET_HEADER_SIZE + payload.len());
        out.extend_from_slice(&NET_MAGIC);
        out.extend_from_slice(&(if v1 { NET_VERSION_1 } else { NET_VERSION }).to_le_bytes());
        out.extend_from_slice(&ACTIVATION_SCRELU.to_le_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(self.arch.hidden.size() as u32).to_le_bytes());
        out.extend_from_slice(&(QA as u16).to_le_bytes());
        out.extend_from_slice(&(self.qb as u16).to_le_bytes());
        out.extend_from_slice(&(SCALE as u32).to_le_bytes());
        if v1 {
            out.extend_from_slice(&0u32.to_le_bytes());
        } else {
            out.extend_from_slice(&(self.arch.output_buckets.count() as u16).to_le_bytes());
            out.extend_from_slice(&(self.arch.input_buckets.count() as u16).to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        debug_assert_eq!(out.len(), NET_HEADER_SIZE);
        out.extend_from_slice(&payload);
        out
    }

    /// Checks a file's header (its first [`NET_HEADER_SIZE`] bytes, or all of a shorter file) against
    /// what this build reads and against the file's length `file_len`, before its weights are read,
    /// and returns the network's shape and `QB`.
    fn check_header(header: &[u8], file_len: u64) -> Result<(Arch, i32), NetError> {
        let path = String::new();
        if header.len() < NET_HEADER_SIZE || header[..8] != NET_MAGIC {
            return Err(NetError::NotNetFile { path });
        }
        let version = u16_at(header, 8);
        if version != NET_VERSION_1 && version != NET_VERSION {
            return Err(NetError::Version { path, found: version });
        }
        let architecture = |reason: String| NetError::Architecture { path: String::new(), reason };
        let fixed = [
            ("activation", u16_at(header, 10) as u64, ACTIVATION_SCRELU as u64),
            ("inputs", u32_at(header, 12) as u64, INPUTS as u64),
            ("QA", u16_at(header, 20) as u64, QA as u64),
            ("scale", u32_at(header, 24) as u64, SCALE as u64),
        ];
        if let Some((name, found, want)) = fixed.iter().find(|(_, found, want)| found != want) {
            return Err(architecture(format!("{name} is {found}, this build needs {want}")));
        }
        let qb = u16_at(header, 22) as i32;
        if version == NET_VERSION_1 && qb != QB_V1 {
            return Err(architecture(format!(
                "QB is {qb}, this build needs {QB_V1} in a version-{NET_VERSION_1} file"
            )));
        }
        if !QBS.contains(&qb) {
            return Err(architecture(format!("QB is {qb}, this build reads {QB_V1} or {QB_FINE}")));
        }
        let hidden = u32_at(header, 16) as u64;
        let arch = if version == NET_VERSION_1 {
            if hidden != Arch::V1.hidden.size() as u64 {
                return Err(architecture(format!(
                    "hidden neurons is {hidden}, this build needs {} in a version-{NET_VERSION_1} file",
                    Arch::V1.hidden.size()
                )));
            }
            if u32_at(header, 28) != 0 {
                return Err(architecture(format!(
                    "reserved field is {}, this build needs 0 in a version-{NET_VERSION_1} file",
                    u32_at(header, 28)
                )));
            }
            Arch::V1
        } else {
            let sizes = Hidden::ALL.map(|h| h.size().to_string()).join(", ");
            let hidden = Hidden::from_size(hidden).ok_or_else(|| {
                architecture(format!("hidden neurons is {hidden}, this build reads {sizes}"))
            })?;
            let buckets = u16_at(header, 28) as u64;
            let output_buckets = OutputBuckets::from_count(buckets).ok_or_else(|| {
                architecture(format!(
                    "output buckets is {buckets}, this build reads 1 or {}",
                    OutputBuckets::Material.count()
                ))
            })?;
            let inputs = u16_at(header, 30) as u64;
            let input_buckets = InputBuckets::from_count(inputs).ok_or_else(|| {
                architecture(format!(
                    "input buckets is {inputs}, this build reads 1 or {}",
                    InputBuckets::King4.count()
                ))
            })?;
            Arch { hidden, output_buckets, input_buckets }
        };
        let expected = payload_size(arch) as u64;
        let declared = u64_at(header, 40);
        let actual = file_len - NET_HEADER_SIZE as u64;
        if declared != expected || actual != declared {
            return Err(NetError::Corrupt {
                path,
                reason: format!(
                    "{actual} bytes of weights after the header, which declares {declared} ({expected} \
                     expected for {arch})"
                ),
            });
        }
        Ok((arch, qb))
    }

    /// A network from a file's bytes. Errors name no file; [`Network::load`] adds the path.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let path = String::new();
        let (arch, qb) =
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
        let ft_weights = take(arch.ft_weights_len(), "network's feature weights")?;
        let ft_bias = take(arch.hidden.size(), "network's biases")?;
        let out_weights = take(arch.out_weights_len(), "network's output weights")?;
        let buckets = arch.output_buckets.count();
        let mut out_bias = fallible_vec(buckets, "network's output biases")?;
        out_bias.extend(
            body[body.len() - 4 * buckets..]
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes"))),
        );
        // The sizes are right by construction; this checks the output weights' range.
        Network::from_parts(arch, qb, ft_weights, ft_bias, out_weights, out_bias)
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
        Network::built_in(EMBEDDED_NAME).expect("the default network is one of BUILT_IN")
    }

    /// The built-in network named `name` (one of [`BUILT_IN`]), decoded once per process and shared,
    /// or `None` when no built-in network has that name.
    pub fn built_in(name: &str) -> Option<Result<Arc<Network>, NetError>> {
        static DECODED: [OnceLock<Arc<Network>>; BUILT_IN.len()] =
            [const { OnceLock::new() }; BUILT_IN.len()];
        let index = BUILT_IN.iter().position(|&n| n == name)?;
        if let Some(net) = DECODED[index].get() {
            return Some(Ok(net.clone()));
        }
        Some(match Network::from_bytes(BUILT_IN_BYTES[index]) {
            Ok(net) => Ok(DECODED[index].get_or_init(|| Arc::new(net)).clone()),
            Err(e) => Err(e.with_path(name)),
        })
    }

    /// The network an `EvalFile` setting names: the file at `name`, or, when no file is there and the
    /// name is one of [`BUILT_IN`], that network built into camelpy (as Stockfish resolves its
    /// `EvalFile`).
    pub fn open(name: &str) -> Result<Arc<Network>, NetError> {
        let path = Path::new(name);
        if !path.exists() {
            if let Some(net) = Network::built_in(name) {
                return net;
            }
        }
        Network::load(path).map(Arc::new)
    }
}

/// The networks built into camelpy, newest first, by the names `EvalFile` (and `Engine(eval_file=…)`)
/// selects them with when no file of that name is in the working folder. Each one's provenance (the
/// commands that make it again, its matches) is `rust/core/nets/<name without .nnue>.md`. The older
/// nets stay built in because the data of the newer ones was generated with them
/// (`camelpy datagen --eval-file camelpy-1.nnue`) and so that a match against them needs no file.
pub const BUILT_IN: [&str; 4] = ["camelpy-4.nnue", "camelpy-3.nnue", "camelpy-2.nnue", "camelpy-1.nnue"];

/// The name of the default network (the newest of [`BUILT_IN`]): every search evaluates with it unless
/// told otherwise.
pub const EMBEDDED_NAME: &str = BUILT_IN[0];

/// The built-in networks' files, in the build, in [`BUILT_IN`]'s order (394-804 KB each).
static BUILT_IN_BYTES: [&[u8]; BUILT_IN.len()] = [
    include_bytes!("../../nets/camelpy-4.nnue"),
    include_bytes!("../../nets/camelpy-3.nnue"),
    include_bytes!("../../nets/camelpy-2.nnue"),
    include_bytes!("../../nets/camelpy-1.nnue"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_every_damage_is_refused() {
        let net = Network::example(3);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), NET_HEADER_SIZE + payload_size(Arch::V1));
        assert_eq!(u16_at(&bytes, 8), NET_VERSION_1, "camelpy-1's shape is written as version 1");
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);

        let refused = |b: &[u8]| Network::from_bytes(b).unwrap_err().to_string();
        assert!(refused(&bytes[..20]).contains("not a camelpy network file"));
        assert!(refused(b"").contains("not a camelpy network file"));
        let mut b = bytes.clone();
        b[8] = 9;
        assert!(refused(&b).contains("version 9"));
        let mut b = bytes.clone();
        b[17] = 0; // hidden 256 → 0
        assert!(
            refused(&b).contains("hidden neurons is 0, this build needs 256 in a version-1 file"),
            "{}",
            refused(&b)
        );
        let mut b = bytes.clone();
        b[28] = 8; // output buckets are version 2's
        assert!(refused(&b).contains("reserved field is 8"), "{}", refused(&b));
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

    /// A version-2 file's bytes with its header's `u16` at `at` replaced by `v` (the checksum and
    /// the declared length left as they were).
    fn with_u16(bytes: &[u8], at: usize, v: u16) -> Vec<u8> {
        let mut b = bytes.to_vec();
        b[at..at + 2].copy_from_slice(&v.to_le_bytes());
        b
    }

    #[test]
    fn every_shape_round_trips_in_version_2_and_bad_shapes_are_refused() {
        let refused = |b: &[u8]| Network::from_bytes(b).unwrap_err().to_string();
        for hidden in Hidden::ALL {
            for (output_buckets, input_buckets) in [
                (OutputBuckets::Single, InputBuckets::Single),
                (OutputBuckets::Material, InputBuckets::Single),
                (OutputBuckets::Single, InputBuckets::King4),
                (OutputBuckets::Material, InputBuckets::King4),
            ] {
                let arch = Arch { hidden, output_buckets, input_buckets };
                let net = Network::example_of(arch, 9);
                let bytes = net.to_bytes();
                assert_eq!(bytes.len(), NET_HEADER_SIZE + payload_size(arch), "{arch}");
                let back = Network::from_bytes(&bytes).unwrap();
                assert_eq!(back, net, "{arch}");
                assert_eq!(back.arch(), arch);
                if arch != Arch::V1 {
                    assert_eq!(u16_at(&bytes, 8), NET_VERSION);
                    let message = refused(&bytes[..bytes.len() - 2]);
                    assert!(message.contains(&format!("which declares {}", payload_size(arch))), "{message}");
                }
            }
        }
        // camelpy-1's shape written as version 2 reads as the same network.
        let net = Network::example(4);
        let mut v2 = with_u16(&with_u16(&net.to_bytes(), 8, NET_VERSION), 28, 1);
        v2 = with_u16(&v2, 30, 1);
        assert_eq!(Network::from_bytes(&v2).unwrap(), net);

        let wide = Network::example_of(Arch::new(Hidden::H512, OutputBuckets::Material), 1);
        let bytes = wide.to_bytes();
        // Widths outside the closed set, absurd ones included, before anything is allocated.
        for (hidden, shown) in [(300u32, "300"), (0, "0"), (u32::MAX, "4294967295")] {
            let mut b = bytes.clone();
            b[16..20].copy_from_slice(&hidden.to_le_bytes());
            let message = refused(&b);
            assert!(
                message.contains(&format!("hidden neurons is {shown}, this build reads 256, 512, 768, 1024")),
                "{message}"
            );
        }
        assert!(refused(&with_u16(&bytes, 28, 3)).contains("output buckets is 3, this build reads 1 or 8"));
        assert!(refused(&with_u16(&bytes, 28, 0)).contains("output buckets is 0"));
        assert!(refused(&with_u16(&bytes, 30, 64)).contains("input buckets is 64, this build reads 1 or 4"));
        let message = refused(&with_u16(&bytes, 30, 4));
        assert!(message.contains("expected for 768×4 king buckets→512×2→1×8 material buckets)"), "{message}");
        // A shape the header names but a payload of another: the declared length does not fit.
        let message = refused(&with_u16(&bytes, 28, 1));
        assert!(message.contains("expected for 768→512×2→1)"), "{message}");
        let mut b = bytes.clone();
        b[40..48].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(refused(&b).contains("which declares 18446744073709551615"), "{}", refused(&b));
        assert!(refused(&with_u16(&bytes, 8, 3)).contains("version 3"));
        // A damaged weight of the new layout.
        let mut b = bytes.clone();
        b[NET_HEADER_SIZE + 5] ^= 1;
        assert!(refused(&b).contains("checksum"));
    }

    #[test]
    fn qb_is_the_files_64_or_256_and_anything_else_is_refused_by_value() {
        let refused = |b: &[u8]| Network::from_bytes(b).unwrap_err().to_string();
        // camelpy-1's shape with QB 256 is written as version 2, and reads back with its QB.
        let fine = Network::example_with(Arch::V1, QB_FINE, 3);
        let bytes = fine.to_bytes();
        assert_eq!(u16_at(&bytes, 8), NET_VERSION);
        assert_eq!(u16_at(&bytes, 22), 256);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!((back.qb(), &back), (QB_FINE, &fine));
        // The same integers under QB 64 are another network, written as version 1.
        let coarse = Network::example(3);
        assert_ne!(coarse, fine);
        assert_eq!(u16_at(&coarse.to_bytes(), 22), 64);
        let wide = Network::example_with(Arch::new(Hidden::H512, OutputBuckets::Material), QB_FINE, 2);
        assert_eq!(Network::from_bytes(&wide.to_bytes()).unwrap(), wide);
        for qb in [0u16, 1, 63, 100, 128, 512, u16::MAX] {
            let message = refused(&with_u16(&wide.to_bytes(), 22, qb));
            assert!(message.contains(&format!("QB is {qb}, this build reads 64 or 256")), "{message}");
        }
        // Version 1 stays 64 only.
        let message = refused(&with_u16(&coarse.to_bytes(), 22, 256));
        assert!(message.contains("QB is 256, this build needs 64 in a version-1 file"), "{message}");
        let err = Network::from_parts(Arch::V1, 100, vec![], vec![], vec![], vec![]).unwrap_err();
        assert!(err.to_string().contains("QB is 100"), "{err}");
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
