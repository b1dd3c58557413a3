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
use crate::types::{Color, PieceType, Square};

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

/// The squares of a piece-square table: a half board, files a–d by ranks 1–8 from the piece's own side,
/// the files e–h mirroring d–a (the evaluation is left–right symmetric, so half the weights suffice and
/// each sees twice the data).
pub const HALF_BOARD: usize = 32;

/// The table index of the half-board square called `name` (`"a1"` .. `"d8"`): rank times four plus file.
/// Used by the parameter table's accessors; a name outside a1–d8 is a bug in the table.
const fn half_index_of(name: &str) -> usize {
    let bytes = name.as_bytes();
    assert!(bytes.len() == 2 && b'a' <= bytes[0] && bytes[0] <= b'd' && b'1' <= bytes[1] && bytes[1] <= b'8');
    (bytes[1] - b'1') as usize * 4 + (bytes[0] - b'a') as usize
}

/// The table index of `sq` as `color` sees it (ranks counted from `color`'s side, files e–h mirrored).
#[inline(always)]
pub(crate) fn half_index(sq: Square, color: Color) -> usize {
    let rel = sq.relative_to(color);
    let file = rel.file().index();
    rel.rank().index() * 4 + file.min(7 - file)
}

/// Declares [`EvalParams`] from three lists: `(mg, eg)` pairs, single values and piece-square tables.
/// A pair or scalar reads `/// reason` `name: default, [min, max];`, and a pair's range applies to both
/// its halves. A table reads `/// reason` `name: [min, max] { a1: (mg, eg), b1: …, d8: (mg, eg), }`: its
/// [`HALF_BOARD`] squares in index order (rank by rank), each a pair named `name_a1_mg`, `name_a1_eg`.
macro_rules! eval_params {
    (
        pairs {
            $( #[doc = $pdoc:literal] $pname:ident: ($pmg:expr, $peg:expr), [$pmin:expr, $pmax:expr]; )*
        }
        scalars {
            $( #[doc = $sdoc:literal] $sname:ident: $sval:expr, [$smin:expr, $smax:expr]; )*
        }
        tables {
            $(
                #[doc = $tdoc:literal] $tname:ident: [$tmin:expr, $tmax:expr] {
                    $( $sq:ident: ($tmg:expr, $teg:expr), )*
                }
            )*
        }
    ) => {
        /// The weights of the evaluation: one field per term, each documented with its reason.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct EvalParams {
            $( #[doc = $pdoc] pub $pname: TaperedScore, )*
            $( #[doc = $sdoc] pub $sname: i32, )*
            $( #[doc = $tdoc] pub $tname: [TaperedScore; HALF_BOARD], )*
        }

        impl EvalParams {
            /// The hand-set defaults.
            pub const DEFAULT: EvalParams = EvalParams {
                $( $pname: TaperedScore::new($pmg, $peg), )*
                $( $sname: $sval, )*
                $( $tname: [ $( TaperedScore::new($tmg, $teg), )* ], )*
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
                $( $(
                    ParamInfo {
                        name: concat!(stringify!($tname), "_", stringify!($sq), "_mg"),
                        default: $tmg, min: $tmin, max: $tmax, doc: $tdoc,
                    },
                    ParamInfo {
                        name: concat!(stringify!($tname), "_", stringify!($sq), "_eg"),
                        default: $teg, min: $tmin, max: $tmax, doc: $tdoc,
                    },
                )* )*
            ];

            /// Each parameter's storage, in [`EvalParams::all`] order, for index-based access.
            const SLOTS: &'static [fn(&mut EvalParams) -> &mut i32] = &[
                $( |p| &mut p.$pname.mg, |p| &mut p.$pname.eg, )*
                $( |p| &mut p.$sname, )*
                $( $(
                    |p| &mut p.$tname[half_index_of(stringify!($sq))].mg,
                    |p| &mut p.$tname[half_index_of(stringify!($sq))].eg,
                )* )*
            ];

            /// Each parameter's value, in [`EvalParams::all`] order.
            const GETTERS: &'static [fn(&EvalParams) -> i32] = &[
                $( |p| p.$pname.mg, |p| p.$pname.eg, )*
                $( |p| p.$sname, )*
                $( $(
                    |p| p.$tname[half_index_of(stringify!($sq))].mg,
                    |p| p.$tname[half_index_of(stringify!($sq))].eg,
                )* )*
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
                    $( $(
                        concat!(stringify!($tname), "_", stringify!($sq), "_mg") =>
                            Some(self.$tname[half_index_of(stringify!($sq))].mg),
                        concat!(stringify!($tname), "_", stringify!($sq), "_eg") =>
                            Some(self.$tname[half_index_of(stringify!($sq))].eg),
                    )* )*
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
                    $( $(
                        concat!(stringify!($tname), "_", stringify!($sq), "_mg") =>
                            Some(&mut self.$tname[half_index_of(stringify!($sq))].mg),
                        concat!(stringify!($tname), "_", stringify!($sq), "_eg") =>
                            Some(&mut self.$tname[half_index_of(stringify!($sq))].eg),
                    )* )*
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
    tables {
        /// A pawn by square: advanced and central pawns gain space (ranks 1 and 8 are never used and stay 0).
        psqt_pawn: [-300, 300] {
            a1: (0, 0), b1: (0, 0), c1: (0, 0), d1: (0, 0),
            a2: (0, 0), b2: (0, 0), c2: (0, 0), d2: (0, 0),
            a3: (3, 6), b3: (3, 6), c3: (3, 6), d3: (3, 6),
            a4: (6, 12), b4: (6, 12), c4: (6, 12), d4: (29, 6),
            a5: (9, 18), b5: (9, 18), c5: (9, 18), d5: (32, 12),
            a6: (12, 24), b6: (12, 24), c6: (12, 24), d6: (12, 24),
            a7: (15, 30), b7: (15, 30), c7: (15, 30), d7: (15, 30),
            a8: (0, 0), b8: (0, 0), c8: (0, 0), d8: (0, 0),
        }
        /// A knight by square: its reach shrinks near the edge.
        psqt_knight: [-300, 300] {
            a1: (0, 0), b1: (9, 11), c1: (18, 22), d1: (27, 33),
            a2: (9, 11), b2: (18, 22), c2: (27, 33), d2: (36, 44),
            a3: (18, 22), b3: (27, 33), c3: (36, 44), d3: (45, 55),
            a4: (27, 33), b4: (36, 44), c4: (45, 55), d4: (54, 66),
            a5: (27, 33), b5: (36, 44), c5: (45, 55), d5: (54, 66),
            a6: (18, 22), b6: (27, 33), c6: (36, 44), d6: (45, 55),
            a7: (9, 11), b7: (18, 22), c7: (27, 33), d7: (36, 44),
            a8: (0, 0), b8: (9, 11), c8: (18, 22), d8: (27, 33),
        }
        /// A bishop by square: central bishops see both wings.
        psqt_bishop: [-300, 300] {
            a1: (0, 0), b1: (5, 5), c1: (10, 10), d1: (15, 15),
            a2: (5, 5), b2: (10, 10), c2: (15, 15), d2: (20, 20),
            a3: (10, 10), b3: (15, 15), c3: (20, 20), d3: (25, 25),
            a4: (15, 15), b4: (20, 20), c4: (25, 25), d4: (30, 30),
            a5: (15, 15), b5: (20, 20), c5: (25, 25), d5: (30, 30),
            a6: (10, 10), b6: (15, 15), c6: (20, 20), d6: (25, 25),
            a7: (5, 5), b7: (10, 10), c7: (15, 15), d7: (20, 20),
            a8: (0, 0), b8: (5, 5), c8: (10, 10), d8: (15, 15),
        }
        /// A rook by square: central files reach either wing faster; the 7th rank is a term of its own.
        psqt_rook: [-300, 300] {
            a1: (0, 0), b1: (8, -2), c1: (16, -4), d1: (24, -6),
            a2: (0, 0), b2: (8, -2), c2: (16, -4), d2: (24, -6),
            a3: (0, 0), b3: (8, -2), c3: (16, -4), d3: (24, -6),
            a4: (0, 0), b4: (8, -2), c4: (16, -4), d4: (24, -6),
            a5: (0, 0), b5: (8, -2), c5: (16, -4), d5: (24, -6),
            a6: (0, 0), b6: (8, -2), c6: (16, -4), d6: (24, -6),
            a7: (0, 0), b7: (8, -2), c7: (16, -4), d7: (24, -6),
            a8: (0, 0), b8: (8, -2), c8: (16, -4), d8: (24, -6),
        }
        /// A queen by square: central queens are flexible; early sorties are left to mobility.
        psqt_queen: [-300, 300] {
            a1: (0, 0), b1: (0, 9), c1: (0, 18), d1: (0, 27),
            a2: (0, 9), b2: (0, 18), c2: (0, 27), d2: (0, 36),
            a3: (0, 18), b3: (0, 27), c3: (0, 36), d3: (0, 45),
            a4: (0, 27), b4: (0, 36), c4: (0, 45), d4: (0, 54),
            a5: (0, 27), b5: (0, 36), c5: (0, 45), d5: (0, 54),
            a6: (0, 18), b6: (0, 27), c6: (0, 36), d6: (0, 45),
            a7: (0, 9), b7: (0, 18), c7: (0, 27), d7: (0, 36),
            a8: (0, 0), b8: (0, 9), c8: (0, 18), d8: (0, 27),
        }
        /// The king by square: it hides in a corner while queens are on and leads in the endgame.
        psqt_king: [-300, 300] {
            a1: (0, 0), b1: (-9, 6), c1: (-18, 12), d1: (-27, 18),
            a2: (-16, 15), b2: (-25, 21), c2: (-34, 27), d2: (-43, 33),
            a3: (-32, 30), b3: (-41, 36), c3: (-50, 42), d3: (-59, 48),
            a4: (-48, 45), b4: (-57, 51), c4: (-66, 57), d4: (-75, 63),
            a5: (-55, 54), b5: (-64, 60), c5: (-73, 66), d5: (-82, 72),
            a6: (-53, 57), b6: (-62, 63), c6: (-71, 69), d6: (-80, 75),
            a7: (-51, 60), b7: (-60, 66), c7: (-69, 72), d7: (-78, 78),
            a8: (-49, 63), b8: (-58, 69), c8: (-67, 75), d8: (-76, 81),
        }
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

    /// The index in [`EvalParams::all`] of the first piece-square weight (`psqt_pawn_a1_mg`); the six
    /// tables follow in [`PieceType`] order, each [`HALF_BOARD`] squares of an `_mg`, `_eg` pair.
    pub const PSQT_START: usize = Self::INFO.len() - 6 * 2 * HALF_BOARD;

    /// The piece-square table of `pt`.
    #[inline(always)]
    pub(crate) fn psqt(&self, pt: PieceType) -> &[TaperedScore; HALF_BOARD] {
        match pt {
            PieceType::Pawn => &self.psqt_pawn,
            PieceType::Knight => &self.psqt_knight,
            PieceType::Bishop => &self.psqt_bishop,
            PieceType::Rook => &self.psqt_rook,
            PieceType::Queen => &self.psqt_queen,
            PieceType::King => &self.psqt_king,
        }
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

    #[test]
    fn piece_square_tables_are_named_and_indexed_by_square() {
        let all = EvalParams::all();
        for (t, pt) in PieceType::ALL.iter().enumerate() {
            let table = ["pawn", "knight", "bishop", "rook", "queen", "king"][t];
            for sq in Square::ALL {
                for color in Color::ALL {
                    let h = half_index(sq, color);
                    let i = EvalParams::PSQT_START + t * 2 * HALF_BOARD + 2 * h;
                    let rel = sq.relative_to(color);
                    let file = ["a", "b", "c", "d", "d", "c", "b", "a"][rel.file().index()];
                    let name = format!("psqt_{table}_{file}{}_mg", rel.rank().index() + 1);
                    assert_eq!(all[i].name, name);
                    assert_eq!(all[i + 1].name.replace("_eg", "_mg"), name);
                    let mut params = EvalParams::DEFAULT;
                    params.set_index(i, 77);
                    params.set_index(i + 1, -33);
                    assert_eq!(params.psqt(*pt)[h], TaperedScore::new(77, -33), "{name}");
                    assert_eq!(params.get(&name), Some(77));
                }
            }
        }
    }
}
