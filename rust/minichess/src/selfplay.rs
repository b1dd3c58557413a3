//! Self-play: games of the player against itself or another set of weights, for tuning data and for
//! comparing two evaluations.
//!
//! A game starts from the initial position plus `random_plies` random legal moves (seeded: game `i`
//! of a run seeded `s` always gets the same ones, whichever thread plays it), then each side searches
//! a fixed number of nodes per move (so a game is reproducible) until the game ends by its rules.
//! Tuning samples are the positions after the random plies where the side to move's king is not in
//! danger and the searched best move is quiet (a position whose value hangs on a capture is not what a
//! static evaluation should be fitted to), each labelled with the game's result.

use std::sync::atomic::AtomicBool;

use camelpy_core::data::SplitMix64;
use camelpy_games::in_parallel;

use crate::{
    board::Board,
    eval::{features, Weights, NUM_WEIGHTS},
    search::{Limits, MiniSearcher},
    types::Color,
};

/// How self-play games are played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SelfPlaySettings {
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random legal moves from the start before the searches take over.
    pub random_plies: u32,
    /// The run's seed.
    pub seed: u64,
    /// Threads playing games at once (the results do not depend on it).
    pub threads: usize,
}

/// One tuning position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// The evaluation's features (White minus Black; see [`crate::eval::features`]).
    pub features: [i32; NUM_WEIGHTS],
    /// The ply count (the count feature is weighted by it).
    pub ply: u32,
    /// Whether White was to move (the tempo feature's sign).
    pub white_to_move: bool,
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f32,
}

/// The table each game's searchers use, in MiB (a game is short and its searches small).
const GAME_HASH_MB: usize = 2;

/// A searcher for one self-play game, evaluating with `weights` (its table allocated once already by
/// the caller's check, so this does not fail short of memory exhaustion mid-run).
fn game_searcher(weights: Weights) -> MiniSearcher {
    let mut searcher = MiniSearcher::new(GAME_HASH_MB).expect("allocated once already");
    searcher.weights = weights;
    searcher
}

/// White's points in a finished game.
fn white_points(board: &Board) -> f32 {
    match board.outcome().and_then(|o| o.winner) {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    }
}

/// Plays game `index` of a run: White searches with `white`, Black with `black`, each table cleared
/// first; `on_position` sees every position a side searched (after the random plies) with the move it
/// chose. Returns the final board.
fn play_game(
    white: &mut MiniSearcher,
    black: &mut MiniSearcher,
    settings: &SelfPlaySettings,
    index: u64,
    mut on_position: impl FnMut(&Board, crate::Move),
) -> Board {
    let mut rng = SplitMix64::for_game(settings.seed, index);
    let mut board = Board::start();
    for _ in 0..settings.random_plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            break;
        }
        board.play_unchecked(moves[rng.below(moves.len())]);
    }
    white.clear();
    black.clear();
    let limits = Limits { nodes: Some(settings.nodes), ..Limits::default() };
    let no_stop = AtomicBool::new(false);
    while board.outcome().is_none() {
        let searcher = if board.side_to_move() == Color::White { &mut *white } else { &mut *black };
        let mv = searcher
            .search(&board, limits, &no_stop, |_| {})
            .best_move
            .expect("a game in progress has a move");
        on_position(&board, mv);
        board.play_unchecked(mv);
    }
    board
}

/// Tuning samples from `games` self-play games of `weights` against themselves (fewer if `stop` is
/// raised: the games finished by then).
///
/// # Errors
/// If a thread's table cannot be allocated.
pub fn samples(
    games: u64,
    weights: Weights,
    settings: &SelfPlaySettings,
    stop: &AtomicBool,
) -> Result<Vec<Sample>, camelpy_core::AllocError> {
    // Allocate up front so that a failure is an error, not a panic in a thread.
    MiniSearcher::new(GAME_HASH_MB)?;
    let per_game = in_parallel(games, settings.threads, stop, |index| {
        let (mut searcher, mut other) = (game_searcher(weights), game_searcher(weights));
        let mut kept = Vec::new();
        let end = play_game(&mut searcher, &mut other, settings, index, |board, mv| {
            if !board.king_in_danger() && !board.is_noisy(mv) {
                kept.push(Sample {
                    features: features(board),
                    ply: board.ply(),
                    white_to_move: board.side_to_move() == Color::White,
                    result: 0.0,
                });
            }
        });
        let result = white_points(&end);
        kept.iter_mut().for_each(|s| s.result = result);
        kept
    });
    Ok(per_game.into_iter().flatten().flatten().collect())
}

