//! The static evaluation: the course's terms as named weights in a run-time table, linear in its
//! weights (each position's [`features`] are the coefficients a tuner fits), Tangerine minus
//! Lavender, then turned to the side to move.
//!
//! The terms: pawns (material); pawns near the centre; pawns between the two kings (they shield and
//! reflect); a king facing the enemy king (its laser points the right way); a king towards the centre
//! (away from edges where it is easy to aim at); a king's free neighbours off the enemy's beam
//! (room to dodge); the squares one's laser covers now (it threatens what stands there); how near the
//! enemy king one's laser passes; one's pawns pinned by the enemy's laser; a king's room behind it,
//! away from the enemy king; and the tempo.

use camelpy_games::eval::{for_side_to_move, weighted_sum};

use crate::{
    board::Board,
    types::{Color, Square, NEIGHBOURS},
};

/// One weight: its name, its default (a pawn is 100; the rest tuned, see [`WEIGHT_SPECS`]) and why.
pub struct WeightSpec {
    /// The name (for a tuner's output, Python and the protocol's `setoption`).
    pub name: &'static str,
    /// The default.
    pub default: i32,
    /// Least value `setoption` accepts.
    pub min: i32,
    /// Largest value `setoption` accepts.
    pub max: i32,
    /// One line saying what it rewards.
    pub why: &'static str,
}

/// How many weights (and features) there are.
pub const NUM_WEIGHTS: usize = 11;

/// The weights, in feature order. The pawn is set by hand (the unit); the others were fitted to
/// self-play by `camelpy leiserchess tune --games 6000 --nodes 2000 --random-plies 4 --seed 7
/// --threads 2 --freeze pawn` (222,144 positions), which beat the hand-set ones they replaced (README),
/// then tuned by games with `camelpy leiserchess spsa` (run `lc-spsa1`, 24,000 games at 4,000 nodes),
/// which passed its SPRT at 10 s + 0.1 s (docs/guide/leiserchess.md).
pub const WEIGHT_SPECS: [WeightSpec; NUM_WEIGHTS] = [
    WeightSpec {
        name: "pawn",
        default: 100,
        min: 0,
        max: 1000,
        why: "a pawn: material to shield and reflect with",
    },
    WeightSpec {
        name: "pawn_central",
        default: -3,
        min: -100,
        max: 100,
        why: "each step a pawn stands nearer the centre (0-3)",
    },
    WeightSpec {
        name: "pawn_between",
        default: 53,
        min: -100,
        max: 100,
        why: "a pawn inside the rectangle the two kings span",
    },
    WeightSpec {
        name: "king_face",
        default: 127,
        min: -200,
        max: 200,
        why: "a king whose laser points towards the enemy king",
    },
    WeightSpec {
        name: "king_centre",
        default: 36,
        min: -100,
        max: 100,
        why: "each step a king stands nearer the centre (0-3)",
    },
    WeightSpec {
        name: "king_mobility",
        default: -5,
        min: -100,
        max: 100,
        why: "each empty neighbour of a king off the enemy's beam",
    },
    WeightSpec {
        name: "laser_coverage",
        default: 9,
        min: -100,
        max: 100,
        why: "each square the king's laser enters now",
    },
    WeightSpec {
        name: "laser_near_king",
        default: 1,
        min: -100,
        max: 100,
        why: "how near the enemy king one's laser passes (NEAR_KING per square it enters)",
    },
    WeightSpec {
        name: "pawn_pinned",
        default: 5,
        min: -200,
        max: 200,
        why: "a pawn on the enemy's beam, which may not move",
    },
    WeightSpec {
        name: "king_space",
        default: 2,
        min: -100,
        max: 100,
        why: "each square of the king's quadrant away from the enemy king (1-64)",
    },
    WeightSpec { name: "tempo", default: -7, min: -100, max: 100, why: "having the move" },
];

camelpy_games::term_indices!(
    PAWN,
    PAWN_CENTRAL,
    PAWN_BETWEEN,
    KING_FACE,
    KING_CENTRE,
    KING_MOBILITY,
    LASER_COVERAGE,
    LASER_NEAR_KING,
    PAWN_PINNED,
    KING_SPACE,
    /// The index of the tempo feature (always 1 for the side to move).
    pub TEMPO,
);

/// The evaluation's weights (a run-time table: defaults, or tuned or set ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights(pub [i32; NUM_WEIGHTS]);

