//! [`NetError`]: a network file that cannot be used. Messages quote the file's name by the core's rule
//! ([`quote`]).

use core::fmt;

use crate::error::{io_alloc_error, quote, AllocError};

/// A network file of [`crate::nnue`] that cannot be used. Messages name the file and what is wrong;
/// whoever loads a network keeps the evaluation it had when this is returned.
#[derive(Debug)]
pub enum NetError {
    /// The operating system refused to read `path`.
    Io {
        /// The file.
        path: String,
        /// The system's error.
        error: std::io::Error,
    },
    /// The file does not start with the magic bytes `CAMELNET` (or is shorter than the header).
    NotNetFile {
        /// The file.
        path: String,
    },
    /// A format version this build cannot read.
    Version {
        /// The file.
        path: String,
        /// The version in the header.
        found: u16,
    },
    /// A network of a shape this build does not have (inputs, hidden width, buckets, activation or
    /// quantisation).
    Architecture {
        /// The file.
        path: String,
        /// What differs.
        reason: String,
    },
    /// The file's length or checksum does not match its header, or a weight is out of range.
    Corrupt {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// The weights could not be allocated.
    Alloc(AllocError),
}

impl NetError {
    /// The same error naming `path` as the file.
    pub fn with_path(self, path: &str) -> NetError {
        let path = path.to_owned();
        match self {
            NetError::Io { error, .. } => NetError::Io { path, error },
            NetError::NotNetFile { .. } => NetError::NotNetFile { path },
            NetError::Version { found, .. } => NetError::Version { path, found },
            NetError::Architecture { reason, .. } => NetError::Architecture { path, reason },
            NetError::Corrupt { reason, .. } => NetError::Corrupt { path, reason },
            NetError::Alloc(e) => NetError::Alloc(e),
        }
    }
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io { path, error } => write!(f, "cannot read network file '{}': {error}", quote(path)),
            NetError::NotNetFile { path } => write!(
                f,
                "'{}' is not a camelpy network file (it does not start with CAMELNET and a 48-byte header)",
                quote(path)
            ),
            NetError::Version { path, found } => write!(
                f,
                "'{}' has network format version {found}; this camelpy reads versions {} and {}",
                quote(path),
                super::file::NET_VERSION_1,
                super::NET_VERSION
            ),
            NetError::Architecture { path, reason } => {
                write!(f, "network file '{}' does not fit this camelpy: {reason}", quote(path))
            }
            NetError::Corrupt { path, reason } => {
                write!(f, "network file '{}' is damaged: {reason}", quote(path))
            }
            NetError::Alloc(e) => e.fmt(f),
        }
    }
}

io_alloc_error!(NetError);
