//! Self-play data generation: worker threads play whole games against themselves at a fixed node
//! budget per move and the calling thread writes every searched position, with its score, best move
//! and the game's result, to a data file ([`crate::data::format`]).
//!
//! # A game
//! Game `i` starts from opening `i mod n` of the list given (the start position when none is given),
//! then plays [`DatagenSettings::random_plies`] random legal moves drawn from a [`SplitMix64`] stream
//! seeded by `(seed, i)` (drawn again, up to [`OPENING_ATTEMPTS`] times, when they end the game; the
//! opening as it is after that). No position of the random plies is kept. From there every position is
//! searched, with a fresh [`SearchState`] and a cleared table per game, and kept with its score and best
//! move, which is then played. Plies are counted from the opening position, random plies included. The
//! game ends:
//! - by the rules: checkmate, stalemate, the 50-move rule (100 plies without capture or pawn move, as
//!   if claimed), threefold repetition (as if claimed), insufficient material;
//! - by adjudication, right after a search: a win when the score, seen from White, has been at least
//!   `win_score` for White (or at most −`win_score`) in each of the last `win_plies` searches, so both
//!   sides agreed; a draw when |score| ≤ `draw_score` in each of the last `draw_plies` searches made at
//!   ply `draw_after` or later;
//! - at `max_plies` plies, as a draw.
//!
//! # Determinism
//! A game depends only on `(seed, index, settings)`: its random plies come from its own stream, and its
//! searches are node- or depth-limited with their own table and state, never cut by time or by a stop
//! flag. Workers take game indices from a shared counter and send finished games to the calling
//! thread, which writes them in index order (holding back games that finish early). So the file is
//! the same, byte for byte, whatever the number of workers, and a run stopped and resumed with the same
//! command writes exactly the file an uninterrupted run would have.
//!
//! # Stopping
//! Raising the stop flag makes the workers take no new game; the games in progress are finished and
//! written (at 5,000 nodes per move a game takes well under a second). Every game taken is written, so
//! the file always holds games `0..n`.

use std::{
    collections::BTreeMap,
    ops::Range,
    path::Path,
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        mpsc, Arc,
    },
    thread,
    time::{Duration, Instant},
};

use crate::{
    data::{
        format::{score_to_i16, GameResult, Header, Record, RecordWriter},
        DataError,
    },
    eval::EvalParams,
    hash::{Fnv, SplitMix64},
    nnue::Network,
    search::{info::Report, limits::SearchLimits, search_thread, SearchState},
    tt::TranspositionTable,
    types::{Color, MAX_PLY},
    Position,
};

/// Nodes per move by default: about 2 ms of search per position on one core (a few hundred
/// positions per second per core), deep enough (depth 7 to 9) for scores worth learning from.
pub const DEFAULT_NODES: u64 = 5_000;
/// Random plies from each opening by default: 8 plies give millions of distinct starts from the start
/// position, few enough that most of them are still balanced games.
pub const DEFAULT_RANDOM_PLIES: u32 = 8;
/// Table size (MiB) of each worker by default: a 2 MiB table holds a game's 5,000-node searches with
/// little replacement, and clearing it before each game costs about 0.1 ms.
pub const DEFAULT_HASH_MB: usize = 2;
/// Win adjudication threshold by default (centipawns): a rook and a half ahead, a game camelpy does
/// not fail to win against itself.
pub const DEFAULT_WIN_SCORE: i32 = 1000;
/// Consecutive searches beyond the win threshold by default: two of each side's, so both agree.
pub const DEFAULT_WIN_PLIES: u32 = 4;
/// Draw adjudication threshold by default (centipawns): a tenth of a pawn, a dead-level position.
pub const DEFAULT_DRAW_SCORE: i32 = 10;
/// Consecutive level searches for a draw by default: four moves each, so a plan would have shown.
pub const DEFAULT_DRAW_PLIES: u32 = 8;
/// First ply at which a draw may be adjudicated by default: 40 moves, past the opening and the early
/// middlegame, where level scores are common and decide nothing.
pub const DEFAULT_DRAW_AFTER: u32 = 80;
/// Longest game by default (plies), then a draw: 200 moves, far beyond what adjudication lets last.
pub const DEFAULT_MAX_PLIES: u32 = 400;
/// Longest game accepted (plies): the position keeps its whole history, and no useful game is longer.
pub const MAX_GAME_PLIES: u32 = 10_000;
/// Tries at random plies that do not end the game, before the opening is used as it is.
pub const OPENING_ATTEMPTS: u32 = 64;
/// How often the progress function is called at least.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);

