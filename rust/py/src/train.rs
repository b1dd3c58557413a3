//! `camelpy._core.train`: the network trainer (`camelpy-train`) with the GIL released, its events
//! handed to a Python callback on the calling thread, Ctrl-C stopping it with a checkpoint written.

use std::{
    path::PathBuf,
    sync::atomic::{AtomicBool, Ordering},
};

use camelpy_core::nnue::{Arch, Hidden, InputBuckets, OutputBuckets};
use camelpy_train::{
    evaluation_loss as measure, load, train_from as run_train, Event, LoadSettings, MeasureSettings,
    TrainError, TrainSettings,
};
use pyo3::{
    exceptions::{PyMemoryError, PyValueError},
    prelude::*,
};

use crate::{
    args::{int_arg, opt_int_arg, MAX_THREADS},
    errors::{data_error, net_error},
    interrupt,
    search::load_network,
};

/// A trainer error as the Python exception of its kind: data files as `camelpy.datagen` reports
/// them, a bad setting or checkpoint as `ValueError`, files the system refuses as `OSError`.
fn train_error(e: TrainError) -> PyErr {
    match e {
        TrainError::Data(e) => data_error(e),
        TrainError::Net(e) => net_error(e),
        TrainError::Alloc(_) => PyMemoryError::new_err(e.to_string()),
        TrainError::Io { .. } => pyo3::exceptions::PyOSError::new_err(e.to_string()),
        TrainError::Settings(_) | TrainError::Checkpoint { .. } => PyValueError::new_err(e.to_string()),
    }
}

/// The network shape of *hidden* neurons, *output_buckets* outputs and *input_buckets* input sets, or
/// `ValueError` quoting them.
fn arch(hidden: u64, output_buckets: u64, input_buckets: u64) -> PyResult<Arch> {
    let sizes = Hidden::ALL.map(|h| h.size().to_string()).join(", ");
    let hidden = Hidden::from_size(hidden)
        .ok_or_else(|| PyValueError::new_err(format!("hidden must be one of {sizes}, not {hidden}")))?;
    let output_buckets = OutputBuckets::from_count(output_buckets).ok_or_else(|| {
        PyValueError::new_err(format!(
            "output_buckets must be 1 or {}, not {output_buckets}",
            OutputBuckets::Material.count()
        ))
    })?;
    let input_buckets = InputBuckets::from_count(input_buckets).ok_or_else(|| {
        PyValueError::new_err(format!(
            "input_buckets must be 1 or {}, not {input_buckets}",
            InputBuckets::King4.count()
        ))
    })?;
    Ok(Arch { hidden, output_buckets, input_buckets })
}

/// The shape and checksum of the network in the file *path* (or the built-in network by its name):
/// ``(hidden, output_buckets, input_buckets, hash, description, qb)``.
#[pyfunction]
pub fn network_info(py: Python<'_>, path: &str) -> PyResult<(usize, usize, usize, u64, String, i32)> {
    let net = load_network(py, path)?;
    let arch = net.arch();
    Ok((
        arch.hidden.size(),
        arch.output_buckets.count(),
        arch.input_buckets.count(),
        net.hash(),
        arch.to_string(),
        net.qb(),
    ))
}

/// One finished epoch: `(epoch, train_loss, valid_loss, lr, seconds)`.
type EpochTuple = (u32, f64, f64, f32, f64);
/// What was read of one data file: `(records, whole_games, mid_game)` (`camelpy_train::FileRead`).
type FileTuple = (u64, u64, bool);
/// `train`'s result: `(epochs, stopped, net_hash, train_positions, valid_positions, files)`.
type TrainTuple = (Vec<EpochTuple>, bool, u64, usize, usize, Vec<FileTuple>);

