//! The hand-crafted evaluation: colour symmetry over every suite position and random playouts from them,
//! the trace adding up to `evaluate`, sanity of the terms on hand-picked positions, and the parameter table.

use camelpy_core::{
    eval::{evaluate, evaluate_cached, trace, EvalParams, PawnCache, Term},
    Color, Position,
};

mod common;

use common::{data_file, flip_fen, suite_fens, Rng};

/// The balanced openings: their first four EPD fields plus clocks.
fn balanced_fens() -> Vec<String> {
    data_file("tests/data/balanced.epd")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("{} 0 1", l.split_whitespace().take(4).collect::<Vec<_>>().join(" ")))
        .collect()
}

/// Every suite position with its chess960 flag.
fn all_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for fen in suite_fens("standard.epd") {
        out.push(Position::from_fen(&fen, false).unwrap());
    }
    for fen in suite_fens("fischer.epd") {
        out.push(Position::from_fen(&fen, true).unwrap());
    }
    for fen in balanced_fens() {
        out.push(Position::from_fen(&fen, false).unwrap());
    }
    out
}

/// Checks symmetry and trace consistency at one position; returns how many positions it checked (1).
fn check(pos: &Position, params: &EvalParams) -> usize {
    let fen = pos.fen();
    let flipped_fen = flip_fen(&fen);
    let flipped = Position::from_fen(&flipped_fen, pos.is_chess960())
        .unwrap_or_else(|e| panic!("flipped fen of {fen} does not parse: {e}"));
    assert_eq!(flip_fen(&flipped.fen()), fen, "flipping twice is the identity for {fen}");
    let score = evaluate(pos, params);
    assert_eq!(score, evaluate(&flipped, params), "colour symmetry broken:\n{fen}\n{flipped_fen}");
    let t = trace(pos, params);
    assert_eq!(t.score, score, "trace disagrees with evaluate in {fen}");
    assert_eq!(
        camelpy_core::eval::blend(t.total(), t.phase, t.scale),
        t.white_score(),
        "trace terms do not sum to the score in {fen}"
    );
    1
}

#[test]
fn flip_fen_helper() {
    assert_eq!(
        flip_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
        "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1"
    );
    assert_eq!(flip_fen("4k3/8/8/8/8/8/8/4K2R w K - 3 9"), "4k2r/8/8/8/8/8/8/4K3 b k - 3 9");
    assert_eq!(
        flip_fen("bqnb1rkr/8/8/8/8/8/8/BQNB1RKR w HFh - 2 9"),
        "bqnb1rkr/8/8/8/8/8/8/BQNB1RKR b Hhf - 2 9"
    );
}

/// Endings and odd material the random playouts rarely reach.
const ENDGAMES: &[&str] = &[
    "8/8/8/8/8/8/8/K1k5 w - - 0 1",
    "8/8/8/3k4/8/8/8/KQ6 w - - 0 1",
    "8/8/8/3k4/8/8/8/KNN5 b - - 0 1",
    "8/8/8/3k4/8/8/8/KB6 w - - 0 1",
    "8/8/8/3k4/8/8/8/KBN5 w - - 0 1",
    "8/8/2b5/3k1p2/8/2P1B3/1P6/K7 w - - 0 1",
    "8/8/2r5/3k4/8/4B3/2R5/K7 w - - 0 1",
    "8/5k2/8/8/8/8/8/KRR5 b - - 0 1",
    "7k/8/8/8/8/8/pppppppp/K7 w - - 0 1",
    "1k6/1P6/1K6/8/8/8/8/8 b - - 0 1",
    "QQQQQQQQ/8/8/8/8/8/8/K1k5 b - - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/8/4K3 w kq - 0 1",
    "8/6PP/8/8/8/8/pp6/k1K5 w - - 0 1",
];

#[test]
fn colour_symmetry_and_trace_over_suites_and_playouts() {
    let params = EvalParams::DEFAULT;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    let mut positions = all_positions();
    positions.extend(ENDGAMES.iter().map(|fen| Position::from_fen(fen, false).unwrap()));
    for (i, start) in positions.iter().enumerate() {
        checked += check(start, &params);
        // Every position gets a short playout; every 16th a long one that reaches endings.
        let plies = if i % 16 == 0 { 300 } else { 12 };
        let mut pos = start.clone();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(rng.next() % moves.len() as u64) as usize];
            pos.play(mv);
            checked += check(&pos, &params);
        }
    }
    eprintln!("symmetry checked at {checked} positions");
    assert!(checked > 30_000, "only {checked} positions checked");
}

