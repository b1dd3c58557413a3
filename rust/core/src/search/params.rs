//! Every search tunable, named, with the reason it exists. Values are our own round starting points,
//! to be tuned by games.

/// Half-width of the first aspiration window around the previous iteration's score (cp): most
/// iterations land within a quarter pawn of the last.
pub const ASPIRATION_DELTA: i32 = 25;
/// Aspiration windows start from this depth; shallow scores are too unstable to bracket.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;

/// Reverse futility (static null move) pruning applies up to this depth: deeper, a static margin says
/// too little.
pub const RFP_MAX_DEPTH: i32 = 8;
/// Reverse futility margin per ply of depth (cp): how far above beta the static eval must be.
pub const RFP_MARGIN: i32 = 75;

/// Null-move pruning needs at least this depth: shallower, the reduced search is nearly free anyway.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Base null-move reduction in plies.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// One more ply of null-move reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// From this depth a null-move cutoff is verified by a reduced normal search (zugzwang safety).
pub const NMP_VERIFY_DEPTH: i32 = 12;

/// Internal iterative reduction: without a TT move, nodes at least this deep are searched one ply
/// shallower (the move ordering is guesswork there anyway).
pub const IIR_MIN_DEPTH: i32 = 4;

/// Futility pruning of quiet moves applies up to this depth.
pub const FUTILITY_MAX_DEPTH: i32 = 6;
/// Futility margin: base (cp) ...
pub const FUTILITY_BASE: i32 = 100;
/// ... plus this per ply of depth: a quiet move is unlikely to gain more.
pub const FUTILITY_PER_DEPTH: i32 = 90;

/// Late-move pruning applies up to this depth.
pub const LMP_MAX_DEPTH: i32 = 8;
/// Late-move pruning: after `LMP_BASE + depth * depth` quiet moves, the rest are skipped.
pub const LMP_BASE: i32 = 3;

/// SEE pruning of quiet moves: skip if they lose more than this per ply of depth (cp).
pub const SEE_QUIET_MARGIN: i32 = 60;
/// SEE pruning of captures: skip if they lose more than this per ply of depth (cp).
pub const SEE_CAPTURE_MARGIN: i32 = 100;
/// SEE pruning applies up to this depth.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;

/// Late-move reductions apply from this depth ...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... to moves after this many have been searched.
pub const LMR_MIN_MOVES: usize = 2;
/// Late-move reduction table: `LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR` plies.
pub const LMR_BASE: f64 = 0.75;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.25;

/// Quiescence delta pruning: a capture that cannot lift the score within this margin of alpha, even
/// winning its victim outright, is skipped (cp).
pub const DELTA_MARGIN: i32 = 200;

/// History bonus for a cutoff move: `depth * depth` scaled, capped so deep nodes do not swamp the table.
pub const HISTORY_BONUS_MAX: i32 = 1_600;

/// Nodes between two looks at the clock (a cheap counter check; ~0.1 ms at our speed).
pub const TIME_CHECK_NODES: u64 = 1_024;

/// After this long (ms) the search reports each root move it starts (UCI `currmove`), as Stockfish
/// does: earlier, the lines would only flood the GUI.
pub const CURRMOVE_DELAY_MS: u64 = 3_000;
