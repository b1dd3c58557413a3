//! `cargo run --release --example bench [depth]`: the search signature and speed, Stockfish-style.

use camelpy_core::bench::{bench, BENCH_DEPTH};

fn main() {
    let depth = std::env::args().nth(1).and_then(|d| d.parse().ok()).unwrap_or(BENCH_DEPTH);
    let result = bench(depth);
    println!("Nodes searched: {}", result.nodes);
    println!("Nodes/second: {}", result.nps());
}
