//! Release-built perft timing: `cargo run --release --example perft -- <depth> [fen] [--chess960] [--divide]`.
//! Prints the leaf count and leaves per second (bulk counting at the last ply).

use std::{process::ExitCode, time::Instant};

use camelpy_core::{attacks::USES_PEXT, perft, Position, STARTING_FEN};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let chess960 = args.iter().any(|a| a == "--chess960");
    let divide = args.iter().any(|a| a == "--divide");
    let positional: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let Some(depth) = positional.first().and_then(|d| d.parse::<u32>().ok()) else {
        eprintln!("usage: perft <depth> [fen] [--chess960] [--divide]");
        return ExitCode::from(2);
    };
    let fen = if positional.len() > 1 {
        positional[1..].iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
    } else {
        STARTING_FEN.to_string()
    };
    let mut pos = match Position::from_fen(&fen, chess960) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let nodes = if divide {
        let lines = perft::divide(&mut pos, depth);
        for (mv, n) in &lines {
            println!("{}: {n}", mv.to_uci(chess960));
        }
        lines.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    println!(
        "time {:.3} s, {:.1} M nodes/s (slider lookup: {})",
        secs,
        nodes as f64 / secs / 1e6,
        if USES_PEXT { "pext" } else { "magic" }
    );
    ExitCode::SUCCESS
}
