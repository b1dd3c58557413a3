//! Training data: self-play generation ([`datagen`]), the compact binary format it writes ([`format`]),
//! its reader, writer and text export, and the filters a tuner applies ([`filter`]).
//!
//! # The file format (version 1)
//! A file is a 32-byte header followed by 32-byte records, all little endian. Data files are never
//! committed to the repository: they are regenerated from their seed and the command that made them.
//!
//! ```text
//! header (32 bytes)
//! offset size  field
//!      0    8  magic b"CAMELPYD"
//!      8    2  format version, u16 (= 1)
//!     10    2  record size, u16 (= 32)
//!     12    4  reserved, u32 (= 0)
//!     16    8  the generation seed, u64
//!     24    8  digest of the generation settings, u64 (a resume with other settings is refused)
//!
//! record (32 bytes), one position
//! offset size  field
//!      0    8  occupancy, u64: bit i set when square i (a1 = 0, b1 = 1, …, h8 = 63) holds a piece
//!      8   16  piece codes, 4 bits each, for the occupied squares in ascending square order: the
//!              k-th piece is in byte 8 + k / 2, low nibble for even k, high nibble for odd k;
//!              White pawn, knight, bishop, rook, queen, king = 0..5, Black's = 8..13; unused
//!              nibbles are 0
//!     24    1  castling and en passant: bits 0-3 = White O-O, White O-O-O, Black O-O, Black O-O-O;
//!              bits 4-6 = the en-passant file (a = 0); bit 7 = an en-passant capture is legal
//!              (only then is there an en-passant square, as in the FEN camelpy writes)
//!     25    1  flags: bit 0 = Black to move; bits 1-2 = the game's result from White's view
//!              (0 Black won, 1 draw, 2 White won); bit 3 = the last position of its game; bit 4 =
//!              the side to move is in check; bit 5 = the best move is a capture (en passant
//!              included) or a promotion; bits 6-7 = 0
//!     26    2  clocks, u16: bits 0-6 = halfmove clock (saturating at 127), bits 7-15 = fullmove
//!              number (saturating at 511)
//!     28    2  score, i16, from the side to move's view: centipawns clamped to ±30000, or a mate
//!              found n plies from this position as +(32000 − n) (the side to move mates) or
//!              −(32000 − n) (it is mated); so |score| > 30000 means a mate
//!     30    2  best move, u16, in the core's `Move` encoding: bits 0-5 from square, 6-11 to
//!              square, 12-13 promotion piece (knight, bishop, rook, queen), 14-15 kind (0
//!              normal, 1 promotion, 2 en passant, 3 castling); castling is written as the king
//!              taking its own rook (`e1h1` for White's O-O)
//! ```
//!
//! Games are written whole and in order of their index, each game's positions in the order they were
//! played, the last one flagged: so the file's games are `0..n` and a trailing partial game (a write
//! cut short) is recognised and dropped on resume. Standard chess only (Chess960 castling rights do not
//! fit the castling bits).

pub mod datagen;
mod error;
pub mod filter;
pub mod format;

/// SplitMix64 at its old path: it lives in [`crate::hash::splitmix`].
pub use crate::hash::splitmix as rng;
pub use crate::hash::SplitMix64;
pub use datagen::{datagen, Datagen, DatagenProgress, DatagenSettings, DatagenSummary, Game, GameEnd};
pub use error::DataError;
pub use filter::{Filter, RecordFilter};
pub use format::{
    data_info, export_text, DataInfo, GameResult, Header, Record, RecordError, RecordReader, RecordWriter,
    FORMAT_VERSION, HEADER_SIZE, MAGIC, RECORD_SIZE,
};
