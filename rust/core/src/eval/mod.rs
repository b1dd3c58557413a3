//! The hand-crafted evaluation: a static score of a position, in centipawns, from the side to move's
//! point of view.
//!
//! Policy:
//! - Every weight lives in [`EvalParams`] ([`EvalParams::all`] lists them with their reasons), so a
//!   UCI layer or a tuner can change them at run time. No weight is written as a literal in this module.
//! - Each term is computed per colour as a (middlegame, endgame) [`TaperedScore`] and handed to a sink.
//!   [`evaluate`] sums them as White minus Black; [`trace`] records them per term and colour. Both run the same
//!   code (`evaluate_into`), so the trace cannot drift from the evaluation.
//! - The sum is blended by game phase ([CPW: Tapered Eval](https://www.chessprogramming.org/Tapered_Eval))
//!   and multiplied by a scale factor that pulls known drawish endings towards zero.
//! - The evaluation is colour-symmetric: a position and its colour-flipped twin score exactly the same for
//!   the side to move (tested over every suite position and random playouts). Integer division truncates
//!   towards zero, so negating the sum negates the result.
//! - The piece-square terms are tables over half a board (files mirrored), one per piece type, all in
//!   [`EvalParams`]; their first defaults were our own centrality and advancement formulas, and tuning on
//!   our own games moves them (no table comes from an engine).

mod linear;
mod params;
mod pawns;
mod score;
mod trace;

pub use linear::{blend_exact, evaluate_exact, linearize};
pub use params::{check_param, EvalParams, ParamInfo, SetParamError, HALF_BOARD};
pub use pawns::{pawn_hash, PawnCache};
pub use score::TaperedScore;
pub use trace::{trace, EvalTrace};

use self::pawns::{both_pawn_terms, PawnTerms};
use crate::{
    attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks},
    types::{Bitboard, Color, File, PieceType, Rank, Square},
    Position,
};

/// The game phase with all pieces on the board; 0 is a pawn ending.
pub const MAX_PHASE: i32 = 24;
/// The scale factor of an ordinary position; drawish endings get less.
pub const SCALE_NORMAL: i32 = 64;

/// Phase units per knight or bishop (a minor piece).
const PHASE_MINOR: i32 = 1;
/// Phase units per rook.
const PHASE_ROOK: i32 = 2;
/// Phase units per queen.
const PHASE_QUEEN: i32 = 4;

/// One part of the evaluation, as listed in the trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Term {
    /// Piece values.
    Material,
    /// Piece-square tables: where each piece stands.
    Psqt,
    /// Safe squares attacked by knights, bishops, rooks and queens.
    Mobility,
    /// Isolated, doubled, backward, phalanx and supported pawns.
    PawnStructure,
    /// Passed pawns: by rank, free path, king distances.
    PassedPawns,
    /// Pawn shield and attackers on the king zone (middlegame only).
    KingSafety,
    /// Rooks on open and semi-open files and on the 7th rank.
    Rooks,
    /// Both bishops.
    BishopPair,
    /// Driving a pawnless lone king to the edge in a won ending.
    MopUp,
    /// The side to move's bonus.
    Tempo,
}

impl Term {
    /// The number of terms.
    pub const NUM: usize = 10;
    /// Every term, in trace order.
    pub const ALL: [Term; Term::NUM] = [
        Term::Material,
        Term::Psqt,
        Term::Mobility,
        Term::PawnStructure,
        Term::PassedPawns,
        Term::KingSafety,
        Term::Rooks,
        Term::BishopPair,
        Term::MopUp,
        Term::Tempo,
    ];

    /// The term's position in [`Term::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The name shown in the trace.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Psqt => "Piece squares",
            Term::Mobility => "Mobility",
            Term::PawnStructure => "Pawn structure",
            Term::PassedPawns => "Passed pawns",
            Term::KingSafety => "King safety",
            Term::Rooks => "Rooks",
            Term::BishopPair => "Bishop pair",
            Term::MopUp => "Mop-up",
            Term::Tempo => "Tempo",
        }
    }
}

