//! NNUE: an efficiently updatable neural evaluation.
//!
//! The network is a perspective net: for each side, 768 binary inputs (the side's own and the other
//! side's six piece kinds on 64 squares, the board seen from that side, so Black's view is mirrored top
//! to bottom) feed a hidden layer of [`HIDDEN`] neurons whose pre-activations are the *accumulator*.
//! The side to move's accumulator and the other side's, each through the squared clipped ReLU
//! (SCReLU: `clamp(x, 0, 1)²`), feed one output neuron. In numbers, with `QA` = [`QA`], `QB` = [`QB`]:
//!
//! ```text
//! a_us, a_them = ft_bias + Σ ft_weights[f] over the active features f of each perspective   (i16, ×QA)
//! sum          = Σ_i clamp(a_us[i], 0, QA)² · out[i] + Σ_i clamp(a_them[i], 0, QA)² · out[H + i]  (×QA²·QB)
//! value        = (sum / QA + out_bias) · SCALE / (QA · QB)                                  centipawns
//! ```
//!
//! Integer arithmetic throughout, so every SIMD path ([`simd`]) gives exactly the scalar path's value:
//! accumulators add and subtract with 16-bit wrap-around, the output multiplies `clamp · out` in 16 bits
//! (the file format keeps `|out| ≤` [`MAX_OUTPUT_WEIGHT`] so that product cannot overflow) and sums in
//! 32 bits with wrap-around (modular addition, so the order of the lanes does not matter).
//!
//! Why this shape: 768 inputs need no king buckets, so an accumulator never needs a refresh (a move
//! changes at most four inputs of each perspective); one hidden layer of 256 is the usual first net, small
//! enough for the file to stay under 400 KB and for a laptop to train it in hours; SCReLU is what
//! most single-layer nets use because it learns more per neuron than a plain clipped ReLU.
//!
//! In the search, [`AccumulatorStack`] follows the moves made: a move records which inputs it changes,
//! and the accumulator is brought up to date only when a node is evaluated (lazily, from the nearest
//! computed ancestor).
//!
//! ```
//! use camelpy_core::{nnue::{AccumulatorStack, Network}, Position};
//! let net = Network::example(1);
//! let mut pos = Position::startpos();
//! let mut stack = AccumulatorStack::new();
//! stack.reset(&net, &pos);
//! let mv = pos.parse_uci("e2e4").unwrap();
//! stack.push(&pos, mv);
//! pos.play(mv);
//! assert_eq!(stack.evaluate(&net, &pos), net.evaluate(&pos)); // incremental = full refresh
//! ```

mod error;
pub mod file;
pub mod simd;

pub use error::NetError;
pub use file::{EMBEDDED_NAME, NET_HEADER_SIZE, NET_MAGIC, NET_VERSION};

use crate::{
    board::castling_destinations,
    types::{Color, Move, MoveKind, Piece, PieceType, Square},
    Position,
};

/// Inputs per perspective: 2 colours × 6 piece kinds × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden neurons per perspective (the accumulator's width). A compile-time size, so the kernels
/// unroll; a file of another width is refused with [`NetError::Architecture`].
pub const HIDDEN: usize = 256;
/// Quantisation of the accumulator: a float activation of 1.0 is `QA`. 255 keeps `clamp(x)²` and
/// `clamp(x) · out` in range of the 16-bit multiply (see [`MAX_OUTPUT_WEIGHT`]).
pub const QA: i32 = 255;
/// Quantisation of the output weights: a float weight of 1.0 is `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output: the trainer fits `sigmoid(value / SCALE)` to results.
pub const SCALE: i32 = 400;
/// Largest output weight magnitude (quantised): `QA · 127 < 2¹⁵`, so `clamp · out` fits 16 bits.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
/// The evaluation is clamped to this many centipawns, safely inside the search's non-mate range.
pub const MAX_EVAL: i32 = 20_000;

/// The input index of `piece` on `sq` in `perspective`'s half of the network: the perspective's own
/// pieces first, the board mirrored top to bottom for Black.
///
/// ```
/// use camelpy_core::{nnue::feature, Color, Piece, Square};
/// assert_eq!(feature(Color::White, Piece::WhitePawn, Square::A1), 0);
/// assert_eq!(feature(Color::Black, Piece::BlackPawn, Square::A8), 0); // Black's own pawn, mirrored
/// assert_eq!(feature(Color::White, Piece::BlackKing, Square::H8), 767);
/// ```
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let theirs = (piece.color() != perspective) as usize;
    (theirs * 6 + piece.piece_type() as usize) * 64 + sq.relative_to(perspective) as usize
}

/// The quantised network: weights as the file stores them (layout in [`file`]).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// `INPUTS × HIDDEN`, feature-major: feature `f`'s weights are `[f·HIDDEN, (f+1)·HIDDEN)`.
    ft_weights: Vec<i16>,
    ft_bias: Vec<i16>,
    /// `2 × HIDDEN`: the side to move's accumulator first, then the other side's.
    out_weights: Vec<i16>,
    out_bias: i32,
}

