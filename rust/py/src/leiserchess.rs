//! `camelpy.leiserchess`'s native half: the core Leiserchess game (`camelpy_leiserchess::Position`) and
//! perft. Conversion only: moves cross as their notation (`e6e7`, `b3R`, `d5e4f5`), boards as FEN; the
//! Python `camelpy.leiserchess.Board` wraps this class and owns the API.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        Mutex,
    },
    time::Duration,
};

use camelpy_core::Score;
use camelpy_leiserchess::{
    eval::{evaluate, features, Weights, NUM_WEIGHTS, WEIGHT_SPECS},
    perft::{perft, perft_interruptible},
    search::{Iteration, LeiserSearcher, Limits},
    selfplay::{compare, samples, SelfPlaySettings},
    Board, Color, Move, MoveError, Position, Rules, ShotEnd, Square, Termination, STARTING_FEN,
};
use pyo3::{
    exceptions::{PyIndexError, PyMemoryError, PyValueError},
    prelude::*,
};

use crate::{
    args::{
        check_hash, int_arg, opt_int_arg, DEFAULT_HASH_MB, MAX_PERFT_DEPTH, MAX_SEARCH_DEPTH, MAX_THREADS,
    },
    errors::{IllegalMoveError, InvalidFenError, InvalidMoveError},
    interrupt,
};

/// The start position's FEN.
pub const START: &str = STARTING_FEN;

/// Depths perft counts without polling for Ctrl-C (depth 4 is about half a second).
const QUICK_PERFT_DEPTH: u32 = 4;

fn rules_arg(rules: &Bound<'_, PyAny>) -> PyResult<Rules> {
    let year = int_arg(rules, "rules", 0, u64::from(u16::MAX))?;
    u16::try_from(year)
        .ok()
        .and_then(Rules::from_year)
        .ok_or_else(|| PyValueError::new_err(format!("rules must be 2016 or 2018, got {year}")))
}

fn square_arg(name: &str) -> PyResult<Square> {
    Square::parse(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "no square '{}' on the Leiserchess board (expected 'a0' to 'h7')",
            camelpy_core::error::quote(name)
        ))
    })
}

fn termination_name(t: Termination) -> &'static str {
    match t {
        Termination::KingHit => "king_hit",
        Termination::Repetition => "repetition",
        Termination::QuietMoves => "quiet_moves",
        Termination::NoMoves => "no_moves",
    }
}

/// A Leiserchess game (the core's; use ``camelpy.leiserchess.Board``).
///
/// >>> from camelpy._core import LeiserBoard
/// >>> board = LeiserBoard()
/// >>> len(board.legal_moves()), board.push("f4f5")
/// (65, (0, None))
/// >>> board.fen()
/// 'ss3nw3/3nw4/2nw1nwSE2/1nw5SE/nw1nw3SE1/3SE1SE2/4SE3/3SE3NN B'
#[pyclass(module = "camelpy._core", name = "LeiserBoard")]
#[derive(Clone)]
pub struct PyLeiserBoard {
    game: Position,
}

#[pymethods]
impl PyLeiserBoard {
    #[new]
    #[pyo3(signature = (fen = START, rules = None))]
    fn new(fen: &str, rules: Option<&Bound<'_, PyAny>>) -> PyResult<PyLeiserBoard> {
        let rules = rules.map(rules_arg).transpose()?.unwrap_or_default();
        Board::from_fen(fen, rules)
            .map(|board| PyLeiserBoard { game: Position::new(board) })
            .map_err(|e| InvalidFenError::new_err(e.to_string()))
    }

    /// The FEN of the board now.
    fn fen(&self) -> String {
        self.game.board().fen()
    }

    /// The FEN of the board the moves were pushed on.
    fn root_fen(&self) -> String {
        self.game.root().fen()
    }

    /// The rule set: 2016 or 2018.
    #[getter]
    fn rules(&self) -> u16 {
        self.game.board().rules().year()
    }

