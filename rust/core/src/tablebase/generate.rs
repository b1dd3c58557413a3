//! The retrograde solver: one ending at a time, from the tables of the endings a capture or a
//! promotion leads to.
//!
//! Every position gets its distance to mate in plies, found in rising order ("layers"). Layer 0 is
//! the checkmates. A position is won in `n` (odd) plies when it is not decided yet and some move
//! leads to a position lost in `n − 1`; it is lost in `n` (even) plies when every move leads to a
//! position won for the opponent in at most `n − 1` plies. The candidates for layer `n` are the
//! predecessors (by quiet retro-moves, [`TbBoard::unmoves`]) of the positions decided at `n − 1`,
//! and the positions whose best capture or promotion (read from the smaller tables in a first pass)
//! is worth exactly `n`. At an odd layer such a candidate wins outright; at an even layer it is
//! checked by generating its moves forward (which also makes a predecessor found twice through a
//! symmetry harmless). A double step that the opponent may take en passant is worth the better of
//! the position without the right and the captures: positions with such a move are checked at every
//! layer. What no layer decides is a draw. Layers run in parallel: a check reads only values of
//! earlier layers, and each value is written once, by compare-and-swap.

use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};

use super::{
    board::{Child, TbBoard},
    index::{Layout, Sq},
    material::{Material, MAX_PIECES},
    table::{encode, Table, TableSet, TbValue},
    TablebaseError,
};
use crate::{error::AllocError, types::Color};

/// Not decided (yet).
const UNSET: u16 = u16::MAX;
/// Not a position (an unused slot, or the side not to move is in check).
const INVALID: u16 = u16::MAX - 1;
/// Decided as a draw (stalemate); undecided positions become draws at the end.
const DRAW: u16 = u16::MAX - 2;
/// The `exits` flag of a position with a double step the opponent may take en passant.
const EP_FLAG: u16 = 1 << 15;
/// A candidate's tag: decide it by a forward check (slots stay below 2^31: 5 pieces with pawns
/// need 2^30).
const CHECK: u32 = 1 << 31;
/// Slots per work item of a parallel pass (small enough to balance threads).
const CHUNK: usize = 1 << 14;

/// What the solve of one table measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveStats {
    /// Layers (plies) until nothing more was decided.
    pub layers: u16,
    /// Candidate checks made over all layers.
    pub checks: u64,
    /// Bytes of working memory (two 2-byte words a slot: its value and its best exit).
    pub memory: usize,
}

struct Solver<'a> {
    layout: Layout,
    set: &'a TableSet,
    values: Vec<AtomicU16>,
    threads: usize,
    stop: &'a AtomicBool,
}

fn stored(code: u16) -> Option<TbValue> {
    match code {
        UNSET => None,
        DRAW => Some(TbValue::Draw),
        INVALID => Some(TbValue::Draw),
        p if p % 2 == 1 => Some(TbValue::Win(p)),
        p => Some(TbValue::Loss(p)),
    }
}