/// Where the terms go: summed for [`evaluate`], recorded per term for [`trace`].
pub(crate) trait Sink {
    /// Adds `score`, seen from `color`'s side, to `term`.
    fn add(&mut self, term: Term, color: Color, score: TaperedScore);
    /// The sum so far, White minus Black.
    fn total(&self) -> TaperedScore;
}

/// The sink of [`evaluate`]: only the running White-minus-Black sum.
struct Sum(TaperedScore);

impl Sink for Sum {
    #[inline(always)]
    fn add(&mut self, _term: Term, color: Color, score: TaperedScore) {
        match color {
            Color::White => self.0 += score,
            Color::Black => self.0 -= score,
        }
    }

    #[inline(always)]
    fn total(&self) -> TaperedScore {
        self.0
    }
}

/// The static evaluation of `pos` in centipawns, from the side to move's point of view (positive: the
/// side to move is better).
///
/// ```
/// use camelpy_core::{eval::{evaluate, EvalParams}, Position};
/// let start = evaluate(&Position::startpos(), &EvalParams::DEFAULT);
/// assert_eq!(start, EvalParams::DEFAULT.tempo.mg); // symmetric: only the tempo remains
/// ```
pub fn evaluate(pos: &Position, params: &EvalParams) -> i32 {
    evaluate_with(pos, params, None)
}

/// [`evaluate`] with the pawn-only terms from `cache` (the search's way: the same value, faster). The
/// cache must have been [`PawnCache::prepare`]d with `params`.
///
/// ```
/// use camelpy_core::{eval::{evaluate, evaluate_cached, EvalParams, PawnCache}, Position};
/// let mut cache = PawnCache::new();
/// cache.prepare(&EvalParams::DEFAULT);
/// let pos = Position::startpos();
/// assert_eq!(evaluate_cached(&pos, &EvalParams::DEFAULT, &mut cache), evaluate(&pos, &EvalParams::DEFAULT));
/// ```
#[inline]
pub fn evaluate_cached(pos: &Position, params: &EvalParams, cache: &mut PawnCache) -> i32 {
    evaluate_with(pos, params, Some(cache))
}

fn evaluate_with(pos: &Position, params: &EvalParams, cache: Option<&mut PawnCache>) -> i32 {
    let mut sum = Sum(TaperedScore::ZERO);
    let (phase, scale) = evaluate_into(pos, params, cache, &mut sum);
    let white = blend(sum.0, phase, scale);
    match pos.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Mixes a White-minus-Black sum into one White-point-of-view value: the middlegame part weighs
/// `phase / MAX_PHASE`, the endgame part the rest, and the whole is multiplied by `scale / SCALE_NORMAL`.
/// One division at the end, truncating towards zero, so `blend(-s) == -blend(s)`.
pub fn blend(total: TaperedScore, phase: i32, scale: i32) -> i32 {
    let tapered = total.mg * phase + total.eg * (MAX_PHASE - phase);
    tapered * scale / (MAX_PHASE * SCALE_NORMAL)
}

/// The game phase from the non-pawn material on the board: [`MAX_PHASE`] with all pieces, 0 with none
/// (capped at [`MAX_PHASE`] after promotions).
pub fn phase(pos: &Position) -> i32 {
    let minors = (pos.pieces(PieceType::Knight) | pos.pieces(PieceType::Bishop)).len() as i32;
    let rooks = pos.pieces(PieceType::Rook).len() as i32;
    let queens = pos.pieces(PieceType::Queen).len() as i32;
    (minors * PHASE_MINOR + rooks * PHASE_ROOK + queens * PHASE_QUEEN).min(MAX_PHASE)
}

/// Runs every term into `sink` and returns `(phase, scale)`. Shared by [`evaluate`] and [`trace`].
pub(crate) fn evaluate_into<S: Sink>(
    pos: &Position,
    params: &EvalParams,
    cache: Option<&mut PawnCache>,
    sink: &mut S,
) -> (i32, i32) {
    let pawn_attacked = [pawn_attack_set(pos, Color::White), pawn_attack_set(pos, Color::Black)];
    let mut king_attacks_on = [KingAttack::default(); 2];

    for us in Color::ALL {
        material(pos, params, us, sink);
        psqt(pos, params, us, sink);
        king_attacks_on[us.flip().index()] = pieces(pos, params, us, &pawn_attacked, sink);
        rooks(pos, params, us, sink);
        bishop_pair(pos, params, us, sink);
    }
    pawns(pos, params, &pawn_attacked, cache, sink);
    for us in Color::ALL {
        king_safety(pos, params, us, king_attacks_on[us.index()], sink);
    }
    sink.add(Term::Tempo, pos.side_to_move(), params.tempo);
    mop_up(pos, params, sink);

    let scale = scale_factor(pos, params, sink.total().eg);
    (phase(pos), scale)
}

/// Squares attacked by `color`'s pawns.
fn pawn_attack_set(pos: &Position, color: Color) -> Bitboard {
    let pawns = pos.colored_pieces(color, PieceType::Pawn).0;
    let not_a = !Bitboard::file(File::A).0;
    let not_h = !Bitboard::file(File::H).0;
    Bitboard(match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    })
}

