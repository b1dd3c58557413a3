//! The search: iterative deepening with aspiration windows around a principal-variation alpha-beta
//! (<https://www.chessprogramming.org/Principal_Variation_Search>) and a quiescence search, written as
//! numbered steps. Several lines (MultiPV) are found by setting aside the root moves of the better ones.
//!
//! Parts: [`params`] (every tunable), [`limits`] (what bounds a search), [`info`] (what it reports),
//! [`movepick`] (staged move ordering), [`history`] (what ordering learns from). Several threads
//! searching one position together (LazySMP) are run by [`crate::threads`].

pub mod history;
pub mod info;
pub mod limits;
pub mod movepick;
pub mod params;

use std::{
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Arc,
    },
    time::Instant,
};

use self::{
    history::{
        ButterflyHistory, ContinuationHistory, CorrectionHistory, CounterMoves, Killers, CORRECTION_GRAIN,
    },
    info::{IterationInfo, Report, SearchResult},
    limits::SearchLimits,
    movepick::{MovePicker, Stage, WithContinuations},
    params::*,
};
use crate::{
    board::SEE_VALUES,
    eval::{evaluate_cached, pawn_hash, EvalParams, PawnCache},
    movegen::MoveList,
    nnue::{AccumulatorStack, Network},
    tt::{Bound, TTData, TranspositionTable},
    types::{
        is_mate, mate_in, mated_in, Color, Move, MoveKind, Piece, PieceType, Score, Square, Value, MAX_PLY,
        VALUE_DRAW, VALUE_INFINITE, VALUE_MATE, VALUE_MATE_IN_MAX_PLY, VALUE_NONE,
    },
    Position,
};

/// What one searcher keeps between searches: move-ordering tables, the eval correction table and the
/// LMR table. Each search thread owns one (see [`crate::threads`]).
#[derive(Clone)]
pub struct SearchState {
    history: ButterflyHistory,
    continuations: ContinuationHistory,
    corrections: CorrectionHistory,
    killers: Killers,
    counters: CounterMoves,
    lmr: Box<[[i32; 64]; 64]>,
    /// The `(lmr_base, lmr_divisor)` that `lmr` was built from.
    lmr_params: (i32, i32),
    pawns: PawnCache,
    /// The network evaluating for this searcher, with its accumulators (`None`: the classical evaluation).
    nnue: Option<NnueState>,
}

/// A network and the accumulators of the line being searched.
#[derive(Clone)]
struct NnueState {
    net: Arc<Network>,
    stack: Box<AccumulatorStack>,
}

/// What the search remembers about each ply of the line it is on, for the plies after it.
#[derive(Clone, Copy)]
struct Frame {
    /// The static evaluation (corrected), `VALUE_NONE` in check.
    static_eval: Value,
    /// The piece moved from this ply and where it went (`None` for a null move or not yet moved).
    moved: Option<(Piece, Square)>,
}

const EMPTY_FRAME: Frame = Frame { static_eval: VALUE_NONE, moved: None };

/// How a searcher takes part in a multi-threaded search ([`crate::threads`]); absent for a plain
/// single-threaded [`search`], which then behaves exactly as it did before threads existed.
#[derive(Clone, Copy)]
pub(crate) struct ThreadRole<'a> {
    /// 0 for the main thread (limits and reports), 1.. for helpers.
    pub index: usize,
    /// Every thread's node count, published at each stop poll (indexed by `index`).
    pub nodes: &'a [NodeCounter],
}

/// One thread's published node count, alone on its cache line so that publishing does not slow the
/// other threads down (no false sharing). Here, beside [`ThreadRole`] which carries them, so that the
/// search does not import from [`crate::threads`] (which builds on the search).
#[repr(align(64))]
#[derive(Default)]
pub(crate) struct NodeCounter(pub(crate) AtomicU64);

/// What one searcher of a (possibly multi-threaded) search ended with.
pub(crate) struct ThreadOutcome {
    /// Its result, as [`search`] returns it.
    pub result: SearchResult,
    /// The deepest iteration it finished without being stopped (0 if none).
    pub completed_depth: i32,
    /// Nodes it searched.
    pub nodes: u64,
}

impl SearchState {
    /// Fresh tables.
    pub fn new() -> SearchState {
        let defaults = SearchParams::DEFAULT;
        SearchState {
            history: ButterflyHistory::new(),
            continuations: ContinuationHistory::new(),
            corrections: CorrectionHistory::new(),
            killers: Killers::new(),
            counters: CounterMoves::new(),
            lmr: lmr_table(defaults.lmr_base, defaults.lmr_divisor),
            lmr_params: (defaults.lmr_base, defaults.lmr_divisor),
            pawns: PawnCache::new(),
            nnue: None,
        }
    }

