//! Perft: counts the leaves of the legal move tree, the law for move generation
//! (<https://www.chessprogramming.org/Perft>). The last ply is bulk counted: the legal generator's count
//! is the number of leaves, with no make/unmake. The make before it (two plies above the leaves) plays
//! the move on a copy of the state without the undo stack, the key or the clocks, which the count never
//! reads (release builds; debug builds make every move in full, checking the key).
//!
//! The leaf counts of sibling positions share most of their work: the side to move there is the same,
//! and one move of the other side leaves most of its knights' and sliders' moves as they were. So the
//! node two plies above the leaves counts those once ([`FreePieceMoves`]), and each child recounts only
//! the pieces whose moves the move touched; the king, the pawns, pinned pieces and castling are counted
//! in each child as before, and a child in check, or with other pins, is counted in full.

use core::{
    fmt,
    sync::atomic::{AtomicBool, Ordering},
};

use crate::{
    attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks},
    board::{BoardState, CheckWatch, Position},
    error::quote,
    movegen::MoveSink,
    types::{Bitboard, CastlingSide, Move, MoveKind, PieceType, Rank, Square},
};

/// The number of leaf nodes `depth` plies below `pos` (1 at depth 0).
///
/// ```
/// use camelpy_core::{perft::perft, Position};
/// assert_eq!(perft(&mut Position::startpos(), 3), 8902);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        2 => {
            let shared = FreePieceMoves::new(pos);
            let mut nodes = 0;
            if cfg!(debug_assertions) {
                // The full make, whose consistency check covers the key at every ply of the perft tests,
                // and each shared count checked against the plain one.
                for &mv in pos.legal_moves().iter() {
                    pos.play_unchecked(mv);
                    let moved = match mv.kind() {
                        MoveKind::Normal | MoveKind::Promotion => mv.from().bitboard() | mv.to().bitboard(),
                        _ => Bitboard::FULL,
                    };
                    let count = shared.count(pos, shared.king_dirty(moved));
                    debug_assert_eq!(count, pos.count_legal(), "after {mv:?}: {}", pos.fen());
                    nodes += count;
                    pos.undo_move();
                }
            } else {
                // The last make, in a move sink: each move the generator emits is played on a copy of
                // the state without the undo stack, key or clocks (the count reads none of them) and its
                // leaves counted at once; no move list, the mover's kind looked up once per piece.
                let mut sink = LastMakes {
                    child: pos.without_history(),
                    parent: pos.s,
                    shared: &shared,
                    watch: CheckWatch::new(pos, shared.pinned),
                    nodes: 0,
                };
                pos.generate_legal(&mut sink);
                nodes = sink.nodes;
            }
            nodes
        }
        _ => {
            let moves = pos.legal_moves();
            let mut nodes = 0;
            for &mv in moves.iter() {
                pos.play_unchecked(mv);
                nodes += perft(pos, depth - 1);
                pos.undo_move();
            }
            nodes
        }
    }
}

/// Perft's depth-2 loop as a [`MoveSink`]: plays each generated move on `child` (a copy of the parent
/// without its history), counts the child's leaves, and puts the parent's state back.
struct LastMakes<'a> {
    child: Position,
    parent: BoardState,
    shared: &'a FreePieceMoves,
    /// What a move must touch to change the children's checkers and pins.
    watch: CheckWatch,
    nodes: u64,
}

impl LastMakes<'_> {
    #[inline(always)]
    fn count_and_restore(&mut self, king_dirty: Bitboard) {
        self.nodes += self.shared.count(&self.child, king_dirty);
        self.child.s = self.parent;
    }
}

impl MoveSink for LastMakes<'_> {
    #[inline(always)]
    fn moves(&mut self, from: Square, targets: Bitboard) {
        let moved = self.child.piece_type_on_occupied(from);
        let dirty_from = self.shared.dirty_by[from as usize];
        for to in targets {
            self.child.apply_generated(moved, from, to, moved, &self.watch);
            self.count_and_restore(dirty_from | self.shared.dirty_by[to as usize]);
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, offset: i8, promotion: bool) {
        for to in targets {
            let from = Square::ALL[(to as i8 - offset) as usize];
            if promotion {
                for placed in [PieceType::Queen, PieceType::Knight, PieceType::Rook, PieceType::Bishop] {
                    self.child.apply_generated(PieceType::Pawn, from, to, placed, &self.watch);
                    self.count_and_restore(self.shared.king_dirty(from.bitboard() | to.bitboard()));
                }
            } else {
                self.child.apply_generated(PieceType::Pawn, from, to, PieceType::Pawn, &self.watch);
                self.count_and_restore(self.shared.king_dirty(from.bitboard() | to.bitboard()));
            }
        }
    }

    #[inline(always)]
    fn special(&mut self, mv: Move) {
        self.child.apply_move::<false>(mv);
        // Castling and en passant move or take a second piece: every king square is tested.
        self.count_and_restore(Bitboard::FULL);
    }
}

