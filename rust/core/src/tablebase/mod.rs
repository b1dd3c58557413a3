//! Endgame tablebases: our own retrograde solver, its file format and probing.
//!
//! Every position of an ending (up to [`MAX_PIECES`] pieces, kings included; no castling rights;
//! en passant resolved at probe time) gets its exact distance to mate (DTM) in plies with best play,
//! or a draw: [`solve`] builds one ending's [`Table`] from the tables a capture or promotion leads to,
//! [`generate`] a set of them in order. The fifty-move rule is not part of the value (as in
//! Gaviota's and Nalimov's DTM tables).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use camelpy_core::tablebase::{solve, Material, TableSet, TbValue};
//!
//! let stop = AtomicBool::new(false);
//! let (table, _) = solve(Material::parse("KQvK").unwrap(), &TableSet::new(), 2, &stop).unwrap();
//! // The longest mate with king and queen against king is 10 moves: 19 plies.
//! assert_eq!(table.stats().longest_win, 19);
//! ```

mod board;
mod check;
mod error;
mod file;
mod generate;
mod index;
mod material;
mod table;

pub use check::{check, CheckReport};
pub use error::TablebaseError;
pub use file::{generate, GenerateReport, TB_EXTENSION, TB_VERSION};
pub use generate::{solve, SolveStats};
pub use material::{Material, MAX_PIECES, ORDER};
pub use table::{Table, TableSet, TableStats, TbValue};
