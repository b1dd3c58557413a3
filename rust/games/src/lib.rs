#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod game;
mod parallel;
mod search;

pub use camelpy_core::{tt::TableMove, Score, Value};
pub use game::Game;
pub use parallel::in_parallel;
pub use search::{Iteration, Limits, SearchResult, Searcher, HISTORY_MAX, MAX_THREADS};
