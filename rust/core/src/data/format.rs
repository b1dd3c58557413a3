//! The data format of [`crate::data`] (byte tables in its module documentation): packing and unpacking
//! records, the header, a streaming reader, a writer that creates or resumes a file, and the text
//! export (`FEN | score | result`).
//!
//! Packing and unpacking are pure functions of a [`Record`]; the reader and writer add files. A record
//! is checked as it is unpacked (piece codes, reserved bits, score range, a well-formed move), so a
//! damaged file is reported by record index instead of producing nonsense; whether the position is
//! legal is checked when it is turned back into a [`Position`] ([`Record::position`]).

use std::{
    fs::{File as FsFile, OpenOptions},
    io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write},
    mem::{offset_of, size_of},
    path::Path,
    sync::atomic::{AtomicBool, Ordering},
};

use crate::{
    board::write_placement,
    data::DataError,
    error::FenError,
    types::{Color, File, Move, MoveKind, Piece, PieceType, Score, VALUE_MATE},
    Position,
};

/// The first eight bytes of every data file.
pub const MAGIC: [u8; 8] = *b"CAMELPYD";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u16 = 1;
/// Bytes in the header.
pub const HEADER_SIZE: usize = 32;
/// Bytes in a record.
pub const RECORD_SIZE: usize = 32;

/// The header's layout as a C struct of byte arrays: the offsets below come from it, and the asserts
/// check that it is exactly the table of the module documentation.
#[repr(C)]
#[allow(dead_code)] // only its layout is used
struct HeaderLayout {
    magic: [u8; 8],
    version: [u8; 2],
    record_size: [u8; 2],
    reserved: [u8; 4],
    seed: [u8; 8],
    settings_digest: [u8; 8],
}

/// The record's layout (see [`HeaderLayout`]).
#[repr(C)]
#[allow(dead_code)] // only its layout is used
struct RecordLayout {
    occupancy: [u8; 8],
    pieces: [u8; 16],
    castling: u8,
    flags: u8,
    clocks: [u8; 2],
    score: [u8; 2],
    best_move: [u8; 2],
}

const _: () = assert!(size_of::<HeaderLayout>() == HEADER_SIZE);
const _: () = assert!(size_of::<RecordLayout>() == RECORD_SIZE);
const _: () =
    assert!(offset_of!(HeaderLayout, seed) == 16 && offset_of!(HeaderLayout, settings_digest) == 24);
const _: () = assert!(offset_of!(RecordLayout, castling) == 24 && offset_of!(RecordLayout, best_move) == 30);

const H_VERSION: usize = offset_of!(HeaderLayout, version);
const H_RECORD_SIZE: usize = offset_of!(HeaderLayout, record_size);
const H_RESERVED: usize = offset_of!(HeaderLayout, reserved);
const H_SEED: usize = offset_of!(HeaderLayout, seed);
const H_DIGEST: usize = offset_of!(HeaderLayout, settings_digest);
const R_OCCUPANCY: usize = offset_of!(RecordLayout, occupancy);
const R_PIECES: usize = offset_of!(RecordLayout, pieces);
const R_CASTLING: usize = offset_of!(RecordLayout, castling);
const R_FLAGS: usize = offset_of!(RecordLayout, flags);
const R_CLOCKS: usize = offset_of!(RecordLayout, clocks);
const R_SCORE: usize = offset_of!(RecordLayout, score);
const R_MOVE: usize = offset_of!(RecordLayout, best_move);

/// Most pieces a record holds: 16 bytes of 4-bit codes (a legal position has at most 32).
const MAX_PIECES: u32 = 32;
/// Castling byte: the en-passant file's shift, and the bit saying there is an en-passant square.
const EP_FILE_SHIFT: u8 = 4;
const EP_VALID: u8 = 1 << 7;
/// Flags byte.
const FLAG_BLACK_TO_MOVE: u8 = 1;
const RESULT_SHIFT: u8 = 1;
const FLAG_LAST: u8 = 1 << 3;
const FLAG_IN_CHECK: u8 = 1 << 4;
const FLAG_NOISY: u8 = 1 << 5;
const FLAGS_RESERVED: u8 = 0b1100_0000;
/// Clocks: the halfmove clock's bits and the fullmove number's shift; both saturate.
const HALFMOVE_MAX: u32 = 127;
const FULLMOVE_SHIFT: u16 = 7;
const FULLMOVE_MAX: u32 = 511;
/// Centipawn scores are clamped to this, below every mate score (mates are `±(VALUE_MATE − plies)`,
/// and no mate is found more than a few hundred plies away).
pub const SCORE_CP_MAX: i16 = 30_000;

/// A game's result, from White's point of view; its number is the record's 2-bit result field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum GameResult {
    /// Black won.
    BlackWins = 0,
    /// A draw.
    Draw = 1,
    /// White won.
    WhiteWins = 2,
}

