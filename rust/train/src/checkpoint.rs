//! The trainer's checkpoint: everything a run needs to continue exactly where it stopped.
//!
//! Little-endian: magic `CAMELCKP`, version `u32` (2; 1 is read too), hidden width `u32`, buckets `u32`
//! (output buckets in the low 16 bits, input buckets in the high 16, 0 read as 1; not in version 1,
//! whose networks all have one of each), settings digest `u64` (see
//! [`crate::TrainSettings::digest`]), finished epochs `u32`, batches done in the current epoch `u64`,
//! optimiser steps `u64`, Adam's step count `u64`, the current epoch's loss so far `f64` and its seconds
//! so far `f64`, the loss history (`u32` count, then per epoch: epoch `u32`, train `f64`, valid `f64`,
//! learning rate `f32`, seconds `f64`), the parameter count `u64`, then parameters, Adam's first and
//! second moments (`f32` each), and last an FNV-1a 64 checksum of every byte before it.
//! It is written to a temporary file and renamed, so a crash never leaves half a checkpoint.

use std::path::Path;

use camelpy_core::{
    error::AllocError,
    fnv::fnv1a,
    fsio,
    nnue::{Arch, Hidden, InputBuckets, OutputBuckets},
};

use crate::{model, model::Layout, EpochLoss, TrainError};

/// The checkpoint's file name in the output folder.
pub const FILE_NAME: &str = "checkpoint.bin";
const MAGIC: [u8; 8] = *b"CAMELCKP";
/// The version this build writes: the shape (hidden width and output buckets) recorded.
const VERSION: u32 = 2;
/// The version before output buckets (hidden width only; one output).
const VERSION_1: u32 = 1;
/// Bytes before the loss history in version 1: magic to the history's count.
const FIXED_BYTES_V1: usize = 8 + 4 + 4 + 8 + 4 + 3 * 8 + 2 * 8 + 4;
/// The same in version 2 (the output buckets' `u32` more).
const FIXED_BYTES: usize = FIXED_BYTES_V1 + 4;
/// Bytes of one epoch's loss in the history.
const EPOCH_BYTES: u64 = 4 + 8 + 8 + 4 + 8;

/// A vector of `n` zeros, or an [`AllocError`].
pub fn zeros(n: usize, what: &'static str) -> Result<Vec<f32>, TrainError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| AllocError { what, bytes: n * 4 })?;
    v.resize(n, 0.0);
    Ok(v)
}

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(|e| TrainError::io(&tmp, "write", e))?;
    std::fs::rename(&tmp, path).map_err(|e| TrainError::io(path, "replace", e))
}

/// A run's state between batches.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The network's shape.
    pub arch: Arch,
    /// The settings digest the run was started with.
    pub digest: u64,
    /// Epochs finished.
    pub epoch: u32,
    /// Batches done in the current epoch.
    pub batch: u64,
    /// Optimiser steps since the start (drives the learning-rate schedule).
    pub step: u64,
    /// Adam's step count (its bias correction).
    pub adam_t: u64,
    /// Summed loss of the current epoch's batches so far.
    pub epoch_loss_sum: f64,
    /// Seconds spent in the current epoch before the last stop.
    pub epoch_seconds: f64,
    /// Finished epochs' losses.
    pub history: Vec<EpochLoss>,
    /// The parameters.
    pub params: Vec<f32>,
    /// Adam's first moments.
    pub m: Vec<f32>,
    /// Adam's second moments.
    pub v: Vec<f32>,
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let out = self.bytes.get(self.at..self.at + N)?.try_into().ok()?;
        self.at += N;
        Some(out)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }
    fn f32(&mut self) -> Option<f32> {
        self.take().map(f32::from_le_bytes)
    }
    fn f64(&mut self) -> Option<f64> {
        self.take().map(f64::from_le_bytes)
    }
    fn floats_into(&mut self, n: usize, out: &mut Vec<f32>) -> Option<()> {
        let raw = self.bytes.get(self.at..self.at + 4 * n)?;
        self.at += 4 * n;
        out.extend(raw.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))));
        Some(())
    }
}

impl State {
    /// A new run of a network of shape `arch`: fresh parameters from `seed`, zero moments.
    pub fn fresh(arch: Arch, seed: u64, digest: u64) -> Result<State, TrainError> {
        State::starting_at(arch, &model::init(&Layout::of(arch), seed), digest)
    }

    /// A new run of a network of shape `arch` from the parameters `start` (of that shape's layout),
    /// zero moments.
    pub fn starting_at(arch: Arch, start: &[f32], digest: u64) -> Result<State, TrainError> {
        let layout = Layout::of(arch);
        let mut params = zeros(layout.params, "network parameters")?;
        params.copy_from_slice(start);
        Ok(State {
            arch,
            digest,
            epoch: 0,
            batch: 0,
            step: 0,
            adam_t: 0,
            epoch_loss_sum: 0.0,
            epoch_seconds: 0.0,
            history: Vec::new(),
            params,
            m: zeros(layout.params, "optimiser state")?,
            v: zeros(layout.params, "optimiser state")?,
        })
    }