/// How the games are played and adjudicated (the defaults are the constants above). Everything here
/// goes into the settings digest in the file's header, so a file is only ever resumed with the
/// settings that began it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatagenSettings {
    /// Nodes per move (at least one of `nodes` and `depth` is needed).
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<i32>,
    /// Random legal plies played from the opening before the game is recorded.
    pub random_plies: u32,
    /// Opening positions (FENs, standard chess), used in turn; empty means the start position.
    pub openings: Vec<String>,
    /// Table size of each worker (MiB).
    pub hash_mb: usize,
    /// Win adjudication threshold (centipawns).
    pub win_score: i32,
    /// Consecutive searches beyond it for a win.
    pub win_plies: u32,
    /// Draw adjudication threshold (centipawns).
    pub draw_score: i32,
    /// Consecutive searches within it for a draw.
    pub draw_plies: u32,
    /// First ply at which a draw may be adjudicated.
    pub draw_after: u32,
    /// Longest game (plies), then a draw.
    pub max_plies: u32,
    /// The network evaluating in the games' searches (`None`: the classical evaluation). Its checksum
    /// goes into the digest, so a file is resumed only with the network that began it.
    pub net: Option<Arc<Network>>,
}

impl Default for DatagenSettings {
    fn default() -> DatagenSettings {
        DatagenSettings {
            nodes: Some(DEFAULT_NODES),
            depth: None,
            random_plies: DEFAULT_RANDOM_PLIES,
            openings: Vec::new(),
            hash_mb: DEFAULT_HASH_MB,
            win_score: DEFAULT_WIN_SCORE,
            win_plies: DEFAULT_WIN_PLIES,
            draw_score: DEFAULT_DRAW_SCORE,
            draw_plies: DEFAULT_DRAW_PLIES,
            draw_after: DEFAULT_DRAW_AFTER,
            max_plies: DEFAULT_MAX_PLIES,
            net: None,
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// 100 plies without a capture or a pawn move.
    FiftyMoves,
    /// The position occurred for the third time.
    Repetition,
    /// Neither side can mate.
    InsufficientMaterial,
    /// Both sides' searches agreed that one side wins.
    AdjudicatedWin,
    /// The searches agreed that the position is level.
    AdjudicatedDraw,
    /// The game reached the longest length allowed.
    MaxPlies,
}

impl GameEnd {
    /// Every end, in declaration order.
    pub const ALL: [GameEnd; 8] = [
        GameEnd::Checkmate,
        GameEnd::Stalemate,
        GameEnd::FiftyMoves,
        GameEnd::Repetition,
        GameEnd::InsufficientMaterial,
        GameEnd::AdjudicatedWin,
        GameEnd::AdjudicatedDraw,
        GameEnd::MaxPlies,
    ];
}

/// One played game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Its index in the run.
    pub index: u64,
    /// Its searched positions, in order, the result set and the last one flagged.
    pub records: Vec<Record>,
    /// Its result.
    pub result: GameResult,
    /// How it ended.
    pub end: GameEnd,
    /// The FEN it was recorded from (after the random plies).
    pub start_fen: String,
    /// Nodes its searches visited.
    pub nodes: u64,
}

/// What a run reports while it runs (on the calling thread).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DatagenProgress {
    /// Games in the file (those it held before the run included).
    pub games: u64,
    /// Positions in the file.
    pub positions: u64,
    /// Games written by this run.
    pub new_games: u64,
    /// Positions written by this run.
    pub new_positions: u64,
    /// Nodes searched by this run's written games.
    pub nodes: u64,
    /// Time since the run started.
    pub elapsed: Duration,
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatagenSummary {
    /// The file's state at the end (the last progress report).
    pub progress: DatagenProgress,
    /// Whether the stop flag ended the run before every game was played.
    pub stopped: bool,
    /// This run's games by result (indexed by [`GameResult`] as a number: Black won, draw, White won).
    pub results: [u64; 3],
    /// This run's games by how they ended (indexed as [`GameEnd::ALL`]).
    pub ends: [u64; 8],
}

/// A generator: validated settings and the opening positions they name.
#[derive(Clone)]
pub struct Datagen {
    settings: DatagenSettings,
    openings: Vec<Position>,
    digest: u64,
}

/// The game's end by the rules, if it is over.
fn end_by_rules(pos: &Position) -> Option<(GameResult, GameEnd)> {
    if !pos.has_legal_moves() {
        return Some(if pos.is_check() {
            (GameResult::win(pos.side_to_move().flip()), GameEnd::Checkmate)
        } else {
            (GameResult::Draw, GameEnd::Stalemate)
        });
    }
    if pos.is_insufficient_material() {
        return Some((GameResult::Draw, GameEnd::InsufficientMaterial));
    }
    if pos.halfmove_clock() >= 100 {
        return Some((GameResult::Draw, GameEnd::FiftyMoves));
    }
    if pos.repetition_count() >= 3 {
        return Some((GameResult::Draw, GameEnd::Repetition));
    }
    None
}

impl Datagen {
    /// Checks `settings` and parses the openings.
    ///
    /// # Errors
    /// Neither a node nor a depth limit, a value out of range (each named), `max_plies` not above
    /// `random_plies`, or an opening that is not a legal standard-chess position (Chess960 is refused)
    /// or whose game is already over.
    pub fn new(settings: DatagenSettings) -> Result<Datagen, DataError> {
        let fail = |why: String| Err(DataError::Settings(why));
        if settings.nodes.is_none() && settings.depth.is_none() {
            return fail("datagen needs a node or a depth limit per move".into());
        }
        if settings.nodes == Some(0) {
            return fail("nodes must be at least 1, got 0".into());
        }
        if let Some(depth) = settings.depth.filter(|d| !(1..MAX_PLY).contains(d)) {
            return fail(format!("depth must be between 1 and {}, got {depth}", MAX_PLY - 1));
        }
        if settings.hash_mb == 0 {
            return fail("hash_mb must be at least 1, got 0".into());
        }
        if !(1..=30_000).contains(&settings.win_score) {
            return fail(format!("win_score must be between 1 and 30000, got {}", settings.win_score));
        }
        if !(0..=30_000).contains(&settings.draw_score) {
            return fail(format!("draw_score must be between 0 and 30000, got {}", settings.draw_score));
        }
        if settings.win_plies == 0 || settings.draw_plies == 0 {
            let (name, v) = if settings.win_plies == 0 { ("win_plies", 0) } else { ("draw_plies", 0) };
            return fail(format!("{name} must be at least 1, got {v}"));
        }
        if settings.max_plies > MAX_GAME_PLIES {
            return fail(format!("max_plies must be at most {MAX_GAME_PLIES}, got {}", settings.max_plies));
        }
        if settings.max_plies <= settings.random_plies {
            return fail(format!(
                "max_plies ({}) must be more than random_plies ({}): no position would be searched",
                settings.max_plies, settings.random_plies
            ));
        }
        let mut openings = Vec::with_capacity(settings.openings.len().max(1));
        for (index, fen) in settings.openings.iter().enumerate() {
            let pos = Position::from_fen(fen, false).map_err(|e| DataError::Opening {
                index,
                reason: format!("not a standard chess position (datagen plays standard chess only): {e}"),
            })?;
            if let Some((_, end)) = end_by_rules(&pos) {
                let reason = format!("the game is already over ({end:?}) in '{}'", pos.fen());
                return Err(DataError::Opening { index, reason });
            }
            openings.push(pos);
        }
        let digest = Datagen::digest_of(&settings, &openings);
        if openings.is_empty() {
            openings.push(Position::startpos());
        }
        Ok(Datagen { settings, openings, digest })
    }