impl GameResult {
    /// Every result, in field order.
    pub const ALL: [GameResult; 3] = [GameResult::BlackWins, GameResult::Draw, GameResult::WhiteWins];

    /// The win of `color`.
    pub const fn win(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// White's score: 1.0, 0.5 or 0.0.
    pub const fn white_score(self) -> f32 {
        match self {
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
            GameResult::WhiteWins => 1.0,
        }
    }

    /// As the text export writes it: `1.0`, `0.5` or `0.0`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::BlackWins => "0.0",
            GameResult::Draw => "0.5",
            GameResult::WhiteWins => "1.0",
        }
    }
}

/// Why bytes do not decode into a record, or a position cannot be stored in one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for RecordError {}

fn bad(reason: impl Into<String>) -> RecordError {
    RecordError { reason: reason.into() }
}

/// A score as a record stores it (see the module documentation of [`crate::data`]): centipawns clamped
/// to ±[`SCORE_CP_MAX`], a mate `n` plies away as ±(32000 − n).
pub fn score_to_i16(score: Score) -> i16 {
    let mate = |plies: i32| (VALUE_MATE - plies.clamp(0, VALUE_MATE - i32::from(SCORE_CP_MAX) - 1)) as i16;
    match score {
        Score::Cp(cp) => cp.clamp(-i32::from(SCORE_CP_MAX), i32::from(SCORE_CP_MAX)) as i16,
        // A side that mates does so on an odd ply: mate in m moves is 2m − 1 plies.
        Score::Mate(m) if m > 0 => mate(2 * m - 1),
        // Being mated in m moves (m ≤ 0) happens 2|m| plies away.
        Score::Mate(m) => -mate(-2 * m),
    }
}

/// The inverse of [`score_to_i16`].
pub fn score_from_i16(v: i16) -> Score {
    let plies = VALUE_MATE - i32::from(v).abs();
    if v > SCORE_CP_MAX {
        Score::Mate((plies + 1) / 2)
    } else if v < -SCORE_CP_MAX {
        Score::Mate(-(plies / 2))
    } else {
        Score::Cp(i32::from(v))
    }
}

/// A piece's 4-bit code: the kind (pawn 0 … king 5), plus 8 for Black.
const fn piece_code(piece: Piece) -> u8 {
    (piece.color() as u8) << 3 | piece.piece_type() as u8
}

fn piece_from_code(code: u8) -> Option<Piece> {
    let kind = PieceType::try_index(usize::from(code & 7))?;
    (code & 7 < 6).then(|| Piece::new(if code & 8 == 0 { Color::White } else { Color::Black }, kind))
}

/// The best move is a capture (en passant included, castling not) or a promotion.
fn is_noisy(pos: &Position, mv: Move) -> bool {
    mv.promotion().is_some()
        || mv.kind() == MoveKind::EnPassant
        || (!mv.is_castling() && pos.colored(pos.side_to_move().flip()).has(mv.to()))
}

/// One position of a game with its search result and the game's result: a record, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    board: [Option<Piece>; 64],
    /// The side to move.
    pub side_to_move: Color,
    /// Castling rights, bits 0-3 = White O-O, White O-O-O, Black O-O, Black O-O-O.
    pub castling: u8,
    /// The en-passant file, when an en-passant capture is legal.
    pub ep_file: Option<File>,
    /// The halfmove clock, saturated at 127.
    pub halfmove_clock: u8,
    /// The fullmove number, saturated at 511.
    pub fullmove_number: u16,
    /// The search score from the side to move's view (encoding in [`score_to_i16`]).
    pub score: i16,
    /// The search's best move.
    pub best_move: Move,
    /// The game's result.
    pub result: GameResult,
    /// The last position of its game.
    pub last_of_game: bool,
    /// The side to move is in check.
    pub in_check: bool,
    /// The best move is a capture or a promotion.
    pub noisy: bool,
}

impl Record {
    /// The record of `pos` with its search result. `best_move` must be legal in `pos`.
    ///
    /// ```
    /// use camelpy_core::{data::{GameResult, Record}, Position};
    /// let pos = Position::startpos();
    /// let record = Record::from_position(&pos, 30, pos.parse_uci("e2e4")?, GameResult::Draw, true)?;
    /// let bytes = record.pack();
    /// assert_eq!(Record::unpack(&bytes)?, record);
    /// assert_eq!(record.text_line(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 30 | 0.5");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A Chess960 position: its castling rooks' files do not fit the four castling bits.
    pub fn from_position(
        pos: &Position,
        score: i16,
        best_move: Move,
        result: GameResult,
        last_of_game: bool,
    ) -> Result<Record, RecordError> {
        if pos.is_chess960() {
            return Err(bad("Chess960 positions cannot be stored (standard chess only)"));
        }
        let mut board = [None; 64];
        for sq in pos.occupied() {
            board[sq.index()] = pos.piece_on(sq);
        }
        Ok(Record {
            board,
            side_to_move: pos.side_to_move(),
            castling: pos.castling_rights().mask() as u8,
            ep_file: pos.ep_square().map(|sq| sq.file()),
            halfmove_clock: pos.halfmove_clock().min(HALFMOVE_MAX) as u8,
            fullmove_number: pos.fullmove_number().min(FULLMOVE_MAX) as u16,
            score,
            best_move,
            result,
            last_of_game,
            in_check: pos.is_check(),
            noisy: is_noisy(pos, best_move),
        })
    }

