//! Every weight of the hand-crafted evaluation, in one table.
//!
//! Each weight is a named `i32` with a default, a range and a one-line reason, so a UCI layer can offer it
//! as a `spin` option and a tuner can change it at run time without recompiling (the Viridithas
//! `search/parameters.rs` habit, convention 12). Paired weights (`knight_value`) are one
//! [`TaperedScore`] field in [`EvalParams`] and two scalar entries, `knight_value_mg` and
//! `knight_value_eg`, in [`EvalParams::all`], [`EvalParams::get`] and [`EvalParams::set`].
//!
//! Signs: a term adds its weight to the side that has the feature, so penalties have negative defaults.
//! The defaults are fitted by `camelpy tune` to camelpy's own self-play games (tuning run 2, see
//! `docs/strength.md`), starting from our own hand-set round numbers; the mop-up weights keep their
//! hand-set values (the data cannot set them). Nothing here is taken from any engine.

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
            /// The defaults (tuned; see the module documentation).
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
        pawn_value: (68, 112), [0, 500];
        /// A knight's worth: a short-range piece, a little weaker in open endgames.
        knight_value: (316, 321), [0, 1500];
        /// A bishop's worth: slightly above a knight, more so in open endgames.
        bishop_value: (337, 368), [0, 1500];
        /// A rook's worth: gains in the endgame as files and ranks open up.
        rook_value: (440, 664), [0, 2500];
        /// A queen's worth: about two rooks' firepower in one piece.
        queen_value: (1232, 1068), [0, 4000];
        /// Per square a knight can go to that is not ours and not hit by an enemy pawn.
        knight_mobility: (5, 7), [-20, 50];
        /// Per safe square a bishop attacks: a bishop blocked by pawns is a poor piece.
        bishop_mobility: (4, 7), [-20, 50];
        /// Per safe square a rook attacks: rooks need open lines, mostly in the endgame.
        rook_mobility: (5, 4), [-20, 50];
        /// Per safe square a queen attacks: small, as a queen nearly always has squares.
        queen_mobility: (3, 1), [-20, 50];
        /// A passed pawn on its 2nd rank: still far from promotion.
        passed_rank2: (13, 25), [-100, 500];
        /// A passed pawn on its 3rd rank.
        passed_rank3: (8, 1), [-100, 500];
        /// A passed pawn on its 4th rank.
        passed_rank4: (-4, 22), [-100, 500];
        /// A passed pawn on its 5th rank: a real threat that ties down pieces.
        passed_rank5: (23, 43), [-100, 500];
        /// A passed pawn on its 6th rank: two steps from queening.
        passed_rank6: (64, 83), [-100, 500];
        /// A passed pawn on its 7th rank: one step from queening.
        passed_rank7: (126, 148), [-100, 500];
        /// Per rank advanced, for a passed pawn whose path to promotion holds no piece at all.
        passed_free_path: (-1, 14), [-50, 100];
        /// A pawn with no friendly pawn on a neighbouring file can never be defended by a pawn.
        isolated_pawn: (-12, -14), [-100, 50];
        /// Each pawn with a friendly pawn in front of it on its file: the front one blocks it.
        doubled_pawn: (-2, 0), [-100, 50];
        /// A pawn that no friendly pawn can support and whose advance square an enemy pawn guards.
        backward_pawn: (-9, -17), [-100, 50];
        /// A pawn with a friendly pawn beside it on the same rank: the pair controls a wall of squares.
        phalanx_pawn: (7, 5), [-50, 100];
        /// A pawn defended by a friendly pawn: it cannot be won by a piece attack alone.
        supported_pawn: (14, 11), [-50, 100];
        /// A rook on a file with no pawns: it reaches the enemy camp.
        rook_open_file: (46, -7), [-50, 150];
        /// A rook on a file without our pawns but with an enemy pawn: it presses on that pawn.
        rook_semi_open_file: (17, 15), [-50, 150];
        /// A rook on the 7th rank with enemy pawns there or the enemy king on the 8th: it eats pawns and boxes the king in.
        rook_seventh: (12, 23), [-50, 150];
        /// Both bishops: together they cover both square colours, which no other pair of minors does.
        bishop_pair: (27, 61), [-50, 200];
        /// The side to move gets this: it is a tempo ahead of a static count.
        tempo: (12, 6), [-50, 100];
    }
    scalars {
        /// Endgame, per square of distance (times the pawn's rank) from the enemy king to a passed pawn's advance square.
        passed_enemy_king_distance: 9, [-20, 50];
        /// Endgame, per square of distance (times the pawn's rank) from our king to a passed pawn's advance square, subtracted.
        passed_own_king_distance: 5, [-20, 50];
        /// Middlegame, per own pawn directly in front of the king on its file or a neighbouring one.
        king_shield_close: 16, [-50, 100];
        /// Middlegame, per own pawn two ranks in front of the king on its file or a neighbouring one.
        king_shield_far: 4, [-50, 100];
        /// Middlegame, per file next to the king with no own pawn in front of it: an open line to the king.
        king_shield_missing: -16, [-100, 50];
        /// Attack units a knight adds when it hits the enemy king's zone.
        king_attack_knight: 4, [0, 200];
        /// Attack units a bishop adds when it hits the enemy king's zone.
        king_attack_bishop: 3, [0, 200];
        /// Attack units a rook adds when it hits the enemy king's zone.
        king_attack_rook: 3, [0, 200];
        /// Attack units a queen adds when it hits the enemy king's zone.
        king_attack_queen: 17, [0, 400];
        /// Attack units per king-zone square hit, counted once per attacking piece.
        king_attack_square: 10, [0, 100];
        /// Fewer pieces than this on the king zone is not an attack: one piece alone rarely mates.
        king_attack_min_attackers: 2, [1, 5];
        /// The middlegame penalty is units squared over this: danger grows faster than the number of attackers.
        king_danger_divisor: 47, [16, 4096];
        /// The largest king-danger penalty, so a pile of attackers cannot outweigh a queen.
        king_danger_cap: 600, [0, 2000];
        /// Endgame-material lead (pawns included) from which the mop-up term drives a king that has no pawns left.
        mopup_threshold: 400, [0, 2000];
        /// Per step of the losing king from the centre (0 in the centre, 6 in a corner): mate happens on the edge.
        mopup_edge: 10, [0, 100];
        /// Per step the winning king is closer to the losing one (7 minus their distance): the king helps mate.
        mopup_proximity: 4, [0, 100];
        /// Scale (of 64) for opposite-coloured bishops and pawns only, before the per-pawn part: often a draw.
        scale_ocb_base: 0, [0, 64];
        /// Scale (of 64) added per pawn of the stronger side with opposite-coloured bishops: more pawns, more winning chances.
        scale_ocb_per_pawn: 9, [0, 64];
        /// Scale (of 64) when the stronger side has no pawns and is at most a minor piece up: rarely winnable.
        scale_minor_up: 5, [0, 64];
    }
    tables {
        /// A pawn by square: advanced and central pawns gain space (ranks 1 and 8 are never used and stay 0).
        psqt_pawn: [-300, 300] {
            a1: (0, 0), b1: (0, 0), c1: (0, 0), d1: (0, 0),
            a2: (1, 1), b2: (4, 1), c2: (4, 4), d2: (-17, 24),
            a3: (5, 4), b3: (2, -1), c3: (4, -3), d3: (-4, 6),
            a4: (6, 10), b4: (-4, 10), c4: (16, 2), d4: (24, 0),
            a5: (9, 17), b5: (19, 13), c5: (11, 8), d5: (30, 9),
            a6: (19, 34), b6: (21, 35), c6: (5, 32), d6: (35, 7),
            a7: (5, 16), b7: (20, 12), c7: (-20, 18), d7: (5, 23),
            a8: (0, 0), b8: (0, 0), c8: (0, 0), d8: (0, 0),
        }
        /// A knight by square: its reach shrinks near the edge.
        psqt_knight: [-300, 300] {
            a1: (-26, 24), b1: (9, 4), c1: (-2, 39), d1: (12, 29),
            a2: (11, 15), b2: (19, 42), c2: (29, 33), d2: (35, 40),
            a3: (9, 21), b3: (33, 32), c3: (32, 39), d3: (40, 58),
            a4: (22, 56), b4: (38, 39), c4: (43, 65), d4: (47, 72),
            a5: (38, 61), b5: (36, 78), c5: (50, 72), d5: (56, 80),
            a6: (33, 23), b6: (68, 43), c6: (46, 56), d6: (79, 46),
            a7: (3, 32), b7: (45, 22), c7: (65, 33), d7: (90, 34),
            a8: (-63, -68), b8: (97, 18), c8: (-85, 68), d8: (-18, 66),
        }
        /// A bishop by square: central bishops see both wings.
        psqt_bishop: [-300, 300] {
            a1: (-18, -26), b1: (-24, 26), c1: (9, -7), d1: (-1, 15),
            a2: (16, 0), b2: (26, -3), c2: (19, 10), d2: (24, 9),
            a3: (16, 0), b3: (31, -5), c3: (24, 20), d3: (20, 24),
            a4: (8, 7), b4: (25, 11), c4: (21, 31), d4: (32, 24),
            a5: (-1, 29), b5: (23, 27), c5: (23, 25), d5: (36, 32),
            a6: (8, 24), b6: (20, 25), c6: (8, 29), d6: (24, 23),
            a7: (-41, 14), b7: (-1, 17), c7: (10, 22), d7: (-5, 25),
            a8: (-4, -6), b8: (-51, 39), c8: (-126, 46), d8: (-49, 34),
        }
        /// A rook by square: central files reach either wing faster; the 7th rank is a term of its own.
        psqt_rook: [-300, 300] {
            a1: (2, -15), b1: (7, -15), c1: (20, -19), d1: (25, -20),
            a2: (-11, -1), b2: (-7, -6), c2: (5, 6), d2: (15, -13),
            a3: (-9, 9), b3: (0, 2), c3: (-5, 6), d3: (2, 5),
            a4: (-7, 14), b4: (-22, 19), c4: (23, 6), d4: (22, 12),
            a5: (3, 25), b5: (10, 20), c5: (38, 11), d5: (6, 30),
            a6: (15, 20), b6: (22, 18), c6: (30, 19), d6: (24, 29),
            a7: (10, 26), b7: (-13, 30), c7: (45, 15), d7: (54, 4),
            a8: (22, 26), b8: (52, 17), c8: (58, 16), d8: (31, 17),
        }
        /// A queen by square: central queens are flexible; early sorties are left to mobility.
        psqt_queen: [-300, 300] {
            a1: (-26, 9), b1: (-1, -52), c1: (0, -37), d1: (10, -57),
            a2: (-10, -5), b2: (6, -32), c2: (12, -51), d2: (12, -7),
            a3: (-1, -14), b3: (4, -10), c3: (-2, 28), d3: (0, 23),
            a4: (3, 6), b4: (-9, 52), c4: (-6, 52), d4: (-15, 64),
            a5: (-2, 56), b5: (-6, 73), c5: (-3, 57), d5: (4, 54),
            a6: (-3, 18), b6: (30, 60), c6: (15, 59), d6: (18, 84),
            a7: (-1, 47), b7: (-6, 83), c7: (-3, 77), d7: (-10, 75),
            a8: (-20, 26), b8: (15, 27), c8: (-8, 66), d8: (-10, 62),
        }
        /// The king by square: it hides in a corner while queens are on and leads in the endgame.
        psqt_king: [-300, 300] {
            a1: (-4, -12), b1: (-9, 10), c1: (-32, 19), d1: (-28, 12),
            a2: (-32, 17), b2: (-23, 31), c2: (-41, 43), d2: (-43, 39),
            a3: (-21, 12), b3: (-24, 36), c3: (-57, 52), d3: (-67, 58),
            a4: (-36, 34), b4: (-41, 47), c4: (-48, 56), d4: (-126, 78),
            a5: (-68, 58), b5: (-55, 69), c5: (-95, 87), d5: (-59, 77),
            a6: (67, 38), b6: (-68, 90), c6: (-88, 86), d6: (3, 61),
            a7: (171, -32), b7: (-121, 93), c7: (-4, 59), d7: (65, 52),
            a8: (-28, -2), b8: (-28, 30), c8: (-8, 37), d8: (-22, 24),
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
