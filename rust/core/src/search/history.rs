//! Tables the search learns move ordering from, each documented by its indexing.

use crate::types::{Color, Move, Piece, MAX_PLY};

/// Largest magnitude a history score reaches; updates shrink towards it ("gravity"), so old lessons
/// fade as new ones arrive and no score overflows.
pub const HISTORY_MAX: i32 = 16_384;

/// `[side to move][from][to]`: how often a quiet move caused a beta cutoff (positive) or failed to
/// (negative), the "butterfly" history.
#[derive(Clone)]
pub struct ButterflyHistory(Box<[[[i16; 64]; 64]; 2]>);

impl ButterflyHistory {
    /// All zeros.
    pub fn new() -> ButterflyHistory {
        ButterflyHistory(Box::new([[[0; 64]; 64]; 2]))
    }

    /// The score of `mv` for `color`.
    #[inline]
    pub fn get(&self, color: Color, mv: Move) -> i32 {
        self.0[color as usize][mv.from() as usize][mv.to() as usize] as i32
    }

    /// Adds `bonus` (clamped to ±`HISTORY_MAX`) with gravity: `h += bonus - h * |bonus| / HISTORY_MAX`,
    /// which keeps `|h| <= HISTORY_MAX`.
    #[inline]
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let entry = &mut self.0[color as usize][mv.from() as usize][mv.to() as usize];
        let h = *entry as i32;
        *entry = (h + bonus - h * bonus.abs() / HISTORY_MAX) as i16;
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = ButterflyHistory::new();
    }
}

impl Default for ButterflyHistory {
    fn default() -> ButterflyHistory {
        ButterflyHistory::new()
    }
}

/// `[ply][slot]`: the last two quiet moves that caused a cutoff at each ply (the "killer" heuristic).
#[derive(Clone)]
pub struct Killers(Box<[[Option<Move>; 2]]>);

impl Killers {
    /// Empty, for plies `0..=MAX_PLY`.
    pub fn new() -> Killers {
        Killers(vec![[None; 2]; MAX_PLY as usize + 1].into_boxed_slice())
    }

    /// The killers at `ply`, most recent first.
    #[inline]
    pub fn get(&self, ply: usize) -> [Option<Move>; 2] {
        self.0.get(ply).copied().unwrap_or([None; 2])
    }

    /// Records a cutoff by `mv` at `ply` (no duplicate; the older killer is pushed out).
    #[inline]
    pub fn add(&mut self, ply: usize, mv: Move) {
        if let Some(slot) = self.0.get_mut(ply) {
            if slot[0] != Some(mv) {
                slot[1] = slot[0];
                slot[0] = Some(mv);
            }
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.0.fill([None; 2]);
    }
}

impl Default for Killers {
    fn default() -> Killers {
        Killers::new()
    }
}

/// `[piece that moved last][its destination]`: the quiet move that refuted it last time.
#[derive(Clone)]
pub struct CounterMoves(Box<[[Option<Move>; 64]; 12]>);

impl CounterMoves {
    /// Empty.
    pub fn new() -> CounterMoves {
        CounterMoves(Box::new([[None; 64]; 12]))
    }

    /// The counter to the previous move `(piece, to)`.
    #[inline]
    pub fn get(&self, piece: Piece, to: crate::types::Square) -> Option<Move> {
        self.0[piece as usize][to as usize]
    }

    /// Records `mv` as the counter to `(piece, to)`.
    #[inline]
    pub fn set(&mut self, piece: Piece, to: crate::types::Square, mv: Move) {
        self.0[piece as usize][to as usize] = Some(mv);
    }
}

impl Default for CounterMoves {
    fn default() -> CounterMoves {
        CounterMoves::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;

    #[test]
    fn gravity_keeps_scores_bounded() {
        let mut h = ButterflyHistory::new();
        let mv = Move::new(Square::G1, Square::F3);
        for _ in 0..1000 {
            h.update(Color::White, mv, 5000);
        }
        assert!(h.get(Color::White, mv) <= HISTORY_MAX && h.get(Color::White, mv) > HISTORY_MAX - 100);
        for _ in 0..1000 {
            h.update(Color::White, mv, -HISTORY_MAX * 4);
        }
        assert!(h.get(Color::White, mv) >= -HISTORY_MAX);
        assert_eq!(h.get(Color::Black, mv), 0);
    }

    #[test]
    fn killers_shift_without_duplicates() {
        let mut k = Killers::new();
        let (a, b) = (Move::new(Square::A2, Square::A3), Move::new(Square::B2, Square::B3));
        k.add(3, a);
        k.add(3, a);
        k.add(3, b);
        assert_eq!(k.get(3), [Some(b), Some(a)]);
        assert_eq!(k.get(4), [None, None]);
        k.add(10_000, a); // beyond MAX_PLY: ignored
    }
}
