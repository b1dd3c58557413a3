//! NNUE: an efficiently updatable neural evaluation.
//!
//! The network is a perspective net: for each side, 768 binary inputs (the side's own and the other
//! side's six piece kinds on 64 squares, the board seen from that side, so Black's view is mirrored top
//! to bottom) feed a hidden layer of `H` neurons ([`Hidden`]: 256 for camelpy-1, or 512, 768, 1,024)
//! whose pre-activations are the *accumulator*. The side to move's accumulator and the other side's,
//! each through the squared clipped ReLU (SCReLU: `clamp(x, 0, 1)²`), feed one output neuron, or with
//! [`OutputBuckets::Material`] the one of eight that the number of pieces on the board selects. The
//! shape ([`Arch`]) is a property of the file ([`file`]), and so is the output weights' scale `QB`
//! ([`Network::qb`]: [`QB_V1`] or [`QB_FINE`]). In numbers, with `QA` = [`QA`]:
//!
//! ```text
//! a_us, a_them = ft_bias + Σ ft_weights[f] over the active features f of each perspective   (i16, ×QA)
//! b            = the output bucket: 0, or (pieces − 2) / 4 with material buckets
//! sum          = Σ_i clamp(a_us[i], 0, QA)² · out[b][i]
//!              + Σ_i clamp(a_them[i], 0, QA)² · out[b][H + i]                                (×QA²·QB)
//! value        = (sum / QA + out_bias[b]) · SCALE / (QA · QB)                               centipawns
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
//! most single-layer nets use because it learns more per neuron than a plain clipped ReLU. Wider layers
//! and output buckets are there to be measured (docs/nnue.md): every kernel is generic over the width
//! (const generics), the width a closed set chosen once when a file loads, and each evaluation
//! dispatches by one `match` on it, so the built-in net runs the same unrolled code as before.
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
pub use file::{BUILT_IN, EMBEDDED_NAME, NET_HEADER_SIZE, NET_MAGIC, NET_VERSION};

use crate::{
    board::castling_destinations,
    types::{Color, Move, MoveKind, Piece, PieceType, Square},
    Position,
};

/// Inputs per perspective: 2 colours × 6 piece kinds × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden neurons per perspective of the built-in network and of version-1 files
/// ([`Hidden::H256`]); other widths are [`Hidden`]'s.
pub const HIDDEN: usize = 256;
/// Quantisation of the accumulator: a float activation of 1.0 is `QA`. 255 keeps `clamp(x)²` and
/// `clamp(x) · out` in range of the 16-bit multiply (see [`MAX_OUTPUT_WEIGHT`]).
pub const QA: i32 = 255;
/// Quantisation of the output weights (`QB`: a float weight of 1.0 is `QB`) of every version-1 file and
/// of camelpy-1 and camelpy-2: 64.
pub const QB_V1: i32 = 64;
/// The finer `QB` a version-2 file may have, which the trainer writes: on the 1/64 grid a 512-wide net lost
/// 0.00065 of its 0.0150 loss (39 cp mean) to rounding, on 1/256 nothing (docs/nnue.md); trained output
/// weights stay under 0.34, so `|w| ≤ 127 / 256` loses none of them.
pub const QB_FINE: i32 = 256;
/// Every `QB` a network file may have: [`QB_V1`], and in version 2 [`QB_FINE`] too.
pub const QBS: [i32; 2] = [QB_V1, QB_FINE];
/// Centipawns per unit of the network's output: the trainer fits `sigmoid(value / SCALE)` to results.
pub const SCALE: i32 = 400;
/// Largest output weight magnitude (quantised, whatever the file's `QB`): `QA · 127 < 2¹⁵`, so `clamp · out`
/// fits 16 bits.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
/// The evaluation is clamped to this many centipawns, safely inside the search's non-mate range.
pub const MAX_EVAL: i32 = 20_000;
/// Output buckets of [`OutputBuckets::Material`]: 2 to 32 pieces in steps of 4.
pub const MATERIAL_BUCKETS: usize = 8;
/// Pieces per output bucket of [`OutputBuckets::Material`]: `(32 − 2) / 4` puts 30 and more pieces in
/// the last of [`MATERIAL_BUCKETS`] and bare kings in the first.
const PIECES_PER_BUCKET: u32 = 4;