impl Solver<'_> {
    fn slot(&self, board: &TbBoard) -> usize {
        let mut squares = [0 as Sq; MAX_PIECES];
        board.squares(&self.layout, &mut squares);
        let index = self.layout.index(&squares[..self.layout.pieces.len()]);
        index + if board.stm == Color::White { 0 } else { self.layout.size }
    }

    fn board(&self, slot: usize) -> Option<TbBoard> {
        let size = self.layout.size;
        let (index, stm) = if slot < size { (slot, Color::White) } else { (slot - size, Color::Black) };
        let mut squares = [0 as Sq; MAX_PIECES];
        if !self.layout.decode(index, &mut squares) {
            return None;
        }
        let board = TbBoard::from_squares(&self.layout, &squares[..self.layout.pieces.len()], stm);
        (!board.in_check(stm.flip())).then_some(board)
    }

    /// A smaller table's value; the solve checked beforehand that every such table is present.
    fn exit_value(&self, board: &TbBoard) -> TbValue {
        self.set.value(board).unwrap_or(TbValue::Draw)
    }

    /// The values a double step's en-passant captures give the opponent (the side to move in `child`).
    fn ep_options(&self, child: &Child) -> impl Iterator<Item = TbValue> + '_ {
        let captures = child.ep.map(|target| child.board.ep_captures(target)).unwrap_or_default();
        captures.into_iter().map(|b| self.exit_value(&b).before_move())
    }

    /// The child's value for its side to move, as far as layers before `n` decide it (`None`: not
    /// decided before `n`).
    fn child_value(&self, child: &Child, n: u16) -> Option<TbValue> {
        let own = if child.exit {
            Some(self.exit_value(&child.board))
        } else {
            stored(self.values[self.slot(&child.board)].load(Ordering::Relaxed))
        };
        if child.ep.is_none() {
            return own;
        }
        let options = self.ep_options(child);
        match own {
            Some(v) => Some(options.fold(v, |best, o| if o.rank() > best.rank() { o } else { best })),
            // Undecided so far: worth at least any en-passant win it has before `n`, else unknown.
            None => options.filter(|o| matches!(o, TbValue::Win(p) if *p < n)).max_by_key(|o| o.rank()),
        }
    }

    /// True if the undecided position `board` is decided at layer `n`.
    fn decided_at(&self, board: &TbBoard, n: u16) -> bool {
        if n % 2 == 1 {
            // Won: some move reaches a loss in n − 1 (the walk stops there).
            !board.moves(|child| self.child_value(&child, n) != Some(TbValue::Loss(n - 1)))
        } else {
            // Lost: every move reaches a win for the opponent before n (stops at the first that does not).
            board.moves(|child| matches!(self.child_value(&child, n), Some(TbValue::Win(p)) if p < n))
        }
    }

    /// Runs `work` on chunks of `0..len` on the solver's threads; each returns what it collected.
    fn parallel(&self, len: usize, work: impl Fn(std::ops::Range<usize>, &mut Vec<u32>) + Sync) -> Vec<u32> {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let results: Vec<Vec<u32>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..self.threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut out = Vec::new();
                        loop {
                            let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                            if start >= len || self.stop.load(Ordering::Relaxed) {
                                break;
                            }
                            work(start..(start + CHUNK).min(len), &mut out);
                        }
                        out
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a solver thread panicked")).collect()
        });
        results.concat()
    }
}

/// `len` atomics holding `value`, allocated fallibly.
fn atomic_vec(len: usize, value: u16) -> Result<Vec<AtomicU16>, TablebaseError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        TablebaseError::Alloc(AllocError { what: "tablebase solver's work space", bytes: 2 * len })
    })?;
    v.extend((0..len).map(|_| AtomicU16::new(value)));
    Ok(v)
}

