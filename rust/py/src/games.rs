//! The small games' bindings, written once: a game (`minichess.rs`, `leiserchess.rs`) supplies its rules
//! as a [`SmallGame`] and one [`game_classes!`] line, and gets its board and searcher classes, perft,
//! the evaluation, self-play and weight matches from here. What a search reports crosses as one typed,
//! frozen [`GameIteration`] for both games.

use std::{
    fmt::Display,
    sync::{
        atomic::{AtomicBool, AtomicUsize, Ordering},
        Mutex, MutexGuard, PoisonError,
    },
};

use camelpy_core::{AllocError, Score};
use camelpy_games::{Iteration, Limits, SearchResult, SearchSettings, SettingSpec, SETTINGS};
use pyo3::{
    exceptions::{PyMemoryError, PyValueError},
    prelude::*,
};

use crate::{
    args::{
        check_hash, int_arg, opt_int_arg, seconds_arg, signed_int_arg, DEFAULT_HASH_MB, MAX_PERFT_DEPTH,
        MAX_SEARCH_DEPTH, MAX_THREADS,
    },
    interrupt, perft,
};

/// What a small game's bindings need of its crate: its game record and moves, its perft, evaluation,
/// searcher and self-play. Each item is one call into the crate.
pub trait SmallGame: 'static {
    /// A game as a board class holds it: the position and the moves played on it.
    type State: Clone + Send + Sync;
    /// A move.
    type Move: Copy + Display + Send;
    /// A move as Python sees it.
    type PyMove;
    /// The evaluation's weights.
    type Weights: Default + Copy + Send + Sync;
    /// The player's searcher.
    type Searcher: Send;
    /// Self-play settings.
    type Settings: Sync;
    /// A tuning position from self-play.
    type Sample: Send;
    /// Most random opening plies a self-play game accepts.
    const MAX_RANDOM_PLIES: u64;

    /// A move for Python.
    fn py_move(mv: Self::Move) -> Self::PyMove;
    /// Plays a move given by Python; the game is left unchanged on an error.
    fn push(state: &mut Self::State, mv: Self::PyMove) -> PyResult<()>;
    /// The legal moves (none once the game is over).
    fn legal_moves(state: &Self::State) -> Vec<Self::Move>;
    /// Takes back the last move.
    fn pop(state: &mut Self::State) -> Option<Self::Move>;
    /// The moves played, oldest first.
    fn move_stack(state: &Self::State) -> Vec<Self::Move>;
    /// The one-line text of the position now, and of the one the moves were played on.
    fn fen(state: &Self::State) -> String;
    fn root_fen(state: &Self::State) -> String;
    /// Whether the side that moves first (White, Tangerine) is to move.
    fn first_to_move(state: &Self::State) -> bool;
    /// The position's Zobrist key.
    fn key(state: &Self::State) -> u64;
    /// `(termination, winner)` once the game is over (winner `true`: the side that moved first).
    fn outcome(state: &Self::State) -> Option<(&'static str, Option<bool>)>;
    /// Perft, directly and with a stop flag (`None` when it was raised).
    fn perft(state: &mut Self::State, depth: u32) -> u64;
    fn perft_interruptible(state: &mut Self::State, depth: u32, stop: &AtomicBool) -> Option<u64>;
    /// The static evaluation for the side to move and the features, first mover minus second.
    fn evaluate(state: &Self::State, weights: &Self::Weights) -> (i32, Vec<i32>);
    /// Weight `index`'s name and the least and largest value it accepts (`None` past the last).
    fn weight_range(index: usize) -> Option<(&'static str, i32, i32)>;
    /// Weights from their values in table order (each within its range).
    fn weights(values: Vec<i32>) -> Self::Weights;
    fn weight_values(weights: &Self::Weights) -> Vec<i32>;
    /// A searcher with a table of `hash_mb` MiB, and what it may be asked.
    fn searcher(hash_mb: usize) -> Result<Self::Searcher, AllocError>;
    fn clear(searcher: &mut Self::Searcher);
    fn set_threads(searcher: &mut Self::Searcher, threads: usize) -> Result<(), AllocError>;
    fn searcher_weights(searcher: &mut Self::Searcher) -> &mut Self::Weights;
    fn searcher_settings(searcher: &mut Self::Searcher) -> &mut SearchSettings;
    /// The settings a new searcher starts with (the game's defaults).
    fn default_settings() -> SearchSettings;
    fn search(
        searcher: &mut Self::Searcher,
        state: &Self::State,
        limits: Limits,
        stop: &AtomicBool,
        on_iteration: impl FnMut(&Iteration<Self::Move>),
    ) -> SearchResult<Self::Move>;
    /// Self-play settings; *rules* is the game's rule set argument (`None`: the default).
    fn settings(run: SelfPlayRun, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self::Settings>;
    fn samples(
        games: u64,
        weights: Self::Weights,
        settings: &Self::Settings,
        stop: &AtomicBool,
    ) -> Result<Vec<Self::Sample>, AllocError>;
    fn compare(
        pairs: u64,
        a: Self::Weights,
        b: Self::Weights,
        settings: &Self::Settings,
        stop: &AtomicBool,
    ) -> Result<Vec<[f32; 2]>, AllocError>;
    /// A sample's features, ply (if the game's samples keep it), side to move (first mover: `true`)
    /// and result.
    fn sample(sample: &Self::Sample) -> (Vec<i32>, Option<u32>, bool, f32);
}

/// A finished iteration of a small game's search (*score* ``None`` once the result is proven, *mate*
/// then the moves to it); its ``repr`` rebuilds it.
///
/// >>> from camelpy._core import GameIteration
/// >>> info = GameIteration(depth=2, score=25, mate=None, nodes=90, seconds=0.5, pv=["4 0 3 0"])
/// >>> info
/// GameIteration(depth=2, score=25, mate=None, nodes=90, seconds=0.5, pv=['4 0 3 0'])
/// >>> eval(repr(info)) == info, info.mate
/// (True, None)
#[pyclass(
    frozen,
    eq,
    get_all,
    from_py_object,
    new = "from_fields",
    module = "camelpy._core",
    name = "GameIteration"
)]
#[derive(Clone, PartialEq)]
pub struct GameIteration {
    /// Plies searched.
    depth: i32,
    /// Centipawns for the side to move, unless the result is proven.
    score: Option<i32>,
    /// Moves to a proven win (negative: a loss), if the result is proven.
    mate: Option<i32>,
    /// Positions searched, all iterations so far.
    nodes: u64,
    /// Seconds since the search began.
    seconds: f64,
    /// The principal variation, the best move first, as move texts.
    pv: Vec<String>,
}

