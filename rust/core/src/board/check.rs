//! Does a move give check? Answered from the board before the move, without making it: the search asks
//! it of the quiet moves it prunes (a pruned move that gives check is searched after all), most of
//! which would otherwise be made and taken back only to look at the other king. For many moves of one
//! position, [`CheckSquares`] holds what they share, so that each ordinary move costs two bit tests.

use super::position::{castling_destinations, Position};
use crate::{
    attacks::{
        between, bishop_attacks, bishop_rays, knight_attacks, line, pawn_attacks, rook_attacks, rook_rays,
    },
    types::{Bitboard, Move, MoveKind, PieceType, Square},
};

/// What the moves of the side to move need to give check, computed once for a position
/// ([`Position::check_squares`]) and used by [`Position::gives_check_with`] for each move.
#[derive(Debug, Clone, Copy)]
pub struct CheckSquares {
    /// The other side's king.
    king: Square,
    /// For each piece kind, the squares from which a piece of that kind would attack the king, with
    /// the board as it is.
    by_type: [Bitboard; 6],
    /// The side to move's pieces that alone stand between one of its sliders and the king: moving one
    /// off that line uncovers a check.
    discoverers: Bitboard,
}

impl Position {
    /// What the side to move's moves need to give check (see [`Position::gives_check_with`]).
    ///
    /// ```
    /// use camelpy_core::Position;
    /// let pos = Position::from_fen("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", false).unwrap();
    /// let checks = pos.check_squares();
    /// assert!(pos.gives_check_with(pos.parse_uci("e4c5").unwrap(), &checks)); // uncovers the rook
    /// assert!(pos.gives_check_with(pos.parse_uci("e4f6").unwrap(), &checks)); // and checks itself
    /// assert!(!pos.gives_check_with(pos.parse_uci("f1g2").unwrap(), &checks));
    /// ```
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.side_to_move();
        let king = self.king(us.flip());
        let occupied = self.occupied();
        let (bishop, rook) = (bishop_attacks(king, occupied), rook_attacks(king, occupied));
        let by_type = [
            pawn_attacks(us.flip(), king),
            knight_attacks(king),
            bishop,
            rook,
            bishop | rook,
            Bitboard::EMPTY,
        ];
        // The other king's blockers of our sliders: theirs are pinned, ours discover.
        let (_, blockers) = self.checkers_and_blockers(us.flip());
        CheckSquares { king, by_type, discoverers: blockers & self.colored(us) }
    }

    /// [`Position::gives_check`] with the position's [`CheckSquares`] (`checks`, from
    /// [`Position::check_squares`] of this position): an ordinary move checks if its piece lands on a
    /// checking square of its kind, or if it is a discoverer leaving its line. A slider cannot check
    /// through the square it leaves: in a legal position it did not attack the king from there, so
    /// whatever blocked that line still does. Promotions, en passant and castling take the general way.
    ///
    /// ```
    /// use camelpy_core::Position;
    /// let pos = Position::from_fen("4k3/8/8/8/2B1N3/8/8/4RK2 w - - 0 1", false).unwrap();
    /// let checks = pos.check_squares();
    /// for &mv in pos.legal_moves().iter() {
    ///     assert_eq!(pos.gives_check_with(mv, &checks), pos.gives_check(mv));
    /// }
    /// ```
    #[inline]
    pub fn gives_check_with(&self, mv: Move, checks: &CheckSquares) -> bool {
        if mv.kind() != MoveKind::Normal {
            return self.gives_check(mv);
        }
        let (from, to) = (mv.from(), mv.to());
        checks.by_type[self.piece_type_on_occupied(from) as usize].has(to)
            || (checks.discoverers.has(from) && !line(from, checks.king).has(to))
    }

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
