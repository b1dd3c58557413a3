//! The evaluation made linear in its weights, for a tuner.
//!
//! A tuner wants, per position, the evaluation `E(θ)` as a function of the weight vector `θ` (every
//! parameter of [`EvalParams::all`], pairs split into `_mg` and `_eg`). Most terms are a weight times
//! a count (material, mobility, passed pawns by rank, …), blended by game phase and scaled: for those,
//! `E` is exactly linear in the weight. A few are not (king danger is the attack units squared over a
//! divisor, then capped; the mop-up threshold and the scale factors switch on or off). [`linearize`]
//! therefore returns the first-order expansion at the current weights,
//!
//! ```text
//! E(θ) ≈ E(θ0) + Σ_i g_i (θ_i − θ0_i)
//! ```
//!
//! with `g_i` a central difference of the *unrounded* evaluation ([`blend_exact`]) over a step of one
//! unit of the weight (one-sided at the edge of its range). For a linear weight this is the exact
//! coefficient (the count times the phase and scale factors), whatever `θ`; for the others it is the
//! local slope, and a tuner re-linearizes after moving the weights (see `camelpy.tools.tune`).
//!
//! All values are from White's point of view, in centipawns.

use super::{
    evaluate_into, params::half_index, EvalParams, Sink, TaperedScore, HALF_BOARD, MAX_PHASE, SCALE_NORMAL,
};
use crate::{
    types::{Color, PieceType},
    Position,
};

/// The step (in units of the weight) of each difference: the smallest that changes an integer weight.
const STEP: i32 = 1;

/// The White-minus-Black sum only (as the search's evaluation, without its rounding).
struct Total(TaperedScore);

impl Sink for Total {
    fn add(&mut self, _term: super::Term, color: Color, score: TaperedScore) {
        match color {
            Color::White => self.0 += score,
            Color::Black => self.0 -= score,
        }
    }

    fn total(&self) -> TaperedScore {
        self.0
    }
}

/// [`super::blend`] without its final integer division: the evaluation before rounding.
pub fn blend_exact(total: TaperedScore, phase: i32, scale: i32) -> f64 {
    let tapered = f64::from(total.mg) * f64::from(phase) + f64::from(total.eg) * f64::from(MAX_PHASE - phase);
    tapered * f64::from(scale) / f64::from(MAX_PHASE * SCALE_NORMAL)
}

/// The unrounded evaluation of `pos` with `params`, from White's point of view.
pub fn evaluate_exact(pos: &Position, params: &EvalParams) -> f64 {
    let mut total = Total(TaperedScore::ZERO);
    let (phase, scale) = evaluate_into(pos, params, None, &mut total);
    blend_exact(total.0, phase, scale)
}

/// Fills `gradient` (one entry per parameter, in [`EvalParams::all`] order) with the slope of the
/// unrounded evaluation of `pos` in each weight at `params`, and returns the evaluation itself (both
/// from White's point of view). `params` is restored before returning.
///
/// ```
/// use camelpy_core::{eval::{linearize, EvalParams}, Position};
/// let mut params = EvalParams::DEFAULT;
/// let mut gradient = vec![0.0; EvalParams::all().len()];
/// let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false).unwrap();
/// let value = linearize(&pos, &mut params, &mut gradient);
/// let index = |name| EvalParams::all().iter().position(|p| p.name == name).unwrap();
/// // A pawn up and no pieces: a pure endgame, where the endgame value counts whole.
/// assert_eq!((gradient[index("pawn_value_eg")], gradient[index("pawn_value_mg")]), (1.0, 0.0));
/// assert!(value > 100.0);
/// ```
///
/// # Panics
/// If `gradient` does not have one entry per parameter.
pub fn linearize(pos: &Position, params: &mut EvalParams, gradient: &mut [f32]) -> f64 {
    let all = EvalParams::all();
    assert_eq!(gradient.len(), all.len(), "one gradient entry per parameter");
    let mut total = Total(TaperedScore::ZERO);
    let (phase, scale) = evaluate_into(pos, params, None, &mut total);
    let value = blend_exact(total.0, phase, scale);
    for (i, info) in all.iter().enumerate().take(EvalParams::PSQT_START) {
        let theta = params.get_index(i);
        let up = if theta + STEP <= info.max { theta + STEP } else { theta };
        let down = if theta - STEP >= info.min { theta - STEP } else { theta };
        if up == down {
            gradient[i] = 0.0;
            continue;
        }
        params.set_index(i, up);
        let high = evaluate_exact(pos, params);
        params.set_index(i, down);
        let low = evaluate_exact(pos, params);
        params.set_index(i, theta);
        gradient[i] = ((high - low) / f64::from(up - down)) as f32;
    }
    psqt_gradient(pos, phase, scale, &mut gradient[EvalParams::PSQT_START..]);
    value
}

