//! The search: finds mates, handles positions without moves, respects its limits and stop flag, is
//! deterministic (reprosearch), and its bench signature is pinned.

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::{Duration, Instant},
};

use camelpy_core::{
    bench::{bench, bench_with, BENCH_DEPTH},
    eval::EvalParams,
    nnue::Network,
    search::{
        info::{Report, SearchResult},
        limits::SearchLimits,
        params::SearchParams,
        search, SearchState,
    },
    tt::TranspositionTable,
    Position, Score,
};

/// The bench signature: total nodes of `bench(BENCH_DEPTH)` (with the built-in network). Changes only
/// with a `Bench: N` commit.
const BENCH_SIGNATURE: u64 = 1_750_509;
/// The same bench with the classical evaluation: the search and the classical evaluation unchanged.
const CLASSICAL_BENCH_SIGNATURE: u64 = 2_869_145;

fn run(fen: &str, limits: SearchLimits) -> (SearchResult, Position) {
    let mut pos = Position::from_fen(fen, false).unwrap();
    let tt = TranspositionTable::new(8).expect("a small table");
    let mut state = SearchState::new();
    let stop = AtomicBool::new(false);
    let result = search(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut state, &stop, |_| {});
    (result, pos)
}

fn depth(d: i32) -> SearchLimits {
    SearchLimits { depth: Some(d), ..SearchLimits::default() }
}

#[test]
fn bench_signature() {
    assert_eq!(
        bench(BENCH_DEPTH, &AtomicBool::new(false)).expect("a 16 MiB table").nodes,
        BENCH_SIGNATURE,
        "search behaviour changed: commit with `Bench: N`"
    );
    assert_eq!(
        bench_with(BENCH_DEPTH, &SearchParams::DEFAULT, None, &AtomicBool::new(false)).unwrap().nodes,
        CLASSICAL_BENCH_SIGNATURE,
        "the search or the classical evaluation changed"
    );
}