    /// The piece on each square (indexed by `Square::index`).
    pub fn board(&self) -> &[Option<Piece>; 64] {
        &self.board
    }

    /// The 32 bytes of the record.
    pub fn pack(&self) -> [u8; RECORD_SIZE] {
        let mut out = [0u8; RECORD_SIZE];
        let mut occupancy = 0u64;
        let mut k = 0;
        for (sq, piece) in self.board.iter().enumerate() {
            if let Some(piece) = *piece {
                occupancy |= 1 << sq;
                out[R_PIECES + k / 2] |= piece_code(piece) << (4 * (k % 2));
                k += 1;
            }
        }
        out[R_OCCUPANCY..R_OCCUPANCY + 8].copy_from_slice(&occupancy.to_le_bytes());
        out[R_CASTLING] =
            (self.castling & 0xF) | self.ep_file.map_or(0, |file| EP_VALID | (file as u8) << EP_FILE_SHIFT);
        out[R_FLAGS] = if self.side_to_move == Color::Black { FLAG_BLACK_TO_MOVE } else { 0 }
            | (self.result as u8) << RESULT_SHIFT
            | if self.last_of_game { FLAG_LAST } else { 0 }
            | if self.in_check { FLAG_IN_CHECK } else { 0 }
            | if self.noisy { FLAG_NOISY } else { 0 };
        let clocks = (u32::from(self.halfmove_clock).min(HALFMOVE_MAX) as u16)
            | (u32::from(self.fullmove_number).min(FULLMOVE_MAX) as u16) << FULLMOVE_SHIFT;
        out[R_CLOCKS..R_CLOCKS + 2].copy_from_slice(&clocks.to_le_bytes());
        out[R_SCORE..R_SCORE + 2].copy_from_slice(&self.score.to_le_bytes());
        out[R_MOVE..R_MOVE + 2].copy_from_slice(&self.best_move.raw().to_le_bytes());
        out
    }

    /// Decodes 32 bytes.
    ///
    /// # Errors
    /// More than 32 pieces, an unknown piece code, non-zero unused nibbles or reserved bits, a result
    /// of 3, a fullmove number of 0, a score beyond a mate, or a move that cannot be one (no move,
    /// from = to).
    pub fn unpack(bytes: &[u8; RECORD_SIZE]) -> Result<Record, RecordError> {
        let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
        let mut occupancy_bytes = [0u8; 8];
        occupancy_bytes.copy_from_slice(&bytes[R_OCCUPANCY..R_OCCUPANCY + 8]);
        let occupancy = u64::from_le_bytes(occupancy_bytes);
        let count = occupancy.count_ones();
        if count > MAX_PIECES {
            return Err(bad(format!("{count} occupied squares, at most {MAX_PIECES} fit")));
        }
        let mut board = [None; 64];
        let mut k = 0usize;
        for (sq, slot) in board.iter_mut().enumerate() {
            if occupancy >> sq & 1 != 0 {
                let code = bytes[R_PIECES + k / 2] >> (4 * (k % 2)) & 0xF;
                *slot = Some(piece_from_code(code).ok_or_else(|| bad(format!("bad piece code {code}")))?);
                k += 1;
            }
        }
        for unused in k..2 * 16 {
            if bytes[R_PIECES + unused / 2] >> (4 * (unused % 2)) & 0xF != 0 {
                return Err(bad("non-zero unused piece nibbles"));
            }
        }
        let castling = bytes[R_CASTLING];
        let ep_file = if castling & EP_VALID != 0 {
            Some(File::ALL[usize::from(castling >> EP_FILE_SHIFT & 7)])
        } else if castling >> EP_FILE_SHIFT != 0 {
            return Err(bad("an en-passant file without the en-passant bit"));
        } else {
            None
        };
        let flags = bytes[R_FLAGS];
        if flags & FLAGS_RESERVED != 0 {
            return Err(bad(format!("reserved flag bits set ({flags:#04x})")));
        }
        let result = match flags >> RESULT_SHIFT & 3 {
            0 => GameResult::BlackWins,
            1 => GameResult::Draw,
            2 => GameResult::WhiteWins,
            _ => return Err(bad("result field 3 (0, 1 and 2 are results)")),
        };
        let clocks = u16_at(R_CLOCKS);
        let fullmove_number = clocks >> FULLMOVE_SHIFT;
        if fullmove_number == 0 {
            return Err(bad("fullmove number 0"));
        }
        let score = i16::from_le_bytes([bytes[R_SCORE], bytes[R_SCORE + 1]]);
        if i32::from(score).abs() > VALUE_MATE {
            return Err(bad(format!("score {score} is beyond a mate (±{VALUE_MATE})")));
        }
        let raw = u16_at(R_MOVE);
        let best_move = Move::from_raw(raw)
            .filter(|m| m.from() != m.to())
            .ok_or_else(|| bad(format!("bad move {raw:#06x}")))?;
        Ok(Record {
            board,
            side_to_move: if flags & FLAG_BLACK_TO_MOVE != 0 { Color::Black } else { Color::White },
            castling: castling & 0xF,
            ep_file,
            halfmove_clock: (clocks & HALFMOVE_MAX as u16) as u8,
            fullmove_number,
            score,
            best_move,
            result,
            last_of_game: flags & FLAG_LAST != 0,
            in_check: flags & FLAG_IN_CHECK != 0,
            noisy: flags & FLAG_NOISY != 0,
        })
    }

