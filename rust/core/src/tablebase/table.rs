//! One solved ending in memory (`Table`), a set of them (`TableSet`), and the value of a position.

use std::collections::HashMap;
use std::sync::Arc;

use super::{
    board::TbBoard,
    index::{Layout, Sq},
    material::{Material, MAX_PIECES},
};
use crate::{hash::FnvBuildHasher, types::Color};

/// A position's exact value with best play, the fifty-move rule aside: the side to move mates in
/// `Win(plies)` (odd), is mated in `Loss(plies)` (even; `Loss(0)`: it is checkmated), or it is a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TbValue {
    /// The side to move mates in this many plies (its own moves and the replies).
    Win(u16),
    /// The side to move is mated in this many plies.
    Loss(u16),
    /// Neither side can force mate.
    Draw,
}

impl TbValue {
    /// The value for the side that moved into a position worth `self` to its opponent.
    #[inline]
    pub fn before_move(self) -> TbValue {
        match self {
            TbValue::Win(p) => TbValue::Loss(p + 1),
            TbValue::Loss(p) => TbValue::Win(p + 1),
            TbValue::Draw => TbValue::Draw,
        }
    }

    /// A number that orders values for the side to move: quicker wins highest, longer losses above
    /// quicker ones.
    #[inline]
    pub fn rank(self) -> i32 {
        match self {
            TbValue::Win(p) => 100_000 - i32::from(p),
            TbValue::Loss(p) => -100_000 + i32::from(p),
            TbValue::Draw => 0,
        }
    }

    /// The signed distance to mate in plies, as python-chess's `chess.gaviota` gives it: positive
    /// when the side to move wins, negative when it loses, 0 for a draw or a checkmated side.
    pub fn dtm(self) -> i32 {
        match self {
            TbValue::Win(p) => i32::from(p),
            TbValue::Loss(p) => -i32::from(p),
            TbValue::Draw => 0,
        }
    }

    /// The better of `self` and `other` for the side to move.
    pub fn max_by_rank(self, other: TbValue) -> TbValue {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }

    /// Win, draw or loss: 1, 0 or −1 for the side to move.
    pub fn wdl(self) -> i32 {
        match self {
            TbValue::Win(_) => 1,
            TbValue::Loss(_) => -1,
            TbValue::Draw => 0,
        }
    }
}

/// Entry codes, one byte a position: 0 an unused slot, 1 a draw, 2–128 a win in 1–127 moves,
/// 129–255 a loss in 0–126 moves. (Plies follow: a win in m moves is 2m − 1 plies, a loss 2m.)
/// A table with longer mates stores two bytes a position: 2 + m for a win, 32,768 + m for a loss.
pub(crate) const UNUSED: u16 = 0;
pub(crate) const DRAW_CODE: u16 = 1;

/// Encodes `value` at entry `width` (1 or 2 bytes); `None` if it does not fit.
pub(crate) fn encode(value: TbValue, width: usize) -> Option<u16> {
    let (win_base, loss_base, max) = if width == 1 { (1u32, 129u32, 255u32) } else { (1, 32_768, 65_535) };
    let code = match value {
        TbValue::Draw => 1,
        TbValue::Win(p) => win_base + u32::from(p).div_ceil(2),
        TbValue::Loss(p) => loss_base + u32::from(p) / 2,
    };
    let fits = match value {
        TbValue::Win(_) => code < loss_base,
        _ => code <= max,
    };
    fits.then_some(code as u16)
}

/// Decodes an entry (`None` for an unused slot).
#[inline]
pub(crate) fn decode(code: u16, width: usize) -> Option<TbValue> {
    let loss_base = if width == 1 { 129 } else { 32_768 };
    match code {
        UNUSED => None,
        DRAW_CODE => Some(TbValue::Draw),
        c if c < loss_base => Some(TbValue::Win(2 * (c - 1) - 1)),
        c => Some(TbValue::Loss(2 * (c - loss_base))),
    }
}

/// A solved ending: every position of its canonical colouring with either side to move.
pub struct Table {
    pub(crate) material: Material,
    pub(crate) layout: Layout,
    /// 1 or 2 bytes an entry.
    pub(crate) width: usize,
    /// White-to-move entries, then Black-to-move ones, `width` bytes each (little-endian).
    pub(crate) entries: Vec<u8>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Table({}, {} slots a side, {} byte(s) an entry)",
            self.material, self.layout.size, self.width
        )
    }
}

impl Table {
    /// The ending.
    pub fn material(&self) -> Material {
        self.material
    }

    /// Positions (slots) per side to move, unused ones included.
    pub fn size(&self) -> usize {
        self.layout.size
    }

    /// Bytes an entry: 1, or 2 where a mate is longer than 126 moves.
    pub fn width(&self) -> usize {
        self.width
    }

    #[inline]
    pub(crate) fn code(&self, slot: usize) -> u16 {
        if self.width == 1 {
            u16::from(self.entries[slot])
        } else {
            u16::from_le_bytes([self.entries[2 * slot], self.entries[2 * slot + 1]])
        }
    }

    /// The value of `board` (which must have this table's material, canonical colouring).
    #[inline]
    pub(crate) fn value(&self, board: &TbBoard) -> Option<TbValue> {
        let mut squares = [0 as Sq; MAX_PIECES];
        board.squares(&self.layout, &mut squares);
        let index = self.layout.index(&squares[..self.layout.pieces.len()]);
        let slot = index + if board.stm == Color::White { 0 } else { self.layout.size };
        decode(self.code(slot), self.width)
    }

