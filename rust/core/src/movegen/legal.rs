//! Moves from outside the generator: the legality check for any 16-bit move, playing a move only if it
//! is legal, and reading a UCI move. They are `Position` methods, written here because they need the
//! legal-move generator: the board sits below the move generator, which only reads it.

use crate::{
    board::Position,
    error::MoveError,
    movegen::MoveList,
    types::{Move, PieceType, Square},
};

impl Position {
    /// True if `mv` is legal here. Accepts any 16-bit move, so it can vet moves from untrusted sources
    /// (a hash table, a user).
    pub fn is_legal(&self, mv: Move) -> bool {
        let from = mv.from();
        match self.piece_on(from) {
            Some(p) if p.color() == self.s.side_to_move => {}
            _ => return false,
        }
        self.legal_moves().contains(mv)
    }

    /// Plays `mv` if it is legal; otherwise returns an error and leaves the position unchanged.
    pub fn try_play(&mut self, mv: Move) -> Result<(), MoveError> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(MoveError::Illegal { uci: mv.to_uci(self.chess960), fen: self.fen() })
        }
    }

    /// Plays `mv`, panicking if it is illegal (for tests and examples; use [`Position::try_play`] otherwise).
    pub fn play(&mut self, mv: Move) {
        if let Err(e) = self.try_play(mv) {
            panic!("{e}");
        }
    }

    /// The legal moves (see [`crate::movegen`] for the generators by kind).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Parses a UCI move (`e2e4`, `e7e8q`; castling as `e1g1` or king-takes-rook `e1h1` in standard
    /// chess, king-takes-rook only in Chess960) and returns the legal move it names.
    pub fn parse_uci(&self, uci: &str) -> Result<Move, MoveError> {
        let invalid = || MoveError::Invalid { uci: uci.to_string() };
        let bytes = uci.as_bytes();
        if !(bytes.len() == 4 || bytes.len() == 5) || !uci.is_ascii() {
            return Err(invalid());
        }
        let from = Square::parse(&uci[0..2]).ok_or_else(invalid)?;
        let to = Square::parse(&uci[2..4]).ok_or_else(invalid)?;
        let promotion = match bytes.get(4) {
            None => None,
            Some(&c) => match PieceType::from_char(c as char) {
                Some(pt @ (PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen)) => {
                    Some(pt)
                }
                _ => return Err(invalid()),
            },
        };
        if from == to {
            return Err(invalid());
        }
        self.find_move(from, to, promotion)
            .ok_or_else(|| MoveError::Illegal { uci: uci.to_string(), fen: self.fen() })
    }

    /// The legal move from `from` to `to` (promoting to `promotion`), if there is one. Castling matches
    /// king-takes-rook, and in standard chess also the king's destination (`e1g1`).
    pub fn find_move(&self, from: Square, to: Square, promotion: Option<PieceType>) -> Option<Move> {
        if !self.colored(self.s.side_to_move).has(from) {
            return None;
        }
        self.match_move(&self.legal_moves(), from, to, promotion)
    }

    /// [`Position::find_move`] within `legal`, which must be this position's legal moves (for callers
    /// that already hold them).
    pub fn match_move(
        &self,
        legal: &[Move],
        from: Square,
        to: Square,
        promotion: Option<PieceType>,
    ) -> Option<Move> {
        legal.iter().copied().find(|&m| {
            m.from() == from
                && m.promotion() == promotion
                && (m.to() == to || (m.is_castling() && !self.chess960 && m.king_destination() == to))
        })
    }
}
