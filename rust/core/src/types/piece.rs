//! `Piece`: a coloured piece, as it stands on a square.

use super::{color::Color, piece_type::PieceType};
use crate::simple_enum;

simple_enum! {
    /// A piece of a given colour: `index = 6 * color + piece_type`.
    pub enum Piece {
        WhitePawn, WhiteKnight, WhiteBishop, WhiteRook, WhiteQueen, WhiteKing,
        BlackPawn, BlackKnight, BlackBishop, BlackRook, BlackQueen, BlackKing,
    }
}

impl Piece {
    /// The piece of `color` and kind `piece_type`.
    #[inline(always)]
    pub const fn new(color: Color, piece_type: PieceType) -> Piece {
        Piece::ALL[color as usize * 6 + piece_type as usize]
    }

    /// The piece's colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The piece's kind.
    #[inline(always)]
    pub const fn piece_type(self) -> PieceType {
        // A table, not `% 6`: this is on the make/unmake path.
        const TYPES: [PieceType; 12] = {
            let mut t = [PieceType::Pawn; 12];
            let mut i = 0;
            while i < 12 {
                t[i] = PieceType::ALL[i % 6];
                i += 1;
            }
            t
        };
        TYPES[self as usize]
    }

    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn to_char(self) -> char {
        let c = self.piece_type().to_char();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Parses a FEN piece letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        match PieceType::from_char(c.to_ascii_lowercase()) {
            Some(pt) => Some(Piece::new(color, pt)),
            None => None,
        }
    }
}