/// The hidden layer's width (neurons per perspective): a closed set, so that every kernel is compiled
/// and unrolled for each width (const generics) and a file's width is chosen once, when it loads,
/// then dispatched by one well-predicted `match` per evaluation. All are multiples of 32 lanes, the
/// widest vector ([`simd`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Hidden {
    /// 256 neurons: camelpy-1 and every version-1 file.
    H256,
    /// 512 neurons.
    H512,
    /// 768 neurons.
    H768,
    /// 1,024 neurons.
    H1024,
}

impl Hidden {
    /// Every width, narrowest first.
    pub const ALL: [Hidden; 4] = [Hidden::H256, Hidden::H512, Hidden::H768, Hidden::H1024];

    /// Neurons per perspective.
    pub const fn size(self) -> usize {
        match self {
            Hidden::H256 => 256,
            Hidden::H512 => 512,
            Hidden::H768 => 768,
            Hidden::H1024 => 1024,
        }
    }

    /// The width of `size` neurons, if it is one of [`Hidden::ALL`].
    ///
    /// ```
    /// use camelpy_core::nnue::Hidden;
    /// assert_eq!(Hidden::from_size(512), Some(Hidden::H512));
    /// assert_eq!(Hidden::from_size(300), None);
    /// ```
    pub fn from_size(size: u64) -> Option<Hidden> {
        Hidden::ALL.into_iter().find(|h| h.size() as u64 == size)
    }
}

/// Runs `$body` with the const `$h` set to `$hidden`'s size (one monomorphised copy per width).
macro_rules! with_hidden {
    ($hidden:expr, $h:ident => $body:expr) => {
        match $hidden {
            Hidden::H256 => {
                const $h: usize = 256;
                $body
            }
            Hidden::H512 => {
                const $h: usize = 512;
                $body
            }
            Hidden::H768 => {
                const $h: usize = 768;
                $body
            }
            Hidden::H1024 => {
                const $h: usize = 1024;
                $body
            }
        }
    };
}

/// Which output neuron evaluates a position: one for all, or one per material band.
///
/// Material (the number of pieces on the board, kings and pawns included) is the usual choice: it
/// costs a popcount, it tracks the game's phase (what a pawn or a king's activity is worth changes from
/// the middlegame to the endgame) and, unlike a phase weighted by piece kinds, it needs no tuned
/// weights. The bands are `(pieces − 2) / 4`, so [`MATERIAL_BUCKETS`] equal bands cover 2 to 32 pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputBuckets {
    /// One output neuron (camelpy-1 and every version-1 file).
    Single,
    /// [`MATERIAL_BUCKETS`] output neurons, chosen by `(pieces − 2) / 4`.
    Material,
}

impl OutputBuckets {
    /// Output neurons.
    pub const fn count(self) -> usize {
        match self {
            OutputBuckets::Single => 1,
            OutputBuckets::Material => MATERIAL_BUCKETS,
        }
    }

    /// The layout of `count` output neurons, if it is one this build has (1 or [`MATERIAL_BUCKETS`]).
    pub fn from_count(count: u64) -> Option<OutputBuckets> {
        [OutputBuckets::Single, OutputBuckets::Material].into_iter().find(|b| b.count() as u64 == count)
    }

    /// The output neuron that evaluates a board of `pieces` pieces.
    ///
    /// ```
    /// use camelpy_core::nnue::OutputBuckets;
    /// assert_eq!(OutputBuckets::Material.bucket(32), 7);
    /// assert_eq!(OutputBuckets::Material.bucket(2), 0);
    /// assert_eq!(OutputBuckets::Material.bucket(17), 3);
    /// assert_eq!(OutputBuckets::Single.bucket(17), 0);
    /// ```
    #[inline(always)]
    pub fn bucket(self, pieces: u32) -> usize {
        match self {
            OutputBuckets::Single => 0,
            OutputBuckets::Material => {
                ((pieces.saturating_sub(2) / PIECES_PER_BUCKET) as usize).min(MATERIAL_BUCKETS - 1)
            }
        }
    }
}

/// Input buckets of [`InputBuckets::King4`].
pub const KING_BUCKETS: usize = 4;
/// [`InputBuckets::King4`]'s bucket of each of the 32 king squares a perspective can see once the board
/// is mirrored so that its king stands on files a–d (rank by rank from its first rank, files a to d):
/// on the first rank the castled corner (a–b, so also g–h) apart from the centre (c–d, the king that has
/// not castled), the second rank, and ranks 3–8 (a king that has walked out, mostly in endgames).
const KING_BUCKET_OF: [u8; 32] = {
    let mut table = [3u8; 32];
    table[0] = 0;
    table[1] = 0;
    table[2] = 1;
    table[3] = 1;
    let mut i = 4;
    while i < 8 {
        table[i] = 2;
        i += 1;
    }
    table
};