/// At most 15 pieces besides the king, each at most two slider parts (a queen's diagonal and straight
/// moves are kept apart, so that a move across one of its lines recounts only that half).
const MAX_SLIDER_PARTS: usize = 30;

/// One slider's moves along its diagonals or along its rank and file, at the node above the leaves.
#[derive(Clone, Copy)]
struct SliderPart {
    square: Square,
    diagonal: bool,
    moves: u32,
}

/// The moves of the unpinned knights and sliders of the side NOT to move at a node two plies above the
/// leaves, counted once for all the children's leaf counts. A child's count recounts only the slider
/// parts whose watched squares the move changed, and the knights after a capture.
pub(crate) struct FreePieceMoves {
    occupied: Bitboard,
    theirs: Bitboard,
    pinned: Bitboard,
    knights: Bitboard,
    knight_moves: u64,
    slider_moves: u64,
    len: usize,
    parts: [SliderPart; MAX_SLIDER_PARTS],
    /// For each square, the slider parts (bit `i` for `parts[i]`) whose moves a change there (occupied
    /// or not, the mover's own or not) can change: the attacked squares and the slider's own square (it
    /// may be captured). A child looks up the two to four squares its move changed instead of testing
    /// every part.
    parts_by: [u32; 64],
    /// The squares next to their king that the other side (the one to move here) does not attack, with
    /// their king off the board.
    king_safe: Bitboard,
    /// Their castling destinations away from their king's squares whose safety after castling is in
    /// `king_safe` (and their watched squares in `dirty_by`).
    castle_known: Bitboard,
    /// For each square, the squares next to their king whose safety a move from or to it can change:
    /// those it is a knight's or king's step from, or sees along a line (the first piece included).
    dirty_by: [Bitboard; 64],
}

impl FreePieceMoves {
    /// The counts for the children of `pos` (the side not to move in `pos` is the one they count).
    #[inline(always)]
    pub(crate) fn new(pos: &Position) -> FreePieceMoves {
        let them = pos.side_to_move().flip();
        let (_, pinned) = pos.check_info(them);
        let theirs = pos.colored(them);
        let occupied = pos.occupied();
        let targets = !theirs;
        let free = theirs & !pinned;
        let knights = pos.pieces(PieceType::Knight) & free;
        let mut knight_moves = 0;
        for from in knights {
            knight_moves += u64::from((knight_attacks(from) & targets).len());
        }
        let empty_part = SliderPart { square: Square::A1, diagonal: false, moves: 0 };
        let mut shared = FreePieceMoves {
            occupied,
            theirs,
            pinned,
            knights,
            knight_moves,
            slider_moves: 0,
            len: 0,
            parts: [empty_part; MAX_SLIDER_PARTS],
            parts_by: [0; 64],
            king_safe: Bitboard::EMPTY,
            castle_known: Bitboard::EMPTY,
            dirty_by: [Bitboard::EMPTY; 64],
        };
        // A move changes whether a square next to their king is attacked only if it leaves or enters a
        // square from which a piece would attack it (a leaper's step away, or in its line of sight: a
        // slider beyond the first piece on a line is blocked both before and after), or the square
        // itself (a capture there makes it a target).
        // A square their own piece stands on stays closed to their king unless the move captures there,
        // so it watches only itself and needs no test here (the child tests it after a capture).
        let king = pos.king(them);
        let without_king = occupied.without(king);
        for sq in king_attacks(king) & theirs {
            shared.dirty_by[sq as usize] |= sq.bitboard();
        }
        for sq in king_attacks(king) & !theirs {
            if !pos.king_danger(sq, them.flip(), without_king) {
                shared.king_safe |= sq.bitboard();
            }
            let watch =
                queen_attacks(sq, without_king) | knight_attacks(sq) | king_attacks(sq) | sq.bitboard();
            for w in watch {
                shared.dirty_by[w as usize] |= sq.bitboard();
            }
        }
        // The same for the squares they castle to (with the occupancy after castling), where those are not
        // next to their king (Chess960).
        let back = Rank::First.relative_to(them);
        for side in CastlingSide::ALL {
            let Some(rook) = pos.castling_rook(them, side) else { continue };
            let king_to = Square::new(side.king_file(), back);
            if (king_attacks(king) | king.bitboard()).has(king_to) {
                continue;
            }
            let after = pos.occupied_after_castling(them, king, rook, side);
            if !pos.king_danger(king_to, them.flip(), after) {
                shared.king_safe |= king_to.bitboard();
            }
            shared.castle_known |= king_to.bitboard();
            let watch = queen_attacks(king_to, after) | knight_attacks(king_to) | king_attacks(king_to);
            for w in watch | king_to.bitboard() {
                shared.dirty_by[w as usize] |= king_to.bitboard();
            }
        }
        let queens = pos.pieces(PieceType::Queen);
        for (diagonal, sliders) in
            [(true, pos.pieces(PieceType::Bishop)), (false, pos.pieces(PieceType::Rook))]
        {
            for from in (sliders | queens) & free {
                let attacks =
                    if diagonal { bishop_attacks(from, occupied) } else { rook_attacks(from, occupied) };
                let moves = (attacks & targets).len();
                shared.parts[shared.len] = SliderPart { square: from, diagonal, moves };
                for w in attacks | from.bitboard() {
                    shared.parts_by[w as usize] |= 1 << shared.len;
                }
                shared.len += 1;
                shared.slider_moves += u64::from(moves);
            }
        }
        shared
    }

