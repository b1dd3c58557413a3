//! `camelpy._core.datagen`, `datagen_games`, `DataWriter`, `read_records`, `data_info`, `export_text`:
//! the core's `data` module (self-play generation, in one call or in shards, and its file format). Generation runs the one way every long call does
//! (`interrupt`): with the GIL released, the progress callback on the calling thread, and Ctrl-C
//! stopping it cleanly (the games in progress are finished and written, then `KeyboardInterrupt`).

use std::{
    collections::BTreeMap,
    path::PathBuf,
    sync::{atomic::AtomicBool, Mutex},
};

use camelpy_core::{
    data::{
        datagen::{
            DEFAULT_DRAW_AFTER, DEFAULT_DRAW_PLIES, DEFAULT_DRAW_SCORE, DEFAULT_HASH_MB, DEFAULT_MAX_PLIES,
            DEFAULT_NODES, DEFAULT_RANDOM_PLIES, DEFAULT_WIN_PLIES, DEFAULT_WIN_SCORE, MAX_GAME_PLIES,
        },
        export_text as core_export_text,
        format::SCORE_CP_MAX,
        Datagen, DatagenProgress, DatagenSettings, Filter, GameEnd, Header, RecordFilter, RecordReader,
        RecordWriter, RECORD_SIZE,
    },
    types::MAX_PLY,
};
use pyo3::{
    exceptions::PyTypeError,
    prelude::*,
    types::{PyBytes, PyDict},
};

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

/// The generation settings, as keyword arguments (``nodes``, ``depth``, ``random_plies``, ``openings``,
/// ``hash_mb``, ``win_score``, ``win_plies``, ``draw_score``, ``draw_plies``, ``draw_after``,
/// ``max_plies``, ``eval_file``; ``None`` or absent: the default), checked and turned into the core's
/// [`DatagenSettings`]. *tables* is how many worker tables will be allocated at once (the hash size is
/// checked against memory for all of them).
fn settings(py: Python<'_>, kwargs: Option<&Bound<'_, PyDict>>, tables: u64) -> PyResult<DatagenSettings> {
    const NAMES: [&str; 12] = [
        "nodes",
        "depth",
        "random_plies",
        "openings",
        "hash_mb",
        "win_score",
        "win_plies",
        "draw_score",
        "draw_plies",
        "draw_after",
        "max_plies",
        "eval_file",
    ];
    let mut given: BTreeMap<String, Bound<'_, PyAny>> = BTreeMap::new();
    if let Some(kwargs) = kwargs {
        for (key, value) in kwargs.iter() {
            let key: String = key.extract()?;
            if !NAMES.contains(&key.as_str()) {
                let msg =
                    format!("unexpected generation setting {key:?}; expected one of {}", NAMES.join(", "));
                return Err(PyTypeError::new_err(msg));
            }
            if !value.is_none() {
                given.insert(key, value);
            }
        }
    }
    let get = |name: &str| given.get(name);
    let plies = u64::from(MAX_GAME_PLIES);
    let cp = SCORE_CP_MAX as u64;
    let depth = opt_int_arg(get("depth"), "depth", 1, (MAX_PLY - 1) as u64)?.map(|d| d as i32);
    let nodes = match opt_int_arg(get("nodes"), "nodes", 1, u64::MAX)? {
        None if depth.is_none() => Some(DEFAULT_NODES),
        n => n,
    };
    let hash_mb = match get("hash_mb") {
        Some(v) => check_hash(v, "hash_mb", tables)?,
        None => DEFAULT_HASH_MB,
    };
    Ok(DatagenSettings {
        nodes,
        depth,
        random_plies: setting(get("random_plies"), "random_plies", 0, plies, DEFAULT_RANDOM_PLIES.into())?
            as u32,
        openings: get("openings").map(|o| o.extract::<Vec<String>>()).transpose()?.unwrap_or_default(),
        hash_mb,
        win_score: setting(get("win_score"), "win_score", 1, cp, DEFAULT_WIN_SCORE as u64)? as i32,
        win_plies: setting(get("win_plies"), "win_plies", 1, plies, DEFAULT_WIN_PLIES.into())? as u32,
        draw_score: setting(get("draw_score"), "draw_score", 0, cp, DEFAULT_DRAW_SCORE as u64)? as i32,
        draw_plies: setting(get("draw_plies"), "draw_plies", 1, plies, DEFAULT_DRAW_PLIES.into())? as u32,
        draw_after: setting(get("draw_after"), "draw_after", 0, plies, DEFAULT_DRAW_AFTER.into())? as u32,
        max_plies: setting(get("max_plies"), "max_plies", 1, plies, DEFAULT_MAX_PLIES.into())? as u32,
        net: match get("eval_file") {
            Some(path) => Some(crate::search::load_network(py, &path.extract::<String>()?)?),
            None => None,
        },
    })
}

