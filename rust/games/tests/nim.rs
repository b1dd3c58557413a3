//! The search on the smallest game with a known answer: Nim with one heap, where a move takes 1, 2 or
//! 3 stones and taking the last stone wins. A heap of `n` is lost for the side to move exactly when
//! `n % 4 == 0`, and the winning move takes `n % 4`.

use std::sync::atomic::AtomicBool;

use camelpy_core::types::{mate_in, mated_in};
use camelpy_games::{Game, Limits, Score, Searcher, TableMove, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Take(u8);

impl TableMove for Take {
    fn to_raw(self) -> u16 {
        u16::from(self.0)
    }
    fn from_raw(raw: u16) -> Option<Take> {
        (1..=3).contains(&raw).then_some(Take(raw as u8))
    }
}

#[derive(Clone)]
struct Nim {
    heap: u32,
    taken: Vec<u8>,
}

impl Game for Nim {
    type Move = Take;
    const HISTORY_SLOTS: usize = 4;

    fn key(&self) -> u64 {
        u64::from(self.heap).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1
    }
    fn terminal_value(&self, ply: i32) -> Option<Value> {
        // The previous player took the last stone: the side to move has lost.
        (self.heap == 0).then(|| mated_in(ply))
    }
    fn no_moves_value(&self, ply: i32) -> Value {
        mated_in(ply)
    }
    fn generate(&self, moves: &mut Vec<Take>, noisy_only: bool) {
        if !noisy_only {
            moves.extend((1..=3).filter(|&k| k <= self.heap).map(|k| Take(k as u8)));
        }
    }
    fn is_noisy(&self, _: Take) -> bool {
        false
    }
    fn noisy_order(&self, _: Take) -> i32 {
        0
    }
    fn is_legal(&self, mv: Take) -> bool {
        u32::from(mv.0) <= self.heap
    }
    fn play(&mut self, mv: Take) {
        self.heap -= u32::from(mv.0);
        self.taken.push(mv.0);
    }
    fn undo(&mut self) {
        self.heap += u32::from(self.taken.pop().expect("a move to undo"));
    }
    fn evaluate(&self) -> Value {
        0
    }
    fn in_danger(&self) -> bool {
        false
    }
    fn history_index(&self, mv: Take) -> usize {
        usize::from(mv.0)
    }
}

#[test]
fn solves_one_heap_nim() {
    // On one thread, and on three (LazySMP: the helpers share the table, the answers are the same).
    for threads in [1, 3] {
        solve(threads);
    }
}

fn solve(threads: usize) {
    let mut searcher: Searcher<Nim> = Searcher::new(1).unwrap();
    searcher.set_threads(threads).unwrap();
    assert_eq!(searcher.threads(), threads);
    for heap in 1..=30u32 {
        let mut game = Nim { heap, taken: Vec::new() };
        let result = searcher.search(
            &mut game,
            Limits { depth: Some(40), ..Limits::default() },
            &AtomicBool::new(false),
            |_| {},
        );
        assert_eq!(game.heap, heap, "the game is given back as it was");
        if heap % 4 == 0 {
            // Lost: the loser takes as long as it can; every move loses in the same number of plies.
            let plies = 2 * (heap / 4) as i32;
            assert_eq!(Score::from_value(mated_in(plies)), result.info.score, "heap {heap}");
        } else {
            assert_eq!(result.best_move, Some(Take((heap % 4) as u8)), "heap {heap}");
            let plies = 2 * (heap / 4) as i32 + 1;
            assert_eq!(Score::from_value(mate_in(plies)), result.info.score, "heap {heap}");
        }
    }
}

#[test]
fn limits_and_the_stop_flag() {
    let mut searcher: Searcher<Nim> = Searcher::new(1).unwrap();
    let mut game = Nim { heap: 200, taken: Vec::new() };
    let mut depths = Vec::new();
    let r = searcher.search(
        &mut game,
        Limits { depth: Some(5), ..Limits::default() },
        &AtomicBool::new(false),
        |it| depths.push(it.depth),
    );
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert_eq!(r.info.depth, 5);
    // A raised stop flag: depth 1 still finishes, so there is always a move (and helpers stop too).
    let r = searcher.search(&mut game, Limits::default(), &AtomicBool::new(true), |_| {});
    assert!(r.best_move.is_some());
    searcher.set_threads(2).unwrap();
    let r = searcher.search(&mut game, Limits::default(), &AtomicBool::new(true), |_| {});
    assert!(r.best_move.is_some());
    searcher.set_threads(1).unwrap();
    assert_eq!(game.heap, 200);
    // A node limit ends the search.
    let r = searcher.search(
        &mut game,
        Limits { nodes: Some(5_000), ..Limits::default() },
        &AtomicBool::new(false),
        |_| {},
    );
    assert!(r.info.nodes < 50_000, "{}", r.info.nodes);
}
