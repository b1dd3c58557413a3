//! The network's inference: incremental accumulators equal full refreshes, and every SIMD level gives
//! the scalar path's evaluation, on random games from every perft-suite position (castling, Chess960
//! castling, en passant, promotions, captures, null moves).

mod common;

use camelpy_core::{
    nnue::{simd::Level, AccumulatorStack, Arch, Hidden, InputBuckets, Network, OutputBuckets},
    Position,
};
use common::{flip_fen, mirrored_fen, suite_fens, Rng};

/// Random walks of this many plies from each start position (then back up, then down again).
const WALK_PLIES: usize = 40;

fn start_positions() -> Vec<Position> {
    [("standard.epd", false), ("fischer.epd", true)]
        .iter()
        .flat_map(|&(suite, chess960)| suite_fens(suite).into_iter().map(move |fen| (fen, chess960)))
        .map(|(fen, chess960)| Position::from_fen(&fen, chess960).unwrap_or_else(|e| panic!("{fen}: {e}")))
        .collect()
}

/// Every shape a network file may have.
fn every_arch() -> Vec<Arch> {
    Hidden::ALL
        .into_iter()
        .flat_map(|hidden| {
            [
                (OutputBuckets::Single, InputBuckets::Single),
                (OutputBuckets::Material, InputBuckets::Single),
                (OutputBuckets::Single, InputBuckets::King4),
                (OutputBuckets::Material, InputBuckets::King4),
            ]
            .map(|(output_buckets, input_buckets)| Arch {
                hidden,
                output_buckets,
                input_buckets,
            })
        })
        .collect()
}

#[test]
fn incremental_updates_equal_full_refreshes_on_random_games() {
    walk_and_compare(&Network::example(11), 5_000, usize::MAX);
}

#[test]
fn incremental_updates_equal_full_refreshes_for_every_shape() {
    // One stack for all of them: a reset with a network of another width takes that width.
    let mut stack = AccumulatorStack::new();
    for (k, arch) in every_arch().into_iter().enumerate() {
        let net = Network::example_of(arch, 100 + k as u64);
        assert_eq!(net.arch(), arch);
        walk_and_compare_with(&net, &mut stack, 1_000, 40);
    }
}

/// Random walks from (at most `starts` of) the suites' positions, comparing each evaluated node's
/// incremental accumulators with a full refresh; at least `min_checked` nodes.
fn walk_and_compare(net: &Network, min_checked: usize, starts: usize) {
    walk_and_compare_with(net, &mut AccumulatorStack::new(), min_checked, starts)
}

fn walk_and_compare_with(net: &Network, stack: &mut AccumulatorStack, min_checked: usize, starts: usize) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for start in start_positions().into_iter().take(starts) {
        let mut pos = start.clone();
        stack.reset(net, &pos);
        for round in 0..2 {
            let mut made = 0;
            for _ in 0..WALK_PLIES {
                let moves = pos.legal_moves();
                // A null move now and then (never in check), as the search makes them.
                if !pos.is_check() && rng.next().is_multiple_of(11) {
                    stack.push_null();
                    pos.play_null();
                } else if moves.is_empty() {
                    break;
                } else {
                    let mv = moves[(rng.next() % moves.len() as u64) as usize];
                    stack.push(&pos, mv);
                    pos.play_unchecked(mv);
                }
                made += 1;
                // Evaluate only some nodes, so updates also run several plies at once.
                if !rng.next().is_multiple_of(3) {
                    assert_eq!(
                        stack.evaluate(net, &pos),
                        net.evaluate(&pos),
                        "{} (round {round})",
                        pos.fen()
                    );
                    assert_eq!(stack.current(net, &pos), net.refresh(&pos), "{}", pos.fen());
                    checked += 1;
                }
            }
            // Back up part of the way: the ancestors' accumulators must still be right.
            for _ in 0..made / 2 {
                pos.undo_move();
                stack.pop();
            }
            assert_eq!(stack.evaluate(net, &pos), net.evaluate(&pos), "{} after taking back", pos.fen());
        }
    }
    assert!(checked > min_checked, "only {checked} positions checked");
}

