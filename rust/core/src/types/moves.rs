//! `Move`: a move packed in 16 bits.
//!
//! ```text
//! bit  15 14 | 13 12     | 11 .. 6 | 5 .. 0
//!      kind  | promotion | to      | from
//! kind:      0 normal, 1 promotion, 2 en passant, 3 castling
//! promotion: 0 knight, 1 bishop, 2 rook, 3 queen (read only when kind = promotion)
//! ```
//! Castling is stored as "king takes own rook" (`to` is the rook's square), which describes Chess960 and
//! standard castling alike; [`Move::to_uci`] writes the standard `e1g1` form unless Chess960 is on.
//! No legal move has `from == to`, so the all-zero pattern is free and `Option<Move>` costs nothing.

use core::{fmt, num::NonZeroU16};

use super::{file::File, piece_type::PieceType, square::Square};

/// A move, packed in 16 bits (layout in the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const _: () = assert!(core::mem::size_of::<Move>() == 2);
const _: () = assert!(core::mem::size_of::<Option<Move>>() == core::mem::size_of::<Move>());

/// What a move does besides moving a piece from `from` to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A quiet move or a capture.
    Normal = 0,
    /// A pawn reaching the last rank (its piece in [`Move::promotion`]).
    Promotion = 1,
    /// A pawn taking en passant (`to` is the en-passant square).
    EnPassant = 2,
    /// Castling: the king "takes" its own rook (`to` is the rook's square).
    Castling = 3,
}

impl Move {
    const KIND_SHIFT: u16 = 14;
    const PROMO_SHIFT: u16 = 12;

    #[inline(always)]
    const fn pack(from: Square, to: Square, promo: u16, kind: MoveKind) -> Move {
        let raw =
            from as u16 | (to as u16) << 6 | promo << Self::PROMO_SHIFT | (kind as u16) << Self::KIND_SHIFT;
        match NonZeroU16::new(raw) {
            Some(nz) => Move(nz),
            None => panic!("a move cannot go from a1 to a1"),
        }
    }

    /// A normal move (quiet or capture). `from` and `to` must differ.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move::pack(from, to, 0, MoveKind::Normal)
    }

    /// A promotion to `piece` (knight, bishop, rook or queen).
    #[inline(always)]
    pub const fn new_promotion(from: Square, to: Square, piece: PieceType) -> Move {
        let promo = match piece {
            PieceType::Knight => 0,
            PieceType::Bishop => 1,
            PieceType::Rook => 2,
            _ => 3,
        };
        Move::pack(from, to, promo, MoveKind::Promotion)
    }

    /// An en-passant capture landing on `to`.
    #[inline(always)]
    pub const fn new_en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, 0, MoveKind::EnPassant)
    }

    /// Castling, written as the king taking its own rook on `rook`.
    #[inline(always)]
    pub const fn new_castling(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, 0, MoveKind::Castling)
    }

    /// The 16-bit pattern.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0.get()
    }

    /// The move with this 16-bit pattern, or `None` for 0. Any other pattern decodes to some move, which
    /// may not be legal in any position: check it with `Position::is_legal` before playing it.
    pub const fn from_raw(raw: u16) -> Option<Move> {
        match NonZeroU16::new(raw) {
            Some(nz) => Some(Move(nz)),
            None => None,
        }
    }

    /// The square the moving piece leaves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::ALL[(self.0.get() & 63) as usize]
    }

    /// The square the move goes to (the rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::ALL[(self.0.get() >> 6 & 63) as usize]
    }

    /// The move's kind.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0.get() >> Self::KIND_SHIFT {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The piece a pawn promotes to, if this is a promotion.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceType> {
        match self.kind() {
            MoveKind::Promotion => Some(PieceType::ALL[1 + (self.0.get() >> Self::PROMO_SHIFT & 3) as usize]),
            _ => None,
        }
    }

    /// True for castling.
    #[inline(always)]
    pub const fn is_castling(self) -> bool {
        matches!(self.kind(), MoveKind::Castling)
    }

    /// The square the king ends on: `to` except for castling, where it is the g- or c-file square.
    pub const fn king_destination(self) -> Square {
        if self.is_castling() {
            let file = if (self.to() as u8 & 7) > (self.from() as u8 & 7) { File::G } else { File::C };
            Square::new(file, self.from().rank())
        } else {
            self.to()
        }
    }

    /// The move in UCI notation. Castling is `e1g1` (king to its destination) in standard chess and king
    /// takes rook (`e1h1`) when `chess960` is set, as the UCI specification and python-chess do.
    pub fn to_uci(self, chess960: bool) -> String {
        let to = if chess960 { self.to() } else { self.king_destination() };
        match self.promotion() {
            Some(pt) => format!("{}{}{}", self.from(), to, pt.to_char()),
            None => format!("{}{}", self.from(), to),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}, {:?})", self.to_uci(true), self.kind())
    }
}

impl fmt::Display for Move {
    /// The Chess960 form (king takes rook for castling); use [`Move::to_uci`] to choose.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_uci(true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_round_trips() {
        let m = Move::new_promotion(Square::E7, Square::D8, PieceType::Knight);
        assert_eq!(
            (m.from(), m.to(), m.kind(), m.promotion()),
            (Square::E7, Square::D8, MoveKind::Promotion, Some(PieceType::Knight))
        );
        assert_eq!(m.to_uci(false), "e7d8n");
        assert_eq!(Move::from_raw(m.raw()), Some(m));
        let q = Move::new_promotion(Square::A2, Square::A1, PieceType::Queen);
        assert_eq!(q.promotion(), Some(PieceType::Queen));
        let c = Move::new_castling(Square::E1, Square::H1);
        assert_eq!((c.to_uci(false), c.to_uci(true)), ("e1g1".to_string(), "e1h1".to_string()));
        let c = Move::new_castling(Square::B8, Square::A8);
        assert_eq!((c.to_uci(false), c.to_uci(true)), ("b8c8".to_string(), "b8a8".to_string()));
        assert_eq!(Move::new_en_passant(Square::E5, Square::D6).kind(), MoveKind::EnPassant);
        assert_eq!(Move::from_raw(0), None);
    }
}
