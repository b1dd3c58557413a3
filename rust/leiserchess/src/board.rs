//! [`Board`]: the pieces, the side to move and the rule set; the laser, move generation and the
//! result of a move (copy-make: a board is 96 bytes, cheaper to copy than to take back a laser's zaps).
//! Besides its squares a board keeps each side's pieces as a bitboard, so that a laser shot jumps from
//! piece to piece along precomputed rays ([`RAYS`]) instead of stepping square by square.
//!
//! The rules are camelpy's statement of them, `docs/leiserchess.md`. A turn is a move by one of the
//! mover's pieces, then the mover's king fires. Under the 2016 rules a shift may go to an occupied square (the two pieces exchange squares) and a zap
//! makes the king fire again along the new path, until a shot zaps nothing or hits a king; under the
//! 2018 rules a shift goes only to an empty square, a piece next to an opposing one may swap with it
//! and then make one basic move, and a shot stops at its first zap. A pawn on the path the
//! opponent's laser would take now is pinned: it may neither shift nor rotate (kept under 2018 too).

use std::fmt;

use crate::{
    error::ParseFenError,
    moves::{Action, Move},
    types::{Color, Dir, Kind, Piece, Square, NEIGHBOURS, NUM_SQUARES, WIDTH},
    zobrist,
};

/// The start position (2016; both rule sets use it).
pub const STARTING_FEN: &str = "ss3nw3/3nw4/2nw1nw3/1nw3SE1SE/nw1nw3SE1/3SE1SE2/4SE3/3SE3NN W";

/// Pawns a side may have (the rules: one king and up to seven pawns).
pub const MAX_PAWNS: usize = 7;

/// Squares a beam can enter before it must have stopped: a beam's (square, direction) states never
/// repeat (reflection is reversible, and a beam that comes back to its king hits it), so 256 is a
/// bound that is never reached.
const MAX_BEAM_STEPS: usize = NUM_SQUARES * 4;

/// Plies without a zap after which the 2018 rules draw (50 moves by each side).
pub const QUIET_PLIES_DRAW_2018: u16 = 100;

/// A rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Rules {
    /// The default: shifts exchange with occupied squares, a shot zaps until it zaps nothing.
    #[default]
    R2016,
    /// Shifts to empty squares, swaps with opposing pieces, one zap per shot, the 50-move draw.
    R2018,
}

impl Rules {
    /// `2016` or `2018`.
    pub const fn year(self) -> u16 {
        match self {
            Rules::R2016 => 2016,
            Rules::R2018 => 2018,
        }
    }

    /// The rule set of `year` (2016 or 2018).
    pub const fn from_year(year: u16) -> Option<Rules> {
        match year {
            2016 => Some(Rules::R2016),
            2018 => Some(Rules::R2018),
            _ => None,
        }
    }
}

/// Where a beam stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShotEnd {
    /// It left the board.
    Edge,
    /// It struck the back of the pawn on this square.
    Zap(Square),
    /// It struck the king on this square.
    King(Square),
}

/// One beam from a king: every square it entered (the one it stopped on included) and where it
/// stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shot {
    /// The squares entered, as a set (bit `square.index()`).
    pub path: u64,
    /// Where it stopped.
    pub end: ShotEnd,
}

/// What a move does, as [`Board::preview`] finds it without making the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preview {
    /// Its shot leaves the board, so its turn zaps nothing and hits nothing; `unchanged` if the
    /// pieces stay exactly as they are (two identical pieces exchanged, or a null move: Ko).
    Quiet {
        /// True if no piece changes.
        unchanged: bool,
    },
    /// Its turn's first shot stops here, at a pawn's back or a king: make it with
    /// [`Board::after_fired`].
    Fires(ShotEnd),
    /// Not previewed (a 2018 swap): make it with [`Board::after`].
    Unknown,
}

/// `RAYS[dir][sq]`: the squares a beam leaving `sq` in direction `dir` (`Dir as usize`) would enter on
/// an empty board, to the edge.
static RAYS: [[u64; NUM_SQUARES]; 4] = rays();

const fn rays() -> [[u64; NUM_SQUARES]; 4] {
    let steps: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut table = [[0u64; NUM_SQUARES]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < NUM_SQUARES {
            let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
            loop {
                f += steps[d].0;
                r += steps[d].1;
                if f < 0 || f >= WIDTH as i8 || r < 0 || r >= WIDTH as i8 {
                    break;
                }
                table[d][sq] |= 1u64 << (r * 8 + f);
            }
            sq += 1;
        }
        d += 1;
    }
    table
}

/// `squares` and every square next to one of them (a king's step away).
#[inline]
const fn around(squares: u64) -> u64 {
    const NOT_FILE_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_FILE_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let row = squares | (squares << 1) & NOT_FILE_A | (squares >> 1) & NOT_FILE_H;
    row | row << 8 | row >> 8
}

/// `SHIFTS[sq]`: the shifts from `sq` to each square next to it on the board, in [`NEIGHBOURS`]
/// order (the first `.1` of the eight), and `ROTATIONS[sq]` the three rotations on `sq`: a node's moves
/// are copied from these instead of stepped out neighbour by neighbour (a tenth of a node's time).
static SHIFTS: [([Move; 8], usize); NUM_SQUARES] = shifts();
static ROTATIONS: [[Move; 3]; NUM_SQUARES] = rotations();