/// Squares on ranks strictly in front of `rank` (a rank index, 0..8) as seen by `color`.
fn ranks_in_front(color: Color, rank: usize) -> Bitboard {
    Bitboard(match color {
        Color::White if rank >= 7 => 0,
        Color::White => u64::MAX << (8 * (rank + 1)),
        Color::Black if rank == 0 => 0,
        Color::Black => u64::MAX >> (64 - 8 * rank),
    })
}

/// The files next to `file`.
fn adjacent_files(file: File) -> Bitboard {
    let f = file.index();
    let left = if f > 0 { Bitboard::file(File::ALL[f - 1]) } else { Bitboard::EMPTY };
    let right = if f < 7 { Bitboard::file(File::ALL[f + 1]) } else { Bitboard::EMPTY };
    left | right
}

/// 0 on an edge file, 3 on the d- and e-files.
fn file_centrality(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    f.min(7 - f)
}

/// 0 in a corner, 6 on the four centre squares: file plus rank closeness to the centre.
fn centrality(sq: Square) -> i32 {
    let r = sq.rank().index() as i32;
    file_centrality(sq) + r.min(7 - r)
}

/// King-move (Chebyshev) distance.
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

/// The square in front of `sq` for `color`, if any.
fn forward(color: Color, sq: Square) -> Option<Square> {
    match color {
        Color::White => sq.try_offset(0, 1),
        Color::Black => sq.try_offset(0, -1),
    }
}

/// `color`'s material.
fn material<S: Sink>(pos: &Position, params: &EvalParams, us: Color, sink: &mut S) {
    sink.add(Term::Material, us, material_of(pos, params, us, true));
}

/// `color`'s material at (middlegame, endgame) values, pawns included or not.
fn material_of(pos: &Position, params: &EvalParams, color: Color, with_pawns: bool) -> TaperedScore {
    let mut score = TaperedScore::ZERO;
    for (pt, value) in [
        (PieceType::Pawn, params.pawn_value),
        (PieceType::Knight, params.knight_value),
        (PieceType::Bishop, params.bishop_value),
        (PieceType::Rook, params.rook_value),
        (PieceType::Queen, params.queen_value),
    ] {
        if with_pawns || pt != PieceType::Pawn {
            score += value * pos.colored_pieces(color, pt).len() as i32;
        }
    }
    score
}

