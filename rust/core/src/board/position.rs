//! `Position`: the full state of a game in progress, with make/unmake on an undo stack.
//!
//! Pieces are kept as bitboards only (by kind and by colour); "what stands on this square" is answered
//! from them. The whole mutable state is one small `Copy` struct ([`BoardState`], 112 bytes); each move
//! pushes the previous state on the undo stack, as Stockfish's `StateInfo` chain does, so
//! [`Position::undo_move`] restores it exactly with one copy. (Measured: restoring by copy made perft 6
//! from the start position about 8% faster than reversing the move piece by piece, and dropping a 64-byte
//! mailbox from the copied state another ~10%, README "Speed".)
//!
//! Invariants (checked by [`Position::check_consistency`] in debug builds and tests): the colour sets
//! are disjoint and their union equals the union of the kind sets, which are disjoint; each side has exactly one king; `key` equals the full recompute; `checkers` and
//! `pinned` describe the side to move; `ep_square` is set only when an en-passant capture is legal.

use super::zobrist::KEYS;
use crate::{
    attacks::{
        between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
        rook_rays,
    },
    types::{Bitboard, CastlingRights, CastlingSide, Color, Move, MoveKind, Piece, PieceType, Rank, Square},
};

/// Everything a move changes: the board and the game state. `Copy`, so the undo stack holds whole states.
///
/// Aligned to 64 bytes (its 104 bytes of fields padded to 128): make copies the state to the undo stack
/// and unmake copies it back, and at 104 bytes the compiler copied it as two overlapping 64-byte halves
/// (bytes 0-63 and 40-103), so the next make's load of a half spanned both of unmake's stores and could
/// not be forwarded from the store buffer (perf: about half of `play_unchecked`'s samples on that copy).
/// Two aligned, disjoint halves forward.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(align(64))]
pub(crate) struct BoardState {
    pub(crate) by_type: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) side_to_move: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove_clock: u32,
    pub(crate) fullmove_number: u32,
    pub(crate) key: u64,
    /// Enemy pieces giving check to the side to move.
    pub(crate) checkers: Bitboard,
    /// Pieces of the side to move pinned to their own king.
    pub(crate) pinned: Bitboard,
}

// Small enough to copy inline on every make and unmake (no `memcpy` call), as two 64-byte halves.
const _: () = assert!(core::mem::size_of::<BoardState>() == 128);

/// One entry of the undo stack: the state before the move, and the move (`None` for a null move).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Undo {
    pub(crate) state: BoardState,
    pub(crate) mv: Option<Move>,
}

/// What a move by the side to move must touch to change the other side's checkers and pins, for
/// perft's last make ([`Position::apply_generated`]). Only a slider of the mover's side on one of the
/// other king's lines of its kind (a sniper) can pin or check along a line, so a move that neither
/// leaves nor enters a sniper's square or a square between it and the king, and that puts no bishop,
/// rook or queen on the king's lines of its kind, keeps the pins as they were and checks only by the
/// moved piece's step (a knight's or a pawn's).
pub(crate) struct CheckWatch {
    /// The other side's king.
    pub(crate) king: Square,
    /// The snipers' squares and the squares between each and the king (whatever stands there).
    pub(crate) lines: Bitboard,
    /// The king's empty-board diagonals.
    pub(crate) bishop_rays: Bitboard,
    /// The king's empty-board rank and file.
    pub(crate) rook_rays: Bitboard,
    /// The other side's pinned pieces in this position.
    pub(crate) pinned: Bitboard,
}

impl CheckWatch {
    /// The watch for the moves of the side to move in `pos`, whose other side has `pinned` pinned.
    #[inline(always)]
    pub(crate) fn new(pos: &Position, pinned: Bitboard) -> CheckWatch {
        let us = pos.side_to_move();
        let king = pos.king(us.flip());
        let queens = pos.pieces(PieceType::Queen);
        let bishop_rays = bishop_rays(king);
        let rook_rays = rook_rays(king);
        let snipers = ((rook_rays & (pos.pieces(PieceType::Rook) | queens))
            | (bishop_rays & (pos.pieces(PieceType::Bishop) | queens)))
            & pos.colored(us);
        let mut lines = snipers;
        for sniper in snipers {
            lines |= between(king, sniper);
        }
        CheckWatch { king, lines, bishop_rays, rook_rays, pinned }
    }
}

