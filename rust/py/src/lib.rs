//! `camelpy._core`: the PyO3 bindings of `camelpy-core`. Each module here mirrors a core module and only
//! converts: extract Python inputs, call the core (with the GIL released for long calls), build results.

mod args;
mod board;
mod convert;
mod data;
mod errors;
mod eval;
mod games;
mod info;
mod interrupt;
mod leiserchess;
mod minichess;
mod perft;
mod search;
mod tablebase;
mod threads;
mod train;

use pyo3::prelude::*;

/// The native core of camelpy (use the ``camelpy`` package, not this module).
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Lets benchmarks refuse to time a debug build.
    m.add("build_profile", if cfg!(debug_assertions) { "debug" } else { "release" })?;
    // Which slider lookup this build uses: "pext" (BMI2 target) or "magic".
    m.add("slider_lookup", if camelpy_core::attacks::USES_PEXT { "pext" } else { "magic" })?;
    m.add("STARTING_FEN", camelpy_core::STARTING_FEN)?;
    // The bench positions, for Python benchmarks that time the search on the same list.
    m.add("BENCH_FENS", camelpy_core::bench::BENCH_FENS.to_vec())?;
    // The limits of every numeric argument, read by the Python API and the UCI options (one source).
    m.add("MAX_HASH_MB", args::MAX_HASH_MB)?;
    m.add("DEFAULT_HASH_MB", args::DEFAULT_HASH_MB)?;
    m.add("MAX_THREADS", args::MAX_THREADS)?;
    m.add("MAX_MULTIPV", args::MAX_MULTIPV)?;
    m.add("BATCH_HASH_MB", args::BATCH_HASH_MB)?;
    m.add("MAX_SEARCH_DEPTH", args::MAX_SEARCH_DEPTH)?;
    m.add("MAX_THREATS", camelpy_games::MAX_THREATS)?;
    m.add("MAX_ASPIRATION", camelpy_games::MAX_ASPIRATION)?;
    m.add("SEARCH_SETTINGS", camelpy_games::SETTINGS.iter().map(|s| (s.name, s.max)).collect::<Vec<_>>())?;
    m.add("MAX_BENCH_DEPTH", args::MAX_BENCH_DEPTH)?;
    m.add("MAX_PERFT_DEPTH", args::MAX_PERFT_DEPTH)?;
    m.add("DATAGEN_DEFAULTS", data::defaults())?;
    m.add_function(wrap_pyfunction!(default_threads, m)?)?;
    m.add_class::<board::PyPosition>()?;
    m.add_class::<search::PyEngine>()?;
    m.add_class::<info::PyIterationInfo>()?;
    m.add_class::<info::PyCurrMoveInfo>()?;
    m.add_class::<info::PySearchOutcome>()?;
    m.add_function(wrap_pyfunction!(board::_restore_position, m)?)?;
    m.add_function(wrap_pyfunction!(perft::perft, m)?)?;
    m.add_function(wrap_pyfunction!(perft::divide, m)?)?;
    // The small games: one report class, and each game's classes from `games`.
    m.add_class::<games::GameIteration>()?;
    minichess::register(m)?;
    leiserchess::register(m)?;
    m.add_class::<tablebase::PyTablebase>()?;
    m.add_function(wrap_pyfunction!(tablebase::tb_generate, m)?)?;
    m.add_function(wrap_pyfunction!(search::bench, m)?)?;
    m.add_function(wrap_pyfunction!(threads::analyse_many, m)?)?;
    m.add_function(wrap_pyfunction!(eval::default_params, m)?)?;
    m.add_function(wrap_pyfunction!(search::default_search_params, m)?)?;
    m.add_function(wrap_pyfunction!(eval::linearize, m)?)?;
    m.add_function(wrap_pyfunction!(eval::linearize_file, m)?)?;
    m.add_function(wrap_pyfunction!(data::datagen, m)?)?;
    m.add_function(wrap_pyfunction!(data::datagen_games, m)?)?;
    m.add_class::<data::DataWriter>()?;
    m.add_function(wrap_pyfunction!(train::train, m)?)?;
    m.add_function(wrap_pyfunction!(train::evaluation_loss, m)?)?;
    m.add_function(wrap_pyfunction!(train::network_info, m)?)?;
    m.add("NET_HIDDEN", camelpy_core::nnue::HIDDEN)?;
    m.add("NET_HIDDEN_SIZES", camelpy_core::nnue::Hidden::ALL.map(|h| h.size()).to_vec())?;
    m.add("NET_MATERIAL_BUCKETS", camelpy_core::nnue::MATERIAL_BUCKETS)?;
    m.add("NET_KING_BUCKETS", camelpy_core::nnue::KING_BUCKETS)?;
    m.add("NET_SCALE", camelpy_core::nnue::SCALE)?;
    m.add("NET_EMBEDDED", camelpy_core::nnue::EMBEDDED_NAME)?;
    m.add("NET_BUILT_IN", camelpy_core::nnue::BUILT_IN.to_vec())?;
    m.add_function(wrap_pyfunction!(data::read_records, m)?)?;
    m.add_function(wrap_pyfunction!(data::data_info, m)?)?;
    m.add_function(wrap_pyfunction!(data::export_text, m)?)?;
    Ok(())
}

/// The number of worker threads a batch uses by default: one per CPU this process may run on.
#[pyfunction]
fn default_threads() -> u64 {
    args::default_threads()
}
