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

/// The same position with the colours swapped: ranks mirrored, piece letters' case swapped, the other
/// side to move, castling letters' case swapped (White's first, as FEN requires) and the en-passant
/// square mirrored. The clocks stay.
pub fn flip_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap_case =
        |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
    let board: Vec<String> =
        fields[0].split('/').rev().map(|rank| rank.chars().map(swap_case).collect()).collect();
    let turn = if fields[1] == "w" { "b" } else { "w" };
    let castling = if fields[2] == "-" {
        "-".to_string()
    } else {
        let swapped: String = fields[2].chars().map(swap_case).collect();
        let white: String = swapped.chars().filter(char::is_ascii_uppercase).collect();
        let black: String = swapped.chars().filter(char::is_ascii_lowercase).collect();
        white + &black
    };
    let ep = match fields[3].as_bytes() {
        [file, rank] => format!("{}{}", *file as char, (b'1' + b'8' - rank) as char),
        _ => "-".to_string(),
    };
    let mut out = vec![board.join("/"), turn.to_string(), castling, ep];
    out.extend(fields[4..].iter().map(|s| s.to_string()));
    out.join(" ")
}

/// The board mirrored left to right (file a to h), with the side to move kept and no castling or en
/// passant: for the network's king buckets, which mirror each side's board by its king's file.
pub fn mirrored_fen(fen: &str) -> String {
    let mut fields = fen.split(' ');
    let board = fields.next().unwrap();
    let side = fields.next().unwrap();
    let ranks: Vec<String> = board.split('/').map(|r| r.chars().rev().collect()).collect();
    format!("{} {side} - - 0 1", ranks.join("/"))
}
