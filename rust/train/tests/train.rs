//! The trainer on synthetic data whose answer is known (the score is the material balance): it lowers
//! its loss, the quantised net agrees with the float model, a stopped run resumes to exactly the same
//! net as an uninterrupted one, and bad settings or checkpoints are refused with clear messages.

// The core's integration-test helpers (one copy of each, shared with this crate's tests).
#[path = "../../core/tests/common/mod.rs"]
mod common;

use std::{
    path::PathBuf,
    sync::atomic::{AtomicBool, Ordering},
};

use camelpy_core::{
    data::{GameResult, Header, Record, RecordWriter, SplitMix64},
    nnue::{Arch, Hidden, InputBuckets, Network, OutputBuckets},
    types::{Color, PieceType},
    Position,
};
use camelpy_train::{
    evaluation_loss, load, model, train, Dataset, Event, FileRead, LoadSettings, MeasureSettings, Sample,
    TrainSettings, NET_FILE_NAME,
};
use common::mirrored_fen;

/// Material from the side to move's view, in centipawns: the synthetic score.
fn material(pos: &Position) -> i16 {
    let values = [
        (PieceType::Pawn, 100),
        (PieceType::Knight, 300),
        (PieceType::Bishop, 320),
        (PieceType::Rook, 500),
        (PieceType::Queen, 900),
    ];
    let us = pos.side_to_move();
    values
        .iter()
        .map(|&(pt, v)| {
            (pos.colored_pieces(us, pt).len() as i16 - pos.colored_pieces(us.flip(), pt).len() as i16) * v
        })
        .sum()
}

/// Records from random games: the score is the material balance, the result its sign.
fn synthetic_records(games: usize, seed: u64) -> Vec<Vec<Record>> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        let mut positions = Vec::new();
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
            positions.push((pos.clone(), mv));
            pos.play_unchecked(mv);
        }
        let n = positions.len();
        let game: Vec<Record> = positions
            .into_iter()
            .enumerate()
            .map(|(i, (p, mv))| {
                let score = material(&p);
                let white = if p.side_to_move() == Color::White { score } else { -score };
                let result = match white {
                    s if s > 0 => GameResult::WhiteWins,
                    s if s < 0 => GameResult::BlackWins,
                    _ => GameResult::Draw,
                };
                Record::from_position(&p, score, mv, result, i + 1 == n).unwrap()
            })
            .collect();
        out.push(game);
    }
    out
}

fn dataset(games: usize, seed: u64) -> Dataset {
    let mut data = Dataset::default();
    for (g, game) in synthetic_records(games, seed).into_iter().enumerate() {
        for r in game {
            let s = Sample::from_record(&r, 3000);
            if g % 10 == 0 {
                data.valid.push(s);
            } else {
                data.train.push(s);
            }
        }
    }
    data
}

/// The largest difference rounding can make between the float model and the quantised net on `pos`, in
/// centipawns: each of the `n + 1` feature weights and biases summed into a pre-activation is off by at
/// most `0.5 / QA`, each output weight by `0.5 / qb` (the net's `QB`), the output bias by
/// `0.5 / (QA · qb)`, and the integer divisions truncate by under one unit each.
fn quantisation_bound(l: &model::Layout, p: &[f32], pos: &Position, qb: i32) -> f32 {
    use camelpy_core::nnue::{bucketed_feature, QA, SCALE};
    let h = l.hidden;
    let n = pos.occupied().len() as f32;
    let da = (n + 1.0) * 0.5 / QA as f32;
    let dw = 0.5 / qb as f32;
    let stm = pos.side_to_move();
    let bucket = l.arch.output_buckets.bucket(pos.occupied().len());
    let mut bound = 0.5 / (QA * qb) as f32;
    for (side, persp) in [stm, stm.flip()].into_iter().enumerate() {
        let key = l.arch.input_buckets.key(persp, pos.king(persp));
        for i in 0..h {
            let mut a = p[l.ft_bias + i];
            for sq in pos.occupied() {
                a += p[bucketed_feature(persp, key, pos.piece_on(sq).unwrap(), sq) * h + i];
            }
            let c = a.clamp(0.0, 1.0);
            let w = p[l.out_weights + (bucket * 2 + side) * h + i].abs();
            bound += (c + da).powi(2) * dw + w * (2.0 * c * da + da * da);
        }
    }
    bound * SCALE as f32 + 2.0
}

