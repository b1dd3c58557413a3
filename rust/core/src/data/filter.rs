//! Filters for tuning data: an evaluation tuner learns from quiet positions, where the static
//! evaluation is what the search would see, so positions that are not quiet are dropped: in check, a
//! best move that captures or promotes, or (the costliest test, a quiescence search per position) a
//! static evaluation more than a margin away from the quiescence score.

use crate::{
    data::format::{Record, RecordError},
    eval::{evaluate, EvalParams},
    search::{quiescence, SearchState},
};

/// Which records to drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RecordFilter {
    /// Drop positions whose side to move is in check.
    pub skip_in_check: bool,
    /// Drop positions whose best move is a capture or a promotion.
    pub skip_noisy: bool,
    /// Drop positions whose static evaluation differs from the quiescence score by more than this
    /// (centipawns); positions in check, which have no static evaluation, are dropped too.
    pub quiet_margin: Option<i32>,
}

/// A [`RecordFilter`] with what it needs to run: the search state lent to the quiescence search.
pub struct Filter {
    settings: RecordFilter,
    state: Option<SearchState>,
}

impl Filter {
    /// A filter applying `settings` (with the default evaluation's weights).
    pub fn new(settings: RecordFilter) -> Filter {
        Filter { settings, state: settings.quiet_margin.map(|_| SearchState::new()) }
    }

    /// Whether `record` passes.
    ///
    /// ```
    /// use camelpy_core::{data::{Filter, GameResult, Record, RecordFilter}, Position};
    /// let pos = Position::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", false)?;
    /// let record = Record::from_position(&pos, 800, pos.parse_uci("e4d5")?, GameResult::WhiteWins, true)?;
    /// assert!(Filter::new(RecordFilter::default()).keep(&record)?);
    /// assert!(!Filter::new(RecordFilter { skip_noisy: true, ..Default::default() }).keep(&record)?);
    /// assert!(!Filter::new(RecordFilter { quiet_margin: Some(100), ..Default::default() }).keep(&record)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// With a quiet margin, a record whose position cannot occur (a damaged file).
    pub fn keep(&mut self, record: &Record) -> Result<bool, RecordError> {
        let RecordFilter { skip_in_check, skip_noisy, quiet_margin } = self.settings;
        if (skip_in_check && record.in_check) || (skip_noisy && record.noisy) {
            return Ok(false);
        }
        let (Some(margin), Some(state)) = (quiet_margin, self.state.as_mut()) else { return Ok(true) };
        if record.in_check {
            return Ok(false);
        }
        let mut pos = record.position().map_err(|e| RecordError { reason: e.to_string() })?;
        let params = &EvalParams::DEFAULT;
        let static_eval = evaluate(&pos, params);
        let quiet = quiescence(&mut pos, params, state);
        Ok((static_eval - quiet).abs() <= margin)
    }
}
