//! Fuzz target `eval_symmetry`: a legal position (a seed position after fuzz-chosen legal moves, or a
//! fuzzed FEN that parses) and its colour-mirrored twin, built square by square from the board
//! (`camelpy_fuzz::mirrored_fen`).
//!
//! Invariants, with the default evaluation parameters: the mirror parses (the mirror of a legal
//! position is legal) and mirroring it again gives the original position back; both evaluate to the
//! same value from the side to move's point of view (the evaluation's documented colour symmetry);
//! `evaluate_cached` (the search's pawn-cache path) equals `evaluate`; the trace agrees with the
//! evaluation and its terms blend to its score.
#![no_main]

use std::cell::RefCell;

use camelpy_core::{
    eval::{blend, evaluate, evaluate_cached, trace, EvalParams, PawnCache},
    Position,
};
use camelpy_fuzz::{mirrored_fen, pick_legal, SEED_FENS};
use libfuzzer_sys::{
    arbitrary::{Result, Unstructured},
    fuzz_target,
};

thread_local! {
    /// One pawn cache for the whole run, as a search keeps one: stale entries must never leak.
    static CACHE: RefCell<PawnCache> = RefCell::new({
        let mut cache = PawnCache::new();
        cache.prepare(&EvalParams::DEFAULT);
        cache
    });
}

fn position(u: &mut Unstructured) -> Result<Option<Position>> {
    let selector: u8 = u.arbitrary()?;
    if selector >= 200 {
        let len = u.int_in_range(0..=100usize)?;
        let text = String::from_utf8_lossy(u.bytes(len)?).into_owned();
        return Ok(Position::from_fen(&text, selector & 1 == 1).ok());
    }
    let (fen, chess960) = SEED_FENS[selector as usize % SEED_FENS.len()];
    let mut pos = Position::from_fen(fen, chess960).expect("seed FENs are valid");
    let plies = u.int_in_range(0..=120usize)?;
    for _ in 0..plies {
        let index: u16 = u.arbitrary()?;
        match pick_legal(&pos, index as usize) {
            Some(mv) => pos.play(mv),
            None => break,
        }
    }
    Ok(Some(pos))
}

fn check(pos: &Position) {
    let params = &EvalParams::DEFAULT;
    let fen = pos.fen_with(true);
    let twin_fen = mirrored_fen(pos);
    let twin = Position::from_fen(&twin_fen, pos.is_chess960())
        .unwrap_or_else(|e| panic!("the mirror {twin_fen:?} of {fen:?} does not parse: {e}"));
    let back = Position::from_fen(&mirrored_fen(&twin), pos.is_chess960()).expect("mirror of the mirror");
    assert_eq!(&back, pos, "mirroring twice is not the identity for {fen:?}");

    let score = evaluate(pos, params);
    let twin_score = evaluate(&twin, params);
    assert_eq!(
        score, twin_score,
        "colour symmetry broken:\n  {fen} -> {score}\n  {twin_fen} -> {twin_score}"
    );

    for p in [pos, &twin] {
        let plain = evaluate(p, params);
        let cached = CACHE.with(|c| evaluate_cached(p, params, &mut c.borrow_mut()));
        assert_eq!(plain, cached, "evaluate_cached != evaluate for {:?}", p.fen_with(true));
        let t = trace(p, params);
        assert_eq!(t.score, plain, "the trace's score != evaluate for {:?}", p.fen_with(true));
        assert_eq!(
            blend(t.total(), t.phase, t.scale),
            t.white_score(),
            "trace terms do not blend to the score"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(Some(pos)) = position(&mut Unstructured::new(data)) {
        check(&pos);
    }
});
