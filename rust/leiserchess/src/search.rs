//! The Leiserchess player's search: `camelpy-games`'s [`Searcher`] over the game's boards with the
//! [`evaluate`] evaluation ([`LeiserSearcher`]), and what the framework needs of Leiserchess: its
//! rules (on the [`Position`]) and the [`Game`] the search walks through ([`SearchGame`]).
//!
//! The rules enter the tree here: a hit king is a won or lost game (the shooter's own king too), Ko
//! removes moves (every move is made once to test it, which also tells which moves are noisy: those
//! whose shot zaps a pawn or hits a king, the ones quiescence searches), a position seen before since
//! the last zap is a draw (the game needs a third time, the search takes the first repeat, as chess
//! engines do), and the 2018 rules' quiet-move draw. No null-move pruning: the laser fires even on the
//! king's own null move, so passing is not a sound test here.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use camelpy_leiserchess::{search::{LeiserSearcher, Limits}, Board, Position, Rules};
//!
//! // Tangerine's king turns east and fires along rank 0 into Lavender's king: a win in one.
//! let game = Position::new(Board::from_fen("8/8/8/8/8/8/8/NN6nn W", Rules::R2016).unwrap());
//! let mut searcher = LeiserSearcher::new(1).unwrap();
//! let limits = Limits { depth: Some(3), ..Limits::default() };
//! let result = searcher.search(&game, limits, &AtomicBool::new(false), |_| {});
//! assert_eq!(result.best_move.unwrap().to_string(), "a0R");
//! assert_eq!(result.info.score, camelpy_games::Score::Mate(1));
//! ```

use camelpy_core::{
    types::{mate_in, mated_in, VALUE_DRAW},
    Value,
};
use camelpy_games::{Game, Rules as GameRules, Score, Searcher};
pub use camelpy_games::{Iteration, Limits, SearchResult};

use crate::{
    board::{Board, Rules, TurnReport, QUIET_PLIES_DRAW_2018},
    eval::{evaluate, features, Weights, NUM_WEIGHTS},
    moves::Move,
    position::Position,
    types::{Color, Kind},
};

/// A self-play game still going after this many plies is a draw (the 2016 rules have no quiet-move
/// draw, and two equal players can shuffle for long without repeating).
pub const MAX_GAME_PLIES: usize = 400;

/// Ordering value of a move whose shot hits the enemy king (far above any zap).
const ORDER_KING_HIT: i32 = 10_000;
/// Ordering value per enemy pawn zapped (less per own pawn zapped).
const ORDER_PAWN: i32 = 100;

/// The boards from the game's first to the one searched now, and the weights: what the generic
/// search plays on.
#[derive(Clone)]
pub struct SearchGame {
    boards: Vec<Board>,
    /// The evaluation's weights.
    pub weights: Weights,
}

impl SearchGame {
    /// The game `position` (its history included: Ko and repetitions look back) with `weights`.
    pub fn new(position: &Position, weights: Weights) -> SearchGame {
        SearchGame { boards: position.boards().cloned().collect(), weights }
    }

    #[inline]
    fn board(&self) -> &Board {
        // Never empty: built from a position, and `undo` only removes what `play` added.
        &self.boards[self.boards.len() - 1]
    }

    /// True if `after` breaks Ko: the pieces as before this move, or as before the opponent's last
    /// (a shot that hits a king ends the game and is never Ko).
    #[inline]
    fn is_ko(&self, after: &Board) -> bool {
        let n = self.boards.len();
        after.loser().is_none()
            && (after.same_pieces(&self.boards[n - 1]) || (n >= 2 && after.same_pieces(&self.boards[n - 2])))
    }

    /// True if the board now stood before since the last zap (with the same side to move).
    fn repeats(&self) -> bool {
        let now = self.board();
        let back = usize::from(now.quiet_plies()).min(self.boards.len() - 1);
        self.boards[self.boards.len() - 1 - back..self.boards.len() - 1]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|b| b.key() == now.key() && b.same_pieces(now))
    }

    /// Pawns of each side on `board`.
    fn pawns(board: &Board) -> [i32; 2] {
        let mut n = [0; 2];
        for i in 0..64u8 {
            if let Some(p) = board.piece_at(crate::types::Square::new(i)) {
                if p.kind() == Kind::Pawn {
                    n[p.color().index()] += 1;
                }
            }
        }
        n
    }

    fn is_noisy_report(report: &TurnReport) -> bool {
        report.zapped > 0 || report.king_hit.is_some()
    }
}

/// Leiserchess's rules for the framework: a [`Position`] keeps the boards (for Ko and repetitions)
/// and the result.
impl GameRules for Position {
    type Move = Move;
    type Moves = Vec<Move>;
    /// The rule set, 2016 or 2018.
    type Variant = Rules;

