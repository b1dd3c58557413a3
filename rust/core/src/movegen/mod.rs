//! Move generation: attack tables (leapers, our own magic sliders), and the legal generator.

pub mod attacks;
mod generate;
pub mod magics;
mod movelist;

pub use generate::{GenKind, MoveCounter, MoveSink};
pub use movelist::{MoveList, MAX_MOVES};
