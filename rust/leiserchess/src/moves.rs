//! [`Move`]: one turn's move (the laser shot follows it), in 16 bits, and its notation.
//!
//! Notation (the course's): a shift `e6e7`; a rotation `b3R`, `b3U`, `b3L` (90°, 180°, 270° clockwise);
//! the king's null move `h0h0`; under the 2018 rules a swap and its basic move, `d5e4f5` (swap d5 with
//! e4, then the swapped piece goes e4 → f5) or `d5e4L` (swap, then rotate).

use std::{fmt, str::FromStr};

use camelpy_core::tt::TableMove;

use crate::{
    error::ParseMoveError,
    types::{Square, NEIGHBOURS},
};

/// What a move does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// The piece steps to `to`, an adjacent square; under the 2016 rules, an occupied one exchanges
    /// the two pieces.
    Shift {
        /// The square it steps to.
        to: Square,
    },
    /// The piece turns `quarters` (1–3) quarter turns clockwise in place.
    Rotate {
        /// 1 = `R`, 2 = `U`, 3 = `L`.
        quarters: u8,
    },
    /// The king stays as it is and only fires.
    Null,
    /// 2018: the piece exchanges squares with the opposing piece on `with`, then steps from there to
    /// the empty square `to`.
    SwapShift {
        /// The opposing piece's square.
        with: Square,
        /// Where the swapped piece then steps.
        to: Square,
    },
    /// 2018: the piece exchanges squares with the opposing piece on `with`, then turns `quarters`.
    SwapRotate {
        /// The opposing piece's square.
        with: Square,
        /// 1 = `R`, 2 = `U`, 3 = `L`.
        quarters: u8,
    },
}

/// A move: the square of the piece that moves and what it does. Packed into 16 bits, never 0 (bit
/// 15 is always set), so that the transposition table can store it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const VALID: u16 = 1 << 15;
const SHIFT: u16 = 0;
const ROTATE: u16 = 1;
const NULL: u16 = 2;
const SWAP_SHIFT: u16 = 3;
const SWAP_ROTATE: u16 = 4;

/// The index in [`NEIGHBOURS`] of the step from `from` to `to`, if they are adjacent.
fn neighbour_index(from: Square, to: Square) -> Option<u16> {
    let step = (to.file() - from.file(), to.rank() - from.rank());
    NEIGHBOURS.iter().position(|&n| n == step).map(|i| i as u16)
}

fn neighbour(from: Square, index: u16) -> Square {
    let (df, dr) = NEIGHBOURS[usize::from(index & 7)];
    // Moves are built from adjacent squares only, so the step stays on the board.
    from.offset(df, dr).unwrap_or(from)
}

impl Move {
    /// The move of the piece on `from` doing `action`; `None` if a square in it is not adjacent where
    /// it must be (a shift's target, a swap's partner, a swap's step) or a rotation is not 1–3.
    pub fn new(from: Square, action: Action) -> Option<Move> {
        let base = VALID | from.index() as u16;
        let bits = match action {
            Action::Shift { to } => {
                SHIFT << 12 | (to.index() as u16) << 6 | neighbour_index(from, to).map(|_| 0)?
            }
            Action::Rotate { quarters } if (1..=3).contains(&quarters) => {
                ROTATE << 12 | u16::from(quarters) << 6
            }
            Action::Rotate { .. } => return None,
            Action::Null => NULL << 12,
            Action::SwapShift { with, to } => {
                SWAP_SHIFT << 12 | neighbour_index(from, with)? << 6 | neighbour_index(with, to)? << 9
            }
            Action::SwapRotate { with, quarters } if (1..=3).contains(&quarters) => {
                SWAP_ROTATE << 12 | neighbour_index(from, with)? << 6 | u16::from(quarters) << 9
            }
            Action::SwapRotate { .. } => return None,
        };
        Some(Move(base | bits))
    }

    /// The shift from `from` to `to`, an adjacent square (what [`Move::new`] makes of it, unchecked).
    #[inline]
    pub(crate) const fn shift(from: Square, to: Square) -> Move {
        Move(VALID | SHIFT << 12 | (to.index() as u16) << 6 | from.index() as u16)
    }

    /// The rotation by `quarters` (1–3) of the piece on `from` (unchecked).
    #[inline]
    pub(crate) const fn rotate(from: Square, quarters: u8) -> Move {
        Move(VALID | ROTATE << 12 | (quarters as u16) << 6 | from.index() as u16)
    }

    /// The king's null move on `from`.
    #[inline]
    pub(crate) const fn null(from: Square) -> Move {
        Move(VALID | NULL << 12 | from.index() as u16)
    }

    /// The squares the move may change (bit `square.index()`): a shift its two squares, a rotation
    /// its own, a null move none; a 2018 swap counts as changing them all (its three squares are not
    /// looked at).
    #[inline]
    pub(crate) fn changes(self) -> u64 {
        match self.action() {
            Action::Shift { to } => self.from().bit() | to.bit(),
            Action::Rotate { .. } => self.from().bit(),
            Action::Null => 0,
            Action::SwapShift { .. } | Action::SwapRotate { .. } => u64::MAX,
        }
    }

