//! Self-play: games of the player against itself or another set of weights, for tuning data and for
//! comparing two evaluations — the games framework's (`camelpy_games::selfplay`, as MiniChess's), from
//! the start of either rule set. A game still going after [`MAX_GAME_PLIES`] is a draw (as
//! `camelpy leiserchess match`'s `--max-plies` default). Tuning samples are the positions after the
//! random plies whose searched best move is quiet (it zaps nothing: a position whose value hangs on a
//! shot is not what a static evaluation should be fitted to) and whose score is no proven win or loss,
//! each labelled with the game's result.

use camelpy_games::selfplay;

use crate::{
    board::Rules,
    eval::{Weights, NUM_WEIGHTS},
    search::SearchGame,
};

pub use crate::search::MAX_GAME_PLIES;

/// How self-play games are played: the rule set, and the framework's settings
/// ([`selfplay::SelfPlaySettings`]) spelt out beside it, so that the settings are one flat record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SelfPlaySettings {
    /// The rule set of every game.
    pub rules: Rules,
    /// The nodes of each move's search.
    pub nodes: u64,
    /// How many random legal moves open each game.
    pub random_plies: u32,
    /// The seed of the random openings.
    pub seed: u64,
    /// How many games are played at once (the results do not depend on it).
    pub threads: usize,
}

impl SelfPlaySettings {
    /// The settings the framework plays by (all but the rules).
    fn framework(&self) -> selfplay::SelfPlaySettings {
        let SelfPlaySettings { nodes, random_plies, seed, threads, rules: _ } = *self;
        selfplay::SelfPlaySettings { nodes, random_plies, seed, threads }
    }
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

camelpy_games::selfplay_functions! {
    game: SearchGame, weights: Weights,
    settings: SelfPlaySettings => |settings| (settings.framework(), settings.rules),
    sample: Sample => |s| {
        Sample { features: s.features, tangerine_to_move: s.first_to_move, result: s.result }
    },
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

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
            (
                123,
                ([1, 1, 1, 0, 0, 0, -3, -17, 0, 0, 1], [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1]),
                81.0,
                vec![[0.5, 0.5], [1.0, 0.0]]
            )
        );
    }

    #[test]
    fn both_sides_give_samples_under_both_rules() {
        let go = AtomicBool::new(false);
        let two_threads = samples(4, Weights::default(), &SETTINGS, &go).unwrap();
        let one = samples(4, Weights::default(), &SelfPlaySettings { threads: 1, ..SETTINGS }, &go).unwrap();
        assert!(one == two_threads && one.len() > 4 * 5, "{}", one.len());
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