    /// The moves the rules allow (Ko included), in square order; none once the game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves().iter().map(ToString::to_string).collect()
    }

    /// Plays the move written *text* and its laser shot: ``(pawns zapped, side whose king was hit:
    /// True Tangerine, False Lavender, None)``; raises ``camelpy.errors.InvalidMoveError`` for text
    /// that is no move and ``camelpy.errors.IllegalMoveError`` for a move not allowed here (the board
    /// is left unchanged).
    fn push(&mut self, text: &str) -> PyResult<(u8, Option<bool>)> {
        let (_, report) = self.game.push_text(text).map_err(|e| match e {
            MoveError::Parse(e) => InvalidMoveError::new_err(e.to_string()),
            MoveError::Illegal(e) => IllegalMoveError::new_err(e.to_string()),
        })?;
        Ok((report.zapped, report.king_hit.map(|c| c == Color::Tangerine)))
    }

    /// Takes back the last move and returns it; ``IndexError`` when there is none.
    fn pop(&mut self) -> PyResult<String> {
        self.game
            .pop()
            .map(|m| m.to_string())
            .ok_or_else(|| PyIndexError::new_err("pop from empty move stack"))
    }

    /// The moves played on this board, oldest first.
    fn move_stack(&self) -> Vec<String> {
        self.game.moves().map(|m| m.to_string()).collect()
    }

    /// ``True`` when Tangerine is to move.
    #[getter]
    fn turn(&self) -> bool {
        self.game.board().side_to_move() == Color::Tangerine
    }

    /// The Zobrist key of the pieces and the side to move.
    #[getter]
    fn zobrist_key(&self) -> u64 {
        self.game.board().key()
    }

    /// ``(termination, winner)`` once the game is over (winner ``True`` Tangerine, ``False`` Lavender,
    /// ``None`` a draw), else ``None``.
    fn outcome(&self) -> Option<(&'static str, Option<bool>)> {
        self.game
            .outcome()
            .map(|o| (termination_name(o.termination), o.winner.map(|c| c == Color::Tangerine)))
    }

    /// The two-letter code of the piece on *square* (``"a0"`` … ``"h7"``), or ``None``.
    fn piece_at(&self, square: &str) -> PyResult<Option<String>> {
        Ok(self.game.board().piece_at(square_arg(square)?).map(|p| p.code()))
    }

    /// The beam the king of *tangerine*'s side (``True``) or Lavender's would fire now: ``(squares
    /// entered in order, end, square)`` where *end* is ``"edge"``, ``"zap"`` or ``"king"`` and
    /// *square* the struck piece's square (``None`` at the edge).
    fn laser(&self, tangerine: bool) -> (Vec<String>, &'static str, Option<String>) {
        let board = self.game.board();
        let color = if tangerine { Color::Tangerine } else { Color::Lavender };
        let (squares, end) = board.trace(color);
        let (kind, at) = match end {
            ShotEnd::Edge => ("edge", None),
            ShotEnd::Zap(sq) => ("zap", Some(sq.to_string())),
            ShotEnd::King(sq) => ("king", Some(sq.to_string())),
        };
        (squares.iter().map(ToString::to_string).collect(), kind, at)
    }

    /// A copy, with its move stack.
    fn copy(&self) -> PyLeiserBoard {
        self.clone()
    }

    /// The board as text (rank 7 on top).
    fn text(&self) -> String {
        self.game.board().to_string()
    }
}

/// Leaves of the move tree *depth* plies below *board* (the rules page's convention: Ko aside, a
/// king hit ends a line), counted with the GIL released; Ctrl-C, or *stop* (a ``threading.Event``)
/// set from another thread, stops a deep count.
#[pyfunction]
#[pyo3(signature = (board, depth, *, stop = None))]
pub fn leiserchess_perft(
    py: Python<'_>,
    board: &PyLeiserBoard,
    depth: &Bound<'_, PyAny>,
    stop: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let depth = int_arg(depth, "depth", 0, MAX_PERFT_DEPTH)? as u32;
    let board = board.game.board().clone();
    if depth <= QUICK_PERFT_DEPTH {
        interrupt::until_arg(stop)?;
        return Ok(py.detach(|| perft(&board, depth)));
    }
    interrupt::count(py, stop, |flag| perft_interruptible(&board, depth, flag))
}

/// The evaluation's weights as Python sees them: ``(name, default, min, max, why)``.
pub fn weight_specs() -> Vec<(&'static str, i32, i32, i32, &'static str)> {
    WEIGHT_SPECS.iter().map(|s| (s.name, s.default, s.min, s.max, s.why)).collect()
}

fn weights_arg(values: Vec<i32>) -> PyResult<Weights> {
    let values: [i32; NUM_WEIGHTS] = values.try_into().map_err(|v: Vec<i32>| {
        PyValueError::new_err(format!("expected {NUM_WEIGHTS} weights, got {}", v.len()))
    })?;
    let mut weights = Weights::default();
    for (spec, value) in WEIGHT_SPECS.iter().zip(values) {
        if !weights.set(spec.name, value) {
            return Err(PyValueError::new_err(format!(
                "weight {} must be between {} and {}, got {value}",
                spec.name, spec.min, spec.max
            )));
        }
    }
    Ok(weights)
}

