//! Moves between the core's 16-bit `Move` and python-chess's `chess.Move`.
//!
//! `chess.Move` objects are immutable in practice, so each distinct (from, to, promotion) is created once
//! and then shared: returning a legal move list costs one reference count per move, not one Python
//! constructor call, and `push` recognises its own objects by address instead of reading three
//! attributes (the Python-level walk benchmark depends on both). This relies on python-chess's contract
//! that a `Move` is a value: code that assigned to `move.to_square` of a move camelpy handed out would
//! change that shared object.

use std::{
    collections::HashMap,
    hash::{BuildHasherDefault, Hasher},
};

use camelpy_core::{
    attacks::{knight_attacks, queen_attacks},
    Bitboard, Color, Move, PieceType, Position, Rank, Square,
};
use pyo3::{exceptions::PyTypeError, intern, prelude::*, sync::PyOnceLock, types::PyString};

use crate::errors::InvalidMoveError;

/// python-chess's piece-type numbers (PAWN = 1 .. KING = 6) for promotions.
fn promotion_number(pt: Option<PieceType>) -> usize {
    pt.map_or(0, |pt| pt.index() + 1)
}

/// Index of (from, to, promotion number) in the cache table.
fn slot(from: usize, to: usize, promotion: usize) -> usize {
    (promotion * 64 + to) * 64 + from
}

const CACHE_SIZE: usize = 64 * 64 * 7;

