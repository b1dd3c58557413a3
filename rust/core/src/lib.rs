#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![forbid(unsafe_op_in_unsafe_fn)]

pub mod attacks;
pub mod bench;
pub mod board;
pub mod data;
pub mod error;
pub mod eval;
pub mod fsio;
pub mod hash;
pub mod movegen;
pub mod nnue;
pub mod perft;
pub mod rules;
pub mod search;
pub mod tablebase;
pub mod threads;
pub mod tt;
pub mod types;

pub use board::{CheckSquares, Position, STARTING_FEN};
pub use data::DataError;
pub use error::{AllocError, FenError, FenField, MoveError, PositionError};
/// FNV-1a at its old path: it lives in [`hash::fnv`].
pub use hash::fnv;
pub use movegen::{GenKind, MoveList};
pub use nnue::NetError;
pub use tablebase::TablebaseError;
pub use types::{
    Bitboard, CastlingRights, CastlingSide, Color, File, Move, MoveKind, Piece, PieceType, Rank, Score,
    Square, Value,
};
