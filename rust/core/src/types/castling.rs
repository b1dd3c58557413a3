//! `CastlingRights`: which rooks may still castle, by their files (so Chess960 needs nothing extra).

use super::{color::Color, file::File};
use crate::simple_enum;

simple_enum! {
    /// The side of the board a castling move goes to: towards the h-file (`O-O`) or the a-file (`O-O-O`).
    pub enum CastlingSide { KingSide, QueenSide }
}

impl CastlingSide {
    /// The file the king ends on: g for king side, c for queen side, in standard chess and Chess960 alike.
    pub const fn king_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook ends on: f for king side, d for queen side.
    pub const fn rook_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }
}

/// For each colour and side, the file of the rook that may still castle, if any. The rook stands on the
/// colour's back rank; the king is wherever that colour's king stands (validated when the position is set up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights {
    rooks: [[Option<File>; 2]; 2],
}

impl CastlingRights {
    /// No castling rights.
    pub const EMPTY: CastlingRights = CastlingRights { rooks: [[None; 2]; 2] };

    /// The file of `color`'s rook that may castle to `side`.
    #[inline(always)]
    pub const fn get(&self, color: Color, side: CastlingSide) -> Option<File> {
        self.rooks[color as usize][side as usize]
    }

    /// Sets or clears the right of `color` to castle to `side` with the rook on `file`.
    #[inline(always)]
    pub fn set(&mut self, color: Color, side: CastlingSide, file: Option<File>) {
        self.rooks[color as usize][side as usize] = file;
    }

    /// True if no side may castle.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.mask() == 0
    }

    /// Removes every right whose bit (`1 << (2 * color + side)`, as in [`CastlingRights::mask`]) is set
    /// in `lost`.
    #[inline(always)]
    pub fn remove_mask(&mut self, lost: u8) {
        for color in 0..2 {
            for side in 0..2 {
                if lost >> (2 * color + side) & 1 != 0 {
                    self.rooks[color][side] = None;
                }
            }
        }
    }

    /// The rights as four bits (`1 << (2 * color + side)`), for Zobrist keys.
    #[inline(always)]
    pub const fn mask(&self) -> usize {
        (self.rooks[0][0].is_some() as usize)
            | (self.rooks[0][1].is_some() as usize) << 1
            | (self.rooks[1][0].is_some() as usize) << 2
            | (self.rooks[1][1].is_some() as usize) << 3
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_by_file() {
        let mut rights = CastlingRights::EMPTY;
        assert!(rights.is_empty());
        rights.set(Color::Black, CastlingSide::QueenSide, Some(File::B));
        assert_eq!(rights.get(Color::Black, CastlingSide::QueenSide), Some(File::B));
        assert_eq!(rights.mask(), 0b1000);
        rights.set(Color::Black, CastlingSide::QueenSide, None);
        assert!(rights.is_empty());
    }
}