    /// Evaluates with `net` from now on, or with the classical evaluation (`None`). A searcher's table
    /// entries keep the static evaluations of the evaluation that stored them: clear the table when
    /// switching.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.nnue = net.map(|net| NnueState { net, stack: Box::new(AccumulatorStack::new()) });
    }

    /// The network this searcher evaluates with, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.nnue.as_ref().map(|n| &n.net)
    }

    /// Prepares the evaluation for a search from `pos`.
    fn prepare(&mut self, eval: &EvalParams, pos: &Position) {
        self.pawns.prepare(eval);
        if let Some(n) = &mut self.nnue {
            n.stack.reset(&n.net, pos);
        }
    }

    /// Makes the LMR table follow `sp` (rebuilt only when its parameters changed since the last
    /// search, so the move loop reads a table as before).
    fn follow_params(&mut self, sp: &SearchParams) {
        if self.lmr_params != (sp.lmr_base, sp.lmr_divisor) {
            self.lmr = lmr_table(sp.lmr_base, sp.lmr_divisor);
            self.lmr_params = (sp.lmr_base, sp.lmr_divisor);
        }
    }

    /// Forgets what was learned (for a new game).
    pub fn clear(&mut self) {
        self.history.clear();
        self.continuations.clear();
        self.corrections.clear();
        self.killers.clear();
        self.counters = CounterMoves::new();
    }
}

/// The late-move reduction for each depth and move number (both below 64):
/// `base / 100 + ln(depth) * ln(moves) / (divisor / 100)` plies, rounded down.
fn lmr_table(base: i32, divisor: i32) -> Box<[[i32; 64]; 64]> {
    let (base, divisor) = (f64::from(base) / 100.0, f64::from(divisor) / 100.0);
    let mut lmr = Box::new([[0; 64]; 64]);
    for (depth, row) in lmr.iter_mut().enumerate().skip(1) {
        for (moves, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (depth as f64).ln() * (moves as f64).ln() / divisor) as i32;
        }
    }
    lmr
}

impl Default for SearchState {
    fn default() -> SearchState {
        SearchState::new()
    }
}

struct Searcher<'a> {
    tt: &'a TranspositionTable,
    eval: &'a EvalParams,
    state: &'a mut SearchState,
    limits: &'a SearchLimits,
    stop: &'a AtomicBool,
    report: &'a mut dyn FnMut(&Report),
    start: Instant,
    nodes: u64,
    /// The other threads' nodes as last published (always 0 in a single-threaded search).
    others_nodes: u64,
    role: Option<ThreadRole<'a>>,
    completed_depth: i32,
    seldepth: i32,
    stopped: bool,
    /// Triangular PV table: `pv[ply]` is the line from `ply`.
    pv: Vec<Vec<Move>>,
    /// `stack[ply]`: what is known about each ply of the current line.
    stack: Vec<Frame>,
    /// The run-time settings (a copy of `limits.params`).
    sp: SearchParams,
    /// Best root move of the running iteration whose search completed (used if the iteration is cut).
    root_best: Option<(Move, Value)>,
    /// Nominal depth of the running iteration (for `currmove` reports).
    root_depth: i32,
    /// False while searching a second or later MultiPV line: its restricted root result must not
    /// replace the root's table entry.
    store_root: bool,
    /// The node count from which a root move looks at the clock again for `currmove` reports: until
    /// they begin, at most once every `TIME_CHECK_NODES` nodes (a data generator's 1,000-node search
    /// reads it once, not once per root move).
    currmove_clock_nodes: u64,
}

/// Searches `pos` within `limits`, reporting each finished line of each iteration (and, on long
/// searches, the root move being searched) to `report`. The position is restored before returning.
/// `stop` is polled every few hundred nodes; setting it ends the search within about a millisecond with
/// the best move found so far.
pub fn search(
    pos: &mut Position,
    limits: &SearchLimits,
    tt: &TranspositionTable,
    eval: &EvalParams,
    state: &mut SearchState,
    stop: &AtomicBool,
    mut report: impl FnMut(&Report),
) -> SearchResult {
    tt.new_search();
    search_thread(pos, limits, tt, eval, state, stop, &mut report, None).result
}

/// The quiescence score of `pos` with a full window: what the search sees at its horizon (captures
/// until the position is quiet, every evasion when in check), from the side to move's view. For data
/// filters: a position whose static evaluation is far from this is not quiet. `state` lends its pawn
/// cache; no table is used.
///
/// ```
/// use camelpy_core::{eval::{evaluate, EvalParams}, search::{quiescence, SearchState}, Position};
/// let mut state = SearchState::new();
/// let mut quiet = Position::startpos();
/// let q = quiescence(&mut quiet, &EvalParams::DEFAULT, &mut state);
/// assert_eq!(q, evaluate(&quiet, &EvalParams::DEFAULT));
/// // A queen en prise: taking it is worth far more than standing pat.
/// let mut hanging = Position::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", false)?;
/// assert!(quiescence(&mut hanging, &EvalParams::DEFAULT, &mut state) > evaluate(&hanging, &EvalParams::DEFAULT) + 500);
/// # Ok::<(), camelpy_core::FenError>(())
/// ```
pub fn quiescence(pos: &mut Position, eval: &EvalParams, state: &mut SearchState) -> Value {
    state.prepare(eval, pos);
    // The searcher needs a table to exist; quiescence never probes or stores it. One bucket.
    let tt = TranspositionTable::new(0).expect("a one-bucket table");
    let limits = SearchLimits::default();
    let stop = AtomicBool::new(false);
    let mut report = |_: &Report| {};
    let mut searcher = Searcher {
        tt: &tt,
        eval,
        state,
        limits: &limits,
        stop: &stop,
        report: &mut report,
        start: Instant::now(),
        nodes: 0,
        others_nodes: 0,
        role: None,
        completed_depth: 0,
        seldepth: 0,
        stopped: false,
        pv: Vec::new(),
        stack: vec![EMPTY_FRAME; MAX_PLY as usize + 2],
        sp: limits.params,
        root_best: None,
        root_depth: 0,
        store_root: false,
        currmove_clock_nodes: 0,
    };
    searcher.qsearch(pos, 0, -VALUE_INFINITE, VALUE_INFINITE)
}