/// A chess position with its history of moves since it was set up.
#[derive(Clone)]
pub struct Position {
    pub(crate) s: BoardState,
    /// For each square, the castling rights (bits as in `CastlingRights::mask`) lost when a move leaves
    /// or lands on it: the castling rooks' and kings' starting squares. Fixed when the position is set up.
    pub(crate) castling_masks: [u8; 64],
    /// For each colour and side, the squares that must be empty to castle (between king and its
    /// destination, rook and its destination, the two movers excepted). Fixed at set-up.
    pub(crate) castling_empty: [[Bitboard; 2]; 2],
    pub(crate) chess960: bool,
    pub(crate) history: Vec<Undo>,
}

impl Position {
    /// An empty board: the starting point for the FEN parser, not a legal position.
    pub(crate) fn empty(chess960: bool) -> Position {
        Position {
            s: BoardState {
                by_type: [Bitboard::EMPTY; 6],
                by_color: [Bitboard::EMPTY; 2],
                side_to_move: Color::White,
                castling: CastlingRights::EMPTY,
                ep_square: None,
                halfmove_clock: 0,
                fullmove_number: 1,
                key: 0,
                checkers: Bitboard::EMPTY,
                pinned: Bitboard::EMPTY,
            },
            castling_masks: [0; 64],
            castling_empty: [[Bitboard::EMPTY; 2]; 2],
            chess960,
            history: Vec::new(),
        }
    }

    /// The position with `pieces` on the board, `turn` to move, no castling rights or en passant:
    /// the tablebase checker's way in, validated as a FEN is (`PositionError` if it cannot occur).
    pub(crate) fn from_pieces(
        pieces: &[(Piece, Square)],
        turn: Color,
    ) -> Result<Position, crate::error::PositionError> {
        use crate::error::PositionError;
        let mut pos = Position::empty(false);
        for &(piece, sq) in pieces {
            pos.put_piece(piece, sq);
        }
        pos.s.side_to_move = turn;
        for color in Color::ALL {
            match pos.colored_pieces(color, PieceType::King).len() {
                0 => return Err(PositionError::MissingKing(color)),
                1 => {}
                _ => return Err(PositionError::TooManyKings(color)),
            }
        }
        super::validate::validate(&pos, None)?;
        pos.init_castling_masks();
        pos.s.key = pos.compute_key();
        pos.update_check_info();
        Ok(pos)
    }

    /// A copy without the move history (no allocation): a scratch board for perft's last makes.
    pub(crate) fn without_history(&self) -> Position {
        Position {
            s: self.s,
            castling_masks: self.castling_masks,
            castling_empty: self.castling_empty,
            chess960: self.chess960,
            history: Vec::new(),
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(super::fen::STARTING_FEN, false).expect("the starting FEN is valid")
    }

    // ----- Queries ---------------------------------------------------------------------------------

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        let color = if self.s.by_color[0].has(sq) {
            Color::White
        } else if self.s.by_color[1].has(sq) {
            Color::Black
        } else {
            return None;
        };
        Some(Piece::new(color, self.piece_type_on_occupied(sq)))
    }

