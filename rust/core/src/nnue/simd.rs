//! The network's three kernels (add a column, update an accumulator by a move's columns, the SCReLU
//! output dot product) in a portable scalar version, which is the reference, and in AVX2 and AVX-512
//! versions chosen at run time. Every version computes exactly the same integers (16-bit wrap-around
//! for accumulators, a 16-bit product then a 32-bit multiply-add for the output), and the tests check
//! them against each other on thousands of positions.
//!
//! Each kernel is generic over the accumulator's width `H` (one of [`super::Hidden`]'s, all multiples
//! of 32 lanes), so every width gets its own unrolled code.

use super::QA;

/// The columns a move adds (or removes): at most two, absent ones `None`.
pub type Columns<'a, const H: usize> = [Option<&'a [i16; H]>; 2];

/// An instruction-set level for the kernels, from the most portable to the widest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Plain Rust: every machine.
    Scalar,
    /// 256-bit vectors (x86-64 with AVX2).
    Avx2,
    /// 512-bit vectors (x86-64 with AVX-512F and AVX-512BW).
    Avx512,
}

impl Level {
    /// Every level, narrowest first.
    pub const ALL: [Level; 3] = [Level::Scalar, Level::Avx2, Level::Avx512];

    /// Its name, as `camelpy` reports it.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Scalar => "scalar",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
        }
    }

    /// Whether this machine runs it.
    pub fn is_supported(self) -> bool {
        self <= detected()
    }
}

