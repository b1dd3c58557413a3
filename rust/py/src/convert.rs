//! Moves between the core's 16-bit `Move` and python-chess's `chess.Move`.
//!
//! `chess.Move` objects are immutable in practice, so each distinct (from, to, promotion) is created once
//! and then shared: returning a legal move list costs one reference count per move, not one Python
//! constructor call (measured: the Python-level walk benchmark depends on it).

use camelpy_core::{Move, PieceType, Position, Square};
use pyo3::{exceptions::PyTypeError, intern, prelude::*, sync::PyOnceLock, types::PyString};

use crate::errors::InvalidMoveError;

/// python-chess's piece-type numbers (PAWN = 1 .. KING = 6) for promotions.
fn promotion_number(pt: Option<PieceType>) -> usize {
    pt.map_or(0, |pt| pt.index() + 1)
}

const CACHE_SIZE: usize = 64 * 64 * 7;

struct MoveCache {
    class: Py<PyAny>,
    moves: Vec<PyOnceLock<Py<PyAny>>>,
}

static CACHE: PyOnceLock<MoveCache> = PyOnceLock::new();

fn cache(py: Python<'_>) -> PyResult<&'static MoveCache> {
    CACHE.get_or_try_init(py, || {
        let class = py.import("chess")?.getattr("Move")?.unbind();
        Ok(MoveCache { class, moves: (0..CACHE_SIZE).map(|_| PyOnceLock::new()).collect() })
    })
}

/// The `chess.Move` for `from`→`to` with `promotion` (python-chess number, 0 for none).
fn chess_move_raw(py: Python<'_>, from: usize, to: usize, promotion: usize) -> PyResult<Py<PyAny>> {
    let cache = cache(py)?;
    let slot = &cache.moves[(promotion * 64 + to) * 64 + from];
    if let Some(m) = slot.get(py) {
        return Ok(m.clone_ref(py));
    }
    let promo: Option<usize> = (promotion != 0).then_some(promotion);
    let m = cache.class.bind(py).call1((from, to, promo))?.unbind();
    Ok(slot.get_or_init(py, || m).clone_ref(py))
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
            return Ok(MoveInput::Uci(s.to_cow()?.into_owned()));
        }
        let py = obj.py();
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
        let invalid = || {
            InvalidMoveError::new_err(format!(
                "invalid move: {}",
                obj.repr().map(|r| r.to_string()).unwrap_or_default()
            ))
        };
        if drop.is_ok_and(|d| !d.is_none()) {
            return Err(invalid());
        }
        let square = |v: Bound<'_, PyAny>| v.extract::<usize>().ok().and_then(Square::try_index);
        let (Some(from), Some(to)) = (square(from), square(to)) else { return Err(invalid()) };
        let promotion = if promotion.is_none() {
            None
        } else {
            let n: usize = promotion.extract().map_err(|_| invalid())?;
            match n {
                2..=5 => Some(PieceType::ALL[n - 1]),
                _ => return Err(invalid()),
            }
        };
        Ok(MoveInput::Fields { from, to, promotion })
    }

    /// The legal move this input names in `pos`, or the core's error.
    pub fn resolve(&self, pos: &Position) -> Result<Move, camelpy_core::MoveError> {
        match self {
            MoveInput::Uci(s) => pos.parse_uci(s),
            MoveInput::Fields { from, to, promotion } => {
                pos.find_move(*from, *to, *promotion).ok_or_else(|| {
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
