//! [`Game`]: what the search needs to know about a two-player, zero-sum, perfect-information game.

use std::fmt;

use camelpy_core::{tt::TableMove, Value};

/// A game the [`Searcher`](crate::Searcher) can search: a position with make/unmake, seen from the side
/// to move. Values are centipawn-like `Value`s from the side to move's point of view; a won or lost
/// game is scored as the core scores mate (`camelpy_core::types::mate_in(ply)` /
/// `mated_in(ply)`), so the search prefers the quickest win and the slowest loss. A game is `Clone`
/// and `Send`: each helper thread of a parallel search plays on its own copy.
pub trait Game: Clone + Send {
    /// A move: small, copyable, storable in the transposition table (16 bits, never 0).
    type Move: TableMove + Copy + Eq + fmt::Debug + Send + Sync;

    /// Slots in the history table; [`Game::history_index`] is below this.
    const HISTORY_SLOTS: usize;

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
