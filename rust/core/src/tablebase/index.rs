//! Positions of one ending to table slots and back, with the board's symmetries folded away.
//!
//! A slot is `kings · 64^(n−2) + Σ square · 64^k` over the other pieces in [`Material::layout`] order.
//! Without pawns the board has eight symmetries (flips and the diagonal), and White's king is moved
//! into the triangle a1–d1–d4 (10 squares: `kings` = triangle index · 64 + Black's king); with pawns
//! only the left–right mirror is free, and White's king is moved onto files a–d (32 squares). Where
//! more than one symmetry puts the king there (it stands on the diagonal), the position takes the
//! smallest slot of them; identical pieces are ordered by square. A slot whose decoded position maps
//! to another slot is an unused duplicate, as is one with two pieces on a square, a pawn on the first
//! or last rank, or the kings side by side.

use super::material::Material;
use crate::types::{Color, PieceType};

/// A square as its index 0–63 (a1 = 0, h8 = 63).
pub(crate) type Sq = u8;

/// The square `sq` under symmetry `t` (bit 2: mirror in the a1–h8 diagonal, then bit 0: left–right,
/// bit 1: top–bottom).
#[inline]
pub(crate) fn transform(sq: Sq, t: u8) -> Sq {
    let mut s = sq;
    if t & 4 != 0 {
        s = ((s & 7) << 3) | (s >> 3);
    }
    if t & 1 != 0 {
        s ^= 7;
    }
    if t & 2 != 0 {
        s ^= 56;
    }
    s
}

/// The triangle a1–d1–d4's index of `sq` (0–9), or 10 off it.
const fn triangle_index(sq: Sq) -> u8 {
    let (file, rank) = (sq & 7, sq >> 3);
    if file > 3 || rank > file {
        return 10;
    }
    // Rows of the triangle: rank 0 has files 0–3 (4 squares), rank 1 files 1–3 (3), …
    let before = match rank {
        0 => 0,
        1 => 4,
        2 => 7,
        _ => 9,
    };
    before + (file - rank)
}

/// The triangle's squares by index.
const TRIANGLE: [Sq; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

/// The slot arithmetic of one ending.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// The pieces in slot order (see [`Material::layout`]).
    pub pieces: Vec<(Color, PieceType)>,
    /// For each piece, the first piece of its group of identical pieces.
    group_start: Vec<usize>,
    /// True with pawns: only the left–right mirror.
    pub pawns: bool,
    /// Slots per side to move.
    pub size: usize,
}

impl Layout {
    /// The layout of `material`'s table (its canonical colouring).
    pub fn new(material: &Material) -> Layout {
        let pieces = material.layout();
        let group_start = (0..pieces.len())
            .map(|i| (0..=i).rev().take_while(|&j| pieces[j] == pieces[i]).last().unwrap_or(i))
            .collect();
        let pawns = material.pawns() > 0;
        let kings = if pawns { 32 * 64 } else { 10 * 64 };
        let size = kings << (6 * (pieces.len() - 2));
        Layout { pieces, group_start, pawns, size }
    }

    /// The slot of the position with the pieces on `squares` (slot order), symmetry folded away.
    pub fn index(&self, squares: &[Sq]) -> usize {
        let king = squares[0];
        if self.pawns {
            let t = if king & 7 > 3 { 1 } else { 0 };
            return self.index_under(squares, t);
        }
        let mut best = usize::MAX;
        for t in 0..8 {
            if triangle_index(transform(king, t)) < 10 {
                best = best.min(self.index_under(squares, t));
            }
        }
        best
    }

