//! FEN parsing and output: standard FEN, X-FEN and Shredder-FEN castling.
//!
//! Leniency policy (python-chess's where it is harmless): fields may be separated by any whitespace; the
//! two clock fields may be missing (half-move 0, full-move 1); a full-move number of 0 reads as 1;
//! castling letters may be `KQkq`, X-FEN (`K`/`Q` = outermost rook, or a file letter for an inner one)
//! or Shredder (`HAha`) in either mode; an en-passant square that is well placed but allows no legal
//! capture is accepted and dropped (so FEN output and keys are canonical). Everything else is an error
//! that names the field and quotes the input. Positions that cannot occur are rejected by `validate`.

use super::{position::Position, validate::validate};
use crate::{
    error::{FenError, FenField, PositionError},
    types::{CastlingSide, Color, File, Piece, PieceType, Rank, Square},
};

/// The standard starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Appends the piece-placement field of a FEN (rank 8 first, runs of empty squares as digits) for the
/// board `piece_on` describes: the one writer of that field, for positions and data records alike.
pub fn write_placement(out: &mut String, piece_on: impl Fn(Square) -> Option<Piece>) {
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match piece_on(Square::new(file, *rank)) {
                Some(piece) => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(piece.to_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if *rank != Rank::First {
            out.push('/');
        }
    }
}

impl Position {
    /// Parses a FEN (or a 4-field EPD position). With `chess960`, castling is king-takes-rook and any
    /// king/rook files may castle; without it, castling rights need the king on e1/e8 and rooks on the
    /// a- and h-files.
    ///
    /// ```
    /// use camelpy_core::Position;
    /// let pos = Position::from_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1", false).unwrap();
    /// assert_eq!(pos.fen(), "8/8/8/8/8/8/8/K1k5 w - - 0 1");
    /// let err = Position::from_fen("8/8/8/8/8/8/K1k5 w - - 0 1", false).unwrap_err();
    /// assert_eq!(err.to_string(), "expected 8 ranks, got 7 in position part of fen: '8/8/8/8/8/8/K1k5 w - - 0 1'");
    /// ```
    pub fn from_fen(fen: &str, chess960: bool) -> Result<Position, FenError> {
        let syntax =
            |field: FenField, reason: String| FenError::Syntax { field, reason, fen: fen.to_string() };
        let invalid = |error: PositionError| FenError::Invalid { error, fen: fen.to_string() };

        let fields: Vec<&str> = fen.split_whitespace().collect();
        match fields.len() {
            0 => return Err(syntax(FenField::Whole, "empty fen".into())),
            1..=3 => {
                return Err(syntax(
                    FenField::Whole,
                    format!(
                        "expected at least 4 fields (placement, turn, castling, en passant), got {}",
                        fields.len()
                    ),
                ))
            }
            4..=6 => {}
            n => return Err(syntax(FenField::Whole, format!("expected at most 6 fields, got {n}"))),
        }

        let mut pos = Position::empty(chess960);
        parse_placement(&mut pos, fields[0]).map_err(|reason| syntax(FenField::Placement, reason))?;

        pos.s.side_to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(syntax(
                    FenField::Turn,
                    format!("expected 'w' or 'b', got '{}'", crate::error::quote(other)),
                ))
            }
        };

        // Kings first: castling letters are read relative to the king.
        for color in Color::ALL {
            match pos.colored_pieces(color, PieceType::King).len() {
                0 => return Err(invalid(PositionError::MissingKing(color))),
                1 => {}
                _ => return Err(invalid(PositionError::TooManyKings(color))),
            }
        }
        parse_castling(&mut pos, fields[2]).map_err(|e| match e {
            CastlingProblem::Syntax(reason) => syntax(FenField::Castling, reason),
            CastlingProblem::Placement(why) => invalid(PositionError::BadCastling(why)),
        })?;

        let ep = match fields[3] {
            "-" => None,
            s => Some(Square::parse(s).ok_or_else(|| {
                syntax(
                    FenField::EnPassant,
                    format!("expected '-' or a square, got '{}'", crate::error::quote(s)),
                )
            })?),
        };

        pos.s.halfmove_clock = match fields.get(4) {
            None => 0,
            Some(s) => parse_counter(s).map_err(|reason| syntax(FenField::Halfmove, reason))?,
        };
        pos.s.fullmove_number = match fields.get(5) {
            None => 1,
            Some(s) => parse_counter(s).map_err(|reason| syntax(FenField::Fullmove, reason))?.max(1),
        };

        validate(&pos, ep).map_err(invalid)?;

        pos.init_castling_masks();
        pos.s.key = pos.compute_key();
        pos.update_check_info();
        if let Some(ep) = ep {
            pos.set_ep_if_capturable(ep);
        }
        pos.check_consistency();
        Ok(pos)
    }

    /// The FEN: castling as `KQkq` in standard chess and X-FEN in Chess960 (python-chess's `fen()`);
    /// the en-passant square only when a legal capture exists.
    pub fn fen(&self) -> String {
        self.fen_with(false)
    }

    /// The FEN with castling in Shredder notation (`HAha`) if `shredder`, else as [`Position::fen`].
    pub fn fen_with(&self, shredder: bool) -> String {
        let mut out = String::with_capacity(90);
        write_placement(&mut out, |sq| self.piece_on(sq));
        out.push(' ');
        out.push(self.s.side_to_move.fen_char());
        out.push(' ');
        out.push_str(&self.castling_fen(shredder));
        out.push(' ');
        match self.s.ep_square {
            Some(sq) => out.push_str(&sq.to_string()),
            None => out.push('-'),
        }
        out.push_str(&format!(" {} {}", self.s.halfmove_clock, self.s.fullmove_number));
        out
    }

    fn castling_fen(&self, shredder: bool) -> String {
        let mut out = String::new();
        for color in Color::ALL {
            let back = Rank::First.relative_to(color);
            let rooks = self.colored_pieces(color, PieceType::Rook) & crate::types::Bitboard::rank(back);
            for side in CastlingSide::ALL {
                let Some(file) = self.s.castling.get(color, side) else { continue };
                let outermost = match side {
                    CastlingSide::KingSide => { rooks }.all(|r| r.file() <= file),
                    CastlingSide::QueenSide => { rooks }.all(|r| r.file() >= file),
                };
                let c = if shredder || !outermost {
                    file.to_char()
                } else if side == CastlingSide::KingSide {
                    'k'
                } else {
                    'q'
                };
                out.push(if color == Color::White { c.to_ascii_uppercase() } else { c });
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }
}

fn parse_placement(pos: &mut Position, placement: &str) -> Result<(), String> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("expected 8 ranks, got {}", ranks.len()));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let mut file = 0usize;
        let mut previous_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|_| c.is_ascii_digit()) {
                if !(1..=8).contains(&d) {
                    return Err(format!("invalid digit '{c}' in rank {}", rank.to_char()));
                }
                if previous_digit {
                    return Err(format!("two consecutive digits in rank {}", rank.to_char()));
                }
                previous_digit = true;
                file += d as usize;
            } else if let Some(piece) = Piece::from_char(c).filter(|_| c.is_ascii_alphabetic()) {
                previous_digit = false;
                if file < 8 {
                    pos.put_piece(piece, Square::new(File::ALL[file], rank));
                }
                file += 1;
            } else {
                return Err(format!(
                    "invalid character '{}' in rank {}",
                    crate::error::quote(&c.to_string()),
                    rank.to_char()
                ));
            }
            if file > 8 {
                return Err(format!("more than 8 squares in rank {}", rank.to_char()));
            }
        }
        if file != 8 {
            return Err(format!("expected 8 squares in rank {}, got {file}", rank.to_char()));
        }
    }
    Ok(())
}

