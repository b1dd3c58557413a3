//! The staged move picker: hands the search one legal move at a time, best-looking first, generating
//! each kind of move only when the previous stages did not cut off.
//!
//! # Contract of [`MovePicker::next_move`]
//! Every legal move of the position is returned exactly once, then `None`; no illegal move is ever
//! returned (the TT move, killers and counter-move are hints, used only if they are legal here).
//! The order is the stage order:
//!
//! | stage | moves | order within |
//! | --- | --- | --- |
//! | `TtMove` | the transposition-table move | — |
//! | `GoodCaptures` | captures and queen promotions that do not lose material (SEE ≥ 0) | most valuable victim, then least valuable attacker |
//! | `Killers` | the two killers, then the counter-move, if quiet and legal | as listed |
//! | `Quiets` | the other quiet moves | butterfly history, highest first |
//! | `BadCaptures` | captures losing material, under-promotions | as for good captures |
//!
//! A search that only wants captures (quiescence) builds the picker with `captures_only`.

use core::mem::MaybeUninit;

use super::history::{ButterflyHistory, PieceToHistory};
use crate::{
    board::{Position, SEE_VALUES},
    movegen::{GenKind, MoveList},
    types::{Move, MoveKind, PieceType},
};

/// Where the picker is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Return the TT move.
    TtMove,
    /// Generate and score captures and promotions.
    GenerateCaptures,
    /// Return captures that do not lose material, best first.
    GoodCaptures,
    /// Generate the quiet moves, return the killers and counter-move among them.
    Killers,
    /// Return the other quiet moves by history.
    Quiets,
    /// Return the deferred losing captures and under-promotions.
    BadCaptures,
    /// Nothing left.
    Done,
}

/// The staged move picker (contract in the module documentation).
pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    refutations: [Option<Move>; 3],
    captures_only: bool,
    moves: MoveList,
    /// `scores[i]` is `moves[i]`'s ordering score, written when its stage generates the moves (left
    /// uninitialised before, like the lists' slots: see [`MoveList`]).
    scores: [MaybeUninit<i32>; crate::movegen::MAX_MOVES],
    next: usize,
    bad: MoveList,
    bad_next: usize,
    refutation_next: usize,
}

impl MovePicker {
    /// A picker for `pos`. `killers` and `counter` are hints for quiet moves; with `captures_only`
    /// only captures and promotions are returned (and the hints are ignored).
    pub fn new(
        pos: &Position,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        captures_only: bool,
    ) -> MovePicker {
        let tt_move = tt_move.filter(|&m| pos.is_legal(m) && (!captures_only || is_tactical(pos, m)));
        MovePicker {
            stage: if tt_move.is_some() { Stage::TtMove } else { Stage::GenerateCaptures },
            tt_move,
            refutations: [killers[0], killers[1], counter],
            captures_only,
            moves: MoveList::new(),
            scores: [const { MaybeUninit::uninit() }; crate::movegen::MAX_MOVES],
            next: 0,
            bad: MoveList::new(),
            bad_next: 0,
            refutation_next: 0,
        }
    }

