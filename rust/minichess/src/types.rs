//! The vocabulary: [`Color`], [`PieceType`], [`Piece`], [`Square`], [`Move`].
//!
//! Squares are numbered `row * 5 + col`, with row 0 the top row (Black's back rank) and row 5 the bottom
//! (White's), as the course's `state` file lists them. White's pawns move towards row 0.

use std::fmt;

/// Rows on the board.
pub const ROWS: u8 = 6;
/// Columns on the board.
pub const COLS: u8 = 5;
/// Squares on the board.
pub const NUM_SQUARES: usize = (ROWS * COLS) as usize;

camelpy_games::two_sides! {
    /// A side.
    pub enum Color {
        /// Moves first, starts on rows 4 and 5; the course's `0`.
        White,
        /// Starts on rows 0 and 1; the course's `1` (the course's numbers are [`Color::index`]).
        Black,
    }
}

impl Color {
    /// The row on which this side's pawns promote.
    #[inline]
    pub const fn promotion_row(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => ROWS - 1,
        }
    }
}

camelpy_core::simple_enum! {
    /// A kind of piece, without its colour.
    pub enum PieceType {
        /// Moves one square forward, captures one square diagonally forward; becomes a queen on the last row.
        Pawn,
        /// Jumps (2, 1).
        Knight,
        /// Slides diagonally.
        Bishop,
        /// Slides along rows and columns.
        Rook,
        /// Bishop and rook.
        Queen,
        /// One step in any direction; capturing it wins.
        King,
    }
}

impl PieceType {
    /// The material value of the 50-ply count: Queen 20, Bishop 8, Knight 7, Rook 6, Pawn 2; the king 0
    /// (it is not counted).
    pub const fn value(self) -> i32 {
        match self {
            PieceType::Pawn => 2,
            PieceType::Knight => 7,
            PieceType::Bishop => 8,
            PieceType::Rook => 6,
            PieceType::Queen => 20,
            PieceType::King => 0,
        }
    }

    /// The course's `state` file number: 1 pawn, 2 rook, 3 knight, 4 bishop, 5 queen, 6 king.
    pub const fn state_code(self) -> u8 {
        match self {
            PieceType::Pawn => 1,
            PieceType::Rook => 2,
            PieceType::Knight => 3,
            PieceType::Bishop => 4,
            PieceType::Queen => 5,
            PieceType::King => 6,
        }
    }

    /// The kind of a `state` file number (1–6).
    pub const fn from_state_code(code: u8) -> Option<PieceType> {
        match code {
            1 => Some(PieceType::Pawn),
            2 => Some(PieceType::Rook),
            3 => Some(PieceType::Knight),
            4 => Some(PieceType::Bishop),
            5 => Some(PieceType::Queen),
            6 => Some(PieceType::King),
            _ => None,
        }
    }

    /// The lowercase letter of the one-line text form (`p n b r q k`).
    pub const fn letter(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }
}

/// A coloured piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What piece.
    pub kind: PieceType,
}

impl Piece {
    /// The piece of `color` and `kind`.
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece { color, kind }
    }

    /// `0..12`: White's six kinds, then Black's.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.kind.index()
    }

    /// The letter of the text form: uppercase for White, lowercase for Black.
    pub const fn symbol(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece a text-form letter names.
    pub const fn from_symbol(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let kind = match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        };
        Some(Piece { color, kind })
    }
}

/// A square: `row * 5 + col`, in `0..30`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    /// The square at `row` (0 = top) and `col` (0 = left), if on the board.
    #[inline]
    pub const fn new(row: u8, col: u8) -> Option<Square> {
        if row < ROWS && col < COLS {
            Some(Square(row * COLS + col))
        } else {
            None
        }
    }

    /// The square with this index, if it is below 30.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < NUM_SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square with this index, which the caller guarantees is below 30 (checked in debug builds).
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < NUM_SQUARES as u32);
        Square(index as u8)
    }

    /// The row, 0 (top, Black's back rank) to 5.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / COLS
    }

    /// The column, 0 to 4.
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 % COLS
    }

    /// `row * 5 + col`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move: from one square to another. A pawn reaching its last row always becomes a queen, so a move
/// needs no promotion field. Two bytes.
///
/// Written as the course writes it, `from_row from_col to_row to_col`:
///
/// ```
/// use camelpy_minichess::{Move, Square};
/// let mv = Move::new(Square::new(4, 0).unwrap(), Square::new(3, 0).unwrap());
/// assert_eq!(mv.to_string(), "4 0 3 0");
/// assert_eq!("4 0 3 0".parse::<Move>(), Ok(mv));
/// assert!("+4 0 3 0".parse::<Move>().is_err() && "4 0 6 0".parse::<Move>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it lands on (capturing whatever stands there).
    pub to: Square,
}

const _: () = assert!(std::mem::size_of::<Move>() == 2);

impl Move {
    /// The move `from` → `to`.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} {}", self.from.row(), self.from.col(), self.to.row(), self.to.col())
    }
}

impl std::str::FromStr for Move {
    type Err = crate::error::ParseMoveError;

    /// Four whitespace-separated numbers `from_row from_col to_row to_col`, each on the board.
    fn from_str(text: &str) -> Result<Move, Self::Err> {
        let bad = || crate::error::ParseMoveError::new(text);
        // ASCII digits only (`u8::from_str` would also take a leading `+`).
        let number = |w: &str| w.bytes().all(|b| b.is_ascii_digit()).then(|| w.parse::<u8>().ok()).flatten();
        let numbers: Vec<u8> = text.split_whitespace().map(number).collect::<Option<_>>().ok_or_else(bad)?;
        let [fr, fc, tr, tc] = numbers[..] else { return Err(bad()) };
        Ok(Move::new(Square::new(fr, fc).ok_or_else(bad)?, Square::new(tr, tc).ok_or_else(bad)?))
    }
}
