//! `camelpy.minichess`'s native half: the core MiniChess `Board` and perft (conversion only; the Python
//! `camelpy.minichess.Board` wraps this class and owns the API). Moves cross as 4-tuples
//! `(from_row, from_col, to_row, to_col)`; board texts are the crate's one-line form or the course's
//! `state` file.

use std::sync::atomic::AtomicBool;

use camelpy_minichess::{perft as core_perft, Board, Color, Move, Square, MAX_PLIES, MAX_PLY, START_TEXT};
use pyo3::{
    exceptions::{PyIndexError, PyValueError},
    prelude::*,
};

use crate::{
    args::{int_arg, MAX_PERFT_DEPTH},
    errors::{IllegalMoveError, InvalidMoveError, InvalidStateError},
    interrupt,
};

/// The start in the one-line text form.
pub const START: &str = START_TEXT;
/// Plies after which a game ends by the material count.
pub const PLIES: u32 = MAX_PLIES;

/// A move as the 4-tuple Python sees.
type MoveTuple = (u8, u8, u8, u8);

fn to_tuple(mv: Move) -> MoveTuple {
    (mv.from.row(), mv.from.col(), mv.to.row(), mv.to.col())
}

/// A MiniChess board (the core's; use ``camelpy.minichess.Board``).
///
/// >>> from camelpy._core import MiniBoard
/// >>> board = MiniBoard()
/// >>> board.legal_moves()[:2]
/// [(4, 0, 3, 0), (4, 1, 3, 1)]
/// >>> board.push((4, 2, 3, 2))
/// >>> board.text()
/// 'kqbnr/ppppp/5/2P2/PP1PP/RNBQK b 1'
#[pyclass(module = "camelpy._core", name = "MiniBoard")]
#[derive(Clone)]
pub struct PyMiniBoard {
    board: Board,
}

#[pymethods]
impl PyMiniBoard {
    #[new]
    #[pyo3(signature = (text = START_TEXT))]
    fn new(text: &str) -> PyResult<PyMiniBoard> {
        Board::from_text(text)
            .map(|board| PyMiniBoard { board })
            .map_err(|e| InvalidStateError::new_err(e.to_string()))
    }

    /// The board a course ``state`` file describes, *ply* plies into the game.
    #[staticmethod]
    fn from_state(text: &str, ply: &Bound<'_, PyAny>) -> PyResult<PyMiniBoard> {
        let ply = int_arg(ply, "ply", 0, u64::from(MAX_PLY))? as u32;
        Board::from_state(text, ply)
            .map(|board| PyMiniBoard { board })
            .map_err(|e| InvalidStateError::new_err(e.to_string()))
    }

    /// The one-line text form.
    fn text(&self) -> String {
        self.board.to_text()
    }

    /// The course ``state`` file text.
    fn state(&self) -> String {
        self.board.to_state()
    }

    /// The legal moves, in square order (none once the game is over).
    fn legal_moves(&self) -> Vec<MoveTuple> {
        self.board.legal_moves().iter().map(|&mv| to_tuple(mv)).collect()
    }

    /// Plays *mv*; raises ``camelpy.errors.InvalidMoveError`` for squares off the board and
    /// ``camelpy.errors.IllegalMoveError`` for a move not legal here (the board is left unchanged).
    fn push(&mut self, mv: MoveTuple) -> PyResult<()> {
        let (fr, fc, tr, tc) = mv;
        let (Some(from), Some(to)) = (Square::new(fr, fc), Square::new(tr, tc)) else {
            return Err(InvalidMoveError::new_err(format!(
                "invalid move (squares off the 6x5 board): '{fr} {fc} {tr} {tc}'"
            )));
        };
        self.board.try_play(Move::new(from, to)).map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }

    /// Takes back the last move and returns it; ``IndexError`` when there is none.
    fn pop(&mut self) -> PyResult<MoveTuple> {
        self.board.undo().map(to_tuple).ok_or_else(|| PyIndexError::new_err("pop from empty move stack"))
    }

    /// The moves played on this board, oldest first.
    fn move_stack(&self) -> Vec<MoveTuple> {
        self.board.move_stack().map(to_tuple).collect()
    }

    /// ``True`` when White is to move.
    #[getter]
    fn turn(&self) -> bool {
        self.board.side_to_move() == Color::White
    }

    /// Plies played in the game.
    #[getter]
    fn ply(&self) -> u32 {
        self.board.ply()
    }

    /// The Zobrist key.
    #[getter]
    fn zobrist_key(&self) -> u64 {
        self.board.key()
    }

    /// ``(termination, winner)`` once the game is over (winner ``True`` White, ``False`` Black, ``None``
    /// a draw), else ``None``.
    fn outcome(&self) -> Option<(&'static str, Option<bool>)> {
        self.board.outcome().map(|o| (o.termination.name(), o.winner.map(|c| c == Color::White)))
    }

    /// A side's material by the 50-ply count (``True``: White).
    fn material(&self, white: bool) -> i32 {
        self.board.material(if white { Color::White } else { Color::Black })
    }

    /// The letter of the piece on (*row*, *col*) (``KQBNRP`` White, lowercase Black), or ``None``.
    fn piece_at(&self, row: u8, col: u8) -> PyResult<Option<char>> {
        let sq = Square::new(row, col).ok_or_else(|| {
            PyValueError::new_err(format!("no square at row {row} column {col} on the 6x5 board"))
        })?;
        Ok(self.board.piece_at(sq).map(|p| p.symbol()))
    }

    /// A copy, with its move stack.
    fn copy(&self) -> PyMiniBoard {
        self.clone()
    }
}

/// Leaves of the legal move tree *depth* plies below *board*, counted with the GIL released.
#[pyfunction]
pub fn minichess_perft(py: Python<'_>, board: &PyMiniBoard, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
    let depth = int_arg(depth, "depth", 0, MAX_PERFT_DEPTH)? as u32;
    let mut board = board.board.clone();
    if depth <= 4 {
        return Ok(py.detach(|| core_perft::perft(&mut board, depth)));
    }
    let stop = AtomicBool::new(false);
    interrupt::run_silent(py, &stop, || core_perft::perft_interruptible(&mut board, depth, &stop))?
        .ok_or_else(|| PyValueError::new_err("perft was stopped"))
}
