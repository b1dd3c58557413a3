//! Static exchange evaluation: does a capture sequence on one square win at least `threshold`?
//! (<https://www.chessprogramming.org/Static_Exchange_Evaluation>, the "swap" algorithm with x-rays.)
//! Used by the search to order captures and prune losing ones; the piece values here are SEE's own,
//! coarse on purpose, not the evaluation's.

use super::position::Position;
use crate::{
    attacks::{bishop_attacks, rook_attacks},
    types::{Move, MoveKind, PieceType, Value},
};

/// Exchange values by piece kind (pawn, knight, bishop, rook, queen, king): round numbers in the usual
/// 1 : 3 : 3 : 5 : 9 proportions, so that ordering decisions are stable; the king is never captured.
pub const SEE_VALUES: [Value; 6] = [100, 300, 300, 500, 900, 0];

impl Position {
    /// True if playing `mv` (a legal move) and then the best exchange sequence on its destination
    /// gains at least `threshold` centipawns for the side to move. Castling, en passant and promotions
    /// count as even trades (value 0).
    ///
    /// ```
    /// use camelpy_core::Position;
    /// // Rxe5 wins a pawn: the e5 pawn is defended by nothing.
    /// let pos = Position::from_fen("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", false).unwrap();
    /// let mv = pos.parse_uci("e1e5").unwrap();
    /// assert!(pos.see_ge(mv, 100) && !pos.see_ge(mv, 101));
    /// ```
    pub fn see_ge(&self, mv: Move, threshold: Value) -> bool {
        if mv.kind() != MoveKind::Normal {
            return 0 >= threshold;
        }
        let (from, to) = (mv.from(), mv.to());
        let captured = self.piece_on(to).map_or(0, |p| SEE_VALUES[p.piece_type() as usize]);
        let mut swap = captured - threshold;
        if swap < 0 {
            return false;
        }
        swap = SEE_VALUES[self.piece_type_on_occupied(from) as usize] - swap;
        if swap <= 0 {
            return true;
        }

        let mut occupied = self.occupied() ^ from.bitboard() ^ to.bitboard();
        let mut attackers = self.attackers_to(to, occupied);
        let diagonal = self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen);
        let orthogonal = self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen);
        let mut stm = self.side_to_move();
        let mut result = true;
        loop {
            stm = stm.flip();
            attackers &= occupied;
            let ours = attackers & self.colored(stm);
            if ours.is_empty() {
                break;
            }
            result = !result;
            // The least valuable attacker recaptures; removing it may uncover a slider behind it.
            let Some((pt, square)) =
                PieceType::ALL.into_iter().find_map(|pt| (ours & self.pieces(pt)).first().map(|sq| (pt, sq)))
            else {
                break;
            };
            if pt == PieceType::King {
                // The king may only take last: if the other side still attacks, the capture is illegal.
                return if (attackers & !self.colored(stm)).any() { !result } else { result };
            }
            swap = SEE_VALUES[pt as usize] - swap;
            if swap < result as Value {
                break;
            }
            occupied ^= square.bitboard();
            if matches!(pt, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
                attackers |= bishop_attacks(to, occupied) & diagonal;
            }
            if matches!(pt, PieceType::Rook | PieceType::Queen) {
                attackers |= rook_attacks(to, occupied) & orthogonal;
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use crate::{types::Value, Position};

    fn see_value(fen: &str, uci: &str) -> Value {
        let pos = Position::from_fen(fen, false).unwrap();
        let mv = pos.parse_uci(uci).unwrap();
        // The exact exchange value is the largest threshold that still passes.
        (-1000..=1000).rev().find(|&t| pos.see_ge(mv, t)).unwrap()
    }

    #[test]
    fn classic_exchanges() {
        // Undefended pawn.
        assert_eq!(see_value("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), 100);
        // Knight takes a pawn defended by a bishop and x-rayed by queen/rook: loses the knight for a pawn.
        assert_eq!(see_value("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5"), -200);
        // Pawn takes a defended knight: +300 - 100.
        assert_eq!(see_value("4k3/8/5p2/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5"), 200);
        // Queen takes a pawn defended by a pawn: loses the queen for a pawn.
        assert_eq!(see_value("4k3/8/5p2/4p3/8/8/8/4KQ2 w - - 0 1", "f1f5"), 0);
        assert_eq!(see_value("4k3/8/3p4/4p3/8/8/8/4K2Q w - - 0 1", "h1e4"), 0);
        // A quiet move to a safe square is even; to a square a pawn attacks, it loses the piece.
        assert_eq!(see_value("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d4"), 0);
        assert_eq!(see_value("4k3/8/2p5/8/8/8/8/3RK3 w - - 0 1", "d1d5"), -500);
        // Rook takes a rook defended by a rook, with our second rook behind (x-ray): +500 - 500 + 500.
        assert_eq!(see_value("3r3k/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 500);
        // ... and with the black king also defending, the last recapture evens it out.
        assert_eq!(see_value("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7"), 0);
        // The king recaptures only an undefended piece.
        assert_eq!(see_value("8/8/8/8/8/2k5/3p4/3RK3 w - - 0 1", "d1d2"), 100);
        assert_eq!(see_value("8/8/8/8/8/2k5/3p4/3R3K w - - 0 1", "d1d2"), -400);
    }
}
