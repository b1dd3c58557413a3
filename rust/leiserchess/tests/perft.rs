//! Perft against the published counts of the 2016 rules, and the rules' invariants on random games.

use std::sync::atomic::AtomicBool;

use camelpy_core::hash::SplitMix64;
use camelpy_leiserchess::{
    perft::{divide, perft, perft_interruptible},
    Board, Position, Rules,
};

#[test]
fn the_start_position_gives_the_published_counts() {
    let board = Board::start(Rules::R2016);
    let counts: Vec<u64> = (1..=3).map(|d| perft(&board, d)).collect();
    assert_eq!(counts, [78, 6_084, 473_126]);
    assert_eq!(divide(&board, 3).iter().map(|(_, n)| n).sum::<u64>(), 473_126);
    assert_eq!(perft_interruptible(&board, 3, &AtomicBool::new(false)), Some(473_126));
    assert_eq!(perft_interruptible(&board, 4, &AtomicBool::new(true)), None);
}

#[test]
fn random_games_keep_keys_fens_and_undo_exact() {
    for rules in [Rules::R2016, Rules::R2018] {
        let mut rng = SplitMix64::new(rules.year().into());
        for _ in 0..40 {
            let mut game = Position::start(rules);
            let mut boards = vec![game.board().clone()];
            while game.outcome().is_none() && game.moves().len() < 200 {
                let moves = game.legal_moves();
                let mv = moves[rng.below(moves.len())];
                game.push(mv).unwrap();
                let board = game.board();
                let again = Board::from_fen(&board.fen(), rules).unwrap();
                assert_eq!(again.key(), board.key(), "{}", board.fen());
                assert!(again.same_pieces(board));
                boards.push(board.clone());
            }
            while game.pop().is_some() {
                boards.pop();
                assert_eq!(game.board(), boards.last().unwrap());
            }
        }
    }
}
