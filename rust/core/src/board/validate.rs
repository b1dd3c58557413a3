//! Rejects positions that cannot occur, with python-chess's `Board.status()` rules: kings, pawn and
//! piece counts, pawns on the back ranks, the side not to move in check, more than two checkers, the
//! en-passant square (including a check that contradicts the double push it implies).
//!
//! One deliberate leniency: a double check that no move could give (two checkers on one line through
//! the king, python-chess's other `STATUS_IMPOSSIBLE_CHECK` case) is accepted, because the classic
//! perft suites contain such positions (`B6b/8/8/8/2K5/5k2/8/b6B b - -`) and the generator handles them.

use super::position::Position;
use crate::{
    error::PositionError,
    types::{Bitboard, Color, PieceType, Rank, Square},
};

/// Checks everything but the kings (checked earlier by the parser) and castling (checked while parsing).
/// `ep` is the en-passant square as written in the FEN.
pub(crate) fn validate(pos: &Position, ep: Option<Square>) -> Result<(), PositionError> {
    for color in Color::ALL {
        if pos.colored_pieces(color, PieceType::Pawn).len() > 8 {
            return Err(PositionError::TooManyPawns(color));
        }
        if pos.colored(color).len() > 16 {
            return Err(PositionError::TooManyPieces(color));
        }
    }
    if (pos.pieces(PieceType::Pawn) & Bitboard::BACK_RANKS).any() {
        return Err(PositionError::PawnOnBackRank);
    }

    let us = pos.s.side_to_move;
    let them = us.flip();
    let occupied = pos.occupied();
    if pos.is_attacked(pos.king(them), us, occupied) {
        return Err(PositionError::OppositeCheck);
    }

    // En passant: a pawn of the side that just moved stands in front of the square, which is empty,
    // as is the square the pawn came from.
    if let Some(ep) = ep {
        if ep.rank() != Rank::Sixth.relative_to(us) {
            return Err(PositionError::BadEnPassant(format!(
                "{ep} is not on the {} rank",
                if us == Color::White { "sixth" } else { "third" }
            )));
        }
        let pushed_to = Square::new(ep.file(), Rank::Fifth.relative_to(us));
        let pushed_from = Square::new(ep.file(), Rank::Seventh.relative_to(us));
        if !pos.colored_pieces(them, PieceType::Pawn).has(pushed_to) {
            return Err(PositionError::BadEnPassant(format!(
                "no pawn on {pushed_to} that could have just moved two squares"
            )));
        }
        if occupied.has(ep) || occupied.has(pushed_from) {
            return Err(PositionError::BadEnPassant(format!("{ep} or {pushed_from} is occupied")));
        }
    }

    let king = pos.king(us);
    let checkers = pos.attackers(king, them, occupied);
    if checkers.len() > 2 {
        return Err(PositionError::TooManyCheckers);
    }
    if checkers.any() {
        if let Some(ep) = ep {
            // After a double push, the only checks possible are by the pushed pawn or discovered by it.
            let pushed_to = Square::new(ep.file(), Rank::Fifth.relative_to(us));
            let pushed_from = Square::new(ep.file(), Rank::Seventh.relative_to(us));
            let before = (occupied.without(pushed_to)).with(pushed_from);
            let discovered = checkers.lsb() != pushed_to && pos.is_attacked(king, them, before);
            if checkers.len() > 1 || discovered {
                return Err(PositionError::ImpossibleCheck);
            }
        }
    }
    Ok(())
}
