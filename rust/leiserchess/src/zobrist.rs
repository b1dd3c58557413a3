//! Zobrist keys: our own 64-bit numbers (piece × orientation × square, and the side to move), made at
//! compile time from a fixed seed by the games framework's key stream (`camelpy_games::ZobristKeys`),
//! so keys are the same on every build.

use camelpy_games::ZobristKeys;

use crate::types::{Piece, Square, NUM_SQUARES};

/// Seed of the key stream (any fixed value).
const SEED: u64 = 0x1E15_E5C4_E550_2016;
/// The stream's step.
const STEP: u64 = 1;

/// The keys of the 16 pieces (side, kind, orientation) on the 64 squares, then Lavender to move.
static KEYS: ZobristKeys<16, NUM_SQUARES> = ZobristKeys::generate(SEED, STEP);

/// The number for `piece` (side, kind and orientation) on `sq`.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.piece(piece.index(), sq.index())
}

/// The number XORed in when Lavender is to move.
#[inline]
pub fn side_key() -> u64 {
    KEYS.side
}

#[cfg(test)]
mod tests {
    use crate::{Board, Position, Rules};

    /// The keys are part of the search's signatures: the start's key (under either rules) and one after
    /// a move, as they were when the keys were first made (the same from the Python
    /// `LeiserBoard.zobrist_key`).
    #[test]
    fn the_keys_are_the_ones_first_made() {
        assert_eq!(Board::start(Rules::R2018).key(), 4_890_107_349_058_907_913);
        let mut game = Position::start(Rules::R2016);
        assert_eq!(game.board().key(), 4_890_107_349_058_907_913);
        game.push_text("f4f5").unwrap();
        assert_eq!(game.board().key(), 16_291_999_331_466_657_894);
    }
}
