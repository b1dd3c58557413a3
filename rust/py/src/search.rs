//! `camelpy._core.Engine`: the core search behind a small native class. Inputs are converted (FEN,
//! UCI moves, limits), the search runs with the GIL released, and each iteration's report is handed to
//! an optional Python callback; the `camelpy.Engine` wrapper turns results into python-chess objects.
//! With `threads > 1` the search is the core's LazySMP (`camelpy_core::threads`): the callback is still
//! only entered from the calling thread. `analyse_many` runs a batch of independent searches.

use std::{
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Mutex,
    },
    time::{Duration, Instant},
};

use camelpy_core::{
    bench::{bench as run_bench, BENCH_DEPTH},
    eval::{evaluate, trace, EvalParams},
    search::{
        info::{IterationInfo, Report, SearchResult},
        limits::SearchLimits,
        SearchState,
    },
    threads::{search_many, search_smp, BatchProgress},
    tt::{Bound as TTBound, TranspositionTable},
    Position, Score,
};
use pyo3::{exceptions::PyValueError, prelude::*, types::PyDict};

use crate::errors::{fen_error, move_error};

/// Largest hash accepted (MiB): far beyond any machine here, small enough never to overflow.
const MAX_HASH_MB: usize = 1 << 20;
/// Most search threads accepted (UCI `Threads` maximum), as Stockfish's ceiling for ordinary machines.
const MAX_THREADS: usize = 256;
/// Default table size (MiB) of each batch worker: a 2 MiB table (131,072 entries) holds a search of
/// ~100k nodes with little replacement, and clearing it before every position costs ~0.1 ms.
const BATCH_HASH_MB: usize = 2;
/// Least interval (ms) between two calls of a batch's progress callback, so that a fast batch does
/// not spend its time in Python drawing a progress bar.
const BATCH_PROGRESS_MS: u64 = 100;

struct Core {
    tt: TranspositionTable,
    hash_mb: usize,
    /// One per search thread (the first is the calling thread's), kept between searches so each
    /// thread's move-ordering memory carries over; resized to the thread count at each search.
    states: Vec<SearchState>,
    eval: EvalParams,
}

/// The native engine: a transposition table and search state reused across searches.
#[pyclass(module = "camelpy._core", name = "Engine", frozen)]
pub struct PyEngine {
    core: Mutex<Core>,
    stop: AtomicBool,
    threads: AtomicUsize,
}

fn check_hash(hash_mb: usize) -> PyResult<usize> {
    if (1..=MAX_HASH_MB).contains(&hash_mb) {
        Ok(hash_mb)
    } else {
        Err(PyValueError::new_err(format!("hash_mb must be between 1 and {MAX_HASH_MB}, got {hash_mb}")))
    }
}

fn check_threads(threads: usize) -> PyResult<usize> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(threads)
    } else {
        Err(PyValueError::new_err(format!("threads must be between 1 and {MAX_THREADS}, got {threads}")))
    }
}

fn position(fen: &str, moves: &[String], chess960: bool) -> PyResult<Position> {
    let mut pos = Position::from_fen(fen, chess960).map_err(fen_error)?;
    for uci in moves {
        let mv = pos.parse_uci(uci).map_err(move_error)?;
        pos.play_unchecked(mv);
    }
    Ok(pos)
}

fn info_dict<'py>(py: Python<'py>, info: &IterationInfo, chess960: bool) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("depth", info.depth)?;
    d.set_item("seldepth", info.seldepth)?;
    d.set_item("multipv", info.multipv)?;
    match info.score {
        Score::Cp(cp) => d.set_item("score", ("cp", cp))?,
        Score::Mate(m) => d.set_item("score", ("mate", m))?,
    }
    let bound = match info.bound {
        TTBound::Lower => "lower",
        TTBound::Upper => "upper",
        _ => "exact",
    };
    d.set_item("bound", bound)?;
    d.set_item("nodes", info.nodes)?;
    d.set_item("time_ms", info.time_ms)?;
    d.set_item("hashfull", info.hashfull)?;
    d.set_item("pv", info.pv.iter().map(|m| m.to_uci(chess960)).collect::<Vec<_>>())?;
    Ok(d)
}

