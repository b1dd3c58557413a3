//! The float network the trainer optimises, with the core's architecture ([`camelpy_core::nnue`]):
//! its sparse forward and backward passes, and its quantisation into the core's [`Network`].
//!
//! All parameters live in one flat vector (so Adam and the gradient buffers are plain slices), laid out
//! as the file is: feature weights (feature-major), feature biases, output weights (side to move first),
//! output bias. The output is in units of [`SCALE`] centipawns.

use camelpy_core::{
    data::SplitMix64,
    nnue::{feature, Network, HIDDEN, INPUTS, MAX_OUTPUT_WEIGHT, QA, QB, SCALE},
    types::{Color, Piece, Square},
    Position,
};

use crate::samples::Sample;

/// Start of each block in the flat parameter vector.
pub const FT_WEIGHTS: usize = 0;
/// Start of the feature biases.
pub const FT_BIAS: usize = INPUTS * HIDDEN;
/// Start of the output weights.
pub const OUT_WEIGHTS: usize = FT_BIAS + HIDDEN;
/// The output bias.
pub const OUT_BIAS: usize = OUT_WEIGHTS + 2 * HIDDEN;
/// Number of parameters.
pub const PARAMS: usize = OUT_BIAS + 1;

/// Largest magnitude of a feature weight or bias: 32 pieces at this much, quantised by `QA`, stay inside
/// the accumulator's 16 bits (32 · 1.98 · 255 + bias < 32,767), so the quantised net never wraps.
pub const MAX_FT_WEIGHT: f32 = 1.98;
/// Largest magnitude of an output weight: the file's limit, [`MAX_OUTPUT_WEIGHT`] / `QB`.
pub const MAX_OUT_WEIGHT: f32 = MAX_OUTPUT_WEIGHT as f32 / QB as f32;

/// Most pieces on a board, hence most active features per perspective.
const MAX_FEATURES: usize = 32;

/// Fresh parameters from `seed`: weights uniform in ±1/√(fan-in), biases zero.
pub fn init(seed: u64) -> Vec<f32> {
    let mut rng = SplitMix64::new(seed);
    let mut uniform = |bound: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * bound;
    let mut p = vec![0.0f32; PARAMS];
    let ft_bound = 1.0 / (MAX_FEATURES as f32).sqrt();
    for w in &mut p[FT_WEIGHTS..FT_BIAS] {
        *w = uniform(ft_bound);
    }
    let out_bound = 1.0 / ((2 * HIDDEN) as f32).sqrt();
    for w in &mut p[OUT_WEIGHTS..OUT_BIAS] {
        *w = uniform(out_bound);
    }
    p
}

/// Clamps the parameters into the quantisable range (after every optimiser step).
pub fn clip(p: &mut [f32]) {
    for w in &mut p[FT_WEIGHTS..OUT_WEIGHTS] {
        *w = w.clamp(-MAX_FT_WEIGHT, MAX_FT_WEIGHT);
    }
    for w in &mut p[OUT_WEIGHTS..OUT_BIAS] {
        *w = w.clamp(-MAX_OUT_WEIGHT, MAX_OUT_WEIGHT);
    }
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Scratch space for one position's passes (one per thread).
pub struct Scratch {
    features: [[usize; MAX_FEATURES]; 2],
    count: usize,
    pre: [[f32; HIDDEN]; 2],
    grad: [f32; HIDDEN],
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch { features: [[0; MAX_FEATURES]; 2], count: 0, pre: [[0.0; HIDDEN]; 2], grad: [0.0; HIDDEN] }
    }
}

#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The network's output for the active features `s.features[side][..s.count]` (side 0: the side to
/// move's perspective, 1: the other's), leaving the pre-activations in `s`.
fn output(p: &[f32], s: &mut Scratch) -> f32 {
    let bias = &p[FT_BIAS..OUT_WEIGHTS];
    let mut out = p[OUT_BIAS];
    for side in 0..2 {
        let pre = &mut s.pre[side];
        pre.copy_from_slice(bias);
        for &f in &s.features[side][..s.count] {
            for (a, w) in pre.iter_mut().zip(&p[f * HIDDEN..(f + 1) * HIDDEN]) {
                *a += w;
            }
        }
        let w_out = &p[OUT_WEIGHTS + side * HIDDEN..OUT_WEIGHTS + (side + 1) * HIDDEN];
        out += pre.iter().zip(w_out).map(|(&a, &w)| screlu(a) * w).sum::<f32>();
    }
    out
}

