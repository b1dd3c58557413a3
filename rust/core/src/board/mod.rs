//! The position: state, make/unmake, FEN, Zobrist keys, validation.

mod check;
mod fen;
mod position;
mod see;
mod validate;
pub mod zobrist;

pub use check::CheckSquares;
pub use fen::{write_placement, STARTING_FEN};
pub use position::Position;
pub(crate) use position::{castling_destinations, BoardState, CheckWatch};
pub use see::SEE_VALUES;