/// Solves `material`'s table from the tables in `set` (every ending one capture or promotion away
/// must be there), on `threads` threads. `stop` set from another thread abandons the solve.
pub fn solve(
    material: Material,
    set: &TableSet,
    threads: usize,
    stop: &AtomicBool,
) -> Result<(Table, SolveStats), TablebaseError> {
    let material = material.canonical();
    if let Some(missing) = material.successors().into_iter().find(|m| !set.contains(m)) {
        return Err(TablebaseError::MissingTable { material: missing.to_string() });
    }
    let layout = Layout::new(&material);
    let total = 2 * layout.size;
    let values = atomic_vec(total, UNSET)?;
    let solver = Solver { layout, set, values, threads: threads.max(1), stop };
    let mut stats = SolveStats { memory: 4 * total, ..SolveStats::default() };

    // Initial pass: unused slots, mates and stalemates; for each position the layer of its best
    // capture or promotion (`exits`, 0 for none; bit 15: it has a double step the opponent may
    // take en passant, so it is checked at every layer), and the longest such value (`horizon`).
    let exits = atomic_vec(total, 0)?;
    let horizon = AtomicU16::new(0);
    let mates = solver.parallel(total, |range, out| {
        for slot in range {
            let Some(board) = solver.board(slot) else {
                solver.values[slot].store(INVALID, Ordering::Relaxed);
                continue;
            };
            let mut moves = 0;
            let mut best: Option<TbValue> = None;
            let mut ep = false;
            let mut longest = 0;
            board.moves(|child| {
                moves += 1;
                ep |= child.ep.is_some();
                let exit = child.exit.then(|| solver.exit_value(&child.board));
                // For the mover, a position is worth the opponent's value there one ply on.
                for v in solver.ep_options(&child).chain(exit).map(TbValue::before_move) {
                    if let TbValue::Win(p) | TbValue::Loss(p) = v {
                        longest = longest.max(p);
                    }
                }
                if let Some(mine) = exit.map(TbValue::before_move) {
                    if best.is_none_or(|b| mine.rank() > b.rank()) {
                        best = Some(mine);
                    }
                }
                true
            });
            horizon.fetch_max(longest, Ordering::Relaxed);
            if moves == 0 {
                let mated = board.in_check(board.stm);
                solver.values[slot].store(if mated { 0 } else { DRAW }, Ordering::Relaxed);
                if mated {
                    out.push(slot as u32);
                }
                continue;
            }
            let layer = match best {
                Some(TbValue::Win(p) | TbValue::Loss(p)) => p,
                _ => 0,
            };
            exits[slot].store(layer | if ep { EP_FLAG } else { 0 }, Ordering::Relaxed);
        }
    });
    if stop.load(Ordering::Relaxed) {
        return Err(TablebaseError::Stopped);
    }
    let horizon = horizon.into_inner();
    let recheck = solver.parallel(total, |range, out| {
        out.extend(range.filter(|&s| exits[s].load(Ordering::Relaxed) & EP_FLAG != 0).map(|s| s as u32));
    });

    let mut current = mates;
    let mut n: u16 = 1;
    while !current.is_empty() || n <= horizon.saturating_add(2) {
        if n >= DRAW - 1 {
            return Err(TablebaseError::TooDeep { material: material.to_string() });
        }
        // Candidates, tagged with CHECK where a forward check must decide. At an odd layer a quiet
        // predecessor of a loss in n − 1 wins in n outright (it was not decided before), as does a
        // position whose best capture or promotion wins in n, unless the move is a double step
        // the opponent may take en passant.
        let odd = n % 2 == 1;
        let mut candidates = solver.parallel(current.len(), |range, out| {
            for &slot in &current[range] {
                let Some(board) = solver.board(slot as usize) else { continue };
                board.unmoves(|p, double| {
                    let ep = double && {
                        let passed = (board.occupied() & !p.occupied()).trailing_zeros() as Sq;
                        let passed = if board.stm == Color::White { passed + 8 } else { passed - 8 };
                        !board.ep_captures(passed).is_empty()
                    };
                    let tag = if odd && !ep { 0 } else { CHECK };
                    out.push(solver.slot(&p) as u32 | tag);
                });
            }
        });
        if n <= horizon {
            let tag = if odd { 0 } else { CHECK };
            candidates.extend(solver.parallel(total, |range, out| {
                out.extend(
                    range
                        .filter(|&s| exits[s].load(Ordering::Relaxed) & !EP_FLAG == n)
                        .map(|s| s as u32 | tag),
                );
            }));
        }
        candidates.extend(recheck.iter().map(|&s| s | CHECK));
        stats.checks += candidates.iter().filter(|&&c| c & CHECK != 0).count() as u64;
        current = solver.parallel(candidates.len(), |range, out| {
            for &tagged in &candidates[range] {
                let slot = tagged & !CHECK;
                let cell = &solver.values[slot as usize];
                if cell.load(Ordering::Relaxed) != UNSET {
                    continue;
                }
                if tagged & CHECK != 0 {
                    let Some(board) = solver.board(slot as usize) else { continue };
                    if !solver.decided_at(&board, n) {
                        continue;
                    }
                }
                if cell.compare_exchange(UNSET, n, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
                    out.push(slot);
                }
            }
        });
        if stop.load(Ordering::Relaxed) {
            return Err(TablebaseError::Stopped);
        }
        n += 1;
    }
    stats.layers = n - 1;

    // Encode: one byte a position where every value fits, else two.
    let decoded = |code: u16| match code {
        INVALID => None,
        UNSET | DRAW => Some(TbValue::Draw),
        p => stored(p),
    };
    let fits = solver
        .values
        .iter()
        .all(|c| decoded(c.load(Ordering::Relaxed)).is_none_or(|v| encode(v, 1).is_some()));
    let width = if fits { 1 } else { 2 };
    let mut entries = Vec::new();
    entries
        .try_reserve_exact(total * width)
        .map_err(|_| TablebaseError::Alloc(AllocError { what: "tablebase", bytes: total * width }))?;
    for cell in &solver.values {
        let code = decoded(cell.load(Ordering::Relaxed)).map_or(Some(0), |v| encode(v, width));
        let code = code.ok_or_else(|| TablebaseError::TooDeep { material: material.to_string() })?;
        if width == 1 {
            entries.push(code as u8);
        } else {
            entries.extend_from_slice(&code.to_le_bytes());
        }
    }
    Ok((Table { material, layout: solver.layout, width, entries }, stats))
}