/// Fills `s` with the features of `pieces` seen by `stm` and by the other side.
fn set_features(s: &mut Scratch, stm: Color, pieces: impl Iterator<Item = (Piece, Square)>) {
    s.count = 0;
    for (piece, sq) in pieces {
        s.features[0][s.count] = feature(stm, piece, sq);
        s.features[1][s.count] = feature(stm.flip(), piece, sq);
        s.count += 1;
    }
}

/// The network's output for `sample` (its board mirrored left to right with `mirror`), leaving its
/// features and pre-activations in `s`.
fn forward_into(p: &[f32], sample: &Sample, mirror: bool, s: &mut Scratch) -> f32 {
    let pieces = sample.pieces().map(|(piece, sq)| (piece, if mirror { sq.flip_file() } else { sq }));
    set_features(s, sample.side_to_move(), pieces);
    output(p, s)
}

/// The float network's evaluation of `sample`, in centipawns for the side to move.
pub fn evaluate_sample(p: &[f32], sample: &Sample) -> f32 {
    forward_into(p, sample, false, &mut Scratch::default()) * SCALE as f32
}

/// The float network's evaluation of `pos`, in centipawns for the side to move.
pub fn evaluate(p: &[f32], pos: &Position) -> f32 {
    let mut s = Scratch::default();
    let pieces = pos.occupied().map(|sq| (pos.piece_on(sq).expect("occupied"), sq));
    set_features(&mut s, pos.side_to_move(), pieces);
    output(p, &mut s) * SCALE as f32
}

/// The training target of `sample`: `wdl` parts game result, the rest the search score through the
/// same sigmoid as the output.
#[inline]
pub fn target(sample: &Sample, wdl: f32) -> f32 {
    wdl * sample.result() + (1.0 - wdl) * sigmoid(sample.score as f32 / SCALE as f32)
}

/// The squared error of `sample` against its target.
pub fn loss(p: &[f32], sample: &Sample, wdl: f32, s: &mut Scratch) -> f32 {
    let e = sigmoid(forward_into(p, sample, false, s)) - target(sample, wdl);
    e * e
}

/// Adds the gradient of `sample`'s squared error (its board mirrored left to right with `mirror`) to
/// `g` and returns the error.
pub fn backward(p: &[f32], g: &mut [f32], sample: &Sample, mirror: bool, wdl: f32, s: &mut Scratch) -> f32 {
    let y = forward_into(p, sample, mirror, s);
    let q = sigmoid(y);
    let e = q - target(sample, wdl);
    let dy = 2.0 * e * q * (1.0 - q);
    g[OUT_BIAS] += dy;
    for side in 0..2 {
        let w_out = OUT_WEIGHTS + side * HIDDEN;
        for i in 0..HIDDEN {
            let a = s.pre[side][i];
            g[w_out + i] += dy * screlu(a);
            s.grad[i] = if a > 0.0 && a < 1.0 { dy * p[w_out + i] * 2.0 * a } else { 0.0 };
        }
        for (gb, d) in g[FT_BIAS..OUT_WEIGHTS].iter_mut().zip(&s.grad) {
            *gb += d;
        }
        for &f in &s.features[side][..s.count] {
            for (gw, d) in g[f * HIDDEN..(f + 1) * HIDDEN].iter_mut().zip(&s.grad) {
                *gw += d;
            }
        }
    }
    e * e
}

/// The parameters quantised into the core's network.
pub fn quantise(p: &[f32]) -> Network {
    let q16 = |w: f32, scale: i32, limit: f32| (w.clamp(-limit, limit) * scale as f32).round() as i16;
    let ft_weights = p[FT_WEIGHTS..FT_BIAS].iter().map(|&w| q16(w, QA, MAX_FT_WEIGHT)).collect();
    let ft_bias = p[FT_BIAS..OUT_WEIGHTS].iter().map(|&w| q16(w, QA, MAX_FT_WEIGHT)).collect();
    let out_weights = p[OUT_WEIGHTS..OUT_BIAS].iter().map(|&w| q16(w, QB, MAX_OUT_WEIGHT)).collect();
    let out_bias =
        (p[OUT_BIAS] as f64 * (QA * QB) as f64).round().clamp(i32::MIN as f64, i32::MAX as f64) as i32;
    Network::from_parts(ft_weights, ft_bias, out_weights, out_bias).expect("clipped weights fit the file")
}
