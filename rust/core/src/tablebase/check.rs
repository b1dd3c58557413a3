//! An exhaustive check of a solved table by the core's own move generator.
//!
//! Every used slot of the table, with either side to move, is made into a [`Position`] (validated as
//! a FEN is); its stored value must equal the best, for the side to move, of its legal moves' values
//! read one ply on through [`TableSet::probe`] (en passant included), a checkmate being lost in 0
//! and a stalemate drawn. The solver's move and retro-move generator, its layers, the symmetry
//! folding and the indexing are all checked by it, against the perft-checked generator of the core.
//! When every table an ending leads to is right, a table passing this check is exactly right: a
//! win's value is grounded, move by move, in a mate, and a loss in wins of smaller distance.

use std::sync::{
    atomic::{AtomicBool, AtomicUsize, Ordering},
    Mutex,
};

use super::{
    index::Sq,
    material::{Material, MAX_PIECES},
    table::{decode, TableSet, TbValue},
    TablebaseError,
};
use crate::{
    types::{Color, Piece, Square},
    Position,
};

/// Slots per work item (small enough to balance threads, large enough to keep the counter cold).
const CHUNK: usize = 1 << 14;
/// Mismatches kept as examples in a report.
const EXAMPLES: usize = 10;

/// What [`check`] found in one table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Positions checked (used slots with either side to move, legal ones).
    pub positions: u64,
    /// Of them, won or lost for the side to move.
    pub decisive: u64,
    /// Used slots that are not a legal position (the side not to move in check): not checked.
    pub illegal: u64,
    /// Positions whose stored value is not the best of their moves' values.
    pub mismatches: u64,
    /// The first few mismatches, as `FEN: stored value, moves give value`.
    pub examples: Vec<String>,
}

/// Checks every position of `material`'s table in `set` on `threads` threads; every table its
/// captures and promotions lead to must be in `set` too. `stop` set from another thread abandons the
/// check (`TablebaseError::Stopped`).
///
/// ```
/// use std::{sync::{atomic::AtomicBool, Arc}};
/// use camelpy_core::tablebase::{check, solve, Material, TableSet};
///
/// let stop = AtomicBool::new(false);
/// let mut set = TableSet::new();
/// let (krk, _) = solve(Material::parse("KRvK").unwrap(), &set, 2, &stop).unwrap();
/// set.insert(Arc::new(krk));
/// let report = check(&set, Material::parse("KRvK").unwrap(), 2, &stop).unwrap();
/// assert_eq!(report.mismatches, 0);
/// assert_eq!((report.positions, report.decisive, report.illegal), (50_015, 47_219, 6_097));
/// ```
pub fn check(
    set: &TableSet,
    material: Material,
    threads: usize,
    stop: &AtomicBool,
) -> Result<CheckReport, TablebaseError> {
    let missing = |m: &Material| TablebaseError::MissingTable { material: m.to_string() };
    let material = material.canonical();
    let table = set.get(&material).ok_or_else(|| missing(&material))?;
    if let Some(absent) = material.successors().iter().find(|m| !set.contains(m)) {
        return Err(missing(absent));
    }
    let layout = &table.layout;
    let pieces: Vec<Piece> = layout.pieces.iter().map(|&(color, pt)| Piece::new(color, pt)).collect();
    let slots = 2 * layout.size;
    let next = AtomicUsize::new(0);
    let total = Mutex::new(CheckReport::default());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut report = CheckReport::default();
                let mut squares = [0 as Sq; MAX_PIECES];
                let mut placed: Vec<(Piece, Square)> = Vec::with_capacity(MAX_PIECES);
                loop {
                    let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if start >= slots || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    for slot in start..(start + CHUNK).min(slots) {
                        let (index, turn) = if slot < layout.size {
                            (slot, Color::White)
                        } else {
                            (slot - layout.size, Color::Black)
                        };
                        if !layout.decode(index, &mut squares) {
                            continue;
                        }
                        placed.clear();
                        placed.extend(
                            pieces.iter().zip(&squares).map(|(&p, &s)| (p, Square::ALL[usize::from(s)])),
                        );
                        let Ok(mut position) = Position::from_pieces(&placed, turn) else {
                            report.illegal += 1;
                            continue;
                        };
                        let stored = decode(table.code(slot), table.width);
                        let expected = best_of_moves(set, &mut position);
                        report.positions += 1;
                        report.decisive += u64::from(!matches!(stored, Some(TbValue::Draw)));
                        if stored != expected {
                            report.mismatches += 1;
                            if report.examples.len() < EXAMPLES {
                                report.examples.push(format!(
                                    "{}: stored {}, moves give {}",
                                    position.fen(),
                                    describe(stored),
                                    describe(expected)
                                ));
                            }
                        }
                    }
                }
                let mut total = total.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                total.positions += report.positions;
                total.decisive += report.decisive;
                total.illegal += report.illegal;
                total.mismatches += report.mismatches;
                total.examples.extend(report.examples);
            });
        }
    });
    if stop.load(Ordering::Relaxed) {
        return Err(TablebaseError::Stopped);
    }
    let mut report = total.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    report.examples.sort();
    report.examples.truncate(EXAMPLES);
    Ok(report)
}