#[test]
fn finds_mate_in_one_and_two() {
    let (r, pos) = run("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", depth(4));
    assert_eq!(r.best_move.map(|m| m.to_uci(false)), Some("d1d8".into()));
    assert_eq!(r.info.score, Score::Mate(1));
    assert_eq!(pos.fen(), "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "position restored");
    // 1. Ra6! bxa6 2. b7# (a classic two-mover).
    let (r, _) = run("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", depth(6));
    assert_eq!(r.best_move.map(|m| m.to_uci(false)), Some("a1a6".into()));
    assert_eq!(r.info.score, Score::Mate(2));
    // The mated side sees it too, and the PV ends in mate.
    let (r, _) = run("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", depth(5));
    assert!(matches!(r.info.score, Score::Cp(_)), "black to move is not mated: {:?}", r.info.score);
}

/// `nmp_two_pieces`: after 1. Ra6! Black has only a bishop and pawns, and every move allows mate
/// (1... bxa6 2. b7#, a bishop move 2. Rxa7#), a zugzwang that a null move at Black's node cannot see.
/// Without the setting, camelpy-2 plays a1a4 or b6a7 through depth 9 and camelpy-4 misses it until depth
/// 15 (the null move prunes the reduced Ra6); with it, no null move there, and the mate is found by depth
/// 6 (at depth 4 today). It is on by default since Bench 1750509, the commit that made camelpy-4 the default;
/// camelpy-3 finds the mate by depth 4 without it.
#[test]
fn null_move_needs_two_pieces_for_the_lone_bishop_zugzwang() {
    let fen = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1";
    let mate_in_two = |params: SearchParams, net: Option<std::sync::Arc<Network>>| {
        let mut pos = Position::from_fen(fen, false).unwrap();
        let tt = TranspositionTable::new(8).expect("a small table");
        let mut state = SearchState::new();
        state.set_network(net);
        let limits = SearchLimits { params, ..depth(6) };
        let r =
            search(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut state, &AtomicBool::new(false), |_| {});
        (r.best_move.map(|m| m.to_uci(false)), r.info.score) == (Some("a1a6".into()), Score::Mate(2))
    };
    let built_in = |name: &str| Network::built_in(name).unwrap().unwrap();
    // The default search with the default evaluation (the "found by depth 6").
    assert_eq!(SearchParams::DEFAULT.get("nmp_two_pieces"), Some(1));
    assert!(mate_in_two(SearchParams::DEFAULT, Some(Network::embedded().unwrap())));
    // Without the setting, camelpy-4 and camelpy-2 miss it; camelpy-3 does not.
    let mut off = SearchParams::DEFAULT;
    off.set("nmp_two_pieces", 0).unwrap();
    assert!(!mate_in_two(off, Some(built_in("camelpy-4.nnue"))));
    assert!(!mate_in_two(off, Some(built_in("camelpy-2.nnue"))));
    assert!(mate_in_two(off, Some(built_in("camelpy-3.nnue"))));
    for name in ["camelpy-4.nnue", "camelpy-3.nnue", "camelpy-2.nnue"] {
        assert!(mate_in_two(SearchParams::DEFAULT, Some(built_in(name))), "{name} with nmp_two_pieces");
    }
    assert!(mate_in_two(SearchParams::DEFAULT, None), "classical with nmp_two_pieces");
}

/// The basic mates with a lone king, played out by the search against itself at a fixed node budget a
/// move: each must end in checkmate before the fifty-move rule. This is what the mop-up terms are for:
/// with them zeroed (tuning run 1), one KRK and all three KBBK games here end drawn.
#[test]
fn converts_the_basic_mates() {
    const FIFTY_MOVES: usize = 100;
    /// Enough for KRK and KQK with a margin; the hand-set table needs 2,000.
    const HEAVY_PIECE_NODES: u64 = 5_000;
    /// Two bishops need a longer plan than the mop-up gradient alone gives at 5,000 nodes.
    const BISHOP_PAIR_NODES: u64 = 20_000;
    for (fen, nodes) in [
        ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", HEAVY_PIECE_NODES),
        ("8/8/8/8/4k3/8/8/KR6 w - - 0 1", HEAVY_PIECE_NODES),
        ("8/8/2k5/8/8/5K2/8/7R w - - 0 1", HEAVY_PIECE_NODES),
        ("8/3k4/8/8/8/8/8/K6R b - - 0 1", HEAVY_PIECE_NODES),
        ("8/8/8/3k4/8/8/8/2Q1K3 w - - 0 1", HEAVY_PIECE_NODES),
        ("7k/8/8/8/8/8/8/K2Q4 w - - 0 1", HEAVY_PIECE_NODES),
        ("8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1", BISHOP_PAIR_NODES),
        ("2k5/8/8/8/8/8/8/2B1KB2 w - - 0 1", BISHOP_PAIR_NODES),
        ("8/8/8/8/3k4/8/3BB3/7K w - - 0 1", BISHOP_PAIR_NODES),
    ] {
        let mut pos = Position::from_fen(fen, false).unwrap();
        let tt = TranspositionTable::new(8).expect("a small table");
        let mut state = SearchState::new();
        let stop = AtomicBool::new(false);
        let limits = SearchLimits { nodes: Some(nodes), ..SearchLimits::default() };
        while !pos.legal_moves().is_empty() && pos.ply() < FIFTY_MOVES {
            let r = search(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut state, &stop, |_| {});
            pos.play(r.best_move.expect("a position with moves has a best move"));
        }
        assert!(
            pos.legal_moves().is_empty() && pos.is_check(),
            "{fen}: no checkmate within {FIFTY_MOVES} plies at {nodes} nodes a move, stopped at {}",
            pos.fen()
        );
    }
}

/// Every run-time search setting away from its default (one at a time, then all together) still
/// finds the mates, plays only legal moves through a short self-play game, is deterministic, and
/// changes the bench only through `bench_with`.
#[test]
fn every_search_setting_searches_soundly() {
    let mut variants: Vec<(String, SearchParams)> = SearchParams::all()
        .iter()
        .map(|p| {
            let mut params = SearchParams::DEFAULT;
            let on = if p.max == 1 { 1 } else { (p.max / 2).max(p.default + 1) };
            params.set(p.name, on).unwrap();
            (format!("{}={on}", p.name), params)
        })
        .collect();
    let mut all = SearchParams::DEFAULT;
    for (_, params) in &variants {
        for p in SearchParams::all() {
            if params.get(p.name) != Some(p.default) {
                all.set(p.name, params.get(p.name).unwrap()).unwrap();
            }
        }
    }
    variants.push(("all".into(), all));
    for (name, params) in variants {
        let with = |limits: SearchLimits| SearchLimits { params, ..limits };
        let (r, _) = run("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", with(depth(6)));
        assert_eq!(
            (r.best_move.map(|m| m.to_uci(false)), r.info.score),
            (Some("a1a6".into()), Score::Mate(2)),
            "{name}"
        );
        let (r, _) = run("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", with(depth(4)));
        assert_eq!(r.info.score, Score::Mate(1), "{name}");
        // A short game against itself from Kiwipete: legal moves, the same nodes twice.
        let play = || {
            let mut pos = Position::from_fen(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            )
            .unwrap();
            let tt = TranspositionTable::new(4).expect("a small table");
            let mut state = SearchState::new();
            let stop = AtomicBool::new(false);
            let mut nodes = 0;
            for _ in 0..16 {
                if pos.legal_moves().is_empty() {
                    break;
                }
                let r =
                    search(&mut pos, &with(depth(7)), &tt, &EvalParams::DEFAULT, &mut state, &stop, |_| {});
                let mv = r.best_move.expect("a best move");
                assert!(pos.legal_moves().contains(mv), "{name}: illegal {mv:?} in {}", pos.fen());
                pos.play(mv);
                nodes += r.info.nodes;
            }
            nodes
        };
        assert_eq!(play(), play(), "{name}: not deterministic");
    }
    assert_eq!(
        bench_with(4, &SearchParams::DEFAULT, Some(Network::embedded().unwrap()), &AtomicBool::new(false))
            .unwrap()
            .nodes,
        bench(4, &AtomicBool::new(false)).unwrap().nodes
    );
}

#[test]
fn positions_without_moves() {
    let (r, _) = run("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth(5)); // stalemate
    assert_eq!((r.best_move, r.info.score), (None, Score::Cp(0)));
    let (r, _) = run("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth(5)); // checkmate
    assert_eq!((r.best_move, r.info.score), (None, Score::Mate(0)));
}

#[test]
fn draws_are_scored_as_draws() {
    // K+B vs K: insufficient material, whatever the depth.
    let (r, _) = run("8/8/8/4k3/8/8/3BK3/8 w - - 0 1", depth(6));
    assert_eq!(r.info.score, Score::Cp(0));
}

#[test]
fn wins_material() {
    // A queen hangs to a knight fork... simpler: take the undefended queen.
    let (r, _) = run("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", depth(4));
    assert_eq!(r.best_move.map(|m| m.to_uci(false)), Some("d2d5".into()));
}

#[test]
fn reprosearch_is_deterministic() {
    let limits = SearchLimits { nodes: Some(20_000), ..SearchLimits::default() };
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (a, _) = run(fen, limits.clone());
    let (b, _) = run(fen, limits);
    assert_eq!((a.best_move, a.info.nodes, a.info.pv.clone()), (b.best_move, b.info.nodes, b.info.pv));
    assert!(a.info.nodes <= 20_000 + 1_000, "node limit overshot: {}", a.info.nodes);
}

#[test]
fn searchmoves_restrict_the_root() {
    let pos = Position::startpos();
    let only = vec![pos.parse_uci("a2a3").unwrap(), pos.parse_uci("h2h3").unwrap()];
    let (r, _) = run(
        camelpy_core::STARTING_FEN,
        SearchLimits { depth: Some(5), searchmoves: only.clone(), ..SearchLimits::default() },
    );
    assert!(only.contains(&r.best_move.unwrap()));
}

#[test]
fn stop_flag_and_deadline_end_the_search_quickly_with_a_legal_move() {
    let mut pos = Position::startpos();
    let tt = TranspositionTable::new(8).expect("a small table");
    let mut state = SearchState::new();
    let stop = AtomicBool::new(false);
    let limits = SearchLimits::default(); // infinite
    let start = Instant::now();
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            stop.store(true, Ordering::Relaxed);
        });
        search(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut state, &stop, |_| {})
    });
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(pos.is_legal(result.best_move.unwrap()));
    assert!(result.info.depth >= 1);

    let limits = SearchLimits {
        hard_deadline: Some(Instant::now() + Duration::from_millis(100)),
        ..SearchLimits::default()
    };
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let result = search(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut state, &stop, |_| {});
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(pos.is_legal(result.best_move.unwrap()));
}

