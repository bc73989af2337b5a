//! The parallel units: an iteration's tree cut at a small depth into work units, handed out
//! in order from a shared counter to every thread; all threads share the table. When several
//! units hold solutions, the one from the earliest unit is returned.

use super::control::{Control, Halt, HelperControl, MainControl};
use super::driver::{Driver, Ending};
use super::node::Visit;
use super::setup::Setup;
use super::table::Table;
use super::units::{Shared, Unit};
use super::worker::{Counters, Worker};
use super::{MAX_DEPTH, SPLIT_DEPTH};
use crate::solver::profile::NodeProfile;
use crate::solver::{Probe, Search, Stop};
use std::sync::atomic::Ordering;

impl<C: Control, const NO_REBOUND: bool> Worker<'_, C, NO_REBOUND> {
    /// Takes work units in order from the shared counter and searches each until none is
    /// left, the run stops, or a solution in an earlier unit makes the rest pointless. Returns
    /// the least any unit proved it needs (counted from the root of an iteration of depth
    /// `depth`), and the stop that ended the run, if one did.
    pub fn take_units(
        &mut self,
        units: &[Unit],
        shared: &Shared,
        depth: u32,
    ) -> (u32, Option<Stop>) {
        let mut needs = MAX_DEPTH + 1;
        loop {
            let index = shared.next_unit.fetch_add(1, Ordering::Relaxed);
            if index >= units.len() || shared.abandons(index) {
                return (needs, None);
            }
            self.control.set_unit(index);
            match self.unit(&units[index], SPLIT_DEPTH, depth - SPLIT_DEPTH) {
                Ok(Visit::Found) => shared.offer(index, &self.path),
                Ok(Visit::Failed(n)) => needs = needs.min(n + SPLIT_DEPTH),
                // An abandoned unit proves only what the iteration does.
                Err(Halt::Abandon) => needs = needs.min(depth + 1),
                Err(Halt::Stop(stop)) => return (needs, Some(stop)),
            }
        }
    }

    /// Searches one work unit.
    fn unit(&mut self, unit: &Unit, depth: u32, left: u32) -> Result<Visit, Halt> {
        self.cells = unit.cells;
        self.columns = unit.columns;
        self.last_dirs = unit.last_dirs;
        self.path.clear();
        self.path.extend_from_slice(&unit.path);
        let visit = self.node(depth, left, unit.last_from, unit.stored);
        // The next unit's first moves are not this one's.
        self.flush_profile();
        visit
    }
}

impl<const NO_REBOUND: bool> Driver<'_, NO_REBOUND> {
    pub(super) fn parallel_iteration<P: Probe>(
        &mut self,
        depth: u32,
        search: &mut Search<'_, P>,
    ) -> (Result<Ending, Stop>, Counters) {
        let shared = Shared::new();
        // Cut the tree into units on the main thread (this also searches the shallow part).
        let mut counters = Counters::default();
        let shallow_needs;
        let units = {
            let control = MainControl::new(&mut *search, Some(&shared));
            let mut worker = Worker::<_, NO_REBOUND>::new(self.setup, &self.table, control, depth);
            worker.split = Some(SPLIT_DEPTH);
            let result = worker.node(0, depth, u16::MAX, false);
            worker.flush_profile();
            counters.add(&worker.counters);
            match result {
                Ok(Visit::Found) => {
                    return (
                        Ok(Ending::Found(std::mem::take(&mut worker.path))),
                        counters,
                    );
                }
                Ok(Visit::Failed(needs)) => shallow_needs = needs,
                Err(Halt::Stop(stop)) => return (Err(stop), counters),
                Err(Halt::Abandon) => return (Ok(Ending::Failed(depth + 1)), counters),
            }
            std::mem::take(&mut worker.units)
        };
        let setup = self.setup;
        let table = &self.table;
        let helpers = self.threads - 1;
        search.threads = search.threads.max(self.threads);
        // The least a unit proved it needs, counted from the root, and what stopped the run.
        let (mut unit_needs, mut stopped) = (MAX_DEPTH + 1, None);
        let units = &units;
        let shared = &shared;
        // Each other thread counts its own node profile, of the run's depth, when it profiles.
        let empty_profile = search.probe.node_profile().map(|p| p.emptied());
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..helpers)
                .map(|_| {
                    let profile = empty_profile.clone();
                    scope.spawn(move || {
                        // A constant condition: only one branch is compiled.
                        if P::PROFILES {
                            let control = HelperControl::<true>::new(shared, profile);
                            helper_search::<true, NO_REBOUND>(
                                setup, table, control, units, shared, depth,
                            )
                        } else {
                            let control = HelperControl::<false>::new(shared, None);
                            helper_search::<false, NO_REBOUND>(
                                setup, table, control, units, shared, depth,
                            )
                        }
                    })
                })
                .collect();
            let control = MainControl::new(&mut *search, Some(shared));
            let mut worker = Worker::<_, NO_REBOUND>::new(setup, table, control, depth);
            (unit_needs, stopped) = worker.take_units(units, shared, depth);
            counters.add(&worker.counters);
            // Keep honouring the limits while the other threads finish their last units.
            let search = worker.control.search;
            while stopped.is_none() && shared.helpers_done.load(Ordering::Acquire) < helpers {
                if let Err(stop) = search.poll() {
                    shared.stop.store(true, Ordering::Relaxed);
                    stopped = Some(stop);
                }
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
            for handle in handles {
                // A panic in another thread is a bug; its counters are then lost, not the run.
                if let Ok((helper_counters, needs, profile)) = handle.join() {
                    search.nodes += helper_counters.nodes;
                    if let (Some(theirs), Some(mine)) = (profile, search.probe.node_profile()) {
                        mine.merge(&theirs);
                    }
                    counters.add(&helper_counters);
                    unit_needs = unit_needs.min(needs);
                }
            }
        });
        if let Some(stop) = stopped {
            return (Err(stop), counters);
        }
        let best = shared.best.lock().unwrap_or_else(|e| e.into_inner()).take();
        // The root needs what its shallow part proved or the least a unit proved, whichever
        // is less: every path from the root either ends above the units or passes one.
        let ending = match best {
            Some((_, path)) => Ending::Found(path),
            None => Ending::Failed(shallow_needs.min(unit_needs).max(depth + 1)),
        };
        (Ok(ending), counters)
    }
}

/// One other thread's search: takes work units until none are left. Returns its counters, the
/// least a unit proved it needs, and its node profile when it counted one.
fn helper_search<const PROFILES: bool, const NO_REBOUND: bool>(
    setup: &Setup,
    table: &Table,
    control: HelperControl<'_, PROFILES>,
    units: &[Unit],
    shared: &Shared,
    depth: u32,
) -> (Counters, u32, Option<NodeProfile>) {
    let mut worker = Worker::<_, NO_REBOUND>::new(setup, table, control, depth);
    // Only the main thread's control ever stops the run.
    let (needs, _) = worker.take_units(units, shared, depth);
    shared.helpers_done.fetch_add(1, Ordering::Release);
    (worker.counters, needs, worker.control.profile.take())
}
