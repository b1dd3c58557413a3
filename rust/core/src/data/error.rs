//! [`DataError`]: a data file that cannot be read, written or resumed, or generation settings that cannot
//! be used. Messages quote the file's name by the core's rule ([`quote`]).

use core::fmt;

use crate::error::{io_alloc_error, quote, AllocError};

/// A data file of [`crate::data`] (the format `camelpy datagen` writes) that cannot be read, written
/// or resumed, or generation settings that cannot be used. Messages name the file and what differs.
#[derive(Debug)]
pub enum DataError {
    /// The operating system refused `action` (e.g. "open", "write") on `path`.
    Io {
        /// The file.
        path: String,
        /// What was being done.
        action: &'static str,
        /// The system's error.
        error: std::io::Error,
    },
    /// The file does not start with the magic bytes `CAMELPYD`.
    NotDataFile {
        /// The file.
        path: String,
    },
    /// The file is shorter than its 32-byte header.
    TruncatedHeader {
        /// The file.
        path: String,
        /// Its length in bytes.
        len: u64,
    },
    /// A format version this build cannot read.
    Version {
        /// The file.
        path: String,
        /// The version in the header.
        found: u16,
    },
    /// A header that declares another record size than 32 bytes, or a non-zero reserved field.
    BadHeader {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A record whose bytes do not decode.
    BadRecord {
        /// The file.
        path: String,
        /// The record's index (from 0).
        index: u64,
        /// What is wrong.
        reason: String,
    },
    /// The file ends inside a record.
    PartialRecord {
        /// The file.
        path: String,
        /// Bytes of the incomplete record.
        bytes: u64,
    },
    /// Resuming a file that was generated with another seed.
    SeedMismatch {
        /// The file.
        path: String,
        /// The seed in its header.
        file: u64,
        /// The seed given now.
        given: u64,
    },
    /// Resuming a file that was generated with other settings.
    SettingsMismatch {
        /// The file.
        path: String,
        /// The settings digest in its header.
        file: u64,
        /// The digest of the settings given now.
        given: u64,
    },
    /// Packed records given to append ([`crate::data::RecordWriter::write_packed`]) that are not whole
    /// games: a length that is not a multiple of 32 bytes, a record that does not decode, or records
    /// after the last one flagged as its game's last.
    BadGames {
        /// The file they were to be appended to.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A generation setting out of range, or settings that contradict each other.
    Settings(String),
    /// An opening that cannot start a game.
    Opening {
        /// Its index in the list (from 0).
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// A worker's table could not be allocated.
    Alloc(AllocError),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io { path, action, error } => write!(f, "cannot {action} '{}': {error}", quote(path)),
            DataError::NotDataFile { path } => {
                write!(f, "'{}' is not a camelpy data file (it does not start with CAMELPYD)", quote(path))
            }
            DataError::TruncatedHeader { path, len } => {
                write!(f, "'{}' is not a camelpy data file: {len} bytes, shorter than the 32-byte header", quote(path))
            }
            DataError::Version { path, found } => write!(
                f,
                "'{}' has data format version {found}; this camelpy reads version {}",
                quote(path),
                super::FORMAT_VERSION
            ),
            DataError::BadHeader { path, reason } => write!(f, "bad header in '{}': {reason}", quote(path)),
            DataError::BadRecord { path, index, reason } => {
                write!(f, "bad record {index} in '{}': {reason}", quote(path))
            }
            DataError::PartialRecord { path, bytes } => {
                write!(f, "'{}' ends inside a record ({bytes} of its 32 bytes)", quote(path))
            }
            DataError::SeedMismatch { path, file, given } => write!(
                f,
                "'{}' was generated with seed {file}, not {given}: resume it with --seed {file} or write a new file",
                quote(path)
            ),
            DataError::SettingsMismatch { path, file, given } => write!(
                f,
                "'{}' was generated with other settings (settings digest {file:#018x}, these settings give \
                 {given:#018x}): nodes, depth, random plies, openings, hash size or adjudication differ",
                quote(path)
            ),
            DataError::BadGames { path, reason } => {
                write!(f, "games to append to '{}' are not whole games: {reason}", quote(path))
            }
            DataError::Settings(why) => f.write_str(why),
            DataError::Opening { index, reason } => write!(f, "opening {index}: {reason}"),
            DataError::Alloc(e) => e.fmt(f),
        }
    }
}

io_alloc_error!(DataError);