    /// The squares next to their king whose safety a move that changed the squares `moved` can change
    /// (all of them for `Bitboard::FULL`).
    #[inline(always)]
    pub(crate) fn king_dirty(&self, moved: Bitboard) -> Bitboard {
        let mut dirty = Bitboard::EMPTY;
        for sq in moved {
            dirty |= self.dirty_by[sq as usize];
        }
        dirty
    }

    /// The number of legal moves in `child`, a child of the position these counts were made for, which
    /// the move changed the safety of at most the `king_dirty` squares next to the king in.
    #[inline(always)]
    pub(crate) fn count(&self, child: &Position, king_dirty: Bitboard) -> u64 {
        if child.checkers().any() {
            return child.count_legal();
        }
        let theirs = child.colored(child.side_to_move());
        let occupied = child.occupied();
        let targets = !theirs;
        // A move can pin one of their pieces or end a pin (about 4 % of the children in the openings set):
        // the newly pinned pieces' shared moves are taken out (the generator counts every pinned piece),
        // and the pieces set free are counted here in full.
        let pinned = child.pinned();
        let newly_pinned = pinned & !self.pinned;
        let set_free = self.pinned & !pinned & theirs;
        let free = theirs & !pinned;
        // The squares the move emptied, filled, or took from them, and the pieces whose pin changed.
        let changed = (occupied ^ self.occupied) | (theirs ^ self.theirs) | newly_pinned;
        let mut nodes =
            child.count_legal_fixed_pieces(self.king_safe, king_dirty, self.castle_known) + self.slider_moves;
        if (self.theirs & !theirs).is_empty() && (self.knights & newly_pinned).is_empty() {
            nodes += self.knight_moves;
        } else {
            // A capture (the square taken is a new target for their knights, or it held one), or a knight
            // newly pinned.
            for from in self.knights & free {
                nodes += u64::from((knight_attacks(from) & targets).len());
            }
        }
        let mut touched = 0u32;
        for sq in changed {
            touched |= self.parts_by[sq as usize];
        }
        while touched != 0 {
            let part = &self.parts[touched.trailing_zeros() as usize];
            touched &= touched - 1;
            nodes -= u64::from(part.moves);
            if free.has(part.square) {
                let attacks = if part.diagonal {
                    bishop_attacks(part.square, occupied)
                } else {
                    rook_attacks(part.square, occupied)
                };
                nodes += u64::from((attacks & targets).len());
            }
        }
        if set_free.any() {
            nodes += piece_moves(child, set_free, targets);
        }
        nodes
    }
}

