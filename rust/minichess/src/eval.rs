//! The static evaluation: a weighted sum of a few features, linear in its [`Weights`] so that a tuner
//! can fit them from self-play (each position's [`features`] are the coefficients).
//!
//! Every feature is White's count minus Black's; the evaluation is then turned to the side to move's
//! point of view and the tempo bonus added. One feature is special: the material count of the 50-ply
//! rule ([`PieceType::value`]) weighs more the closer the game is to ply 50, where it decides the game
//! (`count × ply / 50`), so the evaluation drifts from "what wins a long game" to "what wins the count".

use camelpy_games::eval::{for_side_to_move, weighted_sum};

use crate::{
    attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks},
    bitboard::Bitboard,
    board::{Board, MAX_PLIES},
    types::{Color, PieceType},
};

/// One weight: its name, its default (in centipawns of a pawn = 100) and why.
pub struct WeightSpec {
    /// The name (for a tuner's output and Python).
    pub name: &'static str,
    /// The hand-set default.
    pub default: i32,
    /// One line saying what it rewards.
    pub why: &'static str,
}

/// The weights, in feature order. The piece values are set by hand; the others were fitted on self-play
/// by `camelpy minichess tune --games 24000 --nodes 4000 --seed 41 --threads 2 --freeze
/// pawn,knight,bishop,rook,queen` (docs/minichess.md: +6.4 ± 6.7 and +10.0 ± 6.6 Elo against the
/// hand-set ones over two 6,000-game comparisons from independent openings).
pub const WEIGHT_SPECS: [WeightSpec; NUM_WEIGHTS] = [
    WeightSpec { name: "pawn", default: 100, why: "a pawn" },
    WeightSpec { name: "knight", default: 300, why: "a knight: fewer squares to jump to on 6×5" },
    WeightSpec { name: "bishop", default: 320, why: "a bishop: long diagonals are short here" },
    WeightSpec { name: "rook", default: 400, why: "a rook: files of six, rows of five" },
    WeightSpec { name: "queen", default: 900, why: "a queen" },
    WeightSpec { name: "pawn_advance", default: 9, why: "each row a pawn has advanced (towards a queen)" },
    WeightSpec { name: "pawn_near_queen", default: 4, why: "a pawn one step from promoting" },
    WeightSpec { name: "centre", default: 22, why: "a knight, bishop or queen on the middle 3×2 squares" },
    WeightSpec { name: "mobility", default: 4, why: "each square a knight, bishop, rook or queen reaches" },
    WeightSpec { name: "king_pressure", default: 11, why: "each attack on a square next to the enemy king" },
    WeightSpec { name: "count", default: 47, why: "each point of the 50-ply material count, times ply / 50" },
    WeightSpec { name: "tempo", default: 3, why: "having the move" },
];

/// How many weights (and features) there are.
pub const NUM_WEIGHTS: usize = 12;

camelpy_games::term_indices!(
    PAWN,
    KNIGHT,
    BISHOP,
    ROOK,
    QUEEN,
    ADVANCE,
    NEAR_QUEEN,
    CENTRE,
    MOBILITY,
    KING_PRESSURE,
    /// The index of the count feature (scaled by the ply; the plain terms come before it).
    pub COUNT,
    /// The index of the tempo feature (always 1 for the side to move).
    pub TEMPO,
);

/// Rows 2 and 3, columns 1 to 3.
const CENTRE_SQUARES: Bitboard = Bitboard(0b01110_01110 << 10);

/// The evaluation's weights (a run-time table: defaults, or tuned ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights(pub [i32; NUM_WEIGHTS]);

impl Default for Weights {
    fn default() -> Weights {
        let mut w = [0; NUM_WEIGHTS];
        for (w, spec) in w.iter_mut().zip(WEIGHT_SPECS.iter()) {
            *w = spec.default;
        }
        Weights(w)
    }
}

