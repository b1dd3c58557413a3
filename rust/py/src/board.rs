//! `camelpy.Position`: the core `Position` for code that walks positions from Python.

use camelpy_core::{Color, MoveList, Position, STARTING_FEN};
use pyo3::{
    basic::CompareOp,
    exceptions::PyIndexError,
    prelude::*,
    types::{IntoPyDict, PyList, PyTuple},
};

use crate::{
    args::opt_int_arg,
    convert::{to_chess_move, MoveInput},
    errors::{fen_error, move_error},
};

/// A chess position with its move stack, backed by the Rust core.
///
/// Squares, colours and moves follow python-chess (``A1 = 0``, ``WHITE = True``, ``chess.Move``).
/// Castling is ``e1g1`` in standard chess and king-takes-rook (``e1h1``) in Chess960, as python-chess
/// writes it.
///
/// >>> import camelpy
/// >>> pos = camelpy.Position()
/// >>> len(pos.legal_moves())
/// 20
/// >>> pos.push("e2e4")
/// >>> pos.fen()
/// 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
/// >>> pos.pop()
/// Move.from_uci('e2e4')
///
/// :raises: :exc:`camelpy.InvalidFenError` if *fen* is malformed or describes an impossible position.
#[pyclass(module = "camelpy", name = "Position")]
pub struct PyPosition {
    /// Boxed: the core's position is 64-byte aligned (its state is, for make/unmake's copies), and
    /// Python allocates a class's objects only 16-byte aligned; the box is allocated by Rust.
    pos: Box<Position>,
    /// The FEN the position was set up from (for `to_board`, pickling and `from_board` round trips).
    root_fen: String,
    /// `legal[ply]`: the legal moves of the position at that ply, once computed. A walk calls
    /// `legal_moves()` and then `push`es each of them; with this memo `push` checks legality without
    /// generating again. Entries above the current ply are dropped on `push` (a new child); `pop`
    /// returns to a position whose entry is still exact.
    legal: Vec<Option<MoveList>>,
}

// Python places a class's object at 16-byte alignment: anything more aligned must sit behind a pointer.
const _: () = assert!(core::mem::align_of::<PyPosition>() <= 16);

impl PyPosition {
    fn from_core(pos: Position, root_fen: String) -> PyPosition {
        PyPosition { pos: Box::new(pos), root_fen, legal: Vec::new() }
    }

