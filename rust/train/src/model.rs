//! The float network the trainer optimises, in any of the core's shapes ([`Arch`]: hidden width and
//! output buckets): its sparse forward and backward passes, and its quantisation into the core's
//! [`Network`].
//!
//! All parameters live in one flat vector (so Adam and the gradient buffers are plain slices), laid out
//! as the file is ([`Layout`]): feature weights (feature-major), feature biases, output weights (per
//! bucket, side to move first), output biases. The output is in units of [`SCALE`] centipawns.

use camelpy_core::{
    data::SplitMix64,
    nnue::{bucketed_feature, Arch, Hidden, InputBuckets, Network, MAX_OUTPUT_WEIGHT, QA, QB_FINE, SCALE},
    types::{Color, Piece, PieceType, Square},
    Position,
};

use crate::samples::Sample;

/// Where each block of a network of one shape starts in the flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The network's shape.
    pub arch: Arch,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Start of the feature biases (the feature weights start at 0).
    pub ft_bias: usize,
    /// Start of the output weights: per output bucket, the side to move's `hidden`, then the other's.
    pub out_weights: usize,
    /// Start of the output biases, one per bucket.
    pub out_bias: usize,
    /// Number of parameters.
    pub params: usize,
}

impl Layout {
    /// The layout of a network of shape `arch`.
    pub const fn of(arch: Arch) -> Layout {
        let hidden = arch.hidden.size();
        let ft_bias = arch.ft_weights_len();
        let out_weights = ft_bias + hidden;
        let out_bias = out_weights + arch.output_buckets.count() * 2 * hidden;
        Layout {
            arch,
            hidden,
            ft_bias,
            out_weights,
            out_bias,
            params: out_bias + arch.output_buckets.count(),
        }
    }

    /// Start of output bucket `bucket`'s weights.
    #[inline(always)]
    fn bucket_weights(&self, bucket: usize) -> usize {
        self.out_weights + bucket * 2 * self.hidden
    }
}

/// Largest magnitude of a feature weight or bias: 32 pieces at this much, quantised by `QA`, stay inside
/// the accumulator's 16 bits (32 · 1.98 · 255 + bias < 32,767), so the quantised net never wraps.
pub const MAX_FT_WEIGHT: f32 = 1.98;
/// The output weights' scale `QB` of the networks this trainer writes: 256, since on the older 1/64 grid
/// rounding cost a 512-wide net 0.00065 of its 0.0150 loss (39 cp mean), on 1/256 nothing (docs/nnue.md).
pub const EXPORT_QB: i32 = QB_FINE;
/// Largest magnitude of an output weight: the file's limit, [`MAX_OUTPUT_WEIGHT`] / [`EXPORT_QB`] (0.496;
/// trained weights stay under 0.34).
pub const MAX_OUT_WEIGHT: f32 = MAX_OUTPUT_WEIGHT as f32 / EXPORT_QB as f32;

/// Most pieces on a board, hence most active features per perspective.
const MAX_FEATURES: usize = 32;

/// Fresh parameters of layout `l` from `seed`: weights uniform in ±1/√(fan-in), biases zero (for
/// camelpy-1's shape the values of every earlier trainer).
pub fn init(l: &Layout, seed: u64) -> Vec<f32> {
    let mut rng = SplitMix64::new(seed);
    let mut uniform = |bound: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * bound;
    let mut p = vec![0.0f32; l.params];
    let ft_bound = 1.0 / (MAX_FEATURES as f32).sqrt();
    for w in &mut p[..l.ft_bias] {
        *w = uniform(ft_bound);
    }
    let out_bound = 1.0 / ((2 * l.hidden) as f32).sqrt();
    for w in &mut p[l.out_weights..l.out_bias] {
        *w = uniform(out_bound);
    }
    p
}

/// The float parameters of layout `l` that quantise back to `net` (whose shape must be `l`'s): each
/// stored integer over its scale (`QA`, the file's `QB`, `QA · QB`), so that a run can start from a
/// trained network instead of fresh weights (`camelpy train --init`). Output weights of a 1/64-grid net
/// beyond [`MAX_OUT_WEIGHT`] come back as they are; the first step clips them (camelpy-2 has a few).
pub fn dequantise(l: &Layout, net: &Network) -> Vec<f32> {
    debug_assert_eq!(net.arch(), l.arch);
    let (qa, qb) = (QA as f32, net.qb() as f32);
    let mut p = Vec::with_capacity(l.params);
    p.extend(net.ft_weights().iter().map(|&w| w as f32 / qa));
    p.extend(net.ft_bias().iter().map(|&w| w as f32 / qa));
    p.extend(net.out_weights().iter().map(|&w| w as f32 / qb));
    p.extend(net.out_bias().iter().map(|&b| (b as f64 / (QA as f64 * qb as f64)) as f32));
    debug_assert_eq!(p.len(), l.params);
    p
}

