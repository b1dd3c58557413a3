//! The course's baseline players, as our own: what a student's player is graded against. Each is a
//! plain textbook algorithm, deliberately without the engine's search (no table, no quiescence, no
//! pruning beyond what its name says), so that it plays as the baseline it stands for.
//!
//! | baseline | search | evaluation |
//! |---|---|---|
//! | `random` (Python: `camelpy.protocols.minichess.random_move`) | none: a legal move at random | none |
//! | [`Baseline::WeakMinimax`] | minimax, 2 plies, every move | the 50-ply material count only |
//! | [`Baseline::StrongMinimax`] | minimax, up to 4 plies (deepening while time lasts), no pruning | the engine's evaluation ([`crate::eval`]) |
//! | [`Baseline::AlphaBeta`] | alpha-beta, iterative deepening to the time limit, captures first | the engine's evaluation |
//!
//! All three score a captured king or the 50-ply count as a win or loss (sooner wins better) and a side
//! with no move as lost, and break ties between equally good moves at random: the root moves are
//! shuffled by a seed (a function of the seed and the position, so a seeded game replays exactly).
//!
//! ```
//! use std::time::Duration;
//! use camelpy_minichess::{baselines::{baseline_move, Baseline}, Board};
//!
//! // Every baseline but random takes a king that hangs.
//! let board = Board::from_text("k4/5/5/5/5/Q3K w 7").unwrap();
//! for kind in Baseline::ALL {
//!     let mv = baseline_move(&board, kind, Duration::from_secs(1), 7).unwrap();
//!     assert_eq!(mv.to_string(), "5 0 0 0");
//! }
//! ```

use std::time::{Duration, Instant};

use camelpy_core::hash::SplitMix64;

use crate::{
    board::Board,
    eval::{evaluate, Weights},
    types::{Color, Move},
};

/// A baseline player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Baseline {
    /// Minimax to [`WEAK_DEPTH`] plies on the material count.
    WeakMinimax,
    /// Minimax to at most [`STRONG_MINIMAX_DEPTH`] plies on the engine's evaluation, no pruning.
    StrongMinimax,
    /// Alpha-beta with iterative deepening to the time limit on the engine's evaluation.
    AlphaBeta,
}

impl Baseline {
    /// Every baseline of this module, weakest first.
    pub const ALL: [Baseline; 3] = [Baseline::WeakMinimax, Baseline::StrongMinimax, Baseline::AlphaBeta];

    /// The name on the command line: `weak-minimax`, `strong-minimax`, `alpha-beta`.
    pub const fn name(self) -> &'static str {
        match self {
            Baseline::WeakMinimax => "weak-minimax",
            Baseline::StrongMinimax => "strong-minimax",
            Baseline::AlphaBeta => "alpha-beta",
        }
    }

    /// The baseline with this name.
    pub fn from_name(name: &str) -> Option<Baseline> {
        Baseline::ALL.into_iter().find(|b| b.name() == name)
    }
}

/// The weak minimax's depth: its own move and the reply.
pub const WEAK_DEPTH: u32 = 2;
/// The strong minimax's deepest iteration (about a second on the start position without pruning).
pub const STRONG_MINIMAX_DEPTH: u32 = 4;
/// Deepest iteration of the alpha-beta baseline (it stops on time long before, except in endings).
const ALPHA_BETA_MAX_DEPTH: u32 = 50;
/// A won game's score (minus the plies it takes): above any evaluation.
const WIN: i32 = 1_000_000;
/// No new iteration after this fraction of the time (it would rarely finish).
const SOFT_TIME_FRACTION: f64 = 0.5;
/// Nodes between looks at the clock.
const CHECK_EVERY: u64 = 1024;

/// The baseline's move on `board` within `time` (`None` when the game is over); `seed` breaks ties.
pub fn baseline_move(board: &Board, kind: Baseline, time: Duration, seed: u64) -> Option<Move> {
    baseline_move_with(board, kind, time, seed, |_, _| {})
}

/// [`baseline_move`], calling `on_iteration(best, depth)` after every finished iteration, so that a
/// file-protocol player can write its move as soon as it has one (as the course's players do).
pub fn baseline_move_with(
    board: &Board,
    kind: Baseline,
    time: Duration,
    seed: u64,
    mut on_iteration: impl FnMut(Move, u32),
) -> Option<Move> {
    let mut root: Vec<Move> = board.legal_moves().to_vec();
    if root.is_empty() {
        return None;
    }
    shuffle(&mut root, seed ^ board.key() ^ u64::from(board.ply()));
    let mut search = Search {
        board: board.clone(),
        weights: Weights::default(),
        material_only: kind == Baseline::WeakMinimax,
        prune: kind == Baseline::AlphaBeta,
        deadline: Instant::now() + time,
        nodes: 0,
        out_of_time: false,
    };
    let max_depth = match kind {
        Baseline::WeakMinimax => WEAK_DEPTH,
        Baseline::StrongMinimax => STRONG_MINIMAX_DEPTH,
        Baseline::AlphaBeta => ALPHA_BETA_MAX_DEPTH,
    };
    let start = Instant::now();
    let mut best = root[0];
    for depth in 1..=max_depth {
        let Some((mv, value)) = search.root(&root, depth) else { break };
        best = mv;
        on_iteration(mv, depth);
        // Searched moves first next time (the best one leads), the rest in their shuffled order.
        if let Some(i) = root.iter().position(|&m| m == mv) {
            root[..=i].rotate_right(1);
        }
        if value.abs() >= WIN - 100 || start.elapsed().as_secs_f64() > time.as_secs_f64() * SOFT_TIME_FRACTION
        {
            break;
        }
    }
    Some(best)
}

