//! Several threads: LazySMP searches (one thread is exactly the plain search; many threads, stopped at
//! random moments, always return a legal move; MultiPV and limits still hold) and batch analysis
//! (input order, determinism whatever the number of workers, early stop).

mod common;

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::{Duration, Instant},
};

use camelpy_core::{
    bench::BENCH_FENS,
    eval::EvalParams,
    search::{
        info::{IterationInfo, Report, SearchResult},
        limits::SearchLimits,
        params::TIME_CHECK_NODES,
        search, SearchState,
    },
    threads::{search_many, search_smp},
    tt::TranspositionTable,
    Position, Score,
};
use common::Rng;

fn states(n: usize) -> Vec<SearchState> {
    (0..n).map(|_| SearchState::new()).collect()
}

fn smp(fen: &str, limits: &SearchLimits, threads: usize) -> (SearchResult, Position) {
    let mut pos = Position::from_fen(fen, false).unwrap();
    let tt = TranspositionTable::new(8).expect("a small table");
    let stop = AtomicBool::new(false);
    let result = search_smp(&mut pos, limits, &tt, &EvalParams::DEFAULT, &mut states(threads), &stop, |_| {});
    (result, pos)
}

/// The result without its timings (the only part that may differ between two equal searches).
fn timeless(mut r: SearchResult) -> SearchResult {
    r.info.time_ms = 0;
    for line in &mut r.lines {
        line.time_ms = 0;
    }
    r
}

/// A report without its timing.
fn report_key(r: &Report) -> String {
    match r {
        Report::Iteration(info) => format!("{:?}", IterationInfo { time_ms: 0, ..(*info).clone() }),
        Report::CurrMove { depth, mv, number, nodes, .. } => format!("{depth} {mv:?} {number} {nodes}"),
    }
}

fn assert_legal_line(pos: &Position, pv: &[camelpy_core::Move]) {
    let mut p = pos.clone();
    for &mv in pv {
        assert!(p.is_legal(mv), "illegal PV move {mv:?} in {pv:?} from {}", pos.fen());
        p.play_unchecked(mv);
    }
}

#[test]
fn one_thread_is_exactly_the_plain_search() {
    for fen in BENCH_FENS.iter().step_by(7) {
        let limits = SearchLimits { depth: Some(7), ..SearchLimits::default() };
        let mut pos = Position::from_fen(fen, false).unwrap();
        let tt = TranspositionTable::new(8).expect("a small table");
        let stop = AtomicBool::new(false);
        let mut reports = Vec::new();
        let plain =
            search(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut SearchState::new(), &stop, |r| {
                reports.push(report_key(r))
            });
        let tt = TranspositionTable::new(8).expect("a small table");
        let mut smp_reports = Vec::new();
        let one = search_smp(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut states(1), &stop, |r| {
            smp_reports.push(report_key(r))
        });
        assert!(timeless(plain) == timeless(one), "{fen}");
        assert!(reports == smp_reports, "{fen}");
    }
}

#[test]
fn threads_find_mates_and_keep_the_depth_limit() {
    for threads in [2, 3] {
        let (r, pos) = smp(
            "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
            &SearchLimits { depth: Some(6), ..Default::default() },
            threads,
        );
        assert_eq!(r.best_move.map(|m| m.to_uci(false)), Some("a1a6".into()));
        assert_eq!(r.info.score, Score::Mate(2));
        assert_eq!(pos.fen(), "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "position restored");
        let (r, pos) = smp(BENCH_FENS[1], &SearchLimits { depth: Some(6), ..Default::default() }, threads);
        assert_eq!(r.info.depth, 6);
        assert_eq!(r.info, r.lines[0]);
        assert_legal_line(&pos, &r.info.pv);
        // No legal move: no threads needed, the same answer as one thread.
        let (r, _) = smp(
            "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
            &SearchLimits { depth: Some(5), ..Default::default() },
            threads,
        );
        assert_eq!((r.best_move, r.info.score), (None, Score::Mate(0)));
    }
}

#[test]
fn node_limit_counts_every_thread() {
    let limit = 30_000;
    for threads in [2, 4] {
        let (r, _) = smp(BENCH_FENS[0], &SearchLimits { nodes: Some(limit), ..Default::default() }, threads);
        // Helpers publish every TIME_CHECK_NODES nodes and stop at their next poll after the main thread.
        let slack = 2 * TIME_CHECK_NODES * threads as u64 + 1_000;
        assert!(
            r.info.nodes >= limit && r.info.nodes <= limit + slack,
            "{threads} threads: {} nodes",
            r.info.nodes
        );
        assert_eq!(r.info.nodes, r.lines[0].nodes);
    }
}

#[test]
fn multipv_lines_are_distinct_with_threads() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let (r, pos) = smp(fen, &SearchLimits { depth: Some(6), multipv: 3, ..Default::default() }, 3);
    assert_eq!(r.lines.len(), 3);
    let firsts: Vec<_> = r.lines.iter().map(|l| l.pv[0]).collect();
    for (i, line) in r.lines.iter().enumerate() {
        assert_eq!(line.multipv, i + 1);
        assert!(!firsts[..i].contains(&firsts[i]), "line {} repeats a move: {firsts:?}", i + 1);
        assert_legal_line(&pos, &line.pv);
        if i > 0 {
            assert!(line.score <= r.lines[i - 1].score);
        }
    }
    assert_eq!(r.best_move, Some(firsts[0]));
}

