//! Every weight of the hand-crafted evaluation, in one table.
//!
//! Each weight is a named `i32` with a default, a range and a one-line reason, so a UCI layer can offer it
//! as a `spin` option and a tuner can change it at run time without recompiling (the Viridithas
//! `search/parameters.rs` habit, convention 12). Paired weights (`knight_value`) are one
//! [`TaperedScore`] field in [`EvalParams`] and two scalar entries, `knight_value_mg` and
//! `knight_value_eg`, in [`EvalParams::all`], [`EvalParams::get`] and [`EvalParams::set`].
//!
//! Signs: a term adds its weight to the side that has the feature, so penalties have negative defaults.
//! The defaults are our own round numbers chosen by hand for sensible relative sizes, not tuned values
//! and not taken from any engine.

use core::fmt;

use super::TaperedScore;

/// The description of one scalar parameter: what a UCI `spin` option or a tuner needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParamInfo {
    /// The name, unique among all parameters (`knight_value_mg`).
    pub name: &'static str,
    /// The value in [`EvalParams::DEFAULT`].
    pub default: i32,
    /// The smallest value [`EvalParams::set`] accepts.
    pub min: i32,
    /// The largest value [`EvalParams::set`] accepts.
    pub max: i32,
    /// Why the weight exists (its doc comment).
    pub doc: &'static str,
}

/// Why [`EvalParams::set`] refused a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetParamError {
    /// No parameter has this name.
    Unknown(String),
    /// The value lies outside the parameter's `[min, max]`.
    OutOfRange {
        /// The parameter's name.
        name: &'static str,
        /// The refused value.
        value: i32,
        /// The smallest accepted value.
        min: i32,
        /// The largest accepted value.
        max: i32,
    },
}

/// `value` for the parameter `name` described by `info` (as found in its table): `Ok` within its range.
pub fn check_param(info: Option<&ParamInfo>, name: &str, value: i32) -> Result<(), SetParamError> {
    let info = info.ok_or_else(|| SetParamError::Unknown(name.to_string()))?;
    if !(info.min..=info.max).contains(&value) {
        return Err(SetParamError::OutOfRange { name: info.name, value, min: info.min, max: info.max });
    }
    Ok(())
}

impl SetParamError {
    /// The message, naming the table the parameter was looked for in (`"evaluation"`, `"search"`).
    pub fn describe(&self, table: &str) -> String {
        match self {
            SetParamError::Unknown(name) => format!("unknown {table} parameter '{name}'"),
            SetParamError::OutOfRange { name, value, min, max } => {
                format!("{table} parameter {name} = {value} is outside [{min}, {max}]")
            }
        }
    }
}

impl fmt::Display for SetParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe("evaluation"))
    }
}

impl std::error::Error for SetParamError {}