/// Which copy of the 768 inputs a perspective uses: one for all, or one per region of its own king's
/// square, the board mirrored left to right whenever that king is on files e–h (so only 32 king squares
/// matter). With king buckets an accumulator is computed afresh when its king changes bucket or side of
/// the board; otherwise a move changes at most four inputs of each perspective.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputBuckets {
    /// One set of inputs, no mirroring (camelpy-1 and every version-1 file).
    Single,
    /// [`KING_BUCKETS`] sets by the king's region ([`InputBuckets::key`]), mirrored horizontally.
    King4,
}

impl InputBuckets {
    /// Sets of inputs.
    pub const fn count(self) -> usize {
        match self {
            InputBuckets::Single => 1,
            InputBuckets::King4 => KING_BUCKETS,
        }
    }

    /// The layout of `count` input sets, if it is one this build has (1 or [`KING_BUCKETS`]).
    pub fn from_count(count: u64) -> Option<InputBuckets> {
        [InputBuckets::Single, InputBuckets::King4].into_iter().find(|b| b.count() as u64 == count)
    }

    /// `perspective`'s input set and whether its board is mirrored left to right, its king on `king`.
    ///
    /// ```
    /// use camelpy_core::{nnue::InputBuckets, Color, Square};
    /// assert_eq!(InputBuckets::King4.key(Color::White, Square::G1), (0, true)); // castled short
    /// assert_eq!(InputBuckets::King4.key(Color::White, Square::E1), (1, true));
    /// assert_eq!(InputBuckets::King4.key(Color::Black, Square::D7), (2, false)); // its second rank
    /// assert_eq!(InputBuckets::King4.key(Color::Black, Square::A1), (3, false));
    /// assert_eq!(InputBuckets::Single.key(Color::White, Square::G1), (0, false));
    /// ```
    #[inline(always)]
    pub fn key(self, perspective: Color, king: Square) -> (usize, bool) {
        match self {
            InputBuckets::Single => (0, false),
            InputBuckets::King4 => {
                let k = king.relative_to(perspective) as usize;
                let mirror = k % 8 >= 4;
                let file = if mirror { 7 - k % 8 } else { k % 8 };
                (KING_BUCKET_OF[k / 8 * 4 + file] as usize, mirror)
            }
        }
    }
}

/// The input index of `piece` on `sq` for `perspective` with input-set key `key`
/// ([`InputBuckets::key`]): the set's offset plus [`feature`] of the (mirrored) square.
///
/// ```
/// use camelpy_core::{nnue::{bucketed_feature, feature}, Color, Piece, Square};
/// assert_eq!(bucketed_feature(Color::White, (0, false), Piece::WhitePawn, Square::E2), 12);
/// assert_eq!(bucketed_feature(Color::White, (2, true), Piece::WhitePawn, Square::E2), 2 * 768 + 11);
/// ```
#[inline(always)]
pub fn bucketed_feature(perspective: Color, key: (usize, bool), piece: Piece, sq: Square) -> usize {
    key.0 * INPUTS + feature(perspective, piece, if key.1 { sq.flip_file() } else { sq })
}

/// A network's shape: its hidden width, its output buckets and its input buckets. Inputs per set,
/// activation and accumulator quantisation are the same for all ([`INPUTS`], SCReLU, [`QA`], [`SCALE`]);
/// the output weights' scale is the network's own ([`Network::qb`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arch {
    /// Neurons per perspective.
    pub hidden: Hidden,
    /// Output neurons and how one is chosen.
    pub output_buckets: OutputBuckets,
    /// Sets of inputs and how one is chosen.
    pub input_buckets: InputBuckets,
}

impl Arch {
    /// camelpy-1's shape, the only one of version-1 files: 768 → 256 × 2 → 1.
    pub const V1: Arch = Arch {
        hidden: Hidden::H256,
        output_buckets: OutputBuckets::Single,
        input_buckets: InputBuckets::Single,
    };

    /// A shape without input buckets.
    pub const fn new(hidden: Hidden, output_buckets: OutputBuckets) -> Arch {
        Arch { hidden, output_buckets, input_buckets: InputBuckets::Single }
    }

