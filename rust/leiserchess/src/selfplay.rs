//! Self-play: games of the player against itself or another set of weights, for tuning data and for
//! comparing two evaluations (as MiniChess's `selfplay`, on the same [`in_parallel`]).
//!
//! A game starts from the start position plus `random_plies` random legal moves (seeded: game `i` of
//! a run seeded `s` always gets the same ones, whichever thread plays it), then each side searches a
//! fixed number of nodes per move (so a game is reproducible) until the game ends by its rules or
//! reaches [`MAX_GAME_PLIES`] (a draw, as `camelpy leiserchess match`'s `--max-plies` default).
//! Tuning samples are the positions after the random plies whose searched best move is quiet (it zaps
//! nothing: a position whose value hangs on a shot is not what a static evaluation should be fitted
//! to) and whose score is no proven win or loss, each labelled with the game's result.

use std::sync::atomic::AtomicBool;

use camelpy_core::{data::SplitMix64, AllocError};
use camelpy_games::{in_parallel, Score};

use crate::{
    board::Rules,
    eval::{features, Weights, NUM_WEIGHTS},
    position::Position,
    search::{LeiserSearcher, Limits},
    types::Color,
};

/// A self-play game still going after this many plies is a draw (the 2016 rules have no quiet-move
/// draw, and two equal players can shuffle for long without repeating).
pub const MAX_GAME_PLIES: usize = 400;

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
    /// The rule set.
    pub rules: Rules,
}

/// One tuning position.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// The evaluation's features (Tangerine minus Lavender; see [`crate::eval::features`]).
    pub features: [i32; NUM_WEIGHTS],
    /// Whether Tangerine was to move (the tempo feature's sign).
    pub tangerine_to_move: bool,
    /// The game's result for Tangerine: 1, 0.5 or 0.
    pub result: f32,
}

/// The table each game's searchers use, in MiB (a fixed-node search of a few thousand nodes).
const GAME_HASH_MB: usize = 2;

/// A searcher for one self-play game, evaluating with `weights` (its table allocated once already by
/// the caller's check, so this does not fail short of memory exhaustion mid-run).
fn game_searcher(weights: Weights) -> LeiserSearcher {
    let mut searcher = LeiserSearcher::new(GAME_HASH_MB).expect("allocated once already");
    searcher.weights = weights;
    searcher
}

/// Tangerine's points in a game that ended (or stopped at [`MAX_GAME_PLIES`]: a draw).
fn tangerine_points(game: &Position) -> f32 {
    match game.outcome().and_then(|o| o.winner) {
        Some(Color::Tangerine) => 1.0,
        Some(Color::Lavender) => 0.0,
        None => 0.5,
    }
}

/// Plays game `index` of a run: Tangerine searches with `tangerine`, Lavender with `lavender`, each
/// table cleared first; `on_position` sees every position a side searched (after the random plies),
/// whether its best move was quiet, and the search's score. Returns the finished game.
fn play_game(
    tangerine: &mut LeiserSearcher,
    lavender: &mut LeiserSearcher,
    settings: &SelfPlaySettings,
    index: u64,
    mut on_position: impl FnMut(&Position, bool, Score),
) -> Position {
    let mut rng = SplitMix64::for_game(settings.seed, index);
    let mut game = Position::start(settings.rules);
    for _ in 0..settings.random_plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.push_unchecked(moves[rng.below(moves.len())]);
    }
    tangerine.clear();
    lavender.clear();
    let limits = Limits { nodes: Some(settings.nodes), ..Limits::default() };
    let no_stop = AtomicBool::new(false);
    while game.outcome().is_none() && game.moves().len() < MAX_GAME_PLIES {
        let searcher =
            if game.board().side_to_move() == Color::Tangerine { &mut *tangerine } else { &mut *lavender };
        let result = searcher.search(&game, limits, &no_stop, |_| {});
        let mv = result.best_move.expect("a game in progress has a move");
        let report = game.board().after(mv).1;
        on_position(&game, report.zapped == 0 && report.king_hit.is_none(), result.info.score);
        game.push_unchecked(mv);
    }
    game
}