#[test]
fn every_simd_level_gives_the_scalar_evaluation() {
    let levels: Vec<Level> = Level::ALL.into_iter().filter(|l| l.is_supported()).collect();
    let mut rng = Rng(42);
    let mut checked = 0;
    let nets = [Network::example(1), Network::example(2)]
        .into_iter()
        .chain(every_arch().into_iter().map(|arch| Network::example_of(arch, 3)));
    for net in nets {
        for start in start_positions() {
            let mut pos = start;
            for _ in 0..12 {
                let acc = net.refresh(&pos);
                let want = net.output_with(Level::Scalar, &acc, &pos);
                for &level in &levels {
                    assert_eq!(net.output_with(level, &acc, &pos), want, "{level:?} {}", pos.fen());
                }
                checked += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(rng.next() % moves.len() as u64) as usize]);
            }
        }
    }
    assert!(checked > 8_000, "only {checked} positions checked");
}

#[test]
fn a_material_bucket_evaluates_as_a_single_output_network_of_its_weights() {
    // Each position goes through the output neuron of its material band, `(pieces - 2) / 4`: the same
    // value as a one-output network made of that neuron's weights.
    for hidden in [Hidden::H256, Hidden::H768] {
        let h = hidden.size();
        let net = Network::example_of(Arch::new(hidden, OutputBuckets::Material), 8);
        let single = |bucket: usize| {
            Network::from_parts(
                Arch::new(hidden, OutputBuckets::Single),
                net.qb(),
                net.ft_weights().to_vec(),
                net.ft_bias().to_vec(),
                net.out_weights()[bucket * 2 * h..(bucket + 1) * 2 * h].to_vec(),
                vec![net.out_bias()[bucket]],
            )
            .unwrap()
        };
        let singles: Vec<Network> = (0..8).map(single).collect();
        let mut seen = [false; 8];
        let mut rng = Rng(7);
        // Random games from the suites' positions: they shed material, so every band comes up.
        for start in start_positions().into_iter().take(30) {
            let mut pos = start;
            for _ in 0..300 {
                let bucket = (pos.occupied().len() as usize - 2) / 4;
                assert_eq!(OutputBuckets::Material.bucket(pos.occupied().len()), bucket.min(7));
                seen[bucket.min(7)] = true;
                assert_eq!(net.evaluate(&pos), singles[bucket.min(7)].evaluate(&pos), "{}", pos.fen());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(rng.next() % moves.len() as u64) as usize]);
            }
        }
        assert!(seen.iter().filter(|&&s| s).count() >= 7, "buckets seen: {seen:?}");
    }
}

#[test]
fn king_buckets_mirror_the_board_and_refresh_when_the_king_changes_bucket_or_side() {
    let arch = Arch {
        hidden: Hidden::H512,
        output_buckets: OutputBuckets::Material,
        input_buckets: InputBuckets::King4,
    };
    let net = Network::example_of(arch, 12);
    // Each side's board is mirrored by its own king's file: a position and its left-right mirror are one.
    let mut differ = 0;
    for fen in suite_fens("standard.epd") {
        let plain = fen.split(' ').take(2).collect::<Vec<_>>().join(" ") + " - - 0 1";
        let (pos, mirror) = (
            Position::from_fen(&plain, false).unwrap(),
            Position::from_fen(&mirrored_fen(&fen), false).unwrap(),
        );
        assert_eq!(net.evaluate(&pos), net.evaluate(&mirror), "{fen}");
        differ += (net.evaluate(&pos)
            != Network::example_of(Arch::new(arch.hidden, arch.output_buckets), 12).evaluate(&pos))
            as usize;
    }
    assert!(differ > 0);
    // King walks across the board's halves and regions, evaluated every ply and lazily over several.
    let lines: [(&str, &[&str]); 3] = [
        (
            "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            &["e1g1", "e8c8", "g1h1", "c8b8", "h1g1", "b8c8", "f3e5", "d8e8"],
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            &["e1d1", "e8f7", "d1d2", "f7e6", "d2e3", "e6d5", "e3f4", "d5c4", "f4g5", "c4b3"],
        ),
        ("4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1", &["e8d8", "e1f1", "d8c7", "f1g2", "c7d6", "g2h3"]),
    ];
    for every in [1, 3] {
        for (fen, moves) in lines {
            let mut pos = Position::from_fen(fen, false).unwrap();
            let mut stack = AccumulatorStack::new();
            stack.reset(&net, &pos);
            for (i, uci) in moves.iter().enumerate() {
                let mv = pos.parse_uci(uci).unwrap_or_else(|e| panic!("{uci} in {}: {e}", pos.fen()));
                stack.push(&pos, mv);
                pos.play(mv);
                if (i + 1) % every == 0 {
                    assert_eq!(stack.current(&net, &pos), net.refresh(&pos), "after {uci}: {}", pos.fen());
                    assert_eq!(stack.evaluate(&net, &pos), net.evaluate(&pos));
                }
            }
            // Back up: the ancestors' accumulators (some never computed for a perspective) are right.
            for _ in 0..moves.len() {
                pos.undo_move();
                stack.pop();
                assert_eq!(stack.current(&net, &pos), net.refresh(&pos), "{}", pos.fen());
            }
        }
    }
}