/// Clamps the parameters into the quantisable range (after every optimiser step).
pub fn clip(l: &Layout, p: &mut [f32]) {
    for w in &mut p[..l.out_weights] {
        *w = w.clamp(-MAX_FT_WEIGHT, MAX_FT_WEIGHT);
    }
    for w in &mut p[l.out_weights..l.out_bias] {
        *w = w.clamp(-MAX_OUT_WEIGHT, MAX_OUT_WEIGHT);
    }
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Scratch space for one position's passes (one per thread), for one layout.
pub struct Scratch {
    features: [[usize; MAX_FEATURES]; 2],
    count: usize,
    /// The output bucket of the position (from its piece count).
    bucket: usize,
    pre: [Vec<f32>; 2],
    grad: Vec<f32>,
}

impl Scratch {
    /// Scratch space for networks of layout `l`.
    pub fn new(l: &Layout) -> Scratch {
        Scratch {
            features: [[0; MAX_FEATURES]; 2],
            count: 0,
            bucket: 0,
            pre: [vec![0.0; l.hidden], vec![0.0; l.hidden]],
            grad: vec![0.0; l.hidden],
        }
    }
}

#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The network's output for the active features `s.features[side][..s.count]` (side 0: the side to
/// move's perspective, 1: the other's), leaving the pre-activations in `s`.
fn output(l: &Layout, p: &[f32], s: &mut Scratch) -> f32 {
    let h = l.hidden;
    let bias = &p[l.ft_bias..l.out_weights];
    s.bucket = l.arch.output_buckets.bucket(s.count as u32);
    let w_bucket = l.bucket_weights(s.bucket);
    let mut out = p[l.out_bias + s.bucket];
    for side in 0..2 {
        let pre = &mut s.pre[side];
        let features = &s.features[side][..s.count];
        // A block of neurons at a time, summed over every feature in registers and stored once (one
        // neuron's sum is bias + the features in order either way, so the result is the same).
        for (block, (pre, bias)) in
            pre.chunks_exact_mut(ACC_BLOCK).zip(bias.chunks_exact(ACC_BLOCK)).enumerate()
        {
            let mut acc = [0.0f32; ACC_BLOCK];
            acc.copy_from_slice(bias);
            for &f in features {
                let row = f * h + block * ACC_BLOCK;
                for (a, w) in acc.iter_mut().zip(&p[row..row + ACC_BLOCK]) {
                    *a += w;
                }
            }
            pre.copy_from_slice(&acc);
        }
        out += screlu_dot(pre, &p[w_bucket + side * h..w_bucket + (side + 1) * h]);
    }
    out
}

/// Neurons summed at once in [`output`]: 64 floats fill eight 256-bit registers, leaving the rest free.
const ACC_BLOCK: usize = 64;

// Every hidden width is whole blocks and whole lanes (`chunks_exact` would drop a remainder).
const _: () = {
    let mut i = 0;
    while i < Hidden::ALL.len() {
        assert!(Hidden::ALL[i].size().is_multiple_of(ACC_BLOCK) && ACC_BLOCK.is_multiple_of(DOT_LANES));
        i += 1;
    }
};

/// Lanes of [`screlu_dot`]'s partial sums: as wide as an AVX-512 register, so the compiler keeps them in
/// vector registers (one running sum would chain every add on the last and run scalar).
const DOT_LANES: usize = 16;

/// `Σ screlu(a[i]) · w[i]`, summed in [`DOT_LANES`] interleaved partial sums (then those in order): the
/// same result on every machine, vectorised everywhere. `a.len()` is the hidden width, whole lanes.
#[inline(always)]
fn screlu_dot(a: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; DOT_LANES];
    for (a, w) in a.chunks_exact(DOT_LANES).zip(w.chunks_exact(DOT_LANES)) {
        for ((sum, &a), &w) in lanes.iter_mut().zip(a).zip(w) {
            *sum += screlu(a) * w;
        }
    }
    lanes.iter().sum()
}

/// Fills `s` with the features of `pieces` seen by `stm` and by the other side (through `buckets`,
/// which need each side's king).
fn set_features(
    s: &mut Scratch,
    buckets: InputBuckets,
    stm: Color,
    pieces: impl Iterator<Item = (Piece, Square)>,
) {
    let mut board = [(Piece::WhitePawn, Square::A1); MAX_FEATURES];
    let mut kings = [Square::A1; 2];
    s.count = 0;
    for (piece, sq) in pieces {
        if piece.piece_type() == PieceType::King {
            kings[piece.color() as usize] = sq;
        }
        board[s.count] = (piece, sq);
        s.count += 1;
    }
    let keys = [stm, stm.flip()].map(|c| buckets.key(c, kings[c as usize]));
    for (k, &(piece, sq)) in board[..s.count].iter().enumerate() {
        s.features[0][k] = bucketed_feature(stm, keys[0], piece, sq);
        s.features[1][k] = bucketed_feature(stm.flip(), keys[1], piece, sq);
    }
}

