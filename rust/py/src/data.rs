//! `camelpy._core.datagen`, `read_records`, `data_info`, `export_text`: the core's `data` module
//! (self-play generation and its file format). Generation runs the one way every long call does
//! (`interrupt`): with the GIL released, the progress callback on the calling thread, and Ctrl-C
//! stopping it cleanly (the games in progress are finished and written, then `KeyboardInterrupt`).

use std::{collections::BTreeMap, path::PathBuf, sync::atomic::AtomicBool};

use camelpy_core::{
    data::{
        datagen::{
            DEFAULT_DRAW_AFTER, DEFAULT_DRAW_PLIES, DEFAULT_DRAW_SCORE, DEFAULT_HASH_MB, DEFAULT_MAX_PLIES,
            DEFAULT_NODES, DEFAULT_RANDOM_PLIES, DEFAULT_WIN_PLIES, DEFAULT_WIN_SCORE, MAX_GAME_PLIES,
        },
        export_text as core_export_text,
        format::SCORE_CP_MAX,
        Datagen, DatagenProgress, DatagenSettings, Filter, GameEnd, RecordFilter, RecordReader,
    },
    types::MAX_PLY,
};
use pyo3::prelude::*;

use crate::{
    args::{check_hash, default_threads, int_arg, opt_int_arg, MAX_THREADS},
    errors::data_error,
    interrupt,
};

/// Most records one `read_records` call returns: a batch, not a file.
pub const MAX_READ_BATCH: u64 = 1 << 20;

/// The summary of a run as a tuple: games, positions (in the file), new games, new positions, nodes,
/// seconds, stopped, (Black won, draws, White won), [(end, games)].
type SummaryTuple = (u64, u64, u64, u64, u64, f64, bool, (u64, u64, u64), Vec<(String, u64)>);

/// The defaults of `datagen`'s settings, by argument name (the core's constants: the CLI's help and
/// the Python API read them from here).
pub fn defaults() -> BTreeMap<&'static str, i64> {
    BTreeMap::from([
        ("nodes", DEFAULT_NODES as i64),
        ("random_plies", DEFAULT_RANDOM_PLIES.into()),
        ("hash_mb", DEFAULT_HASH_MB as i64),
        ("win_score", DEFAULT_WIN_SCORE.into()),
        ("win_plies", DEFAULT_WIN_PLIES.into()),
        ("draw_score", DEFAULT_DRAW_SCORE.into()),
        ("draw_plies", DEFAULT_DRAW_PLIES.into()),
        ("draw_after", DEFAULT_DRAW_AFTER.into()),
        ("max_plies", DEFAULT_MAX_PLIES.into()),
        ("max_game_plies", MAX_GAME_PLIES.into()),
    ])
}

/// A record as `read_records` returns it: FEN, score, best move (UCI), result (White's view).
type RecordTuple = (String, i16, String, f32);

/// An optional integer argument in `min..=max`, or `default`.
fn setting(value: Option<&Bound<'_, PyAny>>, name: &str, min: u64, max: u64, default: u64) -> PyResult<u64> {
    Ok(opt_int_arg(value, name, min, max)?.unwrap_or(default))
}

