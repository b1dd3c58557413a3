//! `cargo run --release -p camelpy-leiserchess --example leiserchess_perft -- <depth> [fen] [--2018] [--divide]`:
//! perft from the start position (or `fen`) with its time and leaves per second.

use std::time::Instant;

use camelpy_leiserchess::{
    perft::{divide, perft},
    Board, Rules, STARTING_FEN,
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags: Vec<&str> = args.iter().filter(|a| a.starts_with("--")).map(String::as_str).collect();
    let rest: Vec<&str> = args.iter().filter(|a| !a.starts_with("--")).map(String::as_str).collect();
    let Some(depth) = rest.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("usage: perft <depth> [fen] [--2018] [--divide]");
        return;
    };
    let rules = if flags.contains(&"--2018") { Rules::R2018 } else { Rules::R2016 };
    let fen = rest.get(1..).map(|r| r.join(" ")).filter(|f| !f.is_empty());
    let board = match Board::from_fen(fen.as_deref().unwrap_or(STARTING_FEN), rules) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    let began = Instant::now();
    let nodes = if flags.contains(&"--divide") {
        let counts = divide(&board, depth);
        for (mv, n) in &counts {
            println!("{mv}: {n}");
        }
        counts.iter().map(|(_, n)| n).sum()
    } else {
        perft(&board, depth)
    };
    let seconds = began.elapsed().as_secs_f64();
    println!(
        "perft {depth} ({} rules): {nodes} in {seconds:.3} s, {:.1} M leaves/s",
        rules.year(),
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
}
