//! camelpy's network trainer: `camelpy train` in Rust.
//!
//! It trains a network of [`camelpy_core::nnue`] (any of its shapes, [`TrainSettings::arch`]) on
//! positions from `camelpy datagen` files: each position's target is a blend of the game's result and the search's score (both as win expectations,
//! the score through `sigmoid(score / 400)`), the loss the squared error of `sigmoid(output)`, the
//! optimiser Adam on mini-batches with a cosine learning-rate decay. Forward and backward passes are
//! sparse (a position touches the weight rows of its 20-odd pieces only), and each batch is split
//! across threads that add into their own gradient buffers, summed in a fixed order, so a run is
//! deterministic for a given seed and thread count.
//!
//! Why Rust and not PyTorch: PyPI's Linux torch wheel pulls gigabytes of CUDA libraries into the install,
//! and a net this shape (sparse inputs, one hidden layer) gains little from a tensor library on a CPU;
//! plain loops over the active rows run at the figures in the README on two cores.
//!
//! A run writes into its output folder, after every epoch and when stopped: `checkpoint.bin` (the
//! parameters, Adam's moments, the position in the schedule and the loss history, so the run resumes
//! exactly where it stopped) and `net.nnue` (the quantised network, usable at once).

pub mod checkpoint;
mod error;
pub mod measure;
pub mod model;
pub mod samples;

use std::{
    path::Path,
    sync::atomic::{AtomicBool, Ordering},
    time::Instant,
};

use camelpy_core::nnue::{Arch, InputBuckets, Network, OutputBuckets};
pub use error::TrainError;
pub use measure::{evaluation_loss, MeasureSettings, Measurement};
use model::{Layout, Scratch};
pub use samples::{load, Dataset, FileRead, LoadSettings, Sample};

/// Default positions per optimiser step.
pub const DEFAULT_BATCH_SIZE: usize = 16_384;
/// Default epochs (passes over the training set).
pub const DEFAULT_EPOCHS: u32 = 20;
/// Default initial learning rate: Adam's usual 1e-3.
pub const DEFAULT_LR: f32 = 1e-3;
/// Default learning rate at the end of the cosine schedule, as a share of the initial one.
pub const DEFAULT_FINAL_LR_SHARE: f32 = 0.05;
/// Default weight of the game result in the target (the rest is the search score): scores carry most
/// of the signal of short self-play searches; results correct their bias.
pub const DEFAULT_WDL: f32 = 0.3;
/// Default for [`TrainSettings::mirror`].
pub const DEFAULT_MIRROR: bool = true;
/// Adam's decay rates and its denominator's guard.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;
/// Batches between progress reports.
const REPORT_EVERY: u64 = 16;

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSettings {
    /// Passes over the training set.
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch_size: usize,
    /// Initial learning rate.
    pub lr: f32,
    /// Final learning rate as a share of `lr` (cosine decay between them over all batches).
    pub final_lr_share: f32,
    /// Weight of the game result in the target, 0 to 1.
    pub wdl: f32,
    /// Worker threads.
    pub threads: usize,
    /// Seed of the initial weights, of each epoch's shuffle and of its mirror choices.
    pub seed: u64,
    /// Show each position mirrored left to right (files a–h swapped) half of the time, chosen afresh
    /// every epoch: the mirror image of a position is worth the same (castling rights aside, which the
    /// inputs do not see), so this doubles what a small data set teaches.
    pub mirror: bool,
    /// The network's shape: hidden width and output buckets (default camelpy-1's, [`Arch::V1`]).
    pub arch: Arch,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            epochs: DEFAULT_EPOCHS,
            batch_size: DEFAULT_BATCH_SIZE,
            lr: DEFAULT_LR,
            final_lr_share: DEFAULT_FINAL_LR_SHARE,
            wdl: DEFAULT_WDL,
            threads: 1,
            seed: 0,
            mirror: DEFAULT_MIRROR,
            arch: Arch::V1,
        }
    }
}