fn eval_fen(fen: &str) -> i32 {
    evaluate(&Position::from_fen(fen, false).unwrap(), &EvalParams::DEFAULT)
}

#[test]
fn start_position_is_the_tempo() {
    let score = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(score, EvalParams::DEFAULT.tempo.mg);
    assert_eq!(score, eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"));
}

#[test]
fn material_and_side_to_move_sign() {
    let white = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let black = eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert!(white > 700, "a queen up: {white}");
    assert!(black < -700, "a queen down, to move: {black}");
    // The two differ only by whose tempo it is: exactly twice the tapered tempo, but for the two
    // truncating divisions of `blend` (each less than 1 off).
    let pos = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false).unwrap();
    let phase = trace(&pos, &EvalParams::DEFAULT).phase;
    let tempo = EvalParams::DEFAULT.tempo;
    let max_phase = camelpy_core::eval::MAX_PHASE;
    let twice_tempo =
        2.0 * f64::from(tempo.mg * phase + tempo.eg * (max_phase - phase)) / f64::from(max_phase);
    assert!((f64::from(white + black) - twice_tempo).abs() < 2.0, "{white} {black} {twice_tempo}");
}

#[test]
fn drawn_material_is_zero() {
    for fen in [
        "8/8/8/3k4/8/8/8/KNN5 w - - 0 1",
        "8/8/8/3k4/8/8/8/KNN5 b - - 0 1",
        "8/8/8/3k4/8/8/8/KB6 w - - 0 1",
        "8/8/8/3k4/8/8/8/KN6 b - - 0 1",
        "8/8/8/3k4/8/8/8/K7 w - - 0 1",
        "6kn/8/8/8/8/8/8/K7 w - - 0 1",
    ] {
        assert_eq!(eval_fen(fen), 0, "{fen}");
    }
    // A minor piece up without pawns is close to a draw, far below a clean rook up.
    let krbkr = eval_fen("8/8/8/3k4/8/1r6/8/KRB5 w - - 0 1").abs();
    let krk = eval_fen("8/8/8/3k4/8/8/8/KR6 w - - 0 1");
    assert!(krbkr < 80 && krk > 400, "KRBKR {krbkr}, KRK {krk}");
}

#[test]
fn opposite_bishops_scale_towards_a_draw() {
    // The same two extra pawns; only the colour of Black's bishop changes.
    let opposite = eval_fen("8/4k3/8/3b4/8/2PPB3/8/4K3 w - - 0 1");
    let same = eval_fen("8/4k3/8/4b3/8/2PPB3/8/4K3 w - - 0 1");
    assert!(opposite > 0 && same > 2 * opposite, "opposite {opposite}, same {same}");
    let t = trace(
        &Position::from_fen("8/4k3/8/3b4/8/2PPB3/8/4K3 w - - 0 1", false).unwrap(),
        &EvalParams::DEFAULT,
    );
    assert!(t.scale < 64);
}

#[test]
fn mop_up_drives_the_lone_king_to_the_corner() {
    let corner = eval_fen("7k/8/5K2/8/8/8/8/1Q6 w - - 0 1");
    let centre = eval_fen("8/8/5K2/8/3k4/8/8/1Q6 w - - 0 1");
    assert!(corner > centre, "corner {corner}, centre {centre}");
    // Same losing-king square; the winning king close is better than far away.
    let near = eval_fen("7k/8/5K2/8/8/8/8/1Q6 w - - 0 1");
    let far = eval_fen("7k/8/8/8/8/8/8/KQ6 w - - 0 1");
    assert!(near > far, "near {near}, far {far}");
    let t =
        trace(&Position::from_fen("7k/8/5K2/8/8/8/8/1Q6 w - - 0 1", false).unwrap(), &EvalParams::DEFAULT);
    assert!(t.term(Term::MopUp, Color::White).eg > 0);
    assert_eq!(t.term(Term::MopUp, Color::Black).eg, 0);
}

#[test]
fn advanced_passed_pawns_are_worth_more() {
    let third = eval_fen("6k1/8/8/8/8/1P6/8/6K1 w - - 0 1");
    let sixth = eval_fen("6k1/8/1P6/8/8/8/8/6K1 w - - 0 1");
    let seventh = eval_fen("6k1/1P6/8/8/8/8/8/6K1 w - - 0 1");
    assert!(sixth > third + 50 && seventh > sixth, "3rd {third}, 6th {sixth}, 7th {seventh}");
}

