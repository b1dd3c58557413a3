//! `camelpy.leiserchess`'s native half: Leiserchess's rules for the small games' bindings (`games`),
//! and what only Leiserchess has (rule sets, lasers). Conversion only: moves cross as their notation
//! (`e6e7`, `b3R`, `d5e4f5`), boards as FEN; the Python `camelpy.leiserchess.Board` wraps the board
//! class and owns the API.

use std::sync::atomic::AtomicBool;

use camelpy_leiserchess::{
    eval::{evaluate, features, Weights, WEIGHT_SPECS},
    perft::{perft, perft_interruptible},
    search::LeiserSearcher,
    selfplay::{compare, samples, Sample, SelfPlaySettings},
    Board, Color, Move, MoveError, Position, Rules, ShotEnd, Square, Termination, STARTING_FEN,
};
use pyo3::{exceptions::PyValueError, prelude::*};

use crate::{
    args::int_arg,
    errors::{IllegalMoveError, InvalidFenError, InvalidMoveError},
    games::{alike_items, game_classes, SelfPlayRun, SmallGame},
};

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

/// A beam as Python sees it: its squares' names, how it ended (`"edge"`, `"zap"`, `"king"`) and where.
type PyShot = (Vec<String>, &'static str, Option<String>);

/// A beam as Python sees it ([`PyShot`]).
fn shot_py(squares: &[Square], end: ShotEnd) -> PyShot {
    let (kind, at) = match end {
        ShotEnd::Edge => ("edge", None),
        ShotEnd::Zap(sq) => ("zap", Some(sq.to_string())),
        ShotEnd::King(sq) => ("king", Some(sq.to_string())),
    };
    (squares.iter().map(ToString::to_string).collect(), kind, at)
}

/// Random opening plies a self-play game accepts (far more than any opening needs).
const MAX_RANDOM_PLIES: u64 = 100;

/// Leiserchess, for the small games' bindings.
pub struct Leiserchess;

impl SmallGame for Leiserchess {
    alike_items!(Position, String, LeiserSearcher, MAX_RANDOM_PLIES);

    fn py_move(mv: Move) -> String {
        mv.to_string()
    }
    fn push(game: &mut Position, text: String) -> PyResult<()> {
        game.push_text(&text).map(drop).map_err(|e| match e {
            MoveError::Parse(e) => InvalidMoveError::new_err(e.to_string()),
            MoveError::Illegal(e) => IllegalMoveError::new_err(e.to_string()),
        })
    }
    fn legal_moves(game: &Position) -> Vec<Move> {
        game.legal_moves()
    }
    fn pop(game: &mut Position) -> Option<Move> {
        game.pop()
    }
    fn move_stack(game: &Position) -> Vec<Move> {
        game.moves().collect()
    }
    fn fen(game: &Position) -> String {
        game.board().fen()
    }
    fn root_fen(game: &Position) -> String {
        game.root().fen()
    }
    fn first_to_move(game: &Position) -> bool {
        game.board().side_to_move() == Color::Tangerine
    }
    fn key(game: &Position) -> u64 {
        game.board().key()
    }
    fn outcome(game: &Position) -> Option<(&'static str, Option<bool>)> {
        game.outcome().map(|o| (termination_name(o.termination), o.winner.map(|c| c == Color::Tangerine)))
    }
    fn perft(game: &mut Position, depth: u32) -> u64 {
        perft(game.board(), depth)
    }
    fn perft_interruptible(game: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
        perft_interruptible(game.board(), depth, stop)
    }
    fn evaluate(game: &Position, weights: &Weights) -> (i32, Vec<i32>) {
        (evaluate(game.board(), weights), features(game.board()).to_vec())
    }
    fn weight_range(index: usize) -> Option<(&'static str, i32, i32)> {
        WEIGHT_SPECS.get(index).map(|s| (s.name, s.min, s.max))
    }
    fn settings(run: SelfPlayRun, rules: Option<&Bound<'_, PyAny>>) -> PyResult<SelfPlaySettings> {
        let SelfPlayRun { nodes, random_plies, seed, threads } = run;
        let rules = rules.map(rules_arg).transpose()?.unwrap_or_default();
        Ok(SelfPlaySettings { nodes, random_plies, seed, threads, rules })
    }
    fn sample(s: &Sample) -> (Vec<i32>, Option<u32>, bool, f32) {
        (s.features.to_vec(), None, s.tangerine_to_move, s.result)
    }
}

game_classes!(Leiserchess, String, PyLeiserBoard, "LeiserBoard", PyLeiserSearcher, "LeiserSearcher", {
    #[new]
    #[pyo3(signature = (fen = STARTING_FEN, rules = None))]
    fn new(fen: &str, rules: Option<&Bound<'_, PyAny>>) -> PyResult<PyLeiserBoard> {
        let rules = rules.map(rules_arg).transpose()?.unwrap_or_default();
        Board::from_fen(fen, rules)
            .map(|board| PyLeiserBoard { state: Position::new(board) })
            .map_err(|e| InvalidFenError::new_err(e.to_string()))
    }

    /// The rule set: 2016 or 2018.
    #[getter]
    fn rules(&self) -> u16 {
        self.state.board().rules().year()
    }

    /// The two-letter code of the piece on *square* (``"a0"`` … ``"h7"``), or ``None``.
    fn piece_at(&self, square: &str) -> PyResult<Option<String>> {
        Ok(self.state.board().piece_at(square_arg(square)?).map(|p| p.code()))
    }

    /// The beam the king of *tangerine*'s side (``True``) or Lavender's would fire now: ``(squares
    /// entered in order, end, square)`` where *end* is ``"edge"``, ``"zap"`` or ``"king"`` and
    /// *square* the struck piece's square (``None`` at the edge).
    fn laser(&self, tangerine: bool) -> PyShot {
        let color = if tangerine { Color::Tangerine } else { Color::Lavender };
        let (squares, end) = self.state.board().trace(color);
        shot_py(&squares, end)
    }

    /// The beams the mover's king fires when *mv* (the course's notation) is played here, in order,
    /// each as :meth:`laser` gives one; the board is not changed.
    fn shots(&self, mv: String) -> PyResult<Vec<PyShot>> {
        let mut probe = self.state.clone();
        Leiserchess::push(&mut probe, mv)?; // the same errors as a push (Ko, a pinned pawn, ...)
        let played = probe.moves().last().unwrap_or_else(|| unreachable!("a move was pushed"));
        let shots = self.state.board().turn_shots(played);
        Ok(shots.iter().map(|(squares, end)| shot_py(squares, *end)).collect())
    }

    /// The board as text (rank 7 on top).
    fn text(&self) -> String {
        self.state.board().to_string()
    }
});

/// Adds Leiserchess's classes and constants to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("LEISERCHESS_START", STARTING_FEN)?;
    let specs: Vec<_> = WEIGHT_SPECS.iter().map(|s| (s.name, s.default, s.min, s.max, s.why)).collect();
    m.add("LEISERCHESS_WEIGHTS", specs)?;
    m.add_class::<PyLeiserBoard>()?;
    m.add_class::<PyLeiserSearcher>()
}
