#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod attacks;
pub mod baselines;
pub mod bitboard;
pub mod board;
pub mod error;
pub mod eval;
pub mod perft;
pub mod search;
pub mod selfplay;
pub mod text;
pub mod types;
mod zobrist;

pub use crate::{
    bitboard::Bitboard,
    board::{Board, MoveList, Outcome, Termination, MAX_MOVES, MAX_PLIES},
    error::{IllegalMoveError, ParseBoardError, ParseMoveError},
    text::{MAX_PLY, START_TEXT},
    types::{Color, Move, Piece, PieceType, Square, COLS, NUM_SQUARES, ROWS},
};