/// The moves to `targets` of the knights, bishops, rooks and queens among `pieces` (unpinned pieces of
/// the side to move in `pos`).
#[inline(never)]
fn piece_moves(pos: &Position, pieces: Bitboard, targets: Bitboard) -> u64 {
    let occupied = pos.occupied();
    let queens = pos.pieces(PieceType::Queen);
    let mut nodes = 0;
    for from in pieces & pos.pieces(PieceType::Knight) {
        nodes += u64::from((knight_attacks(from) & targets).len());
    }
    for from in pieces & (pos.pieces(PieceType::Bishop) | queens) {
        nodes += u64::from((bishop_attacks(from, occupied) & targets).len());
    }
    for from in pieces & (pos.pieces(PieceType::Rook) | queens) {
        nodes += u64::from((rook_attacks(from, occupied) & targets).len());
    }
    nodes
}

/// Perft split by root move: each legal move with the leaf count below it (for finding a wrong subtree).
/// Empty at depth 0.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&mv| {
            pos.play_unchecked(mv);
            let n = perft(pos, depth - 1);
            pos.undo_move();
            (mv, n)
        })
        .collect()
}

/// [`perft`] that gives up (returning `None`) soon after `stop` is set: the flag is read at every node
/// three or more plies above the leaves, so the bulk-counted bottom of the tree runs at full speed.
pub fn perft_interruptible(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut nodes = 0;
    for &mv in pos.legal_moves().iter() {
        pos.play_unchecked(mv);
        let below = perft_interruptible(pos, depth - 1, stop);
        pos.undo_move();
        nodes += below?;
    }
    Some(nodes)
}

/// [`divide`] that gives up (returning `None`) soon after `stop` is set.
pub fn divide_interruptible(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let moves = pos.legal_moves();
    let mut lines = Vec::with_capacity(moves.len());
    for &mv in moves.iter() {
        pos.play_unchecked(mv);
        let below = perft_interruptible(pos, depth - 1, stop);
        pos.undo_move();
        lines.push((mv, below?));
    }
    Some(lines)
}

/// A perft-suite line (`<FEN> ;D1 20 ;D2 400 …`) that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteLineError {
    /// What is wrong, e.g. "bad perft tag 'D1 x'".
    pub reason: String,
    /// The line's number (from 1) when it was read as part of a file by [`parse_suite`].
    pub line_number: Option<usize>,
    /// The whole line.
    pub line: String,
}

impl fmt::Display for SuiteLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line_number {
            Some(n) => write!(f, "{} at line {n}: '{}'", self.reason, quote(&self.line)),
            None => write!(f, "{} in perft suite line: '{}'", self.reason, quote(&self.line)),
        }
    }
}

impl std::error::Error for SuiteLineError {}

/// One line of a perft suite (`perft_suites/*.epd`): a position and its expected leaf counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteLine {
    /// The FEN: everything before the first `;`, trimmed.
    pub fen: String,
    /// `(depth, leaves)` for each `;Dn count` tag, in the line's order (not every depth need be listed).
    pub counts: Vec<(u32, u64)>,
}

/// Parses one perft-suite line, `<FEN> ;D1 20 ;D2 400 …`: the one reader of the format for every Rust
/// test and tool (the Python twin is `camelpy.tools.chess.perft.parse_suite_line`, with the same rules).
///
/// Each tag is `D<depth> <count>` in ASCII digits, each depth at most once, at least one tag; the FEN is
/// not parsed here (the caller knows whether it is Chess960).
///
/// ```
/// use camelpy_core::perft::parse_suite_line;
/// let line = parse_suite_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9")?;
/// assert_eq!(line.fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
/// assert_eq!(line.counts, [(1, 3), (2, 9)]);
/// assert!(parse_suite_line("8/8/8/8/8/8/8/K6k w - - ;D1 x").is_err());
/// # Ok::<(), camelpy_core::perft::SuiteLineError>(())
/// ```
pub fn parse_suite_line(line: &str) -> Result<SuiteLine, SuiteLineError> {
    let fail = |reason: String| SuiteLineError { reason, line_number: None, line: line.to_string() };
    let mut parts = line.trim().split(';');
    let fen = parts.next().unwrap_or("").trim();
    if fen.is_empty() {
        return Err(fail("no fen before the first ';'".to_string()));
    }
    let mut counts: Vec<(u32, u64)> = Vec::new();
    for tag in parts {
        let words: Vec<&str> = tag.split_whitespace().collect();
        let parsed = match words[..] {
            [name, count] => name
                .strip_prefix('D')
                .filter(|d| is_ascii_number(d) && is_ascii_number(count))
                .and_then(|d| Some((d.parse::<u32>().ok()?, count.parse::<u64>().ok()?))),
            _ => None,
        };
        let Some((depth, leaves)) = parsed else {
            return Err(fail(format!("bad perft tag '{}'", quote(tag.trim()))));
        };
        if counts.iter().any(|&(d, _)| d == depth) {
            return Err(fail(format!("depth {depth} listed twice")));
        }
        counts.push((depth, leaves));
    }
    if counts.is_empty() {
        return Err(fail("no ';Dn count' tags".to_string()));
    }
    Ok(SuiteLine { fen: fen.to_string(), counts })
}

