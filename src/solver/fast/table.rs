//! The transposition table: a fixed array of four-entry buckets of atomic words, shared by
//! the search threads without locks.
//!
//! A state key (at most 60 bits) is mixed by a bijective hash; the low bits of the hash pick
//! the bucket and the remaining high bits, the *tag*, are stored with the depth left. Because
//! the hash is a bijection, bucket and tag together identify the key exactly: a hit is never a
//! collision, so every cut the table makes is sound. Each entry is one 64-bit word (tag above,
//! depth in the low byte), written and read whole, so a thread never sees half an entry. When a
//! bucket is full the entry with the least depth left gives way; losing an entry only costs
//! search, never correctness.

use std::sync::atomic::{AtomicU64, Ordering};

/// Entries per bucket: four words, half a cache line.
const WAYS: usize = 4;

/// The fewest bucket bits: with at least 8 of them the tag of a 64-bit hash fits in 56 bits.
pub const MIN_BUCKET_BITS: u32 = 8;

/// One bucket, aligned so it never straddles a cache line.
#[repr(align(32))]
#[derive(Default)]
struct Bucket([AtomicU64; WAYS]);

/// A lock-free, lossy transposition table keyed on packed states, storing the depth left.
pub struct Table {
    buckets: Vec<Bucket>,
    bucket_bits: u32,
}

/// Mixes a key into a hash; a bijection on 64-bit words (each step can be undone).
#[inline(always)]
fn mix(key: u64) -> u64 {
    let mut h = key;
    h ^= h >> 31;
    h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 32;
    h
}

impl Table {
    /// An empty table of `2^bucket_bits` buckets (at least [`MIN_BUCKET_BITS`]).
    pub fn new(bucket_bits: u32) -> Table {
        let bucket_bits = bucket_bits.max(MIN_BUCKET_BITS);
        let mut buckets = Vec::new();
        buckets.resize_with(1usize << bucket_bits, Bucket::default);
        Table {
            buckets,
            bucket_bits,
        }
    }

    /// The bytes the table takes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// The number of entries it can hold.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * WAYS
    }

    /// The bucket bits.
    pub fn bucket_bits(&self) -> u32 {
        self.bucket_bits
    }

    /// Looks a state up with `left` moves to go. Returns the depth stored for it when that is at
    /// least `left` (the state was searched at least that deep: a hit). Otherwise records
    /// `left` for the state and returns `None`. The second value says whether a new entry was
    /// made.
    #[inline(always)]
    pub fn probe_or_store(&self, key: u64, left: u32) -> (Option<u32>, bool) {
        let hash = mix(key);
        let bucket = &self.buckets[(hash as usize) & (self.buckets.len() - 1)].0;
        let tag = hash >> self.bucket_bits;
        // Depths above 255 are stored as 255: storing less than the truth only weakens cuts.
        let depth = u64::from(left.min(255));
        let mut weakest = 0;
        let mut weakest_depth = u64::MAX;
        for (way, slot) in bucket.iter().enumerate() {
            let entry = slot.load(Ordering::Relaxed);
            if entry >> 8 == tag && entry != 0 {
                let stored = entry & 0xFF;
                if stored >= depth {
                    return (Some(stored as u32), false);
                }
                slot.store((tag << 8) | depth, Ordering::Relaxed);
                return (None, false);
            }
            let stored = entry & 0xFF;
            if stored < weakest_depth {
                weakest_depth = stored;
                weakest = way;
            }
        }
        bucket[weakest].store((tag << 8) | depth, Ordering::Relaxed);
        (None, true)
    }

    /// Hints the processor to fetch the bucket of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let hash = mix(key);
        let bucket = &self.buckets[(hash as usize) & (self.buckets.len() - 1)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is only a hint; the pointer is to a live bucket of this table.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                (bucket as *const Bucket).cast::<i8>(),
                std::arch::x86_64::_MM_HINT_T0,
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// A table with `2^bucket_bits` buckets holding this one's entries (as many as fit).
    pub fn grown(&self, bucket_bits: u32) -> Table {
        let bigger = Table::new(bucket_bits);
        for (index, bucket) in self.buckets.iter().enumerate() {
            for slot in &bucket.0 {
                let entry = slot.load(Ordering::Relaxed);
                if entry == 0 {
                    continue;
                }
                // The bucket index and the tag together are the hash (see the module notes).
                let hash = ((entry >> 8) << self.bucket_bits) | index as u64;
                let target = &bigger.buckets[(hash as usize) & (bigger.buckets.len() - 1)].0;
                let tag = hash >> bigger.bucket_bits;
                let depth = entry & 0xFF;
                if let Some(free) = target
                    .iter()
                    .find(|s| s.load(Ordering::Relaxed) == 0)
                {
                    free.store((tag << 8) | depth, Ordering::Relaxed);
                }
            }
        }
        bigger
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_is_a_bijection_on_a_sample() {
        let mut seen = std::collections::HashSet::new();
        for key in 0..100_000u64 {
            assert!(seen.insert(mix(key)));
        }
    }

    #[test]
    fn a_state_hits_only_when_searched_at_least_as_deep() {
        let table = Table::new(8);
        assert_eq!(table.probe_or_store(42, 3), (None, true));
        assert_eq!(table.probe_or_store(42, 3), (Some(3), false));
        assert_eq!(table.probe_or_store(42, 2), (Some(3), false));
        assert_eq!(table.probe_or_store(42, 5), (None, false));
        assert_eq!(table.probe_or_store(42, 4), (Some(5), false));
        assert_eq!(table.probe_or_store(43, 1), (None, true));
    }

    #[test]
    fn entries_survive_growth() {
        let table = Table::new(8);
        for key in 0..500u64 {
            table.probe_or_store(key * 7919, 2);
        }
        let grown = table.grown(12);
        let kept = (0..500u64)
            .filter(|&key| grown.probe_or_store(key * 7919, 2).0.is_some())
            .count();
        // Every entry the small table still held is found in the big one.
        let held = (0..500u64)
            .filter(|&key| table.probe_or_store(key * 7919, 2).0.is_some())
            .count();
        assert_eq!(kept, held);
        assert!(held > 400);
    }
}
