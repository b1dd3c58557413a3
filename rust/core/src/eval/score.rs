//! `TaperedScore`: a (middlegame, endgame) pair of centipawn-ish values, blended by game phase at the end.
//!
//! Named apart from the search's boundary `Score` (`Cp | Mate`) so the two never collide.

use core::{
    fmt,
    ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign},
};

/// A middlegame and an endgame value, kept apart until [`super::blend`] mixes them by game phase
/// ([CPW: Tapered Eval](https://www.chessprogramming.org/Tapered_Eval)). A plain pair rather than two values
/// packed in one integer: the evaluation is not hot enough yet to pay for the packing's carry rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TaperedScore {
    /// The value when all pieces are on the board.
    pub mg: i32,
    /// The value in a pawn (or bare-king) ending.
    pub eg: i32,
}

impl TaperedScore {
    /// Zero in both phases.
    pub const ZERO: TaperedScore = TaperedScore { mg: 0, eg: 0 };

    /// The pair `(mg, eg)`.
    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> TaperedScore {
        TaperedScore { mg, eg }
    }
}

impl Add for TaperedScore {
    type Output = TaperedScore;
    #[inline(always)]
    fn add(self, rhs: TaperedScore) -> TaperedScore {
        TaperedScore::new(self.mg + rhs.mg, self.eg + rhs.eg)
    }
}

impl Sub for TaperedScore {
    type Output = TaperedScore;
    #[inline(always)]
    fn sub(self, rhs: TaperedScore) -> TaperedScore {
        TaperedScore::new(self.mg - rhs.mg, self.eg - rhs.eg)
    }
}

impl Neg for TaperedScore {
    type Output = TaperedScore;
    #[inline(always)]
    fn neg(self) -> TaperedScore {
        TaperedScore::new(-self.mg, -self.eg)
    }
}

impl Mul<i32> for TaperedScore {
    type Output = TaperedScore;
    #[inline(always)]
    fn mul(self, rhs: i32) -> TaperedScore {
        TaperedScore::new(self.mg * rhs, self.eg * rhs)
    }
}

impl AddAssign for TaperedScore {
    #[inline(always)]
    fn add_assign(&mut self, rhs: TaperedScore) {
        *self = *self + rhs;
    }
}

impl SubAssign for TaperedScore {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: TaperedScore) {
        *self = *self - rhs;
    }
}

impl fmt::Display for TaperedScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.mg, self.eg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_per_phase() {
        let a = TaperedScore::new(3, -4);
        let b = TaperedScore::new(10, 20);
        assert_eq!(a + b, TaperedScore::new(13, 16));
        assert_eq!(b - a, TaperedScore::new(7, 24));
        assert_eq!(-a, TaperedScore::new(-3, 4));
        assert_eq!(a * 3, TaperedScore::new(9, -12));
        let mut c = a;
        c += b;
        c -= b;
        assert_eq!(c, a);
        assert_eq!(a.to_string(), "(3, -4)");
    }
}