/// Trains the network on the data files *paths* into the folder *out_dir* (see ``camelpy.train``,
/// which checks the arguments and wraps this), its weights starting from the network *init* (a file or
/// a built-in name) when given. *progress(kind, values)* is called on this thread with
/// ``("loaded", (read, games, train, valid))`` once, then ``("batch", (epoch, batch, batches, loss,
/// positions_per_s))`` and ``("epoch", (epoch, train, valid, lr, seconds))``. Returns ``(epochs,
/// stopped, net_hash, train_positions, valid_positions, files)``, *files* one ``(records,
/// whole_games, mid_game)`` per data file read, in order. Ctrl-C writes a checkpoint, then raises
/// ``KeyboardInterrupt``.
#[pyfunction]
#[pyo3(signature = (
    paths, out_dir, *, epochs, batch_size, lr, final_lr_share, wdl, threads, seed, valid_permille,
    skip_in_check, skip_noisy, max_score, max_positions=None, resume=false, progress=None, mirror=true,
    hidden=256, output_buckets=1, input_buckets=1, init=None
))]
#[allow(clippy::too_many_arguments)]
pub fn train(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    out_dir: PathBuf,
    epochs: &Bound<'_, PyAny>,
    batch_size: &Bound<'_, PyAny>,
    lr: f64,
    final_lr_share: f64,
    wdl: f64,
    threads: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    valid_permille: &Bound<'_, PyAny>,
    skip_in_check: bool,
    skip_noisy: bool,
    max_score: &Bound<'_, PyAny>,
    max_positions: Option<&Bound<'_, PyAny>>,
    resume: bool,
    progress: Option<Py<PyAny>>,
    mirror: bool,
    hidden: u64,
    output_buckets: u64,
    input_buckets: u64,
    init: Option<String>,
) -> PyResult<TrainTuple> {
    let arch = arch(hidden, output_buckets, input_buckets)?;
    let init = init.map(|f| load_network(py, &f)).transpose()?;
    let settings = TrainSettings {
        epochs: int_arg(epochs, "epochs", 1, u32::MAX as u64)? as u32,
        batch_size: int_arg(batch_size, "batch_size", 1, 1 << 24)? as usize,
        lr: lr as f32,
        final_lr_share: final_lr_share as f32,
        wdl: wdl as f32,
        threads: int_arg(threads, "threads", 1, MAX_THREADS)? as usize,
        seed: int_arg(seed, "seed", 0, u64::MAX)?,
        mirror,
        arch,
    };
    let load_settings = LoadSettings {
        skip_in_check,
        skip_noisy,
        max_score: int_arg(max_score, "max_score", 1, camelpy_core::data::format::SCORE_CP_MAX as u64)?
            as i16,
        valid_permille: int_arg(valid_permille, "valid_permille", 0, 999)? as u32,
        seed: settings.seed,
        max_positions: opt_int_arg(max_positions, "max_positions", 1, u64::MAX)?,
    };
    enum Message {
        Loaded(u64, u64, usize, usize),
        Event(Event),
    }
    let stop = AtomicBool::new(false);
    let result = interrupt::run(
        py,
        &stop,
        |outbox| {
            let data = load(&paths, &load_settings, &stop)?;
            outbox.send(Message::Loaded(data.read, data.games, data.train.len(), data.valid.len()));
            if stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            let summary = run_train(
                &data,
                &settings,
                init.as_deref(),
                &out_dir,
                resume,
                &mut |e| outbox.send(Message::Event(e.clone())),
                &stop,
            )?;
            let files =
                data.files.iter().map(|f| (f.records, f.games, f.mid_game)).collect::<Vec<FileTuple>>();
            Ok(Some((summary, data.train.len(), data.valid.len(), files)))
        },
        |py, message: Message| {
            let Some(callback) = &progress else { return Ok(()) };
            match message {
                Message::Loaded(read, games, train, valid) => {
                    callback.call1(py, ("loaded", (read, games, train, valid))).map(drop)
                }
                Message::Event(Event::Progress { epoch, batch, batches, loss, positions_per_s }) => {
                    callback.call1(py, ("batch", (epoch, batch, batches, loss, positions_per_s))).map(drop)
                }
                Message::Event(Event::Epoch(e)) => {
                    callback.call1(py, ("epoch", (e.epoch, e.train, e.valid, e.lr, e.seconds))).map(drop)
                }
            }
        },
    )?
    .map_err(train_error)?;
    match result {
        None => Ok((Vec::new(), true, 0, 0, 0, Vec::new())),
        Some((summary, train, valid, files)) => {
            let epochs =
                summary.epochs.iter().map(|e| (e.epoch, e.train, e.valid, e.lr, e.seconds)).collect();
            Ok((epochs, summary.stopped, summary.net_hash, train, valid, files))
        }
    }
}

/// The mean squared error of the network in the file *eval_file* as the engine runs it (or of the
/// classical evaluation, ``None``) against the trainer's targets on the positions of the data file
/// *path* from record *start* on, filtered as the trainer filters (see
/// ``camelpy.nnue.evaluation_loss``, which checks the arguments and wraps this). Returns ``(loss,
/// positions)``. Ctrl-C stops it and raises ``KeyboardInterrupt``.
#[pyfunction]
#[pyo3(signature = (path, eval_file=None, *, start, count, wdl, scale, max_score))]
#[allow(clippy::too_many_arguments)]
pub fn evaluation_loss(
    py: Python<'_>,
    path: PathBuf,
    eval_file: Option<String>,
    start: &Bound<'_, PyAny>,
    count: &Bound<'_, PyAny>,
    wdl: f64,
    scale: f64,
    max_score: &Bound<'_, PyAny>,
) -> PyResult<(f64, u64)> {
    let settings = MeasureSettings {
        start: int_arg(start, "start", 0, u64::MAX)?,
        count: int_arg(count, "count", 1, u64::MAX)?,
        wdl: wdl as f32,
        scale,
        max_score: int_arg(max_score, "max_score", 1, camelpy_core::data::format::SCORE_CP_MAX as u64)?
            as i16,
        ..MeasureSettings::default()
    };
    let net = eval_file.map(|f| load_network(py, &f)).transpose()?;
    let stop = AtomicBool::new(false);
    let m = interrupt::run(
        py,
        &stop,
        |_: &interrupt::Outbox<()>| measure(&path, net.as_deref(), &settings, &stop),
        |_, ()| Ok(()),
    )?
    .map_err(train_error)?;
    Ok((m.loss, m.positions))
}
