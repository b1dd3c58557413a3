//! [`Board`]: the full game state (pieces, side to move, ply count) with make/unmake on an undo stack,
//! an incremental Zobrist key, move generation and the game's result.
//!
//! ## Representation
//! Bitboards: one 30-bit set per colour and one per piece kind (a `u32` each, see [`Bitboard`]), plus a
//! 30-entry mailbox for "what stands on this square". The sets make generation a few table look-ups and
//! the search's later needs (captures only, attack tests, material by popcount) cheap; the mailbox makes
//! make/unmake and `piece_at` one load.
//!
//! ## The rules (issue 18)
//! No check rule: every move that follows the movement rules is legal, also one that leaves the own
//! king attacked. The game ends
//! 1. when a king has been captured: the capturer wins;
//! 2. else after [`MAX_PLIES`] plies: the material count ([`PieceType::value`]) decides, equal totals draw;
//! 3. else when the side to move has no move: **the side to move loses**. The course's rules are silent
//!    here; its runner makes a player that outputs no move (or an illegal one) lose, and a player with no
//!    move can output nothing else, so this is the result a game under the course's runner reaches.
//!
//! A finished game has no legal moves ([`Board::legal_moves`] is empty once [`Board::outcome`] is
//! `Some`), so perft counts no leaves below a finished game, as chess perft counts none below a mate.

use crate::{
    attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks},
    bitboard::Bitboard,
    error::IllegalMoveError,
    types::{Color, Move, Piece, PieceType, Square, COLS, NUM_SQUARES},
    zobrist::{black_to_move_key, piece_key},
};

/// Plies after which the game ends by the material count (25 moves each).
pub const MAX_PLIES: u32 = 50;

/// Most moves any position can have (10 queens' worth is 170; a side has at most 6 queens, 2 rooks,
/// 2 bishops, 2 knights and a king: well under this).
pub const MAX_MOVES: usize = 256;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A king was captured; the capturer wins.
    KingCaptured,
    /// [`MAX_PLIES`] plies were played; the higher material total wins, equal totals draw.
    MaterialCount,
    /// The side to move had no move; it loses (see the module documentation).
    NoMoves,
}

impl Termination {
    /// A lowercase name: `king_captured`, `material_count`, `no_moves`.
    pub const fn name(self) -> &'static str {
        match self {
            Termination::KingCaptured => "king_captured",
            Termination::MaterialCount => "material_count",
            Termination::NoMoves => "no_moves",
        }
    }
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Why it ended.
    pub termination: Termination,
    /// Who won; `None` for a draw (equal material at the count).
    pub winner: Option<Color>,
}

/// What make stores to unmake a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Undo {
    mv: Move,
    /// The piece that moved, as it was before the move (a pawn, for a promotion).
    moved: Piece,
    captured: Option<Piece>,
}

/// A fixed-capacity list of moves (no allocation in generation).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList { moves: [Move::default(); MAX_MOVES], len: 0 }
    }

    #[inline]
    fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A MiniChess game state: the pieces, the side to move, the plies played, and the moves that led here.
#[derive(Debug, Clone)]
pub struct Board {
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 6],
    squares: [Option<Piece>; NUM_SQUARES],
    side: Color,
    ply: u32,
    key: u64,
    history: Vec<Undo>,
}

impl PartialEq for Board {
    /// Same pieces, side to move and ply count (the move history is not compared).
    fn eq(&self, other: &Board) -> bool {
        self.squares == other.squares && self.side == other.side && self.ply == other.ply
    }
}

impl Eq for Board {}

impl Default for Board {
    fn default() -> Board {
        Board::start()
    }
}