    /// The position's FEN (with the clocks as stored, so saturated ones stay saturated).
    pub fn to_fen(&self) -> String {
        let mut fen = String::with_capacity(90);
        write_placement(&mut fen, |sq| self.board[sq.index()]);
        fen.push(' ');
        fen.push(self.side_to_move.fen_char());
        fen.push(' ');
        if self.castling & 0xF == 0 {
            fen.push('-');
        }
        for (bit, c) in ['K', 'Q', 'k', 'q'].into_iter().enumerate() {
            if self.castling >> bit & 1 != 0 {
                fen.push(c);
            }
        }
        fen.push(' ');
        match self.ep_file {
            Some(file) => {
                fen.push(file.to_char());
                fen.push(if self.side_to_move == Color::White { '6' } else { '3' });
            }
            None => fen.push('-'),
        }
        fen.push_str(&format!(" {} {}", self.halfmove_clock, self.fullmove_number));
        fen
    }

    /// The position, checked for legality.
    ///
    /// # Errors
    /// A record whose position cannot occur (from a damaged or foreign file).
    pub fn position(&self) -> Result<Position, FenError> {
        Position::from_fen(&self.to_fen(), false)
    }

    /// The score as a [`Score`] (centipawns or mate in moves).
    pub fn pov_score(&self) -> Score {
        score_from_i16(self.score)
    }

    /// The best move in UCI (standard castling, `e1g1`).
    pub fn best_move_uci(&self) -> String {
        self.best_move.to_uci(false)
    }

    /// The text export's line: `FEN | score | result`, the score from the side to move's view as
    /// stored, the result from White's (`1.0`, `0.5`, `0.0`).
    pub fn text_line(&self) -> String {
        format!("{} | {} | {}", self.to_fen(), self.score, self.result.as_str())
    }
}

/// A data file's header: what generated the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The generation seed.
    pub seed: u64,
    /// The digest of the generation settings ([`crate::data::Datagen::digest`]).
    pub settings_digest: u64,
}

impl Header {
    /// The 32 bytes of the header.
    pub fn to_bytes(self) -> [u8; HEADER_SIZE] {
        let mut out = [0u8; HEADER_SIZE];
        out[..8].copy_from_slice(&MAGIC);
        out[H_VERSION..H_VERSION + 2].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        out[H_RECORD_SIZE..H_RECORD_SIZE + 2].copy_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
        out[H_SEED..H_SEED + 8].copy_from_slice(&self.seed.to_le_bytes());
        out[H_DIGEST..H_DIGEST + 8].copy_from_slice(&self.settings_digest.to_le_bytes());
        out
    }

    /// Decodes the header of the file at `path` (named in errors).
    ///
    /// # Errors
    /// Not the magic, another version or record size, or a non-zero reserved field.
    pub fn from_bytes(bytes: &[u8; HEADER_SIZE], path: &str) -> Result<Header, DataError> {
        let path = || path.to_string();
        let u64_at = |at: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(b)
        };
        if bytes[..8] != MAGIC {
            return Err(DataError::NotDataFile { path: path() });
        }
        let version = u16::from_le_bytes([bytes[H_VERSION], bytes[H_VERSION + 1]]);
        if version != FORMAT_VERSION {
            return Err(DataError::Version { path: path(), found: version });
        }
        let record_size = u16::from_le_bytes([bytes[H_RECORD_SIZE], bytes[H_RECORD_SIZE + 1]]);
        if usize::from(record_size) != RECORD_SIZE {
            let reason = format!("record size {record_size}, version {FORMAT_VERSION} has {RECORD_SIZE}");
            return Err(DataError::BadHeader { path: path(), reason });
        }
        if bytes[H_RESERVED..H_RESERVED + 4] != [0; 4] {
            return Err(DataError::BadHeader { path: path(), reason: "non-zero reserved field".into() });
        }
        Ok(Header { seed: u64_at(H_SEED), settings_digest: u64_at(H_DIGEST) })
    }
}

