//! `cargo run --release --example bench [depth]`: the search signature and speed, Stockfish-style.

use std::sync::atomic::AtomicBool;

use camelpy_core::bench::{bench, BENCH_DEPTH};

fn main() {
    let depth = std::env::args().nth(1).and_then(|d| d.parse().ok()).unwrap_or(BENCH_DEPTH);
    let result = match bench(depth, &AtomicBool::new(false)) {
        Ok(result) => result,
        Err(e) => {
            eprintln!("bench: {e}");
            std::process::exit(1);
        }
    };
    println!("Nodes searched: {}", result.nodes);
    println!("Nodes/second: {}", result.nps());
}
