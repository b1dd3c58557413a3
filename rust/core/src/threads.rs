//! Several threads at once: one position searched by N threads together (LazySMP, [`search_smp`]),
//! and many positions searched independently side by side (batch analysis, [`search_many`]).
//!
//! # LazySMP: what the threads share and what they own
//! The N searchers of one search share only the [`TranspositionTable`] and two flags. Each owns its
//! [`SearchState`] (histories, killers, counter-moves: kept by the caller between searches, one per
//! thread), its search stacks and a copy of the position. They cooperate through the table alone:
//! whatever one thread stores, the others find as cutoffs and move-ordering hints
//! (<https://www.chessprogramming.org/Lazy_SMP>). So that the threads do not walk the same tree in
//! step, odd-numbered helpers run their iterations one ply deeper than the main thread; the threads'
//! own histories and the order in which they reach table entries spread them further.
//!
//! # Roles
//! - The **main thread** is the caller's thread (thread 0). It alone enforces the limits (node limit,
//!   soft and hard deadlines, mate, the caller's stop flag) and calls `report`, so a callback that
//!   needs a language runtime (Python's GIL) is only ever entered from the thread that called
//!   [`search_smp`]. When it returns, for whatever reason, it raises the helpers' stop flag.
//! - **Helpers** (threads 1..N) search with the same depth limit, node limit and root moves but
//!   without deadlines, mate limit or reports, and poll only the helpers' stop flag.
//!
//! # Node counts
//! Every thread keeps its own counter and publishes it to its own cache-line-sized slot at each stop
//! poll (every `TIME_CHECK_NODES` nodes), so counting costs no shared writes per node. The node limit
//! counts all threads: each thread compares its exact count plus the others' last published counts
//! with it, and stops itself when the sum reaches it (so, whatever the scheduling, the limit is
//! overshot by at most about `2 × TIME_CHECK_NODES` per thread). The `nodes` of iteration reports are
//! the same sum seen from the main thread; the returned result carries the exact total.
//!
//! # Which thread's result is returned
//! The deepest completed, best-voted result:
//! 1. A proven mate wins outright: the thread with the shortest mate for the side to move.
//! 2. Otherwise every thread that finished at least one iteration votes for its best move with
//!    weight `(score - worst score + VOTE_SCORE_BASE) × completed depth`, so agreement between
//!    threads, better scores and deeper searches all count.
//! 3. Among the threads with the deepest completed iteration, the one whose move has the most votes
//!    is returned, its PV and score included (ties go to the lower-numbered thread, so the main
//!    thread first). A depth-limited search therefore always reports the depth asked for.
//!
//! With MultiPV the main thread's lines are returned as they are (the helpers only fill the table),
//! as in Stockfish.
//!
//! # Concurrency policy
//! Threads are started per search with [`std::thread::scope`] and joined before it returns: no thread
//! outlives a call, so nothing is parked in a pool when a Python process forks (the match manager
//! uses `multiprocessing`). The table is racy by design (see [`crate::tt`]); everything else is
//! owned by one thread or is an atomic. There is no `unsafe` here.
//!
//! # Batch analysis
//! [`search_many`] runs independent single-threaded searches, one position per worker at a time,
//! each worker with its own small table and search state, both cleared before every position: a
//! result then depends only on its position and the limits (not on which worker took it or what it
//! searched before), so depth- and node-limited batches are deterministic. A shared table would let
//! results depend on scheduling; partitioning one table amounts to the same as one table each.

use std::{
    collections::HashMap,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        mpsc, Arc,
    },
    thread,
    time::{Duration, Instant},
};

use crate::{
    error::AllocError,
    eval::EvalParams,
    nnue::Network,
    search::{
        info::{Report, SearchResult},
        limits::SearchLimits,
        search, search_thread, NodeCounter, SearchState, ThreadOutcome, ThreadRole,
    },
    tt::TranspositionTable,
    types::{Move, Score, VALUE_MATE},
    Position,
};

/// Added to every vote so that the thread with the worst score still counts: without it the worst
/// thread's depth would weigh nothing. Small against typical score spreads, as in Stockfish.
const VOTE_SCORE_BASE: i64 = 14;

/// How often (ms) [`search_many`] calls its progress function while waiting for results, so that a
/// caller can react to an interrupt (Ctrl-C) even when single positions take long.
pub const BATCH_POLL_MS: u64 = 50;

