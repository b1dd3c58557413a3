//! [`Searcher`]: iterative deepening over a principal-variation alpha-beta search with quiescence,
//! for any [`Game`].
//!
//! Per node: the game's own end (a captured king, a ply limit), mate-distance pruning, a
//! transposition-table cutoff at non-PV nodes, reverse futility and null-move pruning when the side to
//! move is not in danger, then the moves in order — the table's move, noisy moves by
//! [`Game::noisy_order`], the two killers, quiet moves by history — the first with a full window and
//! the rest with a null window (re-searched on a fail-high), late quiet moves reduced (and pruned near
//! the horizon with the `late_moves` setting). A side in danger is extended by one ply. Leaves go to
//! quiescence, which stands pat on the static evaluation (unless in danger) and searches the noisy
//! moves.

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::{Duration, Instant},
};

use camelpy_core::{
    search::history::{gravity, Killers, HISTORY_MAX as CORE_HISTORY_MAX},
    tt::{Bound, TTData, TranspositionTable},
    types::{
        is_mate, mate_in, mated_in, MAX_PLY, VALUE_INFINITE, VALUE_MATE, VALUE_MATE_IN_MAX_PLY, VALUE_NONE,
    },
    AllocError, Score, Value,
};

use crate::game::{Game, Rules};

/// Largest magnitude of a history score (the core's, with the same gravity).
pub const HISTORY_MAX: i32 = CORE_HISTORY_MAX;

/// Nodes between two looks at the clock and the stop flag: often enough to stop within a millisecond
/// or so, rarely enough to cost nothing measurable.
const CHECK_EVERY: u64 = 1024;
/// Without [`Limits::soft_time`], a new iteration is not started after this fraction of the time limit:
/// it would rarely finish (an iteration costs about as much as all the ones before it together:
/// Leiserchess's nodes so far grow 2.0-2.3 times an iteration from depth 5 to 9, medians over 24
/// self-play positions), and an unfinished iteration's work is lost.
pub const SOFT_TIME_FRACTION: f64 = 0.5;
/// Reverse futility: a node at depth ≤ this whose static evaluation beats beta by the margin below
/// is cut without searching.
const RFP_MAX_DEPTH: i32 = 3;
/// Reverse futility margin per ply of depth: about a pawn and a bit.
const RFP_MARGIN: Value = 120;
/// Null move: tried from this depth on.
const NMP_MIN_DEPTH: i32 = 3;
/// Null move: the reduction is this plus depth / [`NMP_DEPTH_DIVISOR`].
const NMP_BASE_REDUCTION: i32 = 2;
/// Null move: see [`NMP_BASE_REDUCTION`].
const NMP_DEPTH_DIVISOR: i32 = 4;
/// Late-move reductions: from this depth on.
const LMR_MIN_DEPTH: i32 = 3;
/// Late-move reductions: after this many moves searched at full depth.
const LMR_FULL_MOVES: usize = 3;
/// Late-move reductions: `reduction = LMR_BASE + ln(depth) ln(moves) / LMR_DIVISOR`.
const LMR_BASE: f64 = 0.5;
/// See [`LMR_BASE`].
const LMR_DIVISOR: f64 = 2.5;
/// Quiescence: how many plies below the horizon a side in danger still searches every move (after
/// that it stands pat like anyone else, so quiescence always ends).
const QS_DANGER_PLIES: i32 = 2;
/// Killer moves are ordered between noisy moves and other quiet moves: this far above any history.
const KILLER_ORDER: i32 = 2 * HISTORY_MAX + 2;
/// The table move comes first.
const TT_MOVE_ORDER: i32 = i32::MAX;
/// Moves picked one pass at a time before the rest of a node's moves is sorted at once
/// ([`next_in_order`]): a cut node most often cuts on its first move (the table's). Measured over the
/// five benchmark positions (cachegrind, Leiserchess depth 6): 1 saves 1.3 % of the instructions of
/// sorting every node at once, 2 saves 0.9 %, 4 0.3 %.
const PICKS_BEFORE_SORT: usize = 1;
/// Noisy moves come before killers.
const NOISY_ORDER_BASE: i32 = 4 * HISTORY_MAX;