    /// Feature-transformer weights: `input sets × INPUTS × hidden`.
    pub const fn ft_weights_len(self) -> usize {
        self.input_buckets.count() * INPUTS * self.hidden.size()
    }
    /// Output weights: `buckets × 2 × hidden`.
    pub const fn out_weights_len(self) -> usize {
        self.output_buckets.count() * 2 * self.hidden.size()
    }
}

impl core::fmt::Display for Arch {
    /// `768→256×2→1`, with material buckets `768→512×2→1×8 material buckets`, with king buckets
    /// `768×4 king buckets→256×2→1`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{INPUTS}")?;
        if self.input_buckets == InputBuckets::King4 {
            write!(f, "×{KING_BUCKETS} king buckets")?;
        }
        write!(f, "→{}×2→1", self.hidden.size())?;
        match self.output_buckets {
            OutputBuckets::Single => Ok(()),
            OutputBuckets::Material => write!(f, "×{MATERIAL_BUCKETS} material buckets"),
        }
    }
}

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

/// The quantised network: its shape and its weights as the file stores them (layout in [`file`]).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    arch: Arch,
    /// The output weights' scale `QB`: one of [`QBS`].
    qb: i32,
    /// `INPUTS × hidden`, feature-major: feature `f`'s weights are `[f·hidden, (f+1)·hidden)`.
    ft_weights: Vec<i16>,
    ft_bias: Vec<i16>,
    /// `buckets × 2 × hidden`, bucket-major: each bucket's side to move's weights first, then the
    /// other side's.
    out_weights: Vec<i16>,
    /// One per output bucket.
    out_bias: Vec<i32>,
}

impl core::fmt::Debug for Network {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Network({}, QB {}, hash {:#018x})", self.arch, self.qb, self.hash())
    }
}

/// Both perspectives' accumulators of a `H`-wide network, indexed by [`Color`] (the search's own,
/// aligned for the vector loads).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
struct Acc<const H: usize> {
    halves: [[i16; H]; 2],
}

impl<const H: usize> Acc<H> {
    const ZERO: Acc<H> = Acc { halves: [[0; H]; 2] };
}

/// Both perspectives' accumulators (hidden pre-activations) of a position, for any width: what
/// [`Network::refresh`] computes and [`AccumulatorStack::current`] copies out, to compare them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Accumulator(AnyAcc);

#[derive(Clone, PartialEq, Eq, Debug)]
enum AnyAcc {
    H256(Box<Acc<256>>),
    H512(Box<Acc<512>>),
    H768(Box<Acc<768>>),
    H1024(Box<Acc<1024>>),
}

/// Runs `$body` with `$a` the accumulator of its width and `$h` that width.
macro_rules! with_acc {
    ($acc:expr, $a:ident, $h:ident => $body:expr) => {
        match $acc {
            AnyAcc::H256($a) => {
                const $h: usize = 256;
                $body
            }
            AnyAcc::H512($a) => {
                const $h: usize = 512;
                $body
            }
            AnyAcc::H768($a) => {
                const $h: usize = 768;
                $body
            }
            AnyAcc::H1024($a) => {
                const $h: usize = 1024;
                $body
            }
        }
    };
}

impl Accumulator {
    fn from_acc<const H: usize>(acc: &Acc<H>) -> Accumulator {
        let any: &dyn core::any::Any = acc;
        // Exactly one of these matches: `H` is one of `Hidden`'s sizes.
        Accumulator(if let Some(a) = any.downcast_ref::<Acc<256>>() {
            AnyAcc::H256(Box::new(*a))
        } else if let Some(a) = any.downcast_ref::<Acc<512>>() {
            AnyAcc::H512(Box::new(*a))
        } else if let Some(a) = any.downcast_ref::<Acc<768>>() {
            AnyAcc::H768(Box::new(*a))
        } else {
            AnyAcc::H1024(Box::new(*any.downcast_ref::<Acc<1024>>().expect("a width of Hidden")))
        })
    }

    /// The width (neurons per perspective).
    pub fn hidden(&self) -> Hidden {
        match &self.0 {
            AnyAcc::H256(_) => Hidden::H256,
            AnyAcc::H512(_) => Hidden::H512,
            AnyAcc::H768(_) => Hidden::H768,
            AnyAcc::H1024(_) => Hidden::H1024,
        }
    }