/// The evaluation of *board* for the side to move with *weights* (``None``: the defaults) and its
/// features, Tangerine minus Lavender.
#[pyfunction]
#[pyo3(signature = (board, weights = None))]
pub fn leiserchess_evaluate(board: &PyLeiserBoard, weights: Option<Vec<i32>>) -> PyResult<(i32, Vec<i32>)> {
    let weights = weights.map(weights_arg).transpose()?.unwrap_or_default();
    let b = board.game.board();
    Ok((evaluate(b, &weights), features(b).to_vec()))
}

/// Random opening plies a self-play game accepts (far more than any opening needs).
const MAX_RANDOM_PLIES: u64 = 100;

/// Self-play settings from Python's arguments.
fn selfplay_settings(
    nodes: &Bound<'_, PyAny>,
    random_plies: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyAny>,
) -> PyResult<SelfPlaySettings> {
    Ok(SelfPlaySettings {
        nodes: int_arg(nodes, "nodes", 1, u64::MAX)?,
        random_plies: int_arg(random_plies, "random_plies", 0, MAX_RANDOM_PLIES)? as u32,
        seed: int_arg(seed, "seed", 0, u64::MAX)?,
        threads: int_arg(threads, "threads", 1, MAX_THREADS)? as usize,
        rules: rules_arg(rules)?,
    })
}

/// Tuning samples from *games* self-play games of *weights* (``None``: the defaults):
/// ``(features, tangerine_to_move, results)``, one entry per kept position.
#[pyfunction]
#[pyo3(signature = (games, nodes, random_plies, seed, threads, rules, weights = None))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)] // one per Python argument; three columns
pub fn leiserchess_selfplay(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    nodes: &Bound<'_, PyAny>,
    random_plies: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyAny>,
    weights: Option<Vec<i32>>,
) -> PyResult<(Vec<Vec<i32>>, Vec<bool>, Vec<f32>)> {
    let games = int_arg(games, "games", 0, u64::from(u32::MAX))?;
    let settings = selfplay_settings(nodes, random_plies, seed, threads, rules)?;
    let weights = weights.map(weights_arg).transpose()?.unwrap_or_default();
    let stop = AtomicBool::new(false);
    let kept = interrupt::run_silent(py, &stop, || samples(games, weights, &settings, &stop))?
        .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    Ok((
        kept.iter().map(|s| s.features.to_vec()).collect(),
        kept.iter().map(|s| s.tangerine_to_move).collect(),
        kept.iter().map(|s| s.result).collect(),
    ))
}

/// *pairs* pairs of games between weights *a* and *b* from random openings, colours swapped in each
/// pair: *a*'s points in each game.
#[pyfunction]
#[allow(clippy::too_many_arguments)] // one per Python argument
pub fn leiserchess_compare(
    py: Python<'_>,
    a: Vec<i32>,
    b: Vec<i32>,
    pairs: &Bound<'_, PyAny>,
    nodes: &Bound<'_, PyAny>,
    random_plies: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyAny>,
) -> PyResult<Vec<(f32, f32)>> {
    let (a, b) = (weights_arg(a)?, weights_arg(b)?);
    let pairs = int_arg(pairs, "pairs", 0, u64::from(u32::MAX))?;
    let settings = selfplay_settings(nodes, random_plies, seed, threads, rules)?;
    let stop = AtomicBool::new(false);
    let results = interrupt::run_silent(py, &stop, || compare(pairs, a, b, &settings, &stop))?
        .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    Ok(results.into_iter().map(|[x, y]| (x, y)).collect())
}

/// Longest time limit accepted, in seconds (a year).
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// A finished iteration as Python sees it: ``(depth, cp, win_in, nodes, seconds, pv)`` (a proven
/// result gives ``cp`` ``None`` and ``win_in`` the moves to it, negative for a loss).
type IterationTuple = (i32, Option<i32>, Option<i32>, u64, f64, Vec<String>);

fn iteration_tuple(it: &Iteration<Move>) -> IterationTuple {
    let (cp, win) = match it.score {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(n) => (None, Some(n)),
    };
    (it.depth, cp, win, it.nodes, it.elapsed.as_secs_f64(), it.pv.iter().map(ToString::to_string).collect())
}

