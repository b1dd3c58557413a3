//! `perft` and `divide` with the GIL released (the Python wrappers in `camelpy/__init__.py` accept a
//! `chess.Board` and turn the divide list into a dict).
//!
//! Deep runs stay interruptible the one way every long call is (`interrupt`): Ctrl-C sets the core's
//! stop flag and the `KeyboardInterrupt` is raised once the count has unwound.

use camelpy_core::{perft as core_perft, Position};
use pyo3::prelude::*;

use crate::{
    args::{int_arg, MAX_PERFT_DEPTH},
    convert::to_chess_move,
    errors::fen_error,
    interrupt,
};

/// Runs this shallow finish in milliseconds: no worker thread, no signal polling.
const DIRECT_DEPTH: u32 = 4;

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
    let mut pos = Position::from_fen(fen, chess960).map_err(fen_error)?;
    if depth <= DIRECT_DEPTH {
        interrupt::until_arg(stop)?;
        return Ok(py.detach(|| core_perft::perft(&mut pos, depth)));
    }
    interrupt::count(py, stop, |flag| core_perft::perft_interruptible(&mut pos, depth, flag))
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
    let mut pos = Position::from_fen(fen, chess960).map_err(fen_error)?;
    let lines = if depth <= DIRECT_DEPTH {
        interrupt::until_arg(stop)?;
        py.detach(|| core_perft::divide(&mut pos, depth))
    } else {
        interrupt::count(py, stop, |flag| core_perft::divide_interruptible(&mut pos, depth, flag))?
    };
    lines.into_iter().map(|(mv, n)| Ok((to_chess_move(py, mv, chess960)?, n))).collect()
}