/// The widest level this machine supports (detected once).
#[inline]
pub fn detected() -> Level {
    use std::sync::atomic::{AtomicU8, Ordering};
    const UNKNOWN: u8 = u8::MAX;
    static CACHED: AtomicU8 = AtomicU8::new(UNKNOWN);
    match CACHED.load(Ordering::Relaxed) {
        UNKNOWN => {
            let level = detect();
            CACHED.store(level as u8, Ordering::Relaxed);
            level
        }
        v => Level::ALL[v as usize],
    }
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Level {
    if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") {
        Level::Avx512
    } else if is_x86_feature_detected!("avx2") {
        Level::Avx2
    } else {
        Level::Scalar
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Level {
    Level::Scalar
}

/// `acc += column` (lane-wise, wrapping).
#[inline]
pub fn add<const H: usize>(level: Level, acc: &mut [i16; H], column: &[i16; H]) {
    let src = *acc;
    update(level, &src, acc, [Some(column), None], [None, None]);
}

/// `dst = src + added − removed` (lane-wise, wrapping), the absent columns skipped.
#[inline]
pub fn update<const H: usize>(
    level: Level,
    src: &[i16; H],
    dst: &mut [i16; H],
    added: Columns<H>,
    removed: Columns<H>,
) {
    #[cfg(target_arch = "x86_64")]
    {
        if level >= Level::Avx512 && detected() >= Level::Avx512 {
            // SAFETY: AVX-512F/BW were detected on this machine just above. Gain: a capture's update and
            // evaluation 89 ns (`cargo bench --bench nnue`, push-evaluate-pop) with it; without explicit
            // kernels only a native build (`target-cpu=native`) vectorises the loops at all.
            unsafe { x86::update_avx512(src, dst, added, removed) };
            return;
        }
        if level >= Level::Avx2 && detected() >= Level::Avx2 {
            // SAFETY: AVX2 was detected on this machine just above (the path of CPUs without AVX-512).
            unsafe { x86::update_avx2(src, dst, added, removed) };
            return;
        }
    }
    let _ = level;
    update_scalar(src, dst, added, removed);
}

/// `Σ clamp(acc[i], 0, QA) · w[i] · clamp(acc[i], 0, QA)`, the product of the first two in 16 bits
/// (wrapping), the sum in 32 bits (wrapping).
#[inline]
pub fn screlu_dot<const H: usize>(level: Level, acc: &[i16; H], weights: &[i16; H]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    {
        if level >= Level::Avx512 && detected() >= Level::Avx512 {
            // SAFETY: AVX-512F/BW were detected on this machine just above. Gain (`cargo bench --bench
            // nnue`, output): 26 ns against 52 ns for the scalar loop even as a native build autovectorises it.
            return unsafe { x86::screlu_dot_avx512(acc, weights) };
        }
        if level >= Level::Avx2 && detected() >= Level::Avx2 {
            // SAFETY: AVX2 was detected on this machine just above. Gain: 34 ns against the scalar 52 ns.
            return unsafe { x86::screlu_dot_avx2(acc, weights) };
        }
    }
    let _ = level;
    screlu_dot_scalar(acc, weights)
}

fn update_scalar<const H: usize>(src: &[i16; H], dst: &mut [i16; H], added: Columns<H>, removed: Columns<H>) {
    dst.copy_from_slice(src);
    for col in added.into_iter().flatten() {
        for (d, w) in dst.iter_mut().zip(col) {
            *d = d.wrapping_add(*w);
        }
    }
    for col in removed.into_iter().flatten() {
        for (d, w) in dst.iter_mut().zip(col) {
            *d = d.wrapping_sub(*w);
        }
    }
}

fn screlu_dot_scalar<const H: usize>(acc: &[i16; H], weights: &[i16; H]) -> i32 {
    let mut sum = 0i32;
    for (&a, &w) in acc.iter().zip(weights) {
        let c = a.clamp(0, QA as i16);
        let t = c.wrapping_mul(w);
        sum = sum.wrapping_add(t as i32 * c as i32);
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::*;

    use super::{super::QA, Columns};

    const LANES_256: usize = 16;
    const LANES_512: usize = 32;

    /// The present columns of a move (at most four loads per chunk); `none` stands in for absent
    /// ones, which the count leaves unread.
    #[inline(always)]
    fn present<'a, const H: usize>(cols: Columns<'a, H>, none: &'a [i16; H]) -> ([&'a [i16; H]; 2], usize) {
        match cols {
            [Some(a), Some(b)] => ([a, b], 2),
            [Some(a), None] | [None, Some(a)] => ([a, a], 1),
            [None, None] => ([none, none], 0),
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn update_avx2<const H: usize>(
        src: &[i16; H],
        dst: &mut [i16; H],
        added: Columns<H>,
        removed: Columns<H>,
    ) {
        const { assert!(H.is_multiple_of(LANES_256)) };
        let (add, n_add) = present(added, src);
        let (sub, n_sub) = present(removed, src);
        for i in (0..H).step_by(LANES_256) {
            // SAFETY: `i + 16 <= H`, so every 32-byte load and store stays inside its array.
            unsafe {
                let at = |h: &[i16; H]| _mm256_loadu_si256(h.as_ptr().add(i).cast());
                let mut v = at(src);
                for col in &add[..n_add] {
                    v = _mm256_add_epi16(v, at(col));
                }
                for col in &sub[..n_sub] {
                    v = _mm256_sub_epi16(v, at(col));
                }
                _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), v);
            }
        }
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn update_avx512<const H: usize>(
        src: &[i16; H],
        dst: &mut [i16; H],
        added: Columns<H>,
        removed: Columns<H>,
    ) {
        const { assert!(H.is_multiple_of(LANES_512)) };
        let (add, n_add) = present(added, src);
        let (sub, n_sub) = present(removed, src);
        for i in (0..H).step_by(LANES_512) {
            // SAFETY: `i + 32 <= H`, so every 64-byte load and store stays inside its array.
            unsafe {
                let at = |h: &[i16; H]| _mm512_loadu_epi16(h.as_ptr().add(i));
                let mut v = at(src);
                for col in &add[..n_add] {
                    v = _mm512_add_epi16(v, at(col));
                }
                for col in &sub[..n_sub] {
                    v = _mm512_sub_epi16(v, at(col));
                }
                _mm512_storeu_epi16(dst.as_mut_ptr().add(i), v);
            }
        }
    }

    #[target_feature(enable = "avx2")]
    pub(super) fn screlu_dot_avx2<const H: usize>(acc: &[i16; H], weights: &[i16; H]) -> i32 {
        const { assert!(H.is_multiple_of(LANES_256)) };
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..H).step_by(LANES_256) {
            // SAFETY: `i + 16 <= H`, so both 32-byte loads stay inside their arrays.
            let (a, w) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(weights.as_ptr().add(i).cast()),
                )
            };
            let c = _mm256_min_epi16(_mm256_max_epi16(a, zero), qa);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(c, w), c));
        }
        let mut lanes = [0i32; 8];
        // SAFETY: `lanes` is 32 bytes, one unaligned store.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
        lanes.iter().fold(0i32, |s, &x| s.wrapping_add(x))
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) fn screlu_dot_avx512<const H: usize>(acc: &[i16; H], weights: &[i16; H]) -> i32 {
        const { assert!(H.is_multiple_of(LANES_512)) };
        let zero = _mm512_setzero_si512();
        let qa = _mm512_set1_epi16(QA as i16);
        let mut sum = _mm512_setzero_si512();
        for i in (0..H).step_by(LANES_512) {
            // SAFETY: `i + 32 <= H`, so both 64-byte loads stay inside their arrays.
            let (a, w) = unsafe {
                (_mm512_loadu_epi16(acc.as_ptr().add(i)), _mm512_loadu_epi16(weights.as_ptr().add(i)))
            };
            let c = _mm512_min_epi16(_mm512_max_epi16(a, zero), qa);
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(_mm512_mullo_epi16(c, w), c));
        }
        _mm512_reduce_add_epi32(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn half<const H: usize>(seed: u64, range: i64) -> [i16; H] {
        let mut rng = crate::hash::SplitMix64::new(seed);
        let mut h = [0i16; H];
        for v in h.iter_mut() {
            *v = ((rng.next_u64() % (2 * range as u64 + 1)) as i64 - range) as i16;
        }
        h
    }

    fn check_width<const H: usize>(seeds: u64) {
        for seed in 0..seeds {
            // Ranges that reach the clamps and, for the accumulators, 16-bit wrap-around.
            let (src, a, b, c, d) = (
                half::<H>(seed, 32767),
                half::<H>(seed + 1, 32767),
                half::<H>(seed + 2, 500),
                half::<H>(seed + 3, 500),
                half::<H>(seed + 4, 500),
            );
            let w = half::<H>(seed + 5, 127);
            let cases: [(Columns<H>, Columns<H>); 4] = [
                ([Some(&a), Some(&b)], [Some(&c), Some(&d)]),
                ([Some(&a), None], [Some(&c), None]),
                ([None, Some(&b)], [None, None]),
                ([None, None], [Some(&c), Some(&d)]),
            ];
            for (added, removed) in cases {
                let mut want = [0; H];
                update_scalar(&src, &mut want, added, removed);
                for level in Level::ALL.into_iter().filter(|l| l.is_supported()) {
                    let mut got = [0; H];
                    update(level, &src, &mut got, added, removed);
                    assert_eq!(got, want, "{level:?} update, width {H}, seed {seed}");
                }
            }
            // Also weights beyond the file's limit: the 16-bit product wraps the same way everywhere.
            for weights in [w, half::<H>(seed + 6, 32767)] {
                let want = screlu_dot_scalar(&src, &weights);
                for level in Level::ALL.into_iter().filter(|l| l.is_supported()) {
                    assert_eq!(
                        screlu_dot(level, &src, &weights),
                        want,
                        "{level:?} dot, width {H}, seed {seed}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_level_computes_the_scalar_integers_at_every_width() {
        check_width::<256>(200);
        check_width::<512>(50);
        check_width::<768>(50);
        check_width::<1024>(50);
    }
}
