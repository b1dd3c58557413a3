//! Fuzz target `fen`: arbitrary bytes as a FEN, in both Chess960 modes.
//!
//! Invariants: `Position::from_fen` answers `Ok` or `Err` and never panics, and its error message can
//! be formatted; a parsed position satisfies the position invariants (key equals the recompute,
//! `check_consistency`, see `camelpy_fuzz::assert_position_invariants`); the FEN written back, in
//! both castling notations, parses to the same position and key and is written identically again (a
//! fixed point); and whatever parses in standard mode parses in Chess960 mode to the same position,
//! key and legal moves (standard castling is the Chess960 case with the king on e and rooks on a/h).
#![no_main]

use camelpy_core::Position;
use camelpy_fuzz::assert_position_invariants;
use libfuzzer_sys::fuzz_target;

fn sorted_legal(pos: &Position) -> Vec<u16> {
    let mut moves: Vec<u16> = pos.legal_moves().iter().map(|m| m.raw()).collect();
    moves.sort_unstable();
    moves
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parsed: [Option<Position>; 2] = [None, None];
    for (slot, chess960) in [false, true].into_iter().enumerate() {
        let pos = match Position::from_fen(&text, chess960) {
            Ok(pos) => pos,
            Err(e) => {
                let _ = e.to_string();
                continue;
            }
        };
        assert_eq!(pos.is_chess960(), chess960);
        assert_eq!(pos.ply(), 0, "a parsed position has no history");
        assert_position_invariants(&pos);
        for shredder in [false, true] {
            let fen = pos.fen_with(shredder);
            let again = Position::from_fen(&fen, chess960)
                .unwrap_or_else(|e| panic!("written FEN {fen:?} (from {text:?}) does not parse: {e}"));
            assert_eq!(again, pos, "FEN {fen:?} (from {text:?}) parses to another position");
            assert_eq!(again.key(), pos.key(), "FEN {fen:?} (from {text:?}) parses to another key");
            assert_eq!(again.fen_with(shredder), fen, "FEN output is not a fixed point for {text:?}");
        }
        parsed[slot] = Some(pos);
    }
    if let Some(standard) = &parsed[0] {
        let c960 = parsed[1]
            .as_ref()
            .unwrap_or_else(|| panic!("{text:?} parses in standard mode but not in Chess960 mode"));
        assert_eq!(c960, standard, "the two modes read {text:?} differently");
        assert_eq!(c960.key(), standard.key(), "the two modes key {text:?} differently");
        assert_eq!(
            sorted_legal(c960),
            sorted_legal(standard),
            "the two modes' legal moves differ for {text:?}"
        );
    }
});