    /// `color`'s half: its perspective's pre-activations.
    pub fn half(&self, color: Color) -> &[i16] {
        with_acc!(&self.0, a, _H => &a.halves[color as usize])
    }
}

impl Network {
    /// A network from its parts, checked as a file is: `qb` one of [`QBS`] (the output weights' and
    /// biases' scale), `ft_weights` has `INPUTS × hidden` entries (feature-major), `ft_bias` `hidden`,
    /// `out_weights` `buckets × 2 × hidden` each within ±[`MAX_OUTPUT_WEIGHT`], `out_bias` `buckets`.
    pub fn from_parts(
        arch: Arch,
        qb: i32,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: Vec<i32>,
    ) -> Result<Network, NetError> {
        let sizes = [
            (ft_weights.len(), arch.ft_weights_len()),
            (ft_bias.len(), arch.hidden.size()),
            (out_weights.len(), arch.out_weights_len()),
            (out_bias.len(), arch.output_buckets.count()),
        ];
        if !QBS.contains(&qb) {
            return Err(NetError::Architecture {
                path: String::new(),
                reason: format!("QB is {qb}, this build reads {QB_V1} or {QB_FINE}"),
            });
        }
        if sizes.iter().any(|(got, want)| got != want) {
            return Err(NetError::Architecture {
                path: String::new(),
                reason: format!(
                    "layer sizes {}/{}/{}/{} do not match {arch}",
                    ft_weights.len(),
                    ft_bias.len(),
                    out_weights.len(),
                    out_bias.len(),
                ),
            });
        }
        if let Some(i) = out_weights.iter().position(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16) {
            return Err(NetError::Corrupt {
                path: String::new(),
                reason: format!("output weight {i} is {}, outside ±{MAX_OUTPUT_WEIGHT}", out_weights[i]),
            });
        }
        Ok(Network { arch, qb, ft_weights, ft_bias, out_weights, out_bias })
    }

    /// A network of camelpy-1's shape and `QB` ([`QB_V1`]) with pseudo-random weights from `seed`, for
    /// tests and examples (it plays nonsense).
    pub fn example(seed: u64) -> Network {
        Network::example_of(Arch::V1, seed)
    }

    /// A network of shape `arch` with `QB` [`QB_V1`] and pseudo-random weights from `seed` (the weights
    /// of [`Network::example`] for camelpy-1's shape).
    pub fn example_of(arch: Arch, seed: u64) -> Network {
        Network::example_with(arch, QB_V1, seed)
    }

    /// A network of shape `arch` and output scale `qb` (one of [`QBS`]) with the weights of
    /// [`Network::example_of`]: the same integers, so with [`QB_FINE`] a quarter of the output.
    ///
    /// # Panics
    /// If `qb` is not one of [`QBS`].
    pub fn example_with(arch: Arch, qb: i32, seed: u64) -> Network {
        assert!(QBS.contains(&qb), "QB {qb} is not one of {QBS:?}");
        let mut rng = crate::hash::SplitMix64::new(seed);
        let mut small = |range: i64| (rng.next_u64() % (2 * range as u64 + 1)) as i64 - range;
        let ft_weights = (0..arch.ft_weights_len()).map(|_| small(40) as i16).collect();
        let ft_bias = (0..arch.hidden.size()).map(|_| small(60) as i16 + 40).collect();
        let out_weights =
            (0..arch.out_weights_len()).map(|_| small(MAX_OUTPUT_WEIGHT as i64) as i16).collect();
        let out_bias = (0..arch.output_buckets.count()).map(|_| small(5_000) as i32).collect();
        Network { arch, qb, ft_weights, ft_bias, out_weights, out_bias }
    }

    /// The network's shape.
    pub fn arch(&self) -> Arch {
        self.arch
    }
    /// The output weights' scale `QB` (a float weight of 1.0 is `QB`): one of [`QBS`], the file's.
    pub fn qb(&self) -> i32 {
        self.qb
    }
    /// Feature-transformer weights, feature-major (`INPUTS × hidden`).
    pub fn ft_weights(&self) -> &[i16] {
        &self.ft_weights
    }
    /// Feature-transformer biases (`hidden`).
    pub fn ft_bias(&self) -> &[i16] {
        &self.ft_bias
    }
    /// Output weights (`buckets × 2 × hidden`: per bucket, side to move, then the other side).
    pub fn out_weights(&self) -> &[i16] {
        &self.out_weights
    }
    /// Output biases, one per bucket (scaled by `QA · QB`, [`Network::qb`]).
    pub fn out_bias(&self) -> &[i32] {
        &self.out_bias
    }