    /// The legal moves of the current position, from the memo or generated now.
    fn legal(&mut self) -> &MoveList {
        let ply = self.pos.ply();
        if self.legal.len() <= ply {
            self.legal.resize_with(ply + 1, || None);
        }
        let pos = &self.pos;
        self.legal[ply].get_or_insert_with(|| pos.legal_moves())
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (fen = STARTING_FEN, chess960 = false))]
    fn new(fen: &str, chess960: bool) -> PyResult<PyPosition> {
        let pos = Position::from_fen(fen, chess960).map_err(fen_error)?;
        let root_fen = pos.fen_with(chess960);
        Ok(PyPosition::from_core(pos, root_fen))
    }

    /// Sets up the root of a ``chess.Board`` and replays its move stack (Chess960 taken from the board).
    ///
    /// >>> import chess, camelpy
    /// >>> board = chess.Board()
    /// >>> board.push_uci("g1f3")
    /// Move.from_uci('g1f3')
    /// >>> camelpy.Position.from_board(board).fen() == board.fen()
    /// True
    ///
    /// :raises: :exc:`camelpy.InvalidFenError` if the root is invalid, :exc:`camelpy.IllegalMoveError`
    ///     if the stack holds an illegal move (python-chess does not check ``push``).
    #[staticmethod]
    fn from_board(board: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let chess960: bool = board.getattr("chess960")?.extract()?;
        let root = board.call_method0("root")?;
        let kwargs = [("shredder", chess960)].into_py_dict(board.py())?;
        let fen: String = root.call_method("fen", (), Some(&kwargs))?.extract()?;
        let mut position = PyPosition::new(&fen, chess960)?;
        for mv in board.getattr("move_stack")?.try_iter()? {
            position.push(&mv?)?;
        }
        Ok(position)
    }

    /// The position as a ``chess.Board`` with the same move stack.
    fn to_board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let chess = py.import("chess")?;
        let kwargs = [("chess960", self.pos.is_chess960())].into_py_dict(py)?;
        let board = chess.getattr("Board")?.call((self.root_fen.as_str(),), Some(&kwargs))?;
        for mv in self.move_stack(py)? {
            board.call_method1("push", (mv,))?;
        }
        Ok(board)
    }

    /// The FEN, as python-chess's ``Board.fen()`` writes it (X-FEN castling in Chess960, or Shredder
    /// letters with ``shredder=True``; the en-passant square only when a legal capture exists).
    #[pyo3(signature = (*, shredder = false))]
    fn fen(&self, shredder: bool) -> String {
        self.pos.fen_with(shredder)
    }

    /// The legal moves, as ``chess.Move`` objects.
    fn legal_moves<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let chess960 = self.pos.is_chess960();
        let moves = self.legal();
        let items = moves.iter().map(|&m| to_chess_move(py, m, chess960)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// Plays a move given as a ``chess.Move`` or a UCI string.
    ///
    /// :raises: :exc:`camelpy.InvalidMoveError` for text that is not UCI, :exc:`camelpy.IllegalMoveError`
    ///     for a move that is not legal here. The position is unchanged after an error.
    fn push(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let input = MoveInput::extract(mv)?;
        self.legal();
        let legal = self.legal[self.pos.ply()].as_ref().expect("memo filled by legal()");
        let mv = input.resolve(&self.pos, legal).map_err(move_error)?;
        self.pos.play_unchecked(mv);
        self.legal.truncate(self.pos.ply());
        Ok(())
    }

    /// Takes back the last move and returns it.
    ///
    /// :raises: :exc:`IndexError` if the move stack is empty.
    fn pop(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let chess960 = self.pos.is_chess960();
        match self.pos.undo_move() {
            Some(Some(mv)) => to_chess_move(py, mv, chess960),
            Some(None) => Ok(py.import("chess")?.getattr("Move")?.call_method0("null")?.unbind()),
            None => Err(PyIndexError::new_err("pop from empty move stack")),
        }
    }

    /// The moves played since the root, oldest first.
    #[getter]
    fn move_stack(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let chess960 = self.pos.is_chess960();
        self.pos.moves_played().flatten().map(|m| to_chess_move(py, m, chess960)).collect()
    }

    /// The side to move: ``chess.WHITE`` (True) or ``chess.BLACK`` (False).
    #[getter]
    fn turn(&self) -> bool {
        self.pos.side_to_move() == Color::White
    }

    /// True if castling moves and FENs use Chess960 conventions.
    #[getter]
    fn chess960(&self) -> bool {
        self.pos.is_chess960()
    }

    /// The 64-bit Zobrist key (camelpy's own keys, not Polyglot's), updated incrementally.
    #[getter]
    fn zobrist_key(&self) -> u64 {
        self.pos.key()
    }

    /// The half-move clock (plies since the last capture or pawn move).
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.pos.halfmove_clock()
    }

    /// The full-move number.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos.fullmove_number()
    }

    /// True if the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// True if the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.pos.is_checkmate()
    }

    /// True if the side to move is stalemated.
    fn is_stalemate(&self) -> bool {
        self.pos.is_stalemate()
    }

    /// True if neither side has mating material (python-chess's rule).
    fn is_insufficient_material(&self) -> bool {
        self.pos.is_insufficient_material()
    }

    /// True if the position occurred at least *count* times since the last irreversible move.
    #[pyo3(signature = (count = None))]
    fn is_repetition(&self, count: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let count = opt_int_arg(count, "count", 0, u64::MAX)?.unwrap_or(3);
        Ok(self.pos.repetition_count() as u64 >= count)
    }

    /// True if the game is over without a claim, as python-chess's ``is_game_over()``: checkmate,
    /// stalemate, insufficient material, the 75-move rule or fivefold repetition.
    fn is_game_over(&self) -> bool {
        self.pos.is_game_over()
    }

    /// An independent copy, with the move stack.
    fn copy(&self) -> PyPosition {
        PyPosition::from_core((*self.pos).clone(), self.root_fen.clone())
    }

    fn __copy__(&self) -> PyPosition {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.copy()
    }

    fn __repr__(&self) -> String {
        let fen = self.pos.fen();
        if self.pos.is_chess960() {
            format!("Position('{fen}', chess960=True)")
        } else {
            format!("Position('{fen}')")
        }
    }

    fn __str__(&self) -> String {
        self.pos.fen()
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<PyPosition>() else { return Ok(py.NotImplemented()) };
        let equal = self.pos == other.borrow().pos;
        match op {
            CompareOp::Eq => Ok(equal.into_pyobject(py)?.to_owned().into_any().unbind()),
            CompareOp::Ne => Ok((!equal).into_pyobject(py)?.to_owned().into_any().unbind()),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        // Equal positions have equal keys; the clocks are left out (they rarely differ).
        self.pos.key()
    }

    /// Pickles as the root FEN, the Chess960 flag and the moves in UCI.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.borrow();
        let chess960 = this.pos.is_chess960();
        let moves: Vec<String> = this.pos.moves_played().flatten().map(|m| m.to_uci(true)).collect();
        let restore = py.import("camelpy._core")?.getattr("_restore_position")?;
        PyTuple::new(py, [restore, (this.root_fen.as_str(), chess960, moves).into_pyobject(py)?.into_any()])
    }
}

/// Rebuilds a pickled `Position` (see `Position.__reduce__`); moves are in king-takes-rook UCI.
#[pyfunction]
pub fn _restore_position(root_fen: &str, chess960: bool, moves: Vec<String>) -> PyResult<PyPosition> {
    let mut pos = Position::from_fen(root_fen, chess960).map_err(fen_error)?;
    for uci in moves {
        let mv = pos.parse_uci(&uci).map_err(move_error)?;
        pos.play_unchecked(mv);
    }
    Ok(PyPosition::from_core(pos, root_fen.to_string()))
}
