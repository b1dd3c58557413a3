#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod game;
mod search;

pub use camelpy_core::{tt::TableMove, Score, Value};
pub use game::Game;
pub use search::{Iteration, Limits, SearchResult, Searcher, HISTORY_MAX};
