//! Zobrist keys: our own 64-bit numbers (piece × orientation × square, and the side to move), made at
//! compile time from a fixed seed by the games framework's key stream (`camelpy_games::ZobristKeys`),
//! so keys are the same on every build.

use camelpy_games::ZobristKeys;

use crate::types::NUM_SQUARES;

/// The keys of the 16 pieces (side, kind, orientation) on the 64 squares, then the key XORed in when
/// Lavender is to move: the stream from seed `0x1E15_E5C4_E550_2016` (any fixed value) by steps of 1.
/// A piece's key is `KEYS.piece(piece.index(), square.index())`.
pub(crate) static KEYS: ZobristKeys<16, NUM_SQUARES> = ZobristKeys::generate(0x1E15_E5C4_E550_2016, 1);

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
