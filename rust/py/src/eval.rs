//! The evaluation for a tuner (the core's `eval::linearize`): many positions made linear in the
//! weights at once, from a list of positions or straight from a `camelpy datagen` file, on several
//! threads with the GIL released, Ctrl-C through `interrupt`.

use std::{
    path::PathBuf,
    sync::atomic::{AtomicBool, Ordering},
    thread,
};

use camelpy_core::{
    data::{
        format::{score_from_i16, SCORE_CP_MAX},
        Filter, Record, RecordFilter, RecordReader,
    },
    eval::{linearize as core_linearize, EvalParams},
    Color, DataError, Position, Score,
};
use pyo3::{exceptions::PyValueError, prelude::*, types::PyBytes};

use crate::{
    args::{default_threads, opt_int_arg, position, MAX_THREADS},
    errors::data_error,
    interrupt,
};

/// Weights `params` (``(name, value)``, the rest at their defaults) as the core's table.
pub fn eval_params(params: Option<Vec<(String, i32)>>) -> PyResult<EvalParams> {
    let mut eval = EvalParams::DEFAULT;
    for (name, value) in params.unwrap_or_default() {
        eval.set(&name, value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(eval)
}

/// Every evaluation weight at its default as `(name, value, min, max)`, in table order: what a new
/// `Engine().params()` returns, without building an engine (and its table) to ask.
///
/// >>> camelpy._core.default_params() == camelpy._core.Engine().params()
/// True
#[pyfunction]
pub fn default_params() -> Vec<(&'static str, i32, i32, i32)> {
    EvalParams::DEFAULT.values().map(|(info, value)| (info.name, value, info.min, info.max)).collect()
}

/// Linearizes every item (made a position by `position`; `None` leaves a zero row) on `workers`
/// threads with the GIL released; Ctrl-C stops it and raises. Returns the values and gradient rows.
fn linearize_all<T: Sync>(
    py: Python<'_>,
    items: &[T],
    position: impl Fn(&T) -> Option<Position> + Sync,
    eval: &EvalParams,
    workers: usize,
) -> PyResult<(Vec<f64>, Vec<f32>)> {
    let width = EvalParams::all().len();
    let mut values = vec![0f64; items.len()];
    let mut gradients = vec![0f32; items.len() * width];
    let stop = AtomicBool::new(false);
    // Linearizing costs the same for every position: one contiguous share per worker.
    let share = items.len().div_ceil(workers.max(1)).max(1);
    interrupt::run_silent(py, &stop, || {
        thread::scope(|scope| {
            let parts =
                items.chunks(share).zip(values.chunks_mut(share)).zip(gradients.chunks_mut(share * width));
            for ((items, values), gradients) in parts {
                let (position, stop) = (&position, &stop);
                scope.spawn(move || {
                    let mut params = eval.clone();
                    for ((item, value), gradient) in items.iter().zip(values).zip(gradients.chunks_mut(width))
                    {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        if let Some(pos) = position(item) {
                            *value = core_linearize(&pos, &mut params, gradient);
                        }
                    }
                });
            }
        });
    })?;
    Ok((values, gradients))
}

fn f64_bytes<'py>(py: Python<'py>, values: &[f64]) -> Bound<'py, PyBytes> {
    PyBytes::new(py, &values.iter().flat_map(|v| v.to_ne_bytes()).collect::<Vec<u8>>())
}

fn f32_bytes<'py>(py: Python<'py>, values: &[f32]) -> Bound<'py, PyBytes> {
    PyBytes::new(py, &values.iter().flat_map(|v| v.to_ne_bytes()).collect::<Vec<u8>>())
}

