//! Searches a MiniChess position and prints each finished iteration:
//! `cargo run --release -p camelpy-minichess --example minichess_search -- [seconds] [text]`.

use std::{sync::atomic::AtomicBool, time::Duration};

use camelpy_minichess::{
    search::{Limits, MiniSearcher},
    Board, START_TEXT,
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: f64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let text = args.get(1).map_or(START_TEXT, String::as_str);
    let board = match Board::from_text(text) {
        Ok(board) => board,
        Err(err) => {
            eprintln!("error: {err}");
            std::process::exit(2);
        }
    };
    let mut searcher = MiniSearcher::new(16).expect("a 16 MiB table");
    let limits = Limits { time: Some(Duration::from_secs_f64(seconds)), ..Limits::default() };
    let result = searcher.search(&board, limits, &AtomicBool::new(false), |it| {
        let nps = it.nodes as f64 / it.elapsed.as_secs_f64().max(1e-9);
        let pv: Vec<String> = it.pv.iter().map(|m| format!("({m})")).collect();
        println!(
            "depth {} score {:?} nodes {} nps {:.0} pv {}",
            it.depth,
            it.score,
            it.nodes,
            nps,
            pv.join(" ")
        );
    });
    match result.best_move {
        Some(mv) => println!("bestmove {mv}"),
        None => println!("bestmove (none)"),
    }
}
