#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod board;
pub mod error;
pub mod eval;
pub mod moves;
pub mod perft;
pub mod position;
pub mod search;
pub mod selfplay;
pub mod types;
mod zobrist;

pub use board::{Board, Preview, Rules, Shot, ShotEnd, TurnReport, STARTING_FEN};
pub use error::{IllegalMoveError, MoveError, ParseFenError, ParseMoveError};
pub use moves::{Action, Move};
pub use position::{Outcome, Position, Termination};
pub use types::{Color, Dir, Kind, Orientation, Piece, Square};
