//! `perft` and `divide` with the GIL released (the Python wrappers in `camelpy/__init__.py` accept a
//! `chess.Board` and turn the divide list into a dict).
//!
//! Deep runs stay interruptible: the count runs on a worker thread while the calling thread waits with
//! the GIL released, re-attaching every `SIGNAL_POLL` only to call `check_signals()`; Ctrl-C sets the
//! core's stop flag and the `KeyboardInterrupt` is raised once the worker has unwound.

use std::{
    sync::{atomic::AtomicBool, mpsc},
    thread,
    time::Duration,
};

use camelpy_core::{perft as core_perft, Position};
use pyo3::{exceptions::PyValueError, prelude::*};

use crate::{convert::to_chess_move, errors::fen_error};

/// Deepest perft accepted; depth 15 from the start position is about 2e21 leaves, far beyond any run.
const MAX_DEPTH: u32 = 15;
/// Runs this shallow finish in milliseconds: no worker thread, no signal polling.
const DIRECT_DEPTH: u32 = 4;
/// How often a waiting call looks for Ctrl-C: fast enough to feel immediate.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

fn check_depth(depth: i64) -> PyResult<u32> {
    if !(0..=MAX_DEPTH as i64).contains(&depth) {
        return Err(PyValueError::new_err(format!(
            "perft depth must be between 0 and {MAX_DEPTH}, got {depth}"
        )));
    }
    Ok(depth as u32)
}

/// Runs `work` with the GIL released on a worker thread, polling for Python signals meanwhile.
fn interruptible<T: Send>(py: Python<'_>, work: impl FnOnce(&AtomicBool) -> Option<T> + Send) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    py.detach(|| {
        thread::scope(|scope| {
            let (done, finished) = mpsc::channel();
            let stop = &stop;
            scope.spawn(move || {
                let _ = done.send(work(stop));
            });
            let mut interrupt = None;
            loop {
                match finished.recv_timeout(SIGNAL_POLL) {
                    Ok(Some(result)) => return Ok(result),
                    Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                        return Err(interrupt.unwrap_or_else(|| PyValueError::new_err("perft was stopped")))
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if interrupt.is_none() {
                            if let Err(e) = Python::attach(|py| py.check_signals()) {
                                interrupt = Some(e);
                                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                            }
                        }
                    }
                }
            }
        })
    })
}

/// Leaf count of the legal move tree *depth* plies below *fen* (bulk counted).
#[pyfunction]
#[pyo3(signature = (fen, depth, chess960 = false))]
pub fn perft(py: Python<'_>, fen: &str, depth: i64, chess960: bool) -> PyResult<u64> {
    let depth = check_depth(depth)?;
    let mut pos = Position::from_fen(fen, chess960).map_err(fen_error)?;
    if depth <= DIRECT_DEPTH {
        return Ok(py.detach(|| core_perft::perft(&mut pos, depth)));
    }
    interruptible(py, |stop| core_perft::perft_interruptible(&mut pos, depth, stop))
}

/// Perft split by root move: a list of ``(chess.Move, leaves)``.
#[pyfunction]
#[pyo3(signature = (fen, depth, chess960 = false))]
pub fn divide(py: Python<'_>, fen: &str, depth: i64, chess960: bool) -> PyResult<Vec<(Py<PyAny>, u64)>> {
    let depth = check_depth(depth)?;
    let mut pos = Position::from_fen(fen, chess960).map_err(fen_error)?;
    let lines = if depth <= DIRECT_DEPTH {
        py.detach(|| core_perft::divide(&mut pos, depth))
    } else {
        interruptible(py, |stop| core_perft::divide_interruptible(&mut pos, depth, stop))?
    };
    lines.into_iter().map(|(mv, n)| Ok((to_chess_move(py, mv, chess960)?, n))).collect()
}
