//! `Material`: which pieces an ending has ("KQvKR"), the name of its table.

use core::fmt;

use super::TablebaseError;
use crate::types::{Color, PieceType};

/// The most pieces (kings included) a table may hold: the index grows 64-fold per piece, and a
/// 6-man table would need tens of gigabytes in this layout.
pub const MAX_PIECES: usize = 5;

/// The piece types a side may have besides its king, strongest first: the order of a name's letters
/// and of the pieces in an index.
pub const ORDER: [PieceType; 5] =
    [PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight, PieceType::Pawn];

/// The material of an ending: how many pieces of each type (besides the king) each side has.
///
/// ```
/// use camelpy_core::tablebase::Material;
/// let m = Material::parse("KRvKQ").unwrap();
/// assert_eq!(m.to_string(), "KRvKQ");
/// assert_eq!(m.canonical().to_string(), "KQvKR"); // the stronger side first: one table for both
/// assert_eq!(m.pieces(), 4);
/// assert!(Material::parse("KQvKQRBN").is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    /// Per colour, the count of each type of [`ORDER`].
    counts: [[u8; 5]; 2],
}

impl Material {
    /// Parses `KQvKR` (White's pieces, `v`, Black's; each side starts with its king, letters in any
    /// order, case-insensitive).
    pub fn parse(name: &str) -> Result<Material, TablebaseError> {
        let bad =
            |reason: &str| TablebaseError::Material { name: name.to_owned(), reason: reason.to_owned() };
        let upper = name.trim().to_ascii_uppercase();
        let (white, black) = upper.split_once('V').ok_or_else(|| bad("expected two sides joined by 'v'"))?;
        let mut counts = [[0u8; 5]; 2];
        for (side, text) in [white, black].into_iter().enumerate() {
            let rest = text.strip_prefix('K').ok_or_else(|| bad("each side starts with its king, K"))?;
            for c in rest.chars() {
                let pt = match PieceType::from_char(c.to_ascii_lowercase()) {
                    Some(PieceType::King) => return Err(bad("a side has one king")),
                    Some(pt) => pt,
                    None => return Err(bad(&format!("unknown piece letter '{c}'"))),
                };
                counts[side][order_index(pt)] += 1;
            }
        }
        let material = Material { counts };
        if material.pieces() > MAX_PIECES {
            return Err(bad(&format!("at most {MAX_PIECES} pieces, kings included")));
        }
        if material.pieces() < 3 {
            return Err(bad("a table needs a piece besides the kings (king against king is a draw)"));
        }
        Ok(material)
    }

    /// The material of a board given as colour and piece-type sets (kings not counted).
    pub(crate) fn from_counts(count: impl Fn(Color, PieceType) -> u32) -> Material {
        let mut counts = [[0u8; 5]; 2];
        for color in Color::ALL {
            for (i, pt) in ORDER.into_iter().enumerate() {
                counts[color.index()][i] = count(color, pt).min(u32::from(u8::MAX)) as u8;
            }
        }
        Material { counts }
    }

    /// How many pieces of type `pt` (not the king) `color` has.
    pub fn count(&self, color: Color, pt: PieceType) -> u8 {
        if pt == PieceType::King {
            1
        } else {
            self.counts[color.index()][order_index(pt)]
        }
    }

    /// All pieces, kings included.
    pub fn pieces(&self) -> usize {
        2 + self.counts.iter().flatten().map(|&c| usize::from(c)).sum::<usize>()
    }

    /// The pawns of both sides.
    pub fn pawns(&self) -> usize {
        usize::from(self.counts[0][4]) + usize::from(self.counts[1][4])
    }

    /// The same ending with the colours exchanged.
    pub fn mirrored(&self) -> Material {
        Material { counts: [self.counts[1], self.counts[0]] }
    }

    /// True if White is the side listed first in the table's name: White has more pieces, or as
    /// many and stronger ones (compared type by type, strongest first). One table serves both
    /// colourings; symmetric endings (KRvKR) are their own mirror.
    pub fn is_canonical(&self) -> bool {
        side_key(&self.counts[0]) >= side_key(&self.counts[1])
    }

    /// The colouring whose table holds this ending (see [`Material::is_canonical`]).
    pub fn canonical(&self) -> Material {
        if self.is_canonical() {
            *self
        } else {
            self.mirrored()
        }
    }