impl TrainSettings {
    fn check(&self) -> Result<(), TrainError> {
        let bad = |why: String| Err(TrainError::Settings(why));
        if self.epochs == 0 {
            return bad("epochs must be at least 1".into());
        }
        if self.batch_size == 0 {
            return bad("the batch size must be at least 1".into());
        }
        if !(self.lr.is_finite() && self.lr > 0.0) {
            return bad(format!("the learning rate must be a positive number, not {}", self.lr));
        }
        if !(0.0..=1.0).contains(&self.final_lr_share) {
            return bad(format!("the final learning-rate share must be 0 to 1, not {}", self.final_lr_share));
        }
        if !(0.0..=1.0).contains(&self.wdl) {
            return bad(format!("the result weight (wdl) must be 0 to 1, not {}", self.wdl));
        }
        if self.threads == 0 {
            return bad("threads must be at least 1".into());
        }
        Ok(())
    }

    /// A digest of everything that decides the run's arithmetic (a resume with other settings is refused).
    pub fn digest(&self, train_positions: usize) -> u64 {
        let text = format!(
            "{} {} {} {} {} {} {} {train_positions} {}{}{}{}",
            self.epochs,
            self.batch_size,
            self.lr,
            self.final_lr_share,
            self.wdl,
            self.threads,
            self.seed,
            self.arch.hidden.size(),
            // Runs without the mirror keep the digest they had before it existed.
            if self.mirror { " mirror" } else { "" },
            // And runs with one output keep the digest they had before buckets existed.
            match self.arch.output_buckets {
                OutputBuckets::Single => String::new(),
                buckets => format!(" buckets {}", buckets.count()),
            },
            match self.arch.input_buckets {
                InputBuckets::Single => String::new(),
                buckets => format!(" king buckets {}", buckets.count()),
            }
        );
        camelpy_core::fnv::fnv1a(text.as_bytes())
    }
}

/// What the trainer reports while it runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Some batches done.
    Progress {
        /// The epoch (from 1).
        epoch: u32,
        /// Batches done in this epoch.
        batch: u64,
        /// Batches in an epoch.
        batches: u64,
        /// Mean loss of the batches since the last report.
        loss: f64,
        /// Positions per second since the epoch began.
        positions_per_s: f64,
    },
    /// An epoch finished (its checkpoint and net are written).
    Epoch(EpochLoss),
}

/// The losses after one epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    /// The epoch (from 1).
    pub epoch: u32,
    /// Mean training loss over the epoch's batches.
    pub train: f64,
    /// Mean loss on the validation set after the epoch (NaN without one).
    pub valid: f64,
    /// Learning rate at the epoch's end.
    pub lr: f32,
    /// Seconds the epoch took.
    pub seconds: f64,
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSummary {
    /// Every finished epoch's losses (from the start of the run, resumed parts included).
    pub epochs: Vec<EpochLoss>,
    /// Stopped by the stop flag before the last epoch.
    pub stopped: bool,
    /// The network's checksum as written to `net.nnue`.
    pub net_hash: u64,
}

/// The learning rate after `step` of `total` optimiser steps (cosine decay).
fn learning_rate(s: &TrainSettings, step: u64, total: u64) -> f32 {
    let progress = (step as f64 / total.max(1) as f64).min(1.0);
    let floor = s.lr as f64 * s.final_lr_share as f64;
    (floor + (s.lr as f64 - floor) * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos())) as f32
}

/// The epoch's order of the training set: a seeded Fisher–Yates shuffle.
fn shuffled(n: usize, seed: u64, epoch: u32) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut rng =
        camelpy_core::data::SplitMix64::new(seed ^ (epoch as u64).wrapping_mul(0xa076_1d64_78bd_642f));
    for i in (1..n).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// Whether the `k`-th position of `epoch`'s order is shown mirrored.
fn mirrored(s: &TrainSettings, epoch: u32, k: usize) -> bool {
    let key = s.seed
        ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (k as u64).wrapping_mul(0xd1b5_4a32_d192_ed03);
    s.mirror && camelpy_core::data::SplitMix64::new(key).next_u64() & 1 == 1
}