/// Piece-square terms: each piece's table entry for its square (as `us` sees it, files mirrored).
fn psqt<S: Sink>(pos: &Position, params: &EvalParams, us: Color, sink: &mut S) {
    let mut score = TaperedScore::ZERO;
    for pt in PieceType::ALL {
        let table = params.psqt(pt);
        for sq in pos.colored_pieces(us, pt) {
            score += table[params::half_index(sq, us)];
        }
    }
    sink.add(Term::Psqt, us, score);
}

/// What one side's pieces aim at the other king's zone.
#[derive(Debug, Clone, Copy, Default)]
struct KingAttack {
    /// Pieces hitting the zone.
    attackers: i32,
    /// Attack units: piece weights plus zone squares hit.
    units: i32,
}

/// Mobility of knights, bishops, rooks and queens; returns their attack on the enemy king zone.
fn pieces<S: Sink>(
    pos: &Position,
    params: &EvalParams,
    us: Color,
    pawn_attacked: &[Bitboard; 2],
    sink: &mut S,
) -> KingAttack {
    let them = us.flip();
    let occupied = pos.occupied();
    let safe = !pos.colored(us) & !pawn_attacked[them.index()];
    let enemy_king = pos.king(them);
    let zone = king_attacks(enemy_king).with(enemy_king);

    let mut mobility = TaperedScore::ZERO;
    let mut attack = KingAttack::default();
    for (pt, per_square, weight) in [
        (PieceType::Knight, params.knight_mobility, params.king_attack_knight),
        (PieceType::Bishop, params.bishop_mobility, params.king_attack_bishop),
        (PieceType::Rook, params.rook_mobility, params.king_attack_rook),
        (PieceType::Queen, params.queen_mobility, params.king_attack_queen),
    ] {
        for sq in pos.colored_pieces(us, pt) {
            let attacks = match pt {
                PieceType::Knight => knight_attacks(sq),
                PieceType::Bishop => bishop_attacks(sq, occupied),
                PieceType::Rook => rook_attacks(sq, occupied),
                _ => queen_attacks(sq, occupied),
            };
            mobility += per_square * (attacks & safe).len() as i32;
            let hits = attacks & zone;
            if hits.any() {
                attack.attackers += 1;
                attack.units += weight + params.king_attack_square * hits.len() as i32;
            }
        }
    }
    sink.add(Term::Mobility, us, mobility);
    attack
}

/// Pawn structure and passed pawns: the pawn-only terms (from `cache` when there is one), then what a
/// passed pawn's path and the kings add.
fn pawns<S: Sink>(
    pos: &Position,
    params: &EvalParams,
    pawn_attacked: &[Bitboard; 2],
    cache: Option<&mut PawnCache>,
    sink: &mut S,
) {
    let white = pos.colored_pieces(Color::White, PieceType::Pawn);
    let black = pos.colored_pieces(Color::Black, PieceType::Pawn);
    let terms = match cache {
        Some(cache) => cache.get(params, white, black, pawn_attacked),
        None => both_pawn_terms(params, white, black, pawn_attacked),
    };
    let occupied = pos.occupied();
    for us in Color::ALL {
        let them = us.flip();
        let PawnTerms { structure, passed_rank, passed: passers } = terms[us.index()];
        let mut passed = passed_rank;
        for sq in passers {
            let steps = sq.rank().relative_to(us).index() as i32 - 1;
            if (occupied & Bitboard::file(sq.file()) & ranks_in_front(us, sq.rank().index())).is_empty() {
                passed += params.passed_free_path * steps;
            }
            if let Some(stop) = forward(us, sq) {
                let race = distance(pos.king(them), stop) * params.passed_enemy_king_distance
                    - distance(pos.king(us), stop) * params.passed_own_king_distance;
                passed += TaperedScore::new(0, race * steps);
            }
        }
        sink.add(Term::PawnStructure, us, structure);
        sink.add(Term::PassedPawns, us, passed);
    }
}