impl GameIteration {
    /// The search's report as a Python object.
    pub fn from_search<M: Display>(it: &Iteration<M>) -> GameIteration {
        let (score, mate) = match it.score {
            Score::Cp(cp) => (Some(cp), None),
            Score::Mate(n) => (None, Some(n)),
        };
        let pv = it.pv.iter().map(ToString::to_string).collect();
        GameIteration { depth: it.depth, score, mate, nodes: it.nodes, seconds: it.elapsed.as_secs_f64(), pv }
    }
}

#[pymethods]
impl GameIteration {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let opt = |v: Option<i32>| v.map_or("None".to_string(), |v| v.to_string());
        Ok(format!(
            "GameIteration(depth={}, score={}, mate={}, nodes={}, seconds={}, pv={})",
            self.depth,
            opt(self.score),
            opt(self.mate),
            self.nodes,
            self.seconds.into_pyobject(py)?.repr()?,
            self.pv.clone().into_pyobject(py)?.repr()?,
        ))
    }
}

/// Leaves of the move tree *depth* plies below *state* (perft's one rule for when to poll for stops).
pub fn perft<G: SmallGame>(
    py: Python<'_>,
    state: &G::State,
    depth: &Bound<'_, PyAny>,
    stop: Option<&Bound<'_, PyAny>>,
) -> PyResult<u64> {
    let depth = int_arg(depth, "depth", 0, MAX_PERFT_DEPTH)? as u32;
    perft::count_leaves(py, state.clone(), depth, stop, G::perft, G::perft_interruptible)
}

