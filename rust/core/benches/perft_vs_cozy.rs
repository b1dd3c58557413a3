//! Perft throughput against the `cozy-chess` crate, interleaved: `cargo bench -p camelpy-core --bench
//! perft_vs_cozy`.
//!
//! The criterion benchmark (`benches/perft.rs`) times one engine for seconds and then the other, so on a
//! shared machine the drift between the two blocks is as large as the difference being measured. Here each
//! sample is a pair, camelpy's perft and cozy-chess's perft on the same positions at the same depth, one
//! straight after the other, the order alternating from pair to pair; the ratio of the two times in a
//! pair (cozy-chess / camelpy, how many times faster camelpy is) sees the same machine. Reported per
//! position set: the median ratio over the pairs, its quartiles and extremes, and each engine's leaves/s.
//!
//! Sets: the start position, Kiwipete, and positions like the search's: openings of `balanced.epd`
//! played 10-30 random legal plies deeper (camelpy's generator, our own seeded PRNG, so every run has the
//! same positions). The file is `$CAMELPY_BALANCED_EPD` if set, else the repository's
//! `tests/data/balanced.epd`, else `../shared/data/openings/balanced.epd` beside the checkout; without it
//! only that set is skipped, with the reason printed. Both engines count leaves by bulk counting at the
//! last ply, and every pair asserts that their node counts agree with each other (and with the known
//! counts for the two fixed positions). `CAMELPY_PAIRS` sets the number of pairs per set (default 100).
//!
//! Each run is timed twice: by the wall clock and by the thread's CPU time (Linux's
//! `CLOCK_THREAD_CPUTIME_ID`). On a machine with more runnable jobs than cores a 100-300 ms run is
//! preempted for a varying share of its wall time, which no interleaving cancels (at load 8 on 2 cores
//! the wall-clock medians of one build moved 1.11-1.39 between runs); the CPU time counts only the time
//! the run was on a core, so its ratio is the figure to quote there. Both are printed.

use std::{
    hint::black_box,
    path::{Path, PathBuf},
    time::Instant,
};

use camelpy_core::{attacks::USES_PEXT, hash::SplitMix64, perft::perft, Position, STARTING_FEN};

#[path = "common/cozy.rs"]
mod cozy;
use cozy::cozy_perft;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Positions in the opening set, and the PRNG seed that picks them.
const OPENING_POSITIONS: usize = 300;
const SEED: u64 = 0x43_6361_6d65_6c70;
/// Pairs untimed before each set (caches, branch predictors, CPU clock).
const WARMUP_PAIRS: usize = 3;

/// One position set: FENs, the depth, and how many times each engine runs the set per sample.
struct Set {
    name: String,
    fens: Vec<String>,
    depth: u32,
    repeats: u32,
    expected: Option<u64>,
}

fn balanced_epd() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("CAMELPY_BALANCED_EPD") {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(format!("CAMELPY_BALANCED_EPD={} is not a file", path.display()))
        };
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let candidates =
        [root.join("tests/data/balanced.epd"), root.join("../shared/data/openings/balanced.epd")];
    candidates.iter().find(|p| p.is_file()).cloned().ok_or_else(|| {
        let tried: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
        format!("balanced.epd not found (tried {}; set CAMELPY_BALANCED_EPD)", tried.join(", "))
    })
}

/// `OPENING_POSITIONS` positions: a random opening of the file, then 10-30 random legal plies; a game
/// that ends (no legal move) on the way is dropped and another drawn.
fn opening_positions(path: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        // EPD: four FEN fields, then operations; the counters are added.
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = format!("{} 0 1", fields.join(" "));
        Position::from_fen(&fen, false).map_err(|e| format!("{}: {e}", path.display()))?;
        openings.push(fen);
    }
    if openings.is_empty() {
        return Err(format!("{} has no positions", path.display()));
    }
    let mut rng = SplitMix64::new(SEED);
    let mut fens = Vec::with_capacity(OPENING_POSITIONS);
    while fens.len() < OPENING_POSITIONS {
        let mut pos = Position::from_fen(&openings[rng.below(openings.len())], false).unwrap();
        let plies = 10 + rng.below(21);
        let mut finished = false;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                finished = true;
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        if !finished && pos.count_legal() > 0 {
            fens.push(pos.fen());
        }
    }
    Ok(fens)
}

