//! `cargo run --release -p camelpy-leiserchess --example leiserchess_search -- <depth> [fen] [--2018]
//! [--repeat N] [--threats N] [--set NAME=VALUE]…`: a fixed-depth search, one thread, 16 MiB, fresh table, from the start position (or `fen`), with its nodes
//! (positions searched, quiescence included), time and nodes per second, and the moves its nodes
//! examined (the course's reference player's way of counting nodes): the node-cost probe for `perf`.
//! `--threats N` sets the search's `threats` candidate, `--set NAME=VALUE` any of its settings
//! (`camelpy_games::SETTINGS`: `threats`, `aspiration`, `late_moves`; the game's defaults unless set).

use std::{sync::atomic::AtomicBool, time::Instant};

use camelpy_leiserchess::{
    search::{LeiserSearcher, Limits, SearchGame},
    Board, Position, Rules, STARTING_FEN,
};

/// The table size of the search (the Leiserchess signature's).
const HASH_MB: usize = 16;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 1;
    let mut rules = Rules::R2016;
    let mut settings = LeiserSearcher::DEFAULT_SETTINGS;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--2018" => rules = Rules::R2018,
            "--repeat" => repeat = it.next().and_then(|n| n.parse().ok()).unwrap_or(1),
            "--threats" => settings.threats = it.next().and_then(|n| n.parse().ok()).unwrap_or(0),
            "--set" => {
                let set = it.next().and_then(|text| text.split_once('=')).and_then(|(name, value)| {
                    let field = settings.field_mut(name)?;
                    *field = value.parse().ok()?;
                    Some(())
                });
                if set.is_none() {
                    eprintln!("--set takes NAME=VALUE, a setting of camelpy_games::SETTINGS and an integer");
                    return;
                }
            }
            _ => rest.push(a.as_str()),
        }
    }
    let Some(depth) = rest.first().and_then(|d| d.parse::<i32>().ok()) else {
        eprintln!(
            "usage: leiserchess_search <depth> [fen] [--2018] [--repeat N] [--threats N] [--set NAME=VALUE]"
        );
        return;
    };
    let fen = if rest.len() > 1 { rest[1..].join(" ") } else { STARTING_FEN.to_string() };
    let board = match Board::from_fen(&fen, rules) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    let game = Position::new(board);
    for _ in 0..repeat {
        let mut searcher = match LeiserSearcher::new(HASH_MB) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return;
            }
        };
        searcher.settings = settings;
        let began = Instant::now();
        let mut search_game = SearchGame::new(&game, searcher.weights);
        let limits = Limits::to_depth(depth);
        let result = searcher.search_game(&mut search_game, limits, &AtomicBool::new(false), |_| {});
        let seconds = began.elapsed().as_secs_f64().max(1e-9);
        let (nodes, examined) = (result.info.nodes, search_game.moves_examined());
        println!(
            "depth {depth}: {nodes} nodes in {seconds:.3} s, {:.3} M nodes/s; {examined} moves examined, \
             {:.2} M/s; best {}",
            nodes as f64 / seconds / 1e6,
            examined as f64 / seconds / 1e6,
            result.best_move.map_or_else(|| "(none)".to_string(), |m| m.to_string())
        );
    }
}