/// The piece-square weights' slopes, written directly: the tables are linear (each piece adds its
/// square's entry, blended by phase and scaled), so a weight's slope is the number of White pieces on
/// its square minus Black's, times the phase and scale factors. This is what the central difference
/// gives, except where a one-point step flips which side the scale factor favours, and it costs one
/// pass over the pieces instead of two evaluations for each of the tables' 384 weights.
fn psqt_gradient(pos: &Position, phase: i32, scale: i32, gradient: &mut [f32]) {
    gradient.fill(0.0);
    let unit = f64::from(scale) / f64::from(MAX_PHASE * SCALE_NORMAL);
    let mg = (f64::from(phase) * unit) as f32;
    let eg = (f64::from(MAX_PHASE - phase) * unit) as f32;
    for color in Color::ALL {
        let sign = if color == Color::White { 1.0 } else { -1.0 };
        for (t, pt) in PieceType::ALL.iter().enumerate() {
            for sq in pos.colored_pieces(color, *pt) {
                let i = t * 2 * HALF_BOARD + 2 * half_index(sq, color);
                gradient[i] += sign * mg;
                gradient[i + 1] += sign * eg;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;

    fn positions() -> Vec<Position> {
        crate::bench::BENCH_FENS.iter().map(|f| Position::from_fen(f, false).unwrap()).collect()
    }

    #[test]
    fn the_exact_value_rounds_to_the_evaluation() {
        for pos in positions() {
            let white = evaluate_exact(&pos, &EvalParams::DEFAULT);
            let stm = if pos.side_to_move() == Color::White { white } else { -white };
            assert_eq!(stm.trunc() as i32, evaluate(&pos, &EvalParams::DEFAULT), "{}", pos.fen());
        }
    }

    #[test]
    fn the_expansion_predicts_a_change_of_the_linear_weights_exactly() {
        // Material, mobility and passed-pawn weights are linear: moving them by any amount changes the
        // unrounded evaluation by exactly the gradient times the move.
        let linear =
            ["knight_value_mg", "rook_value_eg", "bishop_mobility_mg", "passed_rank5_eg", "tempo_mg"];
        let all = EvalParams::all();
        for pos in positions() {
            let mut params = EvalParams::DEFAULT;
            let mut gradient = vec![0.0; all.len()];
            let value = linearize(&pos, &mut params, &mut gradient);
            assert_eq!(params, EvalParams::DEFAULT, "restored");
            let mut moved = EvalParams::DEFAULT;
            let mut predicted = value;
            for (k, name) in linear.iter().enumerate() {
                let i = all.iter().position(|p| p.name == *name).unwrap();
                let delta = 7 * (k as i32 + 1) - 15;
                moved.set_index(i, moved.get_index(i) + delta);
                predicted += f64::from(gradient[i]) * f64::from(delta);
            }
            let actual = evaluate_exact(&pos, &moved);
            assert!((actual - predicted).abs() < 1e-6, "{}: {actual} vs {predicted}", pos.fen());
        }
    }

    #[test]
    fn the_piece_square_slopes_are_the_central_differences() {
        let all = EvalParams::all();
        let mut nonzero = 0;
        for pos in positions() {
            let mut params = EvalParams::DEFAULT;
            let mut gradient = vec![0.0; all.len()];
            linearize(&pos, &mut params, &mut gradient);
            for i in EvalParams::PSQT_START..all.len() {
                let theta = params.get_index(i);
                params.set_index(i, theta + 1);
                let high = evaluate_exact(&pos, &params);
                params.set_index(i, theta - 1);
                let low = evaluate_exact(&pos, &params);
                params.set_index(i, theta);
                let slope = (high - low) / 2.0;
                assert!((f64::from(gradient[i]) - slope).abs() < 1e-5, "{} in {}", all[i].name, pos.fen());
                nonzero += usize::from(gradient[i] != 0.0);
            }
        }
        assert!(nonzero > 100, "{nonzero}");
    }
}
