//! The bench: a fixed, deterministic search over our own list of positions, whose total node count is
//! the search's signature. Every commit that changes search behaviour states the new count as
//! `Bench: N`; the test `bench_signature` pins it.
//!
//! The list: the start position and Kiwipete, twenty openings from `balanced.epd` (every 50th), ten
//! Win-At-Chess middlegames (every 15th), and twelve endings (rook, pawn, bishop, en passant).

use core::fmt;
use std::{
    sync::{atomic::AtomicBool, Arc},
    time::Instant,
};

use crate::{
    error::AllocError,
    eval::EvalParams,
    nnue::{NetError, Network},
    search::{limits::SearchLimits, params::SearchParams, search, SearchState},
    tt::TranspositionTable,
    Position,
};

/// Depth of every bench search: deep enough to exercise pruning and reductions, a few seconds in all.
pub const BENCH_DEPTH: i32 = 11;
/// Hash size for the bench (MiB), cleared before each position.
pub const BENCH_HASH_MB: usize = 16;

/// The bench positions.
pub const BENCH_FENS: [&str; 44] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rn1q1rk1/pp2ppbp/2p1b1p1/2Pp3n/3P1B2/2N1PN2/PP3PPP/2RQKB1R w K - 0 1",
    "rn1qkb1r/pp3ppp/2p1pn2/P7/3P4/2NpPN2/1P3PPP/R1BQK2R w KQkq - 0 1",
    "r2qk2r/pbpnbppp/1p2p3/3n4/3P4/P1N2N2/1PQBPPPP/R3KB1R w KQkq - 0 1",
    "r1bq1rk1/pp1nbppp/2n1p3/2ppP3/3P1P2/5NP1/PPP1N2P/R1BQKB1R w KQ - 0 1",
    "r1bq1rk1/pp3pbp/n1pp1np1/4p1B1/2PPP3/2N2P2/PP1QB1PP/R3K1NR w KQ - 0 1",
    "r1bq1rk1/1pp1b1pp/2n1pn2/p2p1p2/2PP4/P4NP1/1P1NPPBP/R1BQ1RK1 w - - 0 1",
    "r1bq1rk1/ppp1ppbp/5np1/n2P4/2Q1P3/2N2N2/PP3PPP/R1B1KB1R w KQ - 0 1",
    "r2qk2r/pp1nbpp1/2p1pn1p/3p1b2/3P3B/4PN2/PPPNBPPP/R2Q1RK1 w kq - 0 1",
    "r1bqkb1r/pp3ppp/2np4/3pP3/3P4/5N2/PP3PPP/R1BQKB1R w KQkq - 0 1",
    "r1bqk2r/ppp2pbp/2np1np1/8/8/1PN2NP1/PBP1PPBP/R2QK2R w KQkq - 0 1",
    "r1bqkb1r/pp3p1p/2n1p1p1/2Pp4/3Pn3/P1N2N2/1P3PPP/R1BQKB1R w KQkq - 0 1",
    "rnbq1rk1/pp2ppbp/2p3p1/8/3PB3/5N1P/PPP2PP1/R1BQK2R w KQ - 0 1",
    "rn2k2r/1bppqppp/1p2pn2/p5B1/2PP4/2bBPN2/PPQ2PPP/R3K2R w KQkq - 0 1",
    "r2qk2r/pp1bppbp/2np1np1/1B6/2P1P3/2N5/PP2NPPP/R1BQK2R w KQkq - 0 1",
    "r2qkb1r/pp2pppp/2n2n2/3p4/2PP2b1/2N2N2/PP1B1PPP/R2QKB1R w KQkq - 0 1",
    "r1b1kb1r/ppp2ppp/1nn5/4N3/3q4/2NQ4/PP2PPPP/R1B1KB1R w KQkq - 0 1",
    "r1bq1rk1/pppn1pb1/3p1np1/4p2p/1PP5/2N1P1P1/P2PNPBP/1RBQK2R w K - 0 1",
    "r1bq1r1k/ppp1bpp1/2np1n1p/4p3/4P3/1BPP1N2/PP3PPP/RNBQR1K1 w - - 0 1",
    "rn1qk2r/p4ppp/bppb1n2/3p4/3P4/2N1P3/PPBB1PPP/R2QK1NR w KQkq - 0 1",
    "rnbqk2r/p1pp4/1p2p2p/5pp1/1bPPn3/2NQ1NB1/PP2PPPP/R3KB1R w KQkq - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r4rk1/ppp2ppp/2n5/2bqp3/8/P2PB3/1PP1NPPP/R2Q1RK1 w - - 0 1",
    "rb3qk1/pQ3ppp/4p3/3P4/8/1P3N2/1P3PPP/3R2K1 w - - 0 1",
    "r1bqr1k1/pp1nb1p1/4p2p/3p1p2/3P4/P1N1PNP1/1PQ2PP1/3RKB1R w K - 0 1",
    "3qrbk1/ppp1r2n/3pP2p/3P4/2P4P/1P3Q2/PB6/R4R1K w - - 0 1",
    "r1b1qrk1/2p2ppp/pb1pnn2/1p2pNB1/3PP3/1BP5/PP2QPPP/RN1R2K1 w - - 0 1",
    "2qr2k1/4b1p1/2p2p1p/1pP1p3/p2nP3/PbQNB1PP/1P3PK1/4RB2 b - - 0 1",
    "4rrk1/pppb4/7p/3P2pq/3Qn3/P5P1/1PP4P/R3RNNK b - - 0 1",
    "6k1/5p1p/2bP2pb/4p3/2P5/1p1pNPPP/1P1Q1BK1/1q6 b - - 0 1",
    "6kr/1q2r1p1/1p2N1Q1/5p2/1P1p4/6R1/7P/2R3K1 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "4k2r/8/8/8/8/8/8/4K3 w k - 0 1",
    "r3k3/8/8/8/8/8/8/4K3 w q - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1",
    "8/8/8/8/8/8/6k1/4K2R w K - 0 1",
    "8/8/8/8/8/8/1k6/R3K3 w Q - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "8/5k2/8/3P4/8/8/4K3/8 w - - 0 1",
    "8/p4pk1/1p4p1/8/3P4/1P3PP1/P5K1/8 w - - 0 1",
];

