//! What a game gives the framework: [`Rules`], the game as its rules keep it (what self-play plays and
//! a search is asked about), and [`Game`], the position the search walks through, with its evaluation.

use std::{fmt, ops::Deref};

use camelpy_core::{tt::TableMove, Score, Value};

use crate::SearchSettings;

/// A game as its rules keep it: a position with the moves that led to it, from which a search starts
/// and on which self-play plays. Two players, the first to move first.
pub trait Rules: Clone + Send {
    /// A move.
    type Move: Copy;
    /// A list of moves.
    type Moves: Deref<Target = [Self::Move]>;
    /// What chooses the start position and the rules (Leiserchess's rule set; `()` for a game that has
    /// one).
    type Variant: Copy + Send + Sync;

    /// The start position of `variant`, no move played.
    fn start(variant: Self::Variant) -> Self;

    /// The moves the rules allow here, in the game's order; none once the game is over.
    fn legal_moves(&self) -> Self::Moves;

    /// Plays `mv`, one of [`Rules::legal_moves`], without checking it.
    fn push_unchecked(&mut self, mv: Self::Move);

    /// Whether the first player (the one who moves at the start) is to move.
    fn first_to_move(&self) -> bool;

    /// The first player's points once the game is over (1 a win, 0.5 a draw, 0 a loss); `None` while
    /// it goes on.
    fn first_player_points(&self) -> Option<f32>;
}

/// A game the [`Searcher`](crate::Searcher) can search: a position with make/unmake, seen from the side
/// to move, made from the game's [`Rules`] position and the evaluation's weights; and what self-play
/// keeps of a position for the tuner (its evaluation features). Values are centipawn-like `Value`s
/// from the side to move's point of view; a won or lost game is scored as the core scores mate
/// (`camelpy_core::types::mate_in(ply)` / `mated_in(ply)`), so the search prefers the quickest win and
/// the slowest loss. A game is `Clone` and `Send`: each helper thread of a parallel search plays on its
/// own copy.
pub trait Game: Clone + Send {
    /// A move: small, copyable, storable in the transposition table (16 bits, never 0).
    type Move: TableMove + Copy + Eq + fmt::Debug + Send + Sync;

    /// Slots in the history table; [`Game::history_index`] is below this.
    const HISTORY_SLOTS: usize;

    /// The game as its rules keep it, that a search is asked about.
    type Position: Rules<Move = Self::Move>;

    /// The evaluation's weights (a run-time table that a tuner fits).
    type Weights: Copy + Default + Send + Sync;

    /// A position's evaluation features: the coefficients of the weights, for the tuner.
    type Features: Copy + Send;

    /// The search's settings a new searcher starts with: [`SearchSettings::OFF`] unless a setting
    /// passed its SPRT for this game (`docs/strength.md`, "Candidate search changes").
    const DEFAULT_SETTINGS: SearchSettings = SearchSettings::OFF;

    /// Self-play calls a game still going after this many plies a draw (for a game whose rules may not
    /// end it). Default: never.
    const SELFPLAY_MAX_PLIES: usize = usize::MAX;

    /// Whether [`Game::in_danger`] is false in every position (Leiserchess: nothing is ever capturable
    /// the way a king in check is), so that a node one ply above the horizon has only quiescence below
    /// it, which orders nothing by history: the search then tries such a node's noisy moves before it
    /// generates the rest (see the search's move loop). Default: false.
    const NEVER_IN_DANGER: bool = false;

    /// The game to search at `position`, evaluated with `weights`.
    fn from_position(position: &Self::Position, weights: Self::Weights) -> Self;

    /// The evaluation features of `position`.
    fn features(position: &Self::Position) -> Self::Features;

    /// Whether self-play keeps `position` as a tuning sample, `mv` being the move the search chose and
    /// `score` its value: a position whose value hangs on a capture or a threat is not what a static
    /// evaluation should be fitted to.
    fn is_tuning_sample(position: &Self::Position, mv: Self::Move, score: Score) -> bool;

    /// A hash of everything that decides the position's value (pieces, side to move, and anything else
    /// the rules depend on, such as a ply counter that ends the game).
    fn key(&self) -> u64;

    /// The value of a finished game for the side to move, found without generating moves (a captured
    /// king, a ply limit, a repetition), `ply` plies from the root; `None` while the game goes on.
    fn terminal_value(&self, ply: i32) -> Option<Value>;

    /// The value for the side to move when it has no move at all, `ply` plies from the root.
    fn no_moves_value(&self, ply: i32) -> Value;

    /// Appends the moves of the side to move (only the noisy ones — captures, promotions, whatever
    /// quiescence should resolve — if `noisy_only`). Called only when [`Game::terminal_value`] is
    /// `None`.
    fn generate(&self, moves: &mut Vec<Self::Move>, noisy_only: bool);

    /// Whether `mv` is noisy (generated with `noisy_only`).
    fn is_noisy(&self, mv: Self::Move) -> bool;

    /// An ordering score for a noisy move (higher first: most valuable victim, least valuable
    /// attacker).
    fn noisy_order(&self, mv: Self::Move) -> i32;

    /// [`Game::generate`], and beside each move appended to `moves` its [`Game::noisy_order`] if it
    /// is noisy or `None` if it is quiet, appended to `noise` (what the search's move ordering asks of
    /// every move). The default asks [`Game::is_noisy`] and [`Game::noisy_order`] of each move; a game
    /// that classifies its moves as it generates them says so at once (Leiserchess: one look at the
    /// node's classified moves instead of two a move).
    fn generate_classified(
        &self,
        moves: &mut Vec<Self::Move>,
        noise: &mut Vec<Option<i32>>,
        noisy_only: bool,
    ) {
        let start = moves.len();
        self.generate(moves, noisy_only);
        noise.extend(
            moves[start..].iter().map(|&mv| (noisy_only || self.is_noisy(mv)).then(|| self.noisy_order(mv))),
        );
    }

    /// Whether `mv` is a legal move here (a table move may come from another position).
    fn is_legal(&self, mv: Self::Move) -> bool;

    /// Plays `mv`, one of [`Game::generate`]'s moves.
    fn play(&mut self, mv: Self::Move);

    /// Takes back the last move played by [`Game::play`].
    fn undo(&mut self);

    /// The static evaluation for the side to move.
    fn evaluate(&self) -> Value;

    /// Whether the side to move is under a direct threat that ends the game (a king that can be
    /// captured): the search then neither stands pat nor prunes, and extends.
    fn in_danger(&self) -> bool;

    /// Whether the side to move faces a threat to end the game on the other side's next turn that
    /// [`Game::in_danger`] does not count (Leiserchess: the other side could hit our king with a move
    /// of its own). A candidate search change: looked at only when the searcher's
    /// [`SearchSettings::threats`](crate::SearchSettings::threats) asks. Default: never.
    fn threatened(&self) -> bool {
        false
    }

    /// Whether passing a move here would be a sound null-move test (the game has no zugzwang to fear
    /// in this position, and passing is implemented). Default: never.
    fn null_move_ok(&self) -> bool {
        false
    }

    /// Passes the move (only called when [`Game::null_move_ok`]).
    fn play_null(&mut self) {}

    /// Takes back a pass.
    fn undo_null(&mut self) {}

    /// The history-table slot of a quiet move for the side to move (side, from, to: below
    /// [`Game::HISTORY_SLOTS`]).
    fn history_index(&self, mv: Self::Move) -> usize;
}