impl core::fmt::Debug for Network {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Network({}→{}×2→1, hash {:#018x})", INPUTS, HIDDEN, self.hash())
    }
}

/// One perspective's hidden pre-activations.
pub type Half = [i16; HIDDEN];

/// Both perspectives' accumulators, indexed by [`Color`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// `halves[White]`, `halves[Black]`.
    pub halves: [Half; 2],
}

impl Accumulator {
    const ZERO: Accumulator = Accumulator { halves: [[0; HIDDEN]; 2] };
}

impl Network {
    /// A network from its parts, checked as a file is: `ft_weights` has `INPUTS × HIDDEN` entries
    /// (feature-major), `ft_bias` `HIDDEN`, `out_weights` `2 × HIDDEN` each within
    /// ±[`MAX_OUTPUT_WEIGHT`].
    pub fn from_parts(
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i32,
    ) -> Result<Network, NetError> {
        let sizes =
            [(ft_weights.len(), INPUTS * HIDDEN), (ft_bias.len(), HIDDEN), (out_weights.len(), 2 * HIDDEN)];
        if sizes.iter().any(|(got, want)| got != want) {
            return Err(NetError::Architecture {
                path: String::new(),
                reason: format!(
                    "layer sizes {}/{}/{} do not match {}→{}×2→1",
                    ft_weights.len(),
                    ft_bias.len(),
                    out_weights.len(),
                    INPUTS,
                    HIDDEN
                ),
            });
        }
        if let Some(i) = out_weights.iter().position(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16) {
            return Err(NetError::Corrupt {
                path: String::new(),
                reason: format!("output weight {i} is {}, outside ±{MAX_OUTPUT_WEIGHT}", out_weights[i]),
            });
        }
        Ok(Network { ft_weights, ft_bias, out_weights, out_bias })
    }

    /// A network with pseudo-random weights from `seed`, for tests and examples (it plays nonsense).
    pub fn example(seed: u64) -> Network {
        let mut rng = crate::hash::SplitMix64::new(seed);
        let mut small = |range: i64| (rng.next_u64() % (2 * range as u64 + 1)) as i64 - range;
        let ft_weights = (0..INPUTS * HIDDEN).map(|_| small(40) as i16).collect();
        let ft_bias = (0..HIDDEN).map(|_| small(60) as i16 + 40).collect();
        let out_weights = (0..2 * HIDDEN).map(|_| small(MAX_OUTPUT_WEIGHT as i64) as i16).collect();
        let out_bias = small(5_000) as i32;
        Network { ft_weights, ft_bias, out_weights, out_bias }
    }

    /// Feature-transformer weights, feature-major (`INPUTS × HIDDEN`).
    pub fn ft_weights(&self) -> &[i16] {
        &self.ft_weights
    }
    /// Feature-transformer biases (`HIDDEN`).
    pub fn ft_bias(&self) -> &[i16] {
        &self.ft_bias
    }
    /// Output weights (`2 × HIDDEN`: side to move, then the other side).
    pub fn out_weights(&self) -> &[i16] {
        &self.out_weights
    }
    /// Output bias (scaled by `QA · QB`).
    pub fn out_bias(&self) -> i32 {
        self.out_bias
    }

    #[inline(always)]
    fn column(&self, f: usize) -> &Half {
        self.ft_weights[f * HIDDEN..(f + 1) * HIDDEN].try_into().expect("HIDDEN-wide column")
    }

    /// Both accumulators of `pos` computed from scratch (the reference for incremental updates).
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::ZERO;
        for color in Color::ALL {
            let half = &mut acc.halves[color as usize];
            half.copy_from_slice(&self.ft_bias);
            for sq in pos.occupied() {
                let piece = pos.piece_on(sq).expect("occupied square");
                simd::add(simd::detected(), half, self.column(feature(color, piece, sq)));
            }
        }
        acc
    }

    /// The value of `acc` for `side_to_move`, in centipawns from its point of view.
    #[inline]
    pub fn output(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        self.output_with(simd::detected(), acc, side_to_move)
    }

    /// [`Network::output`] through a chosen kernel (tests compare them).
    pub fn output_with(&self, level: simd::Level, acc: &Accumulator, side_to_move: Color) -> i32 {
        let (us, them) = (&acc.halves[side_to_move as usize], &acc.halves[side_to_move.flip() as usize]);
        let (w_us, w_them) = self.out_weights.split_at(HIDDEN);
        let sum = simd::screlu_dot(level, us, w_us.try_into().expect("HIDDEN"))
            .wrapping_add(simd::screlu_dot(level, them, w_them.try_into().expect("HIDDEN")));
        let value = (sum / QA + self.out_bias) as i64 * SCALE as i64 / (QA * QB) as i64;
        value.clamp(-MAX_EVAL as i64, MAX_EVAL as i64) as i32
    }

    /// The evaluation of `pos` in centipawns from the side to move's point of view, computed from
    /// scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos), pos.side_to_move())
    }

    /// The file's checksum of these weights (FNV-1a over the payload bytes), shown by `Debug`.
    pub fn hash(&self) -> u64 {
        crate::hash::fnv1a(&file::payload(self))
    }
}

