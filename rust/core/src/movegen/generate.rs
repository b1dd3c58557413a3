//! Fully legal move generation, by kind: all moves, captures and promotions, or quiet moves.
//!
//! The generator never produces a move that leaves the king in check, so perft needs no make/unmake at
//! the last ply ("bulk counting"). It works on sets: the king's targets are tested one by one with the
//! king taken off the board; with two checkers only the king moves; with one, every other move must land
//! in `between(king, checker)` (block or capture); pinned pieces stay on the line through their king.
//! En passant is tested by replaying both pawn moves on the occupancy (which catches the horizontal pin
//! across two pawns), and castling checks the king's path and its final square with the final occupancy
//! (which catches a Chess960 rook that was shielding its king).
//!
//! Moves are emitted to a [`MoveSink`] as sets so that a counting sink adds popcounts instead of
//! enumerating moves.

use super::movelist::MoveList;
use crate::{
    attacks::{
        between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, line, pawn_attacks,
        queen_attacks, rook_attacks, rook_rays,
    },
    board::Position,
    types::{Bitboard, CastlingSide, Color, File, Move, PieceType, Rank, Square},
};

/// Which moves to generate; the search stages captures before quiet moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenKind {
    /// Every legal move.
    All,
    /// Captures (including en passant) and all promotions, capturing or not, under-promotions included.
    CapturesAndPromotions,
    /// Every other legal move: non-capturing, non-promoting moves, castling included.
    Quiets,
}

/// Receives generated moves as sets.
pub trait MoveSink {
    /// Normal moves of the piece on `from` to each square of `targets` (no pawn promotions here).
    fn moves(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to each square `t` of `targets` from `t - offset` (offset in squares, e.g. +8 for a
    /// white single push); `promotion` means each is four moves (queen, knight, rook, bishop).
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8, promotion: bool);
    /// One special move (en passant or castling).
    fn special(&mut self, mv: Move);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn moves(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8, promotion: bool) {
        for to in targets {
            let from = Square::ALL[(to as i8 - offset) as usize];
            if promotion {
                for pt in [PieceType::Queen, PieceType::Knight, PieceType::Rook, PieceType::Bishop] {
                    self.push(Move::new_promotion(from, to, pt));
                }
            } else {
                self.push(Move::new(from, to));
            }
        }
    }

    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// A sink that only counts moves (for perft's last ply and for "has any legal move").
#[derive(Debug, Default, Clone, Copy)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn moves(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.len() as u64;
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _offset: i8, promotion: bool) {
        self.0 += targets.len() as u64 * if promotion { 4 } else { 1 };
    }

