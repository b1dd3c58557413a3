//! What a search reports, as small immutable Python objects (the core's `search::info`): typed in
//! `_core.pyi`, so `mypy --strict` catches a misspelt field in the Python code that reads them (the
//! `Engine`'s `InfoDict`s, the UCI `info` lines). Moves are UCI strings in the position's notation
//! (king takes rook for Chess960); the Python side turns them into `chess.Move`s. Each `repr`
//! rebuilds the object.

use camelpy_core::{
    search::info::{IterationInfo, Report, SearchResult},
    tt::Bound,
    Move, Score,
};
use pyo3::{exceptions::PyValueError, prelude::*};

/// The words for a bound, as UCI writes them (`lowerbound`, `upperbound`) without the suffix.
const BOUNDS: [&str; 3] = ["exact", "lower", "upper"];

fn uci_line(moves: &[Move], chess960: bool) -> Vec<String> {
    moves.iter().map(|m| m.to_uci(chess960)).collect()
}

/// One line of one finished (or cut-short) iteration; its ``repr`` rebuilds it.
///
/// >>> from camelpy._core import IterationInfo
/// >>> info = IterationInfo(depth=1, seldepth=1, multipv=1, cp=25, nodes=22, pv=["b1c3"])
/// >>> info
/// IterationInfo(depth=1, seldepth=1, multipv=1, cp=25, mate=None, bound='exact', nodes=22, time_ms=0, hashfull=0, pv=['b1c3'])
/// >>> eval(repr(info)) == info, info.cp, info.mate
/// (True, 25, None)
#[pyclass(frozen, eq, get_all, from_py_object, module = "camelpy._core", name = "IterationInfo")]
#[derive(Clone, PartialEq)]
pub struct PyIterationInfo {
    /// Nominal depth.
    depth: i32,
    /// Deepest ply reached.
    seldepth: i32,
    /// Which line (1 = best).
    multipv: usize,
    /// The score in centipawns (side to move's view), unless it is a mate.
    cp: Option<i32>,
    /// Moves to mate (negative: being mated), if the score is a mate.
    mate: Option<i32>,
    /// `"exact"`, or `"lower"`/`"upper"` for an aspiration fail-high/low.
    bound: &'static str,
    /// Nodes searched so far.
    nodes: u64,
    /// Milliseconds since the search started.
    time_ms: u64,
    /// Permille of the hash table used.
    hashfull: u32,
    /// The principal variation (UCI).
    pv: Vec<String>,
}

impl PyIterationInfo {
    /// The core's report as a Python object.
    pub fn from_core(info: &IterationInfo, chess960: bool) -> PyIterationInfo {
        let (cp, mate) = match info.score {
            Score::Cp(cp) => (Some(cp), None),
            Score::Mate(m) => (None, Some(m)),
        };
        PyIterationInfo {
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            cp,
            mate,
            bound: match info.bound {
                Bound::Lower => "lower",
                Bound::Upper => "upper",
                _ => "exact",
            },
            nodes: info.nodes,
            time_ms: info.time_ms,
            hashfull: info.hashfull,
            pv: uci_line(&info.pv, chess960),
        }
    }
}

#[pymethods]
impl PyIterationInfo {
    /// Builds a report (for tests and for code that formats reports); exactly one of *cp* and *mate*.
    #[new]
    #[pyo3(signature = (*, depth, seldepth, multipv, cp=None, mate=None, bound="exact", nodes=0, time_ms=0, hashfull=0, pv=Vec::new()))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        depth: i32,
        seldepth: i32,
        multipv: usize,
        cp: Option<i32>,
        mate: Option<i32>,
        bound: &str,
        nodes: u64,
        time_ms: u64,
        hashfull: u32,
        pv: Vec<String>,
    ) -> PyResult<PyIterationInfo> {
        if cp.is_some() == mate.is_some() {
            return Err(PyValueError::new_err(format!(
                "exactly one of cp and mate must be given, got cp={cp:?} and mate={mate:?}"
            )));
        }
        let bound = BOUNDS.into_iter().find(|b| *b == bound).ok_or_else(|| {
            PyValueError::new_err(format!("bound must be one of {BOUNDS:?}, got {bound:?}"))
        })?;
        Ok(PyIterationInfo { depth, seldepth, multipv, cp, mate, bound, nodes, time_ms, hashfull, pv })
    }

    fn __repr__(&self) -> String {
        let opt = |v: Option<i32>| v.map_or("None".to_string(), |v| v.to_string());
        let pv: Vec<String> = self.pv.iter().map(|m| format!("'{m}'")).collect();
        format!(
            "IterationInfo(depth={}, seldepth={}, multipv={}, cp={}, mate={}, bound='{}', nodes={}, time_ms={}, hashfull={}, pv=[{}])",
            self.depth,
            self.seldepth,
            self.multipv,
            opt(self.cp),
            opt(self.mate),
            self.bound,
            self.nodes,
            self.time_ms,
            self.hashfull,
            pv.join(", ")
        )
    }
}