/// Plays `pairs` pairs of games between weights `a` and `b` (each pair from the same random opening,
/// `a` White in the first game and Black in the second) and returns `a`'s points in each game of each
/// pair (only the pairs finished before `stop` was raised).
///
/// # Errors
/// If a table cannot be allocated.
pub fn compare(
    pairs: u64,
    a: Weights,
    b: Weights,
    settings: &SelfPlaySettings,
    stop: &AtomicBool,
) -> Result<Vec<[f32; 2]>, camelpy_core::AllocError> {
    MiniSearcher::new(GAME_HASH_MB)?;
    let results = in_parallel(pairs, settings.threads, stop, |pair| {
        let (mut first, mut second) = (game_searcher(a), game_searcher(b));
        let a_white = white_points(&play_game(&mut first, &mut second, settings, pair, |_, _| {}));
        let a_black = 1.0 - white_points(&play_game(&mut second, &mut first, settings, pair, |_, _| {}));
        [a_white, a_black]
    });
    Ok(results.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: SelfPlaySettings = SelfPlaySettings { nodes: 300, random_plies: 4, seed: 9, threads: 2 };

    /// A small run's samples and comparison, summed: a signature that changes only when the self-play,
    /// the search or the evaluation does.
    #[test]
    fn a_fixed_run_is_the_signature() {
        let go = AtomicBool::new(false);
        let kept = samples(3, Weights::default(), &SETTINGS, &go).unwrap();
        let sum: i64 = kept
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let features: i64 = s.features.iter().map(|&x| i64::from(x)).sum();
                (i as i64 + 1)
                    * (features * 31
                        + s.ply as i64 * 7
                        + i64::from(s.white_to_move)
                        + (s.result * 2.0) as i64)
            })
            .sum();
        let pairs = compare(2, Weights::default(), Weights::default(), &SETTINGS, &go).unwrap();
        assert_eq!((kept.len(), sum, pairs), (86, 1_195_925, vec![[1.0, 0.0], [0.0, 1.0]]));
    }

    #[test]
    fn samples_are_reproducible_whatever_the_threads() {
        let go = AtomicBool::new(false);
        let one = samples(6, Weights::default(), &SelfPlaySettings { threads: 1, ..SETTINGS }, &go).unwrap();
        let two = samples(6, Weights::default(), &SETTINGS, &go).unwrap();
        assert_eq!(one, two);
        assert!(one.len() > 6 * 5, "{}", one.len());
        assert!(one.iter().all(|s| s.ply >= 4 && s.ply < 50 && [0.0, 0.5, 1.0].contains(&s.result)));
    }

    #[test]
    fn identical_weights_score_as_colours_allow_and_a_blunderer_loses() {
        let go = AtomicBool::new(false);
        let same = compare(4, Weights::default(), Weights::default(), &SETTINGS, &go).unwrap();
        // The same weights on both sides of the same opening: one game's result mirrors the other's.
        for [w, b] in &same {
            assert!([0.0, 0.5, 1.0].contains(w) && [0.0, 0.5, 1.0].contains(b));
        }
        // An evaluation that thinks its queen is worth nothing loses to the default one.
        let mut bad = Weights::default();
        bad.0[4] = -900;
        let results = compare(6, Weights::default(), bad, &SETTINGS, &go).unwrap();
        let points: f32 = results.iter().flatten().sum();
        assert!(points >= 9.0, "{points} of 12");
        // A raised stop flag: no game starts.
        assert!(compare(6, Weights::default(), bad, &SETTINGS, &AtomicBool::new(true)).unwrap().is_empty());
    }
}