fn report_dict<'py>(py: Python<'py>, report: &Report, chess960: bool) -> PyResult<Bound<'py, PyDict>> {
    match report {
        Report::Iteration(info) => info_dict(py, info, chess960),
        Report::CurrMove { depth, mv, number, nodes, time_ms } => {
            let d = PyDict::new(py);
            d.set_item("depth", depth)?;
            d.set_item("currmove", mv.to_uci(chess960))?;
            d.set_item("currmovenumber", number)?;
            d.set_item("nodes", nodes)?;
            d.set_item("time_ms", time_ms)?;
            Ok(d)
        }
    }
}

fn result_dict<'py>(py: Python<'py>, result: &SearchResult, chess960: bool) -> PyResult<Bound<'py, PyDict>> {
    let d = info_dict(py, &result.info, chess960)?;
    d.set_item("best_move", result.best_move.map(|m| m.to_uci(chess960)))?;
    d.set_item("ponder", result.ponder.map(|m| m.to_uci(chess960)))?;
    let lines = result.lines.iter().map(|l| info_dict(py, l, chess960)).collect::<PyResult<Vec<_>>>()?;
    d.set_item("lines", lines)?;
    Ok(d)
}

fn millis_from_now(ms: Option<u64>) -> Option<Instant> {
    ms.map(|ms| Instant::now() + Duration::from_millis(ms))
}

/// Runs the fixed bench (44 positions, 16 MB, one thread, fresh tables per position) with the GIL
/// released; returns `(nodes, milliseconds)`. The node count at the default depth is the bench
/// signature.
///
/// >>> nodes, ms = camelpy._core.bench(3)
/// >>> nodes > 0
/// True
#[pyfunction]
#[pyo3(signature = (depth = None))]
pub fn bench(py: Python<'_>, depth: Option<i32>) -> PyResult<(u64, u64)> {
    let depth = depth.unwrap_or(BENCH_DEPTH);
    if !(1..=64).contains(&depth) {
        return Err(PyValueError::new_err(format!("bench depth must be between 1 and 64, got {depth}")));
    }
    let result = py.detach(|| run_bench(depth));
    Ok((result.nodes, result.time_ms))
}

