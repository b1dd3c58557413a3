//! `camelpy._core.Engine`: the core search behind a small native class. Inputs are converted (FEN,
//! UCI moves, limits), the search runs with the GIL released, and each iteration's report is handed to
//! an optional Python callback; the `camelpy.Engine` wrapper turns results into python-chess objects.
//! With `threads > 1` the search is the core's LazySMP (`camelpy_core::threads`): the callback is still
//! only entered from the calling thread. `analyse_many` runs a batch of independent searches.

use std::sync::{
    atomic::{AtomicBool, AtomicUsize, Ordering},
    Arc, Mutex,
};

use camelpy_core::{
    bench::{bench_with as run_bench, BenchError, BENCH_DEPTH},
    eval::{evaluate, trace, EvalParams},
    nnue::{Network, EMBEDDED_NAME},
    search::{limits::SearchLimits, params::SearchParams, SearchState},
    tablebase::TableSet,
    threads::search_smp,
    tt::TranspositionTable,
};
use pyo3::{
    exceptions::{PyMemoryError, PyValueError},
    prelude::*,
};

use crate::{
    args::{
        check_hash, int_arg, opt_int_arg, position, search_limits, signed_int_arg, DEFAULT_HASH_MB,
        MAX_BENCH_DEPTH, MAX_MULTIPV, MAX_THREADS,
    },
    errors::{move_error, net_error},
    info::{PySearchOutcome, ReportMessage},
    interrupt,
    tablebase::PyTablebase,
};

struct Core {
    tt: TranspositionTable,
    hash_mb: usize,
    /// One per search thread (the first is the main search thread's), kept between searches so each
    /// thread's move-ordering memory carries over; resized to the thread count at each search.
    states: Vec<SearchState>,
    eval: EvalParams,
    search: SearchParams,
    /// The network evaluating instead of `eval`, and the file it came from.
    net: Option<(Arc<Network>, String)>,
    /// Endgame tables the search probes, and their folder.
    tablebases: Option<(Arc<TableSet>, String)>,
}

impl Core {
    /// A search state for one more thread, evaluating as the others do.
    fn new_state(net: &Option<(Arc<Network>, String)>) -> SearchState {
        let mut state = SearchState::new();
        state.set_network(net.as_ref().map(|(n, _)| n.clone()));
        state
    }
}

/// Reads the network file `path` (or the built-in network by its name) with the GIL released.
pub fn load_network(py: Python<'_>, path: &str) -> PyResult<Arc<Network>> {
    py.detach(|| Network::open(path)).map_err(net_error)
}

/// The native engine: a transposition table and search state reused across searches.
#[pyclass(module = "camelpy._core", name = "Engine", frozen)]
pub struct PyEngine {
    core: Mutex<Core>,
    stop: AtomicBool,
    threads: AtomicUsize,
}

/// A hash table of `hash_mb` MiB, or `MemoryError` (with the core's message) if the system refuses it.
pub fn table(hash_mb: usize) -> PyResult<TranspositionTable> {
    TranspositionTable::new(hash_mb).map_err(|e| PyMemoryError::new_err(e.to_string()))
}

/// A deadline `ms` milliseconds from now (none if that is beyond what the clock can represent).
pub fn millis_from_now(ms: Option<u64>) -> Option<std::time::Instant> {
    ms.and_then(|ms| std::time::Instant::now().checked_add(std::time::Duration::from_millis(ms)))
}

