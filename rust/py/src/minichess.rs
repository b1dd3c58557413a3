//! `camelpy.minichess`'s native half: MiniChess's rules for the small games' bindings (`games`), and
//! what only MiniChess has (the course's `state` file, the material count, the baseline players).
//! Conversion only: moves cross as 4-tuples `(from_row, from_col, to_row, to_col)` (texts in a search's
//! report), boards as the crate's one-line form or the course's `state` file; the Python
//! `camelpy.minichess.Board` wraps the board class and owns the API.

use std::sync::atomic::AtomicBool;

use camelpy_minichess::{
    baselines::{baseline_move_with, Baseline},
    eval::{evaluate, features, Weights, WEIGHT_SPECS},
    perft as core_perft,
    search::MiniSearcher,
    selfplay::{compare, samples, Sample, SelfPlaySettings},
    Board, Color, Move, Square, MAX_PLIES, MAX_PLY, START_TEXT,
};
use pyo3::{exceptions::PyValueError, prelude::*};

use crate::{
    args::{int_arg, seconds_arg},
    errors::{IllegalMoveError, InvalidMoveError, InvalidStateError},
    games::{alike_items, game_classes, SelfPlayRun, SmallGame},
    interrupt,
};

/// A move as the 4-tuple Python sees.
type MoveTuple = (u8, u8, u8, u8);

fn to_tuple(mv: Move) -> MoveTuple {
    (mv.from.row(), mv.from.col(), mv.to.row(), mv.to.col())
}

/// Largest magnitude of an evaluation weight: far above any sensible one, and small enough that no
/// sum of weights times features can overflow an `i32` (30 pieces, a few hundred per feature).
const MAX_WEIGHT: i32 = 100_000;

/// MiniChess, for the small games' bindings.
pub struct MiniChess;

impl SmallGame for MiniChess {
    alike_items!(Board, MoveTuple, MiniSearcher, MAX_PLIES as u64);

    fn py_move(mv: Move) -> MoveTuple {
        to_tuple(mv)
    }
    fn push(board: &mut Board, (fr, fc, tr, tc): MoveTuple) -> PyResult<()> {
        let (Some(from), Some(to)) = (Square::new(fr, fc), Square::new(tr, tc)) else {
            return Err(InvalidMoveError::new_err(format!(
                "invalid move (squares off the 6x5 board): '{fr} {fc} {tr} {tc}'"
            )));
        };
        board.try_play(Move::new(from, to)).map_err(|e| IllegalMoveError::new_err(e.to_string()))
    }
    fn legal_moves(board: &Board) -> Vec<Move> {
        board.legal_moves().iter().copied().collect()
    }
    fn pop(board: &mut Board) -> Option<Move> {
        board.undo()
    }
    fn move_stack(board: &Board) -> Vec<Move> {
        board.move_stack().collect()
    }
    fn fen(board: &Board) -> String {
        board.to_text()
    }
    fn root_fen(board: &Board) -> String {
        let mut root = board.clone();
        while root.undo().is_some() {}
        root.to_text()
    }
    fn first_to_move(board: &Board) -> bool {
        board.side_to_move() == Color::White
    }
    fn key(board: &Board) -> u64 {
        board.key()
    }
    fn outcome(board: &Board) -> Option<(&'static str, Option<bool>)> {
        board.outcome().map(|o| (o.termination.name(), o.winner.map(|c| c == Color::White)))
    }
    fn perft(board: &mut Board, depth: u32) -> u64 {
        core_perft::perft(board, depth)
    }
    fn perft_interruptible(board: &mut Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
        core_perft::perft_interruptible(board, depth, stop)
    }
    fn evaluate(board: &Board, weights: &Weights) -> (i32, Vec<i32>) {
        (evaluate(board, weights), features(board).to_vec())
    }
    fn weight_range(index: usize) -> Option<(&'static str, i32, i32)> {
        WEIGHT_SPECS.get(index).map(|s| (s.name, -MAX_WEIGHT, MAX_WEIGHT))
    }
    fn settings(run: SelfPlayRun, rules: Option<&Bound<'_, PyAny>>) -> PyResult<SelfPlaySettings> {
        let SelfPlayRun { nodes, random_plies, seed, threads } = run;
        match rules {
            Some(r) => Err(PyValueError::new_err(format!("MiniChess has one rule set, got rules={r}"))),
            None => Ok(SelfPlaySettings { nodes, random_plies, seed, threads }),
        }
    }
    fn sample(s: &Sample) -> (Vec<i32>, Option<u32>, bool, f32) {
        (s.features.to_vec(), Some(s.ply), s.white_to_move, s.result)
    }
}

