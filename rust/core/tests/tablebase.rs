//! The tablebase solver against published facts and against the core's own move generator.

use std::sync::{atomic::AtomicBool, Arc, OnceLock};

use camelpy_core::{
    tablebase::{check, solve, Material, TableSet},
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

/// Every position of the 3-man tables and of KQvKR, KBNvK and KPvKP is the best of its moves by the
/// core's own move generator (`tablebase::check`): the solver's generator, retro-moves, layers,
/// symmetries and indexing are checked against the perft-checked one. (The other tables the tests
/// solve, KQvKP and its kin, are left to `camelpy tb check`: 36 M positions more.)
#[test]
fn every_value_is_the_best_of_its_moves() {
    let set = tables();
    let stop = AtomicBool::new(false);
    for name in ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KQvKR", "KBNvK", "KPvKP"] {
        let report = check(set, Material::parse(name).unwrap(), 2, &stop).unwrap();
        assert_eq!(report.mismatches, 0, "{name}: {:?}", report.examples);
        assert!(report.positions > 0, "{name}");
        assert_eq!(report.decisive > 0, !["KBvK", "KNvK"].contains(&name), "{name}");
    }
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
