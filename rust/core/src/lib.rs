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
pub mod fnv;
pub mod fsio;
pub mod movegen;
pub mod nnue;
pub mod perft;
pub mod rules;
pub mod search;
pub mod tablebase;
pub mod threads;
pub mod tt;
pub mod types;

pub use board::{Position, STARTING_FEN};
pub use error::{
    AllocError, DataError, FenError, FenField, MoveError, NetError, PositionError, TablebaseError,
};
pub use movegen::{GenKind, MoveList};
pub use types::{
    Bitboard, CastlingRights, CastlingSide, Color, File, Move, MoveKind, Piece, PieceType, Rank, Score,
    Square, Value,
};
