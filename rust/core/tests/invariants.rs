//! Invariants over random games: the incremental Zobrist key equals the full recompute at every node
//! (and the prefetch's guess before a move, where the move changes no right or en-passant file),
//! make/unmake (and null moves) restore the exact position, generation by kind partitions the legal
//! moves, and FEN output parses back to the same position.

use camelpy_core::{Color, GenKind, Move, MoveList, Position, Square};

mod common;

use common::{suite_fens, Rng};

fn sorted(moves: &[Move]) -> Vec<u16> {
    let mut raw: Vec<u16> = moves.iter().map(|m| m.raw()).collect();
    raw.sort_unstable();
    raw
}

fn check_node(pos: &mut Position) {
    assert_eq!(pos.key(), pos.compute_key(), "incremental key in {}", pos.fen());
    pos.check_consistency();
    assert_eq!(pos.is_repetition(), pos.repetition_count() >= 2, "{}", pos.fen());

    let all = pos.legal_moves();
    assert_eq!(all.len() as u64, pos.count_legal());
    let mut split = MoveList::new();
    pos.generate(GenKind::CapturesAndPromotions, &mut split);
    let captures = split.len();
    pos.generate(GenKind::Quiets, &mut split);
    assert_eq!(sorted(&split), sorted(&all), "captures + quiets == all in {}", pos.fen());
    for mv in &split[..captures] {
        let capture = pos.piece_on(mv.to()).is_some() && !mv.is_castling();
        assert!(capture || mv.promotion().is_some() || mv.kind() == camelpy_core::MoveKind::EnPassant);
    }

    // Attackers of both colours in one pass equal the two one-colour sets, with the board's occupancy
    // and with a from-square lifted off it (as exchange evaluation uses them).
    for lifted in [None, all.first().map(|m| m.from())] {
        let occupied = pos.occupied() ^ lifted.map_or(camelpy_core::Bitboard::EMPTY, |sq| sq.bitboard());
        for sq in Square::ALL {
            let both = pos.attackers(sq, Color::White, occupied) | pos.attackers(sq, Color::Black, occupied);
            assert_eq!(pos.attackers_to(sq, occupied), both, "attackers of {sq:?} in {}", pos.fen());
        }
    }

    let reparsed = Position::from_fen(&pos.fen(), pos.is_chess960()).unwrap();
    assert_eq!(reparsed.fen(), pos.fen());
    assert_eq!(reparsed.key(), pos.key(), "key depends only on the position: {}", pos.fen());

    // Every move: make, check, unmake restores everything.
    let before = (pos.fen(), pos.key(), pos.checkers(), pos.pinned());
    let check_squares = pos.check_squares();
    for &mv in all.iter() {
        assert!(pos.is_legal(mv));
        let gives_check = pos.gives_check(mv);
        assert_eq!(pos.gives_check_with(mv, &check_squares), gives_check, "{mv:?} in {}", before.0);
        let guess = pos.key_after(mv);
        let rights = pos.castling_rights();
        pos.play_unchecked(mv);
        // The prefetch's guess is the key whenever the move is no castling or en-passant capture and
        // changes no castling right and opens no en-passant file.
        let plain = !mv.is_castling() && mv.kind() != camelpy_core::MoveKind::EnPassant;
        if plain && rights == pos.castling_rights() && pos.ep_square().is_none() {
            assert_eq!(guess, pos.key(), "key_after({mv:?}) in {}", before.0);
        }
        assert_eq!(gives_check, pos.is_check(), "gives_check({mv:?}) in {}", before.0);
        assert_eq!(pos.key(), pos.compute_key(), "after {mv:?}");
        assert_eq!(pos.last_move(), Some(mv));
        assert_eq!(pos.last_move(), pos.moves_played().last().flatten());
        pos.undo_move();
        assert_eq!((pos.fen(), pos.key(), pos.checkers(), pos.pinned()), before, "undo of {mv:?}");
    }
    if !pos.is_check() {
        let guess = pos.key_after_null();
        pos.play_null();
        assert_eq!(pos.key(), pos.compute_key(), "after null move");
        assert_eq!(guess, pos.key(), "key_after_null in {}", before.0);
        assert_eq!(pos.last_move(), None);
        pos.undo_move();
        assert_eq!((pos.fen(), pos.key(), pos.checkers(), pos.pinned()), before, "undo of null move");
    }
}

fn random_walks(fens: &[String], chess960: bool, games: usize, plies: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut nodes = 0;
    for (i, fen) in fens.iter().cycle().take(games).enumerate() {
        let mut pos = Position::from_fen(fen, chess960).unwrap();
        let root = (pos.fen(), pos.key());
        for _ in 0..plies {
            check_node(&mut pos);
            nodes += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
        }
        while pos.undo_move().is_some() {}
        assert_eq!((pos.fen(), pos.key()), root, "game {i} unwound to its root");
        assert_eq!(pos.last_move(), None);
    }
    nodes
}

#[test]
fn standard_random_games() {
    assert!(random_walks(&suite_fens("standard.epd"), false, 300, 120, 0x1234_5678) > 10_000);
}

#[test]
fn chess960_random_games() {
    assert!(random_walks(&suite_fens("fischer.epd"), true, 300, 120, 0x960) > 10_000);
}

#[test]
fn transpositions_share_a_key() {
    let mut a = Position::startpos();
    let mut b = Position::startpos();
    for uci in ["g1f3", "g8f6", "b1c3", "b8c6"] {
        a.play(a.parse_uci(uci).unwrap());
    }
    for uci in ["b1c3", "b8c6", "g1f3", "g8f6"] {
        b.play(b.parse_uci(uci).unwrap());
    }
    assert_eq!(a.key(), b.key());
    // A knight dance back to the start: same key as the start, but the clocks differ.
    let mut c = Position::startpos();
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        c.play(c.parse_uci(uci).unwrap());
    }
    assert_eq!(c.key(), Position::startpos().key());
    assert_eq!(c.repetition_count(), 2);
    assert!(c.is_repetition() && !Position::startpos().is_repetition());
    // Once more round, and out again: every position from the fourth ply on has occurred before.
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3"] {
        c.play(c.parse_uci(uci).unwrap());
        assert_eq!(c.is_repetition(), c.repetition_count() >= 2, "after {uci}");
    }
    assert_eq!((c.repetition_count(), c.is_repetition()), (3, true));
    // A double push with no capturer leaves no en-passant square, so the key matches the FEN without one.
    let mut d = Position::startpos();
    d.play(d.parse_uci("e2e4").unwrap());
    assert_eq!(d.ep_square(), None);
    assert_eq!(d.key(), Position::from_fen(&d.fen(), false).unwrap().key());
}
