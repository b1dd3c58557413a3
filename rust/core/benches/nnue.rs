//! The network's kernels at every SIMD level this machine has, side by side, and an incremental
//! update against a full refresh: `cargo bench --bench nnue`. Each case asserts that its level gives the
//! scalar result before it is timed.

use std::time::Duration;

use camelpy_core::{
    nnue::{simd::Level, AccumulatorStack, Network},
    Position,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

/// A middlegame with every kind of piece.
const FEN: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn bench_nnue(c: &mut Criterion) {
    let net = Network::example(1);
    let pos = Position::from_fen(FEN, false).unwrap();
    let acc = net.refresh(&pos);
    let want = net.output_with(Level::Scalar, &acc, &pos);
    let mut group = c.benchmark_group("nnue");
    group.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    for level in Level::ALL.into_iter().filter(|l| l.is_supported()) {
        assert_eq!(net.output_with(level, &acc, &pos), want);
        group.bench_with_input(BenchmarkId::new("output", level.name()), &level, |b, &level| {
            b.iter(|| net.output_with(level, std::hint::black_box(&acc), &pos))
        });
    }
    // A capture (two inputs off, one on) made and evaluated, against evaluating from scratch.
    let mv = pos.parse_uci("e5f7").unwrap();
    let mut after = pos.clone();
    after.play(mv);
    let mut stack = AccumulatorStack::new();
    stack.reset(&net, &pos);
    group.bench_function("push-evaluate-pop", |b| {
        b.iter(|| {
            stack.push(&pos, mv);
            let v = stack.evaluate(&net, &after);
            stack.pop();
            v
        })
    });
    group.bench_function("refresh-evaluate", |b| b.iter(|| net.evaluate(std::hint::black_box(&after))));
    group.finish();
}

criterion_group!(benches, bench_nnue);
criterion_main!(benches);