/// On long searches, the root move now being searched (UCI `currmove`).
#[pyclass(frozen, eq, get_all, module = "camelpy._core", name = "CurrMoveInfo")]
#[derive(Clone, PartialEq)]
pub struct PyCurrMoveInfo {
    /// Nominal depth of the iteration.
    depth: i32,
    /// The root move (UCI).
    currmove: String,
    /// Its 1-based number in the search order.
    currmovenumber: usize,
    /// Nodes searched so far.
    nodes: u64,
    /// Milliseconds since the search started.
    time_ms: u64,
}

#[pymethods]
impl PyCurrMoveInfo {
    /// Builds a report (for tests and for code that formats reports).
    #[new]
    #[pyo3(signature = (*, depth, currmove, currmovenumber, nodes=0, time_ms=0))]
    fn new(depth: i32, currmove: String, currmovenumber: usize, nodes: u64, time_ms: u64) -> PyCurrMoveInfo {
        PyCurrMoveInfo { depth, currmove, currmovenumber, nodes, time_ms }
    }

    fn __repr__(&self) -> String {
        format!(
            "CurrMoveInfo(depth={}, currmove='{}', currmovenumber={}, nodes={}, time_ms={})",
            self.depth, self.currmove, self.currmovenumber, self.nodes, self.time_ms
        )
    }
}

/// What a finished search found: the move to play, the expected reply, and every line of the last
/// iteration, best first (`lines[0]` is the best line; empty only if the root has no legal move).
#[pyclass(frozen, eq, get_all, module = "camelpy._core", name = "SearchOutcome")]
#[derive(Clone, PartialEq)]
pub struct PySearchOutcome {
    /// The move to play (UCI); `None` only if the side to move has no legal move.
    best_move: Option<String>,
    /// The expected reply (UCI), if known.
    ponder: Option<String>,
    /// The best line of the last iteration (depth 0, no PV, if there is no legal move).
    info: PyIterationInfo,
    /// Every line (MultiPV), best first.
    lines: Vec<PyIterationInfo>,
}

impl PySearchOutcome {
    /// The core's result as a Python object.
    pub fn from_core(result: &SearchResult, chess960: bool) -> PySearchOutcome {
        PySearchOutcome {
            best_move: result.best_move.map(|m| m.to_uci(chess960)),
            ponder: result.ponder.map(|m| m.to_uci(chess960)),
            info: PyIterationInfo::from_core(&result.info, chess960),
            lines: result.lines.iter().map(|l| PyIterationInfo::from_core(l, chess960)).collect(),
        }
    }
}

#[pymethods]
impl PySearchOutcome {
    /// Builds an outcome (for tests).
    #[new]
    #[pyo3(signature = (*, best_move, ponder, info, lines))]
    fn new(
        best_move: Option<String>,
        ponder: Option<String>,
        info: PyIterationInfo,
        lines: Vec<PyIterationInfo>,
    ) -> PySearchOutcome {
        PySearchOutcome { best_move, ponder, info, lines }
    }

    fn __repr__(&self) -> String {
        let opt = |m: &Option<String>| m.as_ref().map_or("None".to_string(), |m| format!("'{m}'"));
        let lines: Vec<String> = self.lines.iter().map(PyIterationInfo::__repr__).collect();
        format!(
            "SearchOutcome(best_move={}, ponder={}, info={}, lines=[{}])",
            opt(&self.best_move),
            opt(&self.ponder),
            self.info.__repr__(),
            lines.join(", ")
        )
    }
}

/// A core report as the message a search sends to its Python callback (owned, so it can cross from
/// the search thread to the calling thread).
pub enum ReportMessage {
    /// An iteration's line.
    Iteration(PyIterationInfo),
    /// A root move started.
    CurrMove(PyCurrMoveInfo),
}

impl ReportMessage {
    /// The core's report, converted.
    pub fn from_core(report: &Report, chess960: bool) -> ReportMessage {
        match report {
            Report::Iteration(info) => ReportMessage::Iteration(PyIterationInfo::from_core(info, chess960)),
            Report::CurrMove { depth, mv, number, nodes, time_ms } => {
                ReportMessage::CurrMove(PyCurrMoveInfo {
                    depth: *depth,
                    currmove: mv.to_uci(chess960),
                    currmovenumber: *number,
                    nodes: *nodes,
                    time_ms: *time_ms,
                })
            }
        }
    }

    /// The Python object handed to the callback.
    pub fn into_py(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(match self {
            ReportMessage::Iteration(info) => Py::new(py, info)?.into_any(),
            ReportMessage::CurrMove(info) => Py::new(py, info)?.into_any(),
        })
    }
}
