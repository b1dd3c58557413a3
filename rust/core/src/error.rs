//! Errors: every message names the field or rule and quotes the input ([`quote`], the one quoting rule,
//! which the small games' crates and the bindings use too).
//!
//! FEN problems come in two kinds, kept apart as shakmaty does: [`FenError::Syntax`] (the text does not
//! parse) and [`FenError::Invalid`] (it parses, but describes a position that cannot occur, see
//! [`PositionError`]). Moves: [`MoveError::Invalid`] (not UCI syntax) and [`MoveError::Illegal`].
//! Memory: [`AllocError`] (a table the allocator refused), never an abort.
//!
//! This is the ground floor: it imports nothing but the vocabulary types. Each subsystem owns the errors
//! of its files and settings: [`crate::data::DataError`], [`crate::nnue::NetError`],
//! [`crate::tablebase::TablebaseError`] (all three re-exported at the crate root), and
//! [`crate::perft::SuiteLineError`].

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

/// The plumbing that the subsystems' file errors ([`crate::data::DataError`], [`crate::nnue::NetError`],
/// [`crate::tablebase::TablebaseError`]) share: `std::error::Error` whose source is the system's error of
/// an `Io { error, .. }` variant or the refused allocation of an `Alloc(AllocError)` variant, and
/// `From<AllocError>`. The type must have both variants.
macro_rules! io_alloc_error {
    ($error:ident) => {
        impl std::error::Error for $error {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                match self {
                    $error::Io { error, .. } => Some(error),
                    $error::Alloc(e) => Some(e),
                    _ => None,
                }
            }
        }

        impl From<$crate::error::AllocError> for $error {
            fn from(e: $crate::error::AllocError) -> $error {
                $error::Alloc(e)
            }
        }
    };
}
pub(crate) use io_alloc_error;