fn io_error<'a>(path: &'a str, action: &'static str) -> impl FnOnce(io::Error) -> DataError + 'a {
    move |error| DataError::Io { path: path.to_string(), action, error }
}

/// Reads exactly `buf.len()` bytes; `Ok(0)` at the end of the input, `Ok(n)` with `n` short of the
/// length when the input ends inside.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// A streaming reader of a data file: the header, then records one at a time (also an iterator).
///
/// ```no_run
/// use camelpy_core::data::RecordReader;
/// let mut reader = RecordReader::open("games.bin".as_ref())?;
/// println!("seed {}", reader.header().seed);
/// for record in reader {
///     println!("{}", record?.text_line());
/// }
/// # Ok::<(), camelpy_core::data::DataError>(())
/// ```
pub struct RecordReader<R> {
    input: R,
    path: String,
    header: Header,
    next: u64,
}

impl RecordReader<BufReader<FsFile>> {
    /// Opens the regular file at `path` ([`crate::fsio::open_regular`]: a FIFO or a device is
    /// refused unopened) and reads its header; records are read one at a time after it.
    ///
    /// # Errors
    /// The file cannot be opened or read, or its header is not a version-1 data file's.
    pub fn open(path: &Path) -> Result<RecordReader<BufReader<FsFile>>, DataError> {
        let name = path.display().to_string();
        let (file, _) = crate::fsio::open_regular(path).map_err(io_error(&name, "open"))?;
        RecordReader::new(BufReader::with_capacity(1 << 16, file), &name)
    }
}

impl<R: Read> RecordReader<R> {
    /// Reads the header from `input`; `path` names the input in errors.
    ///
    /// # Errors
    /// As [`RecordReader::open`].
    pub fn new(mut input: R, path: &str) -> Result<RecordReader<R>, DataError> {
        let mut bytes = [0u8; HEADER_SIZE];
        let got = read_full(&mut input, &mut bytes).map_err(io_error(path, "read"))?;
        if got < HEADER_SIZE {
            return Err(DataError::TruncatedHeader { path: path.to_string(), len: got as u64 });
        }
        let header = Header::from_bytes(&bytes, path)?;
        Ok(RecordReader { input, path: path.to_string(), header, next: 0 })
    }

    /// The file's header.
    pub fn header(&self) -> Header {
        self.header
    }

    /// The index of the record the next read returns.
    pub fn next_index(&self) -> u64 {
        self.next
    }

    /// The next record's bytes, or `None` at the end of the file.
    ///
    /// # Errors
    /// A read error, or a file that ends inside a record.
    pub fn read_raw(&mut self) -> Result<Option<[u8; RECORD_SIZE]>, DataError> {
        let mut bytes = [0u8; RECORD_SIZE];
        match read_full(&mut self.input, &mut bytes).map_err(io_error(&self.path, "read"))? {
            0 => Ok(None),
            RECORD_SIZE => {
                self.next += 1;
                Ok(Some(bytes))
            }
            n => Err(DataError::PartialRecord { path: self.path.clone(), bytes: n as u64 }),
        }
    }

    /// The next record, or `None` at the end of the file.
    ///
    /// # Errors
    /// As [`RecordReader::read_raw`], or a record that does not decode.
    pub fn read_record(&mut self) -> Result<Option<Record>, DataError> {
        let index = self.next;
        match self.read_raw()? {
            None => Ok(None),
            Some(bytes) => Record::unpack(&bytes).map(Some).map_err(|e| DataError::BadRecord {
                path: self.path.clone(),
                index,
                reason: e.reason,
            }),
        }
    }
}

impl<R: Read + Seek> RecordReader<R> {
    /// Moves to record `index` (past the end: the next read finds the end of the file).
    ///
    /// # Errors
    /// The input cannot seek.
    pub fn seek(&mut self, index: u64) -> Result<(), DataError> {
        let offset = index.saturating_mul(RECORD_SIZE as u64).saturating_add(HEADER_SIZE as u64);
        self.input.seek(SeekFrom::Start(offset)).map_err(io_error(&self.path, "seek in"))?;
        self.next = index;
        Ok(())
    }
}

impl<R: Read> Iterator for RecordReader<R> {
    type Item = Result<Record, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_record().transpose()
    }
}

