//! `PieceType`: the kind of a piece, without its colour.

use crate::simple_enum;

simple_enum! {
    /// The kind of a piece. python-chess numbers them PAWN = 1 .. KING = 6; ours are `index() + 1` of that.
    pub enum PieceType { Pawn, Knight, Bishop, Rook, Queen, King }
}

impl PieceType {
    /// The lower-case letter used in FEN and UCI promotions: `p n b r q k`.
    pub const fn to_char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// Parses a lower-case piece letter.
    pub const fn from_char(c: char) -> Option<PieceType> {
        Some(match c {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        })
    }
}