/// How far `net` is from the float model `p` at `pos`, in centipawns, asserting that this is within
/// [`quantisation_bound`] for the net's `QB`; returns `(difference, float value)`.
fn quantised_within_bound(l: &model::Layout, p: &[f32], net: &Network, pos: &Position) -> (f32, f32) {
    let float = model::evaluate(l, p, pos);
    let quantised = net.evaluate(pos);
    let diff = (quantised as f32 - float).abs();
    let bound = quantisation_bound(l, p, pos, net.qb());
    assert!(diff <= bound, "{}: quantised {quantised} float {float} (bound {bound})", pos.fen());
    (diff, float)
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("camelpy-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn settings(epochs: u32) -> TrainSettings {
    TrainSettings { epochs, batch_size: 64, lr: 3e-3, wdl: 0.0, threads: 2, seed: 5, ..Default::default() }
}

#[test]
fn training_lowers_the_loss_and_the_quantised_net_matches_the_float_model() {
    check_training(Arch::V1, "lowers");
}

#[test]
fn a_wider_network_with_material_buckets_trains_and_quantises_the_same_way() {
    let arch = Arch::new(Hidden::H512, OutputBuckets::Material);
    check_training(arch, "wide");
    // The shape is part of the run: a checkpoint of one shape does not resume another.
    let data = dataset(40, 6);
    let dir = temp_dir("shapes");
    let stop = AtomicBool::new(false);
    let wide = TrainSettings { arch, ..settings(1) };
    let summary = train(&data, &wide, &dir, false, &mut |_| {}, &stop).unwrap();
    let net = Network::load(&dir.join(NET_FILE_NAME)).unwrap();
    assert_eq!((net.arch(), net.hash()), (arch, summary.net_hash));
    assert_ne!(wide.digest(data.train.len()), settings(1).digest(data.train.len()));
    let err = camelpy_train::checkpoint::State::read(&dir.join("checkpoint.bin"), wide.digest(1), Arch::V1)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "512 hidden neurons, 8 output bucket(s) and 1 input bucket(s); this run trains 768→256×2→1"
        ),
        "{err}"
    );
    assert!(train(&data, &settings(1), &dir, true, &mut |_| {}, &stop).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_network_with_king_buckets_trains_and_quantises_the_same_way() {
    check_training(
        Arch {
            hidden: Hidden::H256,
            output_buckets: OutputBuckets::Single,
            input_buckets: InputBuckets::King4,
        },
        "kings",
    );
}

fn check_training(arch: Arch, name: &str) {
    let data = dataset(600, 1);
    let dir = temp_dir(name);
    let s = TrainSettings { arch, ..settings(6) };
    let layout = model::Layout::of(arch);
    let before = camelpy_train::mean_loss(&layout, &model::init(&layout, s.seed), &data.valid, s.wdl, 1);
    let summary = train(&data, &s, &dir, false, &mut |_| {}, &AtomicBool::new(false)).unwrap();
    assert_eq!(summary.epochs.len(), 6);
    let after = summary.epochs.last().unwrap().valid;
    assert!(after < before * 0.3, "validation loss {before} -> {after}: {:?}", summary.epochs);
    for pair in summary.epochs.windows(2) {
        assert!(pair[1].train < pair[0].train * 1.05, "{:?}", summary.epochs);
    }

    // The written net: the float model's values within quantisation error.
    let state =
        camelpy_train::checkpoint::State::read(&dir.join("checkpoint.bin"), s.digest(data.train.len()), arch)
            .unwrap();
    assert_eq!(state.arch, arch);
    let net = Network::load(&dir.join(NET_FILE_NAME)).unwrap();
    assert_eq!((net.hash(), net.arch(), net.qb()), (summary.net_hash, arch, model::EXPORT_QB));
    let (mut total_diff, mut total_value) = (0.0f32, 0.0f32);
    let games = synthetic_records(20, 99);
    for r in games.iter().flatten() {
        let pos = r.position().unwrap();
        let (diff, float) = quantised_within_bound(&layout, &state.params, &net, &pos);
        total_diff += diff;
        total_value += float.abs();
        // The sample path and the position path of the float model agree.
        let sample = Sample::from_record(r, 3000);
        assert!((model::evaluate_sample(&layout, &state.params, &sample) - float).abs() < 0.01);
    }
    // On average far inside the bound: output weights at 1/256 steps cost 1-2.5 % of the value.
    assert!(total_diff < 0.04 * total_value, "error {total_diff} cp in all, over values of {total_value} cp");
    // And it learnt material: a queen up is worth far more than a pawn up.
    let queen_up =
        Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false).unwrap();
    let pawn_up =
        Position::from_fen("rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false).unwrap();
    let (q, p) = (net.evaluate(&queen_up), net.evaluate(&pawn_up));
    assert!(q > p + 300 && p > 30, "a queen up: {q} cp, a pawn up: {p} cp");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_net_written_with_qb_256_round_trips_and_evaluates_as_its_float_model() {
    // Float parameters with output weights spread over the whole clip range (±127/256), so that every
    // step of the output grid is exercised, not only the small weights a short run learns, and feature
    // weights and biases already on the 1/255 grid, so that the output grid is what quantising changes.
    let arch = Arch::new(Hidden::H512, OutputBuckets::Material);
    let layout = model::Layout::of(arch);
    let mut params = model::init(&layout, 17);
    let mut rng = SplitMix64::new(3);
    for w in &mut params[layout.out_weights..layout.out_bias] {
        *w = ((rng.next_u64() % 2001) as f32 / 1000.0 - 1.0) * model::MAX_OUT_WEIGHT;
    }
    for w in &mut params[..layout.out_weights] {
        *w = (*w * 255.0).round() / 255.0;
    }
    let net = model::quantise(&layout, &params);
    assert_eq!((net.qb(), model::EXPORT_QB), (256, 256));
    assert!(net.out_weights().iter().any(|w| w.abs() == 127), "the clip range is used");
    let bytes = net.to_bytes();
    assert_eq!(u16::from_le_bytes([bytes[22], bytes[23]]), 256, "QB in the header");
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back, net);
    // The same float model with only its output weights on the 1/64 grid: what the older files lose.
    let mut coarse = params.clone();
    for w in &mut coarse[layout.out_weights..layout.out_bias] {
        *w = (*w * 64.0).round() / 64.0;
    }
    let mut checked = 0;
    let (mut total_diff, mut total_diff_64) = (0.0f32, 0.0f32);
    for r in synthetic_records(20, 41).iter().flatten() {
        let pos = r.position().unwrap();
        let (diff, float) = quantised_within_bound(&layout, &params, &back, &pos);
        total_diff += diff;
        assert!(
            quantisation_bound(&layout, &params, &pos, 256) < quantisation_bound(&layout, &params, &pos, 64)
        );
        total_diff_64 += (model::evaluate(&layout, &coarse, &pos) - float).abs();
        checked += 1;
    }
    assert!(checked > 500, "{checked} positions");
    // The whole quantised net is off by less than half what the 1/64 output grid alone makes it (3.0 cp
    // against 13.4 cp a position here).
    assert!(total_diff < 0.5 * total_diff_64, "{total_diff} cp in all, the 1/64 grid alone {total_diff_64}");

    // A version-2 header with another QB is refused by its value (the checksum covers the weights only).
    let mut odd = bytes.clone();
    odd[22..24].copy_from_slice(&100u16.to_le_bytes());
    let message = Network::from_bytes(&odd).unwrap_err().to_string();
    assert!(message.contains("QB is 100, this build reads 64 or 256"), "{message}");
}

#[test]
fn a_stopped_run_resumes_to_the_same_net() {
    let data = dataset(40, 2);
    let s = settings(3);
    let straight = temp_dir("straight");
    train(&data, &s, &straight, false, &mut |_| {}, &AtomicBool::new(false)).unwrap();

    let resumed = temp_dir("resumed");
    let stop = AtomicBool::new(false);
    let mut reports = 0;
    // Stop at the first progress report of epoch 2 (mid-epoch), then resume twice more.
    let first = train(
        &data,
        &s,
        &resumed,
        false,
        &mut |e| {
            if matches!(e, Event::Progress { epoch: 2, .. }) {
                reports += 1;
                stop.store(true, Ordering::Relaxed);
            }
        },
        &stop,
    )
    .unwrap();
    assert!(first.stopped && reports == 1 && first.epochs.len() == 1, "{first:?}");
    let second = train(&data, &s, &resumed, true, &mut |_| {}, &AtomicBool::new(false)).unwrap();
    assert!(!second.stopped && second.epochs.len() == 3);

    let bytes = |dir: &PathBuf| std::fs::read(dir.join(NET_FILE_NAME)).unwrap();
    assert_eq!(bytes(&straight), bytes(&resumed));
    let losses = |dir: &PathBuf| {
        let st = camelpy_train::checkpoint::State::read(
            &dir.join("checkpoint.bin"),
            s.digest(data.train.len()),
            s.arch,
        )
        .unwrap();
        st.history.iter().map(|h| (h.train, h.valid)).collect::<Vec<_>>()
    };
    assert_eq!(losses(&straight), losses(&resumed));

    // Resuming with other settings is refused, and so is a damaged checkpoint.
    let other = TrainSettings { lr: 1e-4, ..s.clone() };
    let err =
        train(&data, &other, &resumed, true, &mut |_| {}, &AtomicBool::new(false)).unwrap_err().to_string();
    assert!(err.contains("other settings"), "{err}");
    let ckpt = resumed.join("checkpoint.bin");
    let mut raw = std::fs::read(&ckpt).unwrap();
    let mid = raw.len() / 2;
    raw[mid] ^= 0x40;
    std::fs::write(&ckpt, &raw).unwrap();
    let err = train(&data, &s, &resumed, true, &mut |_| {}, &AtomicBool::new(false)).unwrap_err().to_string();
    assert!(err.contains("checksum") && err.contains("checkpoint.bin"), "{err}");
    std::fs::remove_dir_all(&straight).unwrap();
    std::fs::remove_dir_all(&resumed).unwrap();
}

#[test]
fn data_files_are_loaded_filtered_and_split_by_game() {
    let dir = temp_dir("load");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("synthetic.bin");
    let games = synthetic_records(50, 3);
    {
        let mut w = RecordWriter::open(&path, Header { seed: 3, settings_digest: 0 }).unwrap();
        for g in &games {
            w.write_game(g).unwrap();
        }
    }
    let all: Vec<&Record> = games.iter().flatten().collect();
    let stop = AtomicBool::new(false);
    let none =
        LoadSettings { skip_in_check: false, skip_noisy: false, valid_permille: 0, ..Default::default() };
    let data = load(std::slice::from_ref(&path), &none, &stop).unwrap();
    assert_eq!(
        (data.read, data.games, data.train.len(), data.valid.len()),
        (all.len() as u64, 50, all.len(), 0)
    );
    assert_eq!(data.train[7], Sample::from_record(all[7], 3000));

    let filtered =
        load(std::slice::from_ref(&path), &LoadSettings { valid_permille: 200, ..Default::default() }, &stop)
            .unwrap();
    let kept = all.iter().filter(|r| !r.in_check && !r.noisy).count();
    assert_eq!(filtered.train.len() + filtered.valid.len(), kept);
    assert!(!filtered.valid.is_empty() && filtered.valid.len() < kept / 2);

    let capped =
        load(std::slice::from_ref(&path), &LoadSettings { max_positions: Some(100), ..none.clone() }, &stop)
            .unwrap();
    assert_eq!(capped.train.len(), 100);
    // What the provenance says: the first 100 records, the whole games among them, and whether the
    // cap fell inside the next game; of two files, the second one's prefix.
    let whole = games.iter().scan(0, |n, g| {
        *n += g.len();
        Some(*n)
    });
    let games_in_100 = whole.clone().take_while(|&n| n <= 100).count() as u64;
    let ends_game = whole.clone().any(|n| n == 100);
    assert_eq!(capped.files, [FileRead { records: 100, games: games_in_100, mid_game: !ends_game }]);
    assert_eq!(data.files, [FileRead { records: all.len() as u64, games: 50, mid_game: false }]);
    let two = [path.clone(), path.clone()];
    let both = load(&two, &LoadSettings { max_positions: Some(all.len() as u64 + 1), ..none.clone() }, &stop)
        .unwrap();
    assert_eq!(
        both.files,
        [
            FileRead { records: all.len() as u64, games: 50, mid_game: false },
            FileRead { records: 1, games: u64::from(games[0].len() == 1), mid_game: games[0].len() > 1 },
        ]
    );

    let err = load(&[dir.join("missing.bin")], &none, &stop).unwrap_err().to_string();
    assert!(err.contains("missing.bin"), "{err}");
    let err =
        load(std::slice::from_ref(&path), &LoadSettings { valid_permille: 1000, ..none.clone() }, &stop)
            .unwrap_err()
            .to_string();
    assert!(err.contains("validation share"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_evaluation_loss_is_the_mean_squared_error_against_the_training_targets() {
    let dir = temp_dir("measure");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("synthetic.bin");
    let games = synthetic_records(10, 5);
    {
        let mut w = RecordWriter::open(&path, Header { seed: 5, settings_digest: 0 }).unwrap();
        for g in &games {
            w.write_game(g).unwrap();
        }
    }
    let all: Vec<&Record> = games.iter().flatten().collect();
    let stop = AtomicBool::new(false);
    let settings = MeasureSettings { start: 20, count: 150, scale: 250.0, ..Default::default() };
    let kept: Vec<&&Record> = all[20..].iter().filter(|r| !r.in_check && !r.noisy).take(150).collect();
    let net = Network::embedded().unwrap();
    for evaluator in [None, Some(&*net)] {
        let by_hand = kept
            .iter()
            .map(|r| {
                let pos = r.position().unwrap();
                let v = match evaluator {
                    Some(net) => net.evaluate(&pos),
                    None => camelpy_core::eval::evaluate(&pos, &camelpy_core::eval::EvalParams::DEFAULT),
                };
                let t = model::target(&Sample::from_record(r, 3000), 0.3) as f64;
                (1.0 / (1.0 + (-v as f64 / 250.0).exp()) - t).powi(2)
            })
            .sum::<f64>()
            / kept.len() as f64;
        let m = evaluation_loss(&path, evaluator, &settings, &stop).unwrap();
        assert_eq!(m.positions, kept.len() as u64);
        assert!((m.loss - by_hand).abs() < 1e-12 * by_hand, "{} vs {by_hand}", m.loss);
    }
    for (bad, msg) in [
        (MeasureSettings { count: 0, ..Default::default() }, "count"),
        (MeasureSettings { wdl: -0.1, ..Default::default() }, "wdl"),
        (MeasureSettings { scale: f64::NAN, ..Default::default() }, "scale"),
        (MeasureSettings { max_score: 0, ..Default::default() }, "score clamp"),
        (MeasureSettings { start: all.len() as u64, ..Default::default() }, "no positions to measure"),
    ] {
        let err = evaluation_loss(&path, None, &bad, &stop).unwrap_err().to_string();
        assert!(err.contains(msg), "{err}");
    }
    let err = evaluation_loss(&dir.join("missing.bin"), None, &settings, &stop).unwrap_err().to_string();
    assert!(err.contains("missing.bin"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_settings_are_refused() {
    let data = dataset(3, 4);
    let dir = temp_dir("bad");
    let stop = AtomicBool::new(false);
    for (s, msg) in [
        (TrainSettings { epochs: 0, ..Default::default() }, "epochs"),
        (TrainSettings { batch_size: 0, ..Default::default() }, "batch size"),
        (TrainSettings { lr: f32::NAN, ..Default::default() }, "learning rate"),
        (TrainSettings { wdl: 1.5, ..Default::default() }, "wdl"),
        (TrainSettings { threads: 0, ..Default::default() }, "threads"),
    ] {
        let err = train(&data, &s, &dir, false, &mut |_| {}, &stop).unwrap_err().to_string();
        assert!(err.contains(msg), "{err}");
    }
    let err =
        train(&Dataset::default(), &TrainSettings::default(), &dir, false, &mut |_| {}, &stop).unwrap_err();
    assert!(err.to_string().contains("no training positions"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_mirrored_sample_is_its_mirror_image_and_changes_the_run() {
    let l = model::Layout::of(Arch::V1);
    let p = model::init(&l, 3);
    for fen in [
        "r3k2r/pp1n1ppp/2p1b3/q7/3P4/2N2N2/PP3PPP/R2QKB1R b - - 0 12",
        "8/5pk1/6p1/3R4/1r6/6P1/5PK1/8 w - - 0 40",
    ] {
        let sample = |fen: &str| {
            let pos = Position::from_fen(fen, false).unwrap();
            let mv = pos.legal_moves()[0];
            Sample::from_record(&Record::from_position(&pos, 35, mv, GameResult::Draw, false).unwrap(), 3000)
        };
        let (original, mirror) = (sample(fen), sample(&mirrored_fen(fen)));
        let mut s = model::Scratch::new(&l);
        let (mut g1, mut g2) = (vec![0.0f32; l.params], vec![0.0f32; l.params]);
        let e1 = model::backward(&l, &p, &mut g1, &original, true, 0.3, &mut s);
        let e2 = model::backward(&l, &p, &mut g2, &mirror, false, 0.3, &mut s);
        // Equal up to the order of the float sums (the pieces are visited in another square order).
        assert!((e1 - e2).abs() < 1e-6, "{fen}: {e1} against {e2}");
        let worst = g1.iter().zip(&g2).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
        let largest = g1.iter().map(|a| a.abs()).fold(0.0f32, f32::max);
        assert!(largest > 0.0 && worst < 1e-5 * largest, "{fen}: gradients differ by {worst} of {largest}");
        let e3 = model::backward(&l, &p, &mut g2, &original, false, 0.3, &mut s);
        assert_ne!(e1, e3, "{fen}: the mirror changed nothing");
    }
    // The mirror is a setting of the run: another net, and a checkpoint one setting cannot resume.
    let data = dataset(40, 4);
    let plain = TrainSettings { mirror: false, ..settings(1) };
    assert_ne!(plain.digest(data.train.len()), settings(1).digest(data.train.len()));
    let (a, b) = (temp_dir("mirror-on"), temp_dir("mirror-off"));
    let stop = AtomicBool::new(false);
    let on = train(&data, &settings(1), &a, false, &mut |_| {}, &stop).unwrap();
    let off = train(&data, &plain, &b, false, &mut |_| {}, &stop).unwrap();
    assert_ne!(on.net_hash, off.net_hash);
    assert!(train(&data, &plain, &a, true, &mut |_| {}, &stop).is_err());
    std::fs::remove_dir_all(&a).unwrap();
    std::fs::remove_dir_all(&b).unwrap();
}

#[test]
fn every_built_in_network_dequantises_to_weights_that_quantise_back_to_it() {
    for name in camelpy_core::nnue::BUILT_IN {
        let net = Network::built_in(name).unwrap().unwrap();
        let layout = model::Layout::of(net.arch());
        let params = model::dequantise(&layout, &net);
        assert_eq!(params.len(), layout.params, "{name}");
        let back = model::quantise(&layout, &params);
        // The trainer writes `QB` 256: a net on that grid comes back byte for byte, one on the 1/64 grid
        // (camelpy-1, camelpy-2) with the same values, its output integers four times as large, but for
        // the few beyond the trainer's ±127/256 (MAX_OUT_WEIGHT), which start clipped there.
        let ratio = back.qb() / net.qb();
        assert_eq!((back.ft_weights(), back.ft_bias()), (net.ft_weights(), net.ft_bias()), "{name}");
        let scaled: Vec<i16> =
            net.out_weights().iter().map(|&w| (w * ratio as i16).clamp(-127, 127)).collect();
        assert_eq!(back.out_weights(), &scaled[..], "{name}");
        let scaled: Vec<i32> = net.out_bias().iter().map(|&b| b * ratio).collect();
        assert_eq!(back.out_bias(), &scaled[..], "{name}");
        if ratio == 1 {
            assert_eq!(back.hash(), net.hash(), "{name}");
        }
    }
}

#[test]
fn a_run_can_start_from_a_trained_network() {
    use camelpy_train::train_from;
    let data = dataset(40, 7);
    let stop = AtomicBool::new(false);
    let built_in = Network::built_in("camelpy-3.nnue").unwrap().unwrap();
    let arch = built_in.arch();
    // With a learning rate too small to move a weight by a quantum, the written net is the one started from.
    let still = TrainSettings { arch, lr: 1e-12, ..settings(1) };
    let dir = temp_dir("init-still");
    let summary = train_from(&data, &still, Some(&built_in), &dir, false, &mut |_| {}, &stop).unwrap();
    assert_eq!(summary.net_hash, built_in.hash());
    // From fresh weights the same run writes another net, and a real learning rate moves the started one.
    let fresh = train(&data, &still, &temp_dir("init-fresh"), false, &mut |_| {}, &stop).unwrap();
    assert_ne!(fresh.net_hash, built_in.hash());
    let moving = TrainSettings { arch, ..settings(1) };
    let moved =
        train_from(&data, &moving, Some(&built_in), &temp_dir("init-moved"), false, &mut |_| {}, &stop);
    assert_ne!(moved.unwrap().net_hash, built_in.hash());
    // A resume must start from the same network: without it (or from another) the checkpoint is refused.
    let err = train(&data, &still, &dir, true, &mut |_| {}, &stop).unwrap_err().to_string();
    assert!(err.contains("network started from"), "{err}");
    // A network of another shape is refused, naming both shapes.
    let v1 = Network::built_in("camelpy-1.nnue").unwrap().unwrap();
    let err = train_from(&data, &still, Some(&v1), &dir, false, &mut |_| {}, &stop).unwrap_err().to_string();
    assert!(
        err.contains(
            "the network to start from is 768→256×2→1; this run trains 768→256×2→1×8 material buckets"
        ),
        "{err}"
    );
    for name in ["init-still", "init-fresh", "init-moved"] {
        temp_dir(name); // removes it
    }
}
