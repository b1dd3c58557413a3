//! The vocabulary of the board: squares, files, ranks, colours, pieces, sets of squares, moves and
//! castling rights. One type per file; every enum has `NUM`, `ALL`, `index` and `try_index`.

mod bitboard;
mod castling;
mod color;
mod file;
mod macros;
mod moves;
mod piece;
mod piece_type;
mod rank;
mod square;

pub use bitboard::Bitboard;
pub use castling::{CastlingRights, CastlingSide};
pub use color::Color;
pub use file::File;
pub use moves::{Move, MoveKind};
pub use piece::Piece;
pub use piece_type::PieceType;
pub use rank::Rank;
pub use square::Square;