/// The features of `board`, White minus Black (the count feature unscaled: multiply by
/// `ply / MAX_PLIES` as [`evaluate`] does; the tempo feature 1).
pub fn features(board: &Board) -> [i32; NUM_WEIGHTS] {
    let mut f = [0; NUM_WEIGHTS];
    let occupied = board.occupied();
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let them = color.flip();
        let enemy_king_zone =
            board.pieces_of(them, PieceType::King).first().map_or(Bitboard::EMPTY, king_attacks);
        for (term, kind) in [
            (PAWN, PieceType::Pawn),
            (KNIGHT, PieceType::Knight),
            (BISHOP, PieceType::Bishop),
            (ROOK, PieceType::Rook),
            (QUEEN, PieceType::Queen),
        ] {
            f[term] += sign * board.pieces_of(color, kind).count() as i32;
        }
        for sq in board.pieces_of(color, PieceType::Pawn) {
            // Rows advanced from the pawn's start row (4 for White, 1 for Black).
            let advanced = match color {
                Color::White => 4 - sq.row() as i32,
                Color::Black => sq.row() as i32 - 1,
            };
            f[ADVANCE] += sign * advanced;
            if advanced == 3 {
                f[NEAR_QUEEN] += sign;
            }
        }
        let own = board.pieces(color);
        for sq in own {
            let Some(piece) = board.piece_at(sq) else { continue };
            let attacks = match piece.kind {
                PieceType::Knight => knight_attacks(sq),
                PieceType::Bishop => bishop_attacks(sq, occupied),
                PieceType::Rook => rook_attacks(sq, occupied),
                PieceType::Queen => queen_attacks(sq, occupied),
                PieceType::Pawn | PieceType::King => continue,
            };
            f[MOBILITY] += sign * (attacks & !own).count() as i32;
            f[KING_PRESSURE] += sign * (attacks & enemy_king_zone).count() as i32;
            if piece.kind != PieceType::Rook && CENTRE_SQUARES.contains(sq) {
                f[CENTRE] += sign;
            }
        }
    }
    f[COUNT] = board.material(Color::White) - board.material(Color::Black);
    f[TEMPO] = 1;
    f
}

/// The static evaluation of `board` for the side to move, in centipawns.
pub fn evaluate(board: &Board, weights: &Weights) -> i32 {
    let f = features(board);
    let count = weights.0[COUNT] * f[COUNT] * board.ply().min(MAX_PLIES) as i32 / MAX_PLIES as i32;
    let white = weighted_sum(&weights.0, f, COUNT) + count;
    for_side_to_move(white, board.side_to_move() == Color::White, weights.0[TEMPO])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_level_but_for_the_tempo_and_the_table_is_named() {
        let board = Board::start();
        let w = Weights::default();
        assert_eq!(evaluate(&board, &w), w.0[TEMPO]);
        assert_eq!(WEIGHT_SPECS[COUNT].name, "count");
        assert_eq!(WEIGHT_SPECS[TEMPO].name, "tempo");
        assert_eq!(
            WEIGHT_SPECS.iter().map(|s| s.name).collect::<std::collections::HashSet<_>>().len(),
            NUM_WEIGHTS
        );
    }

    #[test]
    fn symmetric_and_sensible() {
        // A White queen up: good for White to move, as bad for Black to move (tempo aside).
        let w = Weights::default();
        let white = Board::from_text("k4/5/5/5/5/Q3K w 10").unwrap();
        let black = Board::from_text("k4/5/5/5/5/Q3K b 10").unwrap();
        let tempo = w.0[TEMPO];
        assert!(evaluate(&white, &w) > 800);
        assert_eq!(evaluate(&white, &w) - tempo, -(evaluate(&black, &w) - tempo));
        // The mirrored position (colours swapped, board turned half a turn, as the start is) evaluates
        // the same for its mover.
        let mirrored = Board::from_text("k3q/5/5/5/5/4K b 10").unwrap();
        assert_eq!(features(&mirrored).map(|x| -x)[..TEMPO], features(&white)[..TEMPO]);
        assert_eq!(evaluate(&mirrored, &w), evaluate(&white, &w));
    }

    #[test]
    fn the_count_weighs_more_near_ply_50() {
        // Black has a knight (7) for White's rook (6): worth less early, but it wins the count.
        let w = Weights::default();
        let early = Board::from_text("k3n/5/5/5/5/R3K w 2").unwrap();
        let late = Board::from_text("k3n/5/5/5/5/R3K w 48").unwrap();
        assert!(evaluate(&late, &w) < evaluate(&early, &w));
    }
}