/// Raises a flag when dropped: the helpers are stopped however the main thread leaves (even by a
/// panic), so the scope that joins them can never wait forever.
struct RaiseOnDrop<'a>(&'a AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Searches `pos` with one thread per element of `states` (the first is the calling thread's),
/// sharing `tt`; otherwise as [`search`]: `report` is called from the calling thread only, `stop`
/// ends the search within about a millisecond, the position is restored. With one state this is
/// exactly [`search`] (the same nodes, moves and reports); with none, a fresh state is used.
pub fn search_smp(
    pos: &mut Position,
    limits: &SearchLimits,
    tt: &TranspositionTable,
    eval: &EvalParams,
    states: &mut [SearchState],
    stop: &AtomicBool,
    mut report: impl FnMut(&Report),
) -> SearchResult {
    let (main_state, helper_states) = match states {
        [] => return search(pos, limits, tt, eval, &mut SearchState::new(), stop, report),
        [state] => return search(pos, limits, tt, eval, state, stop, report),
        [main, helpers @ ..] => (main, helpers),
    };
    tt.new_search();
    let counters: Vec<NodeCounter> = (0..=helper_states.len()).map(|_| NodeCounter::default()).collect();
    let helpers_stop = AtomicBool::new(false);
    let helper_limits =
        SearchLimits { soft_deadline: None, hard_deadline: None, mate: None, multipv: 1, ..limits.clone() };
    let start = Instant::now();
    let multipv = limits.multipv > 1;

    let outcomes: Vec<ThreadOutcome> = thread::scope(|s| {
        let handles: Vec<_> = helper_states
            .iter_mut()
            .enumerate()
            .map(|(i, state)| {
                let mut pos = pos.clone();
                let (limits, counters, helpers_stop) = (&helper_limits, &counters, &helpers_stop);
                s.spawn(move || {
                    let role = ThreadRole { index: i + 1, nodes: counters };
                    search_thread(&mut pos, limits, tt, eval, state, helpers_stop, &mut |_| {}, Some(role))
                })
            })
            .collect();
        let main = {
            let _stop_helpers = RaiseOnDrop(&helpers_stop);
            let role = ThreadRole { index: 0, nodes: &counters };
            search_thread(pos, limits, tt, eval, main_state, stop, &mut report, Some(role))
        };
        let mut outcomes = vec![main];
        for handle in handles {
            outcomes.push(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        }
        outcomes
    });

    let total: u64 = outcomes.iter().map(|o| o.nodes).sum();
    let chosen = if multipv { 0 } else { pick_thread(&outcomes) };
    let mut result = outcomes.into_iter().nth(chosen).expect("chosen thread exists").result;
    let time_ms = start.elapsed().as_millis() as u64;
    result.info.nodes = total;
    result.info.time_ms = time_ms;
    if let Some(first) = result.lines.first_mut() {
        first.nodes = total;
        first.time_ms = time_ms;
    }
    result
}

/// A number that orders scores as [`Score`]'s `Ord` does (mates beyond every centipawn score).
fn vote_value(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => cp as i64,
        Score::Mate(m) if m > 0 => (VALUE_MATE - 2 * m) as i64,
        Score::Mate(m) => (-VALUE_MATE - 2 * m) as i64,
    }
}

/// The index of the thread whose result is returned (the rule is in the module documentation).
fn pick_thread(outcomes: &[ThreadOutcome]) -> usize {
    let voters: Vec<(usize, Move, Score, i64)> = outcomes
        .iter()
        .enumerate()
        .filter(|(_, o)| o.completed_depth > 0)
        .filter_map(|(i, o)| Some((i, o.result.best_move?, o.result.info.score, o.completed_depth as i64)))
        .collect();
    let Some(worst) = voters.iter().map(|v| vote_value(v.2)).min() else {
        return 0;
    };
    // 2. Votes from every thread with a completed iteration.
    let mut votes: HashMap<Move, i64> = HashMap::new();
    for &(_, mv, score, depth) in &voters {
        *votes.entry(mv).or_default() += (vote_value(score) - worst + VOTE_SCORE_BASE) * depth;
    }
    // 1. A proven mate wins outright (the shortest; the lowest-numbered thread on ties).
    let mut mate: Option<(usize, Score)> = None;
    for &(i, _, score, _) in &voters {
        if matches!(score, Score::Mate(m) if m > 0) && mate.is_none_or(|(_, best)| score > best) {
            mate = Some((i, score));
        }
    }
    if let Some((i, _)) = mate {
        return i;
    }
    // 3. The deepest threads' most-voted move.
    let deepest = voters.iter().map(|v| v.3).max().unwrap_or(0);
    let mut best: Option<(usize, i64)> = None;
    for &(i, mv, _, depth) in &voters {
        if depth == deepest && best.is_none_or(|(_, most)| votes[&mv] > most) {
            best = Some((i, votes[&mv]));
        }
    }
    best.map_or(0, |(i, _)| i)
}

/// What [`search_many`] reports while it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchProgress {
    /// Positions finished so far.
    pub done: usize,
    /// Positions in the batch.
    pub total: usize,
}

