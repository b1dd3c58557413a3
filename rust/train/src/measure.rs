//! How well an evaluation predicts the trainer's targets on positions it did not train on: the way to
//! compare networks trained on different data (and the classical evaluation) without a match.

use std::{
    path::Path,
    sync::atomic::{AtomicBool, Ordering},
};

use camelpy_core::{
    data::{DataError, RecordReader},
    eval::{evaluate, EvalParams},
    nnue::Network,
};

use crate::{
    model::target,
    samples::{check_max_score, kept, DEFAULT_MAX_SCORE},
    Sample, TrainError, DEFAULT_WDL,
};

/// What [`evaluation_loss`] measures: which positions, against which target.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureSettings {
    /// The first record read (an index into the file, before filtering).
    pub start: u64,
    /// Positions measured (kept by the filters), at most.
    pub count: u64,
    /// Weight of the game result in the target, as in training.
    pub wdl: f32,
    /// Centipawns per unit of the logistic that turns an evaluation into a win expectation: the
    /// network's own [`camelpy_core::nnue::SCALE`], or what suits the classical evaluation.
    pub scale: f64,
    /// Scores are clamped to ± this many centipawns, as in training.
    pub max_score: i16,
    /// Drop positions whose side to move is in check, as the trainer does.
    pub skip_in_check: bool,
    /// Drop positions whose best move captures or promotes, as the trainer does.
    pub skip_noisy: bool,
}

/// Default positions measured: enough for a loss accurate to about 1e-4.
pub const DEFAULT_MEASURE_COUNT: u64 = 20_000;

impl Default for MeasureSettings {
    fn default() -> Self {
        MeasureSettings {
            start: 0,
            count: DEFAULT_MEASURE_COUNT,
            wdl: DEFAULT_WDL,
            scale: f64::from(camelpy_core::nnue::SCALE),
            max_score: DEFAULT_MAX_SCORE,
            skip_in_check: true,
            skip_noisy: true,
        }
    }
}

/// The result of [`evaluation_loss`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measurement {
    /// The mean squared error.
    pub loss: f64,
    /// Positions it is the mean over.
    pub positions: u64,
}

/// The mean squared error of `net` as the engine runs it (quantised), or of the classical evaluation
/// with its default weights (`None`), against the trainer's targets ([`crate::model::target`]) on the
/// positions of the data file `path` from record `settings.start` on, filtered as the trainer filters.
/// Each position's evaluation `v` (centipawns, side to move) counts as the win expectation
/// `sigmoid(v / scale)`. `stop` ends the measurement early, over the positions read so far.
///
/// # Errors
/// A setting out of range or no position to measure ([`TrainError::Settings`]), a data file that
/// cannot be read or holds a position that cannot occur ([`TrainError::Data`]).
pub fn evaluation_loss(
    path: &Path,
    net: Option<&Network>,
    settings: &MeasureSettings,
    stop: &AtomicBool,
) -> Result<Measurement, TrainError> {
    if !(0.0..=1.0).contains(&settings.wdl) {
        return Err(TrainError::Settings(format!("wdl must be 0 to 1, not {}", settings.wdl)));
    }
    if !(settings.scale.is_finite() && settings.scale > 0.0) {
        return Err(TrainError::Settings(format!("the scale must be above 0, not {}", settings.scale)));
    }
    if settings.count == 0 {
        return Err(TrainError::Settings("the count must be at least 1".into()));
    }
    check_max_score(settings.max_score)?;
    let mut reader = RecordReader::open(path)?;
    reader.seek(settings.start)?;
    let params = EvalParams::DEFAULT;
    let (mut total, mut positions) = (0.0f64, 0u64);
    while positions < settings.count {
        let index = reader.next_index();
        let Some(record) = reader.read_record()? else { break };
        if index % 65_536 == 0 && stop.load(Ordering::Relaxed) {
            break;
        }
        if !kept(&record, settings.skip_in_check, settings.skip_noisy) {
            continue;
        }
        let pos = record.position().map_err(|e| DataError::BadRecord {
            path: path.display().to_string(),
            index,
            reason: e.to_string(),
        })?;
        let v = match net {
            Some(net) => net.evaluate(&pos),
            None => evaluate(&pos, &params),
        };
        let expected = 1.0 / (1.0 + (-f64::from(v) / settings.scale).exp());
        let e = expected - f64::from(target(&Sample::from_record(&record, settings.max_score), settings.wdl));
        total += e * e;
        positions += 1;
    }
    if positions == 0 {
        return Err(TrainError::Settings(format!(
            "no positions to measure in '{}' from record {}",
            camelpy_core::error::quote(&path.display().to_string()),
            settings.start
        )));
    }
    Ok(Measurement { loss: total / positions as f64, positions })
}
