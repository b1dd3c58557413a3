//! Numeric arguments from Python, checked in one place: every limit the bindings accept is a constant
//! here (exported to Python by `lib.rs`, so the UCI options and the Python API read the same numbers),
//! and every integer argument goes through [`int_arg`], so a negative, zero, huge or non-integer value
//! gets the same kind of error everywhere: `TypeError` for something that is not an integer,
//! `ValueError` naming the argument, its range and the value for an integer out of range (never
//! `OverflowError`, never a panic).

use std::time::Duration;

use camelpy_core::{search::limits::SearchLimits, Position};
use pyo3::{
    exceptions::{PyTypeError, PyValueError},
    prelude::*,
    types::PyBool,
};

use crate::errors::{fen_error, move_error};

/// Largest hash table accepted (MiB): 1 TiB, beyond any machine here; the table is also refused when
/// it exceeds the machine's available memory (see [`check_hash`]).
pub const MAX_HASH_MB: u64 = 1 << 20;
/// Default hash table of an engine (MiB), as Stockfish's.
pub const DEFAULT_HASH_MB: u64 = 16;
/// Most search threads accepted (UCI `Threads` maximum), as Stockfish's ceiling for ordinary machines.
pub const MAX_THREADS: u64 = 256;
/// Most MultiPV lines: more than any position's number of legal moves (at most 218).
pub const MAX_MULTIPV: u64 = 256;
/// Default table size (MiB) of each batch worker: a 2 MiB table (131,072 entries) holds a search of
/// ~100k nodes with little replacement, and clearing it before every position costs ~0.1 ms.
pub const BATCH_HASH_MB: u64 = 2;
/// Deepest search depth or mate distance accepted: the core's `i32`; any depth beyond the core's
/// maximum ply simply searches until another limit or the maximum ply ends it.
pub const MAX_SEARCH_DEPTH: u64 = i32::MAX as u64;
/// Deepest bench accepted (the bench is 44 positions; depth 64 would never finish anyway).
pub const MAX_BENCH_DEPTH: u64 = 64;
/// Deepest perft accepted; depth 15 from the start position is about 2e21 leaves, far beyond any run.
pub const MAX_PERFT_DEPTH: u64 = 15;

/// Longest time limit accepted, in seconds (a year: anything longer is a mistake, and
/// `Duration::from_secs_f64` must never see a value it cannot hold).
pub const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// `seconds` as a duration, for the argument called `name`: finite, at least 0, at most a year.
pub fn seconds_arg(seconds: Option<f64>, name: &str) -> PyResult<Option<Duration>> {
    match seconds {
        None => Ok(None),
        Some(s) if s.is_finite() && (0.0..=MAX_SECONDS).contains(&s) => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(PyValueError::new_err(format!(
            "{name} must be a number of seconds between 0 and {MAX_SECONDS}, got {s}"
        ))),
    }
}

/// The depth, node and mate limits of a search (each optional), checked by [`int_arg`]'s rule.
pub fn search_limits(
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    mate: Option<&Bound<'_, PyAny>>,
) -> PyResult<SearchLimits> {
    Ok(SearchLimits {
        depth: opt_int_arg(depth, "depth", 1, MAX_SEARCH_DEPTH)?.map(|d| d as i32),
        nodes: opt_int_arg(nodes, "nodes", 1, u64::MAX)?,
        mate: opt_int_arg(mate, "mate", 1, MAX_SEARCH_DEPTH)?.map(|m| m as i32),
        ..SearchLimits::default()
    })
}

/// The number of threads a batch uses by default: one per CPU this process may run on.
pub fn default_threads() -> u64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u64).min(MAX_THREADS)
}

/// `value` as an integer in `min..=max`, for the argument called `name`.
///
/// Anything with `__index__` (a Python `int`, a NumPy integer) is an integer; `bool` is refused (a
/// `True` where a count is expected is a bug, not a 1), as is a `float` even when whole.
pub fn int_arg(value: &Bound<'_, PyAny>, name: &str, min: u64, max: u64) -> PyResult<u64> {
    let n = signed_int_arg(value, name, i128::from(min), i128::from(max))?;
    Ok(n as u64) // in min..=max, so it fits
}

/// [`int_arg`] for a range that may include negative numbers (evaluation weights).
pub fn signed_int_arg(value: &Bound<'_, PyAny>, name: &str, min: i128, max: i128) -> PyResult<i128> {
    if value.is_instance_of::<PyBool>() || !value.hasattr("__index__")? {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an integer, got {} {}",
            value.get_type().name()?,
            value.repr()?
        )));
    }
    match value.call_method0("__index__")?.extract::<i128>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(PyValueError::new_err(range_message(name, min, max, &value.repr()?.to_string()))),
    }
}

/// [`int_arg`] for an optional argument (`None` stays `None`).
pub fn opt_int_arg(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
    min: u64,
    max: u64,
) -> PyResult<Option<u64>> {
    match value {
        Some(v) if !v.is_none() => int_arg(v, name, min, max).map(Some),
        _ => Ok(None),
    }
}

fn range_message(name: &str, min: i128, max: i128, got: &str) -> String {
    if max == i128::from(u64::MAX) {
        format!("{name} must be at least {min}, got {got}")
    } else {
        format!("{name} must be between {min} and {max}, got {got}")
    }
}

/// The machine's memory as `(available, total)` bytes, if known (Linux: `MemAvailable` and
/// `MemTotal` of `/proc/meminfo`; available counts reclaimable caches, as `free` does). Read at each
/// call: what is available changes.
fn memory() -> Option<(u64, u64)> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = meminfo.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok()?.checked_mul(1024)
    };
    Some((field("MemAvailable:")?, field("MemTotal:")?))
}

/// Checks a hash size argument (`1..=MAX_HASH_MB`) and that `tables` tables of that size fit in the
/// machine's available memory: a table larger than that would either fail to allocate or, where the
/// system over-commits memory, get the process killed by the kernel as the table fills. (The new table
/// is allocated before an old one is freed, so the old one does not count as available.) Returns the
/// size in MiB.
pub fn check_hash(value: &Bound<'_, PyAny>, name: &str, tables: u64) -> PyResult<usize> {
    let mb = int_arg(value, name, 1, MAX_HASH_MB)?;
    if let Some((available, total)) = memory() {
        let wanted = mb.saturating_mul(tables).saturating_mul(1 << 20);
        if wanted > available {
            let what =
                if tables == 1 { format!("{name}={mb}") } else { format!("{tables} tables of {name}={mb}") };
            return Err(PyValueError::new_err(format!(
                "{what} MiB exceeds this machine's available memory ({} MiB available of {} MiB)",
                available >> 20,
                total >> 20
            )));
        }
    }
    Ok(mb as usize)
}

/// The position `fen` + `moves` (UCI), or the `camelpy.errors` exception for the bad part.
pub fn position(fen: &str, moves: &[String], chess960: bool) -> PyResult<Position> {
    let mut pos = Position::from_fen(fen, chess960).map_err(fen_error)?;
    for uci in moves {
        let mv = pos.parse_uci(uci).map_err(move_error)?;
        pos.play_unchecked(mv);
    }
    Ok(pos)
}
