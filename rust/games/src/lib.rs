#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod error;
pub mod eval;
mod game;
mod parallel;
pub mod perft;
mod search;
pub mod selfplay;
mod sides;
pub mod zobrist;

pub use camelpy_core::{tt::TableMove, AllocError, Score, Value};
pub use error::{IllegalMoveError, MoveError, ParseMoveError, ParsePositionError, Wording};
pub use game::{Game, Rules};
pub use parallel::in_parallel;
pub use perft::Perft;
pub use search::{
    Iteration, Limits, SearchResult, SearchSettings, Searcher, SettingSpec, HISTORY_MAX, LMP_MAX_DEPTH,
    MAX_ASPIRATION, MAX_LATE_MOVES, MAX_THREADS, MAX_THREATS, SETTINGS,
};
pub use selfplay::{Sample, SelfPlaySettings};
pub use zobrist::ZobristKeys;