    /// The checkpoint's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 12 * self.params.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.arch.hidden.size() as u32).to_le_bytes());
        let buckets =
            self.arch.output_buckets.count() as u32 | (self.arch.input_buckets.count() as u32) << 16;
        out.extend_from_slice(&buckets.to_le_bytes());
        out.extend_from_slice(&self.digest.to_le_bytes());
        out.extend_from_slice(&self.epoch.to_le_bytes());
        for v in [self.batch, self.step, self.adam_t] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.epoch_loss_sum.to_le_bytes());
        out.extend_from_slice(&self.epoch_seconds.to_le_bytes());
        out.extend_from_slice(&(self.history.len() as u32).to_le_bytes());
        for h in &self.history {
            out.extend_from_slice(&h.epoch.to_le_bytes());
            out.extend_from_slice(&h.train.to_le_bytes());
            out.extend_from_slice(&h.valid.to_le_bytes());
            out.extend_from_slice(&h.lr.to_le_bytes());
            out.extend_from_slice(&h.seconds.to_le_bytes());
        }
        out.extend_from_slice(&(self.params.len() as u64).to_le_bytes());
        for block in [&self.params, &self.m, &self.v] {
            for x in block.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Writes the checkpoint (atomically).
    pub fn write(&self, path: &Path) -> Result<(), TrainError> {
        write_atomic(path, &self.to_bytes())
    }

    /// Reads a checkpoint, which must come from a run with the settings digest `digest` training a
    /// network of shape `arch`: a regular file whose length is the one its fixed part promises, checked
    /// (with its shape) before the rest is read.
    pub fn read(path: &Path, digest: u64, arch: Arch) -> Result<State, TrainError> {
        let bad =
            |reason: &str| TrainError::Checkpoint { path: path.display().to_string(), reason: reason.into() };
        let io = |e| TrainError::io(path, "read", e);
        let (mut file, len) = fsio::open_regular(path).map_err(io)?;
        let fixed = fsio::read_up_to(&mut file, FIXED_BYTES).map_err(io)?;
        if fixed.len() < 16 || fixed[..8] != MAGIC {
            return Err(bad("not a camelpy training checkpoint (no CAMELCKP magic)"));
        }
        let version = u32::from_le_bytes(fixed[8..12].try_into().expect("4 bytes"));
        let fixed_bytes = match version {
            VERSION_1 => FIXED_BYTES_V1,
            VERSION => FIXED_BYTES,
            other => return Err(bad(&format!("checkpoint version {other}; this build reads 1 and 2"))),
        };
        if fixed.len() < fixed_bytes {
            return Err(bad("it ends early"));
        }
        let hidden = u32::from_le_bytes(fixed[12..16].try_into().expect("4 bytes"));
        let word = if version == VERSION_1 {
            1
        } else {
            u32::from_le_bytes(fixed[16..20].try_into().expect("4 bytes"))
        };
        let (buckets, inputs) = (word & 0xffff, (word >> 16).max(1));
        let stored_arch = Hidden::from_size(hidden.into())
            .zip(OutputBuckets::from_count(buckets.into()))
            .zip(InputBuckets::from_count(inputs.into()))
            .map(|((hidden, output_buckets), input_buckets)| Arch { hidden, output_buckets, input_buckets });
        if stored_arch != Some(arch) {
            return Err(bad(&format!(
                "a network of {hidden} hidden neurons, {buckets} output bucket(s) and {inputs} input \
                 bucket(s); this run trains {arch} (resume with the same --hidden, --output-buckets and \
                 --input-buckets)"
            )));
        }
        let layout = Layout::of(arch);
        let epochs =
            u32::from_le_bytes(fixed[fixed_bytes - 4..fixed_bytes].try_into().expect("4 bytes")) as u64;
        let promised = (fixed_bytes + 8 + 12 * layout.params + 8) as u64 + epochs * EPOCH_BYTES;
        if len != promised {
            return Err(bad(&format!("it is {len} bytes; its header promises {promised}")));
        }
        let bytes = fsio::read_rest(&mut file, fixed, len).map_err(io)?;
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(bad("its checksum does not match (a damaged or truncated file)"));
        }
        let mut c = Cursor { bytes: body, at: if version == VERSION_1 { 16 } else { 20 } };
        let short = || bad("it ends early");
        let stored = c.u64().ok_or_else(short)?;
        if stored != digest {
            return Err(bad(
                "it was written with other settings or data (epochs, batch size, learning rate, result weight, \
                 threads, seed, network started from or number of training positions differ): resume with \
                 the same ones or start afresh in another folder",
            ));
        }
        let epoch = c.u32().ok_or_else(short)?;
        let (batch, step, adam_t) =
            (c.u64().ok_or_else(short)?, c.u64().ok_or_else(short)?, c.u64().ok_or_else(short)?);
        let (epoch_loss_sum, epoch_seconds) = (c.f64().ok_or_else(short)?, c.f64().ok_or_else(short)?);
        let n = c.u32().ok_or_else(short)?;
        let mut history = Vec::new();
        for _ in 0..n {
            history.push(EpochLoss {
                epoch: c.u32().ok_or_else(short)?,
                train: c.f64().ok_or_else(short)?,
                valid: c.f64().ok_or_else(short)?,
                lr: c.f32().ok_or_else(short)?,
                seconds: c.f64().ok_or_else(short)?,
            });
        }
        if c.u64().ok_or_else(short)? != layout.params as u64 {
            return Err(bad("another parameter count"));
        }
        let mut blocks = Vec::new();
        for what in ["network parameters", "optimiser state", "optimiser state"] {
            let mut v = Vec::new();
            v.try_reserve_exact(layout.params).map_err(|_| AllocError { what, bytes: layout.params * 4 })?;
            c.floats_into(layout.params, &mut v).ok_or_else(short)?;
            blocks.push(v);
        }
        if c.at != body.len() {
            return Err(bad("it has bytes after the optimiser state"));
        }
        let v = blocks.pop().expect("three blocks");
        let m = blocks.pop().expect("three blocks");
        let params = blocks.pop().expect("three blocks");
        Ok(State {
            arch,
            digest,
            epoch,
            batch,
            step,
            adam_t,
            epoch_loss_sum,
            epoch_seconds,
            history,
            params,
            m,
            v,
        })
    }
}
