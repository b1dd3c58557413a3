//! Core errors → the Python exceptions of `camelpy.errors` (ValueError subclasses defined in Python,
//! where `IllegalMoveError` can also subclass `chess.IllegalMoveError`).

use camelpy_core::{DataError, FenError, MoveError, NetError};
use pyo3::{
    exceptions::{PyIsADirectoryError, PyMemoryError, PyOSError, PyValueError},
    import_exception, PyErr,
};

import_exception!(camelpy.errors, InvalidFenError);
import_exception!(camelpy.errors, InvalidMoveError);
import_exception!(camelpy.errors, IllegalMoveError);
// A MiniChess board text that cannot be read (`camelpy.minichess`).
import_exception!(camelpy.errors, InvalidStateError);

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

import_exception!(camelpy.errors, DataFileError);

/// A data-file or generation problem as a Python exception: the system's refusals as `OSError` (its
/// subclass for the error number, e.g. `FileNotFoundError`, with the file name), a table the system
/// refused as `MemoryError`, a file that is not a data file, is damaged or does not match a resume as
/// `camelpy.errors.DataFileError`, bad settings or openings as `ValueError`.
pub fn data_error(e: DataError) -> PyErr {
    let message = e.to_string();
    match e {
        DataError::Io { path, error, .. } => os_error(path, error, message),
        DataError::Alloc(_) => PyMemoryError::new_err(message),
        DataError::Settings(_) | DataError::Opening { .. } => PyValueError::new_err(message),
        _ => DataFileError::new_err(message),
    }
}

import_exception!(camelpy.errors, NetworkFileError);

/// The system's refusal to open `path` as Python's `OSError` subclass for its error number, in the
/// system's own words as Python's `open` would give them; `message` where there is no error number (a
/// directory as `IsADirectoryError`).
pub fn os_error(path: String, error: std::io::Error, message: String) -> PyErr {
    match error.raw_os_error() {
        Some(errno) => {
            let text = error.to_string();
            let words = text.split(" (os error").next().unwrap_or(&text).to_string();
            PyOSError::new_err((errno, words, path))
        }
        None if error.kind() == std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(message),
        None => PyOSError::new_err(message),
    }
}

/// A network-file problem: the system's refusals as `OSError`, weights the system could not allocate as
/// `MemoryError`, a file that is not a network, is damaged or does not fit as
/// `camelpy.errors.NetworkFileError` (a `ValueError`).
pub fn net_error(e: NetError) -> PyErr {
    let message = e.to_string();
    match e {
        NetError::Io { path, error } => os_error(path, error, message),
        NetError::Alloc(_) => PyMemoryError::new_err(message),
        _ => NetworkFileError::new_err(message),
    }
}
