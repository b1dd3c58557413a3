//! Fuzz target `moves`: a start position (one of `SEED_FENS`, or a fuzzed FEN that parses), then a
//! fuzz-chosen sequence of operations: play a legal move (`play` or `try_play`), parse a fuzzed UCI
//! string, try a raw 16-bit move, take a move back, play and take back a null move.
//!
//! Invariants: `parse_uci` and `try_play` never panic; a move `parse_uci` accepts is legal and its UCI
//! text parses back to it; `is_legal` agrees with the legal move list for any 16-bit move; a refused
//! `try_play` leaves the position exactly as it was; after every make, the incremental key equals
//! `compute_key()`, `check_consistency()` holds and the FEN round-trips to the same position, key and
//! legal moves; every unmake restores the position exactly (board, FENs, key, check info, castling
//! rooks, legal moves, ply), down to the starting position once everything is unwound.
#![no_main]

use camelpy_core::{Move, Position, Square};
use camelpy_fuzz::{assert_position_invariants, pick_legal, Snapshot, SEED_FENS};
use libfuzzer_sys::{
    arbitrary::{Result, Unstructured},
    fuzz_target,
};

/// Operations per input: enough for long games, few enough that an input runs in milliseconds.
const MAX_STEPS: usize = 300;

fn start_position(u: &mut Unstructured) -> Result<Option<Position>> {
    let selector: u8 = u.arbitrary()?;
    if selector < 200 {
        let (fen, chess960) = SEED_FENS[selector as usize % SEED_FENS.len()];
        return Ok(Some(Position::from_fen(fen, chess960).expect("seed FENs are valid")));
    }
    let len = u.int_in_range(0..=100usize)?;
    let text = String::from_utf8_lossy(u.bytes(len)?).into_owned();
    Ok(Position::from_fen(&text, selector & 1 == 1).ok())
}

/// A UCI-looking string made of two fuzz-chosen squares and an optional promotion letter (any letter,
/// so invalid promotions are tried too).
fn square_string(u: &mut Unstructured) -> Result<String> {
    let from = Square::ALL[u.int_in_range(0..=63usize)?];
    let to = Square::ALL[u.int_in_range(0..=63usize)?];
    let suffix = match u.int_in_range(0..=9u8)? {
        0 => "q",
        1 => "r",
        2 => "b",
        3 => "n",
        4 => "k",
        5 => "Q",
        _ => "",
    };
    Ok(format!("{from}{to}{suffix}"))
}

fn make(pos: &mut Position, stack: &mut Vec<Snapshot>, mv: Move, checked: bool) {
    stack.push(Snapshot::of(pos));
    if checked {
        pos.try_play(mv).unwrap_or_else(|e| panic!("a legal move was refused: {e}"));
    } else {
        pos.play(mv);
    }
    assert_eq!(pos.last_move(), Some(mv));
    assert_position_invariants(pos);
    assert!(pos.repetition_count() >= 1);
}

/// `parse_uci` on `text`: either an error (whose message formats) or a legal move that round-trips,
/// which is then played.
fn parse_and_play(pos: &mut Position, stack: &mut Vec<Snapshot>, text: &str) {
    match pos.parse_uci(text) {
        Ok(mv) => {
            assert!(pos.is_legal(mv), "parse_uci({text:?}) gave an illegal move in {pos:?}");
            let uci = mv.to_uci(pos.is_chess960());
            assert_eq!(pos.parse_uci(&uci).ok(), Some(mv), "{uci:?} does not parse back in {pos:?}");
            make(pos, stack, mv, true);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

fn run(u: &mut Unstructured) -> Result<()> {
    let Some(mut pos) = start_position(u)? else { return Ok(()) };
    assert_position_invariants(&pos);
    let root = Snapshot::of(&pos);
    let mut stack: Vec<Snapshot> = Vec::new();
    for _ in 0..MAX_STEPS {
        if u.is_empty() {
            break;
        }
        let op: u8 = u.arbitrary()?;
        match op % 8 {
            0..=2 => {
                let index: u16 = u.arbitrary()?;
                if let Some(mv) = pick_legal(&pos, index as usize) {
                    make(&mut pos, &mut stack, mv, op & 8 != 0);
                }
            }
            3 => {
                let len = u.int_in_range(0..=6usize)?;
                let text = String::from_utf8_lossy(u.bytes(len)?).into_owned();
                parse_and_play(&mut pos, &mut stack, &text);
            }
            4 => {
                let text = square_string(u)?;
                parse_and_play(&mut pos, &mut stack, &text);
            }
            5 => {
                let raw: u16 = u.arbitrary()?;
                let Some(mv) = Move::from_raw(raw) else { continue };
                let listed = pos.legal_moves().contains(mv);
                assert_eq!(
                    pos.is_legal(mv),
                    listed,
                    "is_legal disagrees with legal_moves for {raw:#06x} in {pos:?}"
                );
                if listed {
                    make(&mut pos, &mut stack, mv, true);
                } else {
                    let before = Snapshot::of(&pos);
                    assert!(pos.try_play(mv).is_err());
                    assert_eq!(Snapshot::of(&pos), before, "a refused try_play changed the position");
                }
            }
            6 => match stack.pop() {
                Some(snapshot) => {
                    assert!(matches!(pos.undo_move(), Some(Some(_))), "undo did not return the move");
                    assert_eq!(Snapshot::of(&pos), snapshot, "undo did not restore the position");
                }
                None => assert_eq!(pos.undo_move(), None, "undo past the set-up position"),
            },
            _ => {
                if pos.is_check() {
                    continue;
                }
                let before = Snapshot::of(&pos);
                pos.play_null();
                assert_position_invariants(&pos);
                assert_eq!(pos.undo_move(), Some(None), "undo of a null move");
                assert_eq!(Snapshot::of(&pos), before, "undo of a null move did not restore the position");
            }
        }
    }
    while let Some(snapshot) = stack.pop() {
        assert!(pos.undo_move().is_some());
        assert_eq!(Snapshot::of(&pos), snapshot, "unwinding did not restore the position");
    }
    assert_eq!(Snapshot::of(&pos), root, "unwinding did not return to the start");
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
