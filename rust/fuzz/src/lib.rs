//! Helpers shared by the fuzz targets in `fuzz_targets/`: seed positions, a position snapshot that
//! compares everything make/unmake must restore, and the colour-mirrored twin of a position.
//!
//! Copyright (C) the camelpy developers. Licensed under the GNU GPL, version 3 or later.

use camelpy_core::{
    types::{CastlingSide, Color, File, Rank, Square},
    Bitboard, Move, Position,
};

/// Positions the `moves` and `eval_symmetry` targets start from when the input does not bring its own
/// FEN: the start position, the classic perft positions (castling, en passant, promotions, pins,
/// checks) and Chess960 setups with inner castling rooks. `(fen, chess960)`.
pub const SEED_FENS: &[(&str, bool)] = &[
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", false),
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", false),
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", false),
    ("rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false),
    ("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", false),
    ("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", false),
    ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", false),
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true),
    ("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", true),
    ("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", true),
    ("nrk1bbnr/p1q1pppp/1ppp4/8/3P3P/4K3/PPP1PPP1/NR1QBBNR w hb - 0 9", true),
    ("rbbq1k1r/ppp1pppp/7n/1n1p4/5P2/P2P4/1PPBP1PP/RB1QNKNR w HAha - 1 9", true),
    ("rkn1qbbr/pp3ppp/4n3/2ppp3/4P1P1/P2P4/1PP2P1P/RKNNQBBR w HAha - 0 9", true),
];

/// Everything observable about a position that make followed by unmake must restore: the FEN in both
/// castling notations, the key, check information, castling rooks, the legal moves and the ply.
#[derive(Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The position itself (board, side, castling, en passant, clocks; `Position`'s `PartialEq`).
    pub position: Position,
    /// `fen()` and `fen_with(true)`.
    pub fens: (String, String),
    /// The incremental key.
    pub key: u64,
    /// Checkers and pinned pieces of the side to move.
    pub check_info: (Bitboard, Bitboard),
    /// The castling rook of each colour and side.
    pub rooks: [[Option<Square>; 2]; 2],
    /// The legal moves, sorted by their raw encoding.
    pub legal: Vec<u16>,
    /// Moves played since set-up.
    pub ply: usize,
}

impl Snapshot {
    /// Takes a snapshot of `pos`.
    pub fn of(pos: &Position) -> Snapshot {
        let mut legal: Vec<u16> = pos.legal_moves().iter().map(|m| m.raw()).collect();
        legal.sort_unstable();
        let rooks = Color::ALL.map(|c| CastlingSide::ALL.map(|s| pos.castling_rook(c, s)));
        Snapshot {
            position: pos.clone(),
            fens: (pos.fen(), pos.fen_with(true)),
            key: pos.key(),
            check_info: (pos.checkers(), pos.pinned()),
            rooks,
            legal,
            ply: pos.ply(),
        }
    }
}

/// Asserts the invariants every reachable position keeps: the incremental key equals the recomputed
/// one, `check_consistency` holds, and the FEN written out parses back (in the same mode) to the same
/// position with the same key and the same legal moves (so nothing the FEN does not carry, such as a
/// stale castling mask, survives in the incremental state).
pub fn assert_position_invariants(pos: &Position) {
    assert_eq!(pos.key(), pos.compute_key(), "incremental key != recomputed key in {pos:?}");
    pos.check_consistency();
    let fen = pos.fen_with(pos.is_chess960());
    let reparsed = Position::from_fen(&fen, pos.is_chess960())
        .unwrap_or_else(|e| panic!("written FEN {fen:?} does not parse: {e}"));
    assert_eq!(&reparsed, pos, "FEN round trip changed the position {fen:?}");
    assert_eq!(reparsed.key(), pos.key(), "FEN round trip changed the key of {fen:?}");
    let mut a: Vec<u16> = pos.legal_moves().iter().map(|m| m.raw()).collect();
    let mut b: Vec<u16> = reparsed.legal_moves().iter().map(|m| m.raw()).collect();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "legal moves differ after a FEN round trip of {fen:?}");
}

/// The colour-mirrored twin of `pos`, built square by square from the board (not by editing the FEN
/// text): every piece moves to the square with the mirrored rank and changes colour, the other side is
/// to move, each side gets the other's castling rights (same rook files), the en-passant square is
/// mirrored, and the clocks stay. Returned as a Shredder-FEN for the same Chess960 mode.
pub fn mirrored_fen(pos: &Position) -> String {
    let mut out = String::with_capacity(90);
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0u8;
        for file in File::ALL {
            // The mirrored square of (file, rank) is (file, 9 - rank): read the original there.
            let source = Square::new(file, *rank).flip_rank();
            match pos.piece_on(source) {
                Some(piece) => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    let mirrored = camelpy_core::Piece::new(piece.color().flip(), piece.piece_type());
                    out.push(mirrored.to_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if *rank != Rank::First {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(pos.side_to_move().flip().fen_char());
    out.push(' ');
    let mut castling = String::new();
    // The mirror's White rights are the original's Black rights, and the reverse.
    for color in [Color::Black, Color::White] {
        for side in CastlingSide::ALL {
            if let Some(file) = pos.castling_rights().get(color, side) {
                let c = file.to_char();
                castling.push(if color == Color::Black { c.to_ascii_uppercase() } else { c });
            }
        }
    }
    out.push_str(if castling.is_empty() { "-" } else { &castling });
    out.push(' ');
    match pos.ep_square() {
        Some(sq) => out.push_str(&sq.flip_rank().to_string()),
        None => out.push('-'),
    }
    out.push_str(&format!(" {} {}", pos.halfmove_clock(), pos.fullmove_number()));
    out
}

/// A legal move of `pos` chosen by `index` (modulo the number of legal moves), if there is any.
pub fn pick_legal(pos: &Position, index: usize) -> Option<Move> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        None
    } else {
        Some(legal[index % legal.len()])
    }
}