/// Runs the fixed bench (44 positions, 16 MB, one thread, fresh tables per position) with the GIL
/// released, evaluating with the built-in network (the engine's default) or, with *classical*, the
/// classical evaluation; returns `(nodes, milliseconds)`. The node count at the default depth with
/// the network is the bench signature. Ctrl-C stops it.
///
/// >>> nodes, ms = camelpy._core.bench(3)
/// >>> nodes > 0
/// True
#[pyfunction]
#[pyo3(signature = (depth = None, *, classical = false))]
pub fn bench(py: Python<'_>, depth: Option<&Bound<'_, PyAny>>, classical: bool) -> PyResult<(u64, u64)> {
    let depth = opt_int_arg(depth, "depth", 1, MAX_BENCH_DEPTH)?.map_or(BENCH_DEPTH, |d| d as i32);
    let net = if classical { None } else { Some(py.detach(Network::embedded).map_err(net_error)?) };
    let stop = AtomicBool::new(false);
    let result = interrupt::run_silent(py, &stop, || run_bench(depth, &SearchParams::DEFAULT, net, &stop))?
        .map_err(|e| match e {
        BenchError::Alloc(e) => PyMemoryError::new_err(e.to_string()),
        BenchError::Net(e) => net_error(e),
    })?;
    Ok((result.nodes, result.time_ms))
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (hash_mb = None, threads = None))]
    fn new(
        py: Python<'_>,
        hash_mb: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyEngine> {
        let hash_mb = match hash_mb {
            Some(v) => check_hash(v, "hash_mb", 1)?,
            None => DEFAULT_HASH_MB as usize,
        };
        let threads = opt_int_arg(threads, "threads", 1, MAX_THREADS)?.unwrap_or(1) as usize;
        // The built-in network by its name, as the UCI option's default resolves it.
        let net = Some((load_network(py, EMBEDDED_NAME)?, EMBEDDED_NAME.to_owned()));
        Ok(PyEngine {
            core: Mutex::new(Core {
                tt: table(hash_mb)?,
                hash_mb,
                states: vec![Core::new_state(&net)],
                net,
                tablebases: None,
                eval: EvalParams::DEFAULT,
                search: SearchParams::DEFAULT,
            }),
            stop: AtomicBool::new(false),
            threads: AtomicUsize::new(threads),
        })
    }

    /// Replaces the hash table by an empty one of `hash_mb` MiB. Waits for a running search. If the
    /// memory is not there (`ValueError` beyond the machine's memory, `MemoryError` if the system
    /// refuses it), the old table is kept as it was.
    fn resize(&self, py: Python<'_>, hash_mb: &Bound<'_, PyAny>) -> PyResult<()> {
        let hash_mb = check_hash(hash_mb, "hash_mb", 1)?;
        py.detach(|| {
            let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
            core.tt.resize(hash_mb).map_err(|e| PyMemoryError::new_err(e.to_string()))?;
            core.hash_mb = hash_mb;
            Ok(())
        })
    }

    /// The hash table's size in MiB.
    #[getter]
    fn hash_mb(&self, py: Python<'_>) -> usize {
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).hash_mb)
    }

    /// Sets the number of search threads for the following searches (LazySMP over the shared table).
    fn set_threads(&self, threads: &Bound<'_, PyAny>) -> PyResult<()> {
        let threads = int_arg(threads, "threads", 1, MAX_THREADS)? as usize;
        self.threads.store(threads, Ordering::Relaxed);
        Ok(())
    }

    /// The number of search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.threads.load(Ordering::Relaxed)
    }

    /// Searches the position `fen` + `moves` (UCI) and returns a `SearchOutcome`. `ms` sets both
    /// deadlines; `soft_ms` stops starting iterations, `hard_ms` aborts one. `info` is called with
    /// each line of each iteration (`IterationInfo`) and, on long searches, with `CurrMoveInfo`s,
    /// always on the calling thread. Ctrl-C stops the search and raises `KeyboardInterrupt`.
    #[pyo3(signature = (fen, moves, chess960, *, depth=None, nodes=None, ms=None, soft_ms=None, hard_ms=None, mate=None, searchmoves=Vec::new(), multipv=None, info=None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        fen: &str,
        moves: Vec<String>,
        chess960: bool,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        ms: Option<&Bound<'_, PyAny>>,
        soft_ms: Option<&Bound<'_, PyAny>>,
        hard_ms: Option<&Bound<'_, PyAny>>,
        mate: Option<&Bound<'_, PyAny>>,
        searchmoves: Vec<String>,
        multipv: Option<&Bound<'_, PyAny>>,
        info: Option<Py<PyAny>>,
    ) -> PyResult<PySearchOutcome> {
        let limits = SearchLimits {
            multipv: opt_int_arg(multipv, "multipv", 1, MAX_MULTIPV)?.unwrap_or(1) as usize,
            ..search_limits(depth, nodes, mate)?
        };
        let ms = opt_int_arg(ms, "ms", 1, u64::MAX)?;
        let soft_ms = opt_int_arg(soft_ms, "soft_ms", 1, u64::MAX)?.or(ms);
        let hard_ms = opt_int_arg(hard_ms, "hard_ms", 1, u64::MAX)?.or(ms);
        let mut pos = position(fen, &moves, chess960)?;
        let searchmoves =
            searchmoves.iter().map(|u| pos.parse_uci(u).map_err(move_error)).collect::<PyResult<Vec<_>>>()?;
        let limits = SearchLimits {
            soft_deadline: millis_from_now(soft_ms),
            hard_deadline: millis_from_now(hard_ms),
            searchmoves,
            ..limits
        };
        self.stop.store(false, Ordering::Relaxed);
        let threads = self.threads.load(Ordering::Relaxed);
        let reports = info.is_some();
        let result = interrupt::run(
            py,
            &self.stop,
            |outbox| {
                let mut guard = self.core.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let core = &mut *guard;
                let net = core.net.clone();
                core.states.resize_with(threads, || Core::new_state(&net));
                let tablebases = core.tablebases.as_ref().map(|(t, _)| t.clone());
                let limits = SearchLimits { params: core.search, tablebases, ..limits };
                // The main search thread alone reports; each report waits for the callback.
                search_smp(&mut pos, &limits, &core.tt, &core.eval, &mut core.states, &self.stop, |report| {
                    if reports {
                        outbox.send(ReportMessage::from_core(report, chess960));
                    }
                })
            },
            |py, message: ReportMessage| match &info {
                Some(callback) => callback.call1(py, (message.into_py(py)?,)).map(drop),
                None => Ok(()),
            },
        )?;
        Ok(PySearchOutcome::from_core(&result, chess960))
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

    /// The static evaluation (centipawns, side to move's view): the network's when one is loaded,
    /// else the classical evaluation with this engine's parameters.
    fn evaluate(&self, py: Python<'_>, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<i32> {
        let pos = position(fen, &moves, chess960)?;
        match self.network(py) {
            Some(net) => Ok(net.evaluate(&pos)),
            None => Ok(evaluate(&pos, &self.eval_params(py))),
        }
    }

    /// Evaluates with the network in the file `path` from now on, or with the classical evaluation
    /// (`None`). A file that cannot be used raises and leaves the evaluation as it was. Waits for a
    /// running search; clears the table (its entries hold the old evaluation's values).
    #[pyo3(signature = (path))]
    fn set_eval_file(&self, py: Python<'_>, path: Option<String>) -> PyResult<()> {
        let net = match path {
            Some(path) => Some((load_network(py, &path)?, path)),
            None => None,
        };
        py.detach(|| {
            let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
            for state in &mut core.states {
                state.set_network(net.as_ref().map(|(n, _)| n.clone()));
            }
            core.net = net;
            core.tt.clear();
        });
        Ok(())
    }

    /// Probes the tables of *tablebase* (a ``Tablebase``) in every search from now on; ``None``: none.
    /// Clears the table (its entries were found without the tables).
    #[pyo3(signature = (tablebase))]
    fn set_tablebase(&self, py: Python<'_>, tablebase: Option<PyRef<'_, PyTablebase>>) {
        let tables = tablebase.map(|t| (t.set.clone(), t.path.clone()));
        py.detach(|| {
            let mut core = self.core.lock().unwrap_or_else(|p| p.into_inner());
            core.tablebases = tables;
            core.tt.clear();
        });
    }

    /// The folder of the tables in use, or `None`.
    #[getter]
    fn tablebase_path(&self, py: Python<'_>) -> Option<String> {
        py.detach(|| {
            self.core.lock().unwrap_or_else(|p| p.into_inner()).tablebases.as_ref().map(|(_, p)| p.clone())
        })
    }

    /// The network file in use, or `None` for the classical evaluation.
    #[getter]
    fn eval_file(&self, py: Python<'_>) -> Option<String> {
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).net.as_ref().map(|(_, p)| p.clone()))
    }

    /// The checksum of the network in use (as its file header stores it), or `None`.
    #[getter]
    fn eval_hash(&self, py: Python<'_>) -> Option<u64> {
        self.network(py).map(|n| n.hash())
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

    /// Every run-time search setting as `(name, value, min, max)`, in table order (the core's
    /// `SearchParams`: candidate search changes, off at their defaults until they pass an SPRT).
    ///
    /// >>> name, value, low, high = camelpy._core.Engine().search_params()[0]
    /// >>> low <= value <= high
    /// True
    fn search_params(&self, py: Python<'_>) -> Vec<(&'static str, i32, i32, i32)> {
        let params = py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).search);
        search_param_rows(&params)
    }

    /// Sets one run-time search setting for the following searches. Waits for a running search.
    fn set_search_param(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = signed_int_arg(value, "value", i32::MIN.into(), i32::MAX.into())? as i32;
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).search.set(name, value))
            .map_err(|e| PyValueError::new_err(e.describe("search")))
    }

    /// Sets one evaluation weight for the following searches. Waits for a running search.
    fn set_param(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        // The table's own range check (in the core) names the weight and its bounds; this only keeps
        // the number within the core's type.
        let value = signed_int_arg(value, "value", i32::MIN.into(), i32::MAX.into())? as i32;
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).eval.set(name, value))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }
}