/// One searcher: the whole of a single-threaded search (`role` `None`), or one thread of a LazySMP
/// search. Does not start a new table generation (the caller does, once per search).
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_thread<'a>(
    pos: &mut Position,
    limits: &'a SearchLimits,
    tt: &'a TranspositionTable,
    eval: &'a EvalParams,
    state: &'a mut SearchState,
    stop: &'a AtomicBool,
    report: &'a mut dyn FnMut(&Report),
    role: Option<ThreadRole<'a>>,
) -> ThreadOutcome {
    state.prepare(eval, pos);
    state.follow_params(&limits.params);
    let mut searcher = Searcher {
        tt,
        eval,
        state,
        limits,
        stop,
        report,
        start: Instant::now(),
        nodes: 0,
        others_nodes: 0,
        role,
        completed_depth: 0,
        seldepth: 0,
        stopped: false,
        pv: vec![Vec::new(); MAX_PLY as usize + 2],
        stack: vec![EMPTY_FRAME; MAX_PLY as usize + 2],
        sp: limits.params,
        root_best: None,
        root_depth: 0,
        store_root: true,
        currmove_clock_nodes: 0,
    };
    let result = searcher.iterative_deepening(pos);
    if let Some(n) = &searcher.state.nnue {
        // Every play was undone: the accumulators are back at the root (checked in every build, once
        // per search; the tests' searches with a network rely on it).
        assert_eq!(n.stack.depth(), 0, "accumulator pushes and pops out of balance");
    }
    if let Some(role) = searcher.role {
        role.nodes[role.index].0.store(searcher.nodes, Ordering::Relaxed);
    }
    ThreadOutcome { result, completed_depth: searcher.completed_depth, nodes: searcher.nodes }
}

/// A table's value at `ply` from the root as a search score: mates counted from the root; beyond
/// the mate range (`MAX_PLY`), a score just short of it, still above any evaluation.
fn tablebase_value(v: crate::tablebase::TbValue, ply: i32) -> Value {
    use crate::tablebase::TbValue;
    match v {
        TbValue::Win(p) if ply + i32::from(p) < MAX_PLY => mate_in(ply + i32::from(p)),
        TbValue::Win(_) => VALUE_MATE_IN_MAX_PLY - 1,
        TbValue::Loss(p) if ply + i32::from(p) < MAX_PLY => mated_in(ply + i32::from(p)),
        TbValue::Loss(_) => -(VALUE_MATE_IN_MAX_PLY - 1),
        TbValue::Draw => VALUE_DRAW,
    }
}

/// With tables for the root position (and one line wanted): only the moves that keep its value,
/// the quickest mate when winning, a draw when drawn, the longest resistance when losing, so the
/// engine never lets a won ending slip and mates in the fewest moves.
fn tablebase_root_moves(pos: &mut Position, moves: Vec<Move>, limits: &SearchLimits) -> Vec<Move> {
    let Some(tb) = &limits.tablebases else { return moves };
    if limits.multipv > 1 || pos.occupied().len() as usize > tb.max_pieces() || tb.probe(pos).is_none() {
        return moves;
    }
    let mut valued = Vec::with_capacity(moves.len());
    for &mv in &moves {
        pos.play_unchecked(mv);
        let v = tb.probe(pos);
        pos.undo_move();
        match v {
            Some(v) => valued.push((mv, v.before_move().rank())),
            None => return moves,
        }
    }
    let best = valued.iter().map(|&(_, r)| r).max().unwrap_or(0);
    valued.into_iter().filter(|&(_, r)| r == best).map(|(m, _)| m).collect()
}