/// What bounds a search; all optional, "whichever comes first". With none set the search runs until
/// the stop flag rises (or to the deepest depth).
#[derive(Debug, Clone, Copy, Default)]
pub struct Limits {
    /// Deepest iteration to finish.
    pub depth: Option<i32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this long, mid-iteration if need be (the hard limit; without `soft_time`, no new
    /// iteration starts after [`SOFT_TIME_FRACTION`] of it).
    pub time: Option<Duration>,
    /// Start no new iteration after this long (the soft limit; `time` still cuts an iteration short).
    pub soft_time: Option<Duration>,
    /// Iterations up to this depth start whatever the soft limit says; only `time`, the nodes or the
    /// stop flag end them: a floor under the depth of a hurried move.
    pub min_depth: Option<i32>,
}

impl Limits {
    /// To depth `depth`, with no other limit.
    pub fn to_depth(depth: i32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }
}

/// The search's run-time settings: candidate changes, each off in [`SearchSettings::OFF`] (the search
/// exactly as before, so the games' signatures keep their counts), to be tested by an SPRT against the
/// game's default with the same build (`docs/strength.md`, "Candidate search changes"); one that passes
/// for a game becomes part of its [`Game::DEFAULT_SETTINGS`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchSettings {
    /// How a side to move that [`Game::threatened`] says is threatened is searched: 0 as any other
    /// (the default); 1 as a side in danger in the main search (no reverse futility, null move or
    /// late-move reduction at its node, one ply deeper); [`QS_THREATS`] (2) in quiescence too (it
    /// answers the threat for [`QS_DANGER_PLIES`] plies instead of standing pat); [`LAZY_THREATS`] (3)
    /// as 1, but looked for only at nodes deep enough for late-move reductions and where reverse
    /// futility would cut. Up to [`MAX_THREATS`].
    pub threats: i32,
    /// Aspiration windows: 0 searches every iteration with the full window (the default); a value
    /// searches each iteration from depth [`ASPIRATION_MIN_DEPTH`] on within that many centipawns
    /// either side of the last iteration's score, doubling the side that fails until the score falls
    /// inside. Up to [`MAX_ASPIRATION`].
    pub aspiration: i32,
    /// Late-move pruning: 0 searches every move (the default); a value N skips, at a non-PV node of
    /// depth d ≤ [`LMP_MAX_DEPTH`] that is not in danger, every quiet move after the first `N·d²` moves
    /// (once a move has been searched and the best so far is no proven loss). Up to [`MAX_LATE_MOVES`].
    pub late_moves: i32,
}

/// One of [`SearchSettings`]' fields as the bindings and protocols name it, with its range (0 to `max`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingSpec {
    /// The field's name (the Python key; the Leiserchess protocol's option is it in CamelCase).
    pub name: &'static str,
    /// The largest value (0 is the smallest; a game's default is in [`Game::DEFAULT_SETTINGS`]).
    pub max: i32,
}

/// Every field of [`SearchSettings`], in declaration order: the one list the bindings and protocols read.
pub const SETTINGS: [SettingSpec; 3] = [
    SettingSpec { name: "threats", max: MAX_THREATS },
    SettingSpec { name: "aspiration", max: MAX_ASPIRATION },
    SettingSpec { name: "late_moves", max: MAX_LATE_MOVES },
];

impl SearchSettings {
    /// Every setting 0: the search as it was before any of them (also [`SearchSettings::default`]).
    pub const OFF: SearchSettings = SearchSettings { threats: 0, aspiration: 0, late_moves: 0 };

    /// The field named `name` (as in [`SETTINGS`]), or `None` for no such setting.
    pub fn field_mut(&mut self, name: &str) -> Option<&mut i32> {
        match name {
            "threats" => Some(&mut self.threats),
            "aspiration" => Some(&mut self.aspiration),
            "late_moves" => Some(&mut self.late_moves),
            _ => None,
        }
    }
}

/// The largest [`SearchSettings::aspiration`]: ten pawns, past which a window is the full one in all
/// but name.
pub const MAX_ASPIRATION: i32 = 1000;
/// Aspiration windows start at this depth: the shallow iterations cost little and their scores swing
/// most from one to the next.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// The largest [`SearchSettings::late_moves`]: from 64 on, `N·d²` is past any node's moves (a
/// Leiserchess position has about 70), so the setting would prune nothing.
pub const MAX_LATE_MOVES: i32 = 64;
/// Late-move pruning works at this depth and below: the nodes nearest the horizon, where a quiet
/// move ordered late has the least chance of changing the result and the most siblings.
pub const LMP_MAX_DEPTH: i32 = 3;