game_classes!(MiniChess, MoveTuple, PyMiniBoard, "MiniBoard", PyMiniSearcher, "MiniSearcher", {
    #[new]
    #[pyo3(signature = (text = START_TEXT))]
    fn new(text: &str) -> PyResult<PyMiniBoard> {
        Board::from_text(text)
            .map(|state| PyMiniBoard { state })
            .map_err(|e| InvalidStateError::new_err(e.to_string()))
    }

    /// The board a course ``state`` file describes, *ply* plies into the game.
    #[staticmethod]
    fn from_state(text: &str, ply: &Bound<'_, PyAny>) -> PyResult<PyMiniBoard> {
        let ply = int_arg(ply, "ply", 0, u64::from(MAX_PLY))? as u32;
        Board::from_state(text, ply)
            .map(|state| PyMiniBoard { state })
            .map_err(|e| InvalidStateError::new_err(e.to_string()))
    }

    /// The course ``state`` file text.
    fn state(&self) -> String {
        self.state.to_state()
    }

    /// Plies played in the game.
    #[getter]
    fn ply(&self) -> u32 {
        self.state.ply()
    }

    /// A side's material by the 50-ply count (``True``: White).
    fn material(&self, white: bool) -> i32 {
        self.state.material(if white { Color::White } else { Color::Black })
    }

    /// The letter of the piece on (*row*, *col*) (``KQBNRP`` White, lowercase Black), or ``None``.
    fn piece_at(&self, row: u8, col: u8) -> PyResult<Option<char>> {
        let sq = Square::new(row, col).ok_or_else(|| {
            PyValueError::new_err(format!("no square at row {row} column {col} on the 6x5 board"))
        })?;
        Ok(self.state.piece_at(sq).map(|p| p.symbol()))
    }
});

/// A baseline player's move (*kind*: ``weak-minimax``, ``strong-minimax`` or ``alpha-beta``) within
/// *time* seconds, ties broken by *seed*; ``None`` when the game is over. *on_iteration* is called
/// with ``(move, depth)`` after every finished iteration.
#[pyfunction]
#[pyo3(signature = (board, kind, time, seed, on_iteration = None))]
pub fn minichess_baseline(
    py: Python<'_>,
    board: &PyMiniBoard,
    kind: &str,
    time: f64,
    seed: u64,
    on_iteration: Option<Py<PyAny>>,
) -> PyResult<Option<MoveTuple>> {
    let kind = Baseline::from_name(kind).ok_or_else(|| {
        let names: Vec<&str> = Baseline::ALL.iter().map(|b| b.name()).collect();
        PyValueError::new_err(format!("unknown baseline {kind:?}: expected one of {}", names.join(", ")))
    })?;
    let time = seconds_arg(Some(time), "time")?.unwrap_or_default();
    let board = &board.state;
    let stop = AtomicBool::new(false);
    let best = interrupt::run(
        py,
        &stop,
        |outbox| baseline_move_with(board, kind, time, seed, |mv, depth| outbox.send((to_tuple(mv), depth))),
        |py, report: (MoveTuple, u32)| match &on_iteration {
            Some(f) => f.call1(py, report).map(drop),
            None => Ok(()),
        },
    )?;
    Ok(best.map(to_tuple))
}

/// Adds MiniChess's classes, functions and constants to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MINICHESS_START", START_TEXT)?;
    m.add("MINICHESS_MAX_PLIES", MAX_PLIES)?;
    m.add("MINICHESS_WEIGHTS", WEIGHT_SPECS.iter().map(|s| (s.name, s.default, s.why)).collect::<Vec<_>>())?;
    m.add_class::<PyMiniBoard>()?;
    m.add_class::<PyMiniSearcher>()?;
    m.add_function(wrap_pyfunction!(minichess_baseline, m)?)
}