    /// The kind of the piece on `sq`, which must be occupied (answers `King` otherwise).
    ///
    /// Without branches: the square's bit in each kind's set, weighted so that the one set holding it
    /// gives its distance from the king's index, read back through a table. The chain of five tests it
    /// replaced mispredicted on the mixed pieces that make/unmake moves (perft, "Move generation").
    #[inline(always)]
    pub(crate) fn piece_type_on_occupied(&self, sq: Square) -> PieceType {
        /// `KINDS[5 - kind]` is the kind; the other entries are never read on a valid board.
        const KINDS: [PieceType; 16] = {
            let mut kinds = [PieceType::King; 16];
            let mut i = 0;
            while i < 6 {
                kinds[5 - i] = PieceType::ALL[i];
                i += 1;
            }
            kinds
        };
        let t = &self.s.by_type;
        let bit = |pt: PieceType| (t[pt as usize].0 >> sq as u32) & 1;
        let weight = 5 * bit(PieceType::Pawn)
            + 4 * bit(PieceType::Knight)
            + 3 * bit(PieceType::Bishop)
            + 2 * bit(PieceType::Rook)
            + bit(PieceType::Queen);
        KINDS[(weight & 15) as usize]
    }

    /// All pieces of kind `pt`, both colours.
    #[inline(always)]
    pub fn pieces(&self, pt: PieceType) -> Bitboard {
        self.s.by_type[pt as usize]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn colored(&self, color: Color) -> Bitboard {
        self.s.by_color[color as usize]
    }

    /// Pieces of `color` and kind `pt`.
    #[inline(always)]
    pub fn colored_pieces(&self, color: Color, pt: PieceType) -> Bitboard {
        self.s.by_color[color as usize] & self.s.by_type[pt as usize]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.s.by_color[0] | self.s.by_color[1]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.colored_pieces(color, PieceType::King).lsb()
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.s.side_to_move
    }

    /// Castling rights.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.s.castling
    }