    fn index_under(&self, squares: &[Sq], t: u8) -> usize {
        let mut s = [0u8; super::material::MAX_PIECES];
        let n = squares.len();
        for i in 0..n {
            s[i] = transform(squares[i], t);
        }
        // Identical pieces in ascending square order (groups are short: insertion sort).
        for i in 1..n {
            let mut j = i;
            while j > self.group_start[i] && s[j - 1] > s[j] {
                s.swap(j - 1, j);
                j -= 1;
            }
        }
        let king = s[0];
        let kings = if self.pawns {
            (usize::from(king >> 3) * 4 + usize::from(king & 7)) * 64 + usize::from(s[1])
        } else {
            usize::from(triangle_index(king)) * 64 + usize::from(s[1])
        };
        s[2..n].iter().fold(kings, |acc, &sq| acc * 64 + usize::from(sq))
    }

    /// The squares of slot `index` (slot order) if it is a used slot: a position that can stand on
    /// the board (side to move aside) and whose own slot this is.
    pub fn decode(&self, index: usize, out: &mut [Sq]) -> bool {
        let n = self.pieces.len();
        let mut rest = index;
        for i in (2..n).rev() {
            out[i] = (rest & 63) as Sq;
            rest >>= 6;
        }
        out[1] = (rest & 63) as Sq;
        let k = rest >> 6;
        out[0] = if self.pawns { ((k / 4) * 8 + k % 4) as Sq } else { TRIANGLE[k] };
        let mut seen = 0u64;
        for (&sq, &(_, pt)) in out[..n].iter().zip(&self.pieces) {
            let bit = 1u64 << sq;
            if seen & bit != 0 {
                return false;
            }
            seen |= bit;
            if pt == PieceType::Pawn && !(8..56).contains(&sq) {
                return false;
            }
        }
        let (a, b) = (out[0], out[1]);
        let adjacent = (i16::from(a & 7) - i16::from(b & 7)).abs() <= 1
            && (i16::from(a >> 3) - i16::from(b >> 3)).abs() <= 1;
        !adjacent && self.index(&out[..n]) == index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_triangle_is_ten_squares() {
        let squares: Vec<Sq> = (0..64).filter(|&s| triangle_index(s) < 10).collect();
        assert_eq!(squares, TRIANGLE);
        for (i, &s) in TRIANGLE.iter().enumerate() {
            assert_eq!(usize::from(triangle_index(s)), i);
        }
    }

    #[test]
    fn the_eight_symmetries_are_distinct_and_invertible() {
        let images: std::collections::HashSet<Vec<Sq>> =
            (0..8).map(|t| (0..64).map(|s| transform(s, t)).collect()).collect();
        assert_eq!(images.len(), 8);
        for t in 0..8 {
            let mut seen = [false; 64];
            for s in 0..64 {
                seen[usize::from(transform(s, t))] = true;
            }
            assert!(seen.iter().all(|&x| x));
        }
    }

    #[test]
    fn every_used_slot_decodes_to_itself_and_symmetric_positions_share_a_slot() {
        for name in ["KQvK", "KPvK", "KRRvK"] {
            let layout = Layout::new(&Material::parse(name).unwrap());
            let n = layout.pieces.len();
            let mut squares = [0u8; 5];
            let mut used = 0;
            for index in 0..layout.size {
                if layout.decode(index, &mut squares) {
                    used += 1;
                    let moves: &[u8] = if layout.pawns { &[0, 1] } else { &[0, 1, 2, 3, 4, 5, 6, 7] };
                    for &t in moves {
                        let image: Vec<Sq> = squares[..n].iter().map(|&s| transform(s, t)).collect();
                        assert_eq!(layout.index(&image), index, "{name} slot {index} under {t}");
                    }
                }
            }
            assert!(used > layout.size / 4, "{name}: {used} of {}", layout.size);
        }
        // KQvK: 462 king pairs (the known count) times 62 queen squares, less nothing else.
        let layout = Layout::new(&Material::parse("KQvK").unwrap());
        let mut squares = [0u8; 5];
        let pairs: std::collections::HashSet<usize> =
            (0..layout.size).filter(|&i| layout.decode(i, &mut squares)).map(|i| i / 64).collect();
        assert_eq!(pairs.len(), 462);
    }
}
