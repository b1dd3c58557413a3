//! A lean board for the solver: colour and type sets and the side to move, with the legal moves
//! forward and the quiet moves backward (retro-moves), on the core's attack tables.

use super::{
    index::{Layout, Sq},
    material::{Material, MAX_PIECES},
};
use crate::{
    attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks},
    types::{Bitboard, Color, PieceType, Square},
};

const PROMOTIONS: [PieceType; 4] = [PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight];

/// Pieces by colour and type, and the side to move (no castling; en passant handled by the caller).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TbBoard {
    pub color: [u64; 2],
    pub kind: [u64; 6],
    pub stm: Color,
}

/// One legal move's result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    /// The position after the move.
    pub board: TbBoard,
    /// A capture or promotion: the position belongs to another table.
    pub exit: bool,
    /// After a double step that the opponent can take en passant: the square it captures to.
    pub ep: Option<Sq>,
}

#[inline]
fn sq(s: Sq) -> Square {
    Square::ALL[usize::from(s)]
}

impl TbBoard {
    /// The board with `layout`'s pieces on `squares`.
    pub fn from_squares(layout: &Layout, squares: &[Sq], stm: Color) -> TbBoard {
        let mut board = TbBoard { color: [0; 2], kind: [0; 6], stm };
        for (&(color, pt), &s) in layout.pieces.iter().zip(squares) {
            board.color[color.index()] |= 1 << s;
            board.kind[pt.index()] |= 1 << s;
        }
        board
    }

    /// The pieces and side to move of `position` (castling and en passant are the caller's).
    pub fn of(position: &crate::Position) -> TbBoard {
        TbBoard {
            color: Color::ALL.map(|c| position.colored(c).0),
            kind: PieceType::ALL.map(|pt| position.pieces(pt).0),
            stm: position.side_to_move(),
        }
    }

    /// The squares of `layout`'s pieces (identical pieces in ascending order); the board must have
    /// exactly that material.
    pub fn squares(&self, layout: &Layout, out: &mut [Sq; MAX_PIECES]) {
        let mut i = 0;
        while i < layout.pieces.len() {
            let (color, pt) = layout.pieces[i];
            for s in Bitboard(self.color[color.index()] & self.kind[pt.index()]) {
                out[i] = s as Sq;
                i += 1;
            }
        }
    }

    /// The board's material.
    pub fn material(&self) -> Material {
        Material::from_counts(|c, pt| (self.color[c.index()] & self.kind[pt.index()]).count_ones())
    }

    /// The same position with the colours exchanged (and the board turned top to bottom).
    pub fn mirrored(&self) -> TbBoard {
        let flip = |b: u64| b.swap_bytes();
        TbBoard {
            color: [flip(self.color[1]), flip(self.color[0])],
            kind: self.kind.map(flip),
            stm: self.stm.flip(),
        }
    }

    #[inline]
    pub fn occupied(&self) -> u64 {
        self.color[0] | self.color[1]
    }

    #[inline]
    fn pieces(&self, color: Color, pt: PieceType) -> u64 {
        self.color[color.index()] & self.kind[pt.index()]
    }

    #[inline]
    fn king(&self, color: Color) -> Sq {
        self.pieces(color, PieceType::King).trailing_zeros() as Sq
    }

    fn kind_at(&self, s: Sq) -> Option<PieceType> {
        PieceType::ALL.into_iter().find(|pt| self.kind[pt.index()] >> s & 1 != 0)
    }

    /// True if a piece of `by` attacks `target`.
    pub fn attacked(&self, target: Sq, by: Color) -> bool {
        let t = sq(target);
        let occ = Bitboard(self.occupied());
        let them = self.color[by.index()];
        let diag = (self.kind[PieceType::Bishop.index()] | self.kind[PieceType::Queen.index()]) & them;
        let line = (self.kind[PieceType::Rook.index()] | self.kind[PieceType::Queen.index()]) & them;
        knight_attacks(t).0 & self.pieces(by, PieceType::Knight) != 0
            || king_attacks(t).0 & self.pieces(by, PieceType::King) != 0
            || pawn_attacks(by.flip(), t).0 & self.pieces(by, PieceType::Pawn) != 0
            || (diag != 0 && bishop_attacks(t, occ).0 & diag != 0)
            || (line != 0 && rook_attacks(t, occ).0 & line != 0)
    }

    /// True if `color`'s king is attacked.
    #[inline]
    pub fn in_check(&self, color: Color) -> bool {
        self.attacked(self.king(color), color.flip())
    }

    /// The board after the side to move plays `from`–`to` (promoting to `promotion`); `None` if it
    /// leaves its own king attacked.
    fn play(&self, from: Sq, to: Sq, pt: PieceType, promotion: Option<PieceType>) -> Option<TbBoard> {
        let us = self.stm;
        let mut b = *self;
        if let Some(captured) = self.kind_at(to) {
            b.kind[captured.index()] &= !(1 << to);
            b.color[us.flip().index()] &= !(1 << to);
        }
        b.kind[pt.index()] &= !(1 << from);
        b.kind[promotion.unwrap_or(pt).index()] |= 1 << to;
        b.color[us.index()] ^= (1 << from) | (1 << to);
        b.stm = us.flip();
        (!b.in_check(us)).then_some(b)
    }

