//! The transposition table: a fixed array of four-entry buckets of atomic words, shared by
//! the search threads without locks.
//!
//! A state key of `k` bits is mixed by a hash that is a bijection on `k`-bit numbers; the low
//! bits of the hash pick the bucket and the remaining high bits, the *tag*, are stored with the
//! iteration that wrote the entry and the depth left. Because the hash is a bijection, bucket
//! and tag together identify the key exactly: a hit is never a collision, so every cut the table
//! makes is sound. Each entry is one 64-bit word (tag, iteration byte, depth byte), written and
//! read whole, so a thread never sees half an entry. When a bucket is full the entry with the
//! least depth left gives way; losing an entry only costs search, never correctness.

use crate::solver::Pages;
use crate::solver::pages::advise_pages;
use std::convert::Infallible;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Entries per bucket: four words, half a cache line.
const WAYS: usize = 4;

/// How many buckets (2 MiB) a table writes between two polls while it is made or grown.
pub const POLL_BUCKETS: usize = 1 << 16;

/// Tables from this many chunks of [`POLL_BUCKETS`] on are made and grown by several threads
/// when they are given: writing fresh memory the first time is the system's slowest part of a
/// growth, and it runs that many times faster.
const PARALLEL_CHUNKS: usize = 4;

/// Bits of an entry below the tag: the iteration byte and the depth byte.
const PAYLOAD_BITS: u32 = 16;

/// One bucket, aligned so it never straddles a cache line.
#[repr(align(32))]
#[derive(Default)]
struct Bucket([AtomicU64; WAYS]);

/// What a lookup found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The state was searched (or is being searched) with at least this many moves left.
    Hit {
        /// The moves left it was searched with.
        stored: u32,
        /// Whether the entry was written in an earlier iteration.
        older: bool,
    },
    /// Not searched that deep before; the entry now records this search. `new` says whether
    /// the state had no entry at all.
    Stored {
        /// Whether a new entry was made.
        new: bool,
    },
}

/// A lock-free, lossy transposition table keyed on packed states, storing the depth left.
pub struct Table {
    buckets: Vec<Bucket>,
    bucket_bits: u32,
    key_bits: u32,
    pages: Pages,
}

/// The fewest bucket bits a table for `key_bits`-bit keys may have: the tag, the iteration
/// byte and the depth byte must fit one word, and a table has at least 256 buckets.
pub fn min_bucket_bits(key_bits: u32) -> u32 {
    key_bits.saturating_sub(64 - PAYLOAD_BITS).max(8)
}

impl Table {
    /// An empty table of `2^bucket_bits` buckets (at least [`min_bucket_bits`]) for keys of at
    /// most `key_bits` bits (1 to 64), on huge pages where the system gives them.
    pub fn new(bucket_bits: u32, key_bits: u32) -> Table {
        Table::with_pages(bucket_bits, key_bits, Pages::Huge)
    }

    /// [`Table::new`] on the pages asked for; a grown table keeps them.
    pub fn with_pages(bucket_bits: u32, key_bits: u32, pages: Pages) -> Table {
        match Table::polled(bucket_bits, key_bits, pages, 1, || Ok::<(), Infallible>(())) {
            Ok(table) => table,
            Err(never) => match never {},
        }
    }

    /// [`Table::with_pages`], written by `threads` threads (the calling one and scoped ones,
    /// joined before this returns), the calling one calling `poll` between chunks of
    /// [`POLL_BUCKETS`] buckets while the memory is first written, and giving up with its
    /// error. Writing a big table can take a tenth of a second or more when the system
    /// assembles huge pages, too long to leave a cancel unanswered.
    fn polled<E>(
        bucket_bits: u32,
        key_bits: u32,
        pages: Pages,
        threads: usize,
        mut poll: impl FnMut() -> Result<(), E>,
    ) -> Result<Table, E> {
        let key_bits = key_bits.clamp(1, 64);
        let bucket_bits = bucket_bits.max(min_bucket_bits(key_bits));
        let count = 1usize << bucket_bits;
        let mut buckets: Vec<Bucket> = Vec::with_capacity(count);
        advise_pages(
            buckets.as_ptr().cast(),
            count * std::mem::size_of::<Bucket>(),
            pages,
        );
        let chunks: Vec<&mut [MaybeUninit<Bucket>]> = buckets.spare_capacity_mut()[..count]
            .chunks_mut(POLL_BUCKETS)
            .collect();
        in_chunks(chunks, threads, &mut poll, |chunk| {
            for slot in chunk {
                slot.write(Bucket::default());
            }
        })?;
        // SAFETY: `in_chunks` returned without error only after every chunk was handled, and
        // the chunks cover the first `count` slots, so each of them holds an empty bucket.
        unsafe { buckets.set_len(count) };
        Ok(Table {
            buckets,
            bucket_bits,
            key_bits,
            pages,
        })
    }

