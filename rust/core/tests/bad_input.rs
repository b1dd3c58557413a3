//! Every line of the shared bad-FEN corpus gives an error value or a position, never a panic.

use std::{fs, panic, path::PathBuf};

use camelpy_core::Position;

#[test]
fn bad_fens_never_panic() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/bad_fens.txt");
    let text = fs::read_to_string(path).unwrap();
    let mut errors = 0;
    for line in text.lines() {
        let fen = line.rsplit_once(" ## ").map_or(line, |(fen, _)| fen);
        for chess960 in [false, true] {
            let result = panic::catch_unwind(|| Position::from_fen(fen, chess960).map(|p| p.fen()));
            match result {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => {
                    let message = e.to_string();
                    assert!(message.contains("fen: '"), "message must quote the fen: {message}");
                    errors += 1;
                }
                Err(_) => panic!("panic on {fen:?}"),
            }
        }
    }
    assert!(errors > 100, "most of the corpus is invalid ({errors} errors)");
}

#[test]
fn arbitrary_bytes_never_panic() {
    // A cheap fuzz: mutate valid FENs byte by byte (deterministic).
    let base = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let alphabet = b"pnbrqkPNBRQK12345678/ -wbKQkqABCDEFGHabcdefgh09x";
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..20_000 {
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..3 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let i = (state % bytes.len() as u64) as usize;
            bytes[i] = alphabet[(state >> 32) as usize % alphabet.len()];
        }
        let fen = String::from_utf8(bytes).unwrap();
        for chess960 in [false, true] {
            if let Ok(mut pos) = Position::from_fen(&fen, chess960) {
                // Whatever parses must be internally consistent and searchable.
                pos.check_consistency();
                camelpy_core::perft::perft(&mut pos, 2);
            }
        }
    }
}
