//! Perft throughput, camelpy-core beside the `cozy-chess` crate in the same build (bulk counting both).
//!
//! `cargo bench --bench perft` (native: `.cargo/config.toml`), or generic with
//! `RUSTFLAGS="-C target-cpu=x86-64" cargo bench --bench perft`. cozy-chess is a dev-dependency used only
//! here, as the yardstick. Every run asserts the node counts before timing.

use std::time::Duration;

use camelpy_core::{perft::perft, Position};
#[path = "common/cozy.rs"]
mod cozy;

use cozy::cozy_perft;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const CASES: [(&str, &str, u32, u64); 2] = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(6));
    for (name, fen, depth, expected) in CASES {
        let mut pos = Position::from_fen(fen, false).unwrap();
        assert_eq!(perft(&mut pos, depth), expected);
        let cozy = cozy_chess::Board::from_fen(fen, false).unwrap();
        assert_eq!(cozy_perft(&cozy, depth), expected);
        group.throughput(Throughput::Elements(expected));
        group.bench_with_input(BenchmarkId::new("camelpy", name), &depth, |b, &d| {
            b.iter(|| perft(&mut pos, d))
        });
        group.bench_with_input(BenchmarkId::new("cozy-chess", name), &depth, |b, &d| {
            b.iter(|| cozy_perft(&cozy, d))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