/// The largest [`SearchSettings::threats`].
pub const MAX_THREATS: i32 = 3;
/// The [`SearchSettings::threats`] that also looks for a threat in quiescence.
pub const QS_THREATS: i32 = 2;
/// The [`SearchSettings::threats`] that looks for a threat only where it would change what the search
/// does: at nodes deep enough for late-move reductions, and where reverse futility would cut.
pub const LAZY_THREATS: i32 = 3;

/// One finished iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iteration<M> {
    /// Its depth.
    pub depth: i32,
    /// The value for the side to move at the root.
    pub score: Score,
    /// Nodes searched so far (all iterations).
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The principal variation (first the best move).
    pub pv: Vec<M>,
}

/// What a search found: the best move (`None` only when the root has no move or the game is over) and
/// its last finished iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play.
    pub best_move: Option<M>,
    /// The last finished iteration (depth 0 and the static evaluation when none finished).
    pub info: Iteration<M>,
}

/// A game's searcher: the table, shared by its threads, each thread's ordering tables, kept from search
/// to search (call [`Searcher::clear`] for a new game), and the evaluation's weights. Each game names
/// its own (`camelpy_minichess::search::MiniSearcher`, `camelpy_leiserchess::search::LeiserSearcher`).
///
/// With more than one thread ([`Searcher::set_threads`]) a search is LazySMP, as chess's
/// (`camelpy_core::threads`): the helpers search the same game on their own copies, sharing only the
/// lock-free table, from which the main thread picks up what they found; the main thread's iterations
/// are the result, the helpers stop when it does, and the nodes are everyone's.
pub struct Searcher<G: Game> {
    tt: TranspositionTable<G::Move>,
    /// The main thread's state first, then each helper's.
    workers: Vec<Worker<G>>,
    /// The weights every search evaluates with.
    pub weights: G::Weights,
    /// The run-time settings every search runs with.
    pub settings: SearchSettings,
}

/// A node's move as ordered: its ordering score and whether it is noisy, asked of the game once (the
/// search, its late-move pruning and the history's reward read it again for every move).
#[derive(Clone, Copy)]
struct Ordered<M> {
    score: i32,
    mv: M,
    noisy: bool,
}

/// One thread's search state: ordering tables, buffers and counters.
struct Worker<G: Game> {
    killers: Killers<G::Move>,
    history: Vec<i16>,
    lmr: Box<[[i32; 64]; 64]>,
    /// Per-ply move buffers (generated, then ordered), reused so that the search does not allocate.
    buffers: Vec<Vec<G::Move>>,
    /// Per-ply buffers of each generated move's [`Game::noisy_order`] (`None` for a quiet one).
    noise: Vec<Vec<Option<i32>>>,
    ordered: Vec<Vec<Ordered<G::Move>>>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    start: Instant,
    limits: Limits,
    stopped: bool,
    /// The iteration under way: depth 1 is never interrupted, so that its move is a searched one.
    iteration: i32,
    /// The searcher's settings, copied at the start of each search.
    settings: SearchSettings,
}

/// Most threads a search runs on (far more than any machine it is meant for).
pub const MAX_THREADS: usize = 256;

impl<G: Game> Searcher<G> {
    /// The settings a new searcher starts with: the game's [`Game::DEFAULT_SETTINGS`].
    pub const DEFAULT_SETTINGS: SearchSettings = G::DEFAULT_SETTINGS;

    /// A searcher with a table of about `hash_mb` MiB, one thread and the default weights (an error,
    /// not an abort, if that much memory is not available).
    pub fn new(hash_mb: usize) -> Result<Searcher<G>, AllocError> {
        Ok(Searcher {
            tt: TranspositionTable::new(hash_mb)?,
            workers: vec![Worker::new()?],
            weights: G::Weights::default(),
            settings: G::DEFAULT_SETTINGS,
        })
    }

