//! [`TablebaseError`]: a tablebase that cannot be named, solved, read or written. Messages quote names and
//! files by the core's rule ([`quote`]).

use core::fmt;

use crate::error::{io_alloc_error, quote, AllocError};

/// A tablebase that cannot be named, solved, read or written ([`crate::tablebase`]).
#[derive(Debug)]
pub enum TablebaseError {
    /// A material name such as `KQvKR` that does not parse or is out of range.
    Material {
        /// The name as given.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// Solving needs the table of an ending a capture or a promotion leads to.
    MissingTable {
        /// That ending.
        material: String,
    },
    /// A distance to mate beyond what the format stores (it cannot happen with up to 5 pieces).
    TooDeep {
        /// The ending.
        material: String,
    },
    /// The solve was stopped before it finished.
    Stopped,
    /// The operating system refused `action` on `path`.
    Io {
        /// The file or folder.
        path: String,
        /// What was being done.
        action: &'static str,
        /// The system's error.
        error: std::io::Error,
    },
    /// A file that is not a camelpy table, of another version, or damaged.
    BadFile {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// The memory could not be allocated.
    Alloc(AllocError),
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseError::Material { name, reason } => {
                write!(f, "bad tablebase ending '{}': {reason} (e.g. 'KQvKR')", quote(name))
            }
            TablebaseError::MissingTable { material } => {
                write!(
                    f,
                    "this needs the {material} table, which is missing (generate it, or generate with its successors)"
                )
            }
            TablebaseError::TooDeep { material } => {
                write!(f, "{material}: a distance to mate too long for the table format")
            }
            TablebaseError::Stopped => f.write_str("tablebase generation stopped"),
            TablebaseError::Io { path, action, error } => {
                write!(f, "cannot {action} '{}': {error}", quote(path))
            }
            TablebaseError::BadFile { path, reason } => {
                write!(f, "'{}' is not a usable camelpy tablebase file: {reason}", quote(path))
            }
            TablebaseError::Alloc(e) => e.fmt(f),
        }
    }
}

io_alloc_error!(TablebaseError);