impl Default for Weights {
    fn default() -> Weights {
        Weights(WEIGHT_SPECS.map(|spec| spec.default))
    }
}

impl Weights {
    /// Sets the weight `name` (`false` for an unknown name or a value out of its range).
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        match WEIGHT_SPECS.iter().position(|s| s.name == name) {
            Some(i) if (WEIGHT_SPECS[i].min..=WEIGHT_SPECS[i].max).contains(&value) => {
                self.0[i] = value;
                true
            }
            _ => false,
        }
    }
}

/// Steps from the board's central 2 × 2 squares: 0 in the centre, 3 at the edge.
#[inline]
fn edge_distance(sq: Square) -> i32 {
    let from_centre = |x: i8| if x < 4 { 3 - x } else { x - 4 };
    i32::from(from_centre(sq.file()).max(from_centre(sq.rank())))
}

/// File a's squares.
const FILE_A: u64 = 0x0101_0101_0101_0101;
/// Rank 0's squares.
const RANK_0: u64 = 0xFF;

/// `RINGS[d]`: the squares [`edge_distance`] `d` from the centre (0: the central 2 × 2, 3: the edge).
static RINGS: [u64; 4] = {
    let mut rings = [0u64; 4];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let (df, dr) = (if f < 4 { 3 - f } else { f - 4 }, if r < 4 { 3 - r } else { r - 4 });
        rings[(if df > dr { df } else { dr }) as usize] |= 1 << sq;
        sq += 1;
    }
    rings
};

/// Scale of [`NEAR_KING`]: its nearest square (the king's own) counts twice this.
const NEAR_SCALE: u8 = 8;

/// `NEAR_KING[king][sq]`: how near `sq` is to a king on `king`, `NEAR_SCALE / (files apart + 1) +
/// NEAR_SCALE / (ranks apart + 1)`: a beam through a square near the king is a small turn of a pawn
/// from hitting it (the course's attack heuristic, harmonic in each axis).
static NEAR_KING: [[u8; 64]; 64] = {
    let mut table = [[0u8; 64]; 64];
    let mut king = 0;
    while king < 64 {
        let mut sq = 0;
        while sq < 64 {
            let df = (king % 8) as i32 - (sq % 8) as i32;
            let dr = (king / 8) as i32 - (sq / 8) as i32;
            let (df, dr) = (if df < 0 { -df } else { df }, if dr < 0 { -dr } else { dr });
            table[king][sq] = NEAR_SCALE / (df as u8 + 1) + NEAR_SCALE / (dr as u8 + 1);
            sq += 1;
        }
        king += 1;
    }
    table
};

/// The squares of the quadrant behind a king on `king`, away from an enemy king on `enemy` (from the
/// king's square to the corner on the far side of each axis; 1-64).
#[inline]
fn space_behind(king: Square, enemy: Square) -> i32 {
    let behind = |k: i8, e: i8| i32::from(if e >= k { k + 1 } else { 8 - k });
    behind(king.file(), enemy.file()) * behind(king.rank(), enemy.rank())
}

/// The features of `board`, Tangerine minus Lavender (the tempo feature 1): the pawn terms by
/// popcounts of each side's pawns against the rings and the kings' rectangle.
pub fn features(board: &Board) -> [i32; NUM_WEIGHTS] {
    features_weighted_by(board, None)
}