    #[inline(always)]
    fn column<const H: usize>(&self, f: usize) -> &[i16; H] {
        self.ft_weights[f * H..(f + 1) * H].try_into().expect("H-wide column")
    }

    /// `perspective`'s input-set key in `pos` ([`InputBuckets::key`]).
    #[inline(always)]
    fn key(&self, perspective: Color, pos: &Position) -> (usize, bool) {
        self.arch.input_buckets.key(perspective, pos.king(perspective))
    }

    /// `color`'s accumulator of `pos` computed from scratch into `half`.
    fn refresh_half<const H: usize>(
        &self,
        level: simd::Level,
        pos: &Position,
        color: Color,
        half: &mut [i16; H],
    ) {
        let key = self.key(color, pos);
        half.copy_from_slice(&self.ft_bias);
        for sq in pos.occupied() {
            let piece = pos.piece_on(sq).expect("occupied square");
            simd::add(level, half, self.column::<H>(bucketed_feature(color, key, piece, sq)));
        }
    }

    /// Both accumulators of `pos` computed from scratch into `acc`.
    fn refresh_into<const H: usize>(&self, pos: &Position, acc: &mut Acc<H>) {
        let level = simd::detected();
        for color in Color::ALL {
            self.refresh_half(level, pos, color, &mut acc.halves[color as usize]);
        }
    }

    /// Both accumulators of `pos` computed from scratch (the reference for incremental updates).
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        with_hidden!(self.arch.hidden, H => {
            let mut acc = Box::new(Acc::<H>::ZERO);
            self.refresh_into(pos, &mut acc);
            Accumulator::from_acc(&acc)
        })
    }

    /// The output of `acc` for `side_to_move` through the output bucket of a board of `pieces`.
    #[inline(always)]
    fn output_h<const H: usize>(
        &self,
        level: simd::Level,
        acc: &Acc<H>,
        side_to_move: Color,
        pieces: u32,
    ) -> i32 {
        let bucket = self.arch.output_buckets.bucket(pieces);
        let (us, them) = (&acc.halves[side_to_move as usize], &acc.halves[side_to_move.flip() as usize]);
        let weights = &self.out_weights[bucket * 2 * H..(bucket + 1) * 2 * H];
        let (w_us, w_them) = weights.split_at(H);
        let sum = simd::screlu_dot(level, us, w_us.try_into().expect("H")).wrapping_add(simd::screlu_dot(
            level,
            them,
            w_them.try_into().expect("H"),
        ));
        let scaled = (sum / QA + self.out_bias[bucket]) as i64 * SCALE as i64;
        // Two constant divisors behind one branch that every evaluation of a network takes the same way
        // (multiply-and-shift each, as the single constant before), not a run-time 64-bit division.
        let value =
            if self.qb == QB_FINE { scaled / (QA * QB_FINE) as i64 } else { scaled / (QA * QB_V1) as i64 };
        value.clamp(-MAX_EVAL as i64, MAX_EVAL as i64) as i32
    }

    /// The value of `acc` (the accumulators of `pos`) for `pos`'s side to move, in centipawns from
    /// its point of view.
    #[inline]
    pub fn output(&self, acc: &Accumulator, pos: &Position) -> i32 {
        self.output_with(simd::detected(), acc, pos)
    }

    /// [`Network::output`] through a chosen kernel (tests compare them).
    ///
    /// # Panics
    /// If `acc` is not as wide as this network (it comes from another network).
    pub fn output_with(&self, level: simd::Level, acc: &Accumulator, pos: &Position) -> i32 {
        assert_eq!(acc.hidden(), self.arch.hidden, "an accumulator of another network");
        with_acc!(&acc.0, a, H => self.output_h::<H>(level, a, pos.side_to_move(), pos.occupied().len()))
    }

