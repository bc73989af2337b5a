//! How a search thread counts its nodes, is told to stop and reports events: the main thread
//! through the run's [`Search`], the others through the flags they share.

use super::SHARED_CHECK_INTERVAL;
use super::solution_graph::SharedGraph;
use super::units::Shared;
use crate::model::{Cell, Move};
use crate::solver::probe::Event;
use crate::solver::profile::NodeProfile;
use crate::solver::{Probe, Search, Stop};
use std::sync::atomic::Ordering;

/// Why a thread left its search early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Halt {
    /// A limit, the cancel flag or the probe stopped the run.
    Stop(Stop),
    /// Its work unit no longer matters: an earlier unit holds a solution, or the run stopped.
    Abandon,
}

/// How a thread is told to stop, and how it reports.
pub(super) trait Control {
    /// Whether the search gathers every solution into a graph (see `gather`) rather
    /// than stopping at its first: known at compile time, so other searches pay nothing.
    const GATHERS: bool = false;
    /// The graph of solutions the search gathers into, shared with the other threads, and
    /// this thread's index among them; `None` unless [`Control::GATHERS`].
    fn gathering(&self) -> Option<(&SharedGraph, usize)> {
        None
    }
    /// Counts a node; fails when the search must stop.
    fn tick(&mut self) -> Result<(), Halt>;
    /// Reports an event when someone listens (only the main thread has a probe).
    fn event(&mut self, event: impl FnOnce() -> Event);
    /// Reports a node when someone listens, as [`Probe::node`] does; only the main thread
    /// has a probe, so by default nothing is reported.
    #[inline(always)]
    fn node(&mut self, _depth: u32, _cells: &[Cell], _path: impl FnOnce(&mut Vec<Move>)) {}
    /// The node profile to count nodes in, when the run profiles (see
    /// [`Probe::node_profile`]); `None` otherwise, known at compile time for a probe or
    /// thread that does not profile.
    fn node_profile(&mut self) -> Option<&mut NodeProfile>;
    /// Says which work unit the thread searches now (ignored by controls without units).
    fn set_unit(&mut self, _unit: usize) {}
}

/// The main thread's control: the run's [`Search`], plus the flags it shares with the other
/// threads.
pub(super) struct MainControl<'a, 's, 'p, P: Probe> {
    pub search: &'a mut Search<'p, P>,
    pub shared: Option<&'s Shared>,
    pub unit: usize,
    pub countdown: u32,
}

impl<'a, 's, 'p, P: Probe> MainControl<'a, 's, 'p, P> {
    /// The control of the main thread, sharing `shared` with others when there are any.
    pub fn new(search: &'a mut Search<'p, P>, shared: Option<&'s Shared>) -> Self {
        MainControl {
            search,
            shared,
            unit: 0,
            countdown: SHARED_CHECK_INTERVAL,
        }
    }
}

impl<P: Probe> Control for MainControl<'_, '_, '_, P> {
    #[inline(always)]
    fn tick(&mut self) -> Result<(), Halt> {
        if let Err(stop) = self.search.tick() {
            if let Some(shared) = self.shared {
                shared.stop.store(true, Ordering::Relaxed);
            }
            return Err(Halt::Stop(stop));
        }
        if let Some(shared) = self.shared {
            self.countdown -= 1;
            if self.countdown == 0 {
                self.countdown = SHARED_CHECK_INTERVAL;
                if shared.abandons(self.unit) {
                    return Err(Halt::Abandon);
                }
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn event(&mut self, event: impl FnOnce() -> Event) {
        self.search.probe.event(event);
    }

    #[inline(always)]
    fn node(&mut self, depth: u32, cells: &[Cell], path: impl FnOnce(&mut Vec<Move>)) {
        self.search.probe.node(depth, cells, path);
    }

    #[inline(always)]
    fn node_profile(&mut self) -> Option<&mut NodeProfile> {
        if P::PROFILES {
            self.search.probe.node_profile()
        } else {
            None
        }
    }

    fn set_unit(&mut self, unit: usize) {
        self.unit = unit;
    }
}

/// The other threads' control: the shared flags, and under `PROFILES` the thread's own node
/// profile, added to the run's when the thread is joined (a profile shared between threads
/// would make every node a contended write).
pub(super) struct HelperControl<'s, const PROFILES: bool> {
    shared: &'s Shared,
    unit: usize,
    countdown: u32,
    /// The thread's node counts per prefix; `None` unless `PROFILES`.
    pub profile: Option<NodeProfile>,
}

impl<'s, const PROFILES: bool> HelperControl<'s, PROFILES> {
    /// The control of a thread that shares `shared` with the main thread, counting its own
    /// node profile in `profile` when `PROFILES`.
    pub fn new(shared: &'s Shared, profile: Option<NodeProfile>) -> Self {
        HelperControl {
            shared,
            unit: 0,
            countdown: SHARED_CHECK_INTERVAL,
            profile,
        }
    }
}

impl<const PROFILES: bool> Control for HelperControl<'_, PROFILES> {
    #[inline(always)]
    fn tick(&mut self) -> Result<(), Halt> {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = SHARED_CHECK_INTERVAL;
            if self.shared.abandons(self.unit) {
                return Err(Halt::Abandon);
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn event(&mut self, _event: impl FnOnce() -> Event) {}

    #[inline(always)]
    fn node_profile(&mut self) -> Option<&mut NodeProfile> {
        if PROFILES {
            self.profile.as_mut()
        } else {
            None
        }
    }

    fn set_unit(&mut self, unit: usize) {
        self.unit = unit;
    }
}

/// A control for workers that never search (used to read the root's bound and to walk every
/// reachable state).
pub(super) struct NoControl;

impl Control for NoControl {
    fn tick(&mut self) -> Result<(), Halt> {
        Ok(())
    }

    fn event(&mut self, _event: impl FnOnce() -> Event) {}

    fn node_profile(&mut self) -> Option<&mut NodeProfile> {
        None
    }
}