/// The inputs one move switches on and off (at most two each way: castling moves two pieces, a
/// capture removes two and adds one, a promotion changes the moving piece).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    added: [Option<(Piece, Square)>; 2],
    removed: [Option<(Piece, Square)>; 2],
}

impl Delta {
    /// The changes `mv` makes to `pos` (before it is played). `mv` must be legal in `pos`.
    pub fn of_move(pos: &Position, mv: Move) -> Delta {
        let us = pos.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        let piece = pos.piece_on(from).expect("a legal move moves a piece");
        match mv.kind() {
            MoveKind::Normal => Delta {
                added: [Some((piece, to)), None],
                removed: [Some((piece, from)), pos.piece_on(to).map(|victim| (victim, to))],
            },
            MoveKind::Promotion => Delta {
                added: [Some((Piece::new(us, mv.promotion().unwrap_or(PieceType::Queen)), to)), None],
                removed: [Some((piece, from)), pos.piece_on(to).map(|victim| (victim, to))],
            },
            MoveKind::EnPassant => Delta {
                added: [Some((piece, to)), None],
                removed: [
                    Some((piece, from)),
                    Some((Piece::new(us.flip(), PieceType::Pawn), Square::new(to.file(), from.rank()))),
                ],
            },
            MoveKind::Castling => {
                let (king_to, rook_to) = castling_destinations(mv);
                Delta {
                    added: [Some((piece, king_to)), Some((Piece::new(us, PieceType::Rook), rook_to))],
                    removed: [Some((piece, from)), Some((Piece::new(us, PieceType::Rook), to))],
                }
            }
        }
    }

    /// `dst = src` with this delta applied, for both perspectives.
    fn apply(&self, net: &Network, level: simd::Level, src: &Accumulator, dst: &mut Accumulator) {
        for color in Color::ALL {
            let c = color as usize;
            let cols = |list: &[Option<(Piece, Square)>; 2]| {
                let mut out: simd::Columns = [None, None];
                for (o, e) in out.iter_mut().zip(list) {
                    *o = e.map(|(p, s)| net.column(feature(color, p, s)));
                }
                out
            };
            simd::update(level, &src.halves[c], &mut dst.halves[c], cols(&self.added), cols(&self.removed));
        }
    }
}

/// The accumulators along the line the search is on: one entry per move made since [`reset`], each
/// brought up to date from its parent only when the node is evaluated.
///
/// [`reset`]: AccumulatorStack::reset
#[derive(Clone)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    len: usize,
}

#[derive(Clone, Copy)]
struct Entry {
    acc: Accumulator,
    delta: Delta,
    computed: bool,
}

/// Entries allocated up front: more than the search's deepest line, so pushing never reallocates.
const INITIAL_ENTRIES: usize = 256;

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack::new()
    }
}

impl AccumulatorStack {
    /// An empty stack; [`AccumulatorStack::reset`] it to a position before use.
    pub fn new() -> AccumulatorStack {
        let blank = Entry { acc: Accumulator::ZERO, delta: Delta::default(), computed: false };
        AccumulatorStack { entries: vec![blank; INITIAL_ENTRIES], len: 0 }
    }

    /// Starts over at `pos` (a full refresh).
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.entries[0].acc = net.refresh(pos);
        self.entries[0].computed = true;
        self.len = 1;
    }

    /// Moves made since the last reset that have not been popped.
    pub fn depth(&self) -> usize {
        self.len.saturating_sub(1)
    }

    /// Records `mv`, about to be played in `pos`.
    #[inline]
    pub fn push(&mut self, pos: &Position, mv: Move) {
        self.push_delta(Delta::of_move(pos, mv));
    }

    /// Records a null move (no input changes).
    #[inline]
    pub fn push_null(&mut self) {
        self.push_delta(Delta::default());
    }

    fn push_delta(&mut self, delta: Delta) {
        debug_assert!(self.len > 0, "AccumulatorStack used before reset");
        if self.len == self.entries.len() {
            let last = self.entries[self.len - 1];
            self.entries.push(last);
        }
        let e = &mut self.entries[self.len];
        e.delta = delta;
        e.computed = false;
        self.len += 1;
    }

    /// Takes back the last [`push`](AccumulatorStack::push) or [`push_null`](AccumulatorStack::push_null).
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.len > 1, "pop without push");
        self.len -= 1;
    }

    /// The accumulator of the current position, brought up to date.
    pub fn current(&mut self, net: &Network) -> &Accumulator {
        let level = simd::detected();
        let top = self.len - 1;
        let mut first = top;
        while !self.entries[first].computed {
            first -= 1;
        }
        for i in first + 1..=top {
            let (done, rest) = self.entries.split_at_mut(i);
            let e = &mut rest[0];
            e.delta.apply(net, level, &done[i - 1].acc, &mut e.acc);
            e.computed = true;
        }
        &self.entries[top].acc
    }

    /// The evaluation of `pos` (the position the pushes led to), in centipawns for the side to move.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        let acc = self.current(net);
        net.output(acc, stm)
    }
}
