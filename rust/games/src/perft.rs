//! Perft for any game: the number of move sequences of a given length, counted in bulk at the last ply
//! (the length of the move list), with a split by root move ([`divide`]) and a count that a stop flag
//! interrupts ([`perft_interruptible`]).
//!
//! A game says what perft walks through [`Perft`]: its moves here (none once the game is over), how to
//! play and take back one, and whether the move just played ended its line as one leaf whatever the
//! depth below (Leiserchess counts a shot that hits a king so; a MiniChess king capture instead leaves
//! a position with no move, a leaf of no deeper tree, as a mate is in chess).

use std::{
    ops::Deref,
    sync::atomic::{AtomicBool, Ordering},
};

/// What perft needs of a game: its moves, make and unmake.
pub trait Perft {
    /// A move.
    type Move: Copy;
    /// A list of moves (a fixed-capacity list, or a `Vec`).
    type Moves: Deref<Target = [Self::Move]>;

    /// The moves perft counts here, in the game's generation order.
    fn perft_moves(&self) -> Self::Moves;

    /// Plays `mv`, one of [`Perft::perft_moves`].
    fn perft_play(&mut self, mv: Self::Move);

    /// Takes back the move [`Perft::perft_play`] played last.
    fn perft_undo(&mut self);

    /// Whether the move just played ended its line: one leaf, however deep the count goes on.
    /// Default: never (a finished game simply has no move).
    #[inline]
    fn line_ended(&self) -> bool {
        false
    }
}

/// Leaves `depth` plies below `game` (1 at depth 0). The game is restored before returning.
pub fn perft<G: Perft>(game: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.perft_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        game.perft_play(mv);
        nodes += if game.line_ended() { 1 } else { perft(game, depth - 1) };
        game.perft_undo();
    }
    nodes
}

/// Perft split by root move: each move with the leaves below it, in generation order.
pub fn divide<G: Perft>(game: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    let moves = game.perft_moves();
    moves
        .iter()
        .map(|&mv| {
            game.perft_play(mv);
            let leaves = if game.line_ended() { 1 } else { perft(game, depth.saturating_sub(1)) };
            game.perft_undo();
            (mv, leaves)
        })
        .collect()
}

/// [`perft`] that gives up (`None`) soon after `stop` is raised: the flag is read at every node three
/// or more plies above the leaves, so the bulk-counted bottom of the tree runs at full speed. The game
/// is restored either way.
pub fn perft_interruptible<G: Perft>(game: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        Some(perft(game, depth))
    } else if stop.load(Ordering::Relaxed) {
        None
    } else {
        game.perft_moves().iter().try_fold(0, |nodes, &mv| {
            game.perft_play(mv);
            let below = if game.line_ended() { Some(1) } else { perft_interruptible(game, depth - 1, stop) };
            game.perft_undo();
            Some(nodes + below?)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A heap of stones; a move takes 1, 2 or 3 and taking the last one ends the line (`ends`) or leaves
    /// a position with no move.
    struct Heap {
        stones: Vec<u32>,
        ends: bool,
    }

    impl Perft for Heap {
        type Move = u32;
        type Moves = Vec<u32>;
        fn perft_moves(&self) -> Vec<u32> {
            let left = *self.stones.last().unwrap();
            (1..=3).filter(|&k| k <= left).collect()
        }
        fn perft_play(&mut self, mv: u32) {
            self.stones.push(self.stones.last().unwrap() - mv);
        }
        fn perft_undo(&mut self) {
            self.stones.pop();
        }
        fn line_ended(&self) -> bool {
            self.ends && self.stones.last() == Some(&0)
        }
    }

    #[test]
    fn counts_split_and_stop() {
        // Sequences of takes from 4 stones: 1+1, 1+2, 1+3, 2+1, 2+2, 3+1 at depth 2; only 1+1+1+1 at depth 4.
        let mut heap = Heap { stones: vec![4], ends: false };
        assert_eq!((0..=4).map(|d| perft(&mut heap, d)).collect::<Vec<_>>(), [1, 3, 6, 4, 1]);
        assert_eq!(divide(&mut heap, 2), [(1, 3), (2, 2), (3, 1)]);
        // A take of the last stone counts as a leaf at any depth once it ends the line.
        let mut ending = Heap { stones: vec![4], ends: true };
        assert_eq!((0..=4).map(|d| perft(&mut ending, d)).collect::<Vec<_>>(), [1, 3, 6, 7, 7]);
        assert_eq!(divide(&mut ending, 3), [(1, 4), (2, 2), (3, 1)]);
        let go = AtomicBool::new(false);
        assert_eq!(perft_interruptible(&mut heap, 4, &go), Some(1));
        assert_eq!(perft_interruptible(&mut ending, 4, &go), Some(7));
        assert_eq!(perft_interruptible(&mut heap, 4, &AtomicBool::new(true)), None);
        assert_eq!(perft_interruptible(&mut heap, 2, &AtomicBool::new(true)), Some(6));
        assert_eq!(heap.stones, [4]);
    }
}