/// For each position ``(fen, moves, chess960)``, the unrounded evaluation from White's point of view
/// at the weights *params* and its slope in every weight (``Engine.params()`` order): returns
/// ``(values, gradients)`` as bytes of native-endian ``float64`` (one per position) and ``float32``
/// (one row of ``len(params())`` per position), for ``numpy.frombuffer``. See the core's
/// ``eval::linear`` for what the slope is. *threads* workers (default: one per CPU).
///
/// >>> import struct
/// >>> values, gradients = camelpy._core.linearize([("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", [], False)])
/// >>> round(struct.unpack("d", values)[0]) > 100, len(gradients) == 4 * len(camelpy._core.Engine().params())
/// (True, True)
#[pyfunction]
#[pyo3(signature = (items, *, params=None, threads=None))]
pub fn linearize<'py>(
    py: Python<'py>,
    items: Vec<(String, Vec<String>, bool)>,
    params: Option<Vec<(String, i32)>>,
    threads: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let eval = eval_params(params)?;
    let workers = opt_int_arg(threads, "threads", 1, MAX_THREADS)?.unwrap_or_else(default_threads) as usize;
    let positions: Vec<Position> = items
        .iter()
        .map(|(fen, moves, chess960)| position(fen, moves, *chess960))
        .collect::<PyResult<_>>()?;
    let (values, gradients) = linearize_all(py, &positions, |pos| Some(pos.clone()), &eval, workers)?;
    Ok((f64_bytes(py, &values), f32_bytes(py, &gradients)))
}

/// The columns `linearize_file` returns, as bytes for ``numpy.frombuffer``.
type Columns<'py> = (Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>);

/// :func:`linearize` over the records of a ``camelpy datagen`` file, read and filtered in Rust: every
/// *every*-th record that the filters keep (``skip_in_check``, ``skip_noisy``, ``quiet_margin`` as in
/// :func:`camelpy.data.read`), at most *limit* of them. Returns ``(values, gradients, results,
/// scores)`` as bytes: ``float64`` values, ``float32`` gradient rows, ``float32`` results from
/// White's view (1, 0.5, 0) and ``float32`` search scores from White's view (NaN for a mate score).
#[pyfunction]
#[pyo3(signature = (path, *, params=None, threads=None, skip_in_check=true, skip_noisy=true, quiet_margin=None, every=None, limit=None))]
#[allow(clippy::too_many_arguments)]
pub fn linearize_file<'py>(
    py: Python<'py>,
    path: PathBuf,
    params: Option<Vec<(String, i32)>>,
    threads: Option<&Bound<'_, PyAny>>,
    skip_in_check: bool,
    skip_noisy: bool,
    quiet_margin: Option<&Bound<'_, PyAny>>,
    every: Option<&Bound<'_, PyAny>>,
    limit: Option<&Bound<'_, PyAny>>,
) -> PyResult<Columns<'py>> {
    let eval = eval_params(params)?;
    let workers = opt_int_arg(threads, "threads", 1, MAX_THREADS)?.unwrap_or_else(default_threads) as usize;
    let quiet_margin = opt_int_arg(quiet_margin, "quiet_margin", 0, SCORE_CP_MAX as u64)?.map(|m| m as i32);
    let every = opt_int_arg(every, "every", 1, u64::MAX)?.unwrap_or(1);
    let limit = opt_int_arg(limit, "limit", 1, u64::MAX)?.unwrap_or(u64::MAX);
    let filter = RecordFilter { skip_in_check, skip_noisy, quiet_margin };
    let records = py
        .detach(|| -> Result<Vec<Record>, DataError> {
            let mut reader = RecordReader::open(&path)?;
            let mut filter = Filter::new(filter);
            let mut kept = Vec::new();
            let mut seen = 0u64;
            while (kept.len() as u64) < limit {
                let index = reader.next_index();
                let Some(record) = reader.read_record()? else { break };
                let keep = filter.keep(&record).map_err(|e| DataError::BadRecord {
                    path: path.display().to_string(),
                    index,
                    reason: e.reason,
                })?;
                if keep {
                    if seen.is_multiple_of(every) {
                        kept.push(record);
                    }
                    seen += 1;
                }
            }
            Ok(kept)
        })
        .map_err(data_error)?;
    let (values, gradients) = linearize_all(py, &records, |r| r.position().ok(), &eval, workers)?;
    let results: Vec<f32> = records.iter().map(|r| r.result.white_score()).collect();
    let scores: Vec<f32> = records
        .iter()
        .map(|r| {
            let white = if r.side_to_move == Color::White { 1.0 } else { -1.0 };
            match score_from_i16(r.score) {
                Score::Cp(cp) => white * cp as f32,
                Score::Mate(_) => f32::NAN,
            }
        })
        .collect();
    Ok((f64_bytes(py, &values), f32_bytes(py, &gradients), f32_bytes(py, &results), f32_bytes(py, &scores)))
}