/// A weights argument: a sequence of one integer per weight, each within the weight's range.
pub fn weights_arg<G: SmallGame>(value: &Bound<'_, PyAny>) -> PyResult<G::Weights> {
    let items: Vec<Bound<'_, PyAny>> = value.try_iter()?.collect::<PyResult<_>>()?;
    let count = (0..).take_while(|&i| G::weight_range(i).is_some()).count();
    if items.len() != count {
        return Err(PyValueError::new_err(format!("expected {count} weights, got {}", items.len())));
    }
    let values = items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let (name, min, max) = G::weight_range(i).expect("counted above");
            Ok(signed_int_arg(item, &format!("weight {name}"), min.into(), max.into())? as i32)
        })
        .collect::<PyResult<Vec<i32>>>()?;
    Ok(G::weights(values))
}

/// The [`SETTINGS`] entry named `name`, or a `ValueError` quoting it and naming the settings.
fn setting_spec(name: &str) -> PyResult<&'static SettingSpec> {
    SETTINGS.iter().find(|spec| spec.name == name).ok_or_else(|| {
        let names: Vec<&str> = SETTINGS.iter().map(|spec| spec.name).collect();
        PyValueError::new_err(format!("no search setting {name:?} (the settings: {})", names.join(", ")))
    })
}

/// An optional weights argument (`None`: the defaults).
pub fn opt_weights<G: SmallGame>(value: Option<&Bound<'_, PyAny>>) -> PyResult<G::Weights> {
    Ok(value.filter(|w| !w.is_none()).map(weights_arg::<G>).transpose()?.unwrap_or_default())
}

/// The evaluation of *state* for the side to move with *weights* (``None``: the defaults) and its
/// features.
pub fn evaluate<G: SmallGame>(
    state: &G::State,
    weights: Option<&Bound<'_, PyAny>>,
) -> PyResult<(i32, Vec<i32>)> {
    Ok(G::evaluate(state, &opt_weights::<G>(weights)?))
}

/// A searcher class's state: the game's searcher (locked by a running search), its thread count and
/// the flag that stops a running search.
pub struct GameSearcher<G: SmallGame> {
    searcher: Mutex<G::Searcher>,
    threads: AtomicUsize,
    stop: AtomicBool,
}

/// The moves and the report a search returns to Python.
pub type Found = (Option<String>, GameIteration);

impl<G: SmallGame> GameSearcher<G> {
    pub fn new(hash_mb: Option<&Bound<'_, PyAny>>) -> PyResult<GameSearcher<G>> {
        let mb = match hash_mb {
            Some(v) if !v.is_none() => check_hash(v, "hash_mb", 1)?,
            _ => DEFAULT_HASH_MB as usize,
        };
        let searcher = G::searcher(mb).map_err(|e| PyMemoryError::new_err(e.to_string()))?;
        Ok(GameSearcher {
            searcher: Mutex::new(searcher),
            threads: AtomicUsize::new(1),
            stop: AtomicBool::new(false),
        })
    }

    fn inner(&self) -> MutexGuard<'_, G::Searcher> {
        self.searcher.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn clear(&self, py: Python<'_>) {
        py.detach(|| G::clear(&mut self.inner()));
    }

    pub fn threads(&self) -> usize {
        self.threads.load(Ordering::Relaxed)
    }

    pub fn set_threads(&self, py: Python<'_>, threads: &Bound<'_, PyAny>) -> PyResult<()> {
        let threads = int_arg(threads, "threads", 1, MAX_THREADS)? as usize;
        py.detach(|| G::set_threads(&mut self.inner(), threads))
            .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
        self.threads.store(threads, Ordering::Relaxed);
        Ok(())
    }

    pub fn weights(&self, py: Python<'_>) -> Vec<i32> {
        py.detach(|| G::weight_values(G::searcher_weights(&mut self.inner())))
    }

    pub fn set_weights(&self, py: Python<'_>, weights: &Bound<'_, PyAny>) -> PyResult<()> {
        let weights = weights_arg::<G>(weights)?;
        py.detach(|| *G::searcher_weights(&mut self.inner()) = weights);
        Ok(())
    }

    pub fn setting(&self, py: Python<'_>, name: &str) -> PyResult<i32> {
        let spec = setting_spec(name)?;
        Ok(py.detach(|| *G::searcher_settings(&mut self.inner()).field_mut(spec.name).expect("listed")))
    }