/// `(name, value, min, max)` for every search setting of `params`.
fn search_param_rows(params: &SearchParams) -> Vec<(&'static str, i32, i32, i32)> {
    params.values().map(|(info, value)| (info.name, value, info.min, info.max)).collect()
}

/// Every run-time search setting at its default as `(name, value, min, max)`: what a new
/// `Engine().search_params()` returns.
///
/// >>> camelpy._core.default_search_params() == camelpy._core.Engine().search_params()
/// True
#[pyfunction]
pub fn default_search_params() -> Vec<(&'static str, i32, i32, i32)> {
    search_param_rows(&SearchParams::DEFAULT)
}

/// The search settings `params` (`(name, value)` pairs) applied over the defaults, or `ValueError`
/// naming a bad one.
pub fn search_params(params: Option<Vec<(String, i32)>>) -> PyResult<SearchParams> {
    let mut search = SearchParams::DEFAULT;
    for (name, value) in params.unwrap_or_default() {
        search.set(&name, value).map_err(|e| PyValueError::new_err(e.describe("search")))?;
    }
    Ok(search)
}

impl PyEngine {
    fn network(&self, py: Python<'_>) -> Option<Arc<Network>> {
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).net.as_ref().map(|(n, _)| n.clone()))
    }

    fn eval_params(&self, py: Python<'_>) -> EvalParams {
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).eval.clone())
    }
}