    /// The evaluation of `pos` in centipawns from the side to move's point of view, computed from
    /// scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        with_hidden!(self.arch.hidden, H => {
            let mut acc = Acc::<H>::ZERO;
            self.refresh_into(pos, &mut acc);
            self.output_h(simd::detected(), &acc, pos.side_to_move(), pos.occupied().len())
        })
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

    /// Whether `perspective`'s accumulator must be computed afresh after this move, with `buckets`:
    /// its own king moved (the moving piece is the first removed, its destination the first added,
    /// castling included) to another bucket or side of the board.
    #[inline(always)]
    fn needs_refresh(&self, buckets: InputBuckets, perspective: Color) -> bool {
        match (self.removed[0], self.added[0]) {
            (Some((piece, from)), Some((_, to))) if piece == Piece::new(perspective, PieceType::King) => {
                buckets.key(perspective, from) != buckets.key(perspective, to)
            }
            _ => false,
        }
    }

    /// `dst = src` with this delta applied, for `color`'s perspective whose input-set key is `key`.
    #[inline(always)]
    fn apply_half<const H: usize>(
        &self,
        net: &Network,
        level: simd::Level,
        color: Color,
        key: (usize, bool),
        src: &[i16; H],
        dst: &mut [i16; H],
    ) {
        let cols = |list: &[Option<(Piece, Square)>; 2]| {
            let mut out: simd::Columns<H> = [None, None];
            for (o, e) in out.iter_mut().zip(list) {
                *o = e.map(|(p, s)| net.column::<H>(bucketed_feature(color, key, p, s)));
            }
            out
        };
        simd::update(level, src, dst, cols(&self.added), cols(&self.removed));
    }

    /// `dst = src` with this delta applied, for both perspectives (a network without input buckets).
    #[inline(always)]
    fn apply<const H: usize>(&self, net: &Network, level: simd::Level, src: &Acc<H>, dst: &mut Acc<H>) {
        for color in Color::ALL {
            let c = color as usize;
            self.apply_half(net, level, color, (0, false), &src.halves[c], &mut dst.halves[c]);
        }
    }
}

/// The accumulators of one width, one per entry of the stack (apart from the moves, so that pushing
/// and popping never depend on the width).
#[derive(Clone)]
enum Lanes {
    /// Before the first reset.
    Empty,
    H256(Vec<Acc<256>>),
    H512(Vec<Acc<512>>),
    H768(Vec<Acc<768>>),
    H1024(Vec<Acc<1024>>),
}

/// Runs `$body` with `$v` the stack's accumulators of its width and `$h` that width.
macro_rules! with_lanes {
    ($lanes:expr, $v:ident, $h:ident => $body:expr) => {
        match $lanes {
            Lanes::Empty => panic!("AccumulatorStack used before reset"),
            Lanes::H256($v) => {
                const $h: usize = 256;
                $body
            }
            Lanes::H512($v) => {
                const $h: usize = 512;
                $body
            }
            Lanes::H768($v) => {
                const $h: usize = 768;
                $body
            }
            Lanes::H1024($v) => {
                const $h: usize = 1024;
                $body
            }
        }
    };
}

impl Lanes {
    fn of(hidden: Hidden, n: usize) -> Lanes {
        match hidden {
            Hidden::H256 => Lanes::H256(vec![Acc::ZERO; n]),
            Hidden::H512 => Lanes::H512(vec![Acc::ZERO; n]),
            Hidden::H768 => Lanes::H768(vec![Acc::ZERO; n]),
            Hidden::H1024 => Lanes::H1024(vec![Acc::ZERO; n]),
        }
    }

    fn hidden(&self) -> Option<Hidden> {
        match self {
            Lanes::Empty => None,
            Lanes::H256(_) => Some(Hidden::H256),
            Lanes::H512(_) => Some(Hidden::H512),
            Lanes::H768(_) => Some(Hidden::H768),
            Lanes::H1024(_) => Some(Hidden::H1024),
        }
    }

    fn len(&self) -> usize {
        match self {
            Lanes::Empty => 0,
            Lanes::H256(v) => v.len(),
            Lanes::H512(v) => v.len(),
            Lanes::H768(v) => v.len(),
            Lanes::H1024(v) => v.len(),
        }
    }
}

/// The accumulators along the line the search is on: one entry per move made since [`reset`], each
/// brought up to date from its parent only when the node is evaluated. Its accumulators take the
/// width of the network it was last reset with.
///
/// [`reset`]: AccumulatorStack::reset
#[derive(Clone)]
pub struct AccumulatorStack {
    moves: Vec<Entry>,
    lanes: Lanes,
    len: usize,
}

#[derive(Clone, Copy)]
struct Entry {
    delta: Delta,
    /// Whether White's and Black's accumulators of this entry are up to date.
    computed: [bool; 2],
}

/// Entries allocated up front: more than the search's deepest line, so pushing never reallocates.
const INITIAL_ENTRIES: usize = 256;

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack::new()
    }
}

