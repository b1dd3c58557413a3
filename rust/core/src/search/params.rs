//! Every search tunable, named, with the reason it exists. Values are our own round starting points,
//! to be tuned by games. The search's tunables are run-time settings ([`SearchParams`], UCI spin options,
//! so a tuner such as SPSA can move them without rebuilding); the two constants left here are not
//! strength parameters.

use crate::eval::{check_param, ParamInfo, SetParamError};

/// Nodes between two looks at the clock (a cheap counter check; ~0.1 ms at our speed).
pub const TIME_CHECK_NODES: u64 = 1_024;

/// After this long (ms) the search reports each root move it starts (UCI `currmove`), as Stockfish
/// does: earlier, the lines would only flood the GUI.
pub const CURRMOVE_DELAY_MS: u64 = 3_000;

/// Declares [`SearchParams`]: each entry reads `/// reason` `name: default, [min, max];`.
macro_rules! search_params {
    ( $( #[doc = $doc:literal] $name:ident: $default:expr, [$min:expr, $max:expr]; )* ) => {
        /// The search settings a user or a tuner may change at run time, without recompiling (UCI spin
        /// options, `Engine.set_search_param`): first the search's tunables (margins, depths,
        /// reductions; what SPSA tunes), then the candidate changes. A candidate change to the search
        /// enters here with a default that leaves the search exactly as it was (so `bench` keeps its
        /// count), is tested by an SPRT against that default with the same build, and on passing
        /// becomes the default (`docs/strength.md`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct SearchParams {
            $( #[doc = $doc] pub $name: i32, )*
        }

        impl SearchParams {
            /// The defaults.
            pub const DEFAULT: SearchParams = SearchParams { $( $name: $default, )* };

            const INFO: &'static [ParamInfo] = &[
                $( ParamInfo { name: stringify!($name), default: $default, min: $min, max: $max, doc: $doc }, )*
            ];

            /// The current value of the parameter called `name`, or `None` if there is none.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $( stringify!($name) => Some(&mut self.$name), )*
                    _ => None,
                }
            }
        }
    };
}

// Each tunable's range is roughly half to twice its default (room for SPSA), never a value that makes
// no sense (a zero divisor, an aspiration window that cannot widen, LMR at depth 1 with nothing to
// reduce). The float LMR constants are in hundredths.
search_params! {
    /// Half-width of the first aspiration window around the previous iteration's score (cp): most iterations land within a quarter pawn of the last.
    aspiration_delta: 25, [10, 50];
    /// Aspiration windows start from this depth; shallow scores are too unstable to bracket.
    aspiration_min_depth: 4, [2, 8];
    /// Reverse futility (static null move) pruning applies up to this depth: deeper, a static margin says too little.
    rfp_max_depth: 8, [4, 16];
    /// Reverse futility margin per ply of depth (cp): how far above beta the static eval must be.
    rfp_margin: 75, [35, 150];
    /// Null-move pruning needs at least this depth: shallower, the reduced search is nearly free anyway.
    nmp_min_depth: 3, [2, 6];
    /// Base null-move reduction in plies.
    nmp_base_reduction: 3, [1, 6];
    /// One more ply of null-move reduction per this many plies of depth.
    nmp_depth_divisor: 4, [2, 8];
    /// From this depth a null-move cutoff is verified by a reduced normal search (zugzwang safety).
    nmp_verify_depth: 12, [6, 24];
    /// Internal iterative reduction: without a TT move, nodes at least this deep are searched one ply shallower (the move ordering is guesswork there anyway).
    iir_min_depth: 4, [2, 8];
    /// Futility pruning of quiet moves applies up to this depth.
    futility_max_depth: 6, [3, 12];
    /// Futility margin: this base (cp) plus `futility_per_depth` per ply of depth; a quiet move is unlikely to gain more.
    futility_base: 100, [50, 200];
    /// Futility margin per ply of depth (cp), on top of `futility_base`.
    futility_per_depth: 90, [45, 180];
    /// Late-move pruning applies up to this depth.
    lmp_max_depth: 8, [4, 16];
    /// Late-move pruning: after `lmp_base + depth * depth` quiet moves, the rest are skipped.
    lmp_base: 3, [1, 6];
    /// SEE pruning of quiet moves: skip if they lose more than this per ply of depth (cp).
    see_quiet_margin: 60, [30, 120];
    /// SEE pruning of captures: skip if they lose more than this per ply of depth (cp).
    see_capture_margin: 100, [50, 200];
    /// SEE pruning applies up to this depth.
    see_prune_max_depth: 8, [4, 16];
    /// Late-move reductions apply from this depth (at least 2, so that a reduced search keeps a ply).
    lmr_min_depth: 3, [2, 6];
    /// Late-move reductions apply to moves after this many have been searched.
    lmr_min_moves: 2, [1, 4];
    /// Late-move reduction table: `lmr_base / 100 + ln(depth) * ln(moves) / (lmr_divisor / 100)` plies, rounded down (the base in hundredths of a ply).
    lmr_base: 75, [35, 150];
    /// Divisor of the late-move reduction table's log term, in hundredths (see `lmr_base`).
    lmr_divisor: 225, [110, 450];
    /// Quiescence delta pruning: a capture that cannot lift the score within this margin of alpha, even winning its victim outright, is skipped (cp).
    delta_margin: 200, [100, 400];
    /// History bonus for a cutoff move: `depth * depth` scaled, capped so deep nodes do not swamp the table.
    history_bonus_max: 1_600, [800, 3_200];
    // The candidate changes, off (or neutral) at their defaults until they pass an SPRT (nmp_two_pieces,
    // last, passed its SPRT together with camelpy-4 and is on).
    /// Continuation history (0 off, 1 on): quiet moves are also ordered by how they fared after the same piece-to of the previous move and of our own move before it.
    cont_hist: 0, [0, 1];
    /// Late-move reductions shrink by a quiet move's history score over this (0: no history term): a move that often refuted similar positions deserves a deeper look.
    lmr_history_divisor: 0, [0, 65_536];
    /// "Improving" (0 off, 1 on): when the static eval rose since our last move, reverse futility prunes with a smaller margin, late-move pruning waits longer and reductions are one ply smaller.
    improving: 0, [0, 1];
    /// Quiescence probes the table (0 off, 1 on): a stored bound cuts off at once and a stored capture is tried first.
    qs_tt_probe: 0, [0, 1];
    /// Quiescence stores its results in the table (0 off, 1 on), at depth 0 (the main search never takes them as cutoffs, only as hints).
    qs_tt_store: 0, [0, 1];
    /// Correction history weight (0 off): the static eval is corrected by how far search results strayed from it in positions with the same pawns, this many 256ths of the learned average.
    corr_hist: 0, [0, 512];
    /// Null-move pruning needs two pieces (0 off, 1 on): not for a side with a single piece besides king and pawns, whose every move may lose (a zugzwang a null move cannot see).
    nmp_two_pieces: 1, [0, 1];
}

