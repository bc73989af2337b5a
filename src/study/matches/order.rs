//! The order a match runs its suite in: a seeded shuffle stratified by optimal length, the
//! same on every machine, run and resume.
//!
//! The puzzles are grouped by the suite's optimum (each length a group; unsolvable puzzles
//! and puzzles of unknown optimum a group each), each group shuffled with [`ORDER_SEED`], and
//! the groups interleaved by share: the `j`-th of a group of `n` stands at `j / n` of the way
//! through the match, so every prefix of the order holds every length in about its share of
//! the suite, and the first puzzles run hold one of every length. A match stopped early (a
//! sequential test, a cancel) has then measured a sample of the whole suite, never its
//! shortest puzzles alone, and the shards of a match ([`Shard`]: every `N`-th puzzle of the
//! order) each get a like mix of lengths, so they finish together.

use super::{Optimum, SuiteEntry};
use crate::study::experiment::Shard;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// The seed of the shuffle: fixed, so that every run of a suite takes one order.
pub const ORDER_SEED: u64 = 0x5eed_0fa3_a7c4_0001;

/// A group of puzzles of one optimum, in a fixed order of groups.
fn stratum(optimum: Optimum) -> (u8, u32) {
    match optimum {
        Optimum::Moves(moves) => (0, moves),
        Optimum::Unsolvable => (1, 0),
        Optimum::Unknown => (2, 0),
    }
}

/// The suite's indices in the order a match runs them (see the module's docs).
pub fn run_order(suite: &[SuiteEntry]) -> Vec<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(ORDER_SEED);
    let mut groups: BTreeMap<(u8, u32), Vec<usize>> = BTreeMap::new();
    for (index, entry) in suite.iter().enumerate() {
        groups
            .entry(stratum(entry.optimum))
            .or_default()
            .push(index);
    }
    // (place in the match as a fraction, a seeded tie-break, the index)
    let mut placed: Vec<(f64, u64, usize)> = Vec::with_capacity(suite.len());
    for members in groups.values_mut() {
        // Fisher-Yates with the seeded generator: the same on every platform.
        for i in (1..members.len()).rev() {
            members.swap(i, rng.random_range(0..=i));
        }
        let n = members.len() as f64;
        for (j, &index) in members.iter().enumerate() {
            placed.push((j as f64 / n, rng.random(), index));
        }
    }
    placed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    placed.into_iter().map(|(_, _, index)| index).collect()
}

/// The suite's indices a shard runs, in the match's order: every `N`-th of [`run_order`],
/// from the `I`-th.
pub fn shard_order(suite: &[SuiteEntry], shard: Shard) -> Vec<usize> {
    run_order(suite)
        .into_iter()
        .enumerate()
        .filter(|(position, _)| shard.contains(*position as u64))
        .map(|(_, index)| index)
        .collect()
}

/// Which puzzles the records cover, by the suite's optimum: `length 1: 21 of 50, length 2:
/// 20 of 50, …, unsolvable: 3 of 10`, for the note under a match stopped before its end.
pub fn coverage(suite: &[SuiteEntry], done: &dyn Fn(&str) -> bool) -> String {
    let mut groups: BTreeMap<(u8, u32), (usize, usize)> = BTreeMap::new();
    for entry in suite {
        let group = groups.entry(stratum(entry.optimum)).or_default();
        group.1 += 1;
        if done(&entry.id) {
            group.0 += 1;
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(&(kind, moves), &(ran, of))| {
            let name = match kind {
                0 => format!("length {moves}"),
                1 => "unsolvable".to_string(),
                _ => "optimum unknown".to_string(),
            };
            format!("{name}: {ran} of {of}")
        })
        .collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mixed_500() -> Vec<SuiteEntry> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/boards/suites/mixed-500.suite");
        super::super::load_suite(std::path::Path::new(path)).unwrap()
    }

    fn length(entry: &SuiteEntry) -> u32 {
        match entry.optimum {
            Optimum::Moves(moves) => moves,
            _ => u32::MAX,
        }
    }

    #[test]
    fn the_first_hundred_of_mixed_500_hold_every_length_in_its_share() {
        let suite = mixed_500();
        let order = run_order(&suite);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..suite.len()).collect::<Vec<_>>());
        let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
        for &index in &order[..100] {
            *counts.entry(length(&suite[index])).or_default() += 1;
        }
        assert_eq!(
            counts.keys().copied().collect::<Vec<_>>(),
            (1..=10).collect::<Vec<_>>()
        );
        // 50 of each length in 500: about 10 of each in the first 100.
        assert!(
            counts.values().all(|&n| (9..=11).contains(&n)),
            "{counts:?}"
        );
        // The first ten run are one of each length.
        let mut first: Vec<u32> = order[..10].iter().map(|&i| length(&suite[i])).collect();
        first.sort_unstable();
        assert_eq!(first, (1..=10).collect::<Vec<_>>());
        assert_eq!(
            order,
            run_order(&suite),
            "the order is the same on every call"
        );
    }

    #[test]
    fn shards_split_the_order_and_each_holds_every_length() {
        let suite = mixed_500();
        let mut all: Vec<usize> = Vec::new();
        for i in 1..=4 {
            let shard = shard_order(&suite, Shard::new(i, 4).unwrap());
            let mut lengths: Vec<u32> = shard.iter().map(|&i| length(&suite[i])).collect();
            lengths.sort_unstable();
            lengths.dedup();
            assert_eq!(lengths, (1..=10).collect::<Vec<_>>());
            all.extend(shard);
        }
        all.sort_unstable();
        assert_eq!(all, (0..suite.len()).collect::<Vec<_>>());
    }
}