/// Hashes an object address: addresses are unique while the (immortal, cached) objects live.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _bytes: &[u8]) {
        unreachable!("only usize keys")
    }
    fn write_usize(&mut self, address: usize) {
        self.0 = (address as u64 >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

struct MoveCache {
    class: Py<PyAny>,
    /// The shared `chess.Move` of every move a piece could make on an empty board (with promotions).
    moves: Vec<Option<Py<PyAny>>>,
    /// Address of a cached `chess.Move` → its (from, to, promotion number): `push` skips three
    /// attribute reads for the moves `legal_moves` handed out.
    by_address: HashMap<usize, (Square, Square, Option<PieceType>), BuildHasherDefault<AddressHasher>>,
}

static CACHE: PyOnceLock<MoveCache> = PyOnceLock::new();

fn cache(py: Python<'_>) -> PyResult<&'static MoveCache> {
    CACHE.get_or_try_init(py, || {
        // About 2,000 objects, created once (~1 ms): queen and knight lines from every square, plus
        // pawn promotions (straight or diagonal) onto the last ranks.
        let class = py.import("chess")?.getattr("Move")?.unbind();
        let mut moves: Vec<Option<Py<PyAny>>> = (0..CACHE_SIZE).map(|_| None).collect();
        let mut by_address = HashMap::default();
        let mut add = |from: Square, to: Square, promotion: Option<PieceType>| -> PyResult<()> {
            let number = promotion_number(promotion);
            let promo: Option<usize> = (number != 0).then_some(number);
            let obj = class.bind(py).call1((from.index(), to.index(), promo))?.unbind();
            by_address.insert(obj.as_ptr() as usize, (from, to, promotion));
            moves[slot(from.index(), to.index(), number)] = Some(obj);
            Ok(())
        };
        for from in Square::ALL {
            for to in queen_attacks(from, Bitboard::EMPTY) | knight_attacks(from) {
                add(from, to, None)?;
            }
            for (color, rank) in [(Color::White, Rank::Seventh), (Color::Black, Rank::Second)] {
                if from.rank() == rank {
                    let forward = if color == Color::White { 1 } else { -1 };
                    for df in -1..=1 {
                        if let Some(to) = from.try_offset(df, forward) {
                            for pt in
                                [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen]
                            {
                                add(from, to, Some(pt))?;
                            }
                        }
                    }
                }
            }
        }
        Ok(MoveCache { class, moves, by_address })
    })
}

/// The `chess.Move` for `from`→`to` with `promotion` (python-chess number, 0 for none).
fn chess_move_raw(py: Python<'_>, from: usize, to: usize, promotion: usize) -> PyResult<Py<PyAny>> {
    let cache = cache(py)?;
    match &cache.moves[slot(from, to, promotion)] {
        Some(m) => Ok(m.clone_ref(py)),
        None => {
            let promo: Option<usize> = (promotion != 0).then_some(promotion);
            Ok(cache.class.bind(py).call1((from, to, promo))?.unbind())
        }
    }
}

/// `mv` as a `chess.Move`, castling written as python-chess does for this mode (`e1g1`, or king takes
/// rook with Chess960).
pub fn to_chess_move(py: Python<'_>, mv: Move, chess960: bool) -> PyResult<Py<PyAny>> {
    let to = if chess960 { mv.to() } else { mv.king_destination() };
    chess_move_raw(py, mv.from().index(), to.index(), promotion_number(mv.promotion()))
}

/// A move given from Python: a `chess.Move` or a UCI string.
pub enum MoveInput {
    /// UCI text, parsed by the core against the position.
    Uci(String),
    /// The fields of a `chess.Move`.
    Fields { from: Square, to: Square, promotion: Option<PieceType> },
}

impl MoveInput {
    /// Reads a `chess.Move` or `str`; anything else is a `TypeError`.
    pub fn extract(obj: &Bound<'_, PyAny>) -> PyResult<MoveInput> {
        if let Ok(s) = obj.cast::<PyString>() {
            // Lossy: a lone surrogate becomes U+FFFD and the parser rejects it with a quoted message.
            return Ok(MoveInput::Uci(s.to_string_lossy().into_owned()));
        }
        let py = obj.py();
        if let Some(&(from, to, promotion)) = cache(py)?.by_address.get(&(obj.as_ptr() as usize)) {
            return Ok(MoveInput::Fields { from, to, promotion });
        }
        let (Ok(from), Ok(to), Ok(promotion), drop) = (
            obj.getattr(intern!(py, "from_square")),
            obj.getattr(intern!(py, "to_square")),
            obj.getattr(intern!(py, "promotion")),
            obj.getattr(intern!(py, "drop")),
        ) else {
            return Err(PyTypeError::new_err(format!(
                "expected a chess.Move or a UCI string, got {}",
                obj.get_type().name()?
            )));
        };
        let field = |v: &Bound<'_, PyAny>| v.repr().map_or_else(|_| "?".to_string(), |r| r.to_string());
        let invalid = || {
            InvalidMoveError::new_err(format!(
                "invalid move: Move(from_square={}, to_square={}, promotion={}{})",
                field(&from),
                field(&to),
                field(&promotion),
                drop.as_ref().map_or(String::new(), |d| format!(", drop={}", field(d)))
            ))
        };
        if drop.as_ref().is_ok_and(|d| !d.is_none()) {
            return Err(invalid());
        }
        let square = |v: &Bound<'_, PyAny>| v.extract::<usize>().ok().and_then(Square::try_index);
        let (Some(from_sq), Some(to_sq)) = (square(&from), square(&to)) else { return Err(invalid()) };
        let promotion_type = if promotion.is_none() {
            None
        } else {
            let n: usize = promotion.extract().map_err(|_| invalid())?;
            match n {
                2..=5 => Some(PieceType::ALL[n - 1]),
                _ => return Err(invalid()),
            }
        };
        Ok(MoveInput::Fields { from: from_sq, to: to_sq, promotion: promotion_type })
    }

    /// The legal move this input names in `pos` (whose legal moves are `legal`), or the core's error.
    pub fn resolve(&self, pos: &Position, legal: &[Move]) -> Result<Move, camelpy_core::MoveError> {
        match self {
            MoveInput::Uci(s) => pos.parse_uci(s),
            MoveInput::Fields { from, to, promotion } => {
                pos.match_move(legal, *from, *to, *promotion).ok_or_else(|| {
                    let mut uci = if from == to { "0000".to_string() } else { format!("{from}{to}") };
                    if let Some(pt) = promotion.filter(|_| from != to) {
                        uci.push(pt.to_char());
                    }
                    camelpy_core::MoveError::Illegal { uci, fen: pos.fen() }
                })
            }
        }
    }
}