#[test]
fn reports_every_iteration_with_a_legal_pv() {
    let mut pos =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", false)
            .unwrap();
    let tt = TranspositionTable::new(8).expect("a small table");
    let mut state = SearchState::new();
    let stop = AtomicBool::new(false);
    let mut depths = Vec::new();
    let mut pvs = Vec::new();
    search(&mut pos, &depth(6), &tt, &EvalParams::DEFAULT, &mut state, &stop, |report| {
        if let Report::Iteration(info) = report {
            depths.push(info.depth);
            pvs.push(info.pv.clone());
        }
    });
    assert_eq!(depths, (1..=6).collect::<Vec<_>>());
    for pv in pvs {
        let mut p = pos.clone();
        for mv in pv {
            assert!(p.is_legal(mv), "illegal PV move {mv:?}");
            p.play_unchecked(mv);
        }
    }
}

#[test]
fn multipv_lines_are_distinct_and_ordered() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let (single, _) = run(fen, depth(7));
    let (multi, pos) = run(fen, SearchLimits { multipv: 4, ..depth(7) });
    assert_eq!(multi.lines.len(), 4);
    assert_eq!(multi.info, multi.lines[0]);
    let firsts: Vec<_> = multi.lines.iter().map(|l| l.pv[0]).collect();
    for (i, line) in multi.lines.iter().enumerate() {
        assert_eq!(line.multipv, i + 1);
        assert_eq!(line.depth, 7);
        assert!(pos.is_legal(line.pv[0]));
        assert!(!firsts[..i].contains(&line.pv[0]), "line {} repeats a move", i + 1);
        if i > 0 {
            assert!(line.score <= multi.lines[i - 1].score, "lines out of order: {:?}", multi.lines);
        }
    }
    assert_eq!(single.lines.len(), 1);
    assert_eq!(single.lines[0], single.info);
    assert_eq!(multi.best_move, Some(firsts[0]));
}

