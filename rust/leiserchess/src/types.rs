//! The vocabulary: [`Color`], [`Kind`], [`Orientation`], [`Piece`], [`Square`], [`Dir`].
//!
//! Squares are numbered `rank * 8 + file`, `a0` = 0 (Tangerine's left corner) to `h7` = 63.

use std::{fmt, num::NonZeroU8};

/// Squares on a side of the board.
pub const WIDTH: u8 = 8;
/// Squares on the board.
pub const NUM_SQUARES: usize = 64;

camelpy_games::two_sides! {
    /// A side.
    pub enum Color {
        /// Moves first; upper case in FEN; `W` as the side to move.
        Tangerine,
        /// Lower case in FEN; `B` as the side to move.
        Lavender,
    }
}

impl Color {
    /// The FEN letter of the side to move: `W` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Color::Tangerine => 'W',
            Color::Lavender => 'B',
        }
    }
}

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    /// Fires the laser at the end of its side's every turn; the side whose king is hit loses.
    King = 0,
    /// A triangle with a mirror on its long edge: reflects the beam, or is zapped when hit on its back.
    Pawn = 1,
}

/// One of the four orientations, clockwise from 0: a king's `NN`, `EE`, `SS`, `WW` (where its laser
/// fires), a pawn's `NW`, `NE`, `SE`, `SW` (the corner its mirror faces).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Orientation(u8);

impl Orientation {
    /// The orientation `index` (0–3) clockwise; `index` is taken modulo 4.
    #[inline]
    pub const fn new(index: u8) -> Orientation {
        Orientation(index & 3)
    }

    /// 0–3, clockwise.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Turned `quarters` quarter turns clockwise.
    #[inline]
    pub const fn rotated(self, quarters: u8) -> Orientation {
        Orientation::new(self.0 + quarters)
    }

    /// The direction a king with this orientation fires.
    #[inline]
    pub const fn king_dir(self) -> Dir {
        Dir::ALL[self.0 as usize]
    }
}

camelpy_core::simple_enum! {
    /// The four directions a beam travels (and a king faces), clockwise from north (`ALL`'s order).
    pub enum Dir {
        /// Towards rank 7.
        North,
        /// Towards file h.
        East,
        /// Towards rank 0.
        South,
        /// Towards file a.
        West,
    }
}

impl Dir {
    /// (file step, rank step).
    #[inline]
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Dir::North => (0, 1),
            Dir::East => (1, 0),
            Dir::South => (0, -1),
            Dir::West => (-1, 0),
        }
    }
}

/// The eight neighbours' (file, rank) steps, clockwise from north: a shift's directions (the 2018
/// swap's notation numbers them in this order too).
pub const NEIGHBOURS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// A piece: side, kind and orientation, in one non-zero byte (so `Option<Piece>` is one byte too).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(NonZeroU8);

const KING_CODES: [&str; 4] = ["NN", "EE", "SS", "WW"];
const PAWN_CODES: [&str; 4] = ["NW", "NE", "SE", "SW"];

impl Piece {
    /// The piece of `color` and `kind` facing `orientation`.
    #[inline]
    pub const fn new(color: Color, kind: Kind, orientation: Orientation) -> Piece {
        let code = 1 + ((color as u8) << 3 | (kind as u8) << 2 | orientation.0);
        match NonZeroU8::new(code) {
            Some(c) => Piece(c),
            None => unreachable!(),
        }
    }

    #[inline]
    const fn bits(self) -> u8 {
        self.0.get() - 1
    }

    /// Its side.
    #[inline]
    pub const fn color(self) -> Color {
        if self.bits() & 8 == 0 {
            Color::Tangerine
        } else {
            Color::Lavender
        }
    }

    /// Its kind.
    #[inline]
    pub const fn kind(self) -> Kind {
        if self.bits() & 4 == 0 {
            Kind::King
        } else {
            Kind::Pawn
        }
    }

    /// Its orientation.
    #[inline]
    pub const fn orientation(self) -> Orientation {
        Orientation(self.bits() & 3)
    }