/// Brings `accs[top]` (the accumulators of `pos`) up to date from the nearest computed entry below it,
/// or, with king buckets, computes a perspective afresh when its king changed bucket or side on the way.
#[inline(always)]
fn update_to<const H: usize>(
    net: &Network,
    moves: &mut [Entry],
    accs: &mut [Acc<H>],
    top: usize,
    pos: &Position,
) {
    let level = simd::detected();
    let buckets = net.arch.input_buckets;
    if buckets == InputBuckets::Single {
        // Both perspectives at once, from the same ancestor (they are always computed together).
        let mut first = top;
        while !moves[first].computed[0] {
            first -= 1;
        }
        for i in first + 1..=top {
            let (done, rest) = accs.split_at_mut(i);
            moves[i].delta.apply(net, level, &done[i - 1], &mut rest[0]);
            moves[i].computed = [true; 2];
        }
        return;
    }
    for color in Color::ALL {
        let c = color as usize;
        let mut first = top;
        let mut refresh = false;
        while !moves[first].computed[c] {
            if moves[first].delta.needs_refresh(buckets, color) {
                refresh = true;
                break;
            }
            first -= 1;
        }
        if refresh {
            net.refresh_half(level, pos, color, &mut accs[top].halves[c]);
            moves[top].computed[c] = true;
            continue;
        }
        // No bucket or side change of this king since `first`: the key is the same all the way.
        let key = net.key(color, pos);
        for i in first + 1..=top {
            let (done, rest) = accs.split_at_mut(i);
            moves[i].delta.apply_half(net, level, color, key, &done[i - 1].halves[c], &mut rest[0].halves[c]);
            moves[i].computed[c] = true;
        }
    }
}

impl AccumulatorStack {
    /// An empty stack; [`AccumulatorStack::reset`] it to a position before use.
    pub fn new() -> AccumulatorStack {
        let blank = Entry { delta: Delta::default(), computed: [false; 2] };
        AccumulatorStack { moves: vec![blank; INITIAL_ENTRIES], lanes: Lanes::Empty, len: 0 }
    }

    /// Starts over at `pos` (a full refresh), with accumulators as wide as `net`'s.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        if self.lanes.hidden() != Some(net.arch.hidden) {
            self.lanes = Lanes::of(net.arch.hidden, self.moves.len());
        }
        with_lanes!(&mut self.lanes, v, H => net.refresh_into::<H>(pos, &mut v[0]));
        self.moves[0].computed = [true; 2];
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
        if self.len == self.moves.len() {
            self.grow();
        }
        let e = &mut self.moves[self.len];
        e.delta = delta;
        e.computed = [false; 2];
        self.len += 1;
    }

    /// One more entry (a line deeper than [`INITIAL_ENTRIES`]).
    #[cold]
    fn grow(&mut self) {
        self.moves.push(Entry { delta: Delta::default(), computed: [false; 2] });
        with_lanes!(&mut self.lanes, v, _H => v.push(v[v.len() - 1]));
        debug_assert_eq!(self.lanes.len(), self.moves.len());
    }

    /// Takes back the last [`push`](AccumulatorStack::push) or [`push_null`](AccumulatorStack::push_null).
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.len > 1, "pop without push");
        self.len -= 1;
    }

    /// A copy of the accumulators of `pos` (the position the pushes led to), brought up to date (tests
    /// compare it with [`Network::refresh`]).
    ///
    /// # Panics
    /// If the stack was last reset with a network of another width than `net`'s, or never.
    pub fn current(&mut self, net: &Network, pos: &Position) -> Accumulator {
        assert_eq!(self.lanes.hidden(), Some(net.arch.hidden), "a stack reset with another network");
        let top = self.len - 1;
        with_lanes!(&mut self.lanes, v, H => {
            update_to::<H>(net, &mut self.moves, v, top, pos);
            Accumulator::from_acc(&v[top])
        })
    }

    /// The evaluation of `pos` (the position the pushes led to), in centipawns for the side to move.
    ///
    /// # Panics
    /// If the stack was last reset with a network of another width than `net`'s, or never.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        assert_eq!(self.lanes.hidden(), Some(net.arch.hidden), "a stack reset with another network");
        let top = self.len - 1;
        let (stm, pieces) = (pos.side_to_move(), pos.occupied().len());
        with_lanes!(&mut self.lanes, v, H => {
            update_to::<H>(net, &mut self.moves, v, top, pos);
            net.output_h::<H>(simd::detected(), &v[top], stm, pieces)
        })
    }
}
