//! `perft` and `divide` with the GIL released (the Python wrappers in `camelpy/__init__.py` accept a
//! `chess.Board` and turn the divide list into a dict).
//!
//! Deep runs stay interruptible the one way every long call is (`interrupt`): Ctrl-C sets the core's
//! stop flag and the `KeyboardInterrupt` is raised once the count has unwound.

use std::sync::atomic::AtomicBool;

use camelpy_core::{perft as core_perft, Position};
use pyo3::prelude::*;

use crate::{
    args::{int_arg, MAX_PERFT_DEPTH},
    convert::to_chess_move,
    errors::fen_error,
    interrupt,
};

/// Depths every game's perft counts directly, in milliseconds: no worker thread, no signal polling.
pub const DIRECT_DEPTH: u32 = 4;

/// A perft count of *state* *depth* plies deep, the one way every game runs it: up to [`DIRECT_DEPTH`]
/// directly with the GIL released (after checking *stop*'s type), deeper through [`interrupt::count`]
/// so that Ctrl-C or *stop* ends it.
pub fn count_leaves<S: Send, T: Send>(
    py: Python<'_>,
    mut state: S,
    depth: u32,
    stop: Option<&Bound<'_, PyAny>>,
    direct: impl FnOnce(&mut S, u32) -> T + Send,
    interruptible: impl FnOnce(&mut S, u32, &AtomicBool) -> Option<T> + Send,
) -> PyResult<T> {
    if depth <= DIRECT_DEPTH {
        interrupt::until_arg(stop)?;
        return Ok(py.detach(|| direct(&mut state, depth)));
    }
    interrupt::count(py, stop, |flag| interruptible(&mut state, depth, flag))
}

/// Leaf count of the legal move tree *depth* plies below *fen* (bulk counted); *stop* (a
/// ``threading.Event``) set from another thread ends a deep count within ~50 ms.
#[pyfunction]
#[pyo3(signature = (fen, depth, chess960 = false, *, stop = None))]
pub fn perft(
    py: Python<'_>,
    fen: &str,
    depth: &Bound<'_, PyAny>,
    chess960: bool,
    stop: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let depth = int_arg(depth, "depth", 0, MAX_PERFT_DEPTH)? as u32;
    let pos = Position::from_fen(fen, chess960).map_err(fen_error)?;
    count_leaves(py, pos, depth, stop, core_perft::perft, core_perft::perft_interruptible)
}

/// Perft split by root move: a list of ``(chess.Move, leaves)``; *stop* as for [`perft`].
#[pyfunction]
#[pyo3(signature = (fen, depth, chess960 = false, *, stop = None))]
pub fn divide(
    py: Python<'_>,
    fen: &str,
    depth: &Bound<'_, PyAny>,
    chess960: bool,
    stop: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<(Py<PyAny>, u64)>> {
    let depth = int_arg(depth, "depth", 0, MAX_PERFT_DEPTH)? as u32;
    let pos = Position::from_fen(fen, chess960).map_err(fen_error)?;
    let lines = count_leaves(py, pos, depth, stop, core_perft::divide, core_perft::divide_interruptible)?;
    lines.into_iter().map(|(mv, n)| Ok((to_chess_move(py, mv, chess960)?, n))).collect()
}
