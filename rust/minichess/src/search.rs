//! The MiniChess player's search: `camelpy-games`'s [`Searcher`] over a [`Board`] with the
//! [`evaluate`] evaluation ([`MiniSearcher`]), and what the framework needs of MiniChess: its
//! [`Rules`] (on the [`Board`]) and the [`Game`] the search walks through ([`SearchGame`]).
//!
//! The game's rules enter the search here: a captured king is a won or lost game, the 50-ply count is
//! decided inside the tree (a win or loss at that ply, or a draw), a side with no move loses, and the
//! table key includes the ply count, since the same pieces are worth different things at different
//! plies. "In danger" is a king that can be captured: the search extends and does not stand pat there.
//! Null-move pruning is used when the side to move has a piece other than pawns and its king (so that
//! passing is rarely better than moving).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use camelpy_minichess::{search::{MiniSearcher, Limits}, Board};
//!
//! // White's queen takes the king: a win in one.
//! let board = Board::from_text("k4/5/5/5/5/Q3K w 7").unwrap();
//! let mut searcher = MiniSearcher::new(1).unwrap();
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! let result = searcher.search(&board, limits, &AtomicBool::new(false), |_| {});
//! assert_eq!(result.best_move.unwrap().to_string(), "5 0 0 0");
//! assert_eq!(result.info.score, camelpy_games::Score::Mate(1));
//! ```

use camelpy_core::{
    types::{mate_in, mated_in, VALUE_DRAW},
    Value,
};
use camelpy_games::{Game, Rules, Score, Searcher, TableMove};
pub use camelpy_games::{Iteration, Limits, SearchResult};

use crate::{
    board::{Board, MoveList},
    eval::{evaluate, features, Weights, NUM_WEIGHTS},
    types::{Color, Move, PieceType, Square, NUM_SQUARES},
    zobrist::ply_key,
};

impl TableMove for Move {
    /// `from + 1` in the high byte, `to` in the low one: never 0.
    #[inline]
    fn to_raw(self) -> u16 {
        ((self.from.index() as u16 + 1) << 8) | self.to.index() as u16
    }

    #[inline]
    fn from_raw(raw: u16) -> Option<Move> {
        let from = (raw >> 8).checked_sub(1).and_then(|i| Square::from_index(i as usize))?;
        let to = Square::from_index((raw & 0xFF) as usize)?;
        Some(Move::new(from, to))
    }
}

/// Move ordering value of a victim or an attacker (pawn 1 … queen 9, king above all).
const fn order_value(kind: PieceType) -> i32 {
    match kind {
        PieceType::Pawn => 1,
        PieceType::Knight | PieceType::Bishop => 3,
        PieceType::Rook => 5,
        PieceType::Queen => 9,
        PieceType::King => 100,
    }
}

/// MiniChess's rules for the framework: a [`Board`] keeps its moves and its result.
impl Rules for Board {
    type Move = Move;
    type Moves = MoveList;
    /// One start, one set of rules.
    type Variant = ();

    fn start((): ()) -> Board {
        Board::start()
    }

    fn legal_moves(&self) -> MoveList {
        Board::legal_moves(self)
    }

    fn push_unchecked(&mut self, mv: Move) {
        self.play_unchecked(mv);
    }

    fn first_to_move(&self) -> bool {
        self.side_to_move() == Color::White
    }

    fn first_player_points(&self) -> Option<f32> {
        self.outcome().map(|o| match o.winner {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        })
    }
}

/// A board and the weights it is evaluated with: what the generic search plays on.
#[derive(Clone)]
pub struct SearchGame {
    /// The board.
    pub board: Board,
    /// The evaluation's weights.
    pub weights: Weights,
}

impl Game for SearchGame {
    type Move = Move;

    const HISTORY_SLOTS: usize = 2 * NUM_SQUARES * NUM_SQUARES;

    type Position = Board;
    type Weights = Weights;
    type Features = [i32; NUM_WEIGHTS];

    fn from_position(board: &Board, weights: Weights) -> SearchGame {
        SearchGame { board: board.clone(), weights }
    }

    fn features(board: &Board) -> [i32; NUM_WEIGHTS] {
        features(board)
    }

    /// A position where the side to move's king is not in danger and the searched best move is quiet.
    fn is_tuning_sample(board: &Board, mv: Move, _: Score) -> bool {
        !board.king_in_danger() && !board.is_noisy(mv)
    }

    #[inline]
    fn key(&self) -> u64 {
        self.board.key() ^ ply_key(self.board.ply())
    }

    #[inline]
    fn terminal_value(&self, ply: i32) -> Option<Value> {
        let outcome = self.board.decided()?;
        Some(match outcome.winner {
            None => VALUE_DRAW,
            Some(w) if w == self.board.side_to_move() => mate_in(ply),
            Some(_) => mated_in(ply),
        })
    }

    fn no_moves_value(&self, ply: i32) -> Value {
        mated_in(ply)
    }

    #[inline]
    fn generate(&self, moves: &mut Vec<Move>, noisy_only: bool) {
        self.board.generate_into(moves, noisy_only);
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        self.board.is_noisy(mv)
    }

    #[inline]
    fn noisy_order(&self, mv: Move) -> i32 {
        let attacker = self.board.piece_at(mv.from).map_or(0, |p| order_value(p.kind));
        let victim = self.board.piece_at(mv.to).map_or(0, |p| order_value(p.kind));
        let promotion = if attacker == 1 && mv.to.row() == self.board.side_to_move().promotion_row() {
            order_value(PieceType::Queen)
        } else {
            0
        };
        (victim + promotion) * 16 - attacker
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        self.board.is_pseudo_legal(mv)
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.board.play_unchecked(mv);
    }