/// Plays self-play games ``0..games`` into the data file at *path* (created, or resumed after its
/// last whole game; a resume must use the same seed and settings) on *workers* threads (default:
/// one per CPU). Each move is searched to *nodes* (default 5,000 unless *depth* is given) and/or
/// *depth*; games start from *openings* (FENs, in turn; default the start position) plus
/// *random_plies* random moves; *eval_file* is a network file to evaluate with instead of the classical
/// evaluation. *progress(games, positions, seconds)* is called on this thread when
/// the run starts, about every 0.25 s and at the end. Returns a summary tuple (``camelpy.data``
/// wraps it). Ctrl-C finishes and writes the games in progress, then raises ``KeyboardInterrupt``.
#[pyfunction]
#[pyo3(signature = (
    path, *, games, seed=None, workers=None, nodes=None, depth=None, random_plies=None, openings=None,
    hash_mb=None, win_score=None, win_plies=None, draw_score=None, draw_plies=None, draw_after=None,
    max_plies=None, eval_file=None, progress=None
))]
#[allow(clippy::too_many_arguments)]
pub fn datagen(
    py: Python<'_>,
    path: PathBuf,
    games: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    workers: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    depth: Option<&Bound<'_, PyAny>>,
    random_plies: Option<&Bound<'_, PyAny>>,
    openings: Option<Vec<String>>,
    hash_mb: Option<&Bound<'_, PyAny>>,
    win_score: Option<&Bound<'_, PyAny>>,
    win_plies: Option<&Bound<'_, PyAny>>,
    draw_score: Option<&Bound<'_, PyAny>>,
    draw_plies: Option<&Bound<'_, PyAny>>,
    draw_after: Option<&Bound<'_, PyAny>>,
    max_plies: Option<&Bound<'_, PyAny>>,
    eval_file: Option<String>,
    progress: Option<Py<PyAny>>,
) -> PyResult<SummaryTuple> {
    let plies = u64::from(MAX_GAME_PLIES);
    let cp = SCORE_CP_MAX as u64;
    let games = int_arg(games, "games", 0, u64::MAX)?;
    let seed = setting(seed, "seed", 0, u64::MAX, 0)?;
    let workers = setting(workers, "workers", 1, MAX_THREADS, default_threads())?;
    let depth = opt_int_arg(depth, "depth", 1, (MAX_PLY - 1) as u64)?.map(|d| d as i32);
    let nodes = match opt_int_arg(nodes, "nodes", 1, u64::MAX)? {
        None if depth.is_none() => Some(DEFAULT_NODES),
        n => n,
    };
    // Every worker allocates its own table: all of them must fit.
    let tables = workers.min(games.max(1));
    let hash_mb = match hash_mb {
        Some(v) if !v.is_none() => check_hash(v, "hash_mb", tables)?,
        _ => DEFAULT_HASH_MB,
    };
    let settings = DatagenSettings {
        nodes,
        depth,
        random_plies: setting(random_plies, "random_plies", 0, plies, DEFAULT_RANDOM_PLIES.into())? as u32,
        openings: openings.unwrap_or_default(),
        hash_mb,
        win_score: setting(win_score, "win_score", 1, cp, DEFAULT_WIN_SCORE as u64)? as i32,
        win_plies: setting(win_plies, "win_plies", 1, plies, DEFAULT_WIN_PLIES.into())? as u32,
        draw_score: setting(draw_score, "draw_score", 0, cp, DEFAULT_DRAW_SCORE as u64)? as i32,
        draw_plies: setting(draw_plies, "draw_plies", 1, plies, DEFAULT_DRAW_PLIES.into())? as u32,
        draw_after: setting(draw_after, "draw_after", 0, plies, DEFAULT_DRAW_AFTER.into())? as u32,
        max_plies: setting(max_plies, "max_plies", 1, plies, DEFAULT_MAX_PLIES.into())? as u32,
        net: match eval_file {
            Some(path) => Some(crate::search::load_network(py, &path)?),
            None => None,
        },
    };
    let generator = Datagen::new(settings).map_err(data_error)?;
    let stop = AtomicBool::new(false);
    let summary = interrupt::run(
        py,
        &stop,
        |outbox| generator.run(&path, seed, games, workers as usize, &stop, |p| outbox.send(*p)),
        |py, p: DatagenProgress| match &progress {
            Some(callback) => callback.call1(py, (p.games, p.positions, p.elapsed.as_secs_f64())).map(drop),
            None => Ok(()),
        },
    )?
    .map_err(data_error)?;
    let p = summary.progress;
    let [black, draws, white] = summary.results;
    let ends = GameEnd::ALL.iter().zip(summary.ends).map(|(end, n)| (format!("{end:?}"), n)).collect();
    Ok((
        p.games,
        p.positions,
        p.new_games,
        p.new_positions,
        p.nodes,
        p.elapsed.as_secs_f64(),
        summary.stopped,
        (black, draws, white),
        ends,
    ))
}

/// Records ``start .. start + count`` of the data file at *path*, filtered: returns the kept ones as
/// ``(fen, score, best_move_uci, result)`` tuples (score from the side to move's view, result 1.0, 0.5
/// or 0.0 from White's) and how many records were read (fewer than *count* at the end of the file).
/// *skip_in_check*, *skip_noisy* (best move a capture or promotion) and *quiet_margin* (static eval
/// farther than this from the quiescence score) drop positions for tuning.
#[pyfunction]
#[pyo3(signature = (path, start, count, *, skip_in_check=false, skip_noisy=false, quiet_margin=None))]
pub fn read_records(
    py: Python<'_>,
    path: PathBuf,
    start: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
    skip_in_check: bool,
    skip_noisy: bool,
    quiet_margin: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Vec<RecordTuple>, u64)> {
    let start = int_arg(start, "start", 0, u64::MAX)?;
    let count = int_arg(count, "count", 1, MAX_READ_BATCH)?;
    let quiet_margin = opt_int_arg(quiet_margin, "quiet_margin", 0, SCORE_CP_MAX as u64)?.map(|m| m as i32);
    let filter = RecordFilter { skip_in_check, skip_noisy, quiet_margin };
    py.detach(|| {
        let mut reader = RecordReader::open(&path)?;
        reader.seek(start)?;
        let mut filter = Filter::new(filter);
        let mut kept = Vec::new();
        let mut read = 0;
        while read < count {
            let index = reader.next_index();
            let Some(record) = reader.read_record()? else { break };
            read += 1;
            let keep = filter.keep(&record).map_err(|e| camelpy_core::DataError::BadRecord {
                path: path.display().to_string(),
                index,
                reason: e.reason,
            })?;
            if keep {
                let result = record.result.white_score();
                kept.push((record.to_fen(), record.score, record.best_move_uci(), result));
            }
        }
        Ok((kept, read))
    })
    .map_err(data_error)
}

/// The header and size of the data file at *path*: ``(seed, settings_digest, records)``.
#[pyfunction]
pub fn data_info(py: Python<'_>, path: PathBuf) -> PyResult<(u64, u64, u64)> {
    let info = py.detach(|| camelpy_core::data::data_info(&path)).map_err(data_error)?;
    Ok((info.header.seed, info.header.settings_digest, info.records))
}

/// Writes the text export of the data file at *path* to *out*: one ``FEN | score | result`` line per
/// record. Returns the number of lines; Ctrl-C stops it.
#[pyfunction]
pub fn export_text(py: Python<'_>, path: PathBuf, out: PathBuf) -> PyResult<u64> {
    let stop = AtomicBool::new(false);
    interrupt::run_silent(py, &stop, || core_export_text(&path, &out, &stop))?.map_err(data_error)
}