    /// Searches with `threads` threads from now on (clamped to 1..=[`MAX_THREADS`]); new helpers start
    /// with empty ordering tables. On an allocation failure the threads stay as they were.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), AllocError> {
        let threads = threads.clamp(1, MAX_THREADS);
        let mut added = Vec::new();
        for _ in self.workers.len()..threads {
            added.push(Worker::new()?);
        }
        self.workers.truncate(threads);
        self.workers.extend(added);
        Ok(())
    }

    /// The threads a search runs on.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Forgets everything learnt (table, killers, history): for a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        for worker in &mut self.workers {
            worker.killers.clear();
            worker.history.fill(0);
        }
    }

    /// Searches `position` within `limits` (see [`Limits`]) with the searcher's weights, calling
    /// `on_iteration` after every finished iteration of the main thread; `stop` ends the search early
    /// when it becomes true. The best move is `None` only when the game is over: a game the rules have
    /// ended (by a repetition, say) has none, whatever the search would find.
    pub fn search(
        &mut self,
        position: &G::Position,
        limits: Limits,
        stop: &AtomicBool,
        on_iteration: impl FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut game = G::from_position(position, self.weights);
        if position.first_player_points().is_some() {
            let mut result = self.search_game(&mut game, Limits { depth: Some(1), ..limits }, stop, |_| {});
            result.best_move = None;
            return result;
        }
        self.search_game(&mut game, limits, stop, on_iteration)
    }

    /// Searches `game` within `limits`, calling `on_iteration` after every finished iteration of the
    /// main thread; `stop` ends the search early when it becomes true. The game is left as it was
    /// given.
    pub fn search_game(
        &mut self,
        game: &mut G,
        limits: Limits,
        stop: &AtomicBool,
        on_iteration: impl FnMut(&Iteration<G::Move>),
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        for worker in &mut self.workers {
            worker.settings = self.settings;
        }
        let tt = &self.tt;
        let (main, helpers) = self.workers.split_first_mut().expect("a searcher has a thread");
        if helpers.is_empty() {
            return main.search(tt, game, limits, stop, on_iteration, 0);
        }
        let helpers_stop = AtomicBool::new(false);
        // Helpers have no limit of their own but the depth: they stop when the main thread does.
        let helper_limits = Limits { depth: limits.depth, ..Limits::default() };
        let mut result = std::thread::scope(|scope| {
            for (index, helper) in helpers.iter_mut().enumerate() {
                let mut copy = game.clone();
                let helpers_stop = &helpers_stop;
                scope.spawn(move || {
                    helper.search(tt, &mut copy, helper_limits, helpers_stop, |_| {}, index + 1);
                });
            }
            let result = main.search(tt, game, limits, stop, on_iteration, 0);
            helpers_stop.store(true, Ordering::Relaxed);
            result
        });
        result.info.nodes += helpers.iter().map(|h| h.nodes).sum::<u64>();
        result
    }
}

