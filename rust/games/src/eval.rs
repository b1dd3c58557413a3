//! The plumbing of a linear evaluation, which both small games use so that a tuner can fit their
//! weights: a position's features are each weight's coefficient, counted for the first player minus
//! the second; the value is the weighted sum turned to the side to move, plus the tempo weight.

/// `Σ weight × feature` over the first `terms` terms (a game puts its plain terms first; a term it
/// scales, such as MiniChess's count by the ply, and the tempo come last, and it adds them itself).
#[inline]
pub fn weighted_sum<const N: usize>(weights: &[i32; N], features: [i32; N], terms: usize) -> i32 {
    weights.iter().zip(features).take(terms).map(|(w, x)| w * x).sum()
}

/// The value for the side to move of `first`, the first player's weighted sum: as it is when the first
/// player is to move, negated otherwise, plus `tempo`, the bonus for having the move.
#[inline]
pub fn for_side_to_move(first: i32, first_to_move: bool, tempo: i32) -> i32 {
    (if first_to_move { first } else { -first }) + tempo
}

/// Numbers a linear evaluation's terms in their order, so that no index is written by hand:
/// `term_indices!(PAWN, KNIGHT, /** The tempo. */ pub TEMPO)` defines `const PAWN: usize = 0`,
/// `const KNIGHT: usize = 1` and `pub const TEMPO: usize = 2`, each with the attributes and visibility
/// written before its name.
///
/// ```
/// camelpy_games::term_indices!(PAWN, KNIGHT, /** The tempo. */ pub TEMPO);
/// assert_eq!([PAWN, KNIGHT, TEMPO], [0, 1, 2]);
/// ```
#[macro_export]
macro_rules! term_indices {
    (@from $index:expr;) => {};
    (@from $index:expr; $(#[$meta:meta])* $vis:vis $name:ident $(, $($rest:tt)*)?) => {
        $(#[$meta])*
        $vis const $name: usize = $index;
        $crate::term_indices!(@from $index + 1; $($($rest)*)?);
    };
    ($($terms:tt)*) => {
        $crate::term_indices!(@from 0; $($terms)*);
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_turns() {
        assert_eq!(weighted_sum(&[100, 3, -2], [2, 5, 7], 3), 200 + 15 - 14);
        assert_eq!(weighted_sum(&[100, 3, -2], [2, 5, 7], 2), 215);
        assert_eq!(weighted_sum(&[], [], 0), 0);
        assert_eq!((for_side_to_move(40, true, 3), for_side_to_move(40, false, 3)), (43, -37));
    }
}