const fn shifts() -> [([Move; 8], usize); NUM_SQUARES] {
    let mut table = [([Move::null(Square::new(0)); 8], 0); NUM_SQUARES];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let from = Square::new(sq as u8);
        let mut k = 0;
        while k < NEIGHBOURS.len() {
            if let Some(to) = from.offset(NEIGHBOURS[k].0, NEIGHBOURS[k].1) {
                table[sq].0[table[sq].1] = Move::shift(from, to);
                table[sq].1 += 1;
            }
            k += 1;
        }
        sq += 1;
    }
    table
}

const fn rotations() -> [[Move; 3]; NUM_SQUARES] {
    let mut table = [[Move::null(Square::new(0)); 3]; NUM_SQUARES];
    let mut sq = 0;
    while sq < NUM_SQUARES {
        let from = Square::new(sq as u8);
        table[sq] = [Move::rotate(from, 1), Move::rotate(from, 2), Move::rotate(from, 3)];
        sq += 1;
    }
    table
}

/// The direction a beam travelling `beam` takes after striking a pawn facing `pawn`, `None` if it
/// strikes the pawn's back (a zap). The rules' table, row by row (beam N, E, S, W; pawn NW, NE, SE,
/// SW).
const REFLECTIONS: [[Option<Dir>; 4]; 4] = [
    [None, None, Some(Dir::East), Some(Dir::West)],
    [Some(Dir::North), None, None, Some(Dir::South)],
    [Some(Dir::West), Some(Dir::East), None, None],
    [None, Some(Dir::North), Some(Dir::South), None],
];

/// The result of a turn for the side that moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TurnReport {
    /// Pawns the laser zapped.
    pub zapped: u8,
    /// The side whose king the laser hit (the game is over; that side lost).
    pub king_hit: Option<Color>,
}

/// The pieces, the side to move and the rules; plus the plies since the last zap (for the 2018
/// draw), and the side that lost if a king has been hit.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    cells: [Option<Piece>; NUM_SQUARES],
    /// Each side's pieces (bit `square.index()`), by `Color::index`.
    colors: [u64; 2],
    kings: [Square; 2],
    side: Color,
    rules: Rules,
    key: u64,
    quiet_plies: u16,
    loser: Option<Color>,
}

impl Board {
    /// The start position under `rules`.
    pub fn start(rules: Rules) -> Board {
        Board::from_fen(STARTING_FEN, rules).unwrap_or_else(|_| unreachable!("the start FEN is valid"))
    }

