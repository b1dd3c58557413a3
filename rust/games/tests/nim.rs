//! The framework on the smallest game with a known answer: Nim with one heap, where a move takes 1, 2
//! or 3 stones and taking the last stone wins. A heap of `n` is lost for the side to move exactly when
//! `n % 4 == 0`, and the winning move takes `n % 4`. Nim provides what any game provides ([`Rules`],
//! [`Game`], [`Perft`]) and gets the search, self-play and perft.

use std::sync::atomic::AtomicBool;

use camelpy_core::types::{mate_in, mated_in};
use camelpy_games::{
    perft::{divide, perft},
    selfplay::{compare, samples},
    Game, Limits, Perft, Rules, Score, Searcher, SelfPlaySettings, TableMove, Value,
};

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

impl Rules for Nim {
    type Move = Take;
    type Moves = Vec<Take>;
    /// The heap at the start.
    type Variant = u32;

    fn start(heap: u32) -> Nim {
        Nim { heap, taken: Vec::new() }
    }
    fn legal_moves(&self) -> Vec<Take> {
        (1..=3).filter(|&k| k <= self.heap).map(|k| Take(k as u8)).collect()
    }
    fn push_unchecked(&mut self, mv: Take) {
        self.play(mv);
    }
    fn first_to_move(&self) -> bool {
        self.taken.len().is_multiple_of(2)
    }
    fn first_player_points(&self) -> Option<f32> {
        // Whoever took the last stone won: the first player if it made the last move.
        (self.heap == 0).then_some(if self.first_to_move() { 0.0 } else { 1.0 })
    }
}

impl Perft for Nim {
    type Move = Take;
    type Moves = Vec<Take>;
    fn perft_moves(&self) -> Vec<Take> {
        self.legal_moves()
    }
    fn perft_play(&mut self, mv: Take) {
        self.play(mv);
    }
    fn perft_undo(&mut self) {
        self.undo();
    }
}

impl Game for Nim {
    type Move = Take;
    const HISTORY_SLOTS: usize = 4;
    type Position = Nim;
    /// Nim's evaluation has nothing to weigh.
    type Weights = ();
    /// The stones left.
    type Features = [i32; 1];

    fn from_position(position: &Nim, _: ()) -> Nim {
        position.clone()
    }
    fn features(position: &Nim) -> [i32; 1] {
        [position.heap as i32]
    }
    fn is_tuning_sample(_: &Nim, _: Take, score: Score) -> bool {
        matches!(score, Score::Mate(_))
    }

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
        let result = searcher.search_game(
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
    let r = searcher.search_game(
        &mut game,
        Limits { depth: Some(5), ..Limits::default() },
        &AtomicBool::new(false),
        |it| depths.push(it.depth),
    );
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert_eq!(r.info.depth, 5);
    // A raised stop flag: depth 1 still finishes, so there is always a move (and helpers stop too).
    let r = searcher.search_game(&mut game, Limits::default(), &AtomicBool::new(true), |_| {});
    assert!(r.best_move.is_some());
    searcher.set_threads(2).unwrap();
    let r = searcher.search_game(&mut game, Limits::default(), &AtomicBool::new(true), |_| {});
    assert!(r.best_move.is_some());
    searcher.set_threads(1).unwrap();
    assert_eq!(game.heap, 200);
    // A node limit ends the search.
    let r = searcher.search(
        &game,
        Limits { nodes: Some(5_000), ..Limits::default() },
        &AtomicBool::new(false),
        |_| {},
    );
    assert!(r.info.nodes < 50_000, "{}", r.info.nodes);
}

#[test]
fn a_finished_game_has_no_move() {
    let mut searcher: Searcher<Nim> = Searcher::new(1).unwrap();
    let over = Nim { heap: 0, taken: vec![3] };
    let r = searcher.search(
        &over,
        Limits { depth: Some(5), ..Limits::default() },
        &AtomicBool::new(false),
        |_| {},
    );
    assert_eq!((r.best_move, r.info.score), (None, Score::from_value(mated_in(0))));
}

#[test]
fn perft_counts_the_sequences_of_takes() {
    // From 4 stones: 1+1+1+1 is the only sequence of four takes; 1+3, 2+2, 3+1 end at depth 2.
    let mut nim = Nim::start(4);
    assert_eq!((0..=4).map(|d| perft(&mut nim, d)).collect::<Vec<_>>(), [1, 3, 6, 4, 1]);
    assert_eq!(divide(&mut nim, 2), [(Take(1), 3), (Take(2), 2), (Take(3), 1)]);
    assert!(nim.taken.is_empty());
}

#[test]
fn self_play_knows_who_wins_nim() {
    // A heap of 9 after one random take (8, 7 or 6 left): a perfect player wins unless left 8.
    let settings = SelfPlaySettings { nodes: 2_000, random_plies: 1, seed: 3, threads: 1 };
    let go = AtomicBool::new(false);
    let kept = samples::<Nim>(6, (), &settings, 9, &go).unwrap();
    let two = samples::<Nim>(6, (), &SelfPlaySettings { threads: 2, ..settings }, 9, &go).unwrap();
    assert_eq!(kept, two);
    for s in &kept {
        // The player to move at a heap of 4k loses; the result is the first player's.
        let mover_wins = s.features[0] % 4 != 0;
        assert_eq!(s.result, if mover_wins == s.first_to_move { 1.0 } else { 0.0 }, "{s:?}");
        assert!(s.ply >= 1);
    }
    assert!(!kept.is_empty());
    // The same player on both sides: the pair's results follow the opening, whoever is first.
    for [first, second] in compare::<Nim>(4, (), (), &settings, 9, &go).unwrap() {
        assert_eq!(first + second, 1.0);
    }
    assert!(compare::<Nim>(4, (), (), &settings, 9, &AtomicBool::new(true)).unwrap().is_empty());
}
