//! Self-play for any game: games of a player against itself or another set of weights, for tuning data
//! ([`samples`]) and for comparing two evaluations ([`compare`]), played on threads by [`in_parallel`].
//!
//! A game starts from the start position plus `random_plies` random legal moves (seeded: game `i` of a
//! run seeded `s` always gets the same ones, whichever thread plays it), then each side searches a
//! fixed number of nodes per move (so a game is reproducible) until the game ends by its rules or
//! reaches [`Game::SELFPLAY_MAX_PLIES`] (a draw). Tuning samples are the positions after the random
//! plies that the game keeps ([`Game::is_tuning_sample`]), each labelled with the game's result.

use std::sync::atomic::AtomicBool;

use camelpy_core::{hash::SplitMix64, AllocError, Score};

use crate::{
    game::{Game, Rules},
    parallel::in_parallel,
    search::{Limits, Searcher},
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
pub struct Sample<F> {
    /// The evaluation's features ([`Game::features`]).
    pub features: F,
    /// Plies played from the start.
    pub ply: u32,
    /// Whether the first player was to move.
    pub first_to_move: bool,
    /// The game's result for the first player: 1, 0.5 or 0.
    pub result: f32,
}

/// The table each game's searchers use, in MiB (a game's searches are a few thousand nodes each).
const GAME_HASH_MB: usize = 2;

/// A searcher for one self-play game, evaluating with `weights` (its table allocated once already by
/// the caller's check, so this does not fail short of memory exhaustion mid-run).
fn game_searcher<G: Game>(weights: G::Weights) -> Searcher<G> {
    let mut searcher = Searcher::new(GAME_HASH_MB).expect("allocated once already");
    searcher.weights = weights;
    searcher
}

/// Plays game `index` of a run: the first player searches with `first`, the second with `second`, each
/// table cleared first; `on_position` sees every position a side searched (after the random plies),
/// the plies played, the move chosen and its score. Returns the first player's points.
fn play_game<G: Game>(
    first: &mut Searcher<G>,
    second: &mut Searcher<G>,
    settings: &SelfPlaySettings,
    variant: <G::Position as Rules>::Variant,
    index: u64,
    mut on_position: impl FnMut(&G::Position, u32, G::Move, Score),
) -> f32 {
    let mut rng = SplitMix64::for_game(settings.seed, index);
    let mut game = G::Position::start(variant);
    let mut plies = 0;
    for _ in 0..settings.random_plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.push_unchecked(moves[rng.below(moves.len())]);
        plies += 1;
    }
    first.clear();
    second.clear();
    let limits = Limits { nodes: Some(settings.nodes), ..Limits::default() };
    let no_stop = AtomicBool::new(false);
    while game.first_player_points().is_none() && (plies as usize) < G::SELFPLAY_MAX_PLIES {
        let searcher = if game.first_to_move() { &mut *first } else { &mut *second };
        let result = searcher.search(&game, limits, &no_stop, |_| {});
        let mv = result.best_move.expect("a game in progress has a move");
        on_position(&game, plies, mv, result.info.score);
        game.push_unchecked(mv);
        plies += 1;
    }
    game.first_player_points().unwrap_or(0.5)
}

/// Tuning samples from `games` self-play games of `weights` against themselves from `variant`'s start
/// (fewer if `stop` is raised: the games finished by then), in game order.
///
/// # Errors
/// If a thread's table cannot be allocated.
pub fn samples<G: Game>(
    games: u64,
    weights: G::Weights,
    settings: &SelfPlaySettings,
    variant: <G::Position as Rules>::Variant,
    stop: &AtomicBool,
) -> Result<Vec<Sample<G::Features>>, AllocError> {
    // Allocate up front so that a failure is an error, not a panic in a thread.
    Searcher::<G>::new(GAME_HASH_MB)?;
    let per_game = in_parallel(games, settings.threads, stop, |index| {
        let (mut searcher, mut other) = (game_searcher::<G>(weights), game_searcher::<G>(weights));
        let mut kept = Vec::new();
        let result =
            play_game(&mut searcher, &mut other, settings, variant, index, |position, ply, mv, score| {
                if G::is_tuning_sample(position, mv, score) {
                    let first_to_move = position.first_to_move();
                    kept.push(Sample { features: G::features(position), ply, first_to_move, result: 0.0 });
                }
            });
        kept.iter_mut().for_each(|s| s.result = result);
        kept
    });
    Ok(per_game.into_iter().flatten().flatten().collect())
}

