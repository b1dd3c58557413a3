//! `perft` and `divide` with the GIL released (the Python wrappers in `camelpy/__init__.py` accept a
//! `chess.Board` and turn the divide list into a dict).

use camelpy_core::{perft as core_perft, Position};
use pyo3::{exceptions::PyValueError, prelude::*};

use crate::{convert::to_chess_move, errors::fen_error};

/// Deepest perft accepted; depth 15 from the start position is about 2e21 leaves, far beyond any run.
const MAX_DEPTH: u32 = 15;

fn check_depth(depth: i64) -> PyResult<u32> {
    if !(0..=MAX_DEPTH as i64).contains(&depth) {
        return Err(PyValueError::new_err(format!(
            "perft depth must be between 0 and {MAX_DEPTH}, got {depth}"
        )));
    }
    Ok(depth as u32)
}

/// Leaf count of the legal move tree *depth* plies below *fen* (bulk counted).
#[pyfunction]
#[pyo3(signature = (fen, depth, chess960 = false))]
pub fn perft(py: Python<'_>, fen: &str, depth: i64, chess960: bool) -> PyResult<u64> {
    let depth = check_depth(depth)?;
    let mut pos = Position::from_fen(fen, chess960).map_err(fen_error)?;
    Ok(py.detach(|| core_perft::perft(&mut pos, depth)))
}

/// Perft split by root move: a list of ``(chess.Move, leaves)``.
#[pyfunction]
#[pyo3(signature = (fen, depth, chess960 = false))]
pub fn divide(py: Python<'_>, fen: &str, depth: i64, chess960: bool) -> PyResult<Vec<(Py<PyAny>, u64)>> {
    let depth = check_depth(depth)?;
    let mut pos = Position::from_fen(fen, chess960).map_err(fen_error)?;
    let lines = py.detach(|| core_perft::divide(&mut pos, depth));
    lines.into_iter().map(|(mv, n)| Ok((to_chess_move(py, mv, chess960)?, n))).collect()
}