/// Rooks on open and semi-open files and on the 7th rank.
fn rooks<S: Sink>(pos: &Position, params: &EvalParams, us: Color, sink: &mut S) {
    let them = us.flip();
    let our_pawns = pos.colored_pieces(us, PieceType::Pawn);
    let their_pawns = pos.colored_pieces(them, PieceType::Pawn);
    let seventh = Bitboard::rank(Rank::Seventh.relative_to(us));
    let eighth = Bitboard::rank(Rank::Eighth.relative_to(us));
    let mut score = TaperedScore::ZERO;
    for sq in pos.colored_pieces(us, PieceType::Rook) {
        let file = Bitboard::file(sq.file());
        if (our_pawns & file).is_empty() {
            score += if (their_pawns & file).is_empty() {
                params.rook_open_file
            } else {
                params.rook_semi_open_file
            };
        }
        if seventh.has(sq) && ((their_pawns & seventh).any() || eighth.has(pos.king(them))) {
            score += params.rook_seventh;
        }
    }
    sink.add(Term::Rooks, us, score);
}

/// Bishops on both square colours.
fn bishop_pair<S: Sink>(pos: &Position, params: &EvalParams, us: Color, sink: &mut S) {
    let bishops = pos.colored_pieces(us, PieceType::Bishop);
    if (bishops & Bitboard::LIGHT).any() && (bishops & Bitboard::DARK).any() {
        sink.add(Term::BishopPair, us, params.bishop_pair);
    }
}

/// `us`'s king: pawn shield and the enemy's attack on its zone (middlegame only).
fn king_safety<S: Sink>(pos: &Position, params: &EvalParams, us: Color, attack: KingAttack, sink: &mut S) {
    let king = pos.king(us);
    let ours = pos.colored_pieces(us, PieceType::Pawn);
    let front = ranks_in_front(us, king.rank().index());
    let mut mg = 0;
    let king_file = king.file().index();
    for f in king_file.saturating_sub(1)..=(king_file + 1).min(7) {
        let shield = ours & Bitboard::file(File::ALL[f]) & front;
        if shield.is_empty() {
            mg += params.king_shield_missing;
            continue;
        }
        let one = forward(us, king).and_then(|s| s.try_offset(f as i8 - king_file as i8, 0));
        let two = one.and_then(|s| forward(us, s));
        if one.is_some_and(|s| shield.has(s)) {
            mg += params.king_shield_close;
        } else if two.is_some_and(|s| shield.has(s)) {
            mg += params.king_shield_far;
        }
    }
    if attack.attackers >= params.king_attack_min_attackers {
        let danger = attack.units * attack.units / params.king_danger_divisor.max(1);
        mg -= danger.min(params.king_danger_cap);
    }
    sink.add(Term::KingSafety, us, TaperedScore::new(mg, 0));
}

/// A clearly winning side against a king without pawns: push that king to the edge and bring ours close
/// ([CPW: Mop-up Evaluation](https://www.chessprogramming.org/Mop-up_Evaluation)). Endgame only.
fn mop_up<S: Sink>(pos: &Position, params: &EvalParams, sink: &mut S) {
    let lead =
        material_of(pos, params, Color::White, true).eg - material_of(pos, params, Color::Black, true).eg;
    let strong = if lead >= params.mopup_threshold {
        Color::White
    } else if -lead >= params.mopup_threshold {
        Color::Black
    } else {
        return;
    };
    let weak = strong.flip();
    if pos.colored_pieces(weak, PieceType::Pawn).any() {
        return;
    }
    let losing_king = pos.king(weak);
    let eg = params.mopup_edge * (6 - centrality(losing_king))
        + params.mopup_proximity * (7 - distance(pos.king(strong), losing_king));
    sink.add(Term::MopUp, strong, TaperedScore::new(0, eg));
}