/// Mean loss of `samples` under `p` (of layout `l`), computed on `threads` threads.
pub fn mean_loss(l: &Layout, p: &[f32], samples: &[Sample], wdl: f32, threads: usize) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let chunk = samples.len().div_ceil(threads);
    let sums: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut s = Scratch::new(l);
                    part.iter().map(|x| model::loss(l, p, x, wdl, &mut s) as f64).sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("loss worker")).collect()
    });
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// Trains on `data`, writing into `out_dir` (created if missing). With `resume`, continues the run
/// whose checkpoint is there (same data and settings, checked); otherwise starts afresh (overwriting).
/// `stop` ends the run after the current batch, with a checkpoint written.
pub fn train(
    data: &Dataset,
    settings: &TrainSettings,
    out_dir: &Path,
    resume: bool,
    report: &mut dyn FnMut(&Event),
    stop: &AtomicBool,
) -> Result<TrainSummary, TrainError> {
    train_from(data, settings, None, out_dir, resume, report, stop)
}

/// [`train`], its weights starting from the network `init` (of the run's shape) when given, instead of
/// fresh ones from the seed: more training for a trained network, on new data, with its own schedule
/// (Adam's moments start at zero). A resume checks that the checkpoint started from the same network.
pub fn train_from(
    data: &Dataset,
    settings: &TrainSettings,
    init: Option<&Network>,
    out_dir: &Path,
    resume: bool,
    report: &mut dyn FnMut(&Event),
    stop: &AtomicBool,
) -> Result<TrainSummary, TrainError> {
    settings.check()?;
    if let Some(net) = init {
        if net.arch() != settings.arch {
            return Err(TrainError::Settings(format!(
                "the network to start from is {}; this run trains {} (give the same --hidden, \
                 --output-buckets and --input-buckets)",
                net.arch(),
                settings.arch
            )));
        }
    }
    if data.train.is_empty() {
        return Err(TrainError::Settings(
            "no training positions (the data files are empty or all filtered out)".into(),
        ));
    }
    std::fs::create_dir_all(out_dir).map_err(|error| TrainError::io(out_dir, "create the folder", error))?;
    let ckpt_path = out_dir.join(checkpoint::FILE_NAME);
    let digest = match init {
        None => settings.digest(data.train.len()),
        // A run from a network keeps its settings' digest apart from a fresh run's and from another net's.
        Some(net) => camelpy_core::fnv::fnv1a(
            format!("{:016x} init {:016x}", settings.digest(data.train.len()), net.hash()).as_bytes(),
        ),
    };
    let layout = Layout::of(settings.arch);
    let mut state = if resume && ckpt_path.exists() {
        checkpoint::State::read(&ckpt_path, digest, settings.arch)?
    } else if let Some(net) = init {
        checkpoint::State::starting_at(settings.arch, &model::dequantise(&layout, net), digest)?
    } else {
        checkpoint::State::fresh(settings.arch, settings.seed, digest)?
    };

    let batches = data.train.len().div_ceil(settings.batch_size) as u64;
    let total_steps = batches * settings.epochs as u64;
    let threads = settings.threads;
    let mut grads: Vec<Vec<f32>> = Vec::new();
    for _ in 0..threads {
        grads.push(checkpoint::zeros(layout.params, "gradient buffer")?);
    }
    let mut stopped = false;

    while state.epoch < settings.epochs {
        let epoch = state.epoch + 1;
        let order = shuffled(data.train.len(), settings.seed, epoch);
        let started = Instant::now();
        let mut since_report = (0.0f64, 0u64);
        let first_batch = state.batch;
        while state.batch < batches {
            if stop.load(Ordering::Relaxed) {
                stopped = true;
                break;
            }
            let lo = state.batch as usize * settings.batch_size;
            let idx = &order[lo..(lo + settings.batch_size).min(order.len())];
            let loss = gradient(&layout, &state.params, &mut grads, &data.train, idx, lo, settings, epoch);
            let lr = learning_rate(settings, state.step, total_steps);
            adam_step(&layout, &mut state, &grads, idx.len(), lr);
            state.batch += 1;
            state.step += 1;
            state.epoch_loss_sum += loss;
            since_report.0 += loss;
            since_report.1 += idx.len() as u64;
            if state.batch % REPORT_EVERY == 0 || state.batch == batches {
                let done = (state.batch - first_batch) as f64 * settings.batch_size as f64;
                report(&Event::Progress {
                    epoch,
                    batch: state.batch,
                    batches,
                    loss: since_report.0 / since_report.1.max(1) as f64,
                    positions_per_s: done / started.elapsed().as_secs_f64().max(1e-9),
                });
                since_report = (0.0, 0);
            }
        }
        if stopped {
            state.epoch_seconds += started.elapsed().as_secs_f64();
            break;
        }
        let record = EpochLoss {
            epoch,
            train: state.epoch_loss_sum / data.train.len() as f64,
            valid: mean_loss(&layout, &state.params, &data.valid, settings.wdl, threads),
            lr: learning_rate(settings, state.step, total_steps),
            seconds: started.elapsed().as_secs_f64() + state.epoch_seconds,
        };
        state.history.push(record);
        state.epoch = epoch;
        state.batch = 0;
        state.epoch_loss_sum = 0.0;
        state.epoch_seconds = 0.0;
        write_outputs(&layout, &state, out_dir, &ckpt_path)?;
        report(&Event::Epoch(record));
    }
    if stopped {
        write_outputs(&layout, &state, out_dir, &ckpt_path)?;
    }
    Ok(TrainSummary {
        epochs: state.history.clone(),
        stopped,
        net_hash: model::quantise(&layout, &state.params).hash(),
    })
}