    /// Calls `f` with every legal move's result (en passant aside: tables hold no en-passant rights)
    /// until it returns `false`; returns `false` if it was stopped so.
    pub fn moves(&self, mut f: impl FnMut(Child) -> bool) -> bool {
        let us = self.stm;
        let own = self.color[us.index()];
        let enemy = self.color[us.flip().index()];
        let occ = self.occupied();
        for pt in [PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen, PieceType::King] {
            for from in Bitboard(self.pieces(us, pt)) {
                let targets = match pt {
                    PieceType::Knight => knight_attacks(from),
                    PieceType::Bishop => bishop_attacks(from, Bitboard(occ)),
                    PieceType::Rook => rook_attacks(from, Bitboard(occ)),
                    PieceType::Queen => {
                        bishop_attacks(from, Bitboard(occ)) | rook_attacks(from, Bitboard(occ))
                    }
                    _ => king_attacks(from),
                };
                for to in Bitboard(targets.0 & !own) {
                    if let Some(board) = self.play(from as Sq, to as Sq, pt, None) {
                        if !f(Child { board, exit: enemy >> to as u8 & 1 != 0, ep: None }) {
                            return false;
                        }
                    }
                }
            }
        }
        let (step, last, second): (i8, u8, u8) = match us {
            Color::White => (8, 7, 1),
            Color::Black => (-8, 0, 6),
        };
        for from in Bitboard(self.pieces(us, PieceType::Pawn)) {
            let from = from as Sq;
            // At most a step, a double step and two captures.
            let mut targets = [(0 as Sq, false); 4];
            let mut count = 0;
            let one = (from as i8 + step) as Sq;
            if occ >> one & 1 == 0 {
                targets[count] = (one, false);
                count += 1;
                let two = (one as i8 + step) as Sq;
                if from >> 3 == second && occ >> two & 1 == 0 {
                    targets[count] = (two, true);
                    count += 1;
                }
            }
            for to in Bitboard(pawn_attacks(us, sq(from)).0 & enemy) {
                targets[count] = (to as Sq, false);
                count += 1;
            }
            for &(to, double) in &targets[..count] {
                let capture = enemy >> to & 1 != 0;
                if to >> 3 == last {
                    for promotion in PROMOTIONS {
                        if let Some(board) = self.play(from, to, PieceType::Pawn, Some(promotion)) {
                            if !f(Child { board, exit: true, ep: None }) {
                                return false;
                            }
                        }
                    }
                } else if let Some(board) = self.play(from, to, PieceType::Pawn, None) {
                    let ep = if double {
                        let passed = ((from as i8 + to as i8) / 2) as Sq;
                        (!board.ep_captures(passed).is_empty()).then_some(passed)
                    } else {
                        None
                    };
                    if !f(Child { board, exit: capture, ep }) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The positions after the side to move's legal en-passant captures onto `target` (the square a
    /// pawn of the other side has just passed over).
    pub fn ep_captures(&self, target: Sq) -> Vec<TbBoard> {
        let us = self.stm;
        let them = us.flip();
        let victim = match us {
            Color::White => target - 8,
            Color::Black => target + 8,
        };
        let mut out = Vec::new();
        for from in Bitboard(pawn_attacks(them, sq(target)).0 & self.pieces(us, PieceType::Pawn)) {
            let mut b = *self;
            b.kind[PieceType::Pawn.index()] &= !(1u64 << victim);
            b.color[them.index()] &= !(1u64 << victim);
            b.kind[PieceType::Pawn.index()] ^= (1u64 << from as u8) | (1u64 << target);
            b.color[us.index()] ^= (1u64 << from as u8) | (1u64 << target);
            b.stm = them;
            if !b.in_check(us) {
                out.push(b);
            }
        }
        out
    }

    /// Calls `f` with every position from which the side that just moved reached this one by a move
    /// that neither captured nor promoted, and in which the side to move here was not in check; the
    /// flag is true for a pawn's double step.
    pub fn unmoves(&self, mut f: impl FnMut(TbBoard, bool)) {
        let mover = self.stm.flip();
        let occ = self.occupied();
        for pt in PieceType::ALL {
            for to in Bitboard(self.pieces(mover, pt)) {
                let t = to as Sq;
                let mut froms: u64 = match pt {
                    PieceType::Knight => knight_attacks(to).0,
                    PieceType::Bishop => bishop_attacks(to, Bitboard(occ)).0,
                    PieceType::Rook => rook_attacks(to, Bitboard(occ)).0,
                    PieceType::Queen => {
                        (bishop_attacks(to, Bitboard(occ)) | rook_attacks(to, Bitboard(occ))).0
                    }
                    PieceType::King => king_attacks(to).0,
                    PieceType::Pawn => {
                        // One step back (never from the first rank), or two from the fourth rank.
                        let (one, first_rank, double_rank, two) = match mover {
                            Color::White => (t.wrapping_sub(8), 0, 3, t.wrapping_sub(16)),
                            Color::Black => (t + 8, 7, 4, t + 16),
                        };
                        let mut set = 0u64;
                        if one >> 3 != first_rank && occ >> one & 1 == 0 {
                            set |= 1 << one;
                            if t >> 3 == double_rank && occ >> two & 1 == 0 {
                                set |= 1 << two;
                            }
                        }
                        set
                    }
                };
                froms &= !occ;
                for from in Bitboard(froms) {
                    let mut b = *self;
                    b.kind[pt.index()] ^= (1 << t) | (1u64 << from as u8);
                    b.color[mover.index()] ^= (1 << t) | (1u64 << from as u8);
                    b.stm = mover;
                    if !b.in_check(mover.flip()) {
                        f(b, pt == PieceType::Pawn && (t as i8 - from as i8).abs() == 16);
                    }
                }
            }
        }
    }
}
