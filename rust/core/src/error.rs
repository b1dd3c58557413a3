//! Errors: every message names the field or rule and quotes the input.
//!
//! FEN problems come in two kinds, kept apart as shakmaty does: [`FenError::Syntax`] (the text does not
//! parse) and [`FenError::Invalid`] (it parses, but describes a position that cannot occur, see
//! [`PositionError`]). Moves: [`MoveError::Invalid`] (not UCI syntax) and [`MoveError::Illegal`].
//! Memory: [`AllocError`] (a table the allocator refused), never an abort. Data files and generation
//! settings: [`DataError`]. Network files: [`NetError`].

use core::fmt;

use crate::types::Color;

/// Longest input quoted in full in a message; longer input is cut with an ellipsis.
const MAX_QUOTED: usize = 120;

/// The input for quoting between single quotes: backslashes, quotes and control characters escaped,
/// cut with an ellipsis after [`MAX_QUOTED`] characters. The Python side quotes by the same rule
/// (`camelpy._quote.quote`, compared with this one by `tests/test_quote.py`): change both together.
pub fn quote(input: &str) -> String {
    let mut out = String::with_capacity(input.len().min(MAX_QUOTED + 8));
    for (i, c) in input.chars().enumerate() {
        if i == MAX_QUOTED {
            out.push('…');
            break;
        }
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            // Python's repr spelling, so messages match what a Python user typed.
            c if c.is_control() && (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The six fields of a FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FenField {
    /// The whole string (field count, empty input).
    Whole,
    /// Piece placement.
    Placement,
    /// Side to move.
    Turn,
    /// Castling rights.
    Castling,
    /// En-passant square.
    EnPassant,
    /// Half-move clock.
    Halfmove,
    /// Full-move number.
    Fullmove,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Whole => "fen",
            FenField::Placement => "position part",
            FenField::Turn => "turn part",
            FenField::Castling => "castling part",
            FenField::EnPassant => "en passant part",
            FenField::Halfmove => "half-move clock",
            FenField::Fullmove => "fullmove number",
        })
    }
}

/// Why a parsed position cannot occur.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// A side has no king.
    MissingKing(Color),
    /// A side has more than one king.
    TooManyKings(Color),
    /// A pawn on rank 1 or 8.
    PawnOnBackRank,
    /// More than 8 pawns of one side.
    TooManyPawns(Color),
    /// More than 16 pieces of one side.
    TooManyPieces(Color),
    /// The side not to move is in check.
    OppositeCheck,
    /// More than two pieces give check.
    TooManyCheckers,
    /// A check that no legal move could have given.
    ImpossibleCheck,
    /// A castling right that does not fit the placement (named).
    BadCastling(String),
    /// An en-passant square that no double push could have left (reason given).
    BadEnPassant(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: &Color| if *c == Color::White { "white" } else { "black" };
        match self {
            PositionError::MissingKing(c) => write!(f, "{} has no king", name(c)),
            PositionError::TooManyKings(c) => write!(f, "{} has more than one king", name(c)),
            PositionError::PawnOnBackRank => write!(f, "pawn on the first or eighth rank"),
            PositionError::TooManyPawns(c) => write!(f, "{} has more than 8 pawns", name(c)),
            PositionError::TooManyPieces(c) => write!(f, "{} has more than 16 pieces", name(c)),
            PositionError::OppositeCheck => write!(f, "the side not to move is in check"),
            PositionError::TooManyCheckers => write!(f, "more than two pieces give check"),
            PositionError::ImpossibleCheck => write!(f, "a check that no legal move could have given"),
            PositionError::BadCastling(why) => write!(f, "castling rights do not fit the placement: {why}"),
            PositionError::BadEnPassant(why) => write!(f, "impossible en passant square: {why}"),
        }
    }
}

/// A FEN that could not be turned into a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The text does not parse: `reason` says what was expected in `field`.
    Syntax {
        /// The field at fault.
        field: FenField,
        /// What is wrong, e.g. "expected 8 ranks".
        reason: String,
        /// The whole input.
        fen: String,
    },
    /// The text parses but the position is impossible.
    Invalid {
        /// The rule broken.
        error: PositionError,
        /// The whole input.
        fen: String,
    },
}

impl FenError {
    /// The input the error is about.
    pub fn fen(&self) -> &str {
        match self {
            FenError::Syntax { fen, .. } | FenError::Invalid { fen, .. } => fen,
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax { field: FenField::Whole, reason, fen } => {
                write!(f, "{reason} in fen: '{}'", quote(fen))
            }
            FenError::Syntax { field, reason, fen } => {
                write!(f, "{reason} in {field} of fen: '{}'", quote(fen))
            }
            FenError::Invalid { error, fen } => {
                write!(f, "invalid position ({error}) in fen: '{}'", quote(fen))
            }
        }
    }
}

impl std::error::Error for FenError {}

/// A move that could not be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// Not a UCI move at all (`e9e4`, `e2`, `e7e8k`).
    Invalid {
        /// The input.
        uci: String,
    },
    /// Well-formed, but not legal in the position.
    Illegal {
        /// The move in UCI notation.
        uci: String,
        /// The position's FEN.
        fen: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Invalid { uci } => write!(f, "invalid uci: '{}'", quote(uci)),
            MoveError::Illegal { uci, fen } => write!(f, "illegal uci: '{}' in {fen}", quote(uci)),
        }
    }
}

impl std::error::Error for MoveError {}

/// An allocation the system refused (a table too large for the memory available). Allocation in the
/// core is fallible wherever the size comes from the user, so this is an error value, never an abort.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocError {
    /// What was being allocated, e.g. "hash table".
    pub what: &'static str,
    /// The size asked for, in bytes.
    pub bytes: usize,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "could not allocate a {} of {} MiB ({} bytes)", self.what, self.bytes >> 20, self.bytes)
    }
}

impl std::error::Error for AllocError {}

/// A perft-suite line (`<FEN> ;D1 20 ;D2 400 …`) that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteLineError {
    /// What is wrong, e.g. "bad perft tag 'D1 x'".
    pub reason: String,
    /// The line's number (from 1) when it was read as part of a file by [`crate::perft::parse_suite`].
    pub line_number: Option<usize>,
    /// The whole line.
    pub line: String,
}

impl fmt::Display for SuiteLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line_number {
            Some(n) => write!(f, "{} at line {n}: '{}'", self.reason, quote(&self.line)),
            None => write!(f, "{} in perft suite line: '{}'", self.reason, quote(&self.line)),
        }
    }
}

impl std::error::Error for SuiteLineError {}

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
                crate::data::FORMAT_VERSION
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

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataError::Io { error, .. } => Some(error),
            DataError::Alloc(e) => Some(e),
            _ => None,
        }
    }
}

impl From<AllocError> for DataError {
    fn from(e: AllocError) -> DataError {
        DataError::Alloc(e)
    }
}

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
    /// A network of another shape (inputs, hidden width, activation or quantisation) than this build's.
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
                "'{}' has network format version {found}; this camelpy reads version {}",
                quote(path),
                crate::nnue::NET_VERSION
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

impl std::error::Error for NetError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NetError::Io { error, .. } => Some(error),
            NetError::Alloc(e) => Some(e),
            _ => None,
        }
    }
}

impl From<AllocError> for NetError {
    fn from(e: AllocError) -> NetError {
        NetError::Alloc(e)
    }
}

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

impl std::error::Error for TablebaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TablebaseError::Io { error, .. } => Some(error),
            TablebaseError::Alloc(e) => Some(e),
            _ => None,
        }
    }
}
