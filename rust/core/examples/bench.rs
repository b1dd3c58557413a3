//! `cargo run --release --example bench [depth] [classical] [name=value ...]`: the search signature and
//! speed, Stockfish-style, with the built-in network (the engine's default) or the classical
//! evaluation; `name=value` sets a run-time search parameter (`SearchParams`) first, so a candidate's
//! signature can be read before its default changes.

use std::sync::atomic::AtomicBool;

use camelpy_core::{
    bench::{bench_with, BENCH_DEPTH},
    nnue::Network,
    search::params::SearchParams,
};

fn main() {
    let mut depth = BENCH_DEPTH;
    let mut params = SearchParams::DEFAULT;
    let mut classical = false;
    for arg in std::env::args().skip(1) {
        if arg == "classical" {
            classical = true;
            continue;
        }
        let set = match arg.split_once('=') {
            Some((name, value)) => match value.parse::<i32>() {
                Ok(value) => params.set(name, value).map_err(|e| e.describe("search")),
                Err(_) => Err(format!("expected an integer value in '{arg}'")),
            },
            None => arg
                .parse()
                .map(|d| depth = d)
                .map_err(|_| format!("expected a depth or name=value, got '{arg}'")),
        };
        if let Err(message) = set {
            eprintln!("bench: {message}");
            std::process::exit(2);
        }
    }
    let net = if classical {
        None
    } else {
        match Network::embedded() {
            Ok(net) => Some(net),
            Err(e) => {
                eprintln!("bench: {e}");
                std::process::exit(1);
            }
        }
    };
    let result = match bench_with(depth, &params, net, &AtomicBool::new(false)) {
        Ok(result) => result,
        Err(e) => {
            eprintln!("bench: {e}");
            std::process::exit(1);
        }
    };
    println!("Nodes searched: {}", result.nodes);
    println!("Nodes/second: {}", result.nps());
}