impl<G: Game> Worker<G> {
    /// A thread's state (its history table is the one allocation that grows with the game; it is
    /// made fallibly).
    fn new() -> Result<Worker<G>, AllocError> {
        let mut history = Vec::new();
        history.try_reserve_exact(G::HISTORY_SLOTS).map_err(|_| AllocError {
            what: "history table",
            bytes: G::HISTORY_SLOTS * std::mem::size_of::<i16>(),
        })?;
        history.resize(G::HISTORY_SLOTS, 0);
        let mut lmr = Box::new([[0; 64]; 64]);
        for (depth, row) in lmr.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                *r = (LMR_BASE + (depth as f64).ln() * (moves as f64).ln() / LMR_DIVISOR) as i32;
            }
        }
        Ok(Worker {
            killers: Killers::new(),
            history,
            lmr,
            buffers: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            noise: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            ordered: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(16)).collect(),
            nodes: 0,
            start: Instant::now(),
            limits: Limits::default(),
            stopped: false,
            iteration: 0,
            settings: SearchSettings::default(),
        })
    }

    /// Iterative deepening on `game` within `limits` (see [`Searcher::search`]); helper `helper` (0:
    /// the main thread) starts every other iteration a ply deeper, so that the threads do not all
    /// search the same depth at once.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        tt: &TranspositionTable<G::Move>,
        game: &mut G,
        limits: Limits,
        stop: &AtomicBool,
        mut on_iteration: impl FnMut(&Iteration<G::Move>),
        helper: usize,
    ) -> SearchResult<G::Move> {
        self.killers.clear();
        self.nodes = 0;
        self.start = Instant::now();
        self.limits = limits;
        self.stopped = false;
        let mut result = SearchResult {
            best_move: None,
            info: Iteration {
                depth: 0,
                score: Score::from_value(game.terminal_value(0).unwrap_or_else(|| game.evaluate())),
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: Vec::new(),
            },
        };
        if game.terminal_value(0).is_some() {
            return result;
        }
        let mut root_moves = Vec::new();
        game.generate(&mut root_moves, false);
        if root_moves.is_empty() {
            result.info.score = Score::from_value(game.no_moves_value(0));
            return result;
        }
        // Some move is always ready, even if the first iteration is interrupted.
        result.best_move = Some(root_moves[0]);
        let max_depth = limits.depth.unwrap_or(MAX_PLY - 1).clamp(1, MAX_PLY - 1);
        // The last finished iteration's value, the centre of an aspiration window.
        let mut last = 0;
        for depth in 1..=max_depth {
            self.iteration = depth;
            let skip = i32::from(helper % 2 == 1 && depth % 2 == 0 && depth < max_depth);
            let value = self.root_search(tt, game, depth + skip, last, stop);
            // Depth 1 always finishes; a deeper iteration counts only if it finished.
            if self.stopped {
                break;
            }
            last = value;
            let pv = self.pv[0].clone();
            if let Some(&first) = pv.first() {
                result.best_move = Some(first);
            }
            result.info = Iteration {
                depth,
                score: Score::from_value(value),
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv,
            };
            on_iteration(&result.info);
            // A win or loss proven within the depth searched cannot change any more.
            if self.stopped || is_mate(value) && VALUE_MATE - value.abs() <= depth {
                break;
            }
            let soft = limits.soft_time.or_else(|| limits.time.map(|t| t.mul_f64(SOFT_TIME_FRACTION)));
            if soft.is_some_and(|soft| self.start.elapsed() > soft) && depth >= limits.min_depth.unwrap_or(0)
            {
                break;
            }
            if limits.nodes.is_some_and(|n| self.nodes >= n) {
                break;
            }
        }
        result
    }

    /// One iteration's search of the root to `depth`: with the full window, or (with
    /// [`SearchSettings::aspiration`] set, from [`ASPIRATION_MIN_DEPTH`] on, after a score that is no
    /// proven win or loss) within a window around `last`, the previous iteration's score, widened on
    /// the side that fails (its margin doubled) until the score falls inside or the search stops.
    fn root_search(
        &mut self,
        tt: &TranspositionTable<G::Move>,
        game: &mut G,
        depth: i32,
        last: Value,
        stop: &AtomicBool,
    ) -> Value {
        let margin = self.settings.aspiration;
        if margin == 0 || depth < ASPIRATION_MIN_DEPTH || is_mate(last) {
            return self.negamax(tt, game, depth, 0, -VALUE_INFINITE, VALUE_INFINITE, stop);
        }
        let (mut below, mut above) = (margin, margin);
        loop {
            let alpha = (last - below).max(-VALUE_INFINITE);
            let beta = (last + above).min(VALUE_INFINITE);
            let value = self.negamax(tt, game, depth, 0, alpha, beta, stop);
            if self.stopped {
                return value;
            }
            if value <= alpha && alpha > -VALUE_INFINITE {
                below = below.saturating_mul(2);
            } else if value >= beta && beta < VALUE_INFINITE {
                above = above.saturating_mul(2);
            } else {
                return value;
            }
        }
    }

    /// Whether a limit has been reached (checked every [`CHECK_EVERY`] nodes, from the second
    /// iteration on).
    fn should_stop(&mut self, stop: &AtomicBool) -> bool {
        if !self.stopped && self.iteration > 1 && self.nodes.is_multiple_of(CHECK_EVERY) {
            let out_of_time = self.limits.time.is_some_and(|t| self.start.elapsed() >= t);
            let out_of_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            self.stopped = out_of_time || out_of_nodes || stop.load(Ordering::Relaxed);
        }
        self.stopped
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        tt: &TranspositionTable<G::Move>,
        game: &mut G,
        depth: i32,
        ply: i32,
        mut alpha: Value,
        mut beta: Value,
        stop: &AtomicBool,
    ) -> Value {
        let pv_node = beta - alpha > 1;
        let p = ply as usize;
        self.pv[p].clear();
        if let Some(v) = game.terminal_value(ply) {
            return v;
        }
        // `threats` 3 looks only where a reduction or a cut could hide the threat (see below).
        let lazy = self.settings.threats == LAZY_THREATS;
        let mut danger = game.in_danger()
            || self.settings.threats > 0 && (!lazy || depth >= LMR_MIN_DEPTH) && game.threatened();
        let mut depth = depth + i32::from(danger && ply > 0);
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(game, 0, ply, alpha, beta, stop);
        }
        self.nodes += 1;
        if ply > 0 && self.should_stop(stop) {
            return 0;
        }
        if ply > 0 {
            // Mate-distance pruning: nothing here beats a quicker win already found.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let key = game.key();
        let entry = tt.probe(key, ply);
        if let Some(e) = entry {
            if !pv_node && e.depth >= depth && e.value != VALUE_NONE && settles(&e, alpha, beta) {
                return e.value;
            }
        }
        let eval = if danger { VALUE_NONE } else { game.evaluate() };
        if !pv_node && !danger && ply > 0 {
            if depth <= RFP_MAX_DEPTH
                && eval - RFP_MARGIN * depth >= beta
                && eval.abs() < VALUE_MATE_IN_MAX_PLY
            {
                if !(lazy && depth < LMR_MIN_DEPTH && game.threatened()) {
                    return eval;
                }
                danger = true;
                depth += 1;
            }
            if !danger && depth >= NMP_MIN_DEPTH && eval >= beta && game.null_move_ok() {
                let reduction = NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR;
                game.play_null();
                let v = -self.negamax(tt, game, depth - 1 - reduction, ply + 1, -beta, -beta + 1, stop);
                game.undo_null();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= VALUE_MATE_IN_MAX_PLY { beta } else { v };
                }
            }
        }

        // A node one ply above the horizon with no table move, where nothing below can change the
        // history (only quiescence follows, see `Game::NEVER_IN_DANGER`), searches its noisy moves
        // before the rest are generated: they come first in its order anyway, and a cut among them
        // spares the node the rest (for Leiserchess, classifying every move). The order, and so the
        // search, is the one all the moves at once would give.
        let noisy_first = depth == 1
            && ply > 0
            && G::NEVER_IN_DANGER
            && self.settings.threats == 0
            && entry.and_then(|e| e.mv).is_none();
        // The table's move is checked only now, when the node's moves are needed: a game may have to
        // generate them all to know (Leiserchess classifies them), which a node cut above never does.
        let tt_move = if noisy_first { None } else { entry.and_then(|e| e.mv).filter(|&m| game.is_legal(m)) };
        let mut order = self.ordered_moves(game, p, noisy_first, tt_move);
        if order.is_empty() && !noisy_first {
            self.ordered[p] = order;
            return game.no_moves_value(ply);
        }
        let mut noisy_stage = noisy_first;

        let alpha_in = alpha;
        let mut best = -VALUE_INFINITE;
        let mut best_move = None;
        let late_moves = self.settings.late_moves;
        let prune_after = if late_moves > 0 && !pv_node && !danger && ply > 0 && depth <= LMP_MAX_DEPTH {
            (late_moves * depth * depth) as usize
        } else {
            usize::MAX
        };
        let mut i = 0;
        loop {
            if i < order.len() {
                next_in_order(&mut order, i);
            }
            if noisy_stage && (i == order.len() || order[i].score <= KILLER_ORDER) {
                // The noisy moves that come before every killer and quiet move are searched: now all
                // of the node's moves, those already searched again in front (a stable sort of them
                // all puts them there, in the same order).
                noisy_stage = false;
                #[cfg(debug_assertions)]
                let searched: Vec<G::Move> = order[..i].iter().map(|o| o.mv).collect();
                self.ordered[p] = order;
                order = self.ordered_moves(game, p, false, None);
                if order.is_empty() {
                    self.ordered[p] = order;
                    return game.no_moves_value(ply);
                }
                if i > 0 {
                    order.sort_by_key(|o| std::cmp::Reverse(o.score));
                }
                #[cfg(debug_assertions)]
                debug_assert!(order.iter().map(|o| o.mv).take(i).eq(searched), "the noisy stage's order");
                continue;
            }
            if i == order.len() {
                break;
            }
            let Ordered { mv, noisy, .. } = order[i];
            if i >= prune_after && !noisy && best > -VALUE_MATE_IN_MAX_PLY {
                i += 1;
                continue; // Late-move pruning: a quiet move this late is not searched.
            }
            game.play(mv);
            let mut v;
            if i == 0 {
                v = -self.negamax(tt, game, depth - 1, ply + 1, -beta, -alpha, stop);
            } else {
                let mut reduction = 0;
                if depth >= LMR_MIN_DEPTH && i >= LMR_FULL_MOVES && !noisy && !danger {
                    reduction = self.lmr[depth.min(63) as usize][i.min(63)] - i32::from(pv_node);
                    reduction = reduction.clamp(0, depth - 2);
                }
                v = -self.negamax(tt, game, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha, stop);
                if v > alpha && reduction > 0 {
                    v = -self.negamax(tt, game, depth - 1, ply + 1, -alpha - 1, -alpha, stop);
                }
                if v > alpha && v < beta {
                    v = -self.negamax(tt, game, depth - 1, ply + 1, -beta, -alpha, stop);
                }
            }
            game.undo();
            if self.stopped {
                self.ordered[p] = order;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(mv);
                    alpha = v;
                    self.extend_pv(p, mv);
                    if v >= beta {
                        if !noisy {
                            self.reward(game, mv, &order[..i], depth, p);
                        }
                        break;
                    }
                }
            }
            i += 1;
        }
        self.ordered[p] = order;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        tt.store(key, ply, TTData { mv: best_move.or(tt_move), value: best, eval, depth, bound });
        best
    }

    fn quiescence(
        &mut self,
        game: &mut G,
        qply: i32,
        ply: i32,
        mut alpha: Value,
        beta: Value,
        stop: &AtomicBool,
    ) -> Value {
        let p = ply as usize;
        self.pv[p].clear();
        if let Some(v) = game.terminal_value(ply) {
            return v;
        }
        self.nodes += 1;
        if self.should_stop(stop) {
            return 0;
        }
        // A side in danger must answer the threat (for a few plies); anyone else may stand pat.
        let all_moves = qply < QS_DANGER_PLIES
            && (game.in_danger() || self.settings.threats == QS_THREATS && game.threatened());
        let mut best = -VALUE_INFINITE;
        if !all_moves || ply >= MAX_PLY - 1 {
            let stand_pat = game.evaluate();
            if stand_pat >= beta || ply >= MAX_PLY - 1 {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut order = self.ordered_moves(game, p, !all_moves, None);
        if order.is_empty() && all_moves {
            self.ordered[p] = order;
            return game.no_moves_value(ply);
        }
        for i in 0..order.len() {
            next_in_order(&mut order, i);
            let mv = order[i].mv;
            game.play(mv);
            let v = -self.quiescence(game, qply + 1, ply + 1, -beta, -alpha, stop);
            game.undo();
            if self.stopped {
                self.ordered[p] = order;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    self.extend_pv(p, mv);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.ordered[p] = order;
        best
    }

    /// The moves at ply `p` (only the noisy ones if `noisy_only`) with their ordering scores, in
    /// generation order (the search takes them best first with [`next_in_order`]), in that ply's
    /// buffer (which the caller hands back with `self.ordered[p] = …`).
    fn ordered_moves(
        &mut self,
        game: &G,
        p: usize,
        noisy_only: bool,
        tt_move: Option<G::Move>,
    ) -> Vec<Ordered<G::Move>> {
        let (mut moves, mut noise) =
            (std::mem::take(&mut self.buffers[p]), std::mem::take(&mut self.noise[p]));
        moves.clear();
        noise.clear();
        game.generate_classified(&mut moves, &mut noise, noisy_only);
        let mut order = std::mem::take(&mut self.ordered[p]);
        order.clear();
        order.extend(moves.iter().zip(&noise).map(|(&mv, &noise)| Ordered {
            score: self.order(game, mv, noise, tt_move, p),
            mv,
            noisy: noise.is_some(),
        }));
        (self.buffers[p], self.noise[p]) = (moves, noise);
        order
    }

    /// The principal variation at ply `p` becomes `mv` followed by the one found below it.
    fn extend_pv(&mut self, p: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(p + 1);
        head[p].clear();
        head[p].push(mv);
        head[p].extend_from_slice(&tail[0]);
    }

    /// The ordering score at ply `p` of `mv`, whose [`Game::noisy_order`] is `noise` (`None`: quiet).
    fn order(&self, game: &G, mv: G::Move, noise: Option<i32>, tt_move: Option<G::Move>, p: usize) -> i32 {
        if Some(mv) == tt_move {
            TT_MOVE_ORDER
        } else if let Some(noise) = noise {
            NOISY_ORDER_BASE + noise
        } else if self.killers.get(p).contains(&Some(mv)) {
            KILLER_ORDER
        } else {
            i32::from(self.history[game.history_index(mv)])
        }
    }

    /// A quiet move cut off: it becomes a killer and gains history; the quiets tried before it lose.
    fn reward(&mut self, game: &G, mv: G::Move, tried: &[Ordered<G::Move>], depth: i32, p: usize) {
        self.killers.add(p, mv);
        let bonus = (depth * depth).min(HISTORY_MAX / 16) * 16;
        gravity(&mut self.history[game.history_index(mv)], bonus);
        for o in tried.iter().filter(|o| !o.noisy) {
            gravity(&mut self.history[game.history_index(o.mv)], -bonus);
        }
    }
}

/// Brings the best of `order[i..]` to `i`, given `order[..i]` already taken in order: for the first
/// [`PICKS_BEFORE_SORT`] moves by one pass over the rest, which keeps its order (the move is rotated
/// to the front, not swapped), then by one stable sort of all the rest. Either way the moves come out
/// as one stable sort of the whole node would give them (the best score first, equal scores in
/// generation order), so the search is deterministic and unchanged; a node that cuts off on its
/// first move never pays for sorting the ~70 moves behind it.
fn next_in_order<M>(order: &mut [Ordered<M>], i: usize) {
    match i.cmp(&PICKS_BEFORE_SORT) {
        std::cmp::Ordering::Less => {
            let rest = &mut order[i..];
            let mut best = 0;
            for (j, o) in rest.iter().enumerate().skip(1) {
                if o.score > rest[best].score {
                    best = j;
                }
            }
            rest[..=best].rotate_right(1);
        }
        std::cmp::Ordering::Equal => order[i..].sort_by_key(|o| std::cmp::Reverse(o.score)),
        std::cmp::Ordering::Greater => {}
    }
}

/// Whether a stored value settles the window: exact, or a bound on the right side of it.
fn settles<M>(e: &TTData<M>, alpha: Value, beta: Value) -> bool {
    match e.bound {
        Bound::Exact => true,
        Bound::Lower => e.value >= beta,
        Bound::Upper => e.value <= alpha,
        Bound::None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_setting_names_its_own_field() {
        let mut settings = SearchSettings::default();
        for (i, spec) in SETTINGS.iter().enumerate() {
            *settings.field_mut(spec.name).expect(spec.name) = i as i32 + 1;
            assert!(spec.max > 0, "{spec:?}");
        }
        assert_eq!(settings, SearchSettings { threats: 1, aspiration: 2, late_moves: 3 });
        assert_eq!(settings.field_mut("Threats"), None, "names are exact; protocols fold their case");
    }

    #[test]
    fn moves_come_in_the_stable_sorts_order() {
        // Scores with many ties (0..8), the moves numbered in generation order.
        let mut seed = 12345u32;
        for len in [0, 1, 2, 3, 10, 70] {
            let mut order: Vec<Ordered<usize>> = (0..len)
                .map(|mv| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    Ordered { score: (seed >> 16) as i32 % 8, mv, noisy: false }
                })
                .collect();
            let mut sorted = order.clone();
            sorted.sort_by_key(|o| std::cmp::Reverse(o.score));
            for i in 0..order.len() {
                next_in_order(&mut order, i);
            }
            let moves = |v: &[Ordered<usize>]| v.iter().map(|o| o.mv).collect::<Vec<_>>();
            assert_eq!(moves(&order), moves(&sorted), "{len} moves");
        }
    }
}
