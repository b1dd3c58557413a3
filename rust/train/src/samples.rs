//! Training positions in memory: data files of `camelpy datagen` read once (through the core's record
//! reader, which checks every record), filtered, split into training and validation sets by game, and
//! packed into 32-byte [`Sample`]s (100 million positions take 3.2 GB).

use std::{
    path::PathBuf,
    sync::atomic::{AtomicBool, Ordering},
};

use camelpy_core::{
    data::{format::SCORE_CP_MAX, GameResult, Record, RecordReader, SplitMix64},
    error::AllocError,
    types::{Color, Piece, Square},
};

use crate::TrainError;

/// One position: its pieces, the side to move, the search score and the game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    occupancy: u64,
    /// Piece indices (`Piece::index`, 0–11), 4 bits each, for the occupied squares in ascending order.
    codes: [u8; 16],
    /// The search score in centipawns from the side to move's view (mates clamped).
    pub score: i16,
    /// Black to move.
    black_to_move: bool,
    /// The side to move's game score: 0 (lost), 1 (draw), 2 (won).
    stm_result: u8,
}

impl Sample {
    /// The sample of a record, its score clamped to ±`max_score`.
    pub fn from_record(record: &Record, max_score: i16) -> Sample {
        let mut occupancy = 0u64;
        let mut codes = [0u8; 16];
        let mut k = 0;
        for (sq, piece) in record.board().iter().enumerate() {
            if let Some(piece) = piece {
                occupancy |= 1 << sq;
                codes[k / 2] |= (piece.index() as u8) << (4 * (k % 2));
                k += 1;
            }
        }
        let white = match record.result {
            GameResult::BlackWins => 0,
            GameResult::Draw => 1,
            GameResult::WhiteWins => 2,
        };
        let black_to_move = record.side_to_move == Color::Black;
        Sample {
            occupancy,
            codes,
            score: record.score.clamp(-max_score, max_score),
            black_to_move,
            stm_result: if black_to_move { 2 - white } else { white },
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        if self.black_to_move {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The game's result for the side to move: 1.0, 0.5 or 0.0.
    pub fn result(&self) -> f32 {
        self.stm_result as f32 / 2.0
    }

    /// The pieces, square by square.
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        let mut occ = self.occupancy;
        let mut k = 0;
        std::iter::from_fn(move || {
            if occ == 0 {
                return None;
            }
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let code = (self.codes[k / 2] >> (4 * (k % 2))) & 0xf;
            k += 1;
            Some((Piece::ALL[code as usize], Square::ALL[sq]))
        })
    }
}

/// Which positions of the data files to train on, and how to split them.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadSettings {
    /// Drop positions whose side to move is in check (no quiet evaluation there).
    pub skip_in_check: bool,
    /// Drop positions whose best move is a capture or a promotion (the score is about to swing).
    pub skip_noisy: bool,
    /// Scores (and mates) are clamped to ± this many centipawns.
    pub max_score: i16,
    /// Per mille of the games held out for validation.
    pub valid_permille: u32,
    /// Seed of the validation split.
    pub seed: u64,
    /// Stop reading after this many kept positions.
    pub max_positions: Option<u64>,
}

impl Default for LoadSettings {
    fn default() -> Self {
        LoadSettings {
            skip_in_check: true,
            skip_noisy: true,
            max_score: DEFAULT_MAX_SCORE,
            valid_permille: DEFAULT_VALID_PERMILLE,
            seed: 0,
            max_positions: None,
        }
    }
}

/// Default score clamp: beyond ±30 pawns every target is a certain win or loss anyway.
pub const DEFAULT_MAX_SCORE: i16 = 3_000;
/// Default validation share: 2 % of the games, enough for a loss accurate to the fourth digit.
pub const DEFAULT_VALID_PERMILLE: u32 = 20;

/// The positions of some data files, split.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Positions to train on.
    pub train: Vec<Sample>,
    /// Positions of the held-out games.
    pub valid: Vec<Sample>,
    /// Records read (kept or not).
    pub read: u64,
    /// Games read.
    pub games: u64,
    /// What was read of each file, in the order given: a run that stopped early (`max_positions`,
    /// Ctrl-C) or read a file still being written used only a prefix of it.
    pub files: Vec<FileRead>,
}

/// How much of one data file a [`load`] read: its first `records` records, which hold `games` whole
/// games and, when `mid_game`, the start of the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileRead {
    /// Records read from the start of the file.
    pub records: u64,
    /// Whole games among them.
    pub games: u64,
    /// Whether the last record read is not a game's last.
    pub mid_game: bool,
}

fn push(v: &mut Vec<Sample>, s: Sample) -> Result<(), AllocError> {
    if v.len() == v.capacity() {
        let more = v.capacity().max(1 << 16);
        v.try_reserve(more).map_err(|_| AllocError {
            what: "training set",
            bytes: (v.len() + more) * size_of::<Sample>(),
        })?;
    }
    v.push(s);
    Ok(())
}

/// Refuses a score clamp outside 1 to [`SCORE_CP_MAX`] centipawns.
pub(crate) fn check_max_score(max_score: i16) -> Result<(), TrainError> {
    if !(1..=SCORE_CP_MAX).contains(&max_score) {
        return Err(TrainError::Settings(format!(
            "the score clamp must be 1 to {SCORE_CP_MAX} centipawns, not {max_score}"
        )));
    }
    Ok(())
}

/// Whether the trainer's filters keep `record`: not in check, not before a capture or promotion.
pub(crate) fn kept(record: &Record, skip_in_check: bool, skip_noisy: bool) -> bool {
    !(skip_in_check && record.in_check || skip_noisy && record.noisy)
}

/// Reads `paths` in order. `stop` (Ctrl-C) ends reading early, keeping what was read.
pub fn load(paths: &[PathBuf], settings: &LoadSettings, stop: &AtomicBool) -> Result<Dataset, TrainError> {
    if settings.valid_permille >= 1000 {
        return Err(TrainError::Settings(format!(
            "the validation share must be below 1000 per mille, not {}",
            settings.valid_permille
        )));
    }
    check_max_score(settings.max_score)?;
    let mut data = Dataset::default();
    let valid_game =
        |game: u64| SplitMix64::new(settings.seed ^ game.wrapping_mul(0x9e37_79b9)).next_u64() % 1000;
    for path in paths {
        let mut reader = RecordReader::open(path)?;
        let mut file = FileRead::default();
        let mut done = false;
        while let Some(record) = reader.read_record()? {
            if (data.read + 1) % 65_536 == 0 && stop.load(Ordering::Relaxed) {
                done = true;
                break;
            }
            data.read += 1;
            file.records += 1;
            file.mid_game = !record.last_of_game;
            let game = data.games;
            if record.last_of_game {
                data.games += 1;
                file.games += 1;
            }
            if !kept(&record, settings.skip_in_check, settings.skip_noisy) {
                continue;
            }
            let sample = Sample::from_record(&record, settings.max_score);
            if valid_game(game) < settings.valid_permille as u64 {
                push(&mut data.valid, sample)?;
            } else {
                push(&mut data.train, sample)?;
            }
            if settings.max_positions.is_some_and(|m| (data.train.len() + data.valid.len()) as u64 >= m) {
                done = true;
                break;
            }
        }
        data.files.push(file);
        if done {
            break;
        }
    }
    Ok(data)
}
