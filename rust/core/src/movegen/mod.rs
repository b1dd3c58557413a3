//! Move generation: the legal generator (by kind: all, captures, quiets, evasions; into a list or a
//! counter), and the `Position` methods that need it (legality of any move, UCI parsing). The attack
//! tables it reads are the ground floor's ([`crate::attacks`]).

mod generate;
mod legal;
mod movelist;

pub use generate::{GenKind, MoveCounter, MoveSink};
pub use movelist::{MoveList, MAX_MOVES};