/// Plays self-play games ``0..games`` into the data file at *path* (created, or resumed after its
/// last whole game; a resume must use the same seed and settings) on *workers* threads (default:
/// one per CPU). The generation settings are keywords (see [`settings`]): each move is searched to
/// *nodes* (default 5,000 unless *depth* is given) and/or *depth*; games start from *openings* (FENs,
/// in turn; default the start position) plus *random_plies* random moves; *eval_file* is a network file
/// to evaluate with instead of the classical evaluation. *progress(games, positions, seconds)* is
/// called on this thread when the run starts, about every 0.25 s and at the end. Returns a summary
/// tuple (``camelpy.data`` wraps it). Ctrl-C finishes and writes the games in progress, then raises
/// ``KeyboardInterrupt``.
#[pyfunction]
#[pyo3(signature = (path, *, games, seed=None, workers=None, progress=None, **kwargs))]
pub fn datagen(
    py: Python<'_>,
    path: PathBuf,
    games: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    workers: Option<&Bound<'_, PyAny>>,
    progress: Option<Py<PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<SummaryTuple> {
    let games = int_arg(games, "games", 0, u64::MAX)?;
    let seed = setting(seed, "seed", 0, u64::MAX, 0)?;
    let workers = setting(workers, "workers", 1, MAX_THREADS, default_threads())?;
    // Every worker allocates its own table: all of them must fit.
    let generator = Datagen::new(settings(py, kwargs, workers.min(games.max(1)))?).map_err(data_error)?;
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
    Ok((
        p.games,
        p.positions,
        p.new_games,
        p.new_positions,
        p.nodes,
        p.elapsed.as_secs_f64(),
        summary.stopped,
        (black, draws, white),
        ends(&summary.ends),
    ))
}

/// Games by how they ended, as ``[(end name, games)]`` in [`GameEnd::ALL`]'s order.
fn ends(counts: &[u64; 8]) -> Vec<(String, u64)> {
    GameEnd::ALL.iter().zip(counts).map(|(end, &n)| (format!("{end:?}"), n)).collect()
}

/// What a shard of games played by [`datagen_games`] holds: its games' packed records (whole games in
/// index order, as a data file stores them), its nodes, its results (Black won, draws, White won) and
/// its games by how they ended.
type ShardTuple = (Py<PyBytes>, u64, (u64, u64, u64), Vec<(String, u64)>);

/// Plays games ``first .. first + count`` of a run seeded with *seed* (the games ``datagen`` writes at
/// those indices, byte for byte) on *workers* threads (default 1) and returns them as a shard tuple,
/// for a cluster's task: the caller appends the shards in order with a [`DataWriter`]. The generation
/// settings are keywords, as for ``datagen``. Ctrl-C stops it (``KeyboardInterrupt``).
#[pyfunction]
#[pyo3(signature = (*, first, count, seed=None, workers=None, **kwargs))]
pub fn datagen_games(
    py: Python<'_>,
    first: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    workers: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<ShardTuple> {
    let first = int_arg(first, "first", 0, u64::MAX)?;
    let count = int_arg(count, "count", 0, u64::MAX - first)?;
    let seed = setting(seed, "seed", 0, u64::MAX, 0)?;
    let workers = setting(workers, "workers", 1, MAX_THREADS, 1)?;
    let generator = Datagen::new(settings(py, kwargs, workers.min(count.max(1)))?).map_err(data_error)?;
    let stop = AtomicBool::new(false);
    let games = interrupt::run_silent(py, &stop, || {
        generator.play_games(seed, first..first + count, workers as usize, &stop)
    })?
    .map_err(data_error)?;
    let mut bytes = Vec::with_capacity(games.iter().map(|g| g.records.len() * RECORD_SIZE).sum());
    let (mut nodes, mut results, mut by_end) = (0, [0u64; 3], [0u64; 8]);
    for game in &games {
        bytes.extend(game.records.iter().flat_map(|r| r.pack()));
        nodes += game.nodes;
        results[game.result as usize] += 1;
        by_end[game.end as usize] += 1;
    }
    let [black, draws, white] = results;
    Ok((PyBytes::new(py, &bytes).unbind(), nodes, (black, draws, white), ends(&by_end)))
}

/// A data file opened for appending whole games played elsewhere (``datagen_games`` shards), created or
/// resumed as ``datagen`` does: the header's seed and settings digest are those of *seed* and the
/// generation settings (keywords, as for ``datagen``), and a file begun with others is refused.
#[pyclass(module = "camelpy._core", name = "DataWriter", frozen)]
pub struct DataWriter {
    writer: Mutex<RecordWriter>,
}

#[pymethods]
impl DataWriter {
    #[new]
    #[pyo3(signature = (path, *, seed=None, **kwargs))]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        seed: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<DataWriter> {
        let seed = setting(seed, "seed", 0, u64::MAX, 0)?;
        let generator = Datagen::new(settings(py, kwargs, 0)?).map_err(data_error)?;
        let header = Header { seed, settings_digest: generator.digest() };
        let writer = py.detach(|| RecordWriter::open(&path, header)).map_err(data_error)?;
        Ok(DataWriter { writer: Mutex::new(writer) })
    }

    /// Whole games in the file.
    #[getter]
    fn games(&self) -> u64 {
        self.lock().games()
    }

    /// Positions in the file.
    #[getter]
    fn records(&self) -> u64 {
        self.lock().records()
    }

    /// Appends whole games given as packed records (a ``datagen_games`` shard); returns how many games
    /// they were. Bytes that are not whole games are refused and nothing is written.
    fn write(&self, py: Python<'_>, data: &[u8]) -> PyResult<u64> {
        py.detach(|| self.lock().write_packed(data)).map_err(data_error)
    }
}

impl DataWriter {
    fn lock(&self) -> std::sync::MutexGuard<'_, RecordWriter> {
        // A panic while writing leaves a writer whose counts are still those of the whole games on disk.
        self.writer.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
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
