//! `Color`: the two sides.

use crate::simple_enum;

simple_enum! {
    /// A side: White moves first. python-chess writes it as a bool (`WHITE = True`); we index White as 0.
    pub enum Color { White, Black }
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The FEN letter of the side to move: `w` or `b`.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl core::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}