/// How much of the score to keep, of [`SCALE_NORMAL`], given the endgame sum's sign (which names the
/// side trying to win). Every case is a late ending, where the middlegame part is nearly nothing, so the
/// factor multiplies the whole blended score and a drawn ending (KNNK) really comes out at zero.
fn scale_factor(pos: &Position, params: &EvalParams, eg: i32) -> i32 {
    let strong = match eg.signum() {
        1 => Color::White,
        -1 => Color::Black,
        _ => return SCALE_NORMAL,
    };
    let weak = strong.flip();
    let strong_pawns = pos.colored_pieces(strong, PieceType::Pawn).len() as i32;
    let minors_and_majors =
        |c: Color| pos.colored(c) & !pos.pieces(PieceType::Pawn) & !pos.pieces(PieceType::King);

    if strong_pawns == 0 {
        // KNK, KBK and same-coloured bishops cannot mate at all; two knights cannot force it.
        let strong_pieces = minors_and_majors(strong);
        let only_knights = strong_pieces == pos.colored_pieces(strong, PieceType::Knight);
        if pos.has_insufficient_material(strong) || (only_knights && strong_pieces.len() <= 2) {
            return 0;
        }
        // A minor piece up (or less) without pawns: KRBKR, KRKB, KBNKN and friends are rarely won.
        if material_of(pos, params, strong, false).mg - material_of(pos, params, weak, false).mg
            < params.rook_value.mg
        {
            return params.scale_minor_up;
        }
    }

    // Opposite-coloured bishops and nothing else but pawns: the defender blockades on the other colour.
    let (s, w) = (minors_and_majors(strong), minors_and_majors(weak));
    let bishops = pos.pieces(PieceType::Bishop);
    if s.len() == 1 && w.len() == 1 && (s & bishops).any() && (w & bishops).any() {
        let light = |b: Bitboard| (b & Bitboard::LIGHT).any();
        if light(s) != light(w) {
            return (params.scale_ocb_base + params.scale_ocb_per_pawn * strong_pawns).min(SCALE_NORMAL);
        }
    }
    SCALE_NORMAL
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(centrality(Square::A1), 0);
        assert_eq!(centrality(Square::H8), 0);
        assert_eq!(centrality(Square::E4), 6);
        assert_eq!(centrality(Square::D5), 6);
        assert_eq!(file_centrality(Square::C7), 2);
        assert_eq!(distance(Square::A1, Square::H8), 7);
        assert_eq!(distance(Square::E4, Square::F6), 2);
        assert_eq!(ranks_in_front(Color::White, 6), Bitboard::rank(Rank::Eighth));
        assert_eq!(ranks_in_front(Color::Black, 1), Bitboard::rank(Rank::First));
        assert!(ranks_in_front(Color::White, 7).is_empty());
        assert!(ranks_in_front(Color::Black, 0).is_empty());
        assert_eq!(adjacent_files(File::A), Bitboard::file(File::B));
        let pos = Position::from_fen("4k3/8/8/8/8/8/P6P/4K3 w - - 0 1", false).unwrap();
        assert_eq!(
            pawn_attack_set(&pos, Color::White),
            Bitboard::from(Square::B3) | Bitboard::from(Square::G3)
        );
    }

    #[test]
    fn blend_is_antisymmetric() {
        for (mg, eg, phase, scale) in [(17, -5, 13, 64), (-301, 77, 3, 40), (1, 1, 24, 7)] {
            let s = TaperedScore::new(mg, eg);
            assert_eq!(blend(-s, phase, scale), -blend(s, phase, scale));
        }
        assert_eq!(blend(TaperedScore::new(100, 200), MAX_PHASE, SCALE_NORMAL), 100);
        assert_eq!(blend(TaperedScore::new(100, 200), 0, SCALE_NORMAL), 200);
        assert_eq!(blend(TaperedScore::new(100, 200), 0, SCALE_NORMAL / 2), 100);
    }
}