    /// Mixes a key into a hash of the same width; a bijection on `key_bits`-bit numbers (each
    /// step, an xor with a shifted copy or a multiplication by an odd number modulo a power of
    /// two, can be undone).
    #[inline(always)]
    fn mix(&self, key: u64) -> u64 {
        let bits = self.key_bits;
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let shift = bits / 2 + 1;
        let mut h = key & mask;
        h ^= h >> shift;
        h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15) & mask;
        h ^= h >> shift;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9) & mask;
        h ^= h >> shift;
        h
    }

    /// The bytes the table takes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// The bytes a table of `2^bucket_bits` buckets takes.
    pub fn bytes_for(bucket_bits: u32) -> usize {
        (1usize << bucket_bits) * std::mem::size_of::<Bucket>()
    }

    /// The number of entries it can hold.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * WAYS
    }

    /// The bucket bits.
    pub fn bucket_bits(&self) -> u32 {
        self.bucket_bits
    }

    #[inline(always)]
    fn bucket(&self, hash: u64) -> &[AtomicU64; WAYS] {
        &self.buckets[(hash as usize) & (self.buckets.len() - 1)].0
    }

    /// Looks a state up with `left` moves to go in iteration `iteration` (both at most 255).
    /// A hit when it was searched with at least `left` moves left; otherwise the entry is
    /// raised to `left` (or made).
    #[inline(always)]
    pub fn probe_or_store(&self, key: u64, left: u32, iteration: u32) -> Lookup {
        self.probe_or_store_hash(self.mix(key), left, iteration)
    }

    /// The hash of a key, for [`Table::prefetch_hash`] and [`Table::probe_or_store_hash`]: a
    /// caller that does both computes it once.
    #[inline(always)]
    pub fn hash(&self, key: u64) -> u64 {
        self.mix(key)
    }

    /// [`Table::probe_or_store`] for the key whose [`Table::hash`] is `hash`.
    #[inline(always)]
    pub fn probe_or_store_hash(&self, hash: u64, left: u32, iteration: u32) -> Lookup {
        let bucket = self.bucket(hash);
        let tag = hash >> self.bucket_bits;
        let entry_for = (tag << PAYLOAD_BITS) | u64::from(iteration.min(255) << 8 | left.min(255));
        let mut weakest = 0;
        let mut weakest_depth = u64::MAX;
        for (way, slot) in bucket.iter().enumerate() {
            let entry = slot.load(Ordering::Relaxed);
            let stored = entry & 0xFF;
            // Empty slots are zero; real entries have a depth of at least one.
            if entry >> PAYLOAD_BITS == tag && stored != 0 {
                if stored >= u64::from(left) {
                    let written = ((entry >> 8) & 0xFF) as u32;
                    return Lookup::Hit {
                        stored: stored as u32,
                        older: written != iteration,
                    };
                }
                slot.store(entry_for, Ordering::Relaxed);
                return Lookup::Stored { new: false };
            }
            if stored < weakest_depth {
                weakest_depth = stored;
                weakest = way;
            }
        }
        bucket[weakest].store(entry_for, Ordering::Relaxed);
        Lookup::Stored { new: true }
    }

    /// Hints the processor to fetch the bucket of the key whose [`Table::hash`] is `hash`.
    #[inline(always)]
    pub fn prefetch_hash(&self, hash: u64) {
        let bucket = self.bucket(hash);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is only a hint and cannot fault; the pointer is to a live bucket.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                bucket.as_ptr().cast::<i8>(),
                std::arch::x86_64::_MM_HINT_T0,
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = bucket;
    }

    /// Rewrites every entry of iteration `iteration` (above 0) as one of the iteration before
    /// with one move left fewer. An iteration that stopped at its first solution proves
    /// nothing about the states it left; but if the iteration before proved its length
    /// impossible, a state met after `j` moves with `k` left has no solution in `k - 1` (with
    /// that path it would make a shorter one), which is what the rewritten entry says.
    pub fn demote_iteration(&mut self, iteration: u32) {
        let iteration = u64::from(iteration.clamp(1, 255));
        for slot in self
            .buckets
            .iter_mut()
            .flat_map(|bucket| bucket.0.iter_mut())
        {
            let entry = slot.get_mut();
            let stored = *entry & 0xFF;
            if stored != 0 && (*entry >> 8) & 0xFF == iteration {
                // A depth of zero would read as an empty slot, which it then is.
                *entry = if stored == 1 {
                    0
                } else {
                    (*entry >> PAYLOAD_BITS) << PAYLOAD_BITS | (iteration - 1) << 8 | (stored - 1)
                };
            }
        }
    }

    /// Whether the table is for keys of `key_bits` bits.
    pub fn holds_keys_of(&self, key_bits: u32) -> bool {
        self.key_bits == key_bits
    }

    /// A table with `2^bucket_bits` buckets holding this one's entries (as many as fit).
    pub fn grown(&self, bucket_bits: u32) -> Table {
        match self.grown_polled(bucket_bits, 1, || Ok::<(), Infallible>(())) {
            Ok(table) => table,
            Err(never) => match never {},
        }
    }

    /// [`Table::grown`], with `threads` threads (the calling one and scoped ones, joined
    /// before this returns) writing the new table, the calling one calling `poll` after every
    /// [`POLL_BUCKETS`] buckets it writes or moves, and giving up with its error (this table
    /// is then left as it was). The calling thread alone moves the entries over, in order, so
    /// the grown table holds the same entries however many threads wrote it.
    pub fn grown_polled<E>(
        &self,
        bucket_bits: u32,
        threads: usize,
        mut poll: impl FnMut() -> Result<(), E>,
    ) -> Result<Table, E> {
        let bigger = Table::polled(bucket_bits, self.key_bits, self.pages, threads, &mut poll)?;
        let chunks: Vec<(usize, &[Bucket])> = (0..)
            .step_by(POLL_BUCKETS)
            .zip(self.buckets.chunks(POLL_BUCKETS))
            .collect();
        in_chunks(chunks, 1, &mut poll, |(chunk_start, chunk)| {
            for (index, bucket) in (chunk_start..).zip(chunk) {
                for slot in &bucket.0 {
                    let entry = slot.load(Ordering::Relaxed);
                    if entry == 0 {
                        continue;
                    }
                    // The tag above the bucket index is the hash (see the module notes).
                    let hash = ((entry >> PAYLOAD_BITS) << self.bucket_bits) | index as u64;
                    let tag = hash >> bigger.bucket_bits;
                    let payload = entry & ((1 << PAYLOAD_BITS) - 1);
                    if let Some(free) = bigger
                        .bucket(hash)
                        .iter()
                        .find(|s| s.load(Ordering::Relaxed) == 0)
                    {
                        free.store((tag << PAYLOAD_BITS) | payload, Ordering::Relaxed);
                    }
                }
            }
        })?;
        Ok(bigger)
    }
}