enum CastlingProblem {
    Syntax(String),
    Placement(String),
}

fn parse_castling(pos: &mut Position, text: &str) -> Result<(), CastlingProblem> {
    if text == "-" {
        return Ok(());
    }
    let mut seen_black = false;
    for c in text.chars() {
        if !c.is_ascii_alphabetic() {
            return Err(CastlingProblem::Syntax(format!(
                "invalid castling letter '{}'",
                crate::error::quote(&c.to_string())
            )));
        }
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        if color == Color::Black {
            seen_black = true;
        } else if seen_black {
            return Err(CastlingProblem::Syntax("white's castling rights must come before black's".into()));
        }
        let name = if color == Color::White { "white" } else { "black" };
        let back = Rank::First.relative_to(color);
        let king = pos.king(color);
        let rooks = pos.colored_pieces(color, PieceType::Rook) & crate::types::Bitboard::rank(back);
        let lower = c.to_ascii_lowercase();
        if king.rank() != back {
            return Err(CastlingProblem::Placement(format!(
                "'{c}' but the {name} king is not on its back rank"
            )));
        }
        let (side, file) = match lower {
            'k' => {
                let rook = rooks.filter(|r| r.file() > king.file()).last();
                let rook = rook.ok_or_else(|| {
                    CastlingProblem::Placement(format!(
                        "'{c}' but no {name} rook on the king side of the king"
                    ))
                })?;
                (CastlingSide::KingSide, rook.file())
            }
            'q' => {
                let rook = rooks.into_iter().find(|r| r.file() < king.file());
                let rook = rook.ok_or_else(|| {
                    CastlingProblem::Placement(format!(
                        "'{c}' but no {name} rook on the queen side of the king"
                    ))
                })?;
                (CastlingSide::QueenSide, rook.file())
            }
            'a'..='h' => {
                let file = File::from_char(lower).expect("a..h");
                if !rooks.has(Square::new(file, back)) {
                    return Err(CastlingProblem::Placement(format!(
                        "'{c}' but no {name} rook on {}{}",
                        lower,
                        back.to_char()
                    )));
                }
                if file == king.file() {
                    return Err(CastlingProblem::Placement(format!("'{c}' names the king's file")));
                }
                let side = if file > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                (side, file)
            }
            _ => return Err(CastlingProblem::Syntax(format!("invalid castling letter '{c}'"))),
        };
        if pos.s.castling.get(color, side).is_some() {
            return Err(CastlingProblem::Syntax(format!(
                "more than one {name} castling right on one side ('{c}')"
            )));
        }
        if !pos.chess960 && (king.file() != File::E || !matches!(file, File::A | File::H)) {
            return Err(CastlingProblem::Placement(format!(
                "'{c}' needs the king on e{0} and the rook on a{0} or h{0} in standard chess (is this Chess960?)",
                back.to_char()
            )));
        }
        pos.s.castling.set(color, side, Some(file));
    }
    Ok(())
}

/// A clock field: ASCII digits only, fitting in 32 bits.
fn parse_counter(s: &str) -> Result<u32, String> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a non-negative integer, got '{}'", crate::error::quote(s)));
    }
    s.parse::<u32>().map_err(|_| format!("number too large (over 32 bits): '{}'", crate::error::quote(s)))
}
