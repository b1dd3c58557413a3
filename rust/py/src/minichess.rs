//! `camelpy.minichess`'s native half: the core MiniChess `Board` and perft (conversion only; the Python
//! `camelpy.minichess.Board` wraps this class and owns the API). Moves cross as 4-tuples
//! `(from_row, from_col, to_row, to_col)`; board texts are the crate's one-line form or the course's
//! `state` file.

use std::{sync::atomic::AtomicBool, time::Duration};

use camelpy_core::Score;
use camelpy_minichess::{
    baselines::{baseline_move_with, Baseline},
    eval::{evaluate, features, Weights, NUM_WEIGHTS, WEIGHT_SPECS},
    perft as core_perft,
    search::{Iteration, Limits, MiniSearcher},
    selfplay::{compare, samples, SelfPlaySettings},
    Board, Color, Move, Square, MAX_PLIES, MAX_PLY, START_TEXT,
};
use pyo3::{
    exceptions::{PyIndexError, PyMemoryError, PyValueError},
    prelude::*,
};

use crate::{
    args::{
        check_hash, int_arg, opt_int_arg, signed_int_arg, DEFAULT_HASH_MB, MAX_PERFT_DEPTH, MAX_SEARCH_DEPTH,
        MAX_THREADS,
    },
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

/// Leaves of the legal move tree *depth* plies below *board*, counted with the GIL released; Ctrl-C,
/// or *stop* (a ``threading.Event``) set from another thread, stops a deep count.
#[pyfunction]
#[pyo3(signature = (board, depth, *, stop = None))]
pub fn minichess_perft(
    py: Python<'_>,
    board: &PyMiniBoard,
    depth: &Bound<'_, PyAny>,
    stop: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let depth = int_arg(depth, "depth", 0, MAX_PERFT_DEPTH)? as u32;
    let mut board = board.board.clone();
    if depth <= 4 {
        interrupt::until_arg(stop)?;
        return Ok(py.detach(|| core_perft::perft(&mut board, depth)));
    }
    interrupt::count(py, stop, |flag| core_perft::perft_interruptible(&mut board, depth, flag))
}

/// Longest time limit accepted, in seconds (a year: anything longer is a mistake, and
/// `Duration::from_secs_f64` must never see a value it cannot hold).
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// `seconds` as a duration, for the argument called `name`: finite, at least 0, at most a year.
fn duration_arg(seconds: Option<f64>, name: &str) -> PyResult<Option<Duration>> {
    match seconds {
        None => Ok(None),
        Some(s) if s.is_finite() && (0.0..=MAX_SECONDS).contains(&s) => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(PyValueError::new_err(format!(
            "{name} must be a number of seconds between 0 and {MAX_SECONDS}, got {s}"
        ))),
    }
}

/// A finished iteration as Python sees it: ``(depth, cp, win_in, nodes, seconds, pv)``, where a
/// proven result gives ``cp`` ``None`` and ``win_in`` the moves to it (negative: a loss), otherwise
/// ``win_in`` is ``None``.
type IterationTuple = (i32, Option<i32>, Option<i32>, u64, f64, Vec<MoveTuple>);

fn iteration_tuple(it: &Iteration<Move>) -> IterationTuple {
    let (cp, win) = match it.score {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(n) => (None, Some(n)),
    };
    (it.depth, cp, win, it.nodes, it.elapsed.as_secs_f64(), it.pv.iter().map(|&m| to_tuple(m)).collect())
}

/// The MiniChess player's searcher (use ``camelpy.minichess.Searcher``): a table of *hash_mb* MiB
/// (default 16) kept between searches.
#[pyclass(module = "camelpy._core", name = "MiniSearcher")]
pub struct PyMiniSearcher {
    searcher: MiniSearcher,
}

#[pymethods]
impl PyMiniSearcher {
    #[new]
    #[pyo3(signature = (hash_mb = None))]
    fn new(hash_mb: Option<&Bound<'_, PyAny>>) -> PyResult<PyMiniSearcher> {
        let mb = match hash_mb {
            Some(v) if !v.is_none() => check_hash(v, "hash_mb", 1)?,
            _ => DEFAULT_HASH_MB as usize,
        };
        let searcher = MiniSearcher::new(mb).map_err(|e| PyMemoryError::new_err(e.to_string()))?;
        Ok(PyMiniSearcher { searcher })
    }

    /// Forgets what earlier searches learnt (a new game).
    fn clear(&mut self) {
        self.searcher.clear();
    }

    /// The evaluation's weights, in the order of ``MINICHESS_WEIGHTS``.
    #[getter]
    fn get_weights(&self) -> Vec<i32> {
        self.searcher.weights.0.to_vec()
    }

    #[setter]
    fn set_weights(&mut self, weights: &Bound<'_, PyAny>) -> PyResult<()> {
        self.searcher.weights = weights_arg(weights)?;
        Ok(())
    }

    /// Searches *board* to *depth*, *nodes* or *time* seconds (whichever first; none: to the deepest
    /// depth), with the GIL released; *on_iteration* (if given) is called with each finished
    /// iteration's tuple. Returns ``(best_move or None, last iteration)``. Ctrl-C stops the search and
    /// raises ``KeyboardInterrupt``.
    #[pyo3(signature = (board, depth = None, nodes = None, time = None, on_iteration = None))]
    fn search(
        &mut self,
        py: Python<'_>,
        board: &PyMiniBoard,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        time: Option<f64>,
        on_iteration: Option<Py<PyAny>>,
    ) -> PyResult<(Option<MoveTuple>, IterationTuple)> {
        let limits = Limits {
            depth: opt_int_arg(depth, "depth", 1, MAX_SEARCH_DEPTH)?.map(|d| d as i32),
            nodes: opt_int_arg(nodes, "nodes", 1, u64::MAX)?,
            time: duration_arg(time, "time")?,
        };
        let stop = AtomicBool::new(false);
        let searcher = &mut self.searcher;
        let board = &board.board;
        let result = interrupt::run(
            py,
            &stop,
            |outbox| searcher.search(board, limits, &stop, |it| outbox.send(iteration_tuple(it))),
            |py, info: IterationTuple| match &on_iteration {
                Some(f) => f.call1(py, (info,)).map(drop),
                None => Ok(()),
            },
        )?;
        Ok((result.best_move.map(to_tuple), iteration_tuple(&result.info)))
    }
}

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
    let time = duration_arg(Some(time), "time")?.unwrap_or_default();
    let board = &board.board;
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

/// A weight's name, its value and the position's feature.
type Term = (&'static str, i32, i32);

/// The evaluation of *board* for the side to move with *weights* (``None``: the defaults) and its
/// features, White minus Black, with the weights' names: ``(value, [(name, weight, feature), ...])``.
#[pyfunction]
#[pyo3(signature = (board, weights = None))]
pub fn minichess_evaluate(
    board: &PyMiniBoard,
    weights: Option<&Bound<'_, PyAny>>,
) -> PyResult<(i32, Vec<Term>)> {
    let weights = weights.filter(|w| !w.is_none()).map(weights_arg).transpose()?.unwrap_or_default();
    let f = features(&board.board);
    let terms = WEIGHT_SPECS.iter().zip(weights.0).zip(f).map(|((spec, w), x)| (spec.name, w, x)).collect();
    Ok((evaluate(&board.board, &weights), terms))
}

/// Largest magnitude of an evaluation weight: far above any sensible one, and small enough that no
/// sum of weights times features can overflow an `i32` (30 pieces, a few hundred per feature).
const MAX_WEIGHT: i128 = 100_000;

/// A weights argument: a sequence of `NUM_WEIGHTS` integers, each within ±[`MAX_WEIGHT`].
fn weights_arg(value: &Bound<'_, PyAny>) -> PyResult<Weights> {
    let items: Vec<Bound<'_, PyAny>> = value.try_iter()?.collect::<PyResult<_>>()?;
    if items.len() != NUM_WEIGHTS {
        return Err(PyValueError::new_err(format!("expected {NUM_WEIGHTS} weights, got {}", items.len())));
    }
    let mut w = [0; NUM_WEIGHTS];
    for ((slot, item), spec) in w.iter_mut().zip(&items).zip(WEIGHT_SPECS.iter()) {
        *slot = signed_int_arg(item, spec.name, -MAX_WEIGHT, MAX_WEIGHT)? as i32;
    }
    Ok(Weights(w))
}

/// Self-play settings from Python's arguments.
fn selfplay_settings(
    nodes: &Bound<'_, PyAny>,
    random_plies: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
) -> PyResult<SelfPlaySettings> {
    Ok(SelfPlaySettings {
        nodes: int_arg(nodes, "nodes", 1, u64::MAX)?,
        random_plies: int_arg(random_plies, "random_plies", 0, u64::from(MAX_PLIES))? as u32,
        seed: int_arg(seed, "seed", 0, u64::MAX)?,
        threads: int_arg(threads, "threads", 1, MAX_THREADS)? as usize,
    })
}

/// Tuning samples from *games* self-play games of *weights* (``None``: the defaults):
/// ``(features, plies, white_to_move, results)``, one entry per kept position.
#[pyfunction]
#[pyo3(signature = (games, nodes, random_plies, seed, threads, weights = None))]
#[allow(clippy::type_complexity)] // four columns, as Python receives them
pub fn minichess_selfplay(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    nodes: &Bound<'_, PyAny>,
    random_plies: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
    weights: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Vec<Vec<i32>>, Vec<u32>, Vec<bool>, Vec<f32>)> {
    let games = int_arg(games, "games", 0, u64::from(u32::MAX))?;
    let settings = selfplay_settings(nodes, random_plies, seed, threads)?;
    let weights = weights.filter(|w| !w.is_none()).map(weights_arg).transpose()?.unwrap_or_default();
    let stop = AtomicBool::new(false);
    let kept = interrupt::run_silent(py, &stop, || samples(games, weights, &settings, &stop))?
        .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    Ok((
        kept.iter().map(|s| s.features.to_vec()).collect(),
        kept.iter().map(|s| s.ply).collect(),
        kept.iter().map(|s| s.white_to_move).collect(),
        kept.iter().map(|s| s.result).collect(),
    ))
}

/// *pairs* pairs of games between weights *a* and *b* from random openings, colours swapped in each
/// pair: *a*'s points in each game.
#[pyfunction]
#[allow(clippy::too_many_arguments)] // one per Python argument
pub fn minichess_compare(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pairs: &Bound<'_, PyAny>,
    nodes: &Bound<'_, PyAny>,
    random_plies: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
) -> PyResult<Vec<(f32, f32)>> {
    let (a, b) = (weights_arg(a)?, weights_arg(b)?);
    let pairs = int_arg(pairs, "pairs", 0, u64::from(u32::MAX))?;
    let settings = selfplay_settings(nodes, random_plies, seed, threads)?;
    let stop = AtomicBool::new(false);
    let results = interrupt::run_silent(py, &stop, || compare(pairs, a, b, &settings, &stop))?
        .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    Ok(results.into_iter().map(|[x, y]| (x, y)).collect())
}

/// The evaluation's weights: ``(name, default, why)`` each, in order.
pub fn weight_specs() -> Vec<(&'static str, i32, &'static str)> {
    WEIGHT_SPECS.iter().map(|s| (s.name, s.default, s.why)).collect()
}
