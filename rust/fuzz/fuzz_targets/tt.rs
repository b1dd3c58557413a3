//! Fuzz target `tt`: random sequences of `store`, `probe`, `new_search`, `clear`, `hashfull` and
//! re-creation on a small transposition table (one bucket, or 1 MiB with many keys in one bucket),
//! checked against a model of what was stored.
//!
//! Inputs stay within the search's domain: ply in `0..=MAX_PLY`, depth in `-8..=MAX_STORED_DEPTH`, values
//! `VALUE_NONE`, an ordinary score, or a mate score at least `ply` plies from the root.
//!
//! Invariants: nothing panics; `probe` never returns data for a key that was not stored (since the last
//! clear) or data other than the model's for that key; a store is visible right after it, and its value
//! probed at the same ply is the value stored (mate scores round-trip through the node-relative form);
//! probed at another ply a mate score moves by the ply difference; a key whose bucket has held at most
//! four distinct keys since the last clear is never lost; `hashfull` is at most 1000, 0 after a clear,
//! and exact whenever the model knows every sampled entry.
#![no_main]

use std::collections::{HashMap, HashSet};

use camelpy_core::{
    tt::{Bound, TTData, TranspositionTable, MAX_STORED_DEPTH},
    types::{MAX_PLY, VALUE_INFINITE, VALUE_MATE, VALUE_MATE_IN_MAX_PLY, VALUE_NONE},
    Move,
};
use libfuzzer_sys::{
    arbitrary::{Result, Unstructured},
    fuzz_target,
};

/// The table under test. `TranspositionTable::new` is about to become fallible (returning a `Result`);
/// then this line becomes `TranspositionTable::new(mb).expect("a small table allocates")`.
fn table(mb: usize) -> TranspositionTable {
    TranspositionTable::new(mb).expect("a small table allocates")
}

const BUCKET_BYTES: usize = 64;
const BUCKET_ENTRIES: usize = 4;
/// Buckets `hashfull` samples (the first ones): 1000 entries' worth, rounded up to whole buckets.
const HASHFULL_BUCKETS: usize = 1000 / BUCKET_ENTRIES + 1;
const GENERATIONS: u8 = 64;

/// What the model expects in the table for one key.
#[derive(Debug, Clone, Copy)]
struct Stored {
    mv: Option<Move>,
    /// The value as the search held it (relative to the root) and the ply it was stored at.
    value: i32,
    ply: i32,
    eval: i32,
    depth: i32,
    bound: Bound,
    generation: u8,
}

impl Stored {
    /// The value a probe at `ply` must see. A mate score is kept as "mate in n plies from the stored
    /// node": mate in `k` plies from the root stored at ply `p` is mate in `k - p` from the node, which
    /// seen from a node at ply `q` is mate in `k - p + q` plies from the root. Anything else is unchanged.
    fn value_at(&self, ply: i32) -> i32 {
        let v = self.value;
        if v == VALUE_NONE {
            v
        } else if v >= VALUE_MATE_IN_MAX_PLY {
            // v = MATE - k  ->  MATE - (k - p + q)
            v + self.ply - ply
        } else if v <= -VALUE_MATE_IN_MAX_PLY {
            // v = -MATE + k  ->  -MATE + (k - p + q)
            v - self.ply + ply
        } else {
            v
        }
    }

    fn expected(&self, ply: i32) -> TTData {
        TTData {
            mv: self.mv,
            value: self.value_at(ply),
            eval: self.eval,
            depth: self.depth,
            bound: self.bound,
        }
    }

    /// True if this entry packs to an all-zero data word, which the table reads as an empty slot.
    fn packs_to_zero(&self) -> bool {
        self.mv.is_none()
            && self.value == 0
            && self.eval == 0
            && self.depth == -8
            && self.bound == Bound::None
            && self.generation == 0
    }
}

struct Model {
    buckets: usize,
    generation: u8,
    entries: HashMap<u64, Stored>,
    /// Distinct keys stored per bucket since the last clear.
    seen: HashMap<usize, HashSet<u64>>,
}

impl Model {
    fn new(tt: &TranspositionTable) -> Model {
        assert_eq!(tt.size_bytes() % BUCKET_BYTES, 0);
        Model {
            buckets: tt.size_bytes() / BUCKET_BYTES,
            generation: 0,
            entries: HashMap::new(),
            seen: HashMap::new(),
        }
    }

    fn bucket(&self, key: u64) -> usize {
        ((key as u128 * self.buckets as u128) >> 64) as usize
    }

    /// Whether `key`'s entry cannot have been evicted: its bucket held at most four distinct keys.
    fn must_be_present(&self, key: u64) -> bool {
        self.entries.contains_key(&key)
            && self.seen.get(&self.bucket(key)).is_some_and(|keys| keys.len() <= BUCKET_ENTRIES)
    }

