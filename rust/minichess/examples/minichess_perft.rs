//! Release-built MiniChess perft timing:
//! `cargo run --release -p camelpy-minichess --example minichess_perft -- <depth> [text] [--divide]`, where `text`
//! is the one-line form (default: the start). Prints the leaf count and leaves per second.

use std::{process::ExitCode, time::Instant};

use camelpy_minichess::{perft, Board, START_TEXT};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let divide = args.iter().any(|a| a == "--divide");
    let positional: Vec<&str> = args.iter().filter(|a| !a.starts_with("--")).map(String::as_str).collect();
    let Some(depth) = positional.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("usage: perft <depth> [text] [--divide]");
        return ExitCode::from(2);
    };
    let text = if positional.len() > 1 { positional[1..].join(" ") } else { START_TEXT.to_string() };
    let mut board = match Board::from_text(&text) {
        Ok(board) => board,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let nodes = if divide {
        let lines = perft::divide(&mut board, depth);
        for (mv, n) in &lines {
            println!("{mv}: {n}");
        }
        lines.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft(&mut board, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    println!("time {:.3} s, {:.1} M nodes/s", secs, nodes as f64 / secs.max(1e-9) / 1e6);
    ExitCode::SUCCESS
}