/// Hands `chunks` out to `threads` threads (at least the calling one; more only for at least
/// [`PARALLEL_CHUNKS`] chunks), which run `work` on each. The calling thread calls `poll`
/// before each chunk it takes; on an error every thread stops taking chunks, and the error is
/// returned once all have stopped.
fn in_chunks<T: Send, E>(
    chunks: Vec<T>,
    threads: usize,
    poll: &mut impl FnMut() -> Result<(), E>,
    work: impl Fn(T) + Sync,
) -> Result<(), E> {
    let threads = if chunks.len() >= PARALLEL_CHUNKS {
        threads.clamp(1, chunks.len())
    } else {
        1
    };
    // Chunk `i` goes to thread `i % threads`: the chunks are all alike.
    let mut shares: Vec<Vec<T>> = (0..threads).map(|_| Vec::new()).collect();
    for (i, chunk) in chunks.into_iter().enumerate() {
        shares[i % threads].push(chunk);
    }
    let stop = AtomicBool::new(false);
    let mut shares = shares.into_iter();
    let own = shares.next().unwrap_or_default();
    std::thread::scope(|scope| {
        for share in shares {
            let (stop, work) = (&stop, &work);
            scope.spawn(move || {
                for chunk in share {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    work(chunk);
                }
            });
        }
        let mut own = own.into_iter();
        let outcome = loop {
            let Some(chunk) = own.next() else {
                break Ok(());
            };
            if let Err(error) = poll() {
                break Err(error);
            }
            work(chunk);
        };
        if outcome.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        outcome
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_is_a_bijection_on_narrow_keys() {
        for bits in [1u32, 5, 12, 17] {
            let table = Table::new(8, bits);
            let mut seen = std::collections::HashSet::new();
            for key in 0..(1u64 << bits) {
                let hash = table.mix(key);
                assert!(hash < (1u64 << bits));
                assert!(seen.insert(hash), "{bits}-bit keys collide at {key}");
            }
        }
    }

    #[test]
    fn a_state_hits_only_when_searched_at_least_as_deep() {
        let table = Table::new(8, 32);
        assert_eq!(table.probe_or_store(42, 3, 7), Lookup::Stored { new: true });
        assert_eq!(
            table.probe_or_store(42, 3, 7),
            Lookup::Hit {
                stored: 3,
                older: false
            }
        );
        assert_eq!(
            table.probe_or_store(42, 2, 8),
            Lookup::Hit {
                stored: 3,
                older: true
            }
        );
        assert_eq!(
            table.probe_or_store(42, 5, 8),
            Lookup::Stored { new: false }
        );
        assert_eq!(
            table.probe_or_store(42, 4, 8),
            Lookup::Hit {
                stored: 5,
                older: false
            }
        );
        assert_eq!(table.probe_or_store(43, 2, 8), Lookup::Stored { new: true });
    }

    #[test]
    fn wide_keys_never_collide_in_a_crowded_table() {
        // 60-bit keys (five robots on the largest board) that differ only in their high bits.
        let table = Table::new(0, 60);
        for i in 0..64u64 {
            table.probe_or_store(i << 50, 2, 1);
        }
        for i in 64..128u64 {
            assert!(matches!(
                table.probe_or_store(i << 50, 2, 1),
                Lookup::Stored { .. }
            ));
        }
    }

    /// A small table with 500 keys put in, and the keys it holds.
    fn table_with_entries() -> (Table, Vec<u64>) {
        let table = Table::new(8, 40);
        for key in 0..500u64 {
            table.probe_or_store(key * 7919, 2, 1);
        }
        let held: Vec<u64> = (0..500u64)
            .filter(|&key| matches!(table.probe_or_store(key * 7919, 2, 1), Lookup::Hit { .. }))
            .collect();
        (table, held)
    }

    #[test]
    fn entries_survive_growth() {
        let (table, held) = table_with_entries();
        assert!(held.len() > 400);
        let grown = table.grown(12);
        for key in held {
            assert!(matches!(
                grown.probe_or_store(key * 7919, 2, 1),
                Lookup::Hit { .. }
            ));
        }
    }

    #[test]
    fn growth_on_several_threads_keeps_entries_and_gives_up_when_asked() {
        let (table, held) = table_with_entries();
        // Eight chunks to write, shared by three threads.
        let mut polls = 0;
        let grown = table
            .grown_polled(19, 3, || {
                polls += 1;
                Ok::<(), ()>(())
            })
            .expect("never asked to stop");
        assert_eq!(grown.bytes(), Table::bytes_for(19));
        assert!(polls >= 3, "polled {polls} times");
        for key in held {
            assert!(matches!(
                grown.probe_or_store(key * 7919, 2, 1),
                Lookup::Hit { .. }
            ));
        }
        let stopped = table.grown_polled(19, 3, || Err("stop"));
        assert_eq!(stopped.err(), Some("stop"));
    }

    #[test]
    fn growth_polls_between_chunks_and_gives_up_when_asked() {
        let table = Table::new(8, 40);
        for key in 0..500u64 {
            table.probe_or_store(key * 7919, 2, 1);
        }
        // Four chunks to write and one to move over: the poll is asked at least four times.
        let mut polls = 0;
        let grown = table.grown_polled(18, 1, || {
            polls += 1;
            Ok::<(), ()>(())
        });
        assert!(grown.is_ok());
        assert!(polls >= 4, "polled {polls} times");
        let mut left = 2;
        let stopped = table.grown_polled(18, 1, || {
            left -= 1;
            if left == 0 { Err("stop") } else { Ok(()) }
        });
        assert_eq!(stopped.err(), Some("stop"));
        // The table given up on leaves this one whole.
        assert!(matches!(
            table.probe_or_store(7919, 2, 1),
            Lookup::Hit { .. }
        ));
    }
}