    /// The en-passant square, set only when an en-passant capture is legal (as python-chess's
    /// `fen(en_passant="legal")`).
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.s.ep_square
    }

    /// Half-moves since the last capture or pawn move (the fifty-move rule counter).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.s.halfmove_clock
    }

    /// The move number, starting at 1 and incremented after Black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.s.fullmove_number
    }

    /// The Zobrist key, updated incrementally by make/unmake.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.s.key
    }

    /// The key of the position after `mv`, a pseudo-legal move of the side to move, as far as the moving
    /// and captured pieces, the side to move and the en-passant file it ends decide it: a castling right
    /// it changes, an en-passant file it opens, the pawn an en-passant capture takes and the rook of a
    /// castling are left out. A guess at where the next position's table entry lives, cheap enough to
    /// make before the move (the search prefetches that entry); never a key to store.
    #[inline(always)]
    pub fn key_after(&self, mv: Move) -> u64 {
        let us = self.s.side_to_move;
        let (from, to) = (mv.from(), mv.to());
        let piece = Piece::new(us, self.piece_type_on_occupied(from));
        let mut key = self.key_after_null() ^ KEYS.piece(piece, from);
        if mv.kind() != MoveKind::Castling && self.colored(us.flip()).has(to) {
            key ^= KEYS.piece(Piece::new(us.flip(), self.piece_type_on_occupied(to)), to);
        }
        let arrives = match mv.kind() {
            MoveKind::Promotion => Piece::new(us, mv.promotion().unwrap_or(PieceType::Queen)),
            _ => piece,
        };
        key ^ KEYS.piece(arrives, to)
    }

    /// The key of the position after a null move (exactly [`Position::play_null`]'s).
    #[inline(always)]
    pub fn key_after_null(&self) -> u64 {
        let ep = self.s.ep_square.map_or(0, |ep| KEYS.en_passant(ep.file() as usize));
        self.s.key ^ KEYS.black_to_move() ^ ep
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.s.checkers
    }

    /// True if the side to move is in check.
    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.s.checkers.any()
    }

    /// Pieces of the side to move that are pinned to their king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.s.pinned
    }

    /// True if castling is written king-takes-rook (`e1h1`) and FENs use X-FEN/Shredder letters as needed.
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The moves played since the position was set up, oldest first (`None` for a null move).
    pub fn moves_played(&self) -> impl ExactSizeIterator<Item = Option<Move>> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// The last move played, `None` at the root of the history or after a null move. Constant time,
    /// unlike `moves_played().last()`, which walks the whole game (the search asks at every node).
    #[inline(always)]
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().and_then(|u| u.mv)
    }

    /// The number of moves (including null moves) that [`Position::undo_move`] can take back.
    #[inline(always)]
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The keys of the earlier positions, oldest first (for repetition detection).
    pub fn key_history(&self) -> impl DoubleEndedIterator<Item = u64> + ExactSizeIterator + '_ {
        self.history.iter().map(|u| u.state.key)
    }

    /// The square of `color`'s rook that may castle to `side`, if the right exists.
    #[inline(always)]
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        let file = self.s.castling.get(color, side)?;
        Some(Square::new(file, Rank::First.relative_to(color)))
    }

    /// Pieces of `by` that attack `sq` when the board's occupancy is `occupied`.
    #[inline(always)]
    pub fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let them = self.colored(by);
        let queens = self.pieces(PieceType::Queen);
        ((knight_attacks(sq) & self.pieces(PieceType::Knight))
            | (king_attacks(sq) & self.pieces(PieceType::King))
            | (pawn_attacks(by.flip(), sq) & self.pieces(PieceType::Pawn))
            | (rook_attacks(sq, occupied) & (self.pieces(PieceType::Rook) | queens))
            | (bishop_attacks(sq, occupied) & (self.pieces(PieceType::Bishop) | queens)))
            & them
    }

    /// Pieces of both colours that attack `sq` when the board's occupancy is `occupied`: one pass over
    /// the piece sets instead of two calls to [`Position::attackers`] (exchange evaluation needs both).
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let queens = self.pieces(PieceType::Queen);
        let pawns = self.pieces(PieceType::Pawn);
        (knight_attacks(sq) & self.pieces(PieceType::Knight))
            | (king_attacks(sq) & self.pieces(PieceType::King))
            | (pawn_attacks(Color::Black, sq) & pawns & self.colored(Color::White))
            | (pawn_attacks(Color::White, sq) & pawns & self.colored(Color::Black))
            | (rook_attacks(sq, occupied) & (self.pieces(PieceType::Rook) | queens))
            | (bishop_attacks(sq, occupied) & (self.pieces(PieceType::Bishop) | queens))
    }

    /// True if `by` attacks `sq` with the board's occupancy replaced by `occupied`.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        self.attackers(sq, by, occupied).any()
    }

    // ----- Derived state ---------------------------------------------------------------------------

    /// The key recomputed from scratch (the reference for the incremental key).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            key ^= KEYS.piece(self.piece_on(sq).expect("occupied square has a piece"), sq);
        }
        key ^= KEYS.castling(self.s.castling.mask());
        if let Some(ep) = self.s.ep_square {
            key ^= KEYS.en_passant(ep.file() as usize);
        }
        if self.s.side_to_move == Color::Black {
            key ^= KEYS.black_to_move();
        }
        key
    }

    /// Recomputes checkers and pins for the side to move. The enemy sliders come from the empty-board
    /// rays through the king (table reads, no slider lookup): with no piece between one and the king it
    /// gives check, with exactly one of ours between it pins that piece. Knights and pawns check from
    /// their attack squares; a king never does.
    #[inline(always)]
    pub(crate) fn update_check_info(&mut self) {
        (self.s.checkers, self.s.pinned) = self.check_info(self.s.side_to_move);
    }

    /// The enemy pieces giving check to `us`'s king, and `us`'s pieces pinned to it (for either side:
    /// perft's leaf count asks for the side not to move, [`Position::update_check_info`] for the other).
    #[inline(always)]
    pub(crate) fn check_info(&self, us: Color) -> (Bitboard, Bitboard) {
        let (checkers, blockers) = self.checkers_and_blockers(us);
        (checkers, blockers & self.colored(us))
    }

    /// The enemy pieces giving check to `us`'s king, and the pieces of either side that alone stand
    /// between that king and an enemy slider on its line (`us`'s are pinned; the enemy's, moving off the
    /// line, give a discovered check: [`Position::check_squares`]).
    #[inline(always)]
    pub(crate) fn checkers_and_blockers(&self, us: Color) -> (Bitboard, Bitboard) {
        let them = us.flip();
        let king = self.king(us);
        let occupied = self.occupied();
        let theirs = self.colored(them);
        let queens = self.pieces(PieceType::Queen);
        let mut checkers = ((knight_attacks(king) & self.pieces(PieceType::Knight))
            | (pawn_attacks(us, king) & self.pieces(PieceType::Pawn)))
            & theirs;
        let snipers = ((rook_rays(king) & (self.pieces(PieceType::Rook) | queens))
            | (bishop_rays(king) & (self.pieces(PieceType::Bishop) | queens)))
            & theirs;
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let inside = (between(king, sniper) & occupied).without(sniper);
            if inside.is_empty() {
                checkers |= sniper.bitboard();
            } else if !inside.has_more_than_one() {
                blockers |= inside;
            }
        }
        (checkers, blockers)
    }

    /// True if the side to move can legally take en passant on `ep` with the pawn on `from`: the king
    /// must not be attacked once both pawns have moved (this covers the horizontal pin across both pawns).
    #[inline]
    pub(crate) fn en_passant_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.s.side_to_move;
        let them = us.flip();
        let captured = Square::new(ep.file(), from.rank());
        let occupied = (self.occupied() ^ from.bitboard() ^ captured.bitboard()) | ep.bitboard();
        let king = self.king(us);
        let queens = self.colored_pieces(them, PieceType::Queen);
        let attackers = (rook_attacks(king, occupied)
            & (self.colored_pieces(them, PieceType::Rook) | queens))
            | (bishop_attacks(king, occupied) & (self.colored_pieces(them, PieceType::Bishop) | queens))
            | (knight_attacks(king) & self.colored_pieces(them, PieceType::Knight))
            | (pawn_attacks(us, king) & self.colored_pieces(them, PieceType::Pawn).without(captured));
        attackers.is_empty()
    }

    /// Sets `ep_square` to `candidate` if the side to move has a legal en-passant capture there.
    #[inline]
    pub(crate) fn set_ep_if_capturable(&mut self, candidate: Square) {
        let us = self.s.side_to_move;
        let capturers = pawn_attacks(us.flip(), candidate) & self.colored_pieces(us, PieceType::Pawn);
        if capturers.is_empty() {
            return;
        }
        if Iterator::any(&mut { capturers }, |from| self.en_passant_is_legal(from, candidate)) {
            self.s.ep_square = Some(candidate);
            self.s.key ^= KEYS.en_passant(candidate.file() as usize);
        }
    }

    // ----- Piece placement -------------------------------------------------------------------------

    #[inline(always)]
    pub(crate) fn put_piece(&mut self, piece: Piece, sq: Square) {
        let bb = sq.bitboard();
        self.s.by_type[piece.piece_type() as usize] |= bb;
        self.s.by_color[piece.color() as usize] |= bb;
    }

    #[inline(always)]
    fn remove_piece(&mut self, piece: Piece, sq: Square) {
        let bb = sq.bitboard();
        self.s.by_type[piece.piece_type() as usize] ^= bb;
        self.s.by_color[piece.color() as usize] ^= bb;
    }

    #[inline(always)]
    fn move_piece(&mut self, piece: Piece, from: Square, to: Square) {
        let bb = from.bitboard() | to.bitboard();
        self.s.by_type[piece.piece_type() as usize] ^= bb;
        self.s.by_color[piece.color() as usize] ^= bb;
    }

    // ----- Make / unmake ---------------------------------------------------------------------------

    /// Plays `mv`, which must be legal in this position (as generated by the move generator or checked
    /// with [`Position::is_legal`]). This is the search's entry point: an illegal move corrupts the
    /// position (debug builds assert). Use [`Position::try_play`] for untrusted input.
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?} in {}", self.fen());
        self.history.push(Undo { state: self.s, mv: Some(mv) });
        self.apply_move::<true>(mv);
        #[cfg(debug_assertions)]
        self.check_consistency();
    }

    /// Plays `mv` on the state without the undo stack. With `FULL`, everything as
    /// [`Position::play_unchecked`] does; without, only what the move generator reads (the board, side to
    /// move, castling rights, en passant, checkers and pins): the key and the clocks are left stale, for
    /// perft's last make, whose caller counts the moves and puts the saved state back ([`crate::perft`]).
    #[inline(always)]
    pub(crate) fn apply_move<const FULL: bool>(&mut self, mv: Move) {
        let us = self.s.side_to_move;
        let from = mv.from();
        let to = mv.to();
        let piece = Piece::new(us, self.piece_type_on_occupied(from));
        let captured = match mv.kind() {
            MoveKind::Castling => None,
            MoveKind::EnPassant => Some(Piece::new(us.flip(), PieceType::Pawn)),
            _ if self.colored(us.flip()).has(to) => {
                Some(Piece::new(us.flip(), self.piece_type_on_occupied(to)))
            }
            _ => None,
        };

        let mut key = self.s.key ^ KEYS.black_to_move();
        if let Some(ep) = self.s.ep_square.take() {
            key ^= KEYS.en_passant(ep.file() as usize);
        }
        if FULL {
            self.s.halfmove_clock = self.s.halfmove_clock.saturating_add(1);
            if us == Color::Black {
                self.s.fullmove_number = self.s.fullmove_number.saturating_add(1);
            }
        }
        let mut double_push_ep = None;

        match mv.kind() {
            MoveKind::Normal => {
                if let Some(victim) = captured {
                    self.remove_piece(victim, to);
                    key ^= KEYS.piece(victim, to);
                    self.s.halfmove_clock = 0;
                }
                self.move_piece(piece, from, to);
                key ^= KEYS.piece(piece, from) ^ KEYS.piece(piece, to);
                if piece.piece_type() == PieceType::Pawn {
                    self.s.halfmove_clock = 0;
                    if (to as u8).abs_diff(from as u8) == 16 {
                        double_push_ep = Some(Square::ALL[(from as usize + to as usize) / 2]);
                    }
                }
            }
            MoveKind::Promotion => {
                if let Some(victim) = captured {
                    self.remove_piece(victim, to);
                    key ^= KEYS.piece(victim, to);
                }
                let promoted = Piece::new(us, mv.promotion().unwrap_or(PieceType::Queen));
                self.remove_piece(piece, from);
                self.put_piece(promoted, to);
                key ^= KEYS.piece(piece, from) ^ KEYS.piece(promoted, to);
                self.s.halfmove_clock = 0;
            }
            MoveKind::EnPassant => {
                let victim_sq = Square::new(to.file(), from.rank());
                let victim = Piece::new(us.flip(), PieceType::Pawn);
                self.remove_piece(victim, victim_sq);
                self.move_piece(piece, from, to);
                key ^= KEYS.piece(victim, victim_sq) ^ KEYS.piece(piece, from) ^ KEYS.piece(piece, to);
                self.s.halfmove_clock = 0;
            }
            MoveKind::Castling => {
                let rook = Piece::new(us, PieceType::Rook);
                let (king_to, rook_to) = castling_destinations(mv);
                self.remove_piece(piece, from);
                self.remove_piece(rook, to);
                self.put_piece(piece, king_to);
                self.put_piece(rook, rook_to);
                key ^= KEYS.piece(piece, from) ^ KEYS.piece(piece, king_to);
                key ^= KEYS.piece(rook, to) ^ KEYS.piece(rook, rook_to);
            }
        }

        let lost = self.castling_masks[from as usize] | self.castling_masks[to as usize];
        let old = self.s.castling.mask();
        if old & lost as usize != 0 {
            self.s.castling.remove_mask(lost);
            key ^= KEYS.castling(old) ^ KEYS.castling(self.s.castling.mask());
        }

        self.s.side_to_move = us.flip();
        if FULL {
            self.s.key = key;
        }
        if let Some(ep) = double_push_ep {
            self.set_ep_if_capturable(ep);
        }
        self.update_check_info();
    }

    /// Perft's last make for a move generated as a piece's target (not castling or en passant): the
    /// `moved` piece from `from` to `to`, where it becomes `placed` (the same kind, or a promotion),
    /// on the state without the undo stack, key or clocks, as [`Position::apply_move`] without `FULL`.
    /// The caller knows the kind from the generator, so there is no move to decode and no lookup of the
    /// mover's kind. The checkers and pins of the side that moves next are taken from the parent where the
    /// move cannot change them ([`CheckWatch`]); otherwise they are recomputed.
    #[inline(always)]
    pub(crate) fn apply_generated(
        &mut self,
        moved: PieceType,
        from: Square,
        to: Square,
        placed: PieceType,
        watch: &CheckWatch,
    ) {
        let us = self.s.side_to_move;
        let them = us.flip();
        let to_bb = to.bitboard();
        if self.s.by_color[them as usize].has(to) {
            let victim = self.piece_type_on_occupied(to);
            self.s.by_type[victim as usize] ^= to_bb;
            self.s.by_color[them as usize] ^= to_bb;
        }
        self.s.by_type[moved as usize] ^= from.bitboard();
        self.s.by_type[placed as usize] ^= to_bb;
        self.s.by_color[us as usize] ^= from.bitboard() | to_bb;
        let lost = self.castling_masks[from as usize] | self.castling_masks[to as usize];
        if self.s.castling.mask() & lost as usize != 0 {
            self.s.castling.remove_mask(lost);
        }
        self.s.ep_square = None;
        self.s.side_to_move = them;
        if moved == PieceType::Pawn && (to as u8).abs_diff(from as u8) == 16 {
            self.set_ep_if_capturable(Square::ALL[(from as usize + to as usize) / 2]);
        }
        let slider_rays = match placed {
            PieceType::Bishop => watch.bishop_rays,
            PieceType::Rook => watch.rook_rays,
            PieceType::Queen => watch.bishop_rays | watch.rook_rays,
            _ => Bitboard::EMPTY,
        };
        if ((from.bitboard() | to_bb) & watch.lines).any() || (to_bb & slider_rays).any() {
            self.update_check_info();
        } else {
            self.s.checkers = match placed {
                PieceType::Knight => knight_attacks(watch.king) & to_bb,
                PieceType::Pawn => pawn_attacks(them, watch.king) & to_bb,
                _ => Bitboard::EMPTY,
            };
            self.s.pinned = watch.pinned;
        }
        debug_assert_eq!((self.s.checkers, self.s.pinned), self.check_info(them));
    }

    /// Fills `castling_masks` from the current castling rights and king squares (called once at set-up).
    pub(crate) fn init_castling_masks(&mut self) {
        self.castling_masks = [0; 64];
        self.castling_empty = [[Bitboard::EMPTY; 2]; 2];
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castling_rook(color, side) {
                    let bit = 1u8 << (2 * color as u8 + side as u8);
                    self.castling_masks[rook as usize] |= bit;
                    let king = self.king(color);
                    self.castling_masks[king as usize] |= bit;
                    let back = Rank::First.relative_to(color);
                    let king_to = Square::new(side.king_file(), back);
                    let rook_to = Square::new(side.rook_file(), back);
                    self.castling_empty[color as usize][side as usize] = (between(king, king_to)
                        | between(rook, rook_to))
                        & !(king.bitboard() | rook.bitboard());
                }
            }
        }
    }

    /// Takes back the last move (or null move). Returns it, or `None` if there is nothing to take back.
    #[inline]
    pub fn undo_move(&mut self) -> Option<Option<Move>> {
        let undo = self.history.pop()?;
        self.s = undo.state;
        Some(undo.mv)
    }

    /// Passes the turn (a "null move", for null-move pruning). Not allowed while in check.
    pub fn play_null(&mut self) {
        debug_assert!(!self.is_check(), "null move while in check");
        self.history.push(Undo { state: self.s, mv: None });
        if let Some(ep) = self.s.ep_square.take() {
            self.s.key ^= KEYS.en_passant(ep.file() as usize);
        }
        self.s.key ^= KEYS.black_to_move();
        self.s.halfmove_clock = self.s.halfmove_clock.saturating_add(1);
        if self.s.side_to_move == Color::Black {
            self.s.fullmove_number = self.s.fullmove_number.saturating_add(1);
        }
        self.s.side_to_move = self.s.side_to_move.flip();
        self.update_check_info();
    }

    /// Checks the internal invariants (disjoint piece sets, one king each, key, check info); panics with
    /// a description on failure. Called after every make in debug builds.
    pub fn check_consistency(&self) {
        let [white, black] = self.s.by_color;
        assert!((white & black).is_empty(), "a square holds pieces of both colours");
        let mut union = Bitboard::EMPTY;
        for bb in self.s.by_type {
            assert!((union & bb).is_empty(), "a square holds two kinds of piece");
            union |= bb;
        }
        assert_eq!(union, white | black, "kind sets and colour sets disagree");
        for color in Color::ALL {
            assert_eq!(self.colored_pieces(color, PieceType::King).len(), 1, "{color:?} must have one king");
        }
        assert_eq!(self.s.key, self.compute_key(), "incremental key differs from the recomputed key");
        let mut copy = self.clone();
        copy.update_check_info();
        assert_eq!((copy.s.checkers, copy.s.pinned), (self.s.checkers, self.s.pinned), "stale check info");
    }

    /// Whether the current position occurred before, since the last irreversible move: `repetition_count()
    /// >= 2`, stopping at the first earlier occurrence (the search asks at every node).
    #[inline]
    pub fn is_repetition(&self) -> bool {
        let reversible = (self.s.halfmove_clock as usize).min(self.history.len());
        self.history.iter().rev().take(reversible).skip(1).step_by(2).any(|undo| undo.state.key == self.s.key)
    }

    /// Counts the repetitions of the current position in the history (the position itself counts once),
    /// looking back only as far as the last irreversible move.
    pub fn repetition_count(&self) -> usize {
        let mut count = 1;
        let reversible = (self.s.halfmove_clock as usize).min(self.history.len());
        for undo in self.history.iter().rev().take(reversible).skip(1).step_by(2) {
            if undo.state.key == self.s.key {
                count += 1;
            }
        }
        count
    }
}

/// Where the king and the rook end up when castling with `mv` (king takes rook on `mv.to()`).
#[inline(always)]
pub(crate) fn castling_destinations(mv: Move) -> (Square, Square) {
    let rank = mv.from().rank();
    let side =
        if mv.to().file() > mv.from().file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
    (Square::new(side.king_file(), rank), Square::new(side.rook_file(), rank))
}

impl PartialEq for Position {
    /// Equal when the board, side to move, castling rights, en-passant square and clocks are equal (the
    /// history is not compared, as with python-chess's `Board.__eq__`).
    fn eq(&self, other: &Position) -> bool {
        self.s.by_type == other.s.by_type
            && self.s.by_color == other.s.by_color
            && self.s.side_to_move == other.s.side_to_move
            && self.s.castling == other.s.castling
            && self.s.ep_square == other.s.ep_square
            && self.s.halfmove_clock == other.s.halfmove_clock
            && self.s.fullmove_number == other.s.fullmove_number
    }
}

impl Eq for Position {}

impl core::fmt::Debug for Position {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Position({:?}, chess960={})", self.fen(), self.chess960)
    }
}