    /// Counts of wins, draws and losses for the side to move (unused slots aside), and the longest
    /// mates in plies: a summary for reports and tests.
    pub fn stats(&self) -> TableStats {
        let mut s = TableStats::default();
        for slot in 0..2 * self.layout.size {
            match decode(self.code(slot), self.width) {
                None => {}
                Some(TbValue::Win(p)) => {
                    s.wins += 1;
                    s.longest_win = s.longest_win.max(p);
                }
                Some(TbValue::Loss(p)) => {
                    s.losses += 1;
                    s.longest_loss = s.longest_loss.max(p);
                }
                Some(TbValue::Draw) => s.draws += 1,
            }
        }
        s
    }
}

/// What a table holds (see [`Table::stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// The longest win of a side to move, in plies (a mate in m moves is 2m − 1 plies).
    pub longest_win: u16,
    /// The longest loss of a side to move, in plies.
    pub longest_loss: u16,
}

/// Solved tables by ending: what the solver reads a capture's or a promotion's value from, and what
/// a probe reads.
#[derive(Debug, Default, Clone)]
pub struct TableSet {
    tables: HashMap<Material, Arc<Table>, FnvBuildHasher>,
    max_pieces: usize,
}

impl TableSet {
    /// No tables.
    pub fn new() -> TableSet {
        TableSet::default()
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, table: Arc<Table>) {
        self.max_pieces = self.max_pieces.max(table.material.pieces());
        self.tables.insert(table.material, table);
    }

    /// The most pieces of any table in the set (0 when empty): positions with more are never probed.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// The number of tables.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// True without tables.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The table of `material` (either colouring), if present.
    pub fn get(&self, material: &Material) -> Option<&Arc<Table>> {
        self.tables.get(&material.canonical())
    }

    /// True if the table of `material` (either colouring) is present.
    pub fn contains(&self, material: &Material) -> bool {
        self.tables.contains_key(&material.canonical())
    }

    /// The endings present.
    pub fn materials(&self) -> Vec<Material> {
        let mut out: Vec<Material> = self.tables.keys().copied().collect();
        out.sort_by_key(|m| m.generation_key());
        out
    }

    /// The value of `board` (en passant aside), `Err(material)` if its table is missing. King
    /// against king, and an unused slot (cannot happen for a legal board), are draws.
    pub(crate) fn value(&self, board: &TbBoard) -> Result<TbValue, Material> {
        if board.occupied().count_ones() == 2 {
            return Ok(TbValue::Draw);
        }
        let material = board.material();
        let (table, board) = if material.is_canonical() {
            (self.tables.get(&material), *board)
        } else {
            (self.tables.get(&material.mirrored()), board.mirrored())
        };
        let table = table.ok_or(material)?;
        Ok(table.value(&board).unwrap_or(TbValue::Draw))
    }
}

impl TableSet {
    /// The exact value of `position` for its side to move, en passant included; `None` with castling
    /// rights, more pieces than [`MAX_PIECES`], or a missing table. King against king is a draw.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use camelpy_core::{tablebase::{solve, Material, TableSet, TbValue}, Position};
    ///
    /// let mut set = TableSet::new();
    /// let (krk, _) = solve(Material::parse("KRvK").unwrap(), &set, 2, &AtomicBool::new(false)).unwrap();
    /// set.insert(std::sync::Arc::new(krk));
    /// let position = Position::from_fen("8/8/8/8/8/8/8/K2kr3 w - - 0 1", false).unwrap();
    /// assert_eq!(set.probe(&position), Some(TbValue::Loss(10))); // python-chess's example: -10
    /// ```
    pub fn probe(&self, position: &crate::Position) -> Option<TbValue> {
        if position.castling_rights() != crate::CastlingRights::EMPTY
            || position.occupied().len() as usize > MAX_PIECES
        {
            return None;
        }
        let board = TbBoard::of(position);
        let mut value = self.value(&board).ok()?;
        if let Some(ep) = position.ep_square() {
            for after in board.ep_captures(ep as Sq) {
                let v = self.value(&after).ok()?.before_move();
                if v.rank() > value.rank() {
                    value = v;
                }
            }
        }
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for width in [1, 2] {
            let max_moves: u16 = if width == 1 { 127 } else { 30_000 };
            for m in 1..=max_moves {
                let win = TbValue::Win(2 * m - 1);
                assert_eq!(decode(encode(win, width).unwrap(), width), Some(win));
            }
            for m in 0..max_moves {
                let loss = TbValue::Loss(2 * m);
                assert_eq!(decode(encode(loss, width).unwrap(), width), Some(loss));
            }
            assert_eq!(decode(encode(TbValue::Draw, width).unwrap(), width), Some(TbValue::Draw));
        }
        assert_eq!(encode(TbValue::Win(2 * 128 - 1), 1), None);
        assert_eq!(encode(TbValue::Loss(2 * 127), 1), None);
        assert_eq!(decode(0, 1), None);
    }

    #[test]
    fn values_order_for_the_side_to_move() {
        let order = [TbValue::Loss(0), TbValue::Loss(8), TbValue::Draw, TbValue::Win(9), TbValue::Win(1)];
        for pair in order.windows(2) {
            assert!(pair[0].rank() < pair[1].rank());
        }
        assert_eq!(TbValue::Loss(0).before_move(), TbValue::Win(1));
        assert_eq!(TbValue::Win(3).before_move(), TbValue::Loss(4));
        assert_eq!((TbValue::Win(3).dtm(), TbValue::Loss(4).dtm(), TbValue::Loss(0).dtm()), (3, -4, 0));
    }
}