    fn start(rules: Rules) -> Position {
        Position::start(rules)
    }

    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self)
    }

    fn push_unchecked(&mut self, mv: Move) {
        Position::push_unchecked(self, mv);
    }

    fn first_to_move(&self) -> bool {
        self.board().side_to_move() == Color::Tangerine
    }

    fn first_player_points(&self) -> Option<f32> {
        self.outcome().map(|o| match o.winner {
            Some(Color::Tangerine) => 1.0,
            Some(Color::Lavender) => 0.0,
            None => 0.5,
        })
    }
}

impl Game for SearchGame {
    type Move = Move;

    const HISTORY_SLOTS: usize = 2 << 16;

    type Position = Position;
    type Weights = Weights;
    type Features = [i32; NUM_WEIGHTS];

    const SELFPLAY_MAX_PLIES: usize = MAX_GAME_PLIES;

    fn from_position(position: &Position, weights: Weights) -> SearchGame {
        SearchGame::new(position, weights)
    }

    fn features(position: &Position) -> [i32; NUM_WEIGHTS] {
        features(position.board())
    }

    /// A position whose searched best move is quiet (it zaps nothing: a position whose value hangs on
    /// a shot is not what a static evaluation should be fitted to) and whose score is no proven win or
    /// loss.
    fn is_tuning_sample(position: &Position, mv: Move, score: Score) -> bool {
        !Self::is_noisy_report(&position.board().after(mv).1) && matches!(score, Score::Cp(_))
    }

    #[inline]
    fn key(&self) -> u64 {
        self.board().key()
    }

    fn terminal_value(&self, ply: i32) -> Option<Value> {
        let board = self.board();
        if let Some(loser) = board.loser() {
            return Some(if loser == board.side_to_move() { mated_in(ply) } else { mate_in(ply) });
        }
        if board.rules() == Rules::R2018 && board.quiet_plies() >= QUIET_PLIES_DRAW_2018 {
            return Some(VALUE_DRAW);
        }
        // At the root a repeat is not the end (the game needs a third time): search it.
        (ply > 0 && self.repeats()).then_some(VALUE_DRAW)
    }

    fn no_moves_value(&self, ply: i32) -> Value {
        mated_in(ply)
    }

    fn generate(&self, moves: &mut Vec<Move>, noisy_only: bool) {
        let board = self.board();
        let mut all = Vec::with_capacity(128);
        board.generate(&mut all);
        for mv in all {
            let (after, report) = board.after(mv);
            if !self.is_ko(&after) && (!noisy_only || Self::is_noisy_report(&report)) {
                moves.push(mv);
            }
        }
    }

    fn is_noisy(&self, mv: Move) -> bool {
        Self::is_noisy_report(&self.board().after(mv).1)
    }

    fn noisy_order(&self, mv: Move) -> i32 {
        let board = self.board();
        let (after, report) = board.after(mv);
        let us = board.side_to_move();
        match report.king_hit {
            Some(c) if c == us => return -ORDER_KING_HIT,
            Some(_) => return ORDER_KING_HIT,
            None => {}
        }
        let (before, now) = (Self::pawns(board), Self::pawns(&after));
        let them = us.flip();
        ORDER_PAWN * (before[them.index()] - now[them.index()])
            - ORDER_PAWN / 2 * (before[us.index()] - now[us.index()])
    }

    fn is_legal(&self, mv: Move) -> bool {
        let board = self.board();
        board.is_pseudo_legal(mv) && !self.is_ko(&board.after(mv).0)
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        let (next, _) = self.board().after(mv);
        self.boards.push(next);
    }

    #[inline]
    fn undo(&mut self) {
        if self.boards.len() > 1 {
            self.boards.pop();
        }
    }

    #[inline]
    fn evaluate(&self) -> Value {
        evaluate(self.board(), &self.weights)
    }

    #[inline]
    fn in_danger(&self) -> bool {
        false
    }

    #[inline]
    fn history_index(&self, mv: Move) -> usize {
        (usize::from(self.board().side_to_move() == Color::Lavender) << 16) | usize::from(mv.bits())
    }
}