/// Plays `pairs` pairs of games between weights `a` and `b` from `variant`'s start (each pair from the
/// same random opening, `a` the first player in the first game and the second in the other) and
/// returns `a`'s points in each game of each pair (only the pairs finished before `stop` was raised).
///
/// # Errors
/// If a table cannot be allocated.
pub fn compare<G: Game>(
    pairs: u64,
    a: G::Weights,
    b: G::Weights,
    settings: &SelfPlaySettings,
    variant: <G::Position as Rules>::Variant,
    stop: &AtomicBool,
) -> Result<Vec<[f32; 2]>, AllocError> {
    Searcher::<G>::new(GAME_HASH_MB)?;
    let results = in_parallel(pairs, settings.threads, stop, |pair| {
        let (mut with_a, mut with_b) = (game_searcher::<G>(a), game_searcher::<G>(b));
        let a_first = play_game(&mut with_a, &mut with_b, settings, variant, pair, |_, _, _, _| {});
        let a_second = 1.0 - play_game(&mut with_b, &mut with_a, settings, variant, pair, |_, _, _, _| {});
        [a_first, a_second]
    });
    Ok(results.into_iter().flatten().collect())
}

/// Defines a game's `samples` and `compare` functions over [`samples`] and [`compare`]: the game's
/// [`Game`], its weights, its settings type and how they give the framework's settings and the
/// variant, and its sample type and how a framework [`Sample`] becomes one.
///
/// ```text
/// camelpy_games::selfplay_functions! {
///     game: SearchGame, weights: Weights,
///     settings: SelfPlaySettings => |s| (s.framework(), s.rules),
///     sample: Sample => |k| Sample { features: k.features, to_move: k.first_to_move, result: k.result },
/// }
/// ```
#[macro_export]
macro_rules! selfplay_functions {
    (
        game: $game:ty, weights: $weights:ty,
        settings: $settings:ty => |$s:ident| ($framework:expr, $variant:expr),
        sample: $sample:ty => |$k:ident| $convert:expr $(,)?
    ) => {
        /// Tuning samples from `games` self-play games of `weights` against themselves (fewer if `stop`
        /// is raised: the games finished by then), in game order, labelled with each game's result for
        /// the first player (`camelpy_games::selfplay::samples`).
        ///
        /// # Errors
        /// If a thread's table cannot be allocated.
        pub fn samples(
            games: u64,
            weights: $weights,
            settings: &$settings,
            stop: &::std::sync::atomic::AtomicBool,
        ) -> ::std::result::Result<::std::vec::Vec<$sample>, $crate::AllocError> {
            let $s = settings;
            let kept = $crate::selfplay::samples::<$game>(games, weights, &$framework, $variant, stop)?;
            Ok(kept.into_iter().map(|$k| $convert).collect())
        }

        /// Plays `pairs` pairs of games between weights `a` and `b` (each pair from the same random
        /// opening, `a` the first player in the first game and the second in the other) and returns
        /// `a`'s points in each game of each pair, only the pairs finished before `stop` was raised
        /// (`camelpy_games::selfplay::compare`).
        ///
        /// # Errors
        /// If a table cannot be allocated.
        pub fn compare(
            pairs: u64,
            a: $weights,
            b: $weights,
            settings: &$settings,
            stop: &::std::sync::atomic::AtomicBool,
        ) -> ::std::result::Result<::std::vec::Vec<[f32; 2]>, $crate::AllocError> {
            let $s = settings;
            $crate::selfplay::compare::<$game>(pairs, a, b, &$framework, $variant, stop)
        }
    };
}