    /// 0–15: an index for key and evaluation tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.bits() as usize
    }

    /// The same piece turned `quarters` quarter turns clockwise.
    #[inline]
    pub const fn rotated(self, quarters: u8) -> Piece {
        Piece::new(self.color(), self.kind(), self.orientation().rotated(quarters))
    }

    /// Its two-letter FEN code: upper case for Tangerine (`NN`, `SE`), lower case for Lavender.
    pub fn code(self) -> String {
        let table = match self.kind() {
            Kind::King => KING_CODES,
            Kind::Pawn => PAWN_CODES,
        };
        let code = table[self.orientation().index()];
        match self.color() {
            Color::Tangerine => code.to_string(),
            Color::Lavender => code.to_ascii_lowercase(),
        }
    }

    /// The piece a two-letter FEN code names, if any.
    pub fn from_code(code: &str) -> Option<Piece> {
        let color = if code.chars().all(|c| c.is_ascii_uppercase()) {
            Color::Tangerine
        } else if code.chars().all(|c| c.is_ascii_lowercase()) {
            Color::Lavender
        } else {
            return None;
        };
        let upper = code.to_ascii_uppercase();
        for (kind, table) in [(Kind::King, KING_CODES), (Kind::Pawn, PAWN_CODES)] {
            if let Some(i) = table.iter().position(|&c| c == upper) {
                return Some(Piece::new(color, kind, Orientation::new(i as u8)));
            }
        }
        None
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.code())
    }
}

/// A square, `rank * 8 + file`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0–7); `None` off the board.
    #[inline]
    pub const fn at(file: i8, rank: i8) -> Option<Square> {
        if file >= 0 && file < WIDTH as i8 && rank >= 0 && rank < WIDTH as i8 {
            Some(Square((rank as u8) * WIDTH + file as u8))
        } else {
            None
        }
    }

    /// The square numbered `index` (below 64).
    #[inline]
    pub const fn new(index: u8) -> Square {
        Square(index & 63)
    }

    /// 0–63.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 7 (h).
    #[inline]
    pub const fn file(self) -> i8 {
        (self.0 % WIDTH) as i8
    }

    /// The rank, 0 to 7.
    #[inline]
    pub const fn rank(self) -> i8 {
        (self.0 / WIDTH) as i8
    }

    /// The square one step of `(df, dr)` away, if on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        Square::at(self.file() + df, self.rank() + dr)
    }

    /// The one-bit set of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// Reads `a0` … `h7`.
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let (f, r) = (chars.next()?, chars.next()?);
        if chars.next().is_some() || !('a'..='h').contains(&f) || !('0'..='7').contains(&r) {
            return None;
        }
        Square::at(f as i8 - b'a' as i8, r as i8 - b'0' as i8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_round_trip_through_their_codes() {
        for code in
            ["NN", "EE", "SS", "WW", "NW", "NE", "SE", "SW", "nn", "ee", "ss", "ww", "nw", "ne", "se", "sw"]
        {
            let piece = Piece::from_code(code).unwrap();
            assert_eq!(piece.code(), code);
            assert_eq!(Piece::new(piece.color(), piece.kind(), piece.orientation()), piece);
        }
        assert_eq!(Piece::from_code("Nn"), None);
        assert_eq!(Piece::from_code("NS"), None);
        assert_eq!(Piece::from_code("N"), None);
        assert_eq!(Piece::from_code("NW").unwrap().rotated(1).code(), "NE");
        assert_eq!(Piece::from_code("ww").unwrap().rotated(1).code(), "nn");
        assert_eq!(Piece::from_code("SE").unwrap().rotated(3).code(), "NE");
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
        let indices: std::collections::HashSet<usize> =
            ["NN", "sw", "SE", "ee"].iter().map(|c| Piece::from_code(c).unwrap().index()).collect();
        assert_eq!(indices.len(), 4);
    }

    #[test]
    fn squares_parse_and_print() {
        assert_eq!(Square::parse("a0"), Some(Square::new(0)));
        assert_eq!(Square::parse("h7"), Some(Square::new(63)));
        assert_eq!(Square::parse("e6").unwrap().to_string(), "e6");
        for bad in ["a8", "i0", "", "a", "a00", "A0"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
        assert_eq!(Square::new(0).offset(-1, 0), None);
        assert_eq!(Square::new(63).offset(0, 1), None);
        assert_eq!(Square::new(9).offset(1, 1), Square::parse("c2"));
    }
}