/// The calling thread's CPU time in seconds (`None` where the clock is unavailable).
#[cfg(target_os = "linux")]
fn thread_cpu_secs() -> Option<f64> {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: glibc's/musl's `clock_gettime` (linked by std on Linux) writes one `struct timespec`
    // (two 64-bit fields on 64-bit Linux, the layout above) through the valid pointer and returns 0, or
    // returns -1 without writing. A measuring tool, no speed claim.
    #[cfg(target_pointer_width = "64")]
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    #[cfg(not(target_pointer_width = "64"))]
    let rc = -1;
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_secs() -> Option<f64> {
    None
}

/// Runs `f`, returning its result with the wall time and the thread CPU time it took (seconds; the CPU
/// time is NaN where the clock is unavailable).
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let cpu = thread_cpu_secs();
    let start = Instant::now();
    let result = f();
    let wall = start.elapsed().as_secs_f64();
    let cpu = match (cpu, thread_cpu_secs()) {
        (Some(a), Some(b)) => b - a,
        _ => f64::NAN,
    };
    (result, wall, cpu)
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let x = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (x.floor() as usize, x.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (x - lo as f64)
}

/// The first CPU's model name, family, model and stepping (a bare "AMD EPYC" says little without them).
fn cpu_model() -> String {
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
        return "unknown (no /proc/cpuinfo)".to_string();
    };
    let field = |key: &str| {
        info.lines()
            .find(|l| l.split(':').next().is_some_and(|k| k.trim() == key))
            .and_then(|l| l.split_once(':'))
            .map_or("?", |(_, v)| v.trim())
    };
    format!(
        "{} (family {}, model {}, stepping {}), {} logical CPUs",
        field("model name"),
        field("cpu family"),
        field("model"),
        field("stepping"),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    )
}

/// The ratio of each pair, and the summary line.
fn run_set(set: &Set, pairs: usize) {
    let mut ours: Vec<Position> = set.fens.iter().map(|f| Position::from_fen(f, false).unwrap()).collect();
    let theirs: Vec<cozy_chess::Board> =
        set.fens.iter().map(|f| cozy_chess::Board::from_fen(f, false).unwrap()).collect();
    let depth = set.depth;
    let run_ours = |ours: &mut [Position]| {
        timed(|| {
            let mut nodes = 0;
            for _ in 0..set.repeats {
                for pos in ours.iter_mut() {
                    nodes += perft(black_box(pos), black_box(depth));
                }
            }
            nodes
        })
    };
    let run_theirs = || {
        timed(|| {
            let mut nodes = 0;
            for _ in 0..set.repeats {
                for board in &theirs {
                    nodes += cozy_perft(black_box(board), black_box(depth));
                }
            }
            nodes
        })
    };
    let mut ratios = Vec::with_capacity(pairs);
    let mut cpu_ratios = Vec::with_capacity(pairs);
    let (mut ours_secs, mut theirs_secs, mut nodes) = (Vec::new(), Vec::new(), 0);
    let (mut ours_cpu, mut theirs_cpu) = (Vec::new(), Vec::new());
    for i in 0..WARMUP_PAIRS + pairs {
        let ((n_ours, t_ours, c_ours), (n_theirs, t_theirs, c_theirs)) = if i % 2 == 0 {
            let a = run_ours(&mut ours);
            (a, run_theirs())
        } else {
            let b = run_theirs();
            (run_ours(&mut ours), b)
        };
        assert_eq!(n_ours, n_theirs, "{}: camelpy and cozy-chess disagree on the node count", set.name);
        if let Some(expected) = set.expected {
            assert_eq!(n_ours, expected * u64::from(set.repeats), "{}: wrong node count", set.name);
        }
        nodes = n_ours;
        if i >= WARMUP_PAIRS {
            ratios.push(t_theirs / t_ours);
            cpu_ratios.push(c_theirs / c_ours);
            ours_secs.push(t_ours);
            theirs_secs.push(t_theirs);
            ours_cpu.push(c_ours);
            theirs_cpu.push(c_theirs);
        }
    }
    for v in [&mut ratios, &mut cpu_ratios, &mut ours_secs, &mut theirs_secs, &mut ours_cpu, &mut theirs_cpu]
    {
        v.sort_by(f64::total_cmp);
    }
    let (med_ours, med_theirs) = (quantile(&ours_secs, 0.5), quantile(&theirs_secs, 0.5));
    let (cpu_ours, cpu_theirs) = (quantile(&ours_cpu, 0.5), quantile(&theirs_cpu, 0.5));
    println!(
        "{:<10} {:>3} pos. d{} x{} {:>11} leaves  pairs {:>3}  speed-up (CPU time): median {:.3}  IQR \
         {:.3}-{:.3}  min-max {:.3}-{:.3}  camelpy {:.0} M/s, cozy-chess {:.0} M/s",
        set.name,
        set.fens.len(),
        set.depth,
        set.repeats,
        nodes,
        pairs,
        quantile(&cpu_ratios, 0.5),
        quantile(&cpu_ratios, 0.25),
        quantile(&cpu_ratios, 0.75),
        cpu_ratios[0],
        cpu_ratios[cpu_ratios.len() - 1],
        nodes as f64 / cpu_ours / 1e6,
        nodes as f64 / cpu_theirs / 1e6,
    );
    println!(
        "{:<10} {:>41}  speed-up (wall time): median {:.3}  IQR {:.3}-{:.3}  min-max {:.3}-{:.3}  camelpy \
         {:.0} M/s, cozy-chess {:.0} M/s (median pair {:.0} ms)",
        "",
        "",
        quantile(&ratios, 0.5),
        quantile(&ratios, 0.25),
        quantile(&ratios, 0.75),
        ratios[0],
        ratios[ratios.len() - 1],
        nodes as f64 / med_ours / 1e6,
        nodes as f64 / med_theirs / 1e6,
        (med_ours + med_theirs) * 1e3,
    );
}