    /// The current stage.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The next move, or `None` when every legal move has been returned.
    pub fn next_move(&mut self, pos: &Position, history: &impl QuietScore) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateCaptures;
                    return self.tt_move;
                }
                Stage::GenerateCaptures => {
                    self.moves.clear();
                    pos.generate(GenKind::CapturesAndPromotions, &mut self.moves);
                    for i in 0..self.moves.len() {
                        self.scores[i].write(capture_score(pos, self.moves[i]));
                    }
                    self.next = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(mv) if Some(mv) == self.tt_move => {}
                    Some(mv) => {
                        let under_promotion = mv.promotion().is_some_and(|pt| pt != PieceType::Queen);
                        if under_promotion || !pos.see_ge(mv, 0) {
                            self.bad.push(mv);
                        } else {
                            return Some(mv);
                        }
                    }
                    None => {
                        self.stage = if self.captures_only { Stage::BadCaptures } else { Stage::Killers };
                        if self.stage == Stage::Killers {
                            self.moves.clear();
                            pos.generate(GenKind::Quiets, &mut self.moves);
                        }
                    }
                },
                Stage::Killers => {
                    while self.refutation_next < self.refutations.len() {
                        let candidate = self.refutations[self.refutation_next];
                        self.refutation_next += 1;
                        let Some(mv) = candidate else { continue };
                        let duplicate = Some(mv) == self.tt_move
                            || self.refutations[..self.refutation_next - 1].contains(&Some(mv));
                        if !duplicate && self.moves.contains(mv) {
                            return Some(mv);
                        }
                    }
                    for i in 0..self.moves.len() {
                        self.scores[i].write(history.score(pos, self.moves[i]));
                    }
                    self.next = 0;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match self.pick_best() {
                    Some(mv) if Some(mv) == self.tt_move || self.refutations.contains(&Some(mv)) => {}
                    Some(mv) => return Some(mv),
                    None => self.stage = Stage::BadCaptures,
                },
                Stage::BadCaptures => {
                    if self.bad_next < self.bad.len() {
                        self.bad_next += 1;
                        return Some(self.bad[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Removes and returns the highest-scored remaining move (selection sort: the search often cuts
    /// off after the first few, so sorting everything would be wasted).
    fn pick_best(&mut self) -> Option<Move> {
        let remaining = self.moves.len() - self.next;
        if remaining == 0 {
            return None;
        }
        // SAFETY: both stages that fill `moves` write `scores[..moves.len()]` before picking, and the swaps
        // below only permute written slots, so every score read here is initialised. Gain: with the
        // uninitialised move lists, +3.1 % bench nodes/s (see `MoveList`).
        let score = |i: usize| unsafe { self.scores[i].assume_init() };
        // The first of equal scores wins (generation order breaks ties).
        let mut best = self.next;
        let mut best_score = score(best);
        for i in self.next + 1..self.moves.len() {
            let s = score(i);
            if s > best_score {
                (best, best_score) = (i, s);
            }
        }
        self.moves.as_mut_slice().swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

/// How the `Quiets` stage orders quiet moves: higher first.
pub trait QuietScore {
    /// The ordering score of the quiet move `mv` in `pos`.
    fn score(&self, pos: &Position, mv: Move) -> i32;
}

impl QuietScore for ButterflyHistory {
    #[inline]
    fn score(&self, pos: &Position, mv: Move) -> i32 {
        self.get(pos.side_to_move(), mv)
    }
}

/// The butterfly score plus the continuation scores after the last move and after ours before it
/// (each row absent where there is no such move).
pub struct WithContinuations<'a> {
    /// The butterfly table.
    pub butterfly: &'a ButterflyHistory,
    /// The continuation rows of the moves one and two plies back.
    pub rows: [Option<&'a PieceToHistory>; 2],
}

impl QuietScore for WithContinuations<'_> {
    #[inline]
    fn score(&self, pos: &Position, mv: Move) -> i32 {
        let mut score = self.butterfly.get(pos.side_to_move(), mv);
        if self.rows == [None, None] {
            return score;
        }
        if let Some(piece) = pos.piece_on(mv.from()) {
            let to = mv.king_destination();
            for row in self.rows.into_iter().flatten() {
                score += row[piece as usize][to as usize] as i32;
            }
        }
        score
    }
}

/// A capture, en passant or promotion.
fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.kind() == MoveKind::EnPassant
        || mv.promotion().is_some()
        || (!mv.is_castling() && pos.colored(pos.side_to_move().flip()).has(mv.to()))
}

/// Most valuable victim first, then least valuable attacker; promotions add the new piece's value.
fn capture_score(pos: &Position, mv: Move) -> i32 {
    let victim = match mv.kind() {
        MoveKind::EnPassant => SEE_VALUES[PieceType::Pawn as usize],
        _ => pos.piece_on(mv.to()).map_or(0, |p| SEE_VALUES[p.piece_type() as usize]),
    };
    let promotion = mv.promotion().map_or(0, |pt| SEE_VALUES[pt as usize] - SEE_VALUES[0]);
    let attacker = pos.piece_on(mv.from()).map_or(0, |p| p.piece_type() as i32);
    (victim + promotion) * 8 - attacker
}

#[cfg(test)]
mod tests {
    use std::{collections::HashSet, fs, path::PathBuf};

    use super::*;
    use crate::perft::{parse_suite, perft};

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        /// A hint: usually a legal move, sometimes any 16-bit pattern (as a stale TT entry would be).
        fn hint(&mut self, legal: &MoveList) -> Option<Move> {
            match self.next() % 4 {
                0 => None,
                1 => Move::from_raw(self.next() as u16),
                _ if legal.is_empty() => None,
                _ => Some(legal[(self.next() % legal.len() as u64) as usize]),
            }
        }
    }

    /// Perft that walks the tree through the picker, checking the contract at every node.
    fn picker_perft(pos: &mut Position, depth: u32, rng: &mut Rng, history: &mut ButterflyHistory) -> u64 {
        if depth == 0 {
            return 1;
        }
        let legal = pos.legal_moves();
        let hints = [rng.hint(&legal), rng.hint(&legal), rng.hint(&legal), rng.hint(&legal)];
        let mut picker = MovePicker::new(pos, hints[0], [hints[1], hints[2]], hints[3], false);
        let mut seen = HashSet::new();
        let mut order = Vec::new();
        while let Some(mv) = picker.next_move(pos, history) {
            assert!(legal.contains(mv), "illegal {mv:?} from the picker in {}", pos.fen());
            assert!(seen.insert(mv.raw()), "{mv:?} returned twice in {}", pos.fen());
            order.push((mv, picker.stage()));
        }
        assert_eq!(seen.len(), legal.len(), "picker missed moves in {}", pos.fen());
        if let Some(tt) = hints[0].filter(|&m| legal.contains(m)) {
            assert_eq!(order[0].0, tt, "TT move first");
        }
        // Stages never go backwards.
        assert!(order.windows(2).all(|w| w[0].1 <= w[1].1));
        let mut nodes = 0;
        for (mv, _) in order {
            history.update(pos.side_to_move(), mv, (rng.next() % 2000) as i32 - 1000);
            pos.play_unchecked(mv);
            nodes += picker_perft(pos, depth - 1, rng, history);
            pos.undo_move();
        }
        nodes
    }

    #[test]
    fn perft_through_the_picker_equals_legal_perft() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../perft_suites/quick.epd");
        let mut rng = Rng(0xFEED);
        let mut history = ButterflyHistory::new();
        for line in parse_suite(&fs::read_to_string(path).unwrap()).unwrap() {
            let fen = &line.fen;
            let mut pos = Position::from_fen(fen, false).unwrap();
            let depth = if pos.count_legal() > 30 { 2 } else { 3 };
            assert_eq!(
                picker_perft(&mut pos, depth, &mut rng, &mut history),
                perft(&mut pos, depth),
                "{fen}"
            );
        }
    }

    #[test]
    fn stage_order() {
        // White: Qxd5 (queen takes a pawn defended by the e6 pawn: a bad capture), exd5 (good), quiets.
        let pos = Position::from_fen("4k3/8/4p3/3p4/4P3/8/8/3QK3 w - - 0 1", false).unwrap();
        let mut history = ButterflyHistory::new();
        let qd2 = pos.parse_uci("d1d2").unwrap();
        let kf2 = pos.parse_uci("e1f2").unwrap();
        history.update(crate::types::Color::White, kf2, 500);
        let mut picker = MovePicker::new(&pos, None, [Some(qd2), None], None, false);
        let order: Vec<String> =
            std::iter::from_fn(|| picker.next_move(&pos, &history)).map(|m| m.to_uci(false)).collect();
        assert_eq!(order[0], "e4d5", "good capture first");
        assert_eq!(order[1], "d1d2", "then the killer");
        assert_eq!(order[2], "e1f2", "then quiets by history");
        assert_eq!(order.last().unwrap(), "d1d5", "losing capture last");

        let mut captures = MovePicker::new(&pos, None, [Some(qd2), None], None, true);
        let tactical: Vec<Move> = std::iter::from_fn(|| captures.next_move(&pos, &history)).collect();
        assert_eq!(tactical.len(), 2, "captures only: exd5 and Qxd5");
    }
}