/// [`features`], leaving at 0 the beam and king terms whose weight in `weights` is 0 (they add nothing
/// to the sum, and each costs a pass over a beam or the king's neighbours at every evaluation); with
/// `None`, every feature (the tuner's view).
fn features_weighted_by(board: &Board, weights: Option<&Weights>) -> [i32; NUM_WEIGHTS] {
    let wanted = |term: usize| weights.is_none_or(|w| w.0[term] != 0);
    let mut f = [0; NUM_WEIGHTS];
    let kings = [board.king(Color::Tangerine), board.king(Color::Lavender)];
    let (lo_file, hi_file) = (kings[0].file().min(kings[1].file()), kings[0].file().max(kings[1].file()));
    let (lo_rank, hi_rank) = (kings[0].rank().min(kings[1].rank()), kings[0].rank().max(kings[1].rank()));
    let beams = [board.shoot(Color::Tangerine), board.shoot(Color::Lavender)];
    // The squares inside the rectangle the two kings span.
    let files = (lo_file..=hi_file).fold(0u64, |m, f| m | FILE_A << f);
    let ranks = (lo_rank..=hi_rank).fold(0u64, |m, r| m | RANK_0 << (8 * r));
    let between = files & ranks;
    for color in Color::ALL {
        let sign = if color == Color::Tangerine { 1 } else { -1 };
        let pawns = board.pieces(color) & !kings[color.index()].bit();
        f[PAWN] += sign * pawns.count_ones() as i32;
        let central: i32 = RINGS
            .iter()
            .enumerate()
            .map(|(d, &ring)| (3 - d as i32) * (pawns & ring).count_ones() as i32)
            .sum();
        f[PAWN_CENTRAL] += sign * central;
        f[PAWN_BETWEEN] += sign * (pawns & between).count_ones() as i32;
    }
    for color in Color::ALL {
        let sign = if color == Color::Tangerine { 1 } else { -1 };
        let (king, enemy) = (kings[color.index()], kings[color.flip().index()]);
        let facing = board.piece_at(king).map_or(crate::types::Dir::North, |k| k.orientation().king_dir());
        let (dx, dy) = facing.delta();
        let towards = (enemy.file() - king.file()) * dx + (enemy.rank() - king.rank()) * dy;
        f[KING_FACE] += sign * i32::from(towards > 0);
        f[KING_CENTRE] += sign * (3 - edge_distance(king));
        let enemy_beam = beams[color.flip().index()].path;
        if wanted(KING_MOBILITY) {
            f[KING_MOBILITY] += sign
                * NEIGHBOURS
                    .iter()
                    .filter_map(|&(df, dr)| king.offset(df, dr))
                    .filter(|&n| board.piece_at(n).is_none() && enemy_beam & n.bit() == 0)
                    .count() as i32;
        }
        let beam = beams[color.index()].path;
        f[LASER_COVERAGE] += sign * beam.count_ones() as i32;
        if wanted(LASER_NEAR_KING) {
            let near = &NEAR_KING[enemy.index()];
            let mut squares = beam;
            let mut nearness = 0;
            while squares != 0 {
                nearness += i32::from(near[squares.trailing_zeros() as usize]);
                squares &= squares - 1;
            }
            f[LASER_NEAR_KING] += sign * nearness;
        }
        if wanted(PAWN_PINNED) {
            let pawns = board.pieces(color) & !king.bit();
            f[PAWN_PINNED] += sign * (pawns & enemy_beam).count_ones() as i32;
        }
        if wanted(KING_SPACE) {
            f[KING_SPACE] += sign * space_behind(king, enemy);
        }
    }
    f[TEMPO] = 1;
    f
}