/// What a bench run measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchResult {
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub time_ms: u64,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// Why a bench cannot run.
#[derive(Debug)]
pub enum BenchError {
    /// The table could not be allocated.
    Alloc(AllocError),
    /// The built-in network did not load.
    Net(NetError),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Alloc(e) => e.fmt(f),
            BenchError::Net(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for BenchError {}

impl From<AllocError> for BenchError {
    fn from(e: AllocError) -> BenchError {
        BenchError::Alloc(e)
    }
}

impl From<NetError> for BenchError {
    fn from(e: NetError) -> BenchError {
        BenchError::Net(e)
    }
}

/// Searches every bench position to `depth` on one thread with a fresh 16 MiB table and fresh
/// histories each time, evaluating as the engine does by default: with the network built into
/// camelpy ([`Network::embedded`]). Raising `stop` cuts the run short (the counts are then partial).
pub fn bench(depth: i32, stop: &AtomicBool) -> Result<BenchResult, BenchError> {
    bench_with(depth, &SearchParams::DEFAULT, Some(Network::embedded()?), stop)
}

/// [`bench`] with other run-time search settings (a candidate's signature before its defaults
/// change) and another evaluation: `net`, or the classical evaluation with `None`.
pub fn bench_with(
    depth: i32,
    params: &SearchParams,
    net: Option<Arc<Network>>,
    stop: &AtomicBool,
) -> Result<BenchResult, BenchError> {
    let start = Instant::now();
    let eval = EvalParams::DEFAULT;
    let mut tt = TranspositionTable::new(BENCH_HASH_MB)?;
    let mut nodes = 0;
    for fen in BENCH_FENS {
        let mut pos = Position::from_fen(fen, false).expect("bench positions are valid");
        tt.clear();
        let mut state = SearchState::new();
        state.set_network(net.clone());
        let limits = SearchLimits { depth: Some(depth), params: *params, ..SearchLimits::default() };
        let result = search(&mut pos, &limits, &tt, &eval, &mut state, stop, |_| {});
        nodes += result.info.nodes;
    }
    Ok(BenchResult { nodes, time_ms: start.elapsed().as_millis() as u64 })
}
