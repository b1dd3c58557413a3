//! `camelpy._core.analyse_many`: a batch of independent searches side by side (the core's
//! `threads::search_many`), with the GIL released, Ctrl-C and the progress callback handled the one
//! way every long call is (`interrupt`).

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc,
    },
    time::{Duration, Instant},
};

use camelpy_core::{
    search::limits::SearchLimits,
    threads::{search_many, BatchProgress},
};
use pyo3::{
    exceptions::{PyMemoryError, PyValueError},
    prelude::*,
};

use crate::{
    args::{check_hash, default_threads, opt_int_arg, position, search_limits, BATCH_HASH_MB, MAX_THREADS},
    eval::eval_params,
    info::PySearchOutcome,
    interrupt,
    search::search_params as search_settings,
    tablebase::PyTablebase,
};

/// Least interval (ms) between two calls of a batch's progress callback, so that a fast batch does
/// not spend its time in Python drawing a progress bar.
const BATCH_PROGRESS_MS: u64 = 100;

/// Searches many positions independently, `threads` at a time (one single-threaded search per worker
/// thread, GIL released), and returns one entry per item in input order: a `SearchOutcome`, or, for
/// an item whose FEN or moves are bad, the exception object (never raised: one bad item does not abort
/// the batch). Each worker has its own `hash_mb` table, cleared with the search state before every
/// position, so depth- and node-limited results do not depend on the number of threads or the order
/// of the work. `ms` bounds each search. `params` sets evaluation weights (as `Engine.set_param`),
/// `search_params` run-time search settings (as `Engine.set_search_param`), `eval_file` a network file
/// to evaluate with instead (as `Engine.set_eval_file`), `tablebases` endgame tables to probe (as
/// `Engine.set_tablebase`);
/// `progress(done, total)` is called from the calling thread at most every 100 ms and once at the
/// end. Ctrl-C stops the batch and raises.
///
/// >>> items = [(camelpy.STARTING_FEN, [], False), ("not a fen", [], False)]
/// >>> good, bad = camelpy._core.analyse_many(items, nodes=1000, threads=2)
/// >>> good.best_move is not None, type(bad).__name__
/// (True, 'InvalidFenError')
#[pyfunction]
#[pyo3(signature = (items, *, depth=None, nodes=None, ms=None, mate=None, threads=None, hash_mb=None, params=None, search_params=None, eval_file=None, tablebases=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn analyse_many(
    py: Python<'_>,
    items: Vec<(String, Vec<String>, bool)>,
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    ms: Option<&Bound<'_, PyAny>>,
    mate: Option<&Bound<'_, PyAny>>,
    threads: Option<&Bound<'_, PyAny>>,
    hash_mb: Option<&Bound<'_, PyAny>>,
    params: Option<Vec<(String, i32)>>,
    search_params: Option<Vec<(String, i32)>>,
    eval_file: Option<String>,
    tablebases: Option<Bound<'_, PyTablebase>>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<Py<PyAny>>> {
    let limits = SearchLimits {
        params: search_settings(search_params)?,
        tablebases: tablebases.map(|t| Arc::clone(&t.get().set)),
        ..search_limits(depth, nodes, mate)?
    };
    let ms = opt_int_arg(ms, "ms", 1, u64::MAX)?;
    if limits.depth.is_none() && limits.nodes.is_none() && ms.is_none() && limits.mate.is_none() {
        return Err(PyValueError::new_err("analyse_many needs a depth, nodes, time or mate limit"));
    }
    let workers = opt_int_arg(threads, "threads", 1, MAX_THREADS)?.unwrap_or_else(default_threads);
    // Every worker allocates its own table: all of them must fit.
    let workers = workers.min(items.len().max(1) as u64);
    let hash_mb = match hash_mb {
        Some(v) if !v.is_none() => check_hash(v, "hash_mb", workers)?,
        _ => BATCH_HASH_MB as usize,
    };
    let eval = eval_params(params)?;
    let net = match eval_file {
        Some(path) => Some(crate::search::load_network(py, &path)?),
        None => None,
    };
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
    let movetime = ms.map(Duration::from_millis);
    let stop = AtomicBool::new(false);
    let mut last_done = usize::MAX;
    let results = interrupt::run(
        py,
        &stop,
        |outbox| {
            let mut last_call: Option<Instant> = None;
            search_many(
                &positions,
                &limits,
                movetime,
                &eval,
                net.as_ref(),
                workers as usize,
                hash_mb,
                |BatchProgress { done, total }| {
                    let due =
                        last_call.is_none_or(|t| t.elapsed() >= Duration::from_millis(BATCH_PROGRESS_MS));
                    if due || done == total {
                        last_call = Some(Instant::now());
                        outbox.send((done, total));
                    }
                    !stop.load(Ordering::Relaxed)
                },
            )
        },
        |py, (done, total)| match &progress {
            Some(callback) if done != last_done => {
                last_done = done;
                callback.call1(py, (done, total)).map(drop)
            }
            _ => Ok(()),
        },
    )?
    .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    for (slot, result) in slots.into_iter().zip(results) {
        let result = result.expect("an uninterrupted batch searches every position");
        let chess960 = items[slot].2;
        entries[slot] = Some(Py::new(py, PySearchOutcome::from_core(&result, chess960))?.into_any());
    }
    Ok(entries.into_iter().map(|e| e.expect("every item has an entry")).collect())
}