/// Searches many positions independently, `threads` at a time (one single-threaded search per worker
/// thread, GIL released), and returns one entry per item in input order: the result dict of
/// `Engine.search`, or, for an item whose FEN or moves are bad, the exception object (never raised:
/// one bad item does not abort the batch). Each worker has its own `hash_mb` table, cleared with the
/// search state before every position, so depth- and node-limited results do not depend on the
/// number of threads or the order of the work. `movetime_ms` bounds each search. `params` sets
/// evaluation weights (as `Engine.set_param`); `progress(done, total)` is called from the calling
/// thread at most every 100 ms and once at the end. Ctrl-C stops the batch and raises.
///
/// >>> items = [(camelpy.STARTING_FEN, [], False), ("not a fen", [], False)]
/// >>> good, bad = camelpy._core.analyse_many(items, nodes=1000, threads=2)
/// >>> good["best_move"] is not None, type(bad).__name__
/// (True, 'InvalidFenError')
#[pyfunction]
#[pyo3(signature = (items, *, depth=None, nodes=None, movetime_ms=None, mate=None, threads=None, hash_mb=BATCH_HASH_MB, params=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn analyse_many(
    py: Python<'_>,
    items: Vec<(String, Vec<String>, bool)>,
    depth: Option<i32>,
    nodes: Option<u64>,
    movetime_ms: Option<u64>,
    mate: Option<i32>,
    threads: Option<usize>,
    hash_mb: usize,
    params: Option<Vec<(String, i32)>>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<Py<PyAny>>> {
    if depth.is_none() && nodes.is_none() && movetime_ms.is_none() && mate.is_none() {
        return Err(PyValueError::new_err("analyse_many needs a depth, nodes, time or mate limit"));
    }
    if depth.is_some_and(|d| d < 1) || mate.is_some_and(|m| m < 1) {
        return Err(PyValueError::new_err("depth and mate must be at least 1"));
    }
    let workers =
        check_threads(threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS)
        }))?;
    let hash_mb = check_hash(hash_mb)?;
    let mut eval = EvalParams::DEFAULT;
    for (name, value) in params.unwrap_or_default() {
        eval.set(&name, value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    // Extract: bad items become their exception objects now; the good ones are searched.
    let mut entries: Vec<Option<Py<PyAny>>> = Vec::with_capacity(items.len());
    let mut positions = Vec::new();
    let mut slots = Vec::new();
    for (i, (fen, moves, chess960)) in items.iter().enumerate() {
        match position(fen, moves, *chess960) {
            Ok(pos) => {
                positions.push(pos);
                slots.push(i);
                entries.push(None);
            }
            Err(e) => entries.push(Some(e.into_value(py).into_any())),
        }
    }
    let limits = SearchLimits { depth, nodes, mate, ..SearchLimits::default() };
    let movetime = movetime_ms.map(Duration::from_millis);
    let mut callback_error: Option<PyErr> = None;
    let mut last_call: Option<Instant> = None;
    let mut last_done = usize::MAX;
    let results = py.detach(|| {
        search_many(
            &positions,
            &limits,
            movetime,
            &eval,
            workers,
            hash_mb,
            |BatchProgress { done, total }| {
                let due = match last_call {
                    None => true,
                    Some(t) => t.elapsed() >= Duration::from_millis(BATCH_PROGRESS_MS),
                };
                if !due && done < total {
                    return true;
                }
                last_call = Some(Instant::now());
                Python::attach(|py| {
                    let outcome = py.check_signals().and_then(|()| match &progress {
                        Some(cb) if done != last_done => cb.call1(py, (done, total)).map(drop),
                        _ => Ok(()),
                    });
                    last_done = done;
                    match outcome {
                        Ok(()) => true,
                        Err(e) => {
                            callback_error = Some(e);
                            false
                        }
                    }
                })
            },
        )
    });
    if let Some(e) = callback_error {
        return Err(e);
    }
    for (slot, result) in slots.into_iter().zip(results) {
        let result = result.expect("an uninterrupted batch searches every position");
        let chess960 = items[slot].2;
        entries[slot] = Some(result_dict(py, &result, chess960)?.into_any().unbind());
    }
    Ok(entries.into_iter().map(|e| e.expect("every item has an entry")).collect())
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (hash_mb = 16, threads = 1))]
    fn new(hash_mb: usize, threads: usize) -> PyResult<PyEngine> {
        let hash_mb = check_hash(hash_mb)?;
        Ok(PyEngine {
            core: Mutex::new(Core {
                tt: TranspositionTable::new(hash_mb),
                hash_mb,
                states: vec![SearchState::new()],
                eval: EvalParams::DEFAULT,
            }),
            stop: AtomicBool::new(false),
            threads: AtomicUsize::new(check_threads(threads)?),
        })
    }

    /// Replaces the hash table by an empty one of `hash_mb` MiB. Waits for a running search.
    fn resize(&self, py: Python<'_>, hash_mb: usize) -> PyResult<()> {
        let hash_mb = check_hash(hash_mb)?;
        py.detach(|| {
            let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
            // Free the old table before allocating the new one, so peak memory is one table.
            core.tt = TranspositionTable::new(1);
            core.tt = TranspositionTable::new(hash_mb);
            core.hash_mb = hash_mb;
        });
        Ok(())
    }

    /// The hash table's size in MiB.
    #[getter]
    fn hash_mb(&self, py: Python<'_>) -> usize {
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).hash_mb)
    }

    /// Sets the number of search threads for the following searches (LazySMP over the shared table).
    fn set_threads(&self, threads: usize) -> PyResult<()> {
        self.threads.store(check_threads(threads)?, Ordering::Relaxed);
        Ok(())
    }

    /// The number of search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.threads.load(Ordering::Relaxed)
    }

    /// Searches the position `fen` + `moves` (UCI); returns the best line of the last iteration as a
    /// dict with `best_move`, `ponder` and `lines` (every MultiPV line) added. `movetime_ms` sets both
    /// deadlines; `soft_ms` stops starting iterations, `hard_ms` aborts one. `info` is called with each
    /// line of each iteration and, on long searches, with `currmove` dicts.
    #[pyo3(signature = (fen, moves, chess960, *, depth=None, nodes=None, movetime_ms=None, soft_ms=None, hard_ms=None, mate=None, searchmoves=Vec::new(), multipv=1, info=None))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        fen: &str,
        moves: Vec<String>,
        chess960: bool,
        depth: Option<i32>,
        nodes: Option<u64>,
        movetime_ms: Option<u64>,
        soft_ms: Option<u64>,
        hard_ms: Option<u64>,
        mate: Option<i32>,
        searchmoves: Vec<String>,
        multipv: usize,
        info: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let mut pos = position(fen, &moves, chess960)?;
        let searchmoves =
            searchmoves.iter().map(|u| pos.parse_uci(u).map_err(move_error)).collect::<PyResult<Vec<_>>>()?;
        if depth.is_some_and(|d| d < 1) || mate.is_some_and(|m| m < 1) || multipv < 1 {
            return Err(PyValueError::new_err("depth, mate and multipv must be at least 1"));
        }
        let limits = SearchLimits {
            depth,
            nodes,
            soft_deadline: millis_from_now(soft_ms.or(movetime_ms)),
            hard_deadline: millis_from_now(hard_ms.or(movetime_ms)),
            mate,
            searchmoves,
            multipv,
        };
        self.stop.store(false, Ordering::Relaxed);
        let threads = self.threads.load(Ordering::Relaxed);
        let mut callback_error = None;
        let result = py.detach(|| {
            let mut guard = self.core.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let core = &mut *guard;
            core.states.resize_with(threads, SearchState::new);
            // The report closure runs on this (the calling) thread only; helpers never report.
            search_smp(&mut pos, &limits, &core.tt, &core.eval, &mut core.states, &self.stop, |report| {
                if let (Some(cb), None) = (&info, &callback_error) {
                    let outcome = Python::attach(|py| {
                        report_dict(py, report, chess960).and_then(|d| cb.call1(py, (d,)))
                    });
                    if let Err(e) = outcome {
                        callback_error = Some(e);
                        self.stop.store(true, Ordering::Relaxed);
                    }
                }
            })
        });
        if let Some(e) = callback_error {
            return Err(e);
        }
        result_dict(py, &result, chess960)
    }

    /// Asks a running search (in another thread) to stop; it returns its best move within a millisecond.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Forgets the table and the learned move ordering (a new game). Waits for a running search.
    fn new_game(&self, py: Python<'_>) {
        py.detach(|| {
            let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
            core.tt.clear();
            core.states.iter_mut().for_each(SearchState::clear);
        });
    }

    /// Empties the transposition table. Waits for a running search.
    fn clear_hash(&self, py: Python<'_>) {
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).tt.clear());
    }

    /// The static evaluation (centipawns, side to move's view) with this engine's parameters.
    fn evaluate(&self, py: Python<'_>, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<i32> {
        let pos = position(fen, &moves, chess960)?;
        Ok(evaluate(&pos, &self.eval_params(py)))
    }

    /// The evaluation's per-term table, for humans.
    fn eval_trace(&self, py: Python<'_>, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<String> {
        let pos = position(fen, &moves, chess960)?;
        Ok(trace(&pos, &self.eval_params(py)).to_string())
    }

    /// Every evaluation weight as `(name, value, min, max)`, in table order.
    ///
    /// >>> name, value, low, high = camelpy._core.Engine().params()[0]
    /// >>> low <= value <= high
    /// True
    fn params(&self, py: Python<'_>) -> Vec<(&'static str, i32, i32, i32)> {
        self.eval_params(py).values().map(|(info, value)| (info.name, value, info.min, info.max)).collect()
    }

    /// Sets one evaluation weight for the following searches. Waits for a running search.
    fn set_param(&self, py: Python<'_>, name: &str, value: i32) -> PyResult<()> {
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).eval.set(name, value))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

impl PyEngine {
    fn eval_params(&self, py: Python<'_>) -> EvalParams {
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).eval.clone())
    }
}
