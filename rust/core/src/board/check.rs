//! Does a move give check? Answered from the board before the move, without making it: the search asks
//! it of the quiet moves it prunes (a pruned move that gives check is searched after all), most of
//! which would otherwise be made and taken back only to look at the other king.

use super::position::{castling_destinations, Position};
use crate::{
    attacks::{between, bishop_rays, knight_attacks, pawn_attacks, rook_rays},
    types::{Move, MoveKind, PieceType, Square},
};

impl Position {
    /// True if playing `mv` (a legal move) leaves the other side in check: what
    /// [`Position::is_check`] would say after [`Position::play_unchecked`], without playing it. Covers
    /// the moved (or promoted) piece's own check, discovered checks through the squares the move empties
    /// (the from-square, the pawn taken en passant, a castling king's and rook's squares) and the
    /// castling rook's check.
    ///
    /// ```
    /// use camelpy_core::Position;
    /// let pos = Position::from_fen("4k3/8/8/8/2B1N3/8/8/4RK2 w - - 0 1", false).unwrap();
    /// let gives_check = |uci| pos.gives_check(pos.parse_uci(uci).unwrap());
    /// assert!(gives_check("c4b5")); // the bishop's own check
    /// assert!(!gives_check("c4d5"));
    /// assert!(gives_check("e4c5")); // the knight uncovers the rook's
    /// assert!(!gives_check("f1g1"));
    /// ```
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let king = self.king(us.flip());
        let (from, to) = (mv.from(), mv.to());
        let mut occupied = self.occupied().without(from);
        // The piece that ends the move somewhere new and may check from there, and the squares our
        // sliders leave (they no longer attack from them).
        let mut vacated = from.bitboard();
        let (placed, square) = match mv.kind() {
            MoveKind::Normal => (self.piece_type_on_occupied(from), to),
            MoveKind::Promotion => (mv.promotion().unwrap_or(PieceType::Queen), to),
            MoveKind::EnPassant => {
                occupied = occupied.without(Square::new(to.file(), from.rank()));
                (PieceType::Pawn, to)
            }
            MoveKind::Castling => {
                // The king takes its own rook: both leave, the king's destination is filled too.
                let (king_to, rook_to) = castling_destinations(mv);
                occupied = occupied.without(to).with(king_to);
                vacated = vacated.with(to);
                (PieceType::Rook, rook_to)
            }
        };
        occupied = occupied.with(square);

        // A slider on one of the king's empty-board rays checks when nothing stands between them (the
        // table reads stand in for slider lookups: most moves are nowhere near the king's lines).
        let clear = |from: Square| (between(king, from) & occupied) == from.bitboard();
        let direct = match placed {
            PieceType::Pawn => pawn_attacks(us, square).has(king),
            PieceType::Knight => knight_attacks(square).has(king),
            PieceType::Bishop => bishop_rays(king).has(square) && clear(square),
            PieceType::Rook => rook_rays(king).has(square) && clear(square),
            PieceType::Queen => (bishop_rays(king) | rook_rays(king)).has(square) && clear(square),
            PieceType::King => false,
        };
        if direct {
            return true;
        }
        // Discovered: our other sliders on the king's rays, with the line now clear.
        let ours = self.colored(us) & !vacated;
        let queens = self.pieces(PieceType::Queen);
        let snipers = ((bishop_rays(king) & (self.pieces(PieceType::Bishop) | queens))
            | (rook_rays(king) & (self.pieces(PieceType::Rook) | queens)))
            & ours;
        Iterator::any(&mut snipers.into_iter(), clear)
    }
}
