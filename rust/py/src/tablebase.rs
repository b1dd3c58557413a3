//! `camelpy._core.Tablebase` and `tb_generate`: the core's endgame tables (`camelpy_core::tablebase`)
//! for Python. Conversion only; solving and loading run with the GIL released.

use std::{
    path::Path,
    sync::{atomic::AtomicBool, Arc},
};

use camelpy_core::{
    tablebase::{check, generate, GenerateReport, Material, TableSet, TbValue},
    TablebaseError,
};
use pyo3::{
    exceptions::{PyMemoryError, PyValueError},
    import_exception,
    prelude::*,
};

use crate::{args::position, errors::os_error, interrupt};

import_exception!(camelpy.errors, TablebaseFileError);

/// A tablebase problem as a Python exception: the system's refusals as `OSError`, memory as
/// `MemoryError`, a damaged or foreign file as `camelpy.errors.TablebaseFileError`, the rest
/// (a bad ending name, a missing successor) as `ValueError`.
pub fn tablebase_error(e: TablebaseError) -> PyErr {
    let message = e.to_string();
    match e {
        TablebaseError::Io { path, error, .. } => os_error(path, error, message),
        TablebaseError::Alloc(_) => PyMemoryError::new_err(message),
        TablebaseError::BadFile { .. } => TablebaseFileError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// A set of solved tables loaded from a folder.
#[pyclass(module = "camelpy._core", name = "Tablebase", frozen)]
pub struct PyTablebase {
    pub set: Arc<TableSet>,
    pub path: String,
}

#[pymethods]
impl PyTablebase {
    /// Reads every table file (`*.cptb`) in the folder `path`.
    #[new]
    fn new(py: Python<'_>, path: String) -> PyResult<PyTablebase> {
        let set = py.detach(|| TableSet::open_dir(Path::new(&path))).map_err(tablebase_error)?;
        Ok(PyTablebase { set: Arc::new(set), path })
    }

    /// The folder.
    #[getter]
    fn path(&self) -> String {
        self.path.clone()
    }

    /// The endings present (``KQvKR``…), smallest first.
    fn endings(&self) -> Vec<String> {
        self.set.materials().iter().map(ToString::to_string).collect()
    }

    /// ``(dtm, wdl)`` of the position (FEN and moves), or ``None`` if its table is missing or it
    /// has castling rights or too many pieces.
    fn probe(&self, fen: &str, moves: Vec<String>, chess960: bool) -> PyResult<Option<(i32, i32)>> {
        let pos = position(fen, &moves, chess960)?;
        Ok(self.set.probe(&pos).map(|v: TbValue| (v.dtm(), v.wdl())))
    }

    /// Checks every position of the ending *name* against its moves by the core's move generator,
    /// on *threads* threads: ``(positions, decisive, illegal, mismatches, examples)``.
    fn check(
        &self,
        py: Python<'_>,
        name: &str,
        threads: usize,
    ) -> PyResult<(u64, u64, u64, u64, Vec<String>)> {
        let material = Material::parse(name).map_err(tablebase_error)?;
        let stop = AtomicBool::new(false);
        let set = &self.set;
        let report = interrupt::run_silent(py, &stop, || check(set, material, threads.max(1), &stop))?
            .map_err(tablebase_error)?;
        Ok((report.positions, report.decisive, report.illegal, report.mismatches, report.examples))
    }
}

/// Solves the endings *names* (``None``: every 3- and 4-man ending) and all they lead to into the
/// folder *path*, on *threads* threads, calling *progress* with ``(ending, solved, seconds, bytes,
/// memory, layers)`` as each is done. A table already in the folder is read, not solved again.
#[pyfunction]
#[pyo3(signature = (path, names, threads, progress = None))]
pub fn tb_generate(
    py: Python<'_>,
    path: String,
    names: Option<Vec<String>>,
    threads: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<String>> {
    let materials = match names {
        Some(names) => names.iter().map(|n| Material::parse(n)).collect::<Result<Vec<_>, _>>(),
        None => Ok(Material::all(4)),
    }
    .map_err(tablebase_error)?;
    let stop = AtomicBool::new(false);
    type Message = (String, bool, f64, u64, usize, u16);
    let set = interrupt::run(
        py,
        &stop,
        |outbox| {
            generate(Path::new(&path), &materials, threads.max(1), &stop, |r: &GenerateReport| {
                outbox.send((
                    r.material.to_string(),
                    r.solved,
                    r.seconds,
                    r.bytes,
                    r.stats.memory,
                    r.stats.layers,
                ))
            })
        },
        |py, m: Message| match &progress {
            Some(f) => f.call1(py, m).map(drop),
            None => Ok(()),
        },
    )?
    .map_err(tablebase_error)?;
    Ok(set.materials().iter().map(ToString::to_string).collect())
}
