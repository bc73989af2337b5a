//! A hash set split into shards by its keys' hash, so that it grows one shard at a time.
//!
//! A breadth-first search's visited set holds hundreds of millions of states. One hash table
//! doubles in a single step that moves every entry: growing past a gigabyte took 3.5 s on a
//! 2-vCPU machine, and a cancel or the time limit waited for it. In [`SHARDS`] tables, each
//! doubling moves one table's share, so the search polls its limits again within a few
//! milliseconds. Each shard's growth is reported to the run's memory budget before it
//! happens, so a run stopped at its limit never held more.

use super::memory::{buckets_for_capacity, buckets_to_hold, set_bytes};
use super::{Probe, Search, Stop};
use rustc_hash::{FxHashSet, FxHasher};
use std::hash::{Hash, Hasher};

/// How many shards a set has.
pub const SHARDS: usize = 1 << SHARD_BITS;

const SHARD_BITS: u32 = 8;

/// A set of keys in [`SHARDS`] hash tables.
pub struct ShardedSet<K> {
    shards: Vec<FxHashSet<K>>,
    len: usize,
    /// The bytes all shards hold, as [`set_bytes`] counts them.
    bytes: usize,
}

impl<K: Hash + Eq> Default for ShardedSet<K> {
    fn default() -> Self {
        ShardedSet {
            shards: (0..SHARDS).map(|_| FxHashSet::default()).collect(),
            len: 0,
            bytes: 0,
        }
    }
}

impl<K: Hash + Eq> ShardedSet<K> {
    /// The number of keys.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no key.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes its tables hold.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The shard of a key. Its index comes from the top of the hash multiplied again, not from
    /// the bits the shard's own table takes for its buckets and tags: shards sharing those
    /// would crowd each table's keys into the same tags.
    fn shard(key: &K) -> usize {
        let mut hasher = FxHasher::default();
        key.hash(&mut hasher);
        (hasher.finish().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SHARD_BITS)) as usize
    }

    /// Adds a key; returns whether it was new. When its shard must grow, the bytes the set
    /// will then hold, plus `other` bytes held elsewhere by the search, are reported first:
    /// past the memory limit the run stops with nothing grown.
    pub fn insert_within<P: Probe>(
        &mut self,
        key: K,
        other: usize,
        search: &mut Search<'_, P>,
    ) -> Result<bool, Stop> {
        let key_bytes = std::mem::size_of::<K>();
        let shard = &mut self.shards[Self::shard(&key)];
        if shard.len() == shard.capacity() {
            if shard.contains(&key) {
                return Ok(false);
            }
            let before = set_bytes(buckets_for_capacity(shard.capacity()), key_bytes);
            // One more than the capacity doubles the table, as an insert would.
            let after = set_bytes(buckets_to_hold(shard.capacity() + 1), key_bytes);
            search.set_memory(other + self.bytes - before + after)?;
            shard.try_reserve(1).map_err(|_| Stop::MemoryLimit)?;
            self.bytes =
                self.bytes - before + set_bytes(buckets_for_capacity(shard.capacity()), key_bytes);
            search.set_memory(other + self.bytes)?;
        }
        let new = shard.insert(key);
        self.len += usize::from(new);
        Ok(new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Limits, NoProbe};

    #[test]
    fn keys_are_kept_once_and_the_bytes_follow_the_tables() {
        let mut probe = NoProbe;
        let mut search = Search::new(&mut probe, &Limits::default());
        let mut set = ShardedSet::<u64>::default();
        for key in 0..100_000u64 {
            assert_eq!(set.insert_within(key * 31, 0, &mut search), Ok(true));
        }
        for key in 0..100_000u64 {
            assert_eq!(set.insert_within(key * 31, 0, &mut search), Ok(false));
        }
        assert_eq!(set.len(), 100_000);
        let counted: usize = set
            .shards
            .iter()
            .map(|s| set_bytes(buckets_for_capacity(s.capacity()), 8))
            .sum();
        assert_eq!(set.bytes(), counted);
        // The shards share the keys evenly.
        let most = set.shards.iter().map(|s| s.len()).max().unwrap_or(0);
        assert!(most < 2 * 100_000 / SHARDS, "a shard holds {most} keys");
    }

    #[test]
    fn a_shard_that_would_pass_the_memory_limit_does_not_grow() {
        let mut probe = NoProbe;
        let limits = Limits {
            memory_bytes: Some(200_000),
            ..Limits::default()
        };
        let mut search = Search::new(&mut probe, &limits);
        let mut set = ShardedSet::<u64>::default();
        let mut key = 0u64;
        let stop = loop {
            match set.insert_within(key, 0, &mut search) {
                Ok(_) => key += 1,
                Err(stop) => break stop,
            }
        };
        assert_eq!(stop, Stop::MemoryLimit);
        assert!(set.bytes() <= 200_000, "{}", set.bytes());
        assert!(set.bytes() > 100_000, "stopped early at {}", set.bytes());
    }
}
