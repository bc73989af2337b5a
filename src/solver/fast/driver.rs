//! The driver: runs the iterations of the deepening, owns and grows the table, and chooses
//! between one thread and all of them for each iteration.

use super::control::{Halt, MainControl, NoControl};
use super::node::Visit;
use super::setup::Setup;
use super::table::{Table, min_bucket_bits};
use super::worker::{Counters, Worker};
use super::{
    CLOSURE_DEPTH, HUGE_PAGE_REPORT_BYTES, LARGE_BUCKET_BITS, LAST_MOVES_THRESHOLD,
    MAX_BUCKET_BITS, MAX_DEPTH, PARALLEL_THRESHOLD, Path, SPLIT_DEPTH,
};
use crate::model::{Direction, Move};
use crate::solver::pages::anon_huge_page_bytes;
use crate::solver::probe::{DepthStats, Event};
use crate::solver::stops::unreachable;
use crate::solver::{Probe, Search, SearchEnd, SolverOptions, Stop};

/// How an iteration ended.
pub(super) enum Ending {
    /// With this solution, as (robot, direction) pairs.
    Found(Path),
    /// Without one; the root needs at least this many moves.
    Failed(u32),
}

/// Runs the iterations and owns the table.
pub(super) struct Driver<'a, const NO_REBOUND: bool> {
    pub setup: &'a Setup,
    pub table: Table,
    /// Entries made since the table last grew.
    pub inserted: u64,
    pub threads: usize,
}

impl<const NO_REBOUND: bool> Driver<'_, NO_REBOUND> {
    pub fn run<P: Probe>(
        &mut self,
        options: &SolverOptions,
        search: &mut Search<'_, P>,
    ) -> SearchEnd {
        let end = self.iterate(options, search);
        // While the table still lives: how much of it the system backed with huge pages.
        if self.table.bytes() >= HUGE_PAGE_REPORT_BYTES {
            search.huge_page_bytes = anon_huge_page_bytes();
        }
        // Freeing hundreds of MiB takes a while: the caller does it once it has reported.
        search.retire(std::mem::replace(&mut self.table, Table::new(0, 1)));
        end
    }

    pub fn iterate<P: Probe>(
        &mut self,
        options: &SolverOptions,
        search: &mut Search<'_, P>,
    ) -> SearchEnd {
        let bytes = self.table.bytes() + self.setup.bytes();
        if let Err(stop) = search.reserve_memory(bytes) {
            return SearchEnd::Stopped(stop);
        }
        if let Err(stop) = search.set_memory(bytes) {
            return SearchEnd::Stopped(stop);
        }
        let root = Worker::<_, NO_REBOUND>::new(self.setup, &self.table, NoControl, 0);
        let start_bound = root.rook_bound();
        if unreachable(start_bound) {
            search.finish_depth(DepthStats::default());
            return SearchEnd::Unsolvable(None);
        }
        let mut depth = start_bound.max(self.setup.min_len);
        let mut previous_nodes = 0;
        let mut closure_tried = false;
        loop {
            let cap = options.depth_limit.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
            if depth > cap {
                return SearchEnd::Unsolvable(Some(cap));
            }
            if depth >= CLOSURE_DEPTH && !closure_tried {
                closure_tried = true;
                match self.goal_unreachable(search) {
                    Ok(true) => return SearchEnd::Unsolvable(None),
                    Ok(false) => {}
                    Err(stop) => return SearchEnd::Stopped(stop),
                }
            }
            if let Err(stop) = self.grow_table(search) {
                return SearchEnd::Stopped(stop);
            }
            if previous_nodes >= LAST_MOVES_THRESHOLD && !self.setup.cell_sets_ready() {
                let setup = self.setup;
                let bytes = self.table.bytes() + setup.bytes() + setup.cell_sets_bytes();
                if let Err(stop) = search.reserve_memory(bytes) {
                    return SearchEnd::Stopped(stop);
                }
                setup.prepare_cell_sets();
                if let Err(stop) = search.set_memory(self.table.bytes() + setup.bytes()) {
                    return SearchEnd::Stopped(stop);
                }
            }
            search.probe.event(|| Event::IterationStarted { depth });
            let parallel = self.threads > 1
                && !search.probe.wants_events()
                && previous_nodes >= PARALLEL_THRESHOLD
                && depth > SPLIT_DEPTH + 1;
            let (result, counters) = if parallel {
                self.parallel_iteration(depth, search)
            } else {
                self.single_iteration(depth, search)
            };
            previous_nodes = counters.nodes;
            self.inserted += counters.inserted;
            let stats = counters.depth_stats(depth);
            let needed = match result {
                Err(stop) => return SearchEnd::Stopped(stop),
                Ok(Ending::Found(path)) => {
                    search.finish_depth(stats);
                    return SearchEnd::Found(self.moves(&path));
                }
                Ok(Ending::Failed(needed)) => {
                    search.finish_depth(stats);
                    needed
                }
            };
            if !counters.cut {
                return SearchEnd::Unsolvable(None);
            }
            // The root proved it needs `needed` moves: iterations below that would fail.
            depth = needed.max(depth + 1);
        }
    }

    /// Grows the table when the last iterations made more entries than it holds.
    pub fn grow_table<P: Probe>(&mut self, search: &mut Search<'_, P>) -> Result<(), Stop> {
        let Some(new_bits) = grown_bucket_bits(
            self.table.bucket_bits(),
            self.table.capacity() as u64,
            self.inserted,
        ) else {
            return Ok(());
        };
        let new_bits = new_bits.max(min_bucket_bits(
            self.setup.robot_bits * self.setup.robots as u32,
        ));
        // Both tables live while entries move over. Asked before allocating, so a run stopped
        // here reports only what it held.
        let fixed = self.setup.bytes();
        let during = fixed + self.table.bytes() + Table::bytes_for(new_bits);
        search.reserve_memory(during)?;
        search.set_memory(during)?;
        // Polled, so a cancel or the time limit is answered while a big table is written.
        self.table = self
            .table
            .grown_polled(new_bits, self.threads, || search.poll())?;
        self.inserted = 0;
        search.set_memory(fixed + self.table.bytes())
    }

    fn single_iteration<P: Probe>(
        &mut self,
        depth: u32,
        search: &mut Search<'_, P>,
    ) -> (Result<Ending, Stop>, Counters) {
        let control = MainControl::new(search, None);
        let mut worker = Worker::<_, NO_REBOUND>::new(self.setup, &self.table, control, depth);
        let visit = worker.node(0, depth, u16::MAX, false);
        worker.flush_profile();
        let result = match visit {
            Ok(Visit::Found) => Ok(Ending::Found(std::mem::take(&mut worker.path))),
            Ok(Visit::Failed(needed)) => Ok(Ending::Failed(needed)),
            Err(Halt::Stop(stop)) => Err(stop),
            // Nothing can abandon a run on one thread.
            Err(Halt::Abandon) => Ok(Ending::Failed(depth + 1)),
        };
        (result, worker.counters)
    }

    fn moves(&self, path: &[(u8, u8)]) -> Vec<Move> {
        path.iter()
            .map(|&(r, d)| {
                Move::new(
                    self.setup.colors[usize::from(r)],
                    Direction::ALL[usize::from(d)],
                )
            })
            .collect()
    }
}

