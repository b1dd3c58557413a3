//! `Rank`: a row of the board, 1 to 8.

use super::color::Color;
use crate::simple_enum;

simple_enum! {
    /// A row of the board, from the first rank (White's back rank) to the eighth.
    pub enum Rank { First, Second, Third, Fourth, Fifth, Sixth, Seventh, Eighth }
}

impl Rank {
    /// The digit, `1` to `8`.
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Parses `1`..`8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::ALL[(c as u8 - b'1') as usize]),
            _ => None,
        }
    }

    /// This rank seen from `color`'s side: `Rank::First.relative_to(Black)` is the eighth rank.
    #[inline(always)]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::ALL[7 - self as usize],
        }
    }
}
