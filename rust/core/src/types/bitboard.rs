//! `Bitboard`: a set of squares, one bit per square (bit `i` is `Square::ALL[i]`).

use core::{fmt, ops};

use super::{file::File, rank::Rank, square::Square};

/// A set of squares, one bit per square in python-chess numbering (bit 0 = A1, bit 63 = H8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The light squares (H1 is light).
    pub const LIGHT: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);
    /// The dark squares (A1 is dark).
    pub const DARK: Bitboard = Bitboard(!0x55AA_55AA_55AA_55AA);
    /// Ranks 1 and 8, where no pawn may stand.
    pub const BACK_RANKS: Bitboard = Bitboard(0xFF00_0000_0000_00FF);

    /// Every square of `file`.
    #[inline(always)]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u8)
    }

    /// Every square of `rank`.
    #[inline(always)]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xFF << (8 * rank as u8))
    }

    /// True if the set has no square.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if the set has at least one square.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// True if `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 & (1 << sq as u8) != 0
    }

    /// The number of squares in the set.
    #[inline(always)]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True if the set has two or more squares.
    #[inline(always)]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square of the set, or `None` if it is empty.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_low_bits(self.0.trailing_zeros()))
        }
    }

    /// The lowest square of a set known to be non-empty (any square if empty, in release builds).
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_low_bits(self.0.trailing_zeros())
    }

    /// The set moved one rank up (towards rank 8); squares on rank 8 fall off.
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// The set moved one rank down (towards rank 1); squares on rank 1 fall off.
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq as u8)
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq as u8))
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_ops {
    ($($trait:ident $fn:ident $assign_trait:ident $assign_fn:ident $op:tt;)*) => {$(
        impl ops::$trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl ops::$assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    )*};
}
bit_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        sq.bitboard()
    }
}

impl fmt::Debug for Bitboard {
    /// Eight rows, rank 8 first, `X` for a member square.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let bit = self.0 >> (rank * 8 + file) & 1;
                write!(f, "{}", if bit == 1 { 'X' } else { '.' })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let bb = Square::A1.bitboard() | Square::H8.bitboard();
        assert_eq!(bb.len(), 2);
        assert!(bb.has(Square::H8) && !bb.has(Square::B1));
        assert!(bb.has_more_than_one());
        assert_eq!(bb.collect::<Vec<_>>(), vec![Square::A1, Square::H8]);
        assert_eq!(Bitboard::file(File::A).len(), 8);
        assert!(Bitboard::rank(Rank::Eighth).has(Square::C8));
        assert!(Bitboard::LIGHT.has(Square::H1) && Bitboard::DARK.has(Square::A1));
    }
}