/// Declares [`EvalParams`] from two lists: `(mg, eg)` pairs and single values. Each entry reads
/// `/// reason` `name: default, [min, max];`, and a pair's range applies to both its halves.
macro_rules! eval_params {
    (
        pairs {
            $( #[doc = $pdoc:literal] $pname:ident: ($pmg:expr, $peg:expr), [$pmin:expr, $pmax:expr]; )*
        }
        scalars {
            $( #[doc = $sdoc:literal] $sname:ident: $sval:expr, [$smin:expr, $smax:expr]; )*
        }
    ) => {
        /// The weights of the evaluation: one field per term, each documented with its reason.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct EvalParams {
            $( #[doc = $pdoc] pub $pname: TaperedScore, )*
            $( #[doc = $sdoc] pub $sname: i32, )*
        }

        impl EvalParams {
            /// The hand-set defaults.
            pub const DEFAULT: EvalParams = EvalParams {
                $( $pname: TaperedScore::new($pmg, $peg), )*
                $( $sname: $sval, )*
            };

            const INFO: &'static [ParamInfo] = &[
                $(
                    ParamInfo {
                        name: concat!(stringify!($pname), "_mg"),
                        default: $pmg, min: $pmin, max: $pmax, doc: $pdoc,
                    },
                    ParamInfo {
                        name: concat!(stringify!($pname), "_eg"),
                        default: $peg, min: $pmin, max: $pmax, doc: $pdoc,
                    },
                )*
                $( ParamInfo { name: stringify!($sname), default: $sval, min: $smin, max: $smax, doc: $sdoc }, )*
            ];

            /// Each parameter's storage, in [`EvalParams::all`] order, for index-based access.
            const SLOTS: &'static [fn(&mut EvalParams) -> &mut i32] = &[
                $( |p| &mut p.$pname.mg, |p| &mut p.$pname.eg, )*
                $( |p| &mut p.$sname, )*
            ];

            /// Each parameter's value, in [`EvalParams::all`] order.
            const GETTERS: &'static [fn(&EvalParams) -> i32] = &[
                $( |p| p.$pname.mg, |p| p.$pname.eg, )*
                $( |p| p.$sname, )*
            ];

            /// Every scalar parameter, pairs split into `_mg` and `_eg`, in declaration order.
            pub fn all() -> &'static [ParamInfo] {
                Self::INFO
            }

            /// The current value of the parameter called `name`, or `None` if there is none.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $(
                        concat!(stringify!($pname), "_mg") => Some(self.$pname.mg),
                        concat!(stringify!($pname), "_eg") => Some(self.$pname.eg),
                    )*
                    $( stringify!($sname) => Some(self.$sname), )*
                    _ => None,
                }
            }

            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $(
                        concat!(stringify!($pname), "_mg") => Some(&mut self.$pname.mg),
                        concat!(stringify!($pname), "_eg") => Some(&mut self.$pname.eg),
                    )*
                    $( stringify!($sname) => Some(&mut self.$sname), )*
                    _ => None,
                }
            }
        }
    };
}