    /// Reads a FEN: ranks 7 to 0 separated by `/`, each a row of two-letter piece codes (upper case
    /// Tangerine, lower case Lavender) and digits for empty squares, then `W` or `B`. One king a side
    /// and at most [`MAX_PAWNS`] pawns.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<Board, ParseFenError> {
        let err = |reason: &str| ParseFenError::new(reason, fen);
        let mut fields = fen.split_whitespace();
        let (Some(placement), Some(turn)) = (fields.next(), fields.next()) else {
            return Err(err("expected the placement and the side to move, 'W' or 'B'"));
        };
        if fields.next().is_some() {
            return Err(err("expected two fields, the placement and the side to move"));
        }
        let side = match turn {
            "W" => Color::Tangerine,
            "B" => Color::Lavender,
            _ => return Err(err("the side to move must be 'W' or 'B'")),
        };
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != usize::from(WIDTH) {
            return Err(err("expected 8 ranks separated by '/'"));
        }
        let mut cells = [None; NUM_SQUARES];
        for (i, row) in ranks.iter().enumerate() {
            let rank = WIDTH as i8 - 1 - i as i8;
            let mut file: i8 = 0;
            let bytes = row.as_bytes();
            let mut j = 0;
            while j < bytes.len() {
                let c = bytes[j];
                if (b'1'..=b'8').contains(&c) {
                    file += (c - b'0') as i8;
                    j += 1;
                } else {
                    let code =
                        row.get(j..j + 2).ok_or_else(|| err("a piece is two letters, e.g. 'NN' or 'se'"))?;
                    let piece = Piece::from_code(code).ok_or_else(|| err("unknown piece code"))?;
                    let sq = Square::at(file, rank).ok_or_else(|| err("a rank holds more than 8 squares"))?;
                    cells[sq.index()] = Some(piece);
                    file += 1;
                    j += 2;
                }
                if file > WIDTH as i8 {
                    return Err(err("a rank holds more than 8 squares"));
                }
            }
            if file != WIDTH as i8 {
                return Err(err("a rank holds fewer than 8 squares"));
            }
        }
        let mut kings = [None, None];
        let mut pawns = [0; 2];
        for (i, cell) in cells.iter().enumerate() {
            if let Some(p) = cell {
                match p.kind() {
                    Kind::King if kings[p.color().index()].is_some() => {
                        return Err(err("more than one king of a side"))
                    }
                    Kind::King => kings[p.color().index()] = Some(Square::new(i as u8)),
                    Kind::Pawn => pawns[p.color().index()] += 1,
                }
            }
        }
        let (Some(tangerine), Some(lavender)) = (kings[0], kings[1]) else {
            return Err(err("each side needs its king"));
        };
        if pawns.iter().any(|&n| n > MAX_PAWNS) {
            return Err(err("more than seven pawns of a side"));
        }
        let mut board = Board {
            cells,
            colors: [0; 2],
            kings: [tangerine, lavender],
            side,
            rules,
            key: 0,
            quiet_plies: 0,
            loser: None,
        };
        board.key = board.compute_key();
        for (i, cell) in board.cells.iter().enumerate() {
            if let Some(p) = cell {
                board.colors[p.color().index()] |= 1 << i;
            }
        }
        Ok(board)
    }

    /// The FEN (see [`Board::from_fen`]).
    pub fn fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..WIDTH as i8).rev() {
            let mut empty = 0;
            for file in 0..WIDTH as i8 {
                match Square::at(file, rank).and_then(|sq| self.cells[sq.index()]) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push_str(&p.code());
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.side.letter());
        out
    }

    fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Lavender { zobrist::KEYS.side } else { 0 };
        for (i, cell) in self.cells.iter().enumerate() {
            if let Some(p) = cell {
                key ^= zobrist::KEYS.piece(p.index(), i);
            }
        }
        key
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.cells[sq.index()]
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        self.kings[color.index()]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The rule set.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The Zobrist key of the pieces and the side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since a pawn was last zapped (0 at a FEN).
    #[inline]
    pub fn quiet_plies(&self) -> u16 {
        self.quiet_plies
    }

    /// The side whose king was hit, if the game ended so.
    #[inline]
    pub fn loser(&self) -> Option<Color> {
        self.loser
    }

    /// True if both boards have the same pieces on the same squares (side to move aside): what Ko and
    /// repetition compare.
    #[inline]
    pub fn same_pieces(&self, other: &Board) -> bool {
        // The keys of the pieces alone first: unequal keys are different pieces, and comparing two
        // words is far cheaper than 64 squares (the search asks twice for each move it makes).
        self.pieces_key() == other.pieces_key() && self.cells == other.cells
    }

    /// The squares whose contents differ between the two boards (bit `square.index()`).
    #[inline]
    pub fn differing(&self, other: &Board) -> u64 {
        // One pass over the 64 squares, without branches (the search asks once a node).
        (0..NUM_SQUARES).fold(0, |m, i| m | u64::from(self.cells[i] != other.cells[i]) << i)
    }

    /// The Zobrist key of the pieces alone (the side to move's key taken out).
    #[inline]
    fn pieces_key(&self) -> u64 {
        self.key ^ if self.side == Color::Lavender { zobrist::KEYS.side } else { 0 }
    }

    #[inline]
    fn set(&mut self, sq: Square, piece: Option<Piece>) {
        if let Some(old) = self.cells[sq.index()] {
            self.key ^= zobrist::KEYS.piece(old.index(), sq.index());
            self.colors[old.color().index()] &= !sq.bit();
        }
        if let Some(new) = piece {
            self.key ^= zobrist::KEYS.piece(new.index(), sq.index());
            self.colors[new.color().index()] |= sq.bit();
            if new.kind() == Kind::King {
                self.kings[new.color().index()] = sq;
            }
        }
        self.cells[sq.index()] = piece;
    }

    /// The beam `color`'s king would fire now (nothing removed: one shot), calling `visit` with every
    /// square it enters, in order; returns where it stopped.
    pub fn beam(&self, color: Color, mut visit: impl FnMut(Square)) -> ShotEnd {
        let king = self.kings[color.index()];
        let mut dir = self.cells[king.index()].map_or(Dir::North, |k| k.orientation().king_dir());
        let mut sq = king;
        for _ in 0..MAX_BEAM_STEPS {
            let (df, dr) = dir.delta();
            let Some(next) = sq.offset(df, dr) else { return ShotEnd::Edge };
            sq = next;
            visit(sq);
            match self.cells[sq.index()] {
                None => {}
                Some(p) if p.kind() == Kind::King => return ShotEnd::King(sq),
                Some(p) => match REFLECTIONS[dir as usize][p.orientation().index()] {
                    None => return ShotEnd::Zap(sq),
                    Some(d) => dir = d,
                },
            }
        }
        ShotEnd::Edge
    }

    /// [`Board::beam`] as a set of squares and its end: from piece to piece along [`RAYS`] (the first
    /// piece on a ray is its lowest bit going north or east, its highest going south or west).
    #[inline]
    pub fn shoot(&self, color: Color) -> Shot {
        Board::shot_over(self.kings[color.index()], self.colors[0] | self.colors[1], |i| self.cells[i])
    }

    /// [`Board::shoot`] of the king on `king` over any board: `occupied` its pieces, `cell` the
    /// piece on a square (by index); the search shoots over a move without making it.
    #[inline(always)]
    fn shot_over(king: Square, occupied: u64, cell: impl Fn(usize) -> Option<Piece>) -> Shot {
        let mut dir = cell(king.index()).map_or(Dir::North, |k| k.orientation().king_dir());
        let mut sq = king.index();
        let mut path = 0u64;
        // Every stop is at a piece, so this ends well within the beam's bound (see MAX_BEAM_STEPS).
        for _ in 0..MAX_BEAM_STEPS {
            let ray = RAYS[dir as usize][sq];
            let blockers = ray & occupied;
            if blockers == 0 {
                return Shot { path: path | ray, end: ShotEnd::Edge };
            }
            let hit = match dir {
                Dir::North | Dir::East => blockers.trailing_zeros(),
                Dir::South | Dir::West => 63 - blockers.leading_zeros(),
            } as usize;
            path |= ray & !RAYS[dir as usize][hit];
            sq = hit;
            let at = Square::new(hit as u8);
            match cell(hit) {
                None => {}
                Some(p) if p.kind() == Kind::King => return Shot { path, end: ShotEnd::King(at) },
                Some(p) => match REFLECTIONS[dir as usize][p.orientation().index()] {
                    None => return Shot { path, end: ShotEnd::Zap(at) },
                    Some(d) => dir = d,
                },
            }
        }
        Shot { path, end: ShotEnd::Edge }
    }

    /// The pieces of `color` (bit `square.index()`).
    #[inline]
    pub fn pieces(&self, color: Color) -> u64 {
        self.colors[color.index()]
    }

    /// The pawns of `color` on the board.
    #[inline]
    pub fn pawn_count(&self, color: Color) -> u32 {
        (self.colors[color.index()] & !self.kings[color.index()].bit()).count_ones()
    }

    /// [`Board::beam`]'s squares in order, and its end.
    pub fn trace(&self, color: Color) -> (Vec<Square>, ShotEnd) {
        let mut squares = Vec::new();
        let end = self.beam(color, |sq| squares.push(sq));
        (squares, end)
    }

    /// The mover's pawns that may not move: those on the path of the opponent's laser now.
    #[inline]
    pub fn pinned(&self) -> u64 {
        self.shoot(self.side.flip()).path
    }

    /// Appends every move of the side to move under the board's rules, Ko aside (Ko needs the game's
    /// history: [`crate::Position::legal_moves`]); none once a king has been hit.
    #[inline]
    pub fn generate(&self, moves: &mut Vec<Move>) {
        self.generate_from(!0, moves);
    }

    /// [`Board::generate`]'s moves that change a square of `squares` (and maybe others), in the same
    /// order: those of the pieces that stand on them or next to them (two squares away under 2018,
    /// whose swap moves on past the piece it swaps with), each piece's moves all. Quiescence asks
    /// for the moves that change the mover's beam, which are among these for the beam's squares.
    #[inline]
    pub fn generate_touching(&self, squares: u64, moves: &mut Vec<Move>) {
        let near = around(squares);
        self.generate_from(if self.rules == Rules::R2018 { around(near) } else { near }, moves);
    }

    /// The moves of the mover's pieces on `from_squares`, in [`Board::generate`]'s order.
    #[inline]
    fn generate_from(&self, from_squares: u64, moves: &mut Vec<Move>) {
        if self.loser.is_some() {
            return;
        }
        let us = self.side;
        let pinned = self.pinned();
        // Own pieces in square order (lowest bit first), as a scan of the squares would find them.
        let mut own = self.colors[us.index()] & from_squares;
        while own != 0 {
            let i = own.trailing_zeros() as usize;
            own &= own - 1;
            let from = Square::new(i as u8);
            let Some(piece) = self.cells[i] else { continue };
            if piece.kind() == Kind::Pawn && pinned & from.bit() != 0 {
                continue;
            }
            let (shifts, count) = &SHIFTS[i];
            let shifts = &shifts[..*count];
            if self.rules == Rules::R2016 {
                moves.extend_from_slice(shifts);
            } else {
                for &shift in shifts {
                    let Action::Shift { to } = shift.action() else { continue };
                    match self.cells[to.index()] {
                        None => moves.push(shift),
                        Some(target) if target.color() != us => self.swaps(from, to, moves),
                        Some(_) => {}
                    }
                }
            }
            moves.extend_from_slice(&ROTATIONS[i]);
            if piece.kind() == Kind::King {
                moves.push(Move::null(from));
            }
        }
    }

    /// 2018: the swaps of the piece on `from` with the opposing piece on `with`, each followed by a
    /// shift to an empty square next to `with` (after the swap) or a rotation.
    fn swaps(&self, from: Square, with: Square, moves: &mut Vec<Move>) {
        for (df, dr) in NEIGHBOURS {
            let Some(to) = with.offset(df, dr) else { continue };
            // After the swap `from` holds the opposing piece, so it is never empty.
            if to != from && self.cells[to.index()].is_none() {
                moves.extend(Move::new(from, Action::SwapShift { with, to }));
            }
        }
        for quarters in 1..=3 {
            moves.extend(Move::new(from, Action::SwapRotate { with, quarters }));
        }
    }

    /// True if `mv` is one of [`Board::generate`]'s moves here (Ko aside).
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        let mut moves = Vec::with_capacity(128);
        self.generate(&mut moves);
        moves.contains(&mv)
    }

    /// Plays `mv` (one of [`Board::generate`]'s moves) and the mover's laser shot; the board after the
    /// whole turn has the other side to move.
    pub fn play(&mut self, mv: Move) -> TurnReport {
        if !self.move_pieces(mv) {
            return TurnReport::default();
        }
        let report = self.fire(|_| {});
        self.end_turn(report);
        report
    }

    /// The turn's end after its shots (`report`): the quiet plies, the loser if a king was hit, and
    /// the other side to move.
    #[inline]
    fn end_turn(&mut self, report: TurnReport) {
        self.quiet_plies = if report.zapped > 0 { 0 } else { self.quiet_plies.saturating_add(1) };
        self.loser = report.king_hit;
        self.side = self.side.flip();
        self.key ^= zobrist::KEYS.side;
    }

    /// The beams the mover's king fires in the turn `mv` (one of [`Board::generate`]'s moves) would
    /// make here, in order, each as [`Board::trace`] gives it: one under the 2018 rules, under 2016
    /// one more after each zap. A GUI draws them; the search never asks.
    pub fn turn_shots(&self, mv: Move) -> Vec<(Vec<Square>, ShotEnd)> {
        let mut next = self.clone();
        let mut shots = Vec::new();
        if next.move_pieces(mv) {
            let side = next.side;
            next.fire(|board| shots.push(board.trace(side)));
        }
        shots
    }

    /// The pieces' part of the turn `mv`: shifts, exchanges and rotations, the laser not yet fired;
    /// `false` (nothing changed) when `mv`'s square is empty.
    #[inline]
    fn move_pieces(&mut self, mv: Move) -> bool {
        let from = mv.from();
        let Some(piece) = self.cells[from.index()] else { return false };
        match mv.action() {
            Action::Shift { to } => self.exchange(from, to),
            Action::Rotate { quarters } => self.set(from, Some(piece.rotated(quarters))),
            Action::Null => {}
            Action::SwapShift { with, to } => {
                self.exchange(from, with);
                self.exchange(with, to);
            }
            Action::SwapRotate { with, quarters } => {
                self.exchange(from, with);
                self.set(with, Some(piece.rotated(quarters)));
            }
        }
        true
    }

    /// What `mv` (one of [`Board::generate`]'s moves) does, found without making it where that is
    /// cheap: for a shift, rotation or null move the first shot of its turn, and if that shot leaves
    /// the board (the turn is quiet) whether it leaves the pieces exactly as they are (two identical
    /// pieces exchanged, or a null move). `shot` is the mover's shot now ([`Board::shoot`]): a move
    /// that changes no square of its path nor the king fires it again, and any other is shot over its
    /// moved pieces. A 2018 swap is [`Preview::Unknown`]: make it.
    #[inline]
    pub fn preview(&self, mv: Move, shot: &Shot) -> Preview {
        let from = mv.from();
        let Some(piece) = self.cells[from.index()] else { return Preview::Unknown };
        let occupied = self.colors[0] | self.colors[1];
        let king = self.kings[self.side.index()];
        let guard = shot.path | king.bit();
        match mv.action() {
            Action::Shift { to } => {
                let target = self.cells[to.index()];
                let end = if !mv.touches(guard) {
                    shot.end
                } else {
                    // The two squares exchange their contents (the king may be either of them).
                    let occupied = if target.is_none() { occupied ^ from.bit() ^ to.bit() } else { occupied };
                    let king = if king == from {
                        to
                    } else if king == to {
                        from
                    } else {
                        king
                    };
                    let (f, t) = (from.index(), to.index());
                    Board::shot_over(king, occupied, |i| match i {
                        _ if i == f => target,
                        _ if i == t => Some(piece),
                        _ => self.cells[i],
                    })
                    .end
                };
                if end != ShotEnd::Edge {
                    return Preview::Fires(end);
                }
                Preview::Quiet { unchanged: target == Some(piece) }
            }
            Action::Rotate { quarters } => {
                let turned = piece.rotated(quarters);
                let end = if !mv.touches(guard) {
                    shot.end
                } else {
                    let f = from.index();
                    Board::shot_over(king, occupied, |i| if i == f { Some(turned) } else { self.cells[i] })
                        .end
                };
                if end != ShotEnd::Edge {
                    return Preview::Fires(end);
                }
                Preview::Quiet { unchanged: false }
            }
            Action::Null if shot.end != ShotEnd::Edge => Preview::Fires(shot.end),
            Action::Null => Preview::Quiet { unchanged: true },
            Action::SwapShift { .. } | Action::SwapRotate { .. } => Preview::Unknown,
        }
    }

    /// Whether the side not to move could hit the mover's king with a turn of its own, were it to
    /// move now (Ko aside): the threat the mover must answer, as a king in check must in chess. A
    /// move of the other side that changes no square its turn's beams enter, nor its king, fires the
    /// same beams as a turn that moves nothing; so that turn is fired once and only the moves that
    /// touch those squares are made (`moves` is a buffer, left holding the other side's moves).
    pub fn king_threatened(&self, moves: &mut Vec<Move>) -> bool {
        if self.loser.is_some() {
            return false;
        }
        let us = self.side;
        let mut them = self.clone();
        them.side = us.flip();
        let mut still = them.clone();
        let mut guard = them.kings[them.side.index()].bit();
        if still.fire(|board| guard |= board.shoot(board.side).path).king_hit == Some(us) {
            return true;
        }
        moves.clear();
        them.generate(moves);
        moves.iter().any(|&mv| mv.touches(guard) && them.after(mv).1.king_hit == Some(us))
    }

    /// The board after `mv` and its shot.
    pub fn after(&self, mv: Move) -> (Board, TurnReport) {
        let mut next = self.clone();
        let report = next.play(mv);
        (next, report)
    }

    /// [`Board::after`] for a move whose turn's first shot is known to stop at `first`
    /// ([`Preview::Fires`]): that shot is not traced again, only those after a zap under 2016.
    #[inline]
    pub fn after_fired(&self, mv: Move, first: ShotEnd) -> (Board, TurnReport) {
        let mut next = self.clone();
        if !next.move_pieces(mv) {
            return (next, TurnReport::default());
        }
        let mut report = TurnReport::default();
        if !next.strike(first, &mut report) {
            report = next.fire_more(report, |_| {});
        }
        next.end_turn(report);
        (next, report)
    }

    /// [`Board::after`] for a move known to be quiet ([`Preview::Quiet`]): the
    /// pieces moved and the turn passed without firing the laser again, whose shot leaves the board.
    #[inline]
    pub fn after_quiet(&self, mv: Move) -> Board {
        let mut next = self.clone();
        if next.move_pieces(mv) {
            debug_assert_eq!(next.shoot(next.side).end, ShotEnd::Edge, "{mv:?} is not quiet on {self:?}");
            next.quiet_plies = next.quiet_plies.saturating_add(1);
            next.side = next.side.flip();
            next.key ^= zobrist::KEYS.side;
        }
        next
    }

    /// Exchanges the contents of two squares (a move to an empty square included).
    fn exchange(&mut self, a: Square, b: Square) {
        let (pa, pb) = (self.cells[a.index()], self.cells[b.index()]);
        self.set(a, None);
        self.set(b, None);
        self.set(a, pb);
        self.set(b, pa);
    }

    /// The mover's king fires: under 2016 again after every zap, under 2018 once; `before_shot` sees
    /// the board before each shot.
    #[inline]
    fn fire(&mut self, before_shot: impl FnMut(&Board)) -> TurnReport {
        self.fire_more(TurnReport::default(), before_shot)
    }

    /// [`Board::fire`] after the turn's shots so far (`report`).
    #[inline]
    fn fire_more(&mut self, mut report: TurnReport, mut before_shot: impl FnMut(&Board)) -> TurnReport {
        loop {
            before_shot(self);
            let end = self.shoot(self.side).end;
            if self.strike(end, &mut report) {
                return report;
            }
        }
    }

    /// One shot of the mover's that stopped at `end`: a zapped pawn is removed, a hit king recorded;
    /// true if the turn fires no more (the shot left the board or hit a king, or the 2018 rules).
    #[inline]
    fn strike(&mut self, end: ShotEnd, report: &mut TurnReport) -> bool {
        match end {
            ShotEnd::Edge => true,
            ShotEnd::King(sq) => {
                report.king_hit = self.cells[sq.index()].map(Piece::color);
                true
            }
            ShotEnd::Zap(sq) => {
                self.set(sq, None);
                report.zapped += 1;
                self.rules == Rules::R2018
            }
        }
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({:?}, {})", self.fen(), self.rules.year())
    }
}

