//! The evaluation for a tuner (the core's `eval::linearize`): many positions made linear in the
//! weights at once, on several threads with the GIL released, Ctrl-C through `interrupt`.

use std::{
    sync::atomic::{AtomicBool, Ordering},
    thread,
};

use camelpy_core::{
    eval::{linearize as core_linearize, EvalParams},
    Position,
};
use pyo3::{exceptions::PyValueError, prelude::*, types::PyBytes};

use crate::{
    args::{default_threads, opt_int_arg, MAX_THREADS},
    interrupt,
    search::position,
};

/// Weights `params` (``(name, value)``, the rest at their defaults) as the core's table.
pub fn eval_params(params: Option<Vec<(String, i32)>>) -> PyResult<EvalParams> {
    let mut eval = EvalParams::DEFAULT;
    for (name, value) in params.unwrap_or_default() {
        eval.set(&name, value).map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(eval)
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
    let width = EvalParams::all().len();
    let mut values = vec![0f64; positions.len()];
    let mut gradients = vec![0f32; positions.len() * width];
    let stop = AtomicBool::new(false);
    // Linearizing costs the same for every position: one contiguous share per worker.
    let share = positions.len().div_ceil(workers.max(1)).max(1);
    interrupt::run_silent(py, &stop, || {
        thread::scope(|scope| {
            let parts = positions
                .chunks(share)
                .zip(values.chunks_mut(share))
                .zip(gradients.chunks_mut(share * width));
            for ((positions, values), gradients) in parts {
                let (eval, stop) = (&eval, &stop);
                scope.spawn(move || {
                    let mut params = eval.clone();
                    for ((pos, value), gradient) in
                        positions.iter().zip(values).zip(gradients.chunks_mut(width))
                    {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        *value = core_linearize(pos, &mut params, gradient);
                    }
                });
            }
        });
    })?;
    let as_bytes = |floats: Vec<u8>| PyBytes::new(py, &floats);
    Ok((
        as_bytes(values.iter().flat_map(|v| v.to_ne_bytes()).collect()),
        as_bytes(gradients.iter().flat_map(|g| g.to_ne_bytes()).collect()),
    ))
}
