//! The end of the game: checkmate, stalemate, insufficient material, the 75-move rule and fivefold
//! repetition, with python-chess's definitions (`Board.is_game_over()` without claims).

use crate::{
    board::Position,
    types::{Bitboard, Color, PieceType},
};

/// Half-moves without capture or pawn move after which the game is drawn without a claim (FIDE 9.6.2).
pub const SEVENTY_FIVE_MOVE_PLIES: u32 = 150;

impl Position {
    /// The side to move is in check and has no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// The side to move is not in check and has no legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// `color` cannot checkmate by any sequence of legal moves, judged by material only (python-chess's
    /// `has_insufficient_material`, which also keeps the opponent's material that would allow a helpmate).
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.colored(color);
        let theirs = self.colored(color.flip());
        let pawns = self.pieces(PieceType::Pawn);
        let knights = self.pieces(PieceType::Knight);
        let bishops = self.pieces(PieceType::Bishop);
        if (ours & (pawns | self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen))).any() {
            return false;
        }
        if (ours & knights).any() {
            // A lone knight, against a bare king or queens only (anything else could allow a helpmate).
            return ours.len() <= 2
                && (theirs & !self.pieces(PieceType::King) & !self.pieces(PieceType::Queen)).is_empty();
        }
        if (ours & bishops).any() {
            // Bishops all on one colour of square, and no pawns or knights anywhere.
            let same_colour = (bishops & Bitboard::DARK).is_empty() || (bishops & Bitboard::LIGHT).is_empty();
            return same_colour && pawns.is_empty() && knights.is_empty();
        }
        true
    }

    /// Neither side can checkmate (material only).
    pub fn is_insufficient_material(&self) -> bool {
        Color::ALL.iter().all(|&c| self.has_insufficient_material(c))
    }

    /// 150 half-moves without capture or pawn move, and the game is not already over by checkmate.
    pub fn is_seventyfive_moves(&self) -> bool {
        self.s.halfmove_clock >= SEVENTY_FIVE_MOVE_PLIES && self.has_legal_moves()
    }

    /// The position has occurred at least five times (in the history this `Position` holds).
    pub fn is_fivefold_repetition(&self) -> bool {
        self.repetition_count() >= 5
    }

    /// The game is over without any claim: checkmate, stalemate, insufficient material, 75-move rule or
    /// fivefold repetition (python-chess's `is_game_over()`).
    pub fn is_game_over(&self) -> bool {
        !self.has_legal_moves()
            || self.is_insufficient_material()
            || self.s.halfmove_clock >= SEVENTY_FIVE_MOVE_PLIES
            || self.is_fivefold_repetition()
    }
}