/// The value of `position` for its side to move by its legal moves, one ply on (`None` if a table
/// is missing for a successor, which [`check`] rules out beforehand).
fn best_of_moves(set: &TableSet, position: &mut Position) -> Option<TbValue> {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return Some(if position.is_check() { TbValue::Loss(0) } else { TbValue::Draw });
    }
    let mut best: Option<TbValue> = None;
    for &mv in moves.iter() {
        position.play(mv);
        let value = set.probe(position).map(TbValue::before_move);
        position.undo_move();
        let value = value?;
        if best.is_none_or(|b| value.rank() > b.rank()) {
            best = Some(value);
        }
    }
    best
}

fn describe(value: Option<TbValue>) -> String {
    match value {
        None => "nothing".to_string(),
        Some(v) => format!("{v:?}"),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::tablebase::{solve, table::encode};

    #[test]
    fn a_tampered_entry_is_caught_and_named() {
        let stop = AtomicBool::new(false);
        let material = Material::parse("KQvK").unwrap();
        let mut set = TableSet::new();
        set.insert(Arc::new(solve(material, &TableSet::new(), 2, &stop).unwrap().0));
        let clean = check(&set, material, 2, &stop).unwrap();
        assert_eq!((clean.mismatches, clean.examples.len()), (0, 0));
        assert!(clean.illegal > 0 && clean.decisive > 0 && clean.positions > clean.decisive);

        // The first used White-to-move slot that mates in one, stored as a mate in two instead.
        let (mut table, _) = solve(material, &TableSet::new(), 2, &stop).unwrap();
        let mut squares = [0 as Sq; MAX_PIECES];
        let slot = (0..table.layout.size)
            .find(|&s| {
                decode(table.code(s), 1) == Some(TbValue::Win(1)) && table.layout.decode(s, &mut squares)
            })
            .unwrap();
        table.entries[slot] = u8::try_from(encode(TbValue::Win(3), 1).unwrap()).unwrap();
        let mut set = TableSet::new();
        set.insert(Arc::new(table));
        let tampered = check(&set, material, 2, &stop).unwrap();
        assert_eq!(tampered.positions, clean.positions);
        assert!(tampered.mismatches >= 1, "{tampered:?}");
        assert!(
            tampered.examples.iter().any(|e| e.contains("stored Win(3), moves give Win(1)")),
            "{tampered:?}"
        );
    }

    #[test]
    fn missing_tables_are_errors() {
        let stop = AtomicBool::new(false);
        let mut full = TableSet::new();
        for name in ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"] {
            full.insert(Arc::new(solve(Material::parse(name).unwrap(), &full, 1, &stop).unwrap().0));
        }
        let kpk = Material::parse("KPvK").unwrap();
        assert_eq!(check(&full, kpk, 1, &stop).unwrap().mismatches, 0);
        // A promotion to a rook needs KRvK.
        let mut partial = TableSet::new();
        for name in ["KQvK", "KBvK", "KNvK", "KPvK"] {
            partial.insert(Arc::clone(full.get(&Material::parse(name).unwrap()).unwrap()));
        }
        let err = check(&partial, kpk, 1, &stop).unwrap_err();
        assert!(matches!(&err, TablebaseError::MissingTable { material } if material == "KRvK"), "{err}");
        let err = check(&partial, Material::parse("KQvKR").unwrap(), 1, &stop).unwrap_err();
        assert!(matches!(&err, TablebaseError::MissingTable { material } if material == "KQvKR"), "{err}");
    }
}