/// What [`data_info`] finds in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataInfo {
    /// The header.
    pub header: Header,
    /// Whole records in the file.
    pub records: u64,
}

/// The header and record count of the data file at `path`, from its length (no record is read).
///
/// # Errors
/// As [`RecordReader::open`], or a file that ends inside a record.
pub fn data_info(path: &Path) -> Result<DataInfo, DataError> {
    let reader = RecordReader::open(path)?;
    let name = path.display().to_string();
    let len = reader.input.get_ref().metadata().map_err(io_error(&name, "read"))?.len();
    let body = len - HEADER_SIZE as u64;
    if !body.is_multiple_of(RECORD_SIZE as u64) {
        return Err(DataError::PartialRecord { path: name, bytes: body % RECORD_SIZE as u64 });
    }
    Ok(DataInfo { header: reader.header, records: body / RECORD_SIZE as u64 })
}

/// Writes whole games to a data file, creating it or resuming it ([`RecordWriter::open`]).
pub struct RecordWriter {
    output: BufWriter<FsFile>,
    path: String,
    games: u64,
    records: u64,
}

impl RecordWriter {
    /// Opens `path` for writing games generated under `header`:
    /// - a missing or empty file is created with the header;
    /// - an existing data file must have the same seed and settings digest (errors name what
    ///   differs); records after its last game's last position (a game cut short) are truncated, and
    ///   writing continues after its last whole game.
    ///
    /// # Errors
    /// The file cannot be opened, read, truncated or written; it is not a data file of this version;
    /// its seed or settings differ.
    pub fn open(path: &Path, header: Header) -> Result<RecordWriter, DataError> {
        let name = path.display().to_string();
        crate::fsio::check_regular_or_missing(path).map_err(io_error(&name, "open"))?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io_error(&name, "open"))?;
        let len = file.metadata().map_err(io_error(&name, "read"))?.len();
        let (mut games, mut records) = (0, 0);
        if len == 0 {
            file.write_all(&header.to_bytes()).map_err(io_error(&name, "write"))?;
        } else {
            let mut reader = RecordReader::new(BufReader::with_capacity(1 << 16, &mut file), &name)?;
            let found = reader.header();
            if found.seed != header.seed {
                return Err(DataError::SeedMismatch { path: name, file: found.seed, given: header.seed });
            }
            if found.settings_digest != header.settings_digest {
                return Err(DataError::SettingsMismatch {
                    path: name,
                    file: found.settings_digest,
                    given: header.settings_digest,
                });
            }
            // Count whole games: records up to and including the last one flagged as a game's last.
            let mut seen = 0u64;
            loop {
                let mut bytes = [0u8; RECORD_SIZE];
                let got = read_full(&mut reader.input, &mut bytes).map_err(io_error(&name, "read"))?;
                if got < RECORD_SIZE {
                    break; // the end, or a record cut short: dropped with its game
                }
                seen += 1;
                if bytes[R_FLAGS] & FLAG_LAST != 0 {
                    games += 1;
                    records = seen;
                }
            }
            let keep = HEADER_SIZE as u64 + records * RECORD_SIZE as u64;
            if keep < len {
                file.set_len(keep).map_err(io_error(&name, "truncate"))?;
            }
            file.seek(SeekFrom::Start(keep)).map_err(io_error(&name, "seek in"))?;
        }
        Ok(RecordWriter { output: BufWriter::with_capacity(1 << 16, file), path: name, games, records })
    }

    /// Appends one game's records (its last one flagged) and flushes, so that what is on disk is
    /// always whole games (a crash mid-write leaves a partial game that [`RecordWriter::open`] drops).
    ///
    /// # Errors
    /// The write fails (a full disk).
    pub fn write_game(&mut self, records: &[Record]) -> Result<(), DataError> {
        for record in records {
            self.output.write_all(&record.pack()).map_err(io_error(&self.path, "write"))?;
        }
        self.output.flush().map_err(io_error(&self.path, "write"))?;
        self.games += 1;
        self.records += records.len() as u64;
        Ok(())
    }

    /// Appends whole games given as packed records, as a file stores them after its header (each
    /// game's records in order, its last one flagged): games played elsewhere, such as a cluster's
    /// shards of [`crate::data::Datagen::play_games`]. Every record is decoded first, and nothing is
    /// written unless the bytes are whole games. Returns the number of games appended.
    ///
    /// # Errors
    /// [`DataError::BadGames`] for bytes that are not whole records, a record that does not decode or
    /// records after the last game's end (nothing is written); a failed write.
    pub fn write_packed(&mut self, bytes: &[u8]) -> Result<u64, DataError> {
        let bad = |reason: String| DataError::BadGames { path: self.path.clone(), reason };
        if !bytes.len().is_multiple_of(RECORD_SIZE) {
            return Err(bad(format!(
                "{} bytes are not a whole number of {RECORD_SIZE}-byte records",
                bytes.len()
            )));
        }
        let mut games = 0u64;
        let mut open_game = false;
        for (index, chunk) in bytes.chunks_exact(RECORD_SIZE).enumerate() {
            let record: &[u8; RECORD_SIZE] = chunk.try_into().expect("chunks_exact gives whole records");
            Record::unpack(record).map_err(|e| bad(format!("record {index}: {e}")))?;
            open_game = record[R_FLAGS] & FLAG_LAST == 0;
            games += u64::from(!open_game);
        }
        if open_game {
            return Err(bad("the last record does not end its game".into()));
        }
        self.output.write_all(bytes).map_err(io_error(&self.path, "write"))?;
        self.output.flush().map_err(io_error(&self.path, "write"))?;
        self.games += games;
        self.records += (bytes.len() / RECORD_SIZE) as u64;
        Ok(games)
    }

    /// Whole games in the file.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Records in the file.
    pub fn records(&self) -> u64 {
        self.records
    }
}

