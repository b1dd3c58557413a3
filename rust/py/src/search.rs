//! `camelpy._core.Engine`: the core search behind a small native class. Inputs are converted (FEN,
//! UCI moves, limits), the search runs with the GIL released, and each iteration's report is handed to
//! an optional Python callback; the `camelpy.Engine` wrapper turns results into python-chess objects.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Mutex,
    },
    time::{Duration, Instant},
};

use camelpy_core::{
    eval::{evaluate, trace, EvalParams},
    search::{info::IterationInfo, limits::SearchLimits, search, SearchState},
    tt::TranspositionTable,
    Position, Score,
};
use pyo3::{exceptions::PyValueError, prelude::*, types::PyDict};

use crate::errors::{fen_error, move_error};

/// Largest hash accepted (MiB): far beyond any machine here, small enough never to overflow.
const MAX_HASH_MB: usize = 1 << 20;

struct Core {
    tt: TranspositionTable,
    state: SearchState,
    eval: EvalParams,
}

/// The native engine: a transposition table and search state reused across searches.
#[pyclass(module = "camelpy._core", name = "Engine", frozen)]
pub struct PyEngine {
    core: Mutex<Core>,
    stop: AtomicBool,
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
    match info.score {
        Score::Cp(cp) => d.set_item("score", ("cp", cp))?,
        Score::Mate(m) => d.set_item("score", ("mate", m))?,
    }
    d.set_item("nodes", info.nodes)?;
    d.set_item("time_ms", info.time_ms)?;
    d.set_item("hashfull", info.hashfull)?;
    d.set_item("pv", info.pv.iter().map(|m| m.to_uci(chess960)).collect::<Vec<_>>())?;
    Ok(d)
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (hash_mb = 16))]
    fn new(hash_mb: usize) -> PyResult<PyEngine> {
        if !(1..=MAX_HASH_MB).contains(&hash_mb) {
            return Err(PyValueError::new_err(format!(
                "hash_mb must be between 1 and {MAX_HASH_MB}, got {hash_mb}"
            )));
        }
        Ok(PyEngine {
            core: Mutex::new(Core {
                tt: TranspositionTable::new(hash_mb),
                state: SearchState::new(),
                eval: EvalParams::DEFAULT,
            }),
            stop: AtomicBool::new(false),
        })
    }

    /// Searches the position `fen` + `moves` (UCI); returns the last iteration's report as a dict with
    /// `best_move` and `ponder` added. `info` is called with each iteration's dict.
    #[pyo3(signature = (fen, moves, chess960, *, depth=None, nodes=None, movetime_ms=None, mate=None, searchmoves=Vec::new(), info=None))]
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
        mate: Option<i32>,
        searchmoves: Vec<String>,
        info: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let mut pos = position(fen, &moves, chess960)?;
        let searchmoves =
            searchmoves.iter().map(|u| pos.parse_uci(u).map_err(move_error)).collect::<PyResult<Vec<_>>>()?;
        if depth.is_some_and(|d| d < 1) || mate.is_some_and(|m| m < 1) {
            return Err(PyValueError::new_err("depth and mate must be at least 1"));
        }
        let deadline = movetime_ms.map(|ms| Instant::now() + Duration::from_millis(ms));
        let limits = SearchLimits {
            depth,
            nodes,
            soft_deadline: deadline,
            hard_deadline: deadline,
            mate,
            searchmoves,
        };
        self.stop.store(false, Ordering::Relaxed);
        let mut callback_error = None;
        let result = py.detach(|| {
            let mut guard = self.core.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let core = &mut *guard;
            search(&mut pos, &limits, &core.tt, &core.eval, &mut core.state, &self.stop, |it| {
                if let (Some(cb), None) = (&info, &callback_error) {
                    let outcome =
                        Python::attach(|py| info_dict(py, it, chess960).and_then(|d| cb.call1(py, (d,))));
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
        let d = info_dict(py, &result.info, chess960)?;
        d.set_item("best_move", result.best_move.map(|m| m.to_uci(chess960)))?;
        d.set_item("ponder", result.ponder.map(|m| m.to_uci(chess960)))?;
        Ok(d)
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
            core.state.clear();
        });
    }

    /// Empties the transposition table. Waits for a running search.
    fn clear_hash(&self, py: Python<'_>) {
        py.detach(|| self.core.lock().unwrap_or_else(|p| p.into_inner()).tt.clear());
    }

    /// The static evaluation (centipawns, side to move's view).
    fn evaluate(&self, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<i32> {
        let pos = position(fen, &moves, chess960)?;
        Ok(evaluate(&pos, &EvalParams::DEFAULT))
    }

    /// The evaluation's per-term table, for humans.
    fn eval_trace(&self, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<String> {
        let pos = position(fen, &moves, chess960)?;
        Ok(trace(&pos, &EvalParams::DEFAULT).to_string())
    }
}