    fn digest_of(settings: &DatagenSettings, openings: &[Position]) -> u64 {
        let mut h = Fnv::new();
        h.bytes(b"camelpy datagen settings v1");
        h.u64(settings.nodes.map_or(u64::MAX, |n| n)).u64(settings.depth.map_or(u64::MAX, |d| d as u64));
        h.u64(settings.random_plies.into()).u64(settings.hash_mb as u64);
        h.u64(settings.win_score as u64).u64(settings.win_plies.into());
        h.u64(settings.draw_score as u64).u64(settings.draw_plies.into()).u64(settings.draw_after.into());
        h.u64(settings.max_plies.into()).u64(openings.len() as u64);
        for pos in openings {
            // The canonical FEN, so that spacing or a dropped en-passant square does not count.
            let fen = pos.fen();
            h.u64(fen.len() as u64).bytes(fen.as_bytes());
        }
        // Only with a network, so that the classical evaluation's files keep their digests.
        if let Some(net) = &settings.net {
            h.bytes(b"network").u64(net.hash());
        }
        h.finish()
    }

    /// The settings.
    pub fn settings(&self) -> &DatagenSettings {
        &self.settings
    }

    /// The digest of the settings, as the file's header stores it.
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// The position game `index` is recorded from, and its ply count from the opening.
    fn start(&self, seed: u64, index: u64) -> (Position, u32) {
        let base = &self.openings[(index % self.openings.len() as u64) as usize];
        let mut rng = SplitMix64::for_game(seed, index);
        for _ in 0..OPENING_ATTEMPTS {
            let mut pos = base.clone();
            let mut ok = true;
            for _ in 0..self.settings.random_plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    ok = false;
                    break;
                }
                pos.play(moves[rng.below(moves.len())]);
            }
            if ok && end_by_rules(&pos).is_none() {
                return (pos, self.settings.random_plies);
            }
        }
        (base.clone(), 0)
    }

    /// Plays game `index` of a run seeded with `seed`, with `tt` as its table (cleared first). The
    /// same arguments give the same game, whichever thread calls.
    pub fn play_game(&self, seed: u64, index: u64, tt: &mut TranspositionTable) -> Game {
        let s = &self.settings;
        let (mut pos, mut ply) = self.start(seed, index);
        let start_fen = pos.fen();
        tt.clear();
        let mut state = SearchState::new();
        state.set_network(s.net.clone());
        let limits = SearchLimits { nodes: s.nodes, depth: s.depth, ..SearchLimits::default() };
        // Never raised: a game's searches are cut only by their limits, so the game is reproducible.
        let no_stop = AtomicBool::new(false);
        let eval = &EvalParams::DEFAULT;
        let mut records = Vec::new();
        let mut nodes = 0;
        let (mut leader, mut win_run, mut draw_run) = (None::<Color>, 0u32, 0u32);
        let (result, end) = loop {
            if let Some(end) = end_by_rules(&pos) {
                break end;
            }
            if ply >= s.max_plies {
                break (GameResult::Draw, GameEnd::MaxPlies);
            }
            tt.new_search();
            let outcome =
                search_thread(&mut pos, &limits, tt, eval, &mut state, &no_stop, &mut |_: &Report| {}, None);
            nodes += outcome.nodes;
            let best = outcome.result.best_move.expect("a position with legal moves has a best move");
            let score = score_to_i16(outcome.result.info.score);
            let record = Record::from_position(&pos, score, best, GameResult::Draw, false)
                .expect("openings are standard chess (checked by Datagen::new)");
            records.push(record);

            // Adjudication, on the score seen from White.
            let white = if pos.side_to_move() == Color::White { i32::from(score) } else { -i32::from(score) };
            let ahead = if white >= s.win_score {
                Some(Color::White)
            } else if white <= -s.win_score {
                Some(Color::Black)
            } else {
                None
            };
            win_run =
                if ahead.is_some() && ahead == leader { win_run + 1 } else { u32::from(ahead.is_some()) };
            leader = ahead;
            draw_run = if ply >= s.draw_after && white.abs() <= s.draw_score { draw_run + 1 } else { 0 };
            if let (Some(winner), true) = (leader, win_run >= s.win_plies) {
                break (GameResult::win(winner), GameEnd::AdjudicatedWin);
            }
            if draw_run >= s.draw_plies {
                break (GameResult::Draw, GameEnd::AdjudicatedDraw);
            }
            pos.play(best);
            ply += 1;
        };
        for record in &mut records {
            record.result = result;
        }
        if let Some(last) = records.last_mut() {
            last.last_of_game = true;
        }
        Game { index, records, result, end, start_fen, nodes }
    }

    /// Plays games `n..games` of a run seeded with `seed` on `workers` threads and appends them to the
    /// file at `path`, where `n` is the number of whole games the file already holds (0 for a new
    /// file; see [`RecordWriter::open`] for what is checked). `progress` is called on the calling
    /// thread when the run starts, at least every [`PROGRESS_INTERVAL`] and at the end. Raising `stop`
    /// ends the run cleanly (module documentation).
    ///
    /// The workers' tables are allocated before the file is touched or any game starts.
    ///
    /// # Errors
    /// A table that cannot be allocated, or a file that cannot be opened, resumed or written (a write
    /// error stops the run; the games written before it stay).
    pub fn run(
        &self,
        path: &Path,
        seed: u64,
        games: u64,
        workers: usize,
        stop: &AtomicBool,
        mut progress: impl FnMut(&DatagenProgress),
    ) -> Result<DatagenSummary, DataError> {
        let start = Instant::now();
        let workers = (workers.max(1) as u64).min(games.max(1)) as usize;
        let mut tables = (0..workers)
            .map(|_| TranspositionTable::new(self.settings.hash_mb))
            .collect::<Result<Vec<_>, _>>()?;
        let mut writer = RecordWriter::open(path, Header { seed, settings_digest: self.digest })?;
        let (first_games, first_records) = (writer.games(), writer.records());
        tables.truncate(games.saturating_sub(first_games).min(workers as u64) as usize);
        let mut summary = DatagenSummary {
            progress: DatagenProgress {
                games: first_games,
                positions: first_records,
                new_games: 0,
                new_positions: 0,
                nodes: 0,
                elapsed: start.elapsed(),
            },
            stopped: false,
            results: [0; 3],
            ends: [0; 8],
        };
        progress(&summary.progress);
        if first_games >= games {
            return Ok(summary);
        }

        self.play_ordered(seed, first_games..games, tables, stop, |game| {
            match game {
                Some(game) => {
                    writer.write_game(&game.records)?;
                    let p = &mut summary.progress;
                    p.new_games += 1;
                    p.new_positions += game.records.len() as u64;
                    p.nodes += game.nodes;
                    summary.results[game.result as usize] += 1;
                    summary.ends[game.end as usize] += 1;
                }
                None => {
                    summary.progress.games = writer.games();
                    summary.progress.positions = writer.records();
                    summary.progress.elapsed = start.elapsed();
                    progress(&summary.progress);
                }
            }
            Ok(())
        })?;
        summary.progress.games = writer.games();
        summary.progress.positions = writer.records();
        summary.progress.elapsed = start.elapsed();
        summary.stopped = writer.games() < games;
        progress(&summary.progress);
        Ok(summary)
    }

    /// Plays games `range` of a run seeded with `seed` on `workers` threads and returns them in index
    /// order: the games [`Datagen::run`] writes at those indices, byte for byte, so that a file can be
    /// filled by shards played elsewhere (a cluster's tasks) and written in order. Raising `stop`
    /// ends it early: the games returned are then the first ones of `range`, without a gap.
    ///
    /// # Errors
    /// A table that cannot be allocated.
    pub fn play_games(
        &self,
        seed: u64,
        range: Range<u64>,
        workers: usize,
        stop: &AtomicBool,
    ) -> Result<Vec<Game>, DataError> {
        let count = range.end.saturating_sub(range.start);
        let tables = (0..(workers.max(1) as u64).min(count))
            .map(|_| TranspositionTable::new(self.settings.hash_mb))
            .collect::<Result<Vec<_>, _>>()?;
        let mut games = Vec::with_capacity(count.min(1 << 16) as usize);
        self.play_ordered(seed, range, tables, stop, |game| {
            games.extend(game);
            Ok(())
        })?;
        Ok(games)
    }

    /// Plays games `range` with one worker thread per table and hands each finished game to `sink` on
    /// the calling thread in index order (holding back games that finish early); `sink` is also
    /// called with `None` at least every [`PROGRESS_INTERVAL`]. Raising `stop` makes the workers take
    /// no new game; every game taken is still handed over, so what `sink` got is always a prefix of
    /// `range`. An error from `sink` halts the workers, and is returned once they have stopped (the
    /// games still arriving are dropped).
    fn play_ordered(
        &self,
        seed: u64,
        range: Range<u64>,
        tables: Vec<TranspositionTable>,
        stop: &AtomicBool,
        mut sink: impl FnMut(Option<Game>) -> Result<(), DataError>,
    ) -> Result<(), DataError> {
        let next = AtomicU64::new(range.start);
        // Raised by the calling thread on an error, and whenever it leaves the loop below.
        let halt = AtomicBool::new(false);
        let mut error = None;
        thread::scope(|scope| {
            let (sender, finished) = mpsc::channel::<Game>();
            for mut tt in tables {
                let (sender, next, halt, end) = (sender.clone(), &next, &halt, range.end);
                scope.spawn(move || loop {
                    if stop.load(Ordering::Relaxed) || halt.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= end {
                        break;
                    }
                    if sender.send(self.play_game(seed, index, &mut tt)).is_err() {
                        break;
                    }
                });
            }
            drop(sender);
            let _halt_workers = RaiseOnDrop(&halt);
            let mut waiting: BTreeMap<u64, Game> = BTreeMap::new();
            let mut next_to_hand = range.start;
            let mut last_tick = Instant::now();
            loop {
                let arrived =
                    match finished.recv_timeout(PROGRESS_INTERVAL.saturating_sub(last_tick.elapsed())) {
                        Ok(game) => Some(game),
                        Err(mpsc::RecvTimeoutError::Timeout) => None,
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    };
                if let Some(game) = arrived {
                    waiting.insert(game.index, game);
                    while let Some(game) = waiting.remove(&next_to_hand) {
                        next_to_hand += 1;
                        if error.is_none() {
                            if let Err(e) = sink(Some(game)) {
                                error = Some(e);
                                halt.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                }
                if last_tick.elapsed() >= PROGRESS_INTERVAL {
                    last_tick = Instant::now();
                    if error.is_none() {
                        if let Err(e) = sink(None) {
                            error = Some(e);
                            halt.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
        });
        error.map_or(Ok(()), Err)
    }
}

/// Raises a flag when dropped, so the workers stop taking games however the calling thread leaves
/// its loop (even by a panic in `progress`), and the scope that joins them cannot wait for the whole
/// run.
struct RaiseOnDrop<'a>(&'a AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Generates games `0..games` into the file at `path` (resuming it if it exists): [`Datagen::new`]
/// then [`Datagen::run`].
///
/// ```no_run
/// use std::sync::atomic::AtomicBool;
/// use camelpy_core::data::{datagen, DatagenSettings};
/// let settings = DatagenSettings { nodes: Some(5_000), ..DatagenSettings::default() };
/// let summary = datagen("games.bin".as_ref(), &settings, 1, 100, 2, &AtomicBool::new(false), |p| {
///     eprintln!("{} games, {} positions", p.games, p.positions)
/// })?;
/// assert_eq!(summary.progress.games, 100);
/// # Ok::<(), camelpy_core::data::DataError>(())
/// ```
///
/// # Errors
/// As [`Datagen::new`] and [`Datagen::run`].
pub fn datagen(
    path: &Path,
    settings: &DatagenSettings,
    seed: u64,
    games: u64,
    workers: usize,
    stop: &AtomicBool,
    progress: impl FnMut(&DatagenProgress),
) -> Result<DatagenSummary, DataError> {
    Datagen::new(settings.clone())?.run(path, seed, games, workers, stop, progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::format::{Header, RecordReader, RecordWriter};

    fn quick() -> DatagenSettings {
        DatagenSettings { nodes: Some(400), hash_mb: 1, ..DatagenSettings::default() }
    }

    /// A file in a folder of this test process's own, removed (with the folder, once empty) when
    /// dropped.
    struct Temp(std::path::PathBuf);

    impl std::ops::Deref for Temp {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl AsRef<Path> for Temp {
        fn as_ref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Temp {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
            let _ = self.0.parent().map(std::fs::remove_dir);
        }
    }

    #[test]
    fn a_network_plays_the_games_and_is_part_of_the_digest() {
        let classical = Datagen::new(quick()).unwrap();
        let net = Arc::new(Network::example(4));
        let with_net = Datagen::new(DatagenSettings { net: Some(net.clone()), ..quick() }).unwrap();
        let other_net =
            Datagen::new(DatagenSettings { net: Some(Arc::new(Network::example(5))), ..quick() }).unwrap();
        assert_ne!(classical.digest(), with_net.digest());
        assert_ne!(with_net.digest(), other_net.digest());
        // The network changes the games, and a game is still reproducible.
        let mut tt = TranspositionTable::new(1).unwrap();
        let a = with_net.play_game(9, 0, &mut tt);
        let b = with_net.play_game(9, 0, &mut tt);
        let c = classical.play_game(9, 0, &mut tt);
        assert_eq!(a.records, b.records);
        assert_ne!(a.records, c.records);
    }

    fn temp(name: &str) -> Temp {
        let dir = std::env::temp_dir().join(format!("camelpy-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        Temp(path)
    }

    #[test]
    fn a_game_is_a_function_of_seed_and_index() {
        let gen = Datagen::new(quick()).unwrap();
        let mut tt = TranspositionTable::new(1).unwrap();
        let a = gen.play_game(5, 3, &mut tt);
        let _ = gen.play_game(5, 4, &mut tt); // a different game in between: nothing carries over
        let b = gen.play_game(5, 3, &mut tt);
        assert_eq!(a, b);
        assert_ne!(gen.play_game(6, 3, &mut tt).start_fen, a.start_fen);
    }

    #[test]
    fn random_plies_are_not_kept_and_labels_are_consistent() {
        let gen = Datagen::new(quick()).unwrap();
        let mut tt = TranspositionTable::new(1).unwrap();
        for index in 0..6 {
            let game = gen.play_game(11, index, &mut tt);
            let first = game.records[0].to_fen();
            assert_eq!(first, game.start_fen, "the first record is the position after the random plies");
            let start = Position::from_fen(&game.start_fen, false).unwrap();
            assert_eq!(start.fullmove_number(), 5, "8 random plies from the start position");
            let mut pos = start;
            for (i, record) in game.records.iter().enumerate() {
                assert_eq!(record.to_fen(), pos.fen(), "game {index} record {i}");
                assert_eq!(record.result, game.result);
                assert_eq!(record.last_of_game, i + 1 == game.records.len());
                pos.play(record.best_move);
            }
            let last = game.records.last().unwrap();
            let white = if last.side_to_move == Color::White { last.score } else { -last.score };
            match game.end {
                GameEnd::AdjudicatedWin => {
                    assert_eq!(
                        game.result,
                        if white > 0 { GameResult::WhiteWins } else { GameResult::BlackWins }
                    );
                    assert!(i32::from(white).abs() >= DEFAULT_WIN_SCORE);
                }
                GameEnd::Checkmate => {
                    assert_eq!(game.result, GameResult::win(last.side_to_move), "the last mover mated");
                    assert!(pos.is_checkmate());
                }
                GameEnd::AdjudicatedDraw
                | GameEnd::Stalemate
                | GameEnd::FiftyMoves
                | GameEnd::Repetition
                | GameEnd::InsufficientMaterial
                | GameEnd::MaxPlies => assert_eq!(game.result, GameResult::Draw),
            }
        }
    }

    #[test]
    fn adjudication_thresholds_decide_the_end() {
        // A queen up: the win is adjudicated after the win plies.
        let settings = DatagenSettings {
            openings: vec!["4k3/8/8/8/8/8/3QK3/8 w - - 0 1".into()],
            random_plies: 0,
            ..quick()
        };
        let gen = Datagen::new(settings).unwrap();
        let mut tt = TranspositionTable::new(1).unwrap();
        let game = gen.play_game(1, 0, &mut tt);
        assert_eq!((game.end, game.result), (GameEnd::AdjudicatedWin, GameResult::WhiteWins));
        assert_eq!(game.records.len(), DEFAULT_WIN_PLIES as usize);
        // Bare kings and a pawn block: level, a draw adjudicated after draw_after plies.
        let settings = DatagenSettings {
            openings: vec!["4k3/8/4p3/4P3/8/8/8/4K3 w - - 0 1".into()],
            random_plies: 0,
            draw_after: 4,
            draw_plies: 3,
            draw_score: 100,
            ..quick()
        };
        let game = Datagen::new(settings).unwrap().play_game(1, 0, &mut tt);
        assert_eq!((game.end, game.result), (GameEnd::AdjudicatedDraw, GameResult::Draw));
        assert_eq!(game.records.len(), 4 + 3);
        // No adjudication reachable: the ply limit.
        let settings = DatagenSettings {
            openings: vec!["4k3/8/4p3/4P3/8/8/8/4K3 w - - 0 1".into()],
            random_plies: 0,
            max_plies: 6,
            ..quick()
        };
        let game = Datagen::new(settings).unwrap().play_game(1, 0, &mut tt);
        assert_eq!((game.end, game.records.len()), (GameEnd::MaxPlies, 6));
    }

    #[test]
    fn bad_settings_and_openings_are_refused() {
        let err = |s: DatagenSettings| Datagen::new(s).err().unwrap().to_string();
        assert!(err(DatagenSettings { nodes: None, ..quick() }).contains("node or a depth limit"));
        assert!(err(DatagenSettings { max_plies: 8, ..quick() }).contains("max_plies (8) must be more"));
        let chess960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let e = err(DatagenSettings { openings: vec![chess960.into()], ..quick() });
        assert!(e.starts_with("opening 0: not a standard chess position") && e.contains("Chess960"), "{e}");
        let e = err(DatagenSettings { openings: vec!["7k/6Q1/6K1/8/8/8/8/8 b - - 0 1".into()], ..quick() });
        assert!(e.contains("already over (Checkmate)"), "{e}");
    }

    fn file_bytes(path: &Path) -> Vec<u8> {
        std::fs::read(path).unwrap()
    }

    #[test]
    fn any_number_of_workers_writes_the_same_file() {
        let (one, two) = (temp("one.bin"), temp("two.bin"));
        let no = AtomicBool::new(false);
        let a = datagen(&one, &quick(), 3, 6, 1, &no, |_| {}).unwrap();
        let b = datagen(&two, &quick(), 3, 6, 2, &no, |_| {}).unwrap();
        assert_eq!(file_bytes(&one), file_bytes(&two));
        assert_eq!((a.progress.games, a.progress.positions), (b.progress.games, b.progress.positions));
        assert_eq!(a.results.iter().sum::<u64>(), 6);
        let records: Vec<Record> = RecordReader::open(&one).unwrap().map(Result::unwrap).collect();
        assert_eq!(records.len() as u64, a.progress.positions);
        assert_eq!(records.iter().filter(|r| r.last_of_game).count(), 6);
    }

    #[test]
    fn shards_played_apart_and_appended_in_order_give_the_same_file() {
        let (whole, sharded) = (temp("whole-shards.bin"), temp("sharded.bin"));
        let no = AtomicBool::new(false);
        datagen(&whole, &quick(), 5, 7, 2, &no, |_| {}).unwrap();
        let generator = Datagen::new(quick()).unwrap();
        let header = Header { seed: 5, settings_digest: generator.digest() };
        let mut writer = RecordWriter::open(&sharded, header).unwrap();
        for range in [0..3, 3..4, 4..7] {
            let games = generator.play_games(5, range.clone(), 2, &no).unwrap();
            assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), range.collect::<Vec<_>>());
            let bytes: Vec<u8> = games.iter().flat_map(|g| &g.records).flat_map(|r| r.pack()).collect();
            assert_eq!(writer.write_packed(&bytes).unwrap(), games.len() as u64);
        }
        drop(writer);
        assert_eq!(file_bytes(&sharded), file_bytes(&whole));

        // Bytes that are not whole games are refused, and nothing is written.
        let mut writer = RecordWriter::open(&sharded, header).unwrap();
        let game = generator.play_games(5, 7..8, 1, &no).unwrap().remove(0);
        let bytes: Vec<u8> = game.records.iter().flat_map(|r| r.pack()).collect();
        let refused =
            |bytes: &[u8], writer: &mut RecordWriter| writer.write_packed(bytes).unwrap_err().to_string();
        assert!(refused(&bytes[..bytes.len() - 32], &mut writer).contains("does not end its game"));
        assert!(refused(&bytes[..40], &mut writer).contains("40 bytes are not a whole number"));
        let mut garbled = bytes.clone();
        garbled[8] = 0x77; // piece code 7 is no piece
        assert!(refused(&garbled, &mut writer).contains("record 0"), "{}", refused(&garbled, &mut writer));
        assert_eq!(writer.games(), 7);
        drop(writer);
        assert_eq!(file_bytes(&sharded), file_bytes(&whole));
    }

    #[test]
    fn a_stopped_run_resumed_equals_an_uninterrupted_one() {
        let (whole, parts) = (temp("whole.bin"), temp("parts.bin"));
        let no = AtomicBool::new(false);
        // Stop once a game is written: the games in progress still finish and are written.
        let stop = AtomicBool::new(false);
        let first = datagen(&parts, &quick(), 9, 1000, 2, &stop, |p| {
            if p.new_games >= 1 {
                stop.store(true, Ordering::Relaxed)
            }
        })
        .unwrap();
        let done = first.progress.games;
        assert!(first.stopped && (1..1000).contains(&done), "{first:?}");
        let lasts = RecordReader::open(&parts).unwrap().filter(|r| r.as_ref().unwrap().last_of_game).count();
        assert_eq!(lasts as u64, done, "every game taken was written whole");
        datagen(&whole, &quick(), 9, done + 2, 2, &no, |_| {}).unwrap();
        // A torn write after the last whole game: the next game's first record and half its second.
        let mut bytes = file_bytes(&parts);
        let len = bytes.len();
        bytes.extend_from_slice(&file_bytes(&whole)[len..len + 48]);
        std::fs::write(&parts, &bytes).unwrap();
        let rest = datagen(&parts, &quick(), 9, done + 2, 1, &no, |_| {}).unwrap();
        assert!(!rest.stopped);
        assert_eq!(rest.progress.new_games, 2);
        assert_eq!(file_bytes(&parts), file_bytes(&whole));
        // Resuming a finished file does nothing.
        let again = datagen(&parts, &quick(), 9, done + 2, 2, &no, |_| {}).unwrap();
        assert_eq!(again.progress.new_games, 0);
    }

    #[test]
    fn resuming_with_other_settings_or_seed_is_refused() {
        let path = temp("mismatch.bin");
        let no = AtomicBool::new(false);
        datagen(&path, &quick(), 1, 1, 1, &no, |_| {}).unwrap();
        let e = datagen(&path, &quick(), 2, 2, 1, &no, |_| {}).unwrap_err().to_string();
        assert!(e.contains("generated with seed 1, not 2"), "{e}");
        let other = DatagenSettings { nodes: Some(401), ..quick() };
        let e = datagen(&path, &other, 1, 2, 1, &no, |_| {}).unwrap_err().to_string();
        assert!(e.contains("generated with other settings"), "{e}");
        std::fs::write(&path, b"not a data file at all, but long enough").unwrap();
        let e = datagen(&path, &quick(), 1, 2, 1, &no, |_| {}).unwrap_err().to_string();
        assert!(e.contains("not a camelpy data file"), "{e}");
        let e = datagen(Path::new("/nonexistent/dir/x.bin"), &quick(), 1, 1, 1, &no, |_| {}).unwrap_err();
        assert!(e.to_string().starts_with("cannot open '/nonexistent/dir/x.bin'"), "{e}");
    }
}