    pub fn default_setting(name: &str) -> PyResult<i32> {
        let spec = setting_spec(name)?;
        Ok(*G::default_settings().field_mut(spec.name).expect("listed"))
    }

    pub fn set_setting(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let spec = setting_spec(name)?;
        let value = int_arg(value, spec.name, 0, spec.max as u64)? as i32;
        py.detach(|| *G::searcher_settings(&mut self.inner()).field_mut(spec.name).expect("listed") = value);
        Ok(())
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn search(
        &self,
        py: Python<'_>,
        state: &G::State,
        limits: Limits,
        on_iteration: Option<Py<PyAny>>,
    ) -> PyResult<Found> {
        let state = state.clone();
        self.stop.store(false, Ordering::Relaxed);
        let result = interrupt::run(
            py,
            &self.stop,
            |outbox| {
                let mut searcher = self.inner();
                G::search(&mut searcher, &state, limits, &self.stop, |it| {
                    outbox.send(GameIteration::from_search(it))
                })
            },
            |py, info: GameIteration| match &on_iteration {
                Some(f) => f.call1(py, (info,)).map(drop),
                None => Ok(()),
            },
        )?;
        Ok((result.best_move.map(|m| m.to_string()), GameIteration::from_search(&result.info)))
    }
}

/// A search's limits from Python's arguments (each optional).
pub fn limits(
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    time: Option<f64>,
    soft_time: Option<f64>,
    min_depth: Option<&Bound<'_, PyAny>>,
) -> PyResult<Limits> {
    Ok(Limits {
        depth: opt_int_arg(depth, "depth", 1, MAX_SEARCH_DEPTH)?.map(|d| d as i32),
        nodes: opt_int_arg(nodes, "nodes", 1, u64::MAX)?,
        time: seconds_arg(time, "time")?,
        soft_time: seconds_arg(soft_time, "soft_time")?,
        min_depth: opt_int_arg(min_depth, "min_depth", 1, MAX_SEARCH_DEPTH)?.map(|d| d as i32),
    })
}

/// What every game's self-play settings hold, checked.
pub struct SelfPlayRun {
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies that open each game.
    pub random_plies: u32,
    /// The openings' seed.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
}

/// Self-play settings from Python's arguments.
pub fn settings<G: SmallGame>(
    nodes: &Bound<'_, PyAny>,
    random_plies: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    threads: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<G::Settings> {
    let run = SelfPlayRun {
        nodes: int_arg(nodes, "nodes", 1, u64::MAX)?,
        random_plies: int_arg(random_plies, "random_plies", 0, G::MAX_RANDOM_PLIES)? as u32,
        seed: int_arg(seed, "seed", 0, u64::MAX)?,
        threads: int_arg(threads, "threads", 1, MAX_THREADS)? as usize,
    };
    G::settings(run, rules.filter(|r| !r.is_none()))
}

/// Tuning samples' columns: features, plies (``None`` where the game's samples keep none), whether the
/// first mover was to move, and the results.
pub type Columns = (Vec<Vec<i32>>, Option<Vec<u32>>, Vec<bool>, Vec<f32>);

/// Tuning samples from *games* self-play games with *settings* and *weights*.
pub fn selfplay<G: SmallGame>(
    py: Python<'_>,
    games: u64,
    settings: G::Settings,
    weights: G::Weights,
) -> PyResult<Columns> {
    let stop = AtomicBool::new(false);
    let kept = interrupt::run_silent(py, &stop, || G::samples(games, weights, &settings, &stop))?
        .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    let rows: Vec<_> = kept.iter().map(G::sample).collect();
    Ok((
        rows.iter().map(|r| r.0.clone()).collect(),
        rows.iter().map(|r| r.1).collect(),
        rows.iter().map(|r| r.2).collect(),
        rows.iter().map(|r| r.3).collect(),
    ))
}

/// *pairs* pairs of games between weights *a* and *b* with *settings*, colours swapped in each pair:
/// *a*'s points in each game.
pub fn compare<G: SmallGame>(
    py: Python<'_>,
    pairs: u64,
    (a, b): (G::Weights, G::Weights),
    settings: G::Settings,
) -> PyResult<Vec<(f32, f32)>> {
    let stop = AtomicBool::new(false);
    let results = interrupt::run_silent(py, &stop, || G::compare(pairs, a, b, &settings, &stop))?
        .map_err(|e| PyMemoryError::new_err(e.to_string()))?;
    Ok(results.into_iter().map(|[x, y]| (x, y)).collect())
}

/// The [`SmallGame`] items that both game crates spell alike, written once for a game file's `impl`:
/// the file's own `Weights`, `samples` and `compare`, and its searcher's `new`, `clear`,
/// `set_threads`, `weights` and `search`.
macro_rules! alike_items {
    ($state:ty, $pymove:ty, $searcher:ty, $max_random_plies:expr) => {
        type State = $state;
        type PyMove = $pymove;
        type Searcher = $searcher;
        const MAX_RANDOM_PLIES: u64 = $max_random_plies;
        type Move = Move;
        type Weights = Weights;
        type Settings = SelfPlaySettings;
        type Sample = Sample;

        fn weights(values: Vec<i32>) -> Weights {
            Weights(values.try_into().expect("one value per weight"))
        }
        fn weight_values(weights: &Weights) -> Vec<i32> {
            weights.0.to_vec()
        }
        fn searcher(hash_mb: usize) -> Result<Self::Searcher, camelpy_core::AllocError> {
            <Self::Searcher>::new(hash_mb)
        }
        fn clear(searcher: &mut Self::Searcher) {
            searcher.clear();
        }
        fn set_threads(
            searcher: &mut Self::Searcher,
            threads: usize,
        ) -> Result<(), camelpy_core::AllocError> {
            searcher.set_threads(threads)
        }
        fn searcher_weights(searcher: &mut Self::Searcher) -> &mut Weights {
            &mut searcher.weights
        }
        fn searcher_settings(searcher: &mut Self::Searcher) -> &mut camelpy_games::SearchSettings {
            &mut searcher.settings
        }
        fn default_settings() -> camelpy_games::SearchSettings {
            <$searcher>::DEFAULT_SETTINGS
        }
        fn search(
            searcher: &mut Self::Searcher,
            state: &Self::State,
            limits: camelpy_games::Limits,
            stop: &std::sync::atomic::AtomicBool,
            on_iteration: impl FnMut(&camelpy_games::Iteration<Self::Move>),
        ) -> camelpy_games::SearchResult<Self::Move> {
            searcher.search(state, limits, stop, on_iteration)
        }
        fn samples(
            games: u64,
            weights: Weights,
            settings: &Self::Settings,
            stop: &std::sync::atomic::AtomicBool,
        ) -> Result<Vec<Self::Sample>, camelpy_core::AllocError> {
            samples(games, weights, settings, stop)
        }
        fn compare(
            pairs: u64,
            a: Weights,
            b: Weights,
            settings: &Self::Settings,
            stop: &std::sync::atomic::AtomicBool,
        ) -> Result<Vec<[f32; 2]>, camelpy_core::AllocError> {
            compare(pairs, a, b, settings, stop)
        }
    };
}

pub(crate) use alike_items;

/// A game's board class (`$board`, Python name `$board_name`, holding a `SmallGame::State` as `state`,
/// moves crossing as `$pymove`, the game's own methods in `{ ... }`) and searcher class (`$searcher`).
macro_rules! game_classes {
    ($game:ty, $pymove:ty, $board:ident, $board_name:literal, $searcher:ident, $searcher_name:literal,
     { $($extra:tt)* }) => {
        /// A game and its moves (the core's; use the game module's ``Board``, a ``camelpy.games.Board``).
        #[pyclass(module = "camelpy._core", name = $board_name)]
        #[derive(Clone)]
        pub struct $board {
            state: <$game as $crate::games::SmallGame>::State,
        }

        #[pymethods]
        impl $board {
            $($extra)*

            /// The one-line text of the position now.
            fn fen(&self) -> String {
                <$game as $crate::games::SmallGame>::fen(&self.state)
            }

            /// The one-line text of the position the moves were played on.
            fn root_fen(&self) -> String {
                <$game as $crate::games::SmallGame>::root_fen(&self.state)
            }

            /// The legal moves, in square order (none once the game is over).
            fn legal_moves(&self) -> Vec<$pymove> {
                let moves = <$game as $crate::games::SmallGame>::legal_moves(&self.state);
                moves.into_iter().map(<$game as $crate::games::SmallGame>::py_move).collect()
            }

            /// Plays *mv*; raises ``camelpy.errors.InvalidMoveError`` for no move and
            /// ``camelpy.errors.IllegalMoveError`` for one not legal here (the board is left unchanged).
            fn push(&mut self, mv: $pymove) -> PyResult<()> {
                <$game as $crate::games::SmallGame>::push(&mut self.state, mv)
            }

            /// Takes back the last move and returns it; ``IndexError`` when there is none.
            fn pop(&mut self) -> PyResult<$pymove> {
                <$game as $crate::games::SmallGame>::pop(&mut self.state)
                    .map(<$game as $crate::games::SmallGame>::py_move)
                    .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err("pop from empty move stack"))
            }

            /// The moves played on this board, oldest first.
            fn move_stack(&self) -> Vec<$pymove> {
                let moves = <$game as $crate::games::SmallGame>::move_stack(&self.state);
                moves.into_iter().map(<$game as $crate::games::SmallGame>::py_move).collect()
            }

            /// ``True`` when the side that moves first is to move.
            #[getter]
            fn turn(&self) -> bool {
                <$game as $crate::games::SmallGame>::first_to_move(&self.state)
            }

            /// The Zobrist key.
            #[getter]
            fn zobrist_key(&self) -> u64 {
                <$game as $crate::games::SmallGame>::key(&self.state)
            }

            /// ``(termination, winner)`` once the game is over (winner ``True``: the side that moved
            /// first; ``None``: a draw), else ``None``.
            fn outcome(&self) -> Option<(&'static str, Option<bool>)> {
                <$game as $crate::games::SmallGame>::outcome(&self.state)
            }

            /// A copy, with its move stack.
            fn copy(&self) -> Self {
                self.clone()
            }

            /// Leaves of the move tree *depth* plies below, counted with the GIL released; Ctrl-C, or
            /// *stop* (a ``threading.Event``) set from another thread, stops a deep count.
            #[pyo3(signature = (depth, *, stop = None))]
            fn perft(
                &self,
                py: Python<'_>,
                depth: &Bound<'_, PyAny>,
                stop: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<u64> {
                $crate::games::perft::<$game>(py, &self.state, depth, stop)
            }

            /// The evaluation for the side to move with *weights* (``None``: the defaults), and the
            /// features (the side that moves first minus the other).
            #[pyo3(signature = (weights = None))]
            fn evaluate(&self, weights: Option<&Bound<'_, PyAny>>) -> PyResult<(i32, Vec<i32>)> {
                $crate::games::evaluate::<$game>(&self.state, weights)
            }
        }

        /// The game's searcher (use the Python module's ``Searcher``): a table of *hash_mb* MiB kept
        /// between searches; :meth:`stop` from another thread ends a running search.
        #[pyclass(module = "camelpy._core", name = $searcher_name, frozen)]
        pub struct $searcher($crate::games::GameSearcher<$game>);

        #[pymethods]
        impl $searcher {
            #[new]
            #[pyo3(signature = (hash_mb = None))]
            fn new(hash_mb: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
                $crate::games::GameSearcher::new(hash_mb).map($searcher)
            }

            /// Forgets what earlier searches learnt (a new game); waits for a running search.
            fn clear(&self, py: Python<'_>) {
                self.0.clear(py)
            }

            /// The threads a search runs on.
            fn threads(&self) -> usize {
                self.0.threads()
            }

            /// Searches on *threads* threads from now on (LazySMP); waits for a running search.
            fn set_threads(&self, py: Python<'_>, threads: &Bound<'_, PyAny>) -> PyResult<()> {
                self.0.set_threads(py, threads)
            }

            /// The evaluation's weights, in table order.
            fn weights(&self, py: Python<'_>) -> Vec<i32> {
                self.0.weights(py)
            }

            /// Sets every weight (in table order); waits for a running search.
            fn set_weights(&self, py: Python<'_>, weights: &Bound<'_, PyAny>) -> PyResult<()> {
                self.0.set_weights(py, weights)
            }

            /// The search setting *name* (one of ``SEARCH_SETTINGS``; see the game's ``Searcher``).
            fn setting(&self, py: Python<'_>, name: &str) -> PyResult<i32> {
                self.0.setting(py, name)
            }

            /// The search setting *name* as a new searcher has it (the game's default).
            #[staticmethod]
            fn default_setting(name: &str) -> PyResult<i32> {
                $crate::games::GameSearcher::<$game>::default_setting(name)
            }

            /// Sets the search setting *name* (0 to its ``SEARCH_SETTINGS`` maximum); waits for a
            /// running search.
            fn set_setting(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
                self.0.set_setting(py, name, value)
            }

            /// Ends a running search soon (it returns its best move so far).
            fn stop(&self) {
                self.0.stop()
            }

            /// Searches *board* to *depth*, *nodes* or *time* seconds (whichever first; no iteration
            /// starts after *soft_time* seconds unless it is at most *min_depth* deep), with the GIL
            /// released; *on_iteration* (if given) is called with each finished iteration's
            /// ``GameIteration``. Returns ``(best move text or None, last iteration)``. Ctrl-C stops the
            /// search and raises ``KeyboardInterrupt``.
            #[allow(clippy::too_many_arguments)] // one per Python argument
            fn search(
                &self,
                py: Python<'_>,
                board: &$board,
                depth: Option<&Bound<'_, PyAny>>,
                nodes: Option<&Bound<'_, PyAny>>,
                time: Option<f64>,
                on_iteration: Option<Py<PyAny>>,
                soft_time: Option<f64>,
                min_depth: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<$crate::games::Found> {
                let limits = $crate::games::limits(depth, nodes, time, soft_time, min_depth)?;
                self.0.search(py, &board.state, limits, on_iteration)
            }

            /// Tuning samples from *games* self-play games of *weights* (``None``: the defaults).
            #[staticmethod]
            #[pyo3(signature = (games, weights, nodes, random_plies, seed, threads, rules = None))]
            #[allow(clippy::too_many_arguments)] // one per Python argument
            fn selfplay(
                py: Python<'_>,
                games: &Bound<'_, PyAny>,
                weights: Option<&Bound<'_, PyAny>>,
                nodes: &Bound<'_, PyAny>,
                random_plies: &Bound<'_, PyAny>,
                seed: &Bound<'_, PyAny>,
                threads: &Bound<'_, PyAny>,
                rules: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<$crate::games::Columns> {
                let games = $crate::args::int_arg(games, "games", 0, u64::from(u32::MAX))?;
                let settings = $crate::games::settings::<$game>(nodes, random_plies, seed, threads, rules)?;
                $crate::games::selfplay::<$game>(py, games, settings, $crate::games::opt_weights::<$game>(weights)?)
            }

            /// *pairs* pairs of games between weights *a* and *b*: *a*'s points in each game.
            #[staticmethod]
            #[pyo3(signature = (a, b, pairs, nodes, random_plies, seed, threads, rules = None))]
            #[allow(clippy::too_many_arguments)] // one per Python argument
            fn compare(
                py: Python<'_>,
                a: &Bound<'_, PyAny>,
                b: &Bound<'_, PyAny>,
                pairs: &Bound<'_, PyAny>,
                nodes: &Bound<'_, PyAny>,
                random_plies: &Bound<'_, PyAny>,
                seed: &Bound<'_, PyAny>,
                threads: &Bound<'_, PyAny>,
                rules: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Vec<(f32, f32)>> {
                let weights = ($crate::games::weights_arg::<$game>(a)?, $crate::games::weights_arg::<$game>(b)?);
                let pairs = $crate::args::int_arg(pairs, "pairs", 0, u64::from(u32::MAX))?;
                let settings = $crate::games::settings::<$game>(nodes, random_plies, seed, threads, rules)?;
                $crate::games::compare::<$game>(py, pairs, weights, settings)
            }
        }
    };
}

pub(crate) use game_classes;