impl Searcher<'_> {
    /// The iteration loop: one aspiration search per MultiPV line per depth, until a limit says stop.
    fn iterative_deepening(&mut self, pos: &mut Position) -> SearchResult {
        let limits = self.limits;
        let root_moves: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .collect();
        let root_moves = tablebase_root_moves(pos, root_moves, limits);
        let empty = IterationInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: Score::from_value(if pos.is_check() { mated_in(0) } else { VALUE_DRAW }),
            bound: Bound::Exact,
            nodes: 0,
            time_ms: 0,
            hashfull: 0,
            pv: Vec::new(),
        };
        if root_moves.is_empty() {
            return SearchResult { best_move: None, ponder: None, info: empty.clone(), lines: vec![empty] };
        }
        let multipv = limits.multipv.clamp(1, root_moves.len());

        // A legal move to fall back on if even depth 1 is cut short.
        let fallback = IterationInfo { pv: vec![root_moves[0]], ..empty };
        let mut lines: Vec<IterationInfo> = vec![fallback];
        let mut scores: Vec<Value> = vec![0; multipv];
        let max_depth = limits.depth.unwrap_or(MAX_PLY - 1).clamp(1, MAX_PLY - 1);
        // LazySMP: odd-numbered helpers run one ply ahead, so the threads do not all search the same
        // tree in step (their writes to the shared table then help the others).
        let first_depth = (1 + self.role.map_or(0, |r| (r.index % 2) as i32)).min(max_depth);
        'deepening: for depth in first_depth..=max_depth {
            self.root_depth = depth;
            let mut new_lines: Vec<IterationInfo> = Vec::with_capacity(multipv);
            for (pv_index, last_score) in scores.iter_mut().enumerate() {
                // Step 1. MultiPV: the k-th line is the best move once the first k - 1 are set aside.
                let candidates: Vec<Move> = if pv_index == 0 {
                    root_moves.clone()
                } else {
                    let taken: Vec<Move> = new_lines.iter().map(|l| l.pv[0]).collect();
                    root_moves.iter().copied().filter(|m| !taken.contains(m)).collect()
                };
                self.store_root = pv_index == 0;
                let Some((line, value)) = self.aspiration(pos, &candidates, depth, *last_score) else {
                    break 'deepening;
                };
                *last_score = value;
                let info = IterationInfo {
                    depth,
                    seldepth: self.seldepth,
                    multipv: pv_index + 1,
                    score: Score::from_value(value),
                    bound: Bound::Exact,
                    nodes: self.nodes + self.others_nodes,
                    time_ms: self.start.elapsed().as_millis() as u64,
                    hashfull: self.tt.hashfull(),
                    pv: line,
                };
                new_lines.push(info);
                if self.stopped {
                    break;
                }
            }

            // Step 3. Keep the iteration's lines, best first (a restricted search can outscore an earlier
            // line by search instability), and report them in that order, as Stockfish does, so that the
            // last report of each `multipv` number is that line of the deepest iteration; a cut-short
            // iteration reports what it finished and keeps the previous depth's lines for the moves it
            // did not reach, after its own.
            if !self.stopped {
                new_lines.sort_by_key(|line| std::cmp::Reverse(line.score));
                for (i, line) in new_lines.iter_mut().enumerate() {
                    line.multipv = i + 1;
                }
            }
            for line in &new_lines {
                (self.report)(&Report::Iteration(line));
            }
            for old in lines.drain(..) {
                if new_lines.len() < multipv && new_lines.iter().all(|l| l.pv[0] != old.pv[0]) {
                    new_lines.push(IterationInfo { multipv: new_lines.len() + 1, ..old });
                }
            }
            lines = new_lines;

            // Step 4. Stop when a limit says so.
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if let (Some(mate), Score::Mate(m)) = (limits.mate, lines[0].score) {
                if m > 0 && m <= mate {
                    break;
                }
            }
            if limits.soft_deadline.is_some_and(|t| Instant::now() >= t) {
                break;
            }
        }
        let best = &lines[0];
        SearchResult {
            best_move: Some(best.pv[0]),
            ponder: best.pv.get(1).copied(),
            info: best.clone(),
            lines,
        }
    }

    /// Step 2. One line of one iteration: an aspiration window around the last score, widened on each
    /// failure. Returns the line and its value, or, if the search was cut short, its best fully searched
    /// root move (the first one searched is the previous best, so that is never worse); `None` if not even
    /// that one finished.
    fn aspiration(
        &mut self,
        pos: &mut Position,
        candidates: &[Move],
        depth: i32,
        last: Value,
    ) -> Option<(Vec<Move>, Value)> {
        let mut delta = self.sp.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= self.sp.aspiration_min_depth && !is_mate(last) {
            ((last - delta).max(-VALUE_INFINITE), (last + delta).min(VALUE_INFINITE))
        } else {
            (-VALUE_INFINITE, VALUE_INFINITE)
        };
        self.root_best = None;
        let value = loop {
            self.seldepth = 0;
            let v = self.negamax(pos, candidates, depth, 0, alpha, beta, false);
            if self.stopped {
                break v;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-VALUE_INFINITE);
            } else if v >= beta {
                beta = (v + delta).min(VALUE_INFINITE);
            } else {
                break v;
            }
            delta += delta / 2;
        };
        let (line, value) = if !self.stopped {
            (self.pv[0].clone(), value)
        } else {
            let (mv, v) = self.root_best?;
            let line = if self.pv[0].first() == Some(&mv) { self.pv[0].clone() } else { vec![mv] };
            (line, v)
        };
        (!line.is_empty()).then_some((line, value))
    }
}