/// Fisher–Yates with the core's SplitMix64 stream.
fn shuffle(moves: &mut [Move], seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for i in (1..moves.len()).rev() {
        moves.swap(i, rng.below(i + 1));
    }
}

struct Search {
    board: Board,
    weights: Weights,
    material_only: bool,
    prune: bool,
    deadline: Instant,
    nodes: u64,
    out_of_time: bool,
}

impl Search {
    /// The best root move and its value at `depth`, or `None` if time ran out (depth 1 always ends).
    fn root(&mut self, moves: &[Move], depth: u32) -> Option<(Move, i32)> {
        let mut best = (moves[0], -WIN - 1);
        for &mv in moves {
            self.board.play_unchecked(mv);
            let v = -self.negamax(depth - 1, 1, -WIN - 1, -best.1.max(-WIN));
            self.board.undo();
            if self.out_of_time && depth > 1 {
                return None;
            }
            if v > best.1 {
                best = (mv, v);
            }
        }
        Some(best)
    }

    fn negamax(&mut self, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        if let Some(outcome) = self.board.decided() {
            return match outcome.winner {
                None => 0,
                Some(w) if w == self.board.side_to_move() => WIN - ply,
                Some(_) => -(WIN - ply),
            };
        }
        if depth == 0 {
            return self.evaluate();
        }
        // Only inner nodes look at the clock, so depth 1 (leaves only below the root) always ends.
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) && Instant::now() >= self.deadline {
            self.out_of_time = true;
        }
        if self.out_of_time {
            return 0;
        }
        let mut moves: Vec<Move> = Vec::with_capacity(32);
        self.board.generate_into(&mut moves, false);
        if moves.is_empty() {
            return -(WIN - ply);
        }
        if self.prune {
            // Captures first, most valuable victim first.
            moves.sort_by_key(|m| {
                std::cmp::Reverse(self.board.piece_at(m.to).map_or(0, |p| p.kind.value() + 1))
            });
        }
        let mut best = -WIN - 1;
        for mv in moves {
            self.board.play_unchecked(mv);
            let v = if self.prune {
                -self.negamax(depth - 1, ply + 1, -beta, -alpha)
            } else {
                -self.negamax(depth - 1, ply + 1, -WIN - 1, WIN + 1)
            };
            self.board.undo();
            best = best.max(v);
            if self.prune {
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    fn evaluate(&self) -> i32 {
        if self.material_only {
            let diff = self.board.material(Color::White) - self.board.material(Color::Black);
            if self.board.side_to_move() == Color::White {
                diff
            } else {
                -diff
            }
        } else {
            evaluate(&self.board, &self.weights)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for b in Baseline::ALL {
            assert_eq!(Baseline::from_name(b.name()), Some(b));
        }
        assert_eq!(Baseline::from_name("random"), None);
    }

    #[test]
    fn seeded_and_legal_and_none_when_over() {
        let board = Board::start();
        for kind in Baseline::ALL {
            let a = baseline_move(&board, kind, Duration::from_secs(5), 3).unwrap();
            assert!(board.is_legal(a));
            if kind != Baseline::AlphaBeta {
                // Fixed depth: the same seed gives the same move.
                assert_eq!(baseline_move(&board, kind, Duration::from_secs(5), 3), Some(a));
            }
        }
        let over = Board::from_text("k4/5/5/5/5/4K w 50").unwrap();
        assert_eq!(baseline_move(&over, Baseline::AlphaBeta, Duration::from_millis(10), 1), None);
    }

    #[test]
    fn the_weak_minimax_sees_only_material_and_two_plies() {
        // A free knight: every baseline takes it (the rook from (5,0) to (3,0)).
        let board = Board::from_text("k4/5/5/n4/5/R3K w 10").unwrap();
        for kind in Baseline::ALL {
            assert_eq!(
                baseline_move(&board, kind, Duration::from_secs(1), 1).unwrap().to_string(),
                "5 0 3 0"
            );
        }
    }

    #[test]
    fn reports_every_finished_iteration_and_ends_on_the_last_report() {
        let board = Board::start();
        let mut seen = Vec::new();
        let mv = baseline_move_with(&board, Baseline::StrongMinimax, Duration::from_secs(30), 5, |m, d| {
            seen.push((m, d))
        })
        .unwrap();
        let depths: Vec<u32> = seen.iter().map(|&(_, d)| d).collect();
        assert_eq!(depths, (1..=STRONG_MINIMAX_DEPTH).collect::<Vec<_>>());
        assert_eq!(seen.last().unwrap().0, mv);
        assert!(seen.iter().all(|&(m, _)| board.is_legal(m)));
    }
}