fn is_ascii_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// Every position of a suite file's text, in order; blank lines and lines starting with `#` are skipped.
/// An error names the line's number.
///
/// ```
/// use camelpy_core::perft::parse_suite;
/// let suite = parse_suite("# two positions\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n\nk7/8/8/8/8/8/8/7K b - - 0 1 ;D1 3\n")?;
/// assert_eq!(suite.len(), 2);
/// let err = parse_suite("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n8/8/8/8/8/8/8/K6k w - - 0 1\n").unwrap_err();
/// assert_eq!(err.line_number, Some(2));
/// # Ok::<(), camelpy_core::perft::SuiteLineError>(())
/// ```
pub fn parse_suite(text: &str) -> Result<Vec<SuiteLine>, SuiteLineError> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(i, line)| {
            parse_suite_line(line).map_err(|err| SuiteLineError { line_number: Some(i + 1), ..err })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interruptible_matches_and_stops() {
        let stop = AtomicBool::new(false);
        let mut pos = Position::startpos();
        assert_eq!(perft_interruptible(&mut pos, 4, &stop), Some(197_281));
        let lines = divide_interruptible(&mut pos, 3, &stop).unwrap();
        assert_eq!(lines.iter().map(|l| l.1).sum::<u64>(), 8_902);
        stop.store(true, Ordering::Relaxed);
        assert_eq!(perft_interruptible(&mut pos, 6, &stop), None);
        assert_eq!(
            pos.fen(),
            Position::startpos().fen(),
            "an interrupted perft leaves the position as it was"
        );
    }

    #[test]
    fn suite_lines() {
        let line = parse_suite_line("  4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66  ;D6 764643\n").unwrap();
        assert_eq!(line.fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(line.counts, [(1, 15), (2, 66), (6, 764_643)]);
        let message = |line: &str| parse_suite_line(line).unwrap_err().to_string();
        assert_eq!(message("8/8 w - - ;D1 x"), "bad perft tag 'D1 x' in perft suite line: '8/8 w - - ;D1 x'");
        assert!(message("8/8 w - - ;D1 1 2").starts_with("bad perft tag 'D1 1 2'"));
        assert!(message("8/8 w - - ;E1 1").starts_with("bad perft tag 'E1 1'"));
        assert!(message("8/8 w - - ;D-1 1").starts_with("bad perft tag"));
        assert!(message("8/8 w - - ;D1 +1").starts_with("bad perft tag"));
        assert!(message("8/8 w - - ;D1 \u{00b2}").starts_with("bad perft tag"));
        assert!(message("8/8 w - - ;D1 99999999999999999999999").starts_with("bad perft tag"));
        assert!(message("8/8 w - - ;").starts_with("bad perft tag ''"));
        assert!(message("8/8 w - - ;D1 1 ;D1 1").starts_with("depth 1 listed twice"));
        assert!(message("8/8/8/8/8/8/8/K6k w - -").starts_with("no ';Dn count' tags"));
        assert!(message(" ;D1 1").starts_with("no fen before the first ';'"));
        assert!(message("k ;D1 x\u{7}'").ends_with(r"line: 'k ;D1 x\x07\''"));
    }

    #[test]
    fn every_suite_file_parses() {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../perft_suites");
        for (name, entries) in
            [("standard.epd", 128), ("fischer.epd", 960), ("quick.epd", 32), ("quick_fischer.epd", 8)]
        {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            let suite = parse_suite(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(suite.len(), entries, "{name}");
        }
    }
}