    /// Whether the move changes a square of `squares` ([`Move::changes`]). A move that changes no
    /// square of a beam's path fires that beam again.
    #[inline]
    pub(crate) fn touches(self, squares: u64) -> bool {
        self.changes() & squares != 0
    }

    /// The square of the piece that moves.
    #[inline]
    pub fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// What it does.
    #[inline]
    pub fn action(self) -> Action {
        let from = self.from();
        match (self.0 >> 12) & 7 {
            SHIFT => Action::Shift { to: Square::new(((self.0 >> 6) & 63) as u8) },
            ROTATE => Action::Rotate { quarters: ((self.0 >> 6) & 3) as u8 },
            NULL => Action::Null,
            SWAP_SHIFT => {
                let with = neighbour(from, (self.0 >> 6) & 7);
                Action::SwapShift { with, to: neighbour(with, (self.0 >> 9) & 7) }
            }
            _ => Action::SwapRotate {
                with: neighbour(from, (self.0 >> 6) & 7),
                quarters: ((self.0 >> 9) & 3) as u8,
            },
        }
    }

    /// The 16 bits (never 0).
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move of 16 bits made by [`Move::bits`], if they are one.
    pub fn from_bits(bits: u16) -> Option<Move> {
        let mv = Move(bits);
        if bits & VALID == 0 || (bits >> 12) & 7 > SWAP_ROTATE {
            return None;
        }
        // Round trip through the action: rejects stray bits and non-adjacent squares.
        Move::new(mv.from(), mv.action()).filter(|m| *m == mv)
    }
}

const ROTATIONS: [char; 3] = ['R', 'U', 'L'];

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let from = self.from();
        match self.action() {
            Action::Shift { to } => write!(f, "{from}{to}"),
            Action::Rotate { quarters } => write!(f, "{from}{}", ROTATIONS[usize::from(quarters - 1)]),
            Action::Null => write!(f, "{from}{from}"),
            Action::SwapShift { with, to } => write!(f, "{from}{with}{to}"),
            Action::SwapRotate { with, quarters } => {
                write!(f, "{from}{with}{}", ROTATIONS[usize::from(quarters - 1)])
            }
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads the notation above (a well-formed move: whether the position allows it is
    /// [`crate::Position::illegality`]'s question).
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError::new(text);
        if !text.is_ascii() {
            return Err(err());
        }
        let square = |i: usize| text.get(i..i + 2).and_then(Square::parse);
        let rotation = |i: usize| {
            let c = text[i..].chars().next()?;
            ROTATIONS.iter().position(|&r| r == c).map(|q| q as u8 + 1)
        };
        let from = square(0).ok_or_else(err)?;
        let action = match text.len() {
            3 => Action::Rotate { quarters: rotation(2).ok_or_else(err)? },
            4 => match square(2).ok_or_else(err)? {
                to if to == from => Action::Null,
                to => Action::Shift { to },
            },
            5 => Action::SwapRotate {
                with: square(2).ok_or_else(err)?,
                quarters: rotation(4).ok_or_else(err)?,
            },
            6 => Action::SwapShift { with: square(2).ok_or_else(err)?, to: square(4).ok_or_else(err)? },
            _ => return Err(err()),
        };
        Move::new(from, action).ok_or_else(err)
    }
}

impl TableMove for Move {
    #[inline]
    fn to_raw(self) -> u16 {
        self.0
    }

    #[inline]
    fn from_raw(raw: u16) -> Option<Move> {
        Move::from_bits(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in ["e6e7", "a0b1", "h7g6", "b3R", "b3U", "b3L", "h0h0", "a0a0", "d5e4f5", "d5e4L", "a0b1a1"]
        {
            let mv: Move = text.parse().unwrap();
            assert_eq!(mv.to_string(), text);
            assert_ne!(mv.bits(), 0);
            assert_eq!(Move::from_bits(mv.bits()), Some(mv));
        }
        let swap: Move = "d5e4f5".parse().unwrap();
        assert_eq!(
            swap.action(),
            Action::SwapShift { with: Square::parse("e4").unwrap(), to: Square::parse("f5").unwrap() }
        );
        assert_eq!(swap.from(), Square::parse("d5").unwrap());
    }

    #[test]
    fn the_unchecked_constructors_are_new() {
        for i in 0..64u8 {
            let from = Square::new(i);
            for (df, dr) in NEIGHBOURS {
                if let Some(to) = from.offset(df, dr) {
                    assert_eq!(Some(Move::shift(from, to)), Move::new(from, Action::Shift { to }));
                }
            }
            for quarters in 1..=3 {
                assert_eq!(Some(Move::rotate(from, quarters)), Move::new(from, Action::Rotate { quarters }));
            }
            assert_eq!(Some(Move::null(from)), Move::new(from, Action::Null));
        }
    }

    #[test]
    fn malformed_moves_are_refused() {
        for text in
            ["", "e6", "e6e8", "e6g7", "e6X", "b3r", "d5f4f5", "d5e4e4x", "d5e4g4", "é6e7", "e6e7 ", "i0i1"]
        {
            assert!(text.parse::<Move>().is_err(), "{text}");
        }
        assert_eq!(Move::from_bits(0), None);
        assert_eq!(Move::from_bits(0x7FFF), None);
        assert_eq!(Move::from_bits(VALID | 7 << 12), None);
    }
}