/// The bucket bits a table of `2^bits` buckets holding `capacity` entries grows to after
/// `inserted` new entries since it last grew, or `None` when it stays. A small table grows
/// fourfold (or more, to hold four times the entries) once half full, up to
/// [`LARGE_BUCKET_BITS`]; a large one doubles only once it overflows, up to
/// [`MAX_BUCKET_BITS`].
fn grown_bucket_bits(bits: u32, capacity: u64, inserted: u64) -> Option<u32> {
    let large = bits >= LARGE_BUCKET_BITS;
    let full = if large { capacity } else { capacity / 2 };
    if bits >= MAX_BUCKET_BITS || inserted <= full {
        return None;
    }
    if large {
        return Some(bits + 1);
    }
    let wanted = (inserted * 4).max(1);
    let mut new_bits = bits + 2;
    while new_bits < LARGE_BUCKET_BITS && ((1u64 << new_bits) * 4) < wanted {
        new_bits += 1;
    }
    Some(new_bits.min(LARGE_BUCKET_BITS))
}

#[cfg(test)]
mod growth_tests {
    use super::*;

    /// The entries a table of `2^bits` buckets holds (four per bucket).
    fn capacity(bits: u32) -> u64 {
        4 << bits
    }

    #[test]
    fn small_tables_grow_fourfold_once_half_full_and_large_ones_double_once_full() {
        // Half full is not yet more than half.
        assert_eq!(grown_bucket_bits(10, capacity(10), capacity(10) / 2), None);
        assert_eq!(
            grown_bucket_bits(10, capacity(10), capacity(10) / 2 + 1),
            Some(12)
        );
        // Many entries at once: room for four times them.
        assert_eq!(grown_bucket_bits(10, capacity(10), capacity(14)), Some(16));
        // A small table never jumps past the large size, and steps onto it from just below.
        assert_eq!(
            grown_bucket_bits(12, capacity(12), capacity(30)),
            Some(LARGE_BUCKET_BITS)
        );
        let below = LARGE_BUCKET_BITS - 1;
        assert_eq!(
            grown_bucket_bits(below, capacity(below), capacity(below)),
            Some(LARGE_BUCKET_BITS)
        );
        // A large table keeps its size until it overflows, then doubles, up to the most.
        let large = LARGE_BUCKET_BITS;
        assert_eq!(
            grown_bucket_bits(large, capacity(large), capacity(large)),
            None
        );
        assert_eq!(
            grown_bucket_bits(large, capacity(large), capacity(large) + 1),
            Some(large + 1)
        );
        let most = MAX_BUCKET_BITS;
        assert_eq!(
            grown_bucket_bits(most - 1, capacity(most - 1), u64::MAX / 8),
            Some(most)
        );
        assert_eq!(grown_bucket_bits(most, capacity(most), u64::MAX / 8), None);
    }
}