/// The static evaluation of `board` for the side to move, in centipawns (a pawn is 100).
pub fn evaluate(board: &Board, weights: &Weights) -> i32 {
    let tangerine = weighted_sum(&weights.0, features_weighted_by(board, Some(weights)), TEMPO);
    for_side_to_move(tangerine, board.side_to_move() == Color::Tangerine, weights.0[TEMPO])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rules;
    use crate::types::Kind;

    #[test]
    fn the_start_is_level_and_the_evaluation_is_symmetric() {
        let start = Board::start(Rules::R2016);
        let f = features(&start);
        assert_eq!((f[PAWN], f[PAWN_BETWEEN]), (0, 0));
        // The same position seen from the other side: the board turned 180° and the colours swapped.
        let fen = "nn7/8/8/8/8/8/8/SE6SS W";
        let turned = "nn6nw/8/8/8/8/8/8/7SS B";
        let (a, b) =
            (Board::from_fen(fen, Rules::R2016).unwrap(), Board::from_fen(turned, Rules::R2016).unwrap());
        assert_eq!(evaluate(&a, &Weights::default()), evaluate(&b, &Weights::default()));
        let fa = features(&a);
        assert_eq!(fa[PAWN], 1);
        assert_eq!(features(&b)[PAWN], -1);
    }

    /// The pawn terms by a scan of the squares, as the rules page states them.
    fn pawn_terms_by_scan(board: &Board) -> [i32; 3] {
        let kings = [board.king(Color::Tangerine), board.king(Color::Lavender)];
        let (lo_file, hi_file) = (kings[0].file().min(kings[1].file()), kings[0].file().max(kings[1].file()));
        let (lo_rank, hi_rank) = (kings[0].rank().min(kings[1].rank()), kings[0].rank().max(kings[1].rank()));
        let mut t = [0; 3];
        for i in 0..64u8 {
            let sq = Square::new(i);
            let Some(piece) = board.piece_at(sq).filter(|p| p.kind() == Kind::Pawn) else { continue };
            let sign = if piece.color() == Color::Tangerine { 1 } else { -1 };
            t[0] += sign;
            t[1] += sign * (3 - edge_distance(sq));
            if (lo_file..=hi_file).contains(&sq.file()) && (lo_rank..=hi_rank).contains(&sq.rank()) {
                t[2] += sign;
            }
        }
        t
    }

    #[test]
    fn pawn_terms_by_bitboards_are_the_scan() {
        crate::board::random_games(Rules::R2016, 0xe7a1, 40, 80, |board| {
            let f = features(board);
            assert_eq!([f[PAWN], f[PAWN_CENTRAL], f[PAWN_BETWEEN]], pawn_terms_by_scan(board), "{board:?}");
        });
    }

    /// The laser and king terms by tracing each beam square by square, as the rules page states them.
    fn beam_terms_by_trace(board: &Board) -> [i32; 3] {
        let mut t = [0; 3];
        for color in Color::ALL {
            let sign = if color == Color::Tangerine { 1 } else { -1 };
            let (king, enemy) = (board.king(color), board.king(color.flip()));
            let (path, _) = board.trace(color);
            let entered = path.iter().fold(0u64, |set, sq| set | sq.bit());
            for sq in (0..64u8).map(Square::new).filter(|sq| entered & sq.bit() != 0) {
                let (df, dr) = ((sq.file() - enemy.file()).abs(), (sq.rank() - enemy.rank()).abs());
                t[0] += sign * (8 / (i32::from(df) + 1) + 8 / (i32::from(dr) + 1));
            }
            let (enemy_path, _) = board.trace(color.flip());
            let pinned = (0..64u8)
                .map(Square::new)
                .filter(|&sq| {
                    board.piece_at(sq).is_some_and(|p| p.color() == color && p.kind() == Kind::Pawn)
                })
                .filter(|sq| enemy_path.contains(sq))
                .count() as i32;
            t[1] += sign * pinned;
            let files = if enemy.file() >= king.file() { king.file() + 1 } else { 8 - king.file() };
            let ranks = if enemy.rank() >= king.rank() { king.rank() + 1 } else { 8 - king.rank() };
            t[2] += sign * i32::from(files) * i32::from(ranks);
        }
        t
    }

    #[test]
    fn beam_terms_by_bitboards_are_the_trace() {
        crate::board::random_games(Rules::R2016, 0x5eed, 40, 80, |board| {
            let f = features(board);
            assert_eq!(
                [f[LASER_NEAR_KING], f[PAWN_PINNED], f[KING_SPACE]],
                beam_terms_by_trace(board),
                "{board:?}"
            );
        });
        // Tangerine's king on a0 faces north up file a; Lavender's on h7: the beam's eight squares.
        let board = Board::from_fen("7nn/8/8/8/8/8/8/NN7 W", Rules::R2016).unwrap();
        let f = features(&board);
        assert_eq!(f[KING_SPACE], 1 - 1, "a king in its corner has 1 square behind it, both do");
    }

    #[test]
    fn the_evaluation_is_the_weighted_sum_of_all_features_whichever_weights_are_zero() {
        let all_set = Weights(std::array::from_fn(|i| 3 + i as i32));
        let some_zero = Weights(std::array::from_fn(|i| if i % 2 == 0 { 0 } else { 5 - i as i32 }));
        crate::board::random_games(Rules::R2016, 0x0ee1, 20, 80, |board| {
            for w in [Weights::default(), all_set, some_zero] {
                let sum = weighted_sum(&w.0, features(board), TEMPO);
                let expected = for_side_to_move(sum, board.side_to_move() == Color::Tangerine, w.0[TEMPO]);
                assert_eq!(evaluate(board, &w), expected, "{board:?} {w:?}");
            }
        });
    }

    #[test]
    fn weights_are_linear_and_settable() {
        let board = Board::from_fen("nn7/8/8/3NW4/8/8/8/SE6SS W", Rules::R2016).unwrap();
        let f = features(&board);
        let mut w = Weights::default();
        let expected: i32 = w.0.iter().zip(f).take(TEMPO).map(|(w, x)| w * x).sum::<i32>() + w.0[TEMPO];
        assert_eq!(evaluate(&board, &w), expected);
        assert!(w.set("pawn", 150) && w.0[PAWN] == 150);
        assert!(!w.set("pawn", 5000) && !w.set("queen", 1));
    }
}