    /// Every canonical ending of 3 to `max_pieces` pieces, in an order in which each table's
    /// successors (after a capture: fewer pieces; after a promotion: fewer pawns) come before it.
    pub fn all(max_pieces: usize) -> Vec<Material> {
        let mut out = Vec::new();
        let mut counts = [[0u8; 5]; 2];
        enumerate(&mut counts, 0, max_pieces.min(MAX_PIECES).saturating_sub(2), &mut out);
        out.retain(|m| m.pieces() >= 3 && m.is_canonical());
        out.sort_by_key(|m| m.generation_key());
        out.dedup();
        out
    }

    /// Sorts tables so that every successor table comes first: by piece count, then pawn count.
    pub fn generation_key(&self) -> (usize, usize, [[u8; 5]; 2]) {
        (self.pieces(), self.pawns(), self.counts)
    }

    /// The endings one capture or one promotion away (canonical, without king against king), which
    /// must be solved before this one.
    pub fn successors(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for color in 0..2 {
            for i in 0..5 {
                if self.counts[color][i] == 0 {
                    continue;
                }
                let mut captured = self.counts;
                captured[color][i] -= 1;
                out.push(Material { counts: captured });
                if i == 4 {
                    for promoted in 0..4 {
                        let mut m = self.counts;
                        m[color][4] -= 1;
                        m[color][promoted] += 1;
                        out.push(Material { counts: m });
                    }
                }
            }
        }
        let mut out: Vec<Material> =
            out.into_iter().filter(|m| m.pieces() >= 3).map(|m| m.canonical()).collect();
        out.sort();
        out.dedup();
        out
    }

    /// The pieces in index order: White's king, Black's king, then White's pieces strongest first,
    /// then Black's.
    pub fn layout(&self) -> Vec<(Color, PieceType)> {
        let mut out = vec![(Color::White, PieceType::King), (Color::Black, PieceType::King)];
        for color in Color::ALL {
            for (i, pt) in ORDER.into_iter().enumerate() {
                for _ in 0..self.counts[color.index()][i] {
                    out.push((color, pt));
                }
            }
        }
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (side, color) in Color::ALL.into_iter().enumerate() {
            if side == 1 {
                f.write_str("v")?;
            }
            f.write_str("K")?;
            for (i, pt) in ORDER.into_iter().enumerate() {
                for _ in 0..self.counts[color.index()][i] {
                    write!(f, "{}", pt.to_char().to_ascii_uppercase())?;
                }
            }
        }
        Ok(())
    }
}

fn order_index(pt: PieceType) -> usize {
    ORDER.iter().position(|&p| p == pt).expect("not a king")
}

/// Compares sides: more pieces first, then stronger pieces.
fn side_key(counts: &[u8; 5]) -> (u8, [u8; 5]) {
    (counts.iter().sum(), *counts)
}

/// Every way to hand out up to `left` pieces from type `from` on, to both sides.
fn enumerate(counts: &mut [[u8; 5]; 2], from: usize, left: usize, out: &mut Vec<Material>) {
    out.push(Material { counts: *counts });
    if left == 0 {
        return;
    }
    for slot in from..10 {
        counts[slot / 5][slot % 5] += 1;
        enumerate(counts, slot, left - 1, out);
        counts[slot / 5][slot % 5] -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_and_print() {
        for name in ["KQvK", "KRvKB", "KPvKP", "KBNvK", "KQRvKQ", "KvKP"] {
            assert_eq!(Material::parse(name).unwrap().to_string(), name);
        }
        assert_eq!(Material::parse("kqvk").unwrap().to_string(), "KQvK");
        assert_eq!(Material::parse("KNBvK").unwrap().to_string(), "KBNvK");
        for bad in ["", "KQK", "QvK", "KQvKK", "KXvK", "KvK", "KQQQvKR"] {
            assert!(Material::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_stronger_side_is_white_in_a_table() {
        assert_eq!(Material::parse("KvKP").unwrap().canonical().to_string(), "KPvK");
        assert_eq!(Material::parse("KPvKR").unwrap().canonical().to_string(), "KRvKP");
        assert!(Material::parse("KRvKR").unwrap().is_canonical());
    }

    #[test]
    fn the_three_and_four_man_set_has_35_tables_in_dependency_order() {
        let all = Material::all(4);
        assert_eq!(all.len(), 35);
        assert_eq!(Material::all(3).len(), 5);
        for (i, m) in all.iter().enumerate() {
            for s in m.successors() {
                assert!(all[..i].contains(&s), "{s} must come before {m}");
            }
        }
        let mut names: Vec<String> =
            Material::parse("KPvKP").unwrap().successors().iter().map(|m| m.to_string()).collect();
        names.sort();
        assert_eq!(names, ["KBvKP", "KNvKP", "KPvK", "KQvKP", "KRvKP"]);
    }
}
