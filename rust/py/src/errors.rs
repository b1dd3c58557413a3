//! Core errors → the Python exceptions of `camelpy.errors` (ValueError subclasses defined in Python,
//! where `IllegalMoveError` can also subclass `chess.IllegalMoveError`).

use camelpy_core::{FenError, MoveError};
use pyo3::{import_exception, PyErr};

import_exception!(camelpy.errors, InvalidFenError);
import_exception!(camelpy.errors, InvalidMoveError);
import_exception!(camelpy.errors, IllegalMoveError);

/// A FEN problem as `camelpy.InvalidFenError` (message from the core: names the field, quotes the input).
pub fn fen_error(e: FenError) -> PyErr {
    InvalidFenError::new_err(e.to_string())
}

/// A move problem as `camelpy.InvalidMoveError` or `camelpy.IllegalMoveError`.
pub fn move_error(e: MoveError) -> PyErr {
    match e {
        MoveError::Invalid { .. } => InvalidMoveError::new_err(e.to_string()),
        MoveError::Illegal { .. } => IllegalMoveError::new_err(e.to_string()),
    }
}