impl fmt::Display for Board {
    /// The board as text, rank 7 at the top, each square its piece code or `..`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..WIDTH as i8).rev() {
            write!(f, "{rank} ")?;
            for file in 0..WIDTH as i8 {
                let cell = Square::at(file, rank).and_then(|sq| self.cells[sq.index()]);
                write!(f, " {}", cell.map_or_else(|| "..".to_string(), Piece::code))?;
            }
            writeln!(f)?;
        }
        write!(f, "   a  b  c  d  e  f  g  h")
    }
}

/// Random games for the tests that check one computation against another along them: `games` games
/// from the start under `rules`, at most `plies` plies each, every move drawn by [`random_pick`] from
/// `seed`; `visit` sees each board before its move is played.
#[cfg(test)]
pub(crate) fn random_games(
    rules: Rules,
    seed: u64,
    games: usize,
    plies: usize,
    mut visit: impl FnMut(&Board),
) {
    let mut seed = seed;
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut board = Board::start(rules);
        for _ in 0..plies {
            visit(&board);
            moves.clear();
            board.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            board.play(random_pick(&mut seed, &moves));
        }
    }
}

/// One of `items`, drawn by a linear congruential generator (Knuth's MMIX constants) whose state is
/// `seed`: the tests' random games, reproducible without a dependency.
#[cfg(test)]
pub(crate) fn random_pick<T: Copy>(seed: &mut u64, items: &[T]) -> T {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    items[(*seed >> 33) as usize % items.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_reads_and_writes_back() {
        let board = Board::start(Rules::R2016);
        assert_eq!(board.fen(), STARTING_FEN);
        assert_eq!(board.king(Color::Tangerine), Square::parse("h0").unwrap());
        assert_eq!(board.king(Color::Lavender), Square::parse("a7").unwrap());
        assert_eq!(board.piece_at(Square::parse("f4").unwrap()).unwrap().code(), "SE");
        let mut moves = Vec::new();
        board.generate(&mut moves);
        assert_eq!(moves.len(), 78);
        assert_eq!(std::mem::size_of::<Board>(), BOARD_BYTES);
    }

    /// What the module's documentation says a board costs to copy.
    const BOARD_BYTES: usize = 96;

    /// The ray-table shot against the beam traced square by square, and the kept bitboards against
    /// the squares, along random games under both rule sets.
    #[test]
    fn the_shot_along_rays_is_the_traced_beam() {
        for rules in [Rules::R2016, Rules::R2018] {
            random_games(rules, 0x1a5e, 40, 80, |board| {
                for color in Color::ALL {
                    let mut path = 0u64;
                    let end = board.beam(color, |sq| path |= sq.bit());
                    assert_eq!(board.shoot(color), Shot { path, end }, "{board:?}");
                    let mine = (0..64u8)
                        .filter(|&i| board.cells[usize::from(i)].is_some_and(|p| p.color() == color))
                        .fold(0u64, |m, i| m | 1 << i);
                    assert_eq!(board.pieces(color), mine, "{board:?}");
                }
            });
        }
    }

    #[test]
    fn bad_fens_are_refused_with_their_reason() {
        for (fen, reason) in [
            ("", "expected the placement"),
            ("8/8/8/8/8/8/8/7NN", "expected the placement"),
            ("8/8/8/8/8/8/8/7NN X", "'W' or 'B'"),
            ("8/8/8/8/8/8/8/7NN W x", "expected two fields"),
            ("8/8/8/8/8/8/7NN W", "8 ranks"),
            ("ss8/8/8/8/8/8/8/7NN W", "more than 8"),
            ("ss6/8/8/8/8/8/8/6NN W", "fewer than 8"),
            ("ss7/8/8/8/8/8/8/6NX W", "unknown piece code"),
            ("ss7/8/8/8/8/8/8/6Nn W", "unknown piece code"),
            ("ss7/8/8/8/8/8/8/7N W", "two letters"),
            ("ss6/8/8/8/8/8/8/7NN W", "fewer than 8"),
            ("ss6ss/8/8/8/8/8/8/7NN W", "more than one king"),
            ("ss7/8/8/8/8/8/8/8 W", "needs its king"),
            ("ss7/8/8/8/8/8/NWNWNWNWNWNWNWNW/7NN W", "more than seven pawns"),
        ] {
            let e = Board::from_fen(fen, Rules::R2016).expect_err(fen);
            assert!(e.to_string().contains(reason), "{fen}: {e}");
        }
    }

    #[test]
    fn the_laser_reflects_by_the_table_and_zaps_backs() {
        // Tangerine's king on a0 facing north; the SE pawn on a3 turns the beam east, the NW pawn on
        // c3 turns it north, and it leaves the board after c7.
        let board = Board::from_fen("ss7/8/8/8/SE1NW5/8/8/NN7 W", Rules::R2016).unwrap();
        let shot = board.shoot(Color::Tangerine);
        assert_eq!(shot.end, ShotEnd::Edge);
        let path: Vec<String> =
            (0..64).filter(|i| shot.path & (1u64 << i) != 0).map(|i| Square::new(i).to_string()).collect();
        assert_eq!(path, ["a1", "a2", "a3", "b3", "c3", "c4", "c5", "c6", "c7"]);
        // A NE pawn on c3 is struck on its back by an eastward beam: zapped, and the 2016 king fires
        // again along the open file... into the edge.
        let mut board = Board::from_fen("ss7/8/8/8/SE1NE5/8/8/NN7 W", Rules::R2016).unwrap();
        assert_eq!(board.shoot(Color::Tangerine).end, ShotEnd::Zap(Square::parse("c3").unwrap()));
        let report = board.play("a0a0".parse().unwrap());
        assert_eq!(report, TurnReport { zapped: 1, king_hit: None });
        assert_eq!(board.fen(), "ss7/8/8/8/SE7/8/8/NN7 B");
        // A beam onto a king ends the game; its own king too.
        let board = Board::from_fen("8/8/8/8/8/8/8/EE6nn W", Rules::R2016).unwrap();
        assert_eq!(board.after("a0a0".parse().unwrap()).1.king_hit, Some(Color::Lavender));
        let board = Board::from_fen("ss7/8/8/8/8/8/8/SW5WW1 W", Rules::R2016).unwrap();
        // Tangerine's king g0 fires west onto a SW pawn on a0: westward onto SW is a zap.
        assert_eq!(board.shoot(Color::Tangerine).end, ShotEnd::Zap(Square::parse("a0").unwrap()));
    }

    #[test]
    fn a_turns_shots_are_the_beams_it_fires() {
        let square = |name: &str| Square::parse(name).unwrap();
        let names = |squares: &[Square]| squares.iter().map(ToString::to_string).collect::<Vec<_>>();
        // 2016: the beam turns east at a3 and zaps c3's back; the king fires again, on to the edge.
        let board = Board::from_fen("ss7/8/8/8/SE1NE5/8/8/NN7 W", Rules::R2016).unwrap();
        let shots = board.turn_shots("a0a0".parse().unwrap());
        assert_eq!(shots.len(), 2);
        assert_eq!(names(&shots[0].0), ["a1", "a2", "a3", "b3", "c3"]);
        assert_eq!(shots[0].1, ShotEnd::Zap(square("c3")));
        assert_eq!(names(&shots[1].0), ["a1", "a2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3"]);
        assert_eq!(shots[1].1, ShotEnd::Edge);
        // 2018: one shot, stopped by its zap.
        let board = Board::from_fen("ss7/8/8/8/SE1NE5/8/8/NN7 W", Rules::R2018).unwrap();
        assert_eq!(board.turn_shots("a0a0".parse().unwrap()).len(), 1);
        // The pieces move before the king fires: turned east, it hits h0's king.
        let board = Board::from_fen("8/8/8/8/8/8/8/NN6nn W", Rules::R2016).unwrap();
        let shots = board.turn_shots("a0R".parse().unwrap());
        assert_eq!(names(&shots[0].0), ["b0", "c0", "d0", "e0", "f0", "g0", "h0"]);
        assert_eq!(shots[0].1, ShotEnd::King(square("h0")));
        // The board is not changed.
        assert_eq!(board.fen(), "8/8/8/8/8/8/8/NN6nn W");
    }

    #[test]
    fn the_reflection_table_is_the_rules() {
        // Beam N onto NW/NE: zap; onto SE: east; onto SW: west (the rules page's first row), and so on.
        let names = ["NW", "NE", "SE", "SW"];
        let dirs = ["N", "E", "S", "W"];
        let table = [
            ["zap", "zap", "E", "W"],
            ["N", "zap", "zap", "S"],
            ["W", "E", "zap", "zap"],
            ["zap", "N", "S", "zap"],
        ];
        for (b, row) in table.iter().enumerate() {
            for (p, &want) in row.iter().enumerate() {
                let got = REFLECTIONS[b][p].map_or("zap", |d| dirs[d as usize]);
                assert_eq!(got, want, "beam {} onto {}", dirs[b], names[p]);
            }
        }
    }

    #[test]
    fn keys_follow_the_pieces_and_the_side() {
        let board = Board::start(Rules::R2016);
        let mut moves = Vec::new();
        board.generate(&mut moves);
        for &mv in &moves {
            let (after, _) = board.after(mv);
            assert_eq!(after.key(), after.compute_key(), "{mv}");
            assert_eq!(Board::from_fen(&after.fen(), Rules::R2016).unwrap().key(), after.key());
        }
    }

    /// [`Board::preview`] against making each move, along random games under both rules: it answers
    /// exactly for the shifts, rotations and null moves (the first shot's end; for a quiet one whether
    /// the pieces stayed as they were), whether the move is shot over its moved
    /// pieces (it touches the beam or king) or not, and whether the shot now leaves the board or not;
    /// and the boards it leaves to make ([`Board::after_quiet`], [`Board::after_fired`]) are made ones.
    #[test]
    fn a_moves_preview_and_boards_are_those_of_making_it() {
        // Shifts and rotations checked, by whether the shot now zaps or hits and whether they touch it.
        let mut seen = [[0; 2]; 2];
        for rules in [Rules::R2016, Rules::R2018] {
            random_games(rules, 0x51, 30, 120, |board| {
                let us = board.side_to_move();
                let shot = board.shoot(us);
                let mut moves = Vec::new();
                board.generate(&mut moves);
                for &mv in &moves {
                    let (after, report) = board.after(mv);
                    let mut moved = board.clone();
                    moved.move_pieces(mv);
                    let first = moved.shoot(us).end;
                    let want = match mv.action() {
                        Action::SwapShift { .. } | Action::SwapRotate { .. } => Preview::Unknown,
                        _ if first == ShotEnd::Edge => {
                            assert_eq!(report, TurnReport::default(), "{board:?} {mv}");
                            Preview::Quiet { unchanged: after.same_pieces(board) }
                        }
                        _ => Preview::Fires(first),
                    };
                    assert_eq!(board.preview(mv, &shot), want, "{board:?} {mv}");
                    match want {
                        Preview::Quiet { .. } => assert!(board.after_quiet(mv) == after, "{board:?} {mv}"),
                        Preview::Fires(end) => {
                            let (made, made_report) = board.after_fired(mv, end);
                            assert!(made == after && made_report == report, "{board:?} {mv}");
                        }
                        Preview::Unknown => {}
                    }
                    if matches!(mv.action(), Action::Shift { .. } | Action::Rotate { .. }) {
                        let touched = mv.touches(shot.path | board.king(us).bit());
                        seen[usize::from(shot.end != ShotEnd::Edge)][usize::from(touched)] += 1;
                    }
                }
            });
        }
        assert!(seen.iter().flatten().all(|&n| n > 1_000), "{seen:?}");
    }

    /// [`Board::generate_touching`] along random games under both rules, for the mover's beam and
    /// king and for single squares: its moves are [`Board::generate`]'s in the same order, and every
    /// one of those whose pieces' part changes a square of the set (2018 swaps included) is among them.
    #[test]
    fn the_moves_touching_squares_are_all_of_those_in_order() {
        let (mut kept, mut left) = (0, 0);
        for rules in [Rules::R2016, Rules::R2018] {
            random_games(rules, 0x70c4, 20, 100, |board| {
                let us = board.side_to_move();
                let mut all = Vec::new();
                board.generate(&mut all);
                let beam = board.shoot(us).path | board.king(us).bit();
                let corner = Square::new(0).bit();
                for squares in [beam, corner, board.king(us.flip()).bit(), 0] {
                    let mut near = Vec::new();
                    board.generate_touching(squares, &mut near);
                    let mut rest = all.iter();
                    for mv in &near {
                        assert!(rest.any(|m| m == mv), "{board:?} {mv} out of order or not a move");
                    }
                    for &mv in &all {
                        let mut moved = board.clone();
                        moved.move_pieces(mv);
                        if moved.differing(board) & squares != 0 {
                            assert!(
                                near.contains(&mv),
                                "{board:?} {mv} changes {squares:#x} but is left out"
                            );
                        }
                    }
                    kept += near.len();
                    left += all.len() - near.len();
                }
            });
        }
        assert!(kept > 10_000 && left > 10_000, "{kept} {left}");
    }
}
