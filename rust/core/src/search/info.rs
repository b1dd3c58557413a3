//! What the search reports: plain data, formatted by the caller (UCI lines in Python, `InfoDict`s for
//! the Python API). The core never prints.

use crate::{tt::Bound, types::Move, types::Score};

/// One finished (or cut-short) iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IterationInfo {
    /// Nominal depth.
    pub depth: i32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: i32,
    /// Which line this is (1 = best) when several are searched (MultiPV).
    pub multipv: usize,
    /// The score of the best line, from the side to move's point of view.
    pub score: Score,
    /// `Exact`, or `Lower`/`Upper` for an aspiration fail-high/low report.
    pub bound: Bound,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Permille of the hash table used by this search.
    pub hashfull: u32,
    /// The principal variation (legal from the root).
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the root has no legal move.
    pub best_move: Option<Move>,
    /// The expected reply (second PV move), if known.
    pub ponder: Option<Move>,
    /// The best line of the last reported iteration (depth 0 and an empty PV if the root has no legal
    /// move).
    pub info: IterationInfo,
    /// Every line (MultiPV), best first; `lines[0] == info`.
    pub lines: Vec<IterationInfo>,
}

/// What a running search tells its caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report<'a> {
    /// A line of an iteration is finished (or cut short by a stop).
    Iteration(&'a IterationInfo),
    /// On long searches, the root move now being searched (UCI `currmove`).
    CurrMove {
        /// Nominal depth of the iteration.
        depth: i32,
        /// The root move.
        mv: Move,
        /// Its 1-based number in the search order.
        number: usize,
        /// Nodes searched so far.
        nodes: u64,
        /// Milliseconds since the search started.
        time_ms: u64,
    },
}