/// The Leiserchess searcher: the framework's [`Searcher`] over [`SearchGame`], a table kept between
/// searches and the evaluation's weights (`weights`); [`Searcher::search`] takes a [`Position`] (the
/// game with its history: a finished game, by a third repetition say, has no move).
pub type LeiserSearcher = Searcher<SearchGame>;

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;

    fn search(fen: &str, depth: i32) -> SearchResult<Move> {
        let game = Position::new(Board::from_fen(fen, Rules::R2016).unwrap());
        LeiserSearcher::new(1).unwrap().search(
            &game,
            Limits::to_depth(depth),
            &AtomicBool::new(false),
            |_| {},
        )
    }

    #[test]
    fn its_move_from_the_start_keeps_its_own_king() {
        let result = search(crate::STARTING_FEN, 3);
        let (after, report) = Board::start(Rules::R2016).after(result.best_move.unwrap());
        assert_eq!((report.king_hit, after.loser()), (None, None));
        assert!(result.info.depth == 3 && !result.info.pv.is_empty());
    }

    #[test]
    fn a_shot_that_is_already_aimed_wins_at_once() {
        // Tangerine's king on a0 fires east to the NW pawn on h0, which turns the beam north up the h
        // file into Lavender's king on h7: any move that leaves that path alone wins.
        let fen = "7nn/8/8/8/8/8/8/EE6NW W";
        let result = search(fen, 2);
        let (_, report) = Board::from_fen(fen, Rules::R2016).unwrap().after(result.best_move.unwrap());
        assert_eq!(report.king_hit, Some(Color::Lavender));
        assert_eq!(result.info.score, camelpy_games::Score::Mate(1));
    }

    /// The search's node counts at fixed depths from the start: a signature that changes only when the
    /// search does (as chess's bench), under both rule sets.
    #[test]
    fn fixed_depth_node_counts_are_the_signature() {
        let count = |rules: Rules, depth: i32| {
            let game = Position::start(rules);
            let mut searcher = LeiserSearcher::new(16).unwrap();
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            searcher.search(&game, limits, &AtomicBool::new(false), |_| {}).info.nodes
        };
        let found = [count(Rules::R2016, 5), count(Rules::R2016, 6), count(Rules::R2018, 4)];
        assert_eq!(found, [SIGNATURE_2016_DEPTH_5, SIGNATURE_2016_DEPTH_6, SIGNATURE_2018_DEPTH_4]);
    }

    /// Nodes at depth 5 from the start, 2016 rules, 16 MiB (see the test above).
    const SIGNATURE_2016_DEPTH_5: u64 = 113_528;
    /// Nodes at depth 6 from the start, 2016 rules.
    const SIGNATURE_2016_DEPTH_6: u64 = 223_828;
    /// Nodes at depth 4 from the start, 2018 rules.
    const SIGNATURE_2018_DEPTH_4: u64 = 1_577_391;

    #[test]
    fn two_threads_find_the_same_wins_and_a_legal_move() {
        let mut searcher = LeiserSearcher::new(4).unwrap();
        searcher.set_threads(2).unwrap();
        assert_eq!(searcher.threads(), 2);
        let limits = Limits { depth: Some(5), ..Limits::default() };
        let game = Position::new(Board::from_fen("7nn/8/8/8/8/8/8/EE6NW W", Rules::R2016).unwrap());
        let result = searcher.search(&game, limits, &AtomicBool::new(false), |_| {});
        assert_eq!(result.info.score, camelpy_games::Score::Mate(1));
        let start = Position::start(Rules::R2016);
        let result = searcher.search(&start, limits, &AtomicBool::new(false), |_| {});
        assert!(start.legal_moves().contains(&result.best_move.unwrap()));
        assert!(result.info.depth == 5 && result.info.nodes > 0);
        // Back to one thread: the signature search again.
        searcher.set_threads(1).unwrap();
        searcher.clear();
        let one = searcher.search(&start, limits, &AtomicBool::new(false), |_| {});
        assert_eq!(one.info.nodes, SIGNATURE_2016_DEPTH_5);
    }

    #[test]
    fn repetitions_and_ko_are_seen_in_the_tree() {
        let mut game = Position::new(Board::from_fen("ss7/8/8/8/8/8/8/7NN W", Rules::R2016).unwrap());
        for text in ["h0R", "a7R", "h0L", "a7L"] {
            game.push_text(text).unwrap();
        }
        let search_game = SearchGame::new(&game, Weights::default());
        assert!(search_game.repeats());
        assert_eq!(search_game.terminal_value(0), None, "a repeat at the root is searched");
        assert_eq!(search_game.terminal_value(1), Some(VALUE_DRAW));
        let mut searcher = LeiserSearcher::new(1).unwrap();
        let limits = Limits { depth: Some(1), ..Limits::default() };
        assert!(searcher.search(&game, limits, &AtomicBool::new(false), |_| {}).best_move.is_some());
        let mut moves = Vec::new();
        search_game.generate(&mut moves, false);
        assert!(!moves.contains(&"h0h0".parse().unwrap()), "the null move zaps nothing: Ko");
    }
}