#[test]
fn the_evaluation_is_colour_symmetric() {
    // The perspective net sees a position and its colour-flipped mirror identically.
    for net in
        [Network::example(5)].into_iter().chain(every_arch().into_iter().map(|a| Network::example_of(a, 6)))
    {
        for fen in suite_fens("standard.epd") {
            let pos = Position::from_fen(&fen, false).unwrap();
            let mirrored = Position::from_fen(&flip_fen(&fen), false).unwrap();
            assert_eq!(net.evaluate(&pos), net.evaluate(&mirrored), "{fen}");
        }
    }
}

#[test]
fn searches_with_a_network_check_every_incremental_evaluation() {
    use std::sync::{atomic::AtomicBool, Arc};

    use camelpy_core::{
        eval::EvalParams,
        search::{limits::SearchLimits, search, SearchState},
        threads::search_smp,
        tt::TranspositionTable,
    };
    // Every search asserts that its accumulator pushes and pops balance; builds with debug assertions
    // (`cargo test` without `--release`) also check each incremental evaluation against a full refresh
    // at every node (null moves, captures, castling, promotions included).
    let net = Arc::new(Network::example(21));
    let mut tt = TranspositionTable::new(4).unwrap();
    let stop = AtomicBool::new(false);
    let limits = SearchLimits { nodes: Some(20_000), ..SearchLimits::default() };
    let mut state = SearchState::new();
    state.set_network(Some(net.clone()));
    assert!(state.network().is_some());
    for mut pos in start_positions().into_iter().take(12) {
        tt.clear();
        let result = search(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut state, &stop, |_| {});
        assert!(result.best_move.is_some_and(|m| pos.is_legal(m)), "{}", pos.fen());
    }
    // Two LazySMP threads, each with the network.
    let mut states = vec![state.clone(), state];
    let mut pos = Position::startpos();
    let result = search_smp(&mut pos, &limits, &tt, &EvalParams::DEFAULT, &mut states, &stop, |_| {});
    assert!(result.best_move.is_some());
    // The classical evaluation again: the network's values are gone from the search.
    let mut classical = SearchState::new();
    classical.set_network(None);
    assert!(classical.network().is_none());
}

#[test]
fn the_built_in_networks_are_the_ones_their_provenances_describe() {
    use camelpy_core::nnue::{BUILT_IN, EMBEDDED_NAME};
    assert_eq!(EMBEDDED_NAME, BUILT_IN[0], "the default is the newest");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
    let mut checksums = Vec::new();
    for name in BUILT_IN {
        let net = Network::built_in(name).expect("a built-in name").expect("the built-in network loads");
        assert_eq!(*net, Network::load(&dir.join(name)).unwrap(), "{name}");
        let stem = name.strip_suffix(".nnue").unwrap();
        let provenance = std::fs::read_to_string(dir.join(format!("{stem}.md"))).unwrap();
        let checksum = format!("{:#018x}", net.hash());
        assert!(provenance.contains(&checksum), "{stem}.md does not name checksum {checksum}");
        // By its name, when no file of that name is in the working folder; a path is still a path.
        assert!(std::sync::Arc::ptr_eq(&Network::open(name).unwrap(), &net), "{name}");
        let elsewhere = format!("{}/no-such-folder/{name}", env!("CARGO_MANIFEST_DIR"));
        assert!(Network::open(&elsewhere).is_err());
        // It evaluates: a queen up is worth far more than nothing.
        let start = Position::startpos();
        let queen_up =
            Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false).unwrap();
        assert!(net.evaluate(&queen_up) > net.evaluate(&start) + 500, "{name}");
        checksums.push(net.hash());
    }
    assert!(checksums.windows(2).all(|w| w[0] != w[1]), "two built-in names for one network");
    assert!(Network::built_in("camelpy-0.nnue").is_none());
    assert!(std::sync::Arc::ptr_eq(&Network::embedded().unwrap(), &Network::open(EMBEDDED_NAME).unwrap()));
}