eval_params! {
    pairs {
        /// A pawn's worth: the unit every other weight is measured against; more in the endgame, where it may queen.
        pawn_value: (78, 112), [0, 500];
        /// A knight's worth: a short-range piece, a little weaker in open endgames.
        knight_value: (329, 321), [0, 1500];
        /// A bishop's worth: slightly above a knight, more so in open endgames.
        bishop_value: (344, 358), [0, 1500];
        /// A rook's worth: gains in the endgame as files and ranks open up.
        rook_value: (462, 625), [0, 2500];
        /// A queen's worth: about two rooks' firepower in one piece.
        queen_value: (1095, 1082), [0, 4000];
        /// Per rank a pawn has advanced from its start: advanced pawns gain space and come closer to queening.
        pawn_advance: (3, 6), [-50, 100];
        /// A pawn on one of the four centre squares (d4, e4, d5, e5) controls the squares pieces want.
        pawn_center: (23, -6), [-50, 100];
        /// Per step of centrality (0 in a corner, 6 in the centre): a knight's reach shrinks near the edge.
        knight_center: (9, 11), [-50, 50];
        /// Per step of centrality: central bishops see both wings.
        bishop_center: (5, 5), [-50, 50];
        /// Per file step towards the d/e-files: central rooks reach either wing faster.
        rook_file_center: (8, -2), [-50, 50];
        /// Per step of centrality: a central queen is flexible; early sorties are left to mobility.
        queen_center: (0, 9), [-50, 50];
        /// Per step of centrality: the king hides in a corner while queens are on and leads in the endgame.
        king_center: (-9, 6), [-50, 50];
        /// Per rank the king has left its back rank: a walk forward in the middlegame exposes it.
        king_advance: (-7, 9), [-100, 50];
        /// Per square a knight can go to that is not ours and not hit by an enemy pawn.
        knight_mobility: (6, 5), [-20, 50];
        /// Per safe square a bishop attacks: a bishop blocked by pawns is a poor piece.
        bishop_mobility: (5, 7), [-20, 50];
        /// Per safe square a rook attacks: rooks need open lines, mostly in the endgame.
        rook_mobility: (4, 6), [-20, 50];
        /// Per safe square a queen attacks: small, as a queen nearly always has squares.
        queen_mobility: (3, 4), [-20, 50];
        /// A passed pawn on its 2nd rank: still far from promotion.
        passed_rank2: (18, 21), [-100, 500];
        /// A passed pawn on its 3rd rank.
        passed_rank3: (9, 7), [-100, 500];
        /// A passed pawn on its 4th rank.
        passed_rank4: (12, 26), [-100, 500];
        /// A passed pawn on its 5th rank: a real threat that ties down pieces.
        passed_rank5: (25, 51), [-100, 500];
        /// A passed pawn on its 6th rank: two steps from queening.
        passed_rank6: (70, 102), [-100, 500];
        /// A passed pawn on its 7th rank: one step from queening.
        passed_rank7: (151, 154), [-100, 500];
        /// Per rank advanced, for a passed pawn whose path to promotion holds no piece at all.
        passed_free_path: (-1, 10), [-50, 100];
        /// A pawn with no friendly pawn on a neighbouring file can never be defended by a pawn.
        isolated_pawn: (-10, -16), [-100, 50];
        /// Each pawn with a friendly pawn in front of it on its file: the front one blocks it.
        doubled_pawn: (-4, -5), [-100, 50];
        /// A pawn that no friendly pawn can support and whose advance square an enemy pawn guards.
        backward_pawn: (-10, -12), [-100, 50];
        /// A pawn with a friendly pawn beside it on the same rank: the pair controls a wall of squares.
        phalanx_pawn: (6, 8), [-50, 100];
        /// A pawn defended by a friendly pawn: it cannot be won by a piece attack alone.
        supported_pawn: (12, 9), [-50, 100];
        /// A rook on a file with no pawns: it reaches the enemy camp.
        rook_open_file: (43, 0), [-50, 150];
        /// A rook on a file without our pawns but with an enemy pawn: it presses on that pawn.
        rook_semi_open_file: (14, 19), [-50, 150];
        /// A rook on the 7th rank with enemy pawns there or the enemy king on the 8th: it eats pawns and boxes the king in.
        rook_seventh: (28, 24), [-50, 150];
        /// Both bishops: together they cover both square colours, which no other pair of minors does.
        bishop_pair: (29, 62), [-50, 200];
        /// The side to move gets this: it is a tempo ahead of a static count.
        tempo: (12, 5), [-50, 100];
    }
    scalars {
        /// Endgame, per square of distance (times the pawn's rank) from the enemy king to a passed pawn's advance square.
        passed_enemy_king_distance: 7, [-20, 50];
        /// Endgame, per square of distance (times the pawn's rank) from our king to a passed pawn's advance square, subtracted.
        passed_own_king_distance: 4, [-20, 50];
        /// Middlegame, per own pawn directly in front of the king on its file or a neighbouring one.
        king_shield_close: 11, [-50, 100];
        /// Middlegame, per own pawn two ranks in front of the king on its file or a neighbouring one.
        king_shield_far: 1, [-50, 100];
        /// Middlegame, per file next to the king with no own pawn in front of it: an open line to the king.
        king_shield_missing: -17, [-100, 50];
        /// Attack units a knight adds when it hits the enemy king's zone.
        king_attack_knight: 11, [0, 200];
        /// Attack units a bishop adds when it hits the enemy king's zone.
        king_attack_bishop: 11, [0, 200];
        /// Attack units a rook adds when it hits the enemy king's zone.
        king_attack_rook: 13, [0, 200];
        /// Attack units a queen adds when it hits the enemy king's zone.
        king_attack_queen: 29, [0, 400];
        /// Attack units per king-zone square hit, counted once per attacking piece.
        king_attack_square: 8, [0, 100];
        /// Fewer pieces than this on the king zone is not an attack: one piece alone rarely mates.
        king_attack_min_attackers: 2, [1, 5];
        /// The middlegame penalty is units squared over this: danger grows faster than the number of attackers.
        king_danger_divisor: 52, [16, 4096];
        /// The largest king-danger penalty, so a pile of attackers cannot outweigh a queen.
        king_danger_cap: 600, [0, 2000];
        /// Endgame-material lead (pawns included) from which the mop-up term drives a king that has no pawns left.
        mopup_threshold: 400, [0, 2000];
        /// Per step of the losing king from the centre (0 in the centre, 6 in a corner): mate happens on the edge.
        mopup_edge: 10, [0, 100];
        /// Per step the winning king is closer to the losing one (7 minus their distance): the king helps mate.
        mopup_proximity: 4, [0, 100];
        /// Scale (of 64) for opposite-coloured bishops and pawns only, before the per-pawn part: often a draw.
        scale_ocb_base: 6, [0, 64];
        /// Scale (of 64) added per pawn of the stronger side with opposite-coloured bishops: more pawns, more winning chances.
        scale_ocb_per_pawn: 8, [0, 64];
        /// Scale (of 64) when the stronger side has no pawns and is at most a minor piece up: rarely winnable.
        scale_minor_up: 7, [0, 64];
    }
}