impl Searcher<'_> {
    /// True if the search must stop now (stop flag, node limit, hard deadline). Polled every
    /// `TIME_CHECK_NODES` nodes.
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes.is_multiple_of(TIME_CHECK_NODES) {
            self.stopped = self.stop.load(Ordering::Relaxed)
                || self.limits.hard_deadline.is_some_and(|t| Instant::now() >= t);
            if let Some(role) = self.role {
                self.publish_nodes(role);
            }
        }
        if self.limits.nodes.is_some_and(|n| self.nodes + self.others_nodes >= n) {
            self.stopped = true;
        }
        self.stopped
    }

    /// LazySMP: makes this thread's node count visible to the others and collects theirs, for the
    /// shared node limit and the main thread's reports.
    #[cold]
    fn publish_nodes(&mut self, role: ThreadRole<'_>) {
        role.nodes[role.index].0.store(self.nodes, Ordering::Relaxed);
        let all: u64 = role.nodes.iter().map(|n| n.0.load(Ordering::Relaxed)).sum();
        self.others_nodes = all - self.nodes;
    }

    /// A draw by rule at a non-root node: fifty moves, repetition (once, in the game or the search
    /// path, since the reversible moves began), or insufficient material.
    fn is_draw(&self, pos: &Position) -> bool {
        pos.halfmove_clock() >= 100 || pos.is_repetition() || pos.is_insufficient_material()
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &mut Position,
        root_moves: &[Move],
        mut depth: i32,
        ply: i32,
        mut alpha: Value,
        mut beta: Value,
        cut_null: bool,
    ) -> Value {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv[ply as usize].clear();

        // Step 1. Quiescence at the horizon.
        if depth <= 0 {
            return self.qsearch(pos, ply, alpha, beta);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() {
            return 0;
        }

        // Step 2. Draws and mate-distance pruning (https://www.chessprogramming.org/Mate_Distance_Pruning).
        if !root {
            if self.is_draw(pos) {
                return VALUE_DRAW;
            }
            if ply >= MAX_PLY - 1 {
                return if pos.is_check() { VALUE_DRAW } else { self.evaluate(pos) };
            }
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 3. Transposition table: a cutoff at non-PV nodes, the move as an ordering hint everywhere.
        let key = pos.key();
        let tt_hit = self.tt.probe(key, ply);
        let tt_move = tt_hit.and_then(|t| t.mv);
        if let Some(t) = tt_hit {
            if !pv_node && t.depth >= depth && settles(&t, alpha, beta) {
                return t.value;
            }
        }

        // Step 3b. Endgame tables: the exact value, as a mate score counted from the root.
        if !root {
            if let Some(tb) = &self.limits.tablebases {
                if pos.occupied().len() as usize <= tb.max_pieces() {
                    if let Some(v) = tb.probe(pos) {
                        return tablebase_value(v, ply);
                    }
                }
            }
        }

        // Step 4. Static evaluation (the table keeps the raw one; the search works with the corrected).
        let in_check = pos.is_check();
        let raw_eval = if in_check { VALUE_NONE } else { self.raw_eval(pos, tt_hit) };
        let static_eval = if in_check { VALUE_NONE } else { self.corrected(pos, raw_eval) };
        self.stack[ply as usize] = Frame { static_eval, moved: None };
        // Improving: the static eval rose since our previous move (two plies back, else four).
        let improving = self.sp.improving != 0 && !in_check && {
            let earlier = [2, 4]
                .into_iter()
                .filter(|&back| ply >= back)
                .map(|back| self.stack[(ply - back) as usize].static_eval)
                .find(|&e| e != VALUE_NONE);
            earlier.is_none_or(|e| static_eval > e)
        };
        let not_improving = self.sp.improving != 0 && !improving;

        if !pv_node && !in_check {
            // Step 5. Reverse futility pruning: far above beta, assume a fail high.
            let rfp_depth = depth - i32::from(improving);
            if depth <= self.sp.rfp_max_depth
                && static_eval - self.sp.rfp_margin * rfp_depth >= beta
                && !is_mate(beta)
            {
                return static_eval;
            }

            // Step 6. Null-move pruning, not after a null move and not in pawn endings (zugzwang), nor,
            // with `nmp_two_pieces`, for a side with a lone piece (that it must move is zugzwang too).
            let non_pawn =
                pos.colored(pos.side_to_move()) & !pos.pieces(PieceType::Pawn) & !pos.pieces(PieceType::King);
            if !cut_null
                && depth >= self.sp.nmp_min_depth
                && static_eval >= beta
                && non_pawn.len() as i32 > self.sp.nmp_two_pieces
                && !is_mate(beta)
            {
                let reduction = self.sp.nmp_base_reduction + depth / self.sp.nmp_depth_divisor;
                self.stack[ply as usize].moved = None;
                self.tt.prefetch(pos.key_after_null());
                self.play_null(pos);
                let v =
                    -self.negamax(pos, root_moves, depth - 1 - reduction, ply + 1, -beta, -beta + 1, true);
                self.undo(pos);
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if is_mate(v) { beta } else { v };
                    if depth < self.sp.nmp_verify_depth {
                        return v;
                    }
                    // Verification search without null moves at high depth.
                    let verified =
                        self.negamax(pos, root_moves, depth - reduction, ply, beta - 1, beta, true);
                    if verified >= beta {
                        return v;
                    }
                }
            }
        }

        // Step 7. Internal iterative reduction: no TT move, so ordering is poor; search shallower.
        if tt_move.is_none() && depth >= self.sp.iir_min_depth {
            depth -= 1;
        }

        // Step 8. The move loop.
        let us = pos.side_to_move();
        let counter = pos
            .last_move()
            .and_then(|prev| {
                pos.piece_on(prev.king_destination())
                    .map(|p| self.state.counters.get(p, prev.king_destination()))
            })
            .flatten();
        let mut picker = MovePicker::new(pos, tt_move, self.state.killers.get(ply as usize), counter, false);
        let mut best_value = -VALUE_INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_tried = MoveList::new();
        let original_alpha = alpha;
        // What the moves need to give check, found at the first pruned quiet move that asks.
        let mut checks = None;

        let rows = self.continuation_keys(ply);
        while let Some(mv) = self.next_quiet_aware(&mut picker, pos, rows) {
            if root {
                if !root_moves.contains(&mv) {
                    continue;
                }
                if self.nodes >= self.currmove_clock_nodes {
                    let elapsed = self.start.elapsed().as_millis() as u64;
                    if elapsed >= CURRMOVE_DELAY_MS {
                        (self.report)(&Report::CurrMove {
                            depth: self.root_depth,
                            mv,
                            number: searched + 1,
                            nodes: self.nodes + self.others_nodes,
                            time_ms: elapsed,
                        });
                    } else {
                        self.currmove_clock_nodes = self.nodes + TIME_CHECK_NODES;
                    }
                }
            }
            let capture = is_capture(pos, mv);
            let quiet = !capture && mv.promotion().is_none();

            // Step 9. Pruning of late, hopeless moves once a non-losing line is known. Late-move and
            // futility pruning spare moves that give check.
            if !root && best_value > -VALUE_MATE_IN_MAX_PLY && !in_check {
                if quiet {
                    let lmp_count = (self.sp.lmp_base + depth * depth) >> i32::from(not_improving);
                    let late = depth <= self.sp.lmp_max_depth && quiets_tried.len() as i32 >= lmp_count;
                    let futile = depth <= self.sp.futility_max_depth
                        && static_eval + self.sp.futility_base + self.sp.futility_per_depth * depth <= alpha;
                    if (late || futile)
                        && !pos.gives_check_with(mv, checks.get_or_insert_with(|| pos.check_squares()))
                    {
                        continue;
                    }
                }
                // A move of the picker's good-captures stage has passed SEE >= 0 there, so it passes this
                // threshold (at most zero: the margins' ranges are positive) without a second exchange.
                if depth <= self.sp.see_prune_max_depth && picker.stage() != Stage::GoodCaptures {
                    let margin = if quiet { self.sp.see_quiet_margin } else { self.sp.see_capture_margin };
                    if !pos.see_ge(mv, -margin * depth) {
                        continue;
                    }
                }
            }

            self.tt.prefetch(pos.key_after(mv));
            let moved = if self.sp.cont_hist != 0 {
                pos.piece_on(mv.from()).map(|piece| (piece, mv.king_destination()))
            } else {
                None
            };
            let history_score =
                if quiet && self.sp.lmr_history_divisor != 0 { self.quiet_score(pos, mv, rows) } else { 0 };
            self.play(pos, mv);
            self.stack[ply as usize].moved = moved;
            searched += 1;
            // Step 10. Check extension.
            let extension = i32::from(pos.is_check());
            let new_depth = depth - 1 + extension;

            // Step 11. Late-move reductions, then PVS re-searches.
            let value = if searched == 1 {
                -self.negamax(pos, root_moves, new_depth, ply + 1, -beta, -alpha, false)
            } else {
                let mut reduction = 0;
                if depth >= self.sp.lmr_min_depth
                    && searched > self.sp.lmr_min_moves as usize
                    && quiet
                    && !in_check
                {
                    reduction = self.state.lmr[depth.min(63) as usize][searched.min(63)];
                    reduction -= i32::from(pv_node) + extension;
                    reduction += i32::from(not_improving);
                    if self.sp.lmr_history_divisor != 0 {
                        reduction -= history_score / self.sp.lmr_history_divisor;
                    }
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                let mut v =
                    -self.negamax(pos, root_moves, new_depth - reduction, ply + 1, -alpha - 1, -alpha, false);
                if v > alpha && reduction > 0 {
                    v = -self.negamax(pos, root_moves, new_depth, ply + 1, -alpha - 1, -alpha, false);
                }
                if v > alpha && v < beta {
                    v = -self.negamax(pos, root_moves, new_depth, ply + 1, -beta, -alpha, false);
                }
                v
            };
            self.undo(pos);
            if self.stopped {
                return 0;
            }
            if quiet {
                quiets_tried.push(mv);
            }

            // Step 12. New best move.
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = Some(mv);
                    alpha = value;
                    let (head, tail) = self.pv.split_at_mut(ply as usize + 1);
                    let line = &mut head[ply as usize];
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&tail[0]);
                    if root {
                        self.root_best = Some((mv, value));
                    }
                    if value >= beta {
                        // Step 13. A cutoff: reward the quiet move, punish the quiets tried before it.
                        if quiet {
                            let bonus = (depth * depth * 16).min(self.sp.history_bonus_max);
                            self.state.killers.add(ply as usize, mv);
                            for &q in &quiets_tried[..quiets_tried.len() - 1] {
                                self.state.history.update(us, q, -bonus);
                                self.update_continuations(pos, q, rows, -bonus);
                            }
                            self.state.history.update(us, mv, bonus);
                            self.update_continuations(pos, mv, rows, bonus);
                            if let Some(prev) = pos.last_move() {
                                if let Some(p) = pos.piece_on(prev.king_destination()) {
                                    self.state.counters.set(p, prev.king_destination(), mv);
                                }
                            }
                        }
                        break;
                    }
                }
            } else if root && searched == 1 {
                // The first root move failed low: it is still the move we know best.
                self.root_best = Some((mv, value));
            }
        }

        // Step 14. No legal move: mate or stalemate. (Pruning needs a searched move first, and the root
        // always has one, so `searched == 0` means there is none.)
        if searched == 0 {
            return if in_check { mated_in(ply) } else { VALUE_DRAW };
        }

        // Step 15. Remember the result.
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_move.is_some() && alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !root || self.store_root {
            self.tt.store(
                key,
                ply,
                TTData { mv: best_move.or(tt_move), value: best_value, eval: raw_eval, depth, bound },
            );
        }

        // Step 16. Learn the evaluation's error here, where the result bounds it on the right side and
        // the best move is quiet (a capture's gain is not an evaluation error).
        if self.sp.corr_hist != 0
            && !in_check
            && !is_mate(best_value)
            && best_move.is_none_or(|m| !is_capture(pos, m) && m.promotion().is_none())
            && !(bound == Bound::Lower && best_value <= static_eval)
            && !(bound == Bound::Upper && best_value >= static_eval)
        {
            self.state.corrections.update(us, pawns_of(pos), best_value - raw_eval, depth);
        }
        best_value
    }

    /// The static evaluation of `pos`: the network's when there is one, else the classical one.
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> Value {
        match &mut self.state.nnue {
            Some(n) => {
                let v = n.stack.evaluate(&n.net, pos);
                // Tests (debug assertions) check every incremental evaluation against a full refresh.
                debug_assert_eq!(v, n.net.evaluate(pos), "{}", pos.fen());
                v
            }
            None => evaluate_cached(pos, self.eval, &mut self.state.pawns),
        }
    }

    /// Plays `mv`, telling the network's accumulators.
    #[inline]
    fn play(&mut self, pos: &mut Position, mv: Move) {
        if let Some(n) = &mut self.state.nnue {
            n.stack.push(pos, mv);
        }
        pos.play_unchecked(mv);
    }

    /// Plays a null move, telling the network's accumulators.
    #[inline]
    fn play_null(&mut self, pos: &mut Position) {
        if let Some(n) = &mut self.state.nnue {
            n.stack.push_null();
        }
        pos.play_null();
    }

    /// Takes back [`Searcher::play`] or [`Searcher::play_null`].
    #[inline]
    fn undo(&mut self, pos: &mut Position) {
        if let Some(n) = &mut self.state.nnue {
            n.stack.pop();
        }
        pos.undo_move();
    }

    /// The static evaluation, from the table entry where it has one.
    #[inline]
    fn raw_eval(&mut self, pos: &Position, tt_hit: Option<TTData>) -> Value {
        tt_hit.map(|t| t.eval).filter(|&e| e != VALUE_NONE).unwrap_or_else(|| self.evaluate(pos))
    }

    /// `raw` corrected by the correction history (unchanged when it is off), kept off mate scores.
    #[inline]
    fn corrected(&self, pos: &Position, raw: Value) -> Value {
        if self.sp.corr_hist == 0 {
            return raw;
        }
        let learned = self.state.corrections.get(pos.side_to_move(), pawns_of(pos));
        let correction =
            (learned as i64 * self.sp.corr_hist as i64 / (256 * CORRECTION_GRAIN as i64)) as Value;
        (raw + correction).clamp(-VALUE_MATE_IN_MAX_PLY + 1, VALUE_MATE_IN_MAX_PLY - 1)
    }

    /// The moves one and two plies back (piece, destination), whose continuation rows order the quiet
    /// moves at `ply`; none when continuation history is off.
    #[inline]
    fn continuation_keys(&self, ply: i32) -> [Option<(Piece, Square)>; 2] {
        if self.sp.cont_hist == 0 {
            return [None, None];
        }
        let back = |n: i32| if ply >= n { self.stack[(ply - n) as usize].moved } else { None };
        [back(1), back(2)]
    }

    /// The picker's next move, quiet moves ordered with the continuation rows when there are any (one
    /// scorer type, so the picker is compiled into the move loop once).
    #[inline]
    fn next_quiet_aware(
        &self,
        picker: &mut MovePicker,
        pos: &Position,
        keys: [Option<(Piece, Square)>; 2],
    ) -> Option<Move> {
        let rows = keys.map(|k| k.map(|(p, sq)| self.state.continuations.row(p, sq)));
        picker.next_move(pos, &WithContinuations { butterfly: &self.state.history, rows })
    }

    /// The ordering score of a quiet move (butterfly plus continuation rows).
    #[inline]
    fn quiet_score(&self, pos: &Position, mv: Move, keys: [Option<(Piece, Square)>; 2]) -> i32 {
        use movepick::QuietScore;
        let rows = keys.map(|k| k.map(|(p, sq)| self.state.continuations.row(p, sq)));
        WithContinuations { butterfly: &self.state.history, rows }.score(pos, mv)
    }

    /// Rewards (or, with a negative `bonus`, punishes) the quiet move `mv` in the continuation rows.
    #[inline]
    fn update_continuations(
        &mut self,
        pos: &Position,
        mv: Move,
        keys: [Option<(Piece, Square)>; 2],
        bonus: i32,
    ) {
        let Some(piece) = pos.piece_on(mv.from()) else { return };
        for earlier in keys.into_iter().flatten() {
            self.state.continuations.update(earlier, piece, mv.king_destination(), bonus);
        }
    }

    /// Quiescence: captures (and all evasions when in check) until the position is quiet, with stand pat,
    /// SEE pruning of losing captures and delta pruning.
    fn qsearch(&mut self, pos: &mut Position, ply: i32, mut alpha: Value, beta: Value) -> Value {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.should_stop() {
            return 0;
        }
        if pos.halfmove_clock() >= 100 || pos.is_insufficient_material() {
            return VALUE_DRAW;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { VALUE_DRAW } else { self.evaluate(pos) };
        }

        // Step 1. The table (when quiescence uses it): a bound that settles the node, a move to try first,
        // a stored evaluation.
        let key = pos.key();
        let tt_hit = if self.sp.qs_tt_probe != 0 { self.tt.probe(key, ply) } else { None };
        if let Some(t) = tt_hit {
            let pv_node = beta - alpha > 1;
            if !pv_node && settles(&t, alpha, beta) {
                return t.value;
            }
        }

        // Step 2. Stand pat: the side to move may decline every capture.
        let raw_eval = if in_check { VALUE_NONE } else { self.raw_eval(pos, tt_hit) };
        let stand_pat = if in_check { -VALUE_MATE } else { self.corrected(pos, raw_eval) };
        let store = self.sp.qs_tt_store != 0;
        if stand_pat >= beta {
            if store && !in_check {
                let data =
                    TTData { mv: None, value: stand_pat, eval: raw_eval, depth: 0, bound: Bound::Lower };
                self.tt.store(key, ply, data);
            }
            return stand_pat;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut best_move = None;

        // Step 3. Captures (or every evasion in check), best first.
        let tt_move = tt_hit.and_then(|t| t.mv);
        let mut picker = MovePicker::new(pos, tt_move, [None, None], None, !in_check);
        let mut any = false;
        while let Some(mv) = picker.next_move(pos, &self.state.history) {
            any = true;
            if !in_check {
                // Step 4. Losing captures and captures that cannot reach alpha are skipped. The picker has
                // already run the exchange evaluation on what it sorted: it defers exactly the losing
                // captures (SEE < 0) and the under-promotions to its last stage. A TT move, returned
                // before any sorting, would need its own.
                let losing = match picker.stage() {
                    Stage::GoodCaptures => false,
                    Stage::BadCaptures => mv.promotion().is_none(),
                    _ => !pos.see_ge(mv, 0),
                };
                if losing {
                    continue;
                }
                let victim = match mv.kind() {
                    MoveKind::EnPassant => SEE_VALUES[PieceType::Pawn as usize],
                    _ => pos.piece_on(mv.to()).map_or(0, |p| SEE_VALUES[p.piece_type() as usize]),
                };
                if mv.promotion().is_none() && stand_pat + victim + self.sp.delta_margin <= alpha {
                    continue;
                }
            }
            self.play(pos, mv);
            let value = -self.qsearch(pos, ply + 1, -beta, -alpha);
            self.undo(pos);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    best_move = Some(mv);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && !any {
            return mated_in(ply);
        }
        if store {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(key, ply, TTData { mv: best_move, value: best, eval: raw_eval, depth: 0, bound });
        }
        best
    }
}

/// True if the table entry's value settles a node searched with the window `(alpha, beta)`: exact, or a
/// bound on the side that makes the window irrelevant (depth is the caller's concern).
#[inline]
fn settles(t: &TTData, alpha: Value, beta: Value) -> bool {
    t.value != VALUE_NONE
        && match t.bound {
            Bound::Exact => true,
            Bound::Lower => t.value >= beta,
            Bound::Upper => t.value <= alpha,
            Bound::None => false,
        }
}

/// The hash of both sides' pawns (the correction history's index).
#[inline]
fn pawns_of(pos: &Position) -> u64 {
    let pawns = pos.pieces(PieceType::Pawn);
    pawn_hash((pawns & pos.colored(Color::White)).0, (pawns & pos.colored(Color::Black)).0)
}

/// A capture (en passant included), not castling.
fn is_capture(pos: &Position, mv: Move) -> bool {
    mv.kind() == MoveKind::EnPassant
        || (!mv.is_castling() && pos.colored(pos.side_to_move().flip()).has(mv.to()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The LMR table in hundredths is the table of the float constants it replaced (0.75, 2.25), and a
    /// searcher's table follows its parameters, back and forth.
    #[test]
    fn lmr_table_follows_the_params() {
        let table = lmr_table(75, 225);
        for depth in 1..64 {
            for moves in 1..64 {
                let old = (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as i32;
                assert_eq!(table[depth][moves], old, "depth {depth} moves {moves}");
            }
        }
        assert_eq!((table[0][10], table[10][0], table[1][1]), (0, 0, 0));
        let mut state = SearchState::new();
        assert_eq!(state.lmr, table);
        let mut sp = SearchParams::DEFAULT;
        sp.set("lmr_base", 150).unwrap();
        sp.set("lmr_divisor", 110).unwrap();
        state.follow_params(&sp);
        assert_eq!(state.lmr, lmr_table(150, 110));
        assert!(state.lmr[20][20] > table[20][20]);
        state.follow_params(&SearchParams::DEFAULT);
        assert_eq!(state.lmr, table);
    }
}