impl SearchParams {
    /// Every parameter, in declaration order.
    pub fn all() -> &'static [ParamInfo] {
        Self::INFO
    }

    /// The description of the parameter called `name`.
    pub fn info(name: &str) -> Option<&'static ParamInfo> {
        Self::INFO.iter().find(|p| p.name == name)
    }

    /// Sets the parameter called `name` to `value`, refusing unknown names and values outside its range.
    /// A refused call leaves the parameters unchanged.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), SetParamError> {
        check_param(Self::info(name), name, value)?;
        if let Some(slot) = self.slot(name) {
            *slot = value;
        }
        Ok(())
    }

    /// Every parameter with its current value, in [`SearchParams::all`] order.
    pub fn values(&self) -> impl Iterator<Item = (&'static ParamInfo, i32)> + '_ {
        Self::INFO.iter().map(|p| (p, self.get(p.name).unwrap_or(p.default)))
    }
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn defaults_lie_in_range_names_are_unique_and_set_checks() {
        let mut names = HashSet::new();
        let mut params = SearchParams::DEFAULT;
        for p in SearchParams::all() {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(names.insert(p.name), "duplicate {}", p.name);
            assert!(!p.doc.trim().is_empty(), "{} has no reason", p.name);
            assert!(EvalParamsNames::none_is(p.name), "{} is also an evaluation weight", p.name);
            params.set(p.name, p.max).unwrap();
            assert_eq!(params.get(p.name), Some(p.max));
        }
        let before = params;
        assert_eq!(
            params.set("no_such", 1).unwrap_err().describe("search"),
            "unknown search parameter 'no_such'"
        );
        assert_eq!(
            params.set("cont_hist", 2).unwrap_err().describe("search"),
            "search parameter cont_hist = 2 is outside [0, 1]"
        );
        assert_eq!(params, before);
        assert_eq!(params.values().count(), SearchParams::all().len());
    }

    /// Search and evaluation parameters share the UCI option namespace.
    struct EvalParamsNames;
    impl EvalParamsNames {
        fn none_is(name: &str) -> bool {
            crate::eval::EvalParams::info(name).is_none()
        }
    }
}