/// Searches every position independently with `limits`, `workers` positions at a time (one
/// single-threaded search per worker thread), and returns the results in input order. Each worker
/// has its own table of `hash_mb` MiB and its own search state, both cleared before each position,
/// so a result depends only on its position and the limits (see the module documentation).
///
/// `movetime`, if given, bounds each search (both deadlines are set when that search starts); the
/// deadlines in `limits` are ignored, since they are instants fixed before the batch began.
///
/// `progress` is called on the calling thread after each finished position and at least every
/// [`BATCH_POLL_MS`] ms; returning `false` stops the batch: the running searches end at once and
/// positions not yet started get `None`. A search cut short this way returns its best move so far.
///
/// The workers' tables are allocated on the calling thread before any search starts: if the memory
/// is not there, the batch returns an [`AllocError`] and searches nothing.
// The batch's inputs are independent settings; a struct for them would only be built to be unpacked.
#[allow(clippy::too_many_arguments)]
pub fn search_many(
    positions: &[Position],
    limits: &SearchLimits,
    movetime: Option<Duration>,
    eval: &EvalParams,
    net: Option<&Arc<Network>>,
    workers: usize,
    hash_mb: usize,
    mut progress: impl FnMut(BatchProgress) -> bool,
) -> Result<Vec<Option<SearchResult>>, AllocError> {
    let total = positions.len();
    let mut results: Vec<Option<SearchResult>> = vec![None; total];
    let workers = workers.clamp(1, total.max(1));
    let tables = (0..workers).map(|_| TranspositionTable::new(hash_mb)).collect::<Result<Vec<_>, _>>()?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    thread::scope(|s| {
        let (sender, receiver) = mpsc::channel::<(usize, SearchResult)>();
        for mut tt in tables {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || {
                let mut state = SearchState::new();
                state.set_network(net.cloned());
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= total || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    tt.clear();
                    state.clear();
                    let mut pos = positions[index].clone();
                    let deadline = movetime.map(|t| Instant::now() + t);
                    let limits =
                        SearchLimits { soft_deadline: deadline, hard_deadline: deadline, ..limits.clone() };
                    let result = search(&mut pos, &limits, &tt, eval, &mut state, stop, |_| {});
                    if sender.send((index, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let _stop_workers = RaiseOnDrop(&stop);
        let mut done = 0;
        loop {
            match receiver.recv_timeout(Duration::from_millis(BATCH_POLL_MS)) {
                Ok((index, result)) => {
                    results[index] = Some(result);
                    done += 1;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if !stop.load(Ordering::Relaxed) && !progress(BatchProgress { done, total }) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{search::info::IterationInfo, tt::Bound};

    fn outcome(mv: &str, score: Score, completed_depth: i32) -> ThreadOutcome {
        let pos = Position::startpos();
        let mv = pos.parse_uci(mv).unwrap();
        let info = IterationInfo {
            depth: completed_depth,
            seldepth: 0,
            multipv: 1,
            score,
            bound: Bound::Exact,
            nodes: 0,
            time_ms: 0,
            hashfull: 0,
            pv: vec![mv],
        };
        ThreadOutcome {
            result: SearchResult { best_move: Some(mv), ponder: None, info: info.clone(), lines: vec![info] },
            completed_depth,
            nodes: 0,
        }
    }

    #[test]
    fn the_deepest_thread_wins_then_the_vote() {
        let o = [
            outcome("e2e4", Score::Cp(20), 10),
            outcome("d2d4", Score::Cp(25), 12),
            outcome("e2e4", Score::Cp(20), 11),
        ];
        assert_eq!(pick_thread(&o), 1, "only the deepest completed iteration is a candidate");
        // At equal depth, two threads agreeing outvote a slightly better score...
        let o = [
            outcome("e2e4", Score::Cp(20), 10),
            outcome("d2d4", Score::Cp(25), 10),
            outcome("e2e4", Score::Cp(20), 10),
        ];
        assert_eq!(pick_thread(&o), 0);
        // ...but not a much better one.
        let o = [
            outcome("e2e4", Score::Cp(20), 10),
            outcome("d2d4", Score::Cp(200), 10),
            outcome("e2e4", Score::Cp(20), 10),
        ];
        assert_eq!(pick_thread(&o), 1);
        // Shallower threads' votes count too: they back the main thread's move here.
        let o = [
            outcome("e2e4", Score::Cp(20), 10),
            outcome("d2d4", Score::Cp(22), 10),
            outcome("e2e4", Score::Cp(20), 9),
        ];
        assert_eq!(pick_thread(&o), 0);
    }

    #[test]
    fn voting_takes_the_shortest_mate_and_ignores_threads_without_an_iteration() {
        let o = [
            outcome("e2e4", Score::Cp(900), 12),
            outcome("d2d4", Score::Mate(3), 9),
            outcome("g1f3", Score::Mate(2), 8),
            outcome("b1c3", Score::Cp(5), 10),
        ];
        assert_eq!(pick_thread(&o), 2);
        let o = [outcome("e2e4", Score::Cp(0), 1), outcome("d2d4", Score::Mate(1), 0)];
        assert_eq!(pick_thread(&o), 0, "a thread that completed no iteration does not vote");
        assert_eq!(pick_thread(&[outcome("e2e4", Score::Cp(0), 0)]), 0);
    }

    #[test]
    fn vote_values_order_like_scores() {
        let scores =
            [Score::Mate(0), Score::Mate(-3), Score::Cp(-500), Score::Cp(40), Score::Mate(5), Score::Mate(1)];
        for pair in scores.windows(2) {
            assert!(vote_value(pair[0]) < vote_value(pair[1]), "{pair:?}");
            assert!(pair[0] < pair[1]);
        }
    }
}