/// The Leiserchess player's searcher (use ``camelpy.leiserchess.Searcher``): a table of *hash_mb*
/// MiB kept between searches; :meth:`stop` from another thread ends a running search.
#[pyclass(module = "camelpy._core", name = "LeiserSearcher", frozen)]
pub struct PyLeiserSearcher {
    searcher: Mutex<LeiserSearcher>,
    stop: AtomicBool,
}

impl PyLeiserSearcher {
    fn inner(&self) -> std::sync::MutexGuard<'_, LeiserSearcher> {
        self.searcher.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[pymethods]
impl PyLeiserSearcher {
    #[new]
    #[pyo3(signature = (hash_mb = None))]
    fn new(hash_mb: Option<&Bound<'_, PyAny>>) -> PyResult<PyLeiserSearcher> {
        let mb = match hash_mb {
            Some(v) if !v.is_none() => check_hash(v, "hash_mb", 1)?,
            _ => DEFAULT_HASH_MB as usize,
        };
        let searcher = LeiserSearcher::new(mb).map_err(|e| PyMemoryError::new_err(e.to_string()))?;
        Ok(PyLeiserSearcher { searcher: Mutex::new(searcher), stop: AtomicBool::new(false) })
    }

    /// Forgets what earlier searches learnt (a new game); waits for a running search.
    fn clear(&self, py: Python<'_>) {
        py.detach(|| self.inner().clear());
    }

    /// The threads a search runs on.
    fn threads(&self, py: Python<'_>) -> usize {
        py.detach(|| self.inner().threads())
    }

    /// Searches on *threads* threads from now on (LazySMP); waits for a running search.
    fn set_threads(&self, py: Python<'_>, threads: &Bound<'_, PyAny>) -> PyResult<()> {
        let threads = int_arg(threads, "threads", 1, MAX_THREADS)? as usize;
        py.detach(|| self.inner().set_threads(threads)).map_err(|e| PyMemoryError::new_err(e.to_string()))
    }

    /// The evaluation's weights, in the order of ``LEISERCHESS_WEIGHTS``.
    fn weights(&self, py: Python<'_>) -> Vec<i32> {
        py.detach(|| self.inner().weights.0.to_vec())
    }

    /// Sets every weight (in the order of ``LEISERCHESS_WEIGHTS``); waits for a running search.
    fn set_weights(&self, py: Python<'_>, weights: Vec<i32>) -> PyResult<()> {
        let weights = weights_arg(weights)?;
        py.detach(|| self.inner().weights = weights);
        Ok(())
    }

    /// Ends a running search soon (it returns its best move so far).
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Searches the game *board* to *depth*, *nodes* or *time* seconds (whichever first; none: until
    /// :meth:`stop`), with the GIL released; *on_iteration* (if given) is called with each finished
    /// iteration's tuple. Returns ``(best move or None, last iteration)``. Ctrl-C stops the search
    /// and raises ``KeyboardInterrupt``.
    #[pyo3(signature = (board, depth = None, nodes = None, time = None, on_iteration = None))]
    fn search(
        &self,
        py: Python<'_>,
        board: &PyLeiserBoard,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        time: Option<f64>,
        on_iteration: Option<Py<PyAny>>,
    ) -> PyResult<(Option<String>, IterationTuple)> {
        let time = match time {
            None => None,
            Some(s) if s.is_finite() && (0.0..=MAX_SECONDS).contains(&s) => Some(Duration::from_secs_f64(s)),
            Some(s) => {
                return Err(PyValueError::new_err(format!(
                    "time must be a number of seconds between 0 and {MAX_SECONDS}, got {s}"
                )))
            }
        };
        let limits = Limits {
            depth: opt_int_arg(depth, "depth", 1, MAX_SEARCH_DEPTH)?.map(|d| d as i32),
            nodes: opt_int_arg(nodes, "nodes", 1, u64::MAX)?,
            time,
        };
        let game = board.game.clone();
        self.stop.store(false, Ordering::Relaxed);
        let result = interrupt::run(
            py,
            &self.stop,
            |outbox| {
                let mut searcher = self.inner();
                searcher.search(&game, limits, &self.stop, |it| outbox.send(iteration_tuple(it)))
            },
            |py, info: IterationTuple| match &on_iteration {
                Some(f) => f.call1(py, (info,)).map(drop),
                None => Ok(()),
            },
        )?;
        Ok((result.best_move.map(|m| m.to_string()), iteration_tuple(&result.info)))
    }
}
