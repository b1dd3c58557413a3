//! The perft suites in `perft_suites/` (`<FEN> ;D1 n ;D2 n ...`), checked against the legal generator.
//!
//! `quick.epd` and `quick_fischer.epd` run in full; `standard.epd` and `fischer.epd` run every entry
//! whose count is at most `NODE_CAP` (the full suites run from Python with `pytest -m slow`, or here with
//! `CAMELPY_PERFT_CAP=<nodes> cargo test --release --test perft_suites`).

use camelpy_core::{perft::perft, Position};

mod common;

use common::perft_suite;

/// Largest expected count run by default: keeps this test to a few seconds on 2 cores.
const NODE_CAP: u64 = 1_000_000;

fn run(name: &str, chess960: bool, cap: u64) -> usize {
    let mut checked = 0;
    for camelpy_core::perft::SuiteLine { fen, counts } in perft_suite(name) {
        let mut pos = Position::from_fen(&fen, chess960).unwrap_or_else(|e| panic!("{e}"));
        for (depth, expected) in counts {
            if expected <= cap {
                assert_eq!(perft(&mut pos, depth), expected, "{name}: {fen} depth {depth}");
                checked += 1;
            }
        }
        assert_eq!(
            pos.fen(),
            Position::from_fen(&fen, chess960).unwrap().fen(),
            "perft must restore the position"
        );
    }
    checked
}

fn cap() -> u64 {
    std::env::var("CAMELPY_PERFT_CAP").ok().and_then(|v| v.parse().ok()).unwrap_or(NODE_CAP)
}

#[test]
fn quick_suite_in_full() {
    assert!(run("quick.epd", false, u64::MAX) >= 32);
}

#[test]
fn quick_fischer_suite_in_full() {
    assert!(run("quick_fischer.epd", true, u64::MAX) >= 8);
}

#[test]
fn standard_suite_capped() {
    assert!(run("standard.epd", false, cap()) > 100);
}

#[test]
fn fischer_suite_capped() {
    assert!(run("fischer.epd", true, cap()) > 960);
}
