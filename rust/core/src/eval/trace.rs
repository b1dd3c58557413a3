//! The evaluation broken down by term and colour, for debugging and tuning (Stockfish's `eval` command).
//!
//! [`trace`] runs the very code of [`super::evaluate`] with a recording sink, so the table always adds up
//! to the number the search sees: [`EvalTrace::score`] is computed from the recorded terms by the same
//! [`super::blend`], and a test checks it equals [`super::evaluate`] on every suite position.

use core::fmt;

use super::{blend, evaluate_into, EvalParams, Sink, TaperedScore, Term, MAX_PHASE, SCALE_NORMAL};
use crate::{types::Color, Position};

/// Each term's (mg, eg) for White and for Black, plus the phase, the scale factor and the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalTrace {
    /// `terms[term.index()][color.index()]`: the term seen from that colour's side (positive is good for it).
    pub terms: [[TaperedScore; 2]; Term::NUM],
    /// The game phase, from 0 (no pieces) to [`MAX_PHASE`].
    pub phase: i32,
    /// The scale factor, of [`SCALE_NORMAL`].
    pub scale: i32,
    /// The side to move.
    pub side_to_move: Color,
    /// The final evaluation from the side to move's point of view: equal to [`super::evaluate`].
    pub score: i32,
}

impl EvalTrace {
    /// One term for one colour.
    pub fn term(&self, term: Term, color: Color) -> TaperedScore {
        self.terms[term.index()][color.index()]
    }

    /// The sum of all terms, White minus Black, before tapering and scaling.
    pub fn total(&self) -> TaperedScore {
        self.terms.iter().fold(TaperedScore::ZERO, |acc, [w, b]| acc + *w - *b)
    }

    /// The final evaluation from White's point of view.
    pub fn white_score(&self) -> i32 {
        match self.side_to_move {
            Color::White => self.score,
            Color::Black => -self.score,
        }
    }
}

/// The recording sink.
struct Recorder([[TaperedScore; 2]; Term::NUM]);

impl Sink for Recorder {
    fn add(&mut self, term: Term, color: Color, score: TaperedScore) {
        self.0[term.index()][color.index()] += score;
    }

    fn total(&self) -> TaperedScore {
        self.0.iter().fold(TaperedScore::ZERO, |acc, [w, b]| acc + *w - *b)
    }
}

/// Evaluates `pos` term by term.
///
/// ```
/// use camelpy_core::{eval::{evaluate, trace, EvalParams}, Position};
/// let pos = Position::startpos();
/// let t = trace(&pos, &EvalParams::DEFAULT);
/// assert_eq!(t.score, evaluate(&pos, &EvalParams::DEFAULT));
/// assert!(t.to_string().contains("Material"));
/// ```
pub fn trace(pos: &Position, params: &EvalParams) -> EvalTrace {
    let mut recorder = Recorder([[TaperedScore::ZERO; 2]; Term::NUM]);
    let (phase, scale) = evaluate_into(pos, params, None, &mut recorder);
    let white = blend(recorder.total(), phase, scale);
    let side_to_move = pos.side_to_move();
    let score = match side_to_move {
        Color::White => white,
        Color::Black => -white,
    };
    EvalTrace { terms: recorder.0, phase, scale, side_to_move, score }
}

impl fmt::Display for EvalTrace {
    /// A table in centipawns: per term, White's and Black's (mg, eg) and their difference.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = "+----------------+-------------+-------------+-------------+";
        writeln!(f, "{line}")?;
        writeln!(f, "|      Term      |    White    |    Black    |    Total    |")?;
        writeln!(f, "|                |   MG    EG  |   MG    EG  |   MG    EG  |")?;
        writeln!(f, "{line}")?;
        for term in Term::ALL {
            let [w, b] = self.terms[term.index()];
            let t = w - b;
            writeln!(
                f,
                "| {:>14} | {:>5} {:>5} | {:>5} {:>5} | {:>5} {:>5} |",
                term.name(),
                w.mg,
                w.eg,
                b.mg,
                b.eg,
                t.mg,
                t.eg
            )?;
        }
        writeln!(f, "{line}")?;
        let total = self.total();
        writeln!(f, "| {:>14} | {:>11} | {:>11} | {:>5} {:>5} |", "Total", "", "", total.mg, total.eg)?;
        writeln!(f, "{line}")?;
        writeln!(f, "Phase: {} / {MAX_PHASE}   Scale: {} / {SCALE_NORMAL}", self.phase, self.scale)?;
        writeln!(f, "Final evaluation: {} (white side), {} (side to move)", self.white_score(), self.score)
    }
}