/// Writes the text export of the data file `input` to `output`: one line per record, `FEN | score |
/// result` ([`Record::text_line`]). Returns the number of lines. Raising `stop` ends the export early
/// (what is written so far stays, whole lines).
///
/// # Errors
/// Either file cannot be opened, read or written, or a record does not decode.
pub fn export_text(input: &Path, output: &Path, stop: &AtomicBool) -> Result<u64, DataError> {
    let mut reader = RecordReader::open(input)?;
    let name = output.display().to_string();
    crate::fsio::check_regular_or_missing(output).map_err(io_error(&name, "create"))?;
    let file = FsFile::create(output).map_err(io_error(&name, "create"))?;
    let mut out = BufWriter::with_capacity(1 << 16, file);
    let mut lines = 0u64;
    while let Some(record) = reader.read_record()? {
        writeln!(out, "{}", record.text_line()).map_err(io_error(&name, "write"))?;
        lines += 1;
        if lines.is_multiple_of(4096) && stop.load(Ordering::Relaxed) {
            break;
        }
    }
    out.flush().map_err(io_error(&name, "write"))?;
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{hash::SplitMix64, types::Square};

    /// A record of `pos` with an arbitrary legal move, score and flags drawn from `rng`.
    fn record_of(pos: &Position, rng: &mut SplitMix64) -> Option<Record> {
        let moves = pos.legal_moves();
        let mv = *moves.get(rng.below(moves.len().max(1)))?;
        let score = match rng.below(4) {
            0 => score_to_i16(Score::Mate(rng.below(40) as i32 - 20)),
            _ => ((rng.next_u64() % 60_001) as i32 - 30_000) as i16,
        };
        let result = GameResult::ALL[rng.below(3)];
        Some(Record::from_position(pos, score, mv, result, rng.below(2) == 1).unwrap())
    }

    /// FEN → record → bytes → record → FEN: the same FEN up to the saturated clocks, the same record.
    fn round_trip(pos: &Position, rng: &mut SplitMix64) {
        let Some(record) = record_of(pos, rng) else { return };
        let bytes = record.pack();
        let back = Record::unpack(&bytes).unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
        assert_eq!(back, record, "{}", pos.fen());
        assert_eq!(back.pack(), bytes);
        let fen = pos.fen();
        let fields: Vec<&str> = fen.split(' ').collect();
        let halfmove = fields[4].parse::<u32>().unwrap().min(127);
        let fullmove = fields[5].parse::<u32>().unwrap().min(511);
        let expected = format!("{} {halfmove} {fullmove}", fields[..4].join(" "));
        assert_eq!(back.to_fen(), expected);
        let again = back.position().unwrap();
        assert_eq!(again.fen(), expected);
        assert!(again.is_legal(back.best_move), "{fen}: {}", back.best_move_uci());
        assert_eq!(back.in_check, pos.is_check());
    }

    #[test]
    fn round_trip_on_every_perft_suite_position() {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../perft_suites/standard.epd"))
                .unwrap();
        let mut rng = SplitMix64::new(1);
        let suite = crate::perft::parse_suite(&text).unwrap();
        assert!(suite.len() > 100);
        for line in suite {
            let pos = Position::from_fen(&line.fen, false).unwrap();
            for _ in 0..8 {
                round_trip(&pos, &mut rng);
            }
        }
    }

    #[test]
    fn round_trip_on_random_playouts() {
        let mut rng = SplitMix64::new(2);
        let mut positions = 0;
        for _ in 0..200 {
            let mut pos = Position::startpos();
            for _ in 0..300 {
                round_trip(&pos, &mut rng);
                positions += 1;
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[rng.below(moves.len())]);
            }
        }
        assert!(positions > 20_000);
    }

    #[test]
    fn clocks_saturate() {
        let pos = Position::from_fen("8/8/8/4k3/8/8/3K4/7R w - - 200 900", false).unwrap();
        let mv = pos.parse_uci("h1h8").unwrap();
        let record = Record::from_position(&pos, 0, mv, GameResult::Draw, false).unwrap();
        let back = Record::unpack(&record.pack()).unwrap();
        assert_eq!((back.halfmove_clock, back.fullmove_number), (127, 511));
        assert_eq!(back.to_fen(), "8/8/8/4k3/8/8/3K4/7R w - - 127 511");
    }

    #[test]
    fn the_byte_layout_is_the_documented_one() {
        // After 1. e4 c5 2. e5 d5: White to move, en passant on d6 possible.
        let pos = Position::from_fen("rnbqkbnr/pp2pppp/8/2ppP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", false)
            .unwrap();
        let mv = pos.parse_uci("e5d6").unwrap();
        let record = Record::from_position(&pos, -45, mv, GameResult::WhiteWins, true).unwrap();
        let b = record.pack();
        assert_eq!(u64::from_le_bytes(b[0..8].try_into().unwrap()), pos.occupied().0);
        // a1 rook (3) then b1 knight (1): low nibble first.
        assert_eq!(b[8], 0x13);
        assert_eq!(b[24], 0b1000_1111 | 3 << 4, "all castling rights, en passant on the d-file");
        assert_eq!(b[25], (2 << 1) | FLAG_LAST | FLAG_NOISY, "White to move, White won, last, en passant");
        assert_eq!(u16::from_le_bytes([b[26], b[27]]), 3 << 7);
        assert_eq!(i16::from_le_bytes([b[28], b[29]]), -45);
        assert_eq!(u16::from_le_bytes([b[30], b[31]]), mv.raw());
        assert_eq!(Record::unpack(&b).unwrap().text_line(), format!("{} | -45 | 1.0", pos.fen()));
    }

    #[test]
    fn scores_and_mates() {
        for (score, stored) in [
            (Score::Cp(35), 35),
            (Score::Cp(-99_999), -30_000),
            (Score::Mate(1), 31_999),
            (Score::Mate(3), 31_995),
            (Score::Mate(-2), -31_996),
            (Score::Mate(0), -32_000),
        ] {
            assert_eq!(score_to_i16(score), stored, "{score:?}");
            if !matches!(score, Score::Cp(cp) if cp.abs() > 30_000) {
                assert_eq!(score_from_i16(stored), score);
            }
        }
    }

    #[test]
    fn damaged_records_are_refused() {
        let pos = Position::startpos();
        let record =
            Record::from_position(&pos, 0, pos.parse_uci("g1f3").unwrap(), GameResult::Draw, false).unwrap();
        let good = record.pack();
        let damage = |at: usize, value: u8| {
            let mut b = good;
            b[at] = value;
            Record::unpack(&b).unwrap_err().reason
        };
        assert!(damage(R_PIECES, 0x7F).contains("piece code"));
        assert!(damage(R_FLAGS, 3 << RESULT_SHIFT).contains("result field 3"));
        assert!(damage(R_FLAGS, 0x40).contains("reserved"));
        assert!(damage(R_CASTLING, 0x30).contains("en-passant"));
        for raw in [0u16, 1 | 1 << 6] {
            let mut b = good;
            b[R_MOVE..R_MOVE + 2].copy_from_slice(&raw.to_le_bytes());
            assert!(Record::unpack(&b).unwrap_err().reason.contains("bad move"), "{raw}");
        }
        let mut b = good;
        b[R_OCCUPANCY..R_OCCUPANCY + 8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(Record::unpack(&b).unwrap_err().reason.contains("64 occupied squares"));
        assert!(Record::from_position(
            &Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true)
                .unwrap(),
            0,
            Move::new(Square::A2, Square::A3),
            GameResult::Draw,
            false
        )
        .is_err());
    }

    #[test]
    fn headers() {
        let header = Header { seed: 42, settings_digest: 0xDEAD_BEEF };
        let bytes = header.to_bytes();
        assert_eq!(&bytes[..8], b"CAMELPYD");
        assert_eq!(Header::from_bytes(&bytes, "f").unwrap(), header);
        let mut other = bytes;
        other[8] = 2;
        assert_eq!(
            Header::from_bytes(&other, "f").unwrap_err().to_string(),
            "'f' has data format version 2; this camelpy reads version 1"
        );
        let mut other = bytes;
        other[0] = b'X';
        assert!(Header::from_bytes(&other, "f").unwrap_err().to_string().contains("not a camelpy data file"));
        let mut other = bytes;
        other[10] = 40;
        assert!(Header::from_bytes(&other, "f").unwrap_err().to_string().contains("record size 40"));
    }
}