impl EvalParams {
    /// Sets the parameter called `name` to `value`, refusing unknown names and values outside its range.
    /// A refused call leaves the parameters unchanged.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), SetParamError> {
        check_param(Self::info(name), name, value)?;
        if let Some(slot) = self.slot(name) {
            *slot = value;
        }
        Ok(())
    }

    /// The value of the parameter at `index` in [`EvalParams::all`] order (a tuner's way: no name
    /// lookup). Panics on an index out of range, which is a caller's bug.
    pub fn get_index(&self, index: usize) -> i32 {
        (Self::GETTERS[index])(self)
    }

    /// Sets the parameter at `index` in [`EvalParams::all`] order without a range check (a tuner
    /// probing the evaluation may step just outside a range; [`EvalParams::set`] is the checked way).
    /// Panics on an index out of range, which is a caller's bug.
    pub fn set_index(&mut self, index: usize, value: i32) {
        *(Self::SLOTS[index])(self) = value;
    }

    /// The description of the parameter called `name`.
    pub fn info(name: &str) -> Option<&'static ParamInfo> {
        Self::INFO.iter().find(|p| p.name == name)
    }

    /// Every parameter with its current value, in [`EvalParams::all`] order.
    pub fn values(&self) -> impl Iterator<Item = (&'static ParamInfo, i32)> + '_ {
        Self::INFO.iter().map(|p| (p, self.get(p.name).unwrap_or(p.default)))
    }

    /// The passed-pawn bonus for a pawn on relative rank index `rank` (0 = 1st rank .. 7 = 8th); zero
    /// where a pawn cannot stand.
    pub(crate) fn passed_rank(&self, rank: usize) -> TaperedScore {
        match rank {
            1 => self.passed_rank2,
            2 => self.passed_rank3,
            3 => self.passed_rank4,
            4 => self.passed_rank5,
            5 => self.passed_rank6,
            6 => self.passed_rank7,
            _ => TaperedScore::ZERO,
        }
    }
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        EvalParams::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn defaults_lie_in_range_and_names_are_unique() {
        let mut names = HashSet::new();
        for p in EvalParams::all() {
            assert!(
                p.min <= p.default && p.default <= p.max,
                "{} = {} not in [{}, {}]",
                p.name,
                p.default,
                p.min,
                p.max
            );
            assert!(names.insert(p.name), "duplicate parameter name {}", p.name);
            assert!(!p.doc.trim().is_empty(), "{} has no reason", p.name);
            assert_eq!(EvalParams::DEFAULT.get(p.name), Some(p.default));
        }
    }

    #[test]
    fn set_get_round_trips_and_refuses_bad_input() {
        let mut params = EvalParams::default();
        for p in EvalParams::all() {
            for value in [p.min, p.max, (p.min + p.max) / 2] {
                params.set(p.name, value).unwrap();
                assert_eq!(params.get(p.name), Some(value), "{}", p.name);
            }
        }
        let before = params.clone();
        assert_eq!(
            params.set("no_such_weight", 1).unwrap_err().to_string(),
            "unknown evaluation parameter 'no_such_weight'"
        );
        assert_eq!(
            params.set("knight_value_mg", 99_999).unwrap_err().to_string(),
            "evaluation parameter knight_value_mg = 99999 is outside [0, 1500]"
        );
        assert_eq!(params, before);
        assert_eq!(params.get("nope"), None);
        params.set("knight_value_eg", 123).unwrap();
        assert_eq!(params.knight_value.eg, 123);
        for (i, p) in EvalParams::all().iter().enumerate() {
            params.set_index(i, p.min);
            assert_eq!((params.get(p.name), params.get_index(i)), (Some(p.min), p.min), "{}", p.name);
        }
        assert_eq!(params.values().count(), EvalParams::all().len());
    }
}
