//! The tablebase solver against published facts and against the core's own move generator.

use std::sync::{atomic::AtomicBool, Arc, OnceLock};

use camelpy_core::{
    data::SplitMix64,
    tablebase::{solve, Material, TableSet, TbValue},
    Position,
};

/// The tables of `names` and of every ending they lead to, solved in order.
fn solved(names: &[&str]) -> TableSet {
    let mut needed: Vec<Material> = names.iter().map(|n| Material::parse(n).unwrap().canonical()).collect();
    let mut i = 0;
    while i < needed.len() {
        for s in needed[i].successors() {
            if !needed.contains(&s) {
                needed.push(s);
            }
        }
        i += 1;
    }
    needed.sort_by_key(|m| m.generation_key());
    let mut set = TableSet::new();
    for material in needed {
        let (table, _) = solve(material, &set, 2, &AtomicBool::new(false)).unwrap();
        set.insert(Arc::new(table));
    }
    set
}

/// Every table the tests use, solved once: the closures of KQvKR, KBNvK and KPvKP (all 3-man
/// endings and the 4-man ones with a piece or pawn a side).
fn tables() -> &'static TableSet {
    static TABLES: OnceLock<TableSet> = OnceLock::new();
    TABLES.get_or_init(|| solved(&["KQvKR", "KBNvK", "KPvKP"]))
}

/// A random legal position with `pieces` ("KQkr": White upper case) and `stm` to move, or `None`
/// when the placement drawn is not legal.
fn random_position(rng: &mut SplitMix64, pieces: &str, stm: char) -> Option<Position> {
    let mut board = ['.'; 64];
    for c in pieces.chars() {
        let sq = rng.below(64);
        if board[sq] != '.' {
            return None;
        }
        board[sq] = c;
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                '.' => empty += 1,
                c => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    Position::from_fen(&format!("{fen} {stm} - - 0 1"), false).ok()
}

/// Every sampled position's value is the best of its moves' values (one ply on), by the core's move
/// generator: the solver's own generator, retro-moves, symmetries and indexing are checked by it.
fn check_consistency(set: &TableSet, pieces: &str, samples: usize, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let mut checked = 0;
    let mut decisive = 0;
    while checked < samples {
        let stm = if rng.below(2) == 0 { 'w' } else { 'b' };
        let Some(position) = random_position(&mut rng, pieces, stm) else { continue };
        let value = set.probe(&position).unwrap();
        let moves = position.legal_moves();
        let expected = if moves.is_empty() {
            if position.is_check() {
                TbValue::Loss(0)
            } else {
                TbValue::Draw
            }
        } else {
            let mut best: Option<TbValue> = None;
            for &mv in moves.iter() {
                let mut child = position.clone();
                child.play(mv);
                let v = set.probe(&child).unwrap().before_move();
                if best.is_none_or(|b| v.rank() > b.rank()) {
                    best = Some(v);
                }
            }
            best.unwrap()
        };
        assert_eq!(value, expected, "{} ({pieces})", position.fen());
        checked += 1;
        decisive += usize::from(value != TbValue::Draw);
    }
    assert!(decisive > 0, "{pieces}: no decisive position among {samples}");
}

#[test]
fn the_longest_mates_are_the_published_ones() {
    let set = tables();
    let longest = |name: &str| set.get(&Material::parse(name).unwrap()).unwrap().stats().longest_win;
    assert_eq!(longest("KQvK"), 19); // 10 moves
    assert_eq!(longest("KRvK"), 31); // 16 moves
    for name in ["KBvK", "KNvK"] {
        let stats = set.get(&Material::parse(name).unwrap()).unwrap().stats();
        assert_eq!((stats.wins, stats.losses), (0, 0), "{name} is a draw");
    }
    let kbn = set.get(&Material::parse("KBNvK").unwrap()).unwrap().stats();
    assert_eq!(kbn.longest_win, 65); // 33 moves
    let kqkr = set.get(&Material::parse("KQvKR").unwrap()).unwrap().stats();
    assert_eq!(kqkr.longest_win, 69); // 35 moves
}

#[test]
fn every_value_is_the_best_of_its_moves() {
    let set = tables();
    check_consistency(set, "KQk", 2000, 1);
    check_consistency(set, "KPk", 3000, 2);
    check_consistency(set, "KkP", 2000, 3);
    check_consistency(set, "KQkr", 3000, 4);
    check_consistency(set, "KPkp", 5000, 5);
}

#[test]
fn en_passant_is_resolved_when_probing() {
    let set = tables();
    // Black has just played g7-g5: only the en-passant capture saves... the capture is White's
    // best; the same position without the right is worth less (or the same) to White.
    let with = Position::from_fen("8/8/8/5Pp1/8/8/k7/6K1 w - g6 0 1", false).unwrap();
    let without = Position::from_fen("8/8/8/5Pp1/8/8/k7/6K1 w - - 0 1", false).unwrap();
    let (a, b) = (set.probe(&with).unwrap(), set.probe(&without).unwrap());
    assert!(a.rank() >= b.rank(), "{a:?} {b:?}");
    let mut after = with.clone();
    after.play(with.parse_uci("f5g6").unwrap());
    assert_eq!(a, set.probe(&after).unwrap().before_move().max_by_rank(b));
}

#[test]
fn a_missing_successor_is_an_error() {
    let err =
        solve(Material::parse("KQvKR").unwrap(), &TableSet::new(), 1, &AtomicBool::new(false)).unwrap_err();
    assert!(err.to_string().contains("needs the"), "{err}");
}
