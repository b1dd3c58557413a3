//! The trainer's errors: each names the file or setting and what is wrong.

use core::fmt;
use std::path::Path;

use camelpy_core::{
    data::DataError,
    error::{quote, AllocError},
    nnue::NetError,
};

/// Why a training run cannot start or continue.
#[derive(Debug)]
pub enum TrainError {
    /// A data file that cannot be read (see [`DataError`]).
    Data(DataError),
    /// The operating system refused `action` on `path`.
    Io {
        /// The file or folder.
        path: String,
        /// What was being done.
        action: &'static str,
        /// The system's error.
        error: std::io::Error,
    },
    /// A checkpoint that cannot be resumed.
    Checkpoint {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A setting out of range.
    Settings(String),
    /// A network file problem (see [`NetError`]).
    Net(NetError),
    /// A buffer could not be allocated.
    Alloc(AllocError),
}

impl TrainError {
    pub(crate) fn io(path: &Path, action: &'static str, error: std::io::Error) -> TrainError {
        TrainError::Io { path: path.display().to_string(), action, error }
    }
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Data(e) => e.fmt(f),
            TrainError::Io { path, action, error } => write!(f, "cannot {action} '{}': {error}", quote(path)),
            TrainError::Checkpoint { path, reason } => {
                write!(f, "cannot resume from checkpoint '{}': {reason}", quote(path))
            }
            TrainError::Settings(why) => f.write_str(why),
            TrainError::Net(e) => e.fmt(f),
            TrainError::Alloc(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TrainError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TrainError::Data(e) => Some(e),
            TrainError::Io { error, .. } => Some(error),
            TrainError::Net(e) => Some(e),
            TrainError::Alloc(e) => Some(e),
            _ => None,
        }
    }
}

impl From<DataError> for TrainError {
    fn from(e: DataError) -> TrainError {
        TrainError::Data(e)
    }
}

impl From<NetError> for TrainError {
    fn from(e: NetError) -> TrainError {
        TrainError::Net(e)
    }
}

impl From<AllocError> for TrainError {
    fn from(e: AllocError) -> TrainError {
        TrainError::Alloc(e)
    }
}
