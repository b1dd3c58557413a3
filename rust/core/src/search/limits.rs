//! What bounds a search, and the run-time settings it searches with. The time budget is computed by
//! the caller (Python's time manager); the core only enforces the deadlines it is given.

use std::time::Instant;

use super::params::SearchParams;
use crate::types::Move;

/// Limits for one search; all optional, combined with "whichever comes first". With none set the
/// search runs until its stop flag is raised (UCI `go infinite`). `params` are the run-time search
/// settings (the defaults unless a caller changed them).
#[derive(Debug, Clone, Default)]
pub struct SearchLimits {
    /// Deepest iteration to finish.
    pub depth: Option<i32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Do not start a new iteration after this instant.
    pub soft_deadline: Option<Instant>,
    /// Stop searching at this instant, mid-iteration if need be.
    pub hard_deadline: Option<Instant>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<i32>,
    /// Only these root moves (UCI `searchmoves`); empty means all.
    pub searchmoves: Vec<Move>,
    /// How many best lines to find (UCI `MultiPV`); 0 and 1 both mean one.
    pub multipv: usize,
    /// The run-time search settings.
    pub params: SearchParams,
    /// Endgame tables probed inside the search (exact mate scores) and at the root (the moves that
    /// keep the best distance to mate); `None`: none.
    pub tablebases: Option<std::sync::Arc<crate::tablebase::TableSet>>,
}
