//! Self-play: games of the player against itself or another set of weights, for tuning data and for
//! comparing two evaluations — the games framework's (`camelpy_games::selfplay`), from MiniChess's
//! start: [`samples`] and [`compare`] (White is the first player). Tuning samples are the positions
//! after the random plies where the side to move's king is not in danger and the searched best move is
//! quiet (a position whose value hangs on a capture is not what a static evaluation should be fitted
//! to), each labelled with the game's result.

pub use camelpy_games::SelfPlaySettings;

use crate::{
    eval::{Weights, NUM_WEIGHTS},
    search::SearchGame,
};

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

camelpy_games::selfplay_functions! {
    game: SearchGame, weights: Weights,
    settings: SelfPlaySettings => |settings| (*settings, ()),
    sample: Sample => |s| {
        Sample { features: s.features, ply: s.ply, white_to_move: s.first_to_move, result: s.result }
    },
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

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
    fn samples_come_after_the_random_plies_whatever_the_threads() {
        let go = AtomicBool::new(false);
        let one = samples(6, Weights::default(), &SelfPlaySettings { threads: 1, ..SETTINGS }, &go).unwrap();
        assert_eq!(one, samples(6, Weights::default(), &SETTINGS, &go).unwrap());
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
