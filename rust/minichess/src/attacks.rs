//! Attack sets, all computed at compile time by stepping over the board (`const fn`), none pasted.
//!
//! Leapers (king, knight, pawn captures) are one table each. Sliders use the classical ray method
//! (<https://www.chessprogramming.org/Classical_Approach>): a table of the eight rays from every square;
//! a slider's attacks along a ray stop at the first blocker, found with one `trailing_zeros` or
//! `leading_zeros`. On 30 squares the ray tables are 960 bytes; magic bitboards would buy nothing here.
//! Each table is unit-tested against a slow step-by-step walk ([`slider_attacks_slow`]).

use crate::{
    bitboard::Bitboard,
    types::{Color, Square, COLS, NUM_SQUARES, ROWS},
};

/// `(row step, column step)` of the eight ray directions. The first four increase the square index
/// (their first blocker is the lowest bit), the last four decrease it (the highest bit).
const DIRECTIONS: [(i8, i8); 8] = [(0, 1), (1, -1), (1, 0), (1, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1)];
/// Directions 0..4 increase the index.
const FIRST_DECREASING: usize = 4;
/// Rook directions (indices into [`DIRECTIONS`]).
const ROOK_DIRS: [usize; 4] = [0, 2, 4, 6];
/// Bishop directions.
const BISHOP_DIRS: [usize; 4] = [1, 3, 5, 7];

const KNIGHT_STEPS: [(i8, i8); 8] = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)];
const KING_STEPS: [(i8, i8); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// The square `(row + dr, col + dc)` as a bit, or 0 off the board.
const fn step_bit(sq: usize, dr: i8, dc: i8) -> u32 {
    let row = (sq / COLS as usize) as i8 + dr;
    let col = (sq % COLS as usize) as i8 + dc;
    if row >= 0 && row < ROWS as i8 && col >= 0 && col < COLS as i8 {
        1 << (row as usize * COLS as usize + col as usize)
    } else {
        0
    }
}

const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; NUM_SQUARES] {
    let mut table = [Bitboard::EMPTY; NUM_SQUARES];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let mut bits = 0;
        let mut i = 0;
        while i < steps.len() {
            bits |= step_bit(sq, steps[i].0, steps[i].1);
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

const fn pawn_table() -> [[Bitboard; NUM_SQUARES]; 2] {
    // White moves up the board (row - 1), Black down (row + 1).
    [leaper_table(&[(-1, -1), (-1, 1)]), leaper_table(&[(1, -1), (1, 1)])]
}

const fn ray_table() -> [[Bitboard; NUM_SQUARES]; 8] {
    let mut table = [[Bitboard::EMPTY; NUM_SQUARES]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < NUM_SQUARES {
            let mut bits = 0;
            let mut k = 1;
            while k < 6 {
                bits |= step_bit(sq, DIRECTIONS[d].0 * k, DIRECTIONS[d].1 * k);
                k += 1;
            }
            table[d][sq] = Bitboard(bits);
            sq += 1;
        }
        d += 1;
    }
    table
}

static KNIGHT: [Bitboard; NUM_SQUARES] = leaper_table(&KNIGHT_STEPS);
static KING: [Bitboard; NUM_SQUARES] = leaper_table(&KING_STEPS);
static PAWN: [[Bitboard; NUM_SQUARES]; 2] = pawn_table();
static RAYS: [[Bitboard; NUM_SQUARES]; 8] = ray_table();

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks (its diagonal captures).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// The attacks along ray `d` from `sq`, up to and including the first square of `occupied`.
#[inline]
fn ray_attacks(d: usize, sq: Square, occupied: Bitboard) -> Bitboard {
    let ray = RAYS[d][sq.index()];
    let blockers = ray & occupied;
    let first = if d < FIRST_DECREASING { blockers.first() } else { blockers.last() };
    match first {
        Some(b) => ray ^ RAYS[d][b.index()],
        None => ray,
    }
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    ROOK_DIRS.iter().fold(Bitboard::EMPTY, |acc, &d| acc | ray_attacks(d, sq, occupied))
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    BISHOP_DIRS.iter().fold(Bitboard::EMPTY, |acc, &d| acc | ray_attacks(d, sq, occupied))
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// The slow reference for the slider tables: walks each of `dirs` (`(row step, col step)`) square by
/// square until the edge or a piece.
pub fn slider_attacks_slow(sq: Square, occupied: Bitboard, dirs: &[(i8, i8)]) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for &(dr, dc) in dirs {
        let (mut r, mut c) = (sq.row() as i8, sq.col() as i8);
        loop {
            r += dr;
            c += dc;
            let Some(to) = (r >= 0 && c >= 0).then(|| Square::new(r as u8, c as u8)).flatten() else { break };
            out |= Bitboard::from_square(to);
            if occupied.contains(to) {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOK: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    const BISHOP: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

    #[test]
    fn sliders_match_the_slow_walk() {
        // A fixed-seed xorshift stream of occupancies, sparse and dense.
        let mut x: u32 = 0x2545_F491;
        for sq in (0..NUM_SQUARES).filter_map(Square::from_index) {
            for i in 0..400 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let occ = Bitboard(if i % 2 == 0 { x } else { x & x.rotate_left(7) }) & Bitboard::FULL;
                assert_eq!(rook_attacks(sq, occ), slider_attacks_slow(sq, occ, &ROOK));
                assert_eq!(bishop_attacks(sq, occ), slider_attacks_slow(sq, occ, &BISHOP));
            }
            assert_eq!(rook_attacks(sq, Bitboard::EMPTY).count(), 9); // 4 across + 5 along the column
        }
    }

    #[test]
    fn leapers() {
        let corner = Square::new(0, 0).unwrap();
        assert_eq!(knight_attacks(corner).count(), 2);
        assert_eq!(king_attacks(corner).count(), 3);
        assert_eq!(knight_attacks(Square::new(2, 2).unwrap()).count(), 8);
        assert_eq!(pawn_attacks(Color::White, corner), Bitboard::EMPTY);
        assert_eq!(pawn_attacks(Color::White, Square::new(4, 0).unwrap()).count(), 1);
        assert_eq!(pawn_attacks(Color::Black, Square::new(1, 2).unwrap()).count(), 2);
    }
}
