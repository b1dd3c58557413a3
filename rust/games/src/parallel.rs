//! Games played on several threads at once (self-play for tuning, weight comparisons): each game's
//! result lands in its own slot, so the results are in game order whatever the threads.

use std::sync::atomic::{AtomicBool, Ordering};

/// Runs `games` games on `threads` threads, game `i` by `play(i)`, and returns their results in game
/// order; once `stop` is raised no new game starts (`None` in their places). Each thread plays one
/// contiguous run of games, so a game's result never depends on the thread count when `play` does
/// not.
pub fn in_parallel<T: Send>(
    games: u64,
    threads: usize,
    stop: &AtomicBool,
    play: impl Fn(u64) -> T + Sync,
) -> Vec<Option<T>> {
    let threads = threads.clamp(1, games.max(1) as usize);
    let mut slots: Vec<Option<T>> = (0..games).map(|_| None).collect();
    std::thread::scope(|scope| {
        let chunks: Vec<_> = slots.chunks_mut(games.div_ceil(threads as u64).max(1) as usize).collect();
        let mut first = 0u64;
        for chunk in chunks {
            let start = first;
            first += chunk.len() as u64;
            let play = &play;
            scope.spawn(move || {
                for (k, slot) in chunk.iter_mut().enumerate() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    *slot = Some(play(start + k as u64));
                }
            });
        }
    });
    slots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_game_order_and_a_raised_stop_starts_nothing() {
        let go = AtomicBool::new(false);
        for threads in [1, 2, 3, 8] {
            let squares = in_parallel(7, threads, &go, |i| i * i);
            assert_eq!(squares, (0..7).map(|i| Some(i * i)).collect::<Vec<_>>(), "{threads} threads");
        }
        assert!(in_parallel(0, 2, &go, |i| i).is_empty());
        assert!(in_parallel(5, 2, &AtomicBool::new(true), |i| i).iter().all(Option::is_none));
    }
}