    #[inline(always)]
    fn special(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;

impl Position {
    /// Emits the legal moves of `kind` to `sink`.
    #[inline]
    pub fn generate<S: MoveSink>(&self, kind: GenKind, sink: &mut S) {
        match kind {
            GenKind::All => self.gen::<ALL, true, S>(sink, Bitboard::EMPTY, Bitboard::FULL, Bitboard::EMPTY),
            GenKind::CapturesAndPromotions => {
                self.gen::<CAPTURES, true, S>(sink, Bitboard::EMPTY, Bitboard::FULL, Bitboard::EMPTY)
            }
            GenKind::Quiets => {
                self.gen::<QUIETS, true, S>(sink, Bitboard::EMPTY, Bitboard::FULL, Bitboard::EMPTY)
            }
        }
    }

    /// Emits every legal move to `sink`.
    #[inline]
    pub fn generate_legal<S: MoveSink>(&self, sink: &mut S) {
        self.gen::<ALL, true, S>(sink, Bitboard::EMPTY, Bitboard::FULL, Bitboard::EMPTY);
    }

    /// The number of legal moves (bulk count: no list is built).
    #[inline]
    pub fn count_legal(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.gen::<ALL, true, _>(&mut counter, Bitboard::EMPTY, Bitboard::FULL, Bitboard::EMPTY);
        counter.0
    }

    /// The number of legal moves other than those of the unpinned knights, bishops, rooks and queens,
    /// for a side not in check: perft's [`crate::perft`] leaf count adds theirs from the node above,
    /// where they were counted once for all the sibling positions. The king's squares in `king_safe` and
    /// not in `king_dirty` are known not to be attacked (the node above tested them and the move changed
    /// nothing they depend on); the others of the king's squares are tested here. Likewise a castling
    /// destination in `castle_known` and not in `king_dirty`: safe after castling if in `king_safe`.
    #[inline(always)]
    pub(crate) fn count_legal_fixed_pieces(
        &self,
        king_safe: Bitboard,
        king_dirty: Bitboard,
        castle_known: Bitboard,
    ) -> u64 {
        debug_assert!(self.s.checkers.is_empty());
        let mut counter = MoveCounter(0);
        self.gen::<ALL, false, _>(&mut counter, king_safe, king_dirty, castle_known);
        counter.0
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.count_legal() > 0
    }

    /// Without `FREE_PIECES` the unpinned knights, bishops, rooks and queens are left out. The king's
    /// squares in `king_dirty` are tested for attacks, those outside it are taken as safe if in
    /// `king_safe`; the same for the castling destinations in `castle_known` (every caller but perft's
    /// leaf count passes nothing known: `EMPTY`, `FULL`, `EMPTY`).
    #[inline(always)]
    fn gen<const KIND: u8, const FREE_PIECES: bool, S: MoveSink>(
        &self,
        sink: &mut S,
        king_safe: Bitboard,
        king_dirty: Bitboard,
        castle_known: Bitboard,
    ) {
        let us = self.s.side_to_move;
        let them = us.flip();
        let ours = self.colored(us);
        let theirs = self.colored(them);
        let occupied = ours | theirs;
        let king = self.king(us);
        // Squares a non-pawn piece may go to, by kind.
        let targets = match KIND {
            ALL => !ours,
            CAPTURES => theirs,
            _ => !occupied,
        };

        // King moves: each target tested with the king off the board (it must not hide behind itself).
        let without_king = occupied.without(king);
        let king_tested = king_attacks(king) & targets;
        let mut king_targets = king_tested & (king_safe | king_dirty);
        for to in king_tested & king_dirty {
            if self.king_danger(to, them, without_king) {
                king_targets = king_targets.without(to);
            }
        }
        if king_targets.any() {
            sink.moves(king, king_targets);
        }

        let checkers = self.s.checkers;
        if checkers.has_more_than_one() {
            return;
        }
        let check_mask = match checkers.first() {
            Some(checker) => between(king, checker),
            None => Bitboard::FULL,
        };
        let pinned = self.s.pinned;
        let piece_targets = targets & check_mask;

        if FREE_PIECES {
            for from in self.colored_pieces(us, PieceType::Knight) & !pinned {
                let to = knight_attacks(from) & piece_targets;
                if to.any() {
                    sink.moves(from, to);
                }
            }
            let queens = self.colored_pieces(us, PieceType::Queen);
            for from in (self.colored_pieces(us, PieceType::Bishop) | queens) & !pinned {
                let attacks = if queens.has(from) {
                    queen_attacks(from, occupied)
                } else {
                    bishop_attacks(from, occupied)
                };
                let to = attacks & piece_targets;
                if to.any() {
                    sink.moves(from, to);
                }
            }
            for from in self.colored_pieces(us, PieceType::Rook) & !pinned {
                let to = rook_attacks(from, occupied) & piece_targets;
                if to.any() {
                    sink.moves(from, to);
                }
            }
        }
        // Pinned sliders move along their pin line (never possible while in check).
        if checkers.is_empty() {
            let pinned_sliders =
                pinned & (ours & !self.pieces(PieceType::Pawn) & !self.pieces(PieceType::Knight));
            for from in pinned_sliders {
                let attacks = if self.pieces(PieceType::Bishop).has(from) {
                    bishop_attacks(from, occupied)
                } else if self.pieces(PieceType::Rook).has(from) {
                    rook_attacks(from, occupied)
                } else {
                    queen_attacks(from, occupied)
                };
                let to = attacks & piece_targets & line(king, from);
                if to.any() {
                    sink.moves(from, to);
                }
            }
        }

        self.gen_pawns::<KIND, S>(sink, check_mask);

        if KIND != CAPTURES && checkers.is_empty() && !self.s.castling.is_empty() {
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castling_rook(us, side) {
                    let must_be_empty = self.castling_empty[us as usize][side as usize];
                    if (must_be_empty & occupied).is_empty()
                        && self.castling_is_legal(
                            king,
                            rook,
                            side,
                            king_tested,
                            king_targets,
                            (castle_known & !king_dirty, king_safe),
                        )
                    {
                        sink.special(Move::new_castling(king, rook));
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn gen_pawns<const KIND: u8, S: MoveSink>(&self, sink: &mut S, check_mask: Bitboard) {
        let us = self.s.side_to_move;
        let them = us.flip();
        let pawns = self.colored_pieces(us, PieceType::Pawn);
        if pawns.is_empty() {
            return;
        }
        let theirs = self.colored(them);
        let empty = !self.occupied();
        let king = self.king(us);
        let last_rank = Bitboard::rank(Rank::Eighth.relative_to(us));
        let third_rank = Bitboard::rank(Rank::Third.relative_to(us));
        let not_a = !Bitboard::file(File::A);
        let not_h = !Bitboard::file(File::H);
        // Shifts towards the enemy: push, capture towards the a-file, capture towards the h-file.
        let (push, left, right): (i8, i8, i8) = match us {
            Color::White => (8, 7, 9),
            Color::Black => (-8, -9, -7),
        };
        let shift = |bb: Bitboard, by: i8| if by > 0 { Bitboard(bb.0 << by) } else { Bitboard(bb.0 >> -by) };

        let pinned = self.s.pinned & pawns;
        let free = pawns & !pinned;

        let want_quiet = KIND != CAPTURES;
        let want_captures = KIND != QUIETS;

        // Pushes.
        let single = shift(free, push) & empty;
        let double = shift(single & third_rank, push) & empty & check_mask;
        let single = single & check_mask;
        if want_captures {
            let promos = single & last_rank;
            if promos.any() {
                sink.pawn_moves(promos, push, true);
            }
        }
        if want_quiet {
            let quiet = single & !last_rank;
            if quiet.any() {
                sink.pawn_moves(quiet, push, false);
            }
            if double.any() {
                sink.pawn_moves(double, 2 * push, false);
            }
        }
        // Captures (and promotions by capture) are in the capture stage; quiet stage has none.
        if want_captures {
            let victims = theirs & check_mask;
            for (bb, offset) in [(shift(free & not_a, left), left), (shift(free & not_h, right), right)] {
                let caps = bb & victims;
                let promos = caps & last_rank;
                if promos.any() {
                    sink.pawn_moves(promos, offset, true);
                }
                let plain = caps & !last_rank;
                if plain.any() {
                    sink.pawn_moves(plain, offset, false);
                }
            }
        }

        // Pinned pawns move only along the line through their king (never while in check).
        if pinned.any() && self.s.checkers.is_empty() {
            for from in pinned {
                let allowed = line(king, from);
                let fb = from.bitboard();
                let one = shift(fb, push) & empty & allowed;
                if one.any() {
                    let promotion = (one & last_rank).any();
                    if (promotion && want_captures) || (!promotion && want_quiet) {
                        sink.pawn_moves(one, push, promotion);
                    }
                    let two = shift(one & third_rank, push) & empty;
                    if two.any() && want_quiet {
                        sink.pawn_moves(two, 2 * push, false);
                    }
                }
                if want_captures {
                    for (bb, offset) in [(shift(fb & not_a, left), left), (shift(fb & not_h, right), right)] {
                        let cap = bb & theirs & allowed;
                        if cap.any() {
                            sink.pawn_moves(cap, offset, (cap & last_rank).any());
                        }
                    }
                }
            }
        }

        if want_captures {
            if let Some(ep) = self.s.ep_square {
                for from in pawn_attacks(them, ep) & pawns {
                    if self.en_passant_is_legal(from, ep) {
                        sink.special(Move::new_en_passant(from, ep));
                    }
                }
            }
        }
    }

    /// True if `by` attacks `sq` with the board's occupancy replaced by `occupied` ([`Position::is_attacked`]
    /// for the king's squares): leapers first, then each slider kind only if one of `by`'s sliders of that
    /// kind stands on `sq`'s empty-board rays. Most king squares have none, and the skipped lookup is the
    /// one that misses the cache (the rook table is 800 KB): the king-move loop held about a quarter of the
    /// bulk count's samples before (perf, openings set).
    #[inline(always)]
    pub(crate) fn king_danger(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let theirs = self.colored(by);
        let queens = self.pieces(PieceType::Queen);
        let leapers = (knight_attacks(sq) & self.pieces(PieceType::Knight))
            | (king_attacks(sq) & self.pieces(PieceType::King))
            | (pawn_attacks(by.flip(), sq) & self.pieces(PieceType::Pawn));
        if (leapers & theirs).any() {
            return true;
        }
        let rooks = (self.pieces(PieceType::Rook) | queens) & theirs;
        if (rook_rays(sq) & rooks).any() && (rook_attacks(sq, occupied) & rooks).any() {
            return true;
        }
        let bishops = (self.pieces(PieceType::Bishop) | queens) & theirs;
        (bishop_rays(sq) & bishops).any() && (bishop_attacks(sq, occupied) & bishops).any()
    }

    /// True if the side to move (not in check, with the squares between king, rook and their destinations
    /// empty) may castle with `rook` towards `side`: no attacked square on the king's way.
    ///
    /// The king's path is judged with the king off the board, as its own moves are: a path square next to
    /// the king that the king-move loop tested (in `tested`) is safe if it stayed in `safe`, so in standard
    /// chess only the destination needs a test of its own. A destination in `known.0` is not tested: it is
    /// safe after castling if in `known.1` (perft's leaf count, from the node above).
    #[inline]
    pub(crate) fn castling_is_legal(
        &self,
        king: Square,
        rook: Square,
        side: CastlingSide,
        tested: Bitboard,
        safe: Bitboard,
        known: (Bitboard, Bitboard),
    ) -> bool {
        let us = self.s.side_to_move;
        let them = us.flip();
        let back = Rank::First.relative_to(us);
        let king_to = Square::new(side.king_file(), back);
        let occupied = self.occupied();
        // The king may not pass through an attacked square ...
        let without_king = occupied.without(king);
        let path = between(king, king_to).without(king_to);
        if (path & tested & !safe).any() {
            return false;
        }
        for sq in path & !tested {
            if self.king_danger(sq, them, without_king) {
                return false;
            }
        }
        // ... nor end in check, judged with both pieces on their new squares.
        if known.0.has(king_to) {
            return known.1.has(king_to);
        }
        !self.king_danger(king_to, them, self.occupied_after_castling(us, king, rook, side))
    }

    /// The occupancy after `us` castles with `rook` towards `side`.
    #[inline(always)]
    pub(crate) fn occupied_after_castling(
        &self,
        us: Color,
        king: Square,
        rook: Square,
        side: CastlingSide,
    ) -> Bitboard {
        let back = Rank::First.relative_to(us);
        let king_to = Square::new(side.king_file(), back);
        let rook_to = Square::new(side.rook_file(), back);
        (self.occupied() ^ king.bitboard() ^ rook.bitboard()) | king_to.bitboard() | rook_to.bitboard()
    }
}
