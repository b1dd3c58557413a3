//! `Value` (the search's internal score, an `i32` in centipawns with mates near the ends of its range)
//! and `Score` (what leaves the engine: centipawns or "mate in N moves").

/// A search score in centipawns from the side to move's point of view; mates are `MATE - plies`.
pub type Value = i32;

/// Deepest ply the search may reach; bounds the mate-distance encoding.
pub const MAX_PLY: i32 = 246;
/// The score of delivering mate now (ply 0); "mate in p plies" is `VALUE_MATE - p`.
pub const VALUE_MATE: Value = 32_000;
/// Above any reachable score: the initial alpha-beta window.
pub const VALUE_INFINITE: Value = VALUE_MATE + 1;
/// Scores at or beyond this are mates found within `MAX_PLY` plies.
pub const VALUE_MATE_IN_MAX_PLY: Value = VALUE_MATE - MAX_PLY;
/// A draw.
pub const VALUE_DRAW: Value = 0;
/// Marks "no value stored" (never a real score).
pub const VALUE_NONE: Value = VALUE_MATE + 2;

/// The value of mating in `ply` plies from the root.
#[inline(always)]
pub const fn mate_in(ply: i32) -> Value {
    VALUE_MATE - ply
}

/// The value of being mated in `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: i32) -> Value {
    -VALUE_MATE + ply
}

/// True if `v` encodes a forced mate (for either side).
#[inline(always)]
pub const fn is_mate(v: Value) -> bool {
    v.abs() >= VALUE_MATE_IN_MAX_PLY && v.abs() <= VALUE_MATE
}

/// A score for the outside world, as UCI and python-chess write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns, positive when the side to move is better.
    Cp(i32),
    /// Mate in this many moves (not plies): positive when the side to move mates, negative when it is
    /// mated, 0 when it is checkmated now.
    Mate(i32),
}

impl Score {
    /// Converts a search value (mate distances in plies) to a score (mate distances in moves).
    pub const fn from_value(v: Value) -> Score {
        if is_mate(v) {
            let plies = VALUE_MATE - v.abs();
            if v > 0 {
                Score::Mate((plies + 1) / 2)
            } else {
                Score::Mate(-(plies / 2))
            }
        } else {
            Score::Cp(v)
        }
    }
}

impl Score {
    /// A key that orders scores from worst to best for the side to move: being mated sooner < being
    /// mated later < any centipawn score < mating later < mating sooner.
    const fn order_key(self) -> (u8, i32) {
        match self {
            Score::Mate(m) if m <= 0 => (0, -m),
            Score::Cp(cp) => (1, cp),
            Score::Mate(m) => (2, -m),
        }
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Score) -> std::cmp::Ordering {
        self.order_key().cmp(&other.order_key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_in_moves() {
        assert_eq!(Score::from_value(mate_in(1)), Score::Mate(1));
        assert_eq!(Score::from_value(mate_in(3)), Score::Mate(2));
        assert_eq!(Score::from_value(mated_in(0)), Score::Mate(0));
        assert_eq!(Score::from_value(mated_in(2)), Score::Mate(-1));
        assert_eq!(Score::from_value(35), Score::Cp(35));
        assert!(is_mate(mated_in(10)) && !is_mate(VALUE_MATE_IN_MAX_PLY - 1));
    }

    #[test]
    fn scores_order_like_their_values() {
        let values = [mated_in(0), mated_in(2), mated_in(9), -300, 0, 45, mate_in(7), mate_in(3), mate_in(1)];
        for w in values.windows(2) {
            assert!(Score::from_value(w[0]) < Score::from_value(w[1]), "{w:?}");
        }
    }
}