    /// The exact `hashfull`, if every sampled bucket's content is known.
    fn hashfull(&self) -> Option<u32> {
        let sampled = self.buckets.min(HASHFULL_BUCKETS);
        let mut used = 0;
        for (&bucket, keys) in &self.seen {
            if bucket < sampled {
                if keys.len() > BUCKET_ENTRIES {
                    return None;
                }
                used += keys
                    .iter()
                    .filter(|k| self.entries.get(k).is_some_and(|s| s.generation == self.generation))
                    .count();
            }
        }
        Some((used * 1000 / (sampled * BUCKET_ENTRIES)) as u32)
    }
}

fn key(u: &mut Unstructured) -> Result<u64> {
    let b: u8 = u.arbitrary()?;
    Ok(match b {
        // Small keys all fall in bucket 0: collisions and replacement.
        0..=159 => (b % 8) as u64,
        160..=223 => u.arbitrary()?,
        // The last bucket.
        _ => u64::MAX - (b & 7) as u64,
    })
}

fn ply(u: &mut Unstructured) -> Result<i32> {
    u.int_in_range(0..=MAX_PLY)
}

fn value(u: &mut Unstructured, ply: i32) -> Result<i32> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => VALUE_NONE,
        1 => u.int_in_range(-VALUE_MATE_IN_MAX_PLY + 1..=VALUE_MATE_IN_MAX_PLY - 1)?,
        // Mate found at `ply`, so at least `ply` plies from the root.
        2 => VALUE_MATE - u.int_in_range(ply..=MAX_PLY)?,
        _ => -VALUE_MATE + u.int_in_range(ply..=MAX_PLY)?,
    })
}

fn run(u: &mut Unstructured) -> Result<()> {
    let mut tt = table(u.int_in_range(0..=1usize)?);
    let mut model = Model::new(&tt);
    for _ in 0..2000 {
        if u.is_empty() {
            break;
        }
        match u.int_in_range(0..=9u8)? {
            0..=3 => {
                let key = key(u)?;
                let ply = ply(u)?;
                let value = value(u, ply)?;
                let eval = if u.arbitrary()? {
                    VALUE_NONE
                } else {
                    u.int_in_range(-VALUE_INFINITE..=VALUE_INFINITE)?
                };
                let depth = u.int_in_range(-8..=MAX_STORED_DEPTH)?;
                let bound =
                    [Bound::None, Bound::Upper, Bound::Lower, Bound::Exact][u.int_in_range(0..=3usize)?];
                let mv = Move::from_raw(u.arbitrary()?);

                let before = model.entries.get(&key).copied();
                let hit = tt.probe(key, 0);
                if let Some(hit) = hit {
                    let old = before.unwrap_or_else(|| panic!("probe hit key {key:#x}, never stored"));
                    assert_eq!(hit, old.expected(0), "probe of key {key:#x} disagrees with the model");
                }
                let fresh = Stored { mv, value, ply, eval, depth, bound, generation: model.generation };
                let kept = match (hit, before) {
                    (Some(_), Some(old))
                        if bound != Bound::Exact
                            && depth + 3 < old.depth
                            && old.generation == model.generation =>
                    {
                        Some(old)
                    }
                    _ => None,
                };
                let now = match (kept, hit, before) {
                    (Some(old), _, _) => old,
                    (None, Some(_), Some(old)) => Stored { mv: mv.or(old.mv), ..fresh },
                    _ => fresh,
                };
                tt.store(key, ply, TTData { mv, value, eval, depth, bound });
                model.seen.entry(model.bucket(key)).or_default().insert(key);
                if now.packs_to_zero() {
                    model.entries.remove(&key);
                    assert_eq!(tt.probe(key, ply), None, "an all-zero entry must read as empty");
                } else {
                    model.entries.insert(key, now);
                    let got =
                        tt.probe(key, ply).unwrap_or_else(|| panic!("store of key {key:#x} not visible"));
                    assert_eq!(got, now.expected(ply), "store then probe of key {key:#x}");
                    if kept.is_none() {
                        assert_eq!(got.value, value, "value {value} stored at ply {ply} did not round-trip");
                    }
                }
            }
            4..=5 => {
                let key = key(u)?;
                let ply = ply(u)?;
                match tt.probe(key, ply) {
                    Some(hit) => {
                        let stored = model.entries.get(&key).unwrap_or_else(|| {
                            panic!("probe hit key {key:#x}, not stored since the last clear")
                        });
                        assert_eq!(hit, stored.expected(ply), "probe of key {key:#x} at ply {ply}");
                    }
                    None => assert!(
                        !model.must_be_present(key),
                        "key {key:#x} lost though its bucket never overflowed"
                    ),
                }
            }
            6 => {
                tt.new_search();
                model.generation = (model.generation + 1) % GENERATIONS;
            }
            7 => {
                tt.clear();
                model = Model::new(&tt);
                assert_eq!(tt.hashfull(), 0);
            }
            8 => {
                let full = tt.hashfull();
                assert!(full <= 1000, "hashfull {full}");
                if let Some(expected) = model.hashfull() {
                    assert_eq!(full, expected, "hashfull disagrees with the model");
                }
            }
            _ => {
                tt = table(u.int_in_range(0..=1usize)?);
                model = Model::new(&tt);
                assert_eq!(tt.hashfull(), 0);
            }
        }
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