/// Many short searches with 2-4 threads, stopped at seeded random moments (some before the first
/// iteration can finish), from the bench positions and from random walks; every move returned must be
/// legal, every reported PV too, and the callback is entered from the calling thread only.
#[test]
fn stress_random_stops_always_give_legal_moves() {
    let mut rng = Rng(0x5EED_5A1D);
    let tt = TranspositionTable::new(4).expect("a small table");
    let mut all_states = states(4);
    let caller = std::thread::current().id();
    for round in 0..48 {
        let mut pos = Position::from_fen(BENCH_FENS[rng.next() as usize % BENCH_FENS.len()], false).unwrap();
        for _ in 0..rng.next() % 12 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.next() as usize % moves.len()]);
        }
        if pos.legal_moves().is_empty() {
            continue;
        }
        let threads = 2 + rng.next() as usize % 3;
        let stop_after = Duration::from_micros(rng.next() % 15_000);
        let multipv = if round % 5 == 0 { 2 } else { 1 };
        let limits = SearchLimits { multipv, ..Default::default() }; // infinite until stopped
        let stop = AtomicBool::new(false);
        let root = pos.clone();
        let mut reported = Vec::new();
        let result = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(stop_after);
                stop.store(true, Ordering::Relaxed);
            });
            search_smp(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut all_states[..threads], &stop, |r| {
                assert_eq!(std::thread::current().id(), caller, "report from a helper thread");
                if let Report::Iteration(info) = r {
                    reported.push(info.pv.clone());
                }
            })
        });
        assert_eq!(pos, root, "position restored");
        let best = result.best_move.expect("a legal move exists");
        assert!(pos.is_legal(best), "round {round}: illegal {best:?} in {}", pos.fen());
        assert_eq!(result.info.pv.first(), Some(&best));
        for line in &result.lines {
            assert_legal_line(&pos, &line.pv);
        }
        for pv in &reported {
            assert_legal_line(&pos, pv);
        }
        if multipv == 2 && pos.legal_moves().len() >= 2 && result.lines.len() == 2 {
            assert_ne!(result.lines[0].pv[0], result.lines[1].pv[0]);
        }
    }
}

#[test]
fn hard_deadline_ends_a_threaded_search() {
    let mut pos = Position::startpos();
    let tt = TranspositionTable::new(4).expect("a small table");
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        hard_deadline: Some(Instant::now() + Duration::from_millis(50)),
        ..Default::default()
    };
    let start = Instant::now();
    let r = search_smp(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut states(3), &stop, |_| {});
    assert!(start.elapsed() < Duration::from_secs(3));
    assert!(pos.is_legal(r.best_move.unwrap()));
}

#[test]
fn batch_results_are_in_order_and_do_not_depend_on_the_workers() {
    let positions: Vec<Position> =
        BENCH_FENS.iter().step_by(3).map(|f| Position::from_fen(f, false).unwrap()).collect();
    let limits = SearchLimits { nodes: Some(3_000), ..Default::default() };
    let eval = EvalParams::DEFAULT;
    let mut calls = 0;
    let one = search_many(&positions, &limits, None, &eval, None, 1, 1, |p| {
        calls += 1;
        assert!(p.done <= p.total);
        true
    })
    .expect("small tables");
    assert!(calls >= positions.len());
    let three = search_many(&positions, &limits, None, &eval, None, 3, 1, |_| true).expect("small tables");
    assert!(one.iter().cloned().map(|r| r.map(timeless)).eq(three.into_iter().map(|r| r.map(timeless))));
    for (pos, result) in positions.iter().zip(&one) {
        // Each equals a search with a fresh table of the same size.
        let mut p = pos.clone();
        let tt = TranspositionTable::new(1).expect("a small table");
        let alone =
            search(&mut p, &limits, &tt, &eval, &mut SearchState::new(), &AtomicBool::new(false), |_| {});
        assert!(result.clone().map(timeless) == Some(timeless(alone)), "{}", pos.fen());
    }
}

#[test]
fn batch_stops_when_progress_says_so() {
    let positions: Vec<Position> = BENCH_FENS.iter().map(|f| Position::from_fen(f, false).unwrap()).collect();
    let limits = SearchLimits { depth: Some(30), ..Default::default() };
    let start = Instant::now();
    let results = search_many(&positions, &limits, None, &EvalParams::DEFAULT, None, 2, 1, |p| {
        p.done == 0 && start.elapsed() < Duration::from_millis(100)
    })
    .expect("small tables");
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(results.len(), positions.len());
    assert!(results.iter().filter(|r| r.is_none()).count() >= positions.len() - 2);
    for (pos, r) in positions.iter().zip(&results) {
        if let Some(r) = r {
            assert!(pos.is_legal(r.best_move.unwrap()));
        }
    }
    // A per-position movetime bounds each search, not the batch.
    let results = search_many(
        &positions[..4],
        &SearchLimits::default(),
        Some(Duration::from_millis(20)),
        &EvalParams::DEFAULT,
        None,
        2,
        1,
        |_| true,
    )
    .expect("small tables");
    assert!(results.iter().all(|r| r.as_ref().is_some_and(|r| r.info.depth >= 1)));
}

#[test]
fn a_batch_whose_tables_cannot_be_allocated_is_an_error_not_an_abort() {
    let positions = vec![Position::startpos()];
    let limits = SearchLimits { depth: Some(1), ..Default::default() };
    // usize::MAX MiB saturates to a request no allocator can satisfy.
    let err = search_many(&positions, &limits, None, &EvalParams::DEFAULT, None, 2, usize::MAX, |_| true)
        .unwrap_err();
    assert_eq!(err.what, "hash table");
}
