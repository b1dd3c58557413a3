//! The vocabulary of the board: squares, files, ranks, colours, pieces, sets of squares, moves and
//! castling rights, and search scores. One type per file; every enum has `NUM`, `ALL`, `index` and `try_index`.

mod bitboard;
mod castling;
mod color;
mod file;
mod macros;
mod moves;
mod piece;
mod piece_type;
mod rank;
mod score;
mod square;

pub use bitboard::Bitboard;
pub use castling::{CastlingRights, CastlingSide};
pub use color::Color;
pub use file::File;
pub use moves::{Move, MoveKind};
pub use piece::Piece;
pub use piece_type::PieceType;
pub use rank::Rank;
pub use score::{
    is_mate, mate_in, mated_in, Score, Value, MAX_PLY, VALUE_DRAW, VALUE_INFINITE, VALUE_MATE,
    VALUE_MATE_IN_MAX_PLY, VALUE_NONE,
};
pub use square::Square;
