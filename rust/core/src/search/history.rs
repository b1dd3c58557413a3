//! Tables the search learns move ordering from, each documented by its indexing.

use crate::types::{Color, Move, Piece, Square, MAX_PLY};

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
        gravity(&mut self.0[color as usize][mv.from() as usize][mv.to() as usize], bonus);
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

/// `[ply][slot]`: the last two quiet moves that caused a cutoff at each ply (the "killer" heuristic),
/// for chess's moves by default and for the small games' (`camelpy-games`).
#[derive(Clone)]
pub struct Killers<M = Move>(Box<[[Option<M>; 2]]>);

impl<M: Copy + PartialEq> Killers<M> {
    /// Empty, for plies `0..=MAX_PLY`.
    pub fn new() -> Killers<M> {
        Killers(vec![[None; 2]; MAX_PLY as usize + 1].into_boxed_slice())
    }

    /// The killers at `ply`, most recent first.
    #[inline]
    pub fn get(&self, ply: usize) -> [Option<M>; 2] {
        self.0.get(ply).copied().unwrap_or([None; 2])
    }

    /// Records a cutoff by `mv` at `ply` (no duplicate; the older killer is pushed out).
    #[inline]
    pub fn add(&mut self, ply: usize, mv: M) {
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

impl<M: Copy + PartialEq> Default for Killers<M> {
    fn default() -> Killers<M> {
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
    pub fn get(&self, piece: Piece, to: Square) -> Option<Move> {
        self.0[piece as usize][to as usize]
    }

    /// Records `mv` as the counter to `(piece, to)`.
    #[inline]
    pub fn set(&mut self, piece: Piece, to: Square, mv: Move) {
        self.0[piece as usize][to as usize] = Some(mv);
    }
}

impl Default for CounterMoves {
    fn default() -> CounterMoves {
        CounterMoves::new()
    }
}

/// Adds `bonus` to `entry` with the gravity of [`ButterflyHistory::update`] (every history table's
/// update, the small games' too).
#[inline]
pub fn gravity(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let h = *entry as i32;
    *entry = (h + bonus - h * bonus.abs() / HISTORY_MAX) as i16;
}

/// `[piece][to]` scores of quiet moves, in the context of one earlier move (one row of a
/// [`ContinuationHistory`]).
pub type PieceToHistory = [[i16; 64]; 12];

/// `[piece that moved earlier][its destination][piece][to]`: how well a quiet move did when played
/// one ply (the reply) or two plies (the follow-up) after a given move, the "continuation" history.
/// The same table serves both distances.
/// The table is allocated at its first update, so a search that does not use it (its setting is off)
/// neither allocates nor clears 1.2 MB per thread and per batch position.
#[derive(Clone, Default)]
pub struct ContinuationHistory {
    rows: Vec<PieceToHistory>,
}

/// What every row reads as before the table exists.
static EMPTY_ROW: PieceToHistory = [[0; 64]; 12];

impl ContinuationHistory {
    /// All zeros (allocated when first updated).
    pub fn new() -> ContinuationHistory {
        ContinuationHistory { rows: Vec::new() }
    }

    /// The row for moves played after `(piece, to)`.
    #[inline]
    pub fn row(&self, piece: Piece, to: Square) -> &PieceToHistory {
        self.rows.get(piece as usize * 64 + to as usize).unwrap_or(&EMPTY_ROW)
    }

    /// Adds `bonus` to the score of `(piece, to)` after `(earlier_piece, earlier_to)`, with gravity.
    #[inline]
    pub fn update(&mut self, earlier: (Piece, Square), piece: Piece, to: Square, bonus: i32) {
        if self.rows.is_empty() {
            self.rows = vec![EMPTY_ROW; 12 * 64];
        }
        let row = &mut self.rows[earlier.0 as usize * 64 + earlier.1 as usize];
        gravity(&mut row[piece as usize][to as usize], bonus);
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.rows.fill(EMPTY_ROW);
    }
}

/// Entries per side of the [`CorrectionHistory`]: a power of two, indexed by a hash of the pawns.
pub const CORRECTION_ENTRIES: usize = 16_384;
/// A correction is stored in these units per centipawn (so small averages keep their precision).
pub const CORRECTION_GRAIN: i32 = 256;
/// The largest stored correction: 32 pawns, far beyond what a real eval error reaches.
const CORRECTION_MAX: i32 = 32 * 100 * CORRECTION_GRAIN / 4;
/// A new observation weighs at most this many 256ths against the running average (deep searches more).
const CORRECTION_WEIGHT_MAX: i32 = 16;

/// The slot of a pawn hash: its top bits, the best mixed.
#[inline]
fn correction_slot(pawn_hash: u64) -> usize {
    (pawn_hash >> (64 - CORRECTION_ENTRIES.trailing_zeros())) as usize
}

/// `[side to move][pawn hash]`: a running average of (search value − static eval), in
/// [`CORRECTION_GRAIN`]s of a centipawn, for positions with the same pawn structure: the evaluation's
/// systematic error there, learned while searching.
/// As the [`ContinuationHistory`], allocated at its first update.
#[derive(Clone, Default)]
pub struct CorrectionHistory {
    /// `[color * CORRECTION_ENTRIES + slot]`, empty until the first update.
    table: Vec<i32>,
}

impl CorrectionHistory {
    /// All zeros.
    pub fn new() -> CorrectionHistory {
        CorrectionHistory { table: Vec::new() }
    }

    /// The learned correction (in grains) for `pawn_hash` with `color` to move.
    #[inline]
    pub fn get(&self, color: Color, pawn_hash: u64) -> i32 {
        self.table.get(color as usize * CORRECTION_ENTRIES + correction_slot(pawn_hash)).copied().unwrap_or(0)
    }

    /// Moves the average towards `error` (centipawns) with a weight growing with `depth`.
    #[inline]
    pub fn update(&mut self, color: Color, pawn_hash: u64, error: i32, depth: i32) {
        if self.table.is_empty() {
            self.table = vec![0; 2 * CORRECTION_ENTRIES];
        }
        let entry = &mut self.table[color as usize * CORRECTION_ENTRIES + correction_slot(pawn_hash)];
        let weight = (depth + 1).clamp(1, CORRECTION_WEIGHT_MAX);
        let target = error.saturating_mul(CORRECTION_GRAIN);
        let blended = (*entry as i64 * (256 - weight) as i64 + target as i64 * weight as i64) / 256;
        *entry = blended.clamp(-CORRECTION_MAX as i64, CORRECTION_MAX as i64) as i32;
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

#[cfg(test)]
mod more_tests {
    use super::*;

    #[test]
    fn continuation_rows_are_separate_and_bounded() {
        let mut c = ContinuationHistory::new();
        let earlier = (Piece::WhiteKnight, Square::F3);
        for _ in 0..1000 {
            c.update(earlier, Piece::BlackPawn, Square::E5, 4000);
        }
        let v = c.row(earlier.0, earlier.1)[Piece::BlackPawn as usize][Square::E5 as usize] as i32;
        assert!(v <= HISTORY_MAX && v > HISTORY_MAX - 100);
        assert_eq!(c.row(Piece::WhiteKnight, Square::G3)[Piece::BlackPawn as usize][Square::E5 as usize], 0);
        c.clear();
        assert_eq!(c.row(earlier.0, earlier.1)[Piece::BlackPawn as usize][Square::E5 as usize], 0);
    }

    #[test]
    fn corrections_converge_towards_the_error_and_stay_bounded() {
        let mut c = CorrectionHistory::new();
        for _ in 0..2000 {
            c.update(Color::White, 12345 << 40, 40, 10);
        }
        assert!((c.get(Color::White, 12345 << 40) - 40 * CORRECTION_GRAIN).abs() <= CORRECTION_GRAIN);
        assert_eq!(c.get(Color::Black, 12345 << 40), 0);
        for _ in 0..2000 {
            c.update(Color::Black, 7, i32::MAX, 100);
        }
        assert!(c.get(Color::Black, 7) <= CORRECTION_MAX);
    }
}