    #[inline]
    fn undo(&mut self) {
        self.board.undo();
    }

    #[inline]
    fn evaluate(&self) -> Value {
        evaluate(&self.board, &self.weights)
    }

    #[inline]
    fn in_danger(&self) -> bool {
        self.board.king_in_danger()
    }

    fn null_move_ok(&self) -> bool {
        let us = self.board.side_to_move();
        let pieces = self.board.pieces(us);
        let pawns_and_king =
            self.board.pieces_of(us, PieceType::Pawn) | self.board.pieces_of(us, PieceType::King);
        !(pieces & !pawns_and_king).is_empty()
    }

    fn play_null(&mut self) {
        self.board.play_null();
    }

    fn undo_null(&mut self) {
        self.board.undo_null();
    }

    #[inline]
    fn history_index(&self, mv: Move) -> usize {
        (self.board.side_to_move().index() * NUM_SQUARES + mv.from.index()) * NUM_SQUARES + mv.to.index()
    }
}

/// The MiniChess searcher: the framework's [`Searcher`] over [`SearchGame`], a table kept between
/// searches and the evaluation's weights (`weights`); [`Searcher::search`] takes a [`Board`].
pub type MiniSearcher = Searcher<SearchGame>;

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;

    fn best(text: &str, depth: i32) -> SearchResult<Move> {
        let board = Board::from_text(text).unwrap();
        MiniSearcher::new(1).unwrap().search(&board, Limits::to_depth(depth), &AtomicBool::new(false), |_| {})
    }

    #[test]
    fn table_moves_round_trip() {
        for from in 0..NUM_SQUARES {
            for to in 0..NUM_SQUARES {
                let mv = Move::new(Square::from_index(from).unwrap(), Square::from_index(to).unwrap());
                assert_ne!(mv.to_raw(), 0);
                assert_eq!(Move::from_raw(mv.to_raw()), Some(mv));
            }
        }
        assert_eq!(Move::from_raw(0), None);
        assert_eq!(Move::from_raw(31 << 8), None);
        assert_eq!(Move::from_raw((1 << 8) | 30), None);
    }

    #[test]
    fn takes_a_hanging_king_and_sees_a_threat() {
        assert_eq!(best("k4/5/5/5/5/Q3K w 7", 1).best_move.unwrap().to_string(), "5 0 0 0");
        // Black's rook threatens White's king along row 5; White must move the king off it (or block).
        let r = best("k4/5/5/5/P4/r3K w 7", 4);
        let mut board = Board::from_text("k4/5/5/5/P4/r3K w 7").unwrap();
        board.play(r.best_move.unwrap());
        assert!(!board.pieces_of(crate::Color::White, PieceType::King).is_empty());
        assert!(!board.is_attacked(
            board.pieces_of(crate::Color::White, PieceType::King).first().unwrap(),
            crate::Color::Black
        ));
    }

    #[test]
    fn the_count_is_decided_inside_the_search() {
        // Ply 49, White to move: capturing the knight (7) with the rook makes the count 6 against 0,
        // a win at ply 50 though Black could take the rook next in a longer game.
        let r = best("k4/5/5/n4/5/R3K w 49", 3);
        assert_eq!(r.best_move.unwrap().to_string(), "5 0 3 0");
        assert_eq!(r.info.score, camelpy_games::Score::Mate(1));
    }

    #[test]
    fn a_finished_game_has_no_move() {
        let r = best("k4/5/5/5/5/4K w 50", 5);
        assert_eq!(r.best_move, None);
        assert_eq!(r.info.depth, 0);
    }

    /// The search's node counts at fixed depths (16 MiB, one thread): a signature that changes only
    /// when the search or the evaluation does, as chess's bench and Leiserchess's.
    #[test]
    fn fixed_depth_node_counts_are_the_signature() {
        let count = |text: &str, depth: i32| {
            let board = Board::from_text(text).unwrap();
            let mut searcher = MiniSearcher::new(16).unwrap();
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            searcher.search(&board, limits, &AtomicBool::new(false), |_| {}).info.nodes
        };
        let found = [count(crate::START_TEXT, 8), count(crate::START_TEXT, 10), count(AFTER_PAWN_STEP, 8)];
        assert_eq!(found, [SIGNATURE_START_DEPTH_8, SIGNATURE_START_DEPTH_10, SIGNATURE_PAWN_STEP_DEPTH_8]);
    }

    /// The start after White's middle pawn step, Black to move.
    const AFTER_PAWN_STEP: &str = "kqbnr/ppppp/5/2P2/PP1PP/RNBQK b 1";
    /// Nodes at depth 8 from the start (see the test above).
    const SIGNATURE_START_DEPTH_8: u64 = 85_371;
    /// Nodes at depth 10 from the start.
    const SIGNATURE_START_DEPTH_10: u64 = 470_898;
    /// Nodes at depth 8 from [`AFTER_PAWN_STEP`].
    const SIGNATURE_PAWN_STEP_DEPTH_8: u64 = 110_795;

    #[test]
    fn deterministic_at_fixed_depth() {
        let a = best(crate::START_TEXT, 7);
        let b = best(crate::START_TEXT, 7);
        assert_eq!(a, SearchResult { info: Iteration { elapsed: a.info.elapsed, ..b.info.clone() }, ..b });
        assert_eq!(a.info.depth, 7);
        assert!(a.info.pv.len() >= 2);
    }
}