/// The network's output for `sample` (its board mirrored left to right with `mirror`), leaving its
/// features and pre-activations in `s`.
fn forward_into(l: &Layout, p: &[f32], sample: &Sample, mirror: bool, s: &mut Scratch) -> f32 {
    let pieces = sample.pieces().map(|(piece, sq)| (piece, if mirror { sq.flip_file() } else { sq }));
    set_features(s, l.arch.input_buckets, sample.side_to_move(), pieces);
    output(l, p, s)
}

/// The float network's evaluation of `sample`, in centipawns for the side to move.
pub fn evaluate_sample(l: &Layout, p: &[f32], sample: &Sample) -> f32 {
    forward_into(l, p, sample, false, &mut Scratch::new(l)) * SCALE as f32
}

/// The float network's evaluation of `pos`, in centipawns for the side to move.
pub fn evaluate(l: &Layout, p: &[f32], pos: &Position) -> f32 {
    let mut s = Scratch::new(l);
    let pieces = pos.occupied().map(|sq| (pos.piece_on(sq).expect("occupied"), sq));
    set_features(&mut s, l.arch.input_buckets, pos.side_to_move(), pieces);
    output(l, p, &mut s) * SCALE as f32
}

/// The training target of `sample`: `wdl` parts game result, the rest the search score through the
/// same sigmoid as the output.
#[inline]
pub fn target(sample: &Sample, wdl: f32) -> f32 {
    wdl * sample.result() + (1.0 - wdl) * sigmoid(sample.score as f32 / SCALE as f32)
}

/// The squared error of `sample` against its target.
pub fn loss(l: &Layout, p: &[f32], sample: &Sample, wdl: f32, s: &mut Scratch) -> f32 {
    let e = sigmoid(forward_into(l, p, sample, false, s)) - target(sample, wdl);
    e * e
}

/// Adds the gradient of `sample`'s squared error (its board mirrored left to right with `mirror`) to
/// `g` and returns the error.
pub fn backward(
    l: &Layout,
    p: &[f32],
    g: &mut [f32],
    sample: &Sample,
    mirror: bool,
    wdl: f32,
    s: &mut Scratch,
) -> f32 {
    let h = l.hidden;
    let y = forward_into(l, p, sample, mirror, s);
    let q = sigmoid(y);
    let e = q - target(sample, wdl);
    let dy = 2.0 * e * q * (1.0 - q);
    g[l.out_bias + s.bucket] += dy;
    let w_bucket = l.bucket_weights(s.bucket);
    for side in 0..2 {
        let w_out = w_bucket + side * h..w_bucket + (side + 1) * h;
        // Slices zipped, not indexed, so the loop runs without bounds checks, in vector registers.
        for (((gw, grad), &a), &w) in
            g[w_out.clone()].iter_mut().zip(&mut s.grad).zip(&s.pre[side]).zip(&p[w_out])
        {
            *gw += dy * screlu(a);
            *grad = if a > 0.0 && a < 1.0 { dy * w * 2.0 * a } else { 0.0 };
        }
        for (gb, d) in g[l.ft_bias..l.out_weights].iter_mut().zip(&s.grad) {
            *gb += d;
        }
        for &f in &s.features[side][..s.count] {
            for (gw, d) in g[f * h..(f + 1) * h].iter_mut().zip(&s.grad) {
                *gw += d;
            }
        }
    }
    e * e
}

/// The parameters (of layout `l`) quantised into the core's network, its output weights and bias on
/// [`EXPORT_QB`]'s grid.
pub fn quantise(l: &Layout, p: &[f32]) -> Network {
    let q16 = |w: f32, scale: i32, limit: f32| (w.clamp(-limit, limit) * scale as f32).round() as i16;
    let ft_weights = p[..l.ft_bias].iter().map(|&w| q16(w, QA, MAX_FT_WEIGHT)).collect();
    let ft_bias = p[l.ft_bias..l.out_weights].iter().map(|&w| q16(w, QA, MAX_FT_WEIGHT)).collect();
    let out_weights =
        p[l.out_weights..l.out_bias].iter().map(|&w| q16(w, EXPORT_QB, MAX_OUT_WEIGHT)).collect();
    let out_bias = p[l.out_bias..l.params]
        .iter()
        .map(|&b| (b as f64 * (QA * EXPORT_QB) as f64).round().clamp(i32::MIN as f64, i32::MAX as f64) as i32)
        .collect();
    Network::from_parts(l.arch, EXPORT_QB, ft_weights, ft_bias, out_weights, out_bias)
        .expect("clipped weights fit the file")
}