#[test]
fn multipv_is_capped_by_the_legal_moves() {
    // Black has three legal moves: Kg8, Kg7, Kh7.
    let (r, _) = run("7k/8/8/8/8/8/8/K7 b - - 0 1", SearchLimits { multipv: 5, ..depth(4) });
    assert_eq!(r.lines.len(), 3);
}

/// Every tunable (every setting but the on/off switches: the candidates, off at 0, and `nmp_two_pieces`,
/// which acts only with a lone piece and has its own test above) changes the search: at its minimum or
/// its maximum, fixed-depth searches from two positions visit a different number of nodes; set back to
/// its default, the same searcher (its LMR table rebuilt) visits exactly the default's.
#[test]
fn every_search_tunable_changes_the_search_and_its_default_restores_it() {
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // Kiwipete is sharp enough for every margin; the quieter start position has quiet cutoffs deep
    // enough for the history bonus's cap.
    let searches = [(KIWIPETE, 9), (STARTPOS, 10)];
    let mut state = SearchState::new();
    let mut nodes = |params: SearchParams| -> Vec<u64> {
        searches
            .iter()
            .map(|&(fen, d)| {
                let mut pos = Position::from_fen(fen, false).unwrap();
                let tt = TranspositionTable::new(8).expect("a small table");
                state.clear();
                let limits = SearchLimits { params, ..depth(d) };
                let stop = AtomicBool::new(false);
                search(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut state, &stop, |_| {}).info.nodes
            })
            .collect()
    };
    let default = nodes(SearchParams::DEFAULT);
    let switch = |min: i32, max: i32| (min, max) == (0, 1);
    for p in SearchParams::all().iter().filter(|p| p.default != 0 && !switch(p.min, p.max)) {
        let mut params = SearchParams::DEFAULT;
        params.set(p.name, p.min).unwrap();
        let at_min = nodes(params);
        params.set(p.name, p.max).unwrap();
        let at_max = nodes(params);
        assert!(at_min != default || at_max != default, "{} changes nothing ({default:?} nodes)", p.name);
        params.set(p.name, p.default).unwrap();
        assert_eq!(nodes(params), default, "{} back at its default", p.name);
    }
}
