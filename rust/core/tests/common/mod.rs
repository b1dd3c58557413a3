//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test binary uses its own subset

use std::{fs, path::PathBuf};

use camelpy_core::perft::{parse_suite, SuiteLine};

/// Deterministic xorshift64, so random walks are identical on every run.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A file of the repository (path relative to its root), as text.
pub fn data_file(relative: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// A perft suite of `perft_suites/` (`standard.epd`, …), read by the core's one suite parser.
pub fn perft_suite(name: &str) -> Vec<SuiteLine> {
    parse_suite(&data_file(&format!("perft_suites/{name}"))).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The FENs of a perft suite, in file order.
pub fn suite_fens(name: &str) -> Vec<String> {
    perft_suite(name).into_iter().map(|line| line.fen).collect()
}