#[test]
fn trace_prints_a_table() {
    if std::env::var_os("CAMELPY_SHOW_TRACE").is_some() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp3ppp/2n2n2/2bp4/8/2NB1N2/PPP2PPP/R1BQ1RK1 w - - 0 1",
            "8/5pk1/6p1/3P4/8/6P1/5PK1/8 w - - 0 1",
        ] {
            println!("{fen}\n{}", trace(&Position::from_fen(fen, false).unwrap(), &EvalParams::DEFAULT));
        }
    }
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false)
            .unwrap();
    let t = trace(&pos, &EvalParams::DEFAULT);
    let text = t.to_string();
    for term in Term::ALL {
        assert!(text.contains(term.name()), "{text}");
    }
    assert!(text.contains(&format!("Final evaluation: {} (white side)", t.white_score())), "{text}");
}

/// Setting `name` to `value` changes the evaluation of `fen`, and the trace shows it in `term`.
fn assert_param_matters(fen: &str, name: &str, value: i32, term: Term) {
    let pos = Position::from_fen(fen, false).unwrap();
    let mut params = EvalParams::default();
    let before = trace(&pos, &params);
    params.set(name, value).unwrap();
    let after = trace(&pos, &params);
    assert_ne!(before.score, after.score, "{name} = {value} does not change the eval of {fen}");
    assert_eq!(after.score, evaluate(&pos, &params));
    let changed =
        |t: &camelpy_core::eval::EvalTrace| (t.term(term, Color::White), t.term(term, Color::Black));
    assert_ne!(changed(&before), changed(&after), "{name} does not show in {term:?}");
}

#[test]
fn changing_a_parameter_changes_the_eval() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_param_matters(
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "queen_value_mg",
        500,
        Term::Material,
    );
    assert_param_matters(kiwipete, "knight_mobility_mg", 20, Term::Mobility);
    assert_param_matters(kiwipete, "psqt_knight_d5_mg", 30, Term::Psqt);
    assert_param_matters("6k1/8/1P6/8/8/8/8/6K1 w - - 0 1", "passed_rank6_eg", 300, Term::PassedPawns);
    assert_param_matters("6k1/8/8/8/8/1P6/1P6/6K1 w - - 0 1", "doubled_pawn_eg", -80, Term::PawnStructure);
    assert_param_matters("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "rook_open_file_mg", 100, Term::Rooks);
    assert_param_matters("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", "bishop_pair_eg", 150, Term::BishopPair);
    assert_param_matters(kiwipete, "king_shield_close", 40, Term::KingSafety);
    assert_param_matters(kiwipete, "tempo_mg", 60, Term::Tempo);
    assert_param_matters("7k/8/5K2/8/8/8/8/1Q6 w - - 0 1", "mopup_edge", 40, Term::MopUp);
}

#[test]
fn extreme_parameters_keep_symmetry_without_overflow() {
    // Every parameter at its minimum, then at its maximum: the ranges are meant to be safe for a tuner,
    // so the evaluation must stay symmetric (and, in debug builds, free of arithmetic overflow).
    let positions: Vec<Position> = all_positions()
        .into_iter()
        .step_by(25)
        .chain(ENDGAMES.iter().map(|fen| Position::from_fen(fen, false).unwrap()))
        .collect();
    for pick in [|p: &camelpy_core::eval::ParamInfo| p.min, |p: &camelpy_core::eval::ParamInfo| p.max] {
        let mut params = EvalParams::default();
        for p in EvalParams::all() {
            params.set(p.name, pick(p)).unwrap();
        }
        for pos in &positions {
            check(pos, &params);
        }
    }
}

#[test]
fn pawn_cache_never_changes_an_evaluation() {
    // One small cache over thousands of positions (so entries are replaced and slots shared), then the
    // same positions with other weights: `prepare` must drop what the old weights filled in.
    let mut positions = all_positions();
    let mut rng = Rng(0x51A7_E0F0_9A3E_0001);
    for start in all_positions().iter().step_by(7) {
        let mut pos = start.clone();
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
            positions.push(pos.clone());
        }
    }
    let mut cache = PawnCache::new();
    let mut other = EvalParams::default();
    other.set("doubled_pawn_eg", -90).unwrap();
    other.set("passed_rank5_mg", 70).unwrap();
    other.set("backward_pawn_mg", -40).unwrap();
    for params in [EvalParams::DEFAULT, other, EvalParams::DEFAULT] {
        cache.prepare(&params);
        for _ in 0..2 {
            for pos in &positions {
                assert_eq!(
                    evaluate_cached(pos, &params, &mut cache),
                    evaluate(pos, &params),
                    "{}",
                    pos.fen()
                );
            }
        }
    }
    assert!(positions.len() > 5_000, "{}", positions.len());
}