/// Tuning samples from `games` self-play games of `weights` against themselves (fewer if `stop` is
/// raised: the games finished by then), in game order.
///
/// # Errors
/// If a thread's table cannot be allocated.
pub fn samples(
    games: u64,
    weights: Weights,
    settings: &SelfPlaySettings,
    stop: &AtomicBool,
) -> Result<Vec<Sample>, AllocError> {
    // Allocate up front so that a failure is an error, not a panic in a thread.
    LeiserSearcher::new(GAME_HASH_MB)?;
    let per_game = in_parallel(games, settings.threads, stop, |index| {
        let (mut searcher, mut other) = (game_searcher(weights), game_searcher(weights));
        let mut kept = Vec::new();
        let end = play_game(&mut searcher, &mut other, settings, index, |game, quiet, score| {
            if quiet && matches!(score, Score::Cp(_)) {
                kept.push(Sample {
                    features: features(game.board()),
                    tangerine_to_move: game.board().side_to_move() == Color::Tangerine,
                    result: 0.0,
                });
            }
        });
        let result = tangerine_points(&end);
        kept.iter_mut().for_each(|s| s.result = result);
        kept
    });
    Ok(per_game.into_iter().flatten().flatten().collect())
}

/// Plays `pairs` pairs of games between weights `a` and `b` (each pair from the same random opening,
/// `a` Tangerine in the first game and Lavender in the second) and returns `a`'s points in each game
/// of each pair (only the pairs finished before `stop` was raised).
///
/// # Errors
/// If a table cannot be allocated.
pub fn compare(
    pairs: u64,
    a: Weights,
    b: Weights,
    settings: &SelfPlaySettings,
    stop: &AtomicBool,
) -> Result<Vec<[f32; 2]>, AllocError> {
    LeiserSearcher::new(GAME_HASH_MB)?;
    let results = in_parallel(pairs, settings.threads, stop, |pair| {
        let (mut first, mut second) = (game_searcher(a), game_searcher(b));
        let a_first = tangerine_points(&play_game(&mut first, &mut second, settings, pair, |_, _, _| {}));
        let a_second =
            1.0 - tangerine_points(&play_game(&mut second, &mut first, settings, pair, |_, _, _| {}));
        [a_first, a_second]
    });
    Ok(results.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::WEIGHT_SPECS;

    const SETTINGS: SelfPlaySettings =
        SelfPlaySettings { nodes: 300, random_plies: 2, seed: 9, threads: 2, rules: Rules::R2016 };

    /// A small run's samples (how many, the first's and the last's features, the results) and a
    /// comparison's points: a signature that changes only when the self-play, search or evaluation does.
    #[test]
    fn a_fixed_run_is_the_signature() {
        let go = AtomicBool::new(false);
        let kept = samples(3, Weights::default(), &SETTINGS, &go).unwrap();
        let ends = (kept[0].features, kept[kept.len() - 1].features);
        let points: f32 = kept.iter().map(|s| s.result).sum();
        let pairs = compare(2, Weights::default(), Weights::default(), &SETTINGS, &go).unwrap();
        assert_eq!(
            (kept.len(), ends, points, pairs),
            (219, ([1, 1, 1, 0, 0, 0, -3, 1], [0, 1, 0, 0, 0, 2, 3, 1]), 204.0, vec![[1.0, 0.0], [1.0, 0.0]])
        );
    }

    #[test]
    fn samples_are_reproducible_whatever_the_threads() {
        let go = AtomicBool::new(false);
        let one = samples(4, Weights::default(), &SelfPlaySettings { threads: 1, ..SETTINGS }, &go).unwrap();
        let two = samples(4, Weights::default(), &SETTINGS, &go).unwrap();
        assert_eq!(one, two);
        assert!(one.len() > 4 * 5, "{}", one.len());
        assert!(one.iter().all(|s| [0.0, 0.5, 1.0].contains(&s.result)));
        assert!(one.iter().any(|s| s.tangerine_to_move) && one.iter().any(|s| !s.tangerine_to_move));
        let r2018 = SelfPlaySettings { rules: Rules::R2018, ..SETTINGS };
        assert!(!samples(2, Weights::default(), &r2018, &go).unwrap().is_empty());
    }

    #[test]
    fn a_player_that_wants_to_lose_its_pawns_loses() {
        let go = AtomicBool::new(false);
        let same = compare(2, Weights::default(), Weights::default(), &SETTINGS, &go).unwrap();
        assert!(same.iter().flatten().all(|p| [0.0, 0.5, 1.0].contains(p)));
        // An evaluation that values its pawns negatively throws them to the laser.
        let mut bad = Weights::default();
        let pawn = WEIGHT_SPECS.iter().position(|s| s.name == "pawn").unwrap();
        bad.0[pawn] = -100;
        let results = compare(4, Weights::default(), bad, &SETTINGS, &go).unwrap();
        let points: f32 = results.iter().flatten().sum();
        assert!(points >= 6.0, "{points} of 8");
        assert!(compare(4, Weights::default(), bad, &SETTINGS, &AtomicBool::new(true)).unwrap().is_empty());
    }
}