fn write_outputs(
    layout: &Layout,
    state: &checkpoint::State,
    out_dir: &Path,
    ckpt_path: &Path,
) -> Result<(), TrainError> {
    state.write(ckpt_path)?;
    let net = model::quantise(layout, &state.params);
    checkpoint::write_atomic(&out_dir.join(NET_FILE_NAME), &net.to_bytes())
}

/// The quantised network's file name in the output folder.
pub const NET_FILE_NAME: &str = "net.nnue";

/// Sums the gradients of the batch `idx` (which starts at `first` in `epoch`'s order) into `grads[0]`
/// (each thread fills its own buffer first) and returns the batch's summed loss.
#[allow(clippy::too_many_arguments)]
fn gradient(
    layout: &Layout,
    p: &[f32],
    grads: &mut [Vec<f32>],
    samples: &[Sample],
    idx: &[u32],
    first: usize,
    settings: &TrainSettings,
    epoch: u32,
) -> f64 {
    let chunk = idx.len().div_ceil(grads.len());
    let wdl = settings.wdl;
    let losses: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = grads
            .iter_mut()
            .zip(idx.chunks(chunk))
            .enumerate()
            .map(|(t, (g, part))| {
                scope.spawn(move || {
                    g.fill(0.0);
                    let mut s = Scratch::new(layout);
                    let start = first + t * chunk;
                    part.iter()
                        .enumerate()
                        .map(|(k, &i)| {
                            let mirror = mirrored(settings, epoch, start + k);
                            model::backward(layout, p, g, &samples[i as usize], mirror, wdl, &mut s) as f64
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("gradient worker")).collect()
    });
    let used = idx.chunks(chunk).count();
    let (first, rest) = grads.split_at_mut(1);
    for other in &rest[..used - 1] {
        for (a, b) in first[0].iter_mut().zip(other.iter()) {
            *a += b;
        }
    }
    losses.iter().sum()
}

/// One Adam step with the batch's mean gradient (in `grads[0]`), then the clip.
fn adam_step(layout: &Layout, state: &mut checkpoint::State, grads: &[Vec<f32>], batch: usize, lr: f32) {
    state.adam_t += 1;
    let t = state.adam_t as i32;
    let (c1, c2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
    let scale = 1.0 / batch as f32;
    for (((w, m), v), &g) in state.params.iter_mut().zip(&mut state.m).zip(&mut state.v).zip(&grads[0]) {
        let g = g * scale;
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        *w -= lr * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
    }
    model::clip(layout, &mut state.params);
}