fn main() {
    if cfg!(debug_assertions) {
        eprintln!("perft_vs_cozy: refusing to time a debug build (run it with `cargo bench`)");
        std::process::exit(2);
    }
    // `cargo bench` passes `--bench`; a filter argument picks sets by name.
    let filters: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let pairs: usize = match std::env::var("CAMELPY_PAIRS") {
        Ok(v) => match v.parse() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!("perft_vs_cozy: CAMELPY_PAIRS={v} is not a positive number");
                std::process::exit(2);
            }
        },
        Err(_) => 100,
    };
    println!("perft_vs_cozy: camelpy-core against cozy-chess 0.3.4, interleaved pairs, single thread");
    println!("cpu: {}", cpu_model());
    println!(
        "build: camelpy slider lookup {}, target features: popcnt {}, bmi2 {}, avx2 {} (native unless \
         RUSTFLAGS overrode .cargo/config.toml); cozy-chess with its `pext` feature (rust/core/Cargo.toml)",
        if USES_PEXT { "pext" } else { "magic" },
        cfg!(target_feature = "popcnt"),
        cfg!(target_feature = "bmi2"),
        cfg!(target_feature = "avx2"),
    );
    println!(
        "ratio = cozy-chess time / camelpy time per pair (above 1: camelpy faster), by the thread's CPU time \
         and by the wall clock; M/s from each engine's median time"
    );
    let mut sets = vec![
        Set {
            name: "startpos".into(),
            fens: vec![STARTING_FEN.into()],
            depth: 5,
            repeats: 4,
            expected: Some(4_865_609),
        },
        Set {
            name: "kiwipete".into(),
            fens: vec![KIWIPETE.into()],
            depth: 4,
            repeats: 6,
            expected: Some(4_085_603),
        },
    ];
    match balanced_epd().and_then(|p| opening_positions(&p)) {
        Ok(fens) => sets.push(Set { name: "openings".into(), fens, depth: 3, repeats: 1, expected: None }),
        Err(reason) => println!("openings   skipped: {reason}"),
    }
    for set in
        sets.iter().filter(|s| filters.is_empty() || filters.iter().any(|f| s.name.contains(f.as_str())))
    {
        run_set(set, pairs);
    }
}