impl Board {
    /// A board with no pieces, White to move, ply 0 (for building positions; not a playable game).
    pub fn empty() -> Board {
        Board {
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 6],
            squares: [None; NUM_SQUARES],
            side: Color::White,
            ply: 0,
            key: 0,
            history: Vec::new(),
        }
    }

    /// The starting position: Black `K Q B N R` on row 0 and pawns on row 1; White pawns on row 4 and
    /// `R N B Q K` on row 5; White to move.
    pub fn start() -> Board {
        const BACK: [PieceType; 5] =
            [PieceType::King, PieceType::Queen, PieceType::Bishop, PieceType::Knight, PieceType::Rook];
        let mut board = Board::empty();
        for col in 0..COLS {
            let sq = |row| Square::new(row, col).expect("on the board");
            board.put(Piece::new(Color::Black, BACK[col as usize]), sq(0));
            board.put(Piece::new(Color::Black, PieceType::Pawn), sq(1));
            board.put(Piece::new(Color::White, PieceType::Pawn), sq(4));
            board.put(Piece::new(Color::White, BACK[(COLS - 1 - col) as usize]), sq(5));
        }
        board
    }

    /// Puts `piece` on the empty square `sq` (for building positions).
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(self.squares[sq.index()].is_none());
        let bit = Bitboard::from_square(sq);
        self.by_color[piece.color.index()] |= bit;
        self.by_kind[piece.kind.index()] |= bit;
        self.squares[sq.index()] = Some(piece);
        self.key ^= piece_key(piece, sq);
    }

    fn remove(&mut self, piece: Piece, sq: Square) {
        debug_assert_eq!(self.squares[sq.index()], Some(piece));
        let bit = Bitboard::from_square(sq);
        self.by_color[piece.color.index()] ^= bit;
        self.by_kind[piece.kind.index()] ^= bit;
        self.squares[sq.index()] = None;
        self.key ^= piece_key(piece, sq);
    }

    /// Sets the side to move and the ply count (for building positions).
    pub(crate) fn set_side_and_ply(&mut self, side: Color, ply: u32) {
        if side != self.side {
            self.key ^= black_to_move_key();
        }
        self.side = side;
        self.ply = ply;
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies played in the game so far (the one-line text form carries it; a `state` file does not).
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The Zobrist key, kept up to date by make/unmake.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key computed from scratch (a check of the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black { black_to_move_key() } else { 0 };
        for (i, piece) in self.squares.iter().enumerate() {
            if let (Some(piece), Some(sq)) = (piece, Square::from_index(i)) {
                key ^= piece_key(*piece, sq);
            }
        }
        key
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces_of(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// `color`'s material by the 50-ply count's values (kings not counted).
    pub fn material(&self, color: Color) -> i32 {
        PieceType::ALL.iter().map(|&k| k.value() * self.pieces_of(color, k).count() as i32).sum()
    }

    /// The moves played on this board, oldest first.
    pub fn move_stack(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }

    /// Whether a king is missing (captured): then the game is over.
    #[inline]
    fn king_missing(&self) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| self.pieces_of(c, PieceType::King).is_empty())
    }

    /// The squares the piece `piece` on `from` may move to (its captures and steps), ignoring whether
    /// the game is over.
    #[inline]
    fn targets(&self, piece: Piece, from: Square) -> Bitboard {
        let own = self.pieces(piece.color);
        let theirs = self.pieces(piece.color.flip());
        let occupied = own | theirs;
        match piece.kind {
            PieceType::Pawn => {
                let forward = match piece.color {
                    Color::White => from.index().checked_sub(COLS as usize),
                    Color::Black => Some(from.index() + COLS as usize),
                };
                let push =
                    forward.and_then(Square::from_index).map_or(Bitboard::EMPTY, Bitboard::from_square)
                        & !occupied;
                push | (pawn_attacks(piece.color, from) & theirs)
            }
            PieceType::Knight => knight_attacks(from) & !own,
            PieceType::Bishop => bishop_attacks(from, occupied) & !own,
            PieceType::Rook => rook_attacks(from, occupied) & !own,
            PieceType::Queen => queen_attacks(from, occupied) & !own,
            PieceType::King => king_attacks(from) & !own,
        }
    }

    /// Calls `push` with every move of the side to move (only captures and promotions if
    /// `noisy_only`), ignoring whether the game is over. Moves come in square order of the piece that
    /// moves, then of the target.
    #[inline]
    fn generate(&self, noisy_only: bool, mut push: impl FnMut(Move)) {
        let us = self.side;
        let theirs = self.pieces(us.flip());
        let promotion_row = Bitboard::row(us.promotion_row());
        for from in self.pieces(us) {
            let Some(piece) = self.squares[from.index()] else { continue };
            let mut targets = self.targets(piece, from);
            if noisy_only {
                let promotions = if piece.kind == PieceType::Pawn { promotion_row } else { Bitboard::EMPTY };
                targets &= theirs | promotions;
            }
            for to in targets {
                push(Move::new(from, to));
            }
        }
    }

    /// Appends the moves of the side to move to `out` (only captures and promotions if `noisy_only`),
    /// whether or not the game is over: for a search, which tests the end of the game itself
    /// ([`Board::decided`]) before generating.
    pub fn generate_into(&self, out: &mut Vec<Move>, noisy_only: bool) {
        self.generate(noisy_only, |mv| out.push(mv));
    }

    /// Whether `mv` is one of the side to move's moves by the movement rules (the game's end not
    /// considered): a cheap test for a move from a hash table.
    #[inline]
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        match self.squares[mv.from.index()] {
            Some(piece) if piece.color == self.side => self.targets(piece, mv.from).contains(mv.to),
            _ => false,
        }
    }

    /// Whether `mv` captures or promotes.
    #[inline]
    pub fn is_noisy(&self, mv: Move) -> bool {
        self.squares[mv.to.index()].is_some()
            || self.squares[mv.from.index()]
                .is_some_and(|p| p.kind == PieceType::Pawn && mv.to.row() == p.color.promotion_row())
    }

    /// Whether any piece of `by` attacks `sq`.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let occupied = self.occupied();
        let theirs = |kind| self.pieces_of(by, kind);
        !(knight_attacks(sq) & theirs(PieceType::Knight)).is_empty()
            || !(king_attacks(sq) & theirs(PieceType::King)).is_empty()
            || !(pawn_attacks(by.flip(), sq) & theirs(PieceType::Pawn)).is_empty()
            || !(bishop_attacks(sq, occupied) & (theirs(PieceType::Bishop) | theirs(PieceType::Queen)))
                .is_empty()
            || !(rook_attacks(sq, occupied) & (theirs(PieceType::Rook) | theirs(PieceType::Queen))).is_empty()
    }

    /// Whether the side to move's king can be captured at once (MiniChess has no check rule; this is
    /// what "in check" means to a search).
    pub fn king_in_danger(&self) -> bool {
        let us = self.side;
        self.pieces_of(us, PieceType::King).first().is_some_and(|k| self.is_attacked(k, us.flip()))
    }

    /// The result if the game is over by a captured king or the ply limit, found without generating
    /// moves (unlike [`Board::outcome`], it does not see a side with no move).
    #[inline]
    pub fn decided(&self) -> Option<Outcome> {
        if let Some(loser) = self.king_missing() {
            return Some(Outcome { termination: Termination::KingCaptured, winner: Some(loser.flip()) });
        }
        if self.ply >= MAX_PLIES {
            let (white, black) = (self.material(Color::White), self.material(Color::Black));
            let winner = match white.cmp(&black) {
                std::cmp::Ordering::Greater => Some(Color::White),
                std::cmp::Ordering::Less => Some(Color::Black),
                std::cmp::Ordering::Equal => None,
            };
            return Some(Outcome { termination: Termination::MaterialCount, winner });
        }
        None
    }

    /// Passes: the other side moves next and the ply count goes on (a search's null move; the rules
    /// have no passing). Undone by [`Board::undo_null`], not [`Board::undo`].
    pub fn play_null(&mut self) {
        self.side = self.side.flip();
        self.key ^= black_to_move_key();
        self.ply += 1;
    }

    /// Takes back [`Board::play_null`].
    pub fn undo_null(&mut self) {
        self.side = self.side.flip();
        self.key ^= black_to_move_key();
        self.ply -= 1;
    }

    /// The legal moves: every move that follows the movement rules, none once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.king_missing().is_none() && self.ply < MAX_PLIES {
            self.generate(false, |mv| list.push(mv));
        }
        list
    }

    /// The result, once the game is over (the rules are in the module documentation).
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.decided() {
            return Some(outcome);
        }
        let mut any = false;
        self.generate(false, |_| any = true);
        if !any {
            return Some(Outcome { termination: Termination::NoMoves, winner: Some(self.side.flip()) });
        }
        None
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Plays `mv`, which must be legal.
    ///
    /// # Panics
    /// If `mv` is not legal (use [`Board::try_play`] for moves from outside).
    pub fn play(&mut self, mv: Move) {
        assert!(self.is_legal(mv), "illegal move {mv} in {}", self.to_text());
        self.play_unchecked(mv);
    }

    /// Plays `mv` if it is legal; otherwise leaves the board unchanged and says why.
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if !self.is_legal(mv) {
            return Err(IllegalMoveError::new(mv.to_string(), None, self.to_text()));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` without checking it: for the search and perft, whose moves come from
    /// [`Board::legal_moves`]. The caller guarantees legality (a piece of the side to move on `mv.from`,
    /// checked in debug builds).
    pub fn play_unchecked(&mut self, mv: Move) {
        let moved = self.squares[mv.from.index()].expect("play_unchecked: no piece on the from square");
        debug_assert_eq!(moved.color, self.side);
        let captured = self.squares[mv.to.index()];
        if let Some(captured) = captured {
            self.remove(captured, mv.to);
        }
        self.remove(moved, mv.from);
        let placed = if moved.kind == PieceType::Pawn && mv.to.row() == moved.color.promotion_row() {
            Piece::new(moved.color, PieceType::Queen)
        } else {
            moved
        };
        self.put(placed, mv.to);
        self.history.push(Undo { mv, moved, captured });
        self.side = self.side.flip();
        self.key ^= black_to_move_key();
        self.ply += 1;
    }

    /// Takes back the last move and returns it; `None` when no move was played on this board.
    pub fn undo(&mut self) -> Option<Move> {
        let Undo { mv, moved, captured } = self.history.pop()?;
        let placed = self.squares[mv.to.index()].expect("undo: the moved piece is on its target");
        self.remove(placed, mv.to);
        self.put(moved, mv.from);
        if let Some(captured) = captured {
            self.put(captured, mv.to);
        }
        self.side = self.side.flip();
        self.key ^= black_to_move_key();
        self.ply -= 1;
        Some(mv)
    }

    /// Checks the internal consistency (sets against mailbox, key against recomputation).
    pub fn is_consistent(&self) -> bool {
        let mut by_color = [Bitboard::EMPTY; 2];
        let mut by_kind = [Bitboard::EMPTY; 6];
        for (i, piece) in self.squares.iter().enumerate() {
            if let (Some(p), Some(sq)) = (piece, Square::from_index(i)) {
                by_color[p.color.index()] |= Bitboard::from_square(sq);
                by_kind[p.kind.index()] |= Bitboard::from_square(sq);
            }
        }
        by_color == self.by_color && by_kind == self.by_kind && self.key == self.compute_key()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        text.parse().unwrap()
    }

    #[test]
    fn start_position() {
        let board = Board::start();
        assert_eq!(board.to_text(), "kqbnr/ppppp/5/5/PPPPP/RNBQK w 0");
        // Five pawn steps and two knight jumps.
        let moves: Vec<String> = board.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["4 0 3 0", "4 1 3 1", "4 2 3 2", "4 3 3 3", "4 4 3 4", "5 1 3 0", "5 1 3 2"]);
        assert_eq!(board.material(Color::White), 20 + 8 + 7 + 6 + 5 * 2);
        assert!(board.is_consistent() && board.outcome().is_none());
    }

    #[test]
    fn make_unmake_restores_everything() {
        let mut board = Board::start();
        let before = board.clone();
        let mut played = Vec::new();
        // A fixed walk: always the middle legal move, until the game ends.
        while board.outcome().is_none() {
            let moves = board.legal_moves();
            let m = moves[moves.len() / 2];
            board.play(m);
            played.push(m);
            assert!(board.is_consistent());
        }
        assert_eq!(board.move_stack().collect::<Vec<_>>(), played);
        while let Some(m) = board.undo() {
            assert_eq!(m, played.pop().unwrap());
            assert!(board.is_consistent());
        }
        assert_eq!(board, before);
        assert_eq!(board.key(), before.key());
        assert_eq!(board.by_color, before.by_color);
        assert_eq!(board.by_kind, before.by_kind);
        assert_eq!(board.undo(), None);
    }

    #[test]
    fn king_capture_wins_and_ends_the_game() {
        // White's queen takes Black's king.
        let mut board = Board::from_text("k4/5/5/5/5/Q3K w 7").unwrap();
        board.play(mv("5 0 0 0"));
        assert_eq!(
            board.outcome(),
            Some(Outcome { termination: Termination::KingCaptured, winner: Some(Color::White) })
        );
        assert!(board.legal_moves().is_empty());
        // Black may also leave its own king attacked (no check rule) and win by capture.
        let mut board = Board::from_text("k4/5/5/5/5/q3K b 0").unwrap();
        assert!(board.is_legal(mv("0 0 0 1"))); // the king steps next to nothing, fine
        board.play(mv("5 0 5 4"));
        assert_eq!(board.outcome().unwrap().winner, Some(Color::Black));
    }

    #[test]
    fn no_check_rule() {
        // White's king may step next to Black's king, and may stay attacked.
        let board = Board::from_text("5/5/1k3/5/1K3/5 w 0").unwrap();
        assert!(board.is_legal(mv("4 1 3 1")));
    }

    #[test]
    fn pawns_step_once_capture_diagonally_and_promote_to_queen() {
        let board = Board::start();
        assert!(!board.is_legal(mv("4 0 2 0")), "no double step");
        let mut board = Board::from_text("k3r/P4/1p3/1P3/5/4K w 3").unwrap();
        // The pawn on (3,1) is blocked by a pawn, the one on (1,0) by the king: a pawn never captures
        // straight ahead, and neither has anything to capture diagonally.
        let moves: Vec<String> = board.legal_moves().iter().map(|m| m.to_string()).collect();
        assert!(!moves.iter().any(|m| m.starts_with("3 1")));
        assert!(!moves.contains(&"1 0 0 0".to_string()));
        board = Board::from_text("k4/3P1/5/5/5/4K w 3").unwrap();
        board.play(mv("1 3 0 3"));
        assert_eq!(
            board.piece_at(Square::new(0, 3).unwrap()),
            Some(Piece::new(Color::White, PieceType::Queen))
        );
        board.undo();
        assert_eq!(
            board.piece_at(Square::new(1, 3).unwrap()),
            Some(Piece::new(Color::White, PieceType::Pawn))
        );
        // A capture that promotes, and Black promotes on row 5.
        let mut board = Board::from_text("k3r/3P1/5/5/2p2/1N2K b 3").unwrap();
        board.play(mv("4 2 5 1"));
        assert_eq!(
            board.piece_at(Square::new(5, 1).unwrap()),
            Some(Piece::new(Color::Black, PieceType::Queen))
        );
        assert_eq!(board.material(Color::Black), 20 + 6);
        assert!(board.is_consistent());
    }

    #[test]
    fn the_50_ply_count() {
        // 49 plies played: one more move, then material decides (Q 20 + P 2 against R 6 + N 7 + B 8).
        let mut board = Board::from_text("k3r/1nb2/5/5/1P3/Q3K w 49").unwrap();
        assert!(board.outcome().is_none());
        board.play(mv("4 1 3 1"));
        assert_eq!(board.ply(), 50);
        assert_eq!(board.material(Color::White), 22);
        assert_eq!(board.material(Color::Black), 21);
        assert_eq!(
            board.outcome(),
            Some(Outcome { termination: Termination::MaterialCount, winner: Some(Color::White) })
        );
        assert!(board.legal_moves().is_empty());
        let level = Board::from_text("k4/5/5/5/5/4K b 50").unwrap();
        assert_eq!(level.outcome(), Some(Outcome { termination: Termination::MaterialCount, winner: None }));
        // A king capture on the 50th ply is a king capture, not a count.
        let mut board = Board::from_text("k4/5/5/5/5/Q3K w 49").unwrap();
        board.play(mv("5 0 0 0"));
        assert_eq!(board.outcome().unwrap().termination, Termination::KingCaptured);
    }

    #[test]
    fn no_moves_loses() {
        // White's king in the corner, boxed in by its own pieces, whose every way is blocked by its own
        // pieces or by Black pawns standing straight in front of White pawns: no move at all.
        let board = Board::from_text("k4/5/3p1/2pPp/2PRP/3BK w 10").unwrap();
        assert!(board.legal_moves().is_empty());
        assert_eq!(
            board.outcome(),
            Some(Outcome { termination: Termination::NoMoves, winner: Some(Color::Black) })
        );
    }
}
