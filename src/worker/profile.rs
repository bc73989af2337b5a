//! A live run's node profile per move prefix: counted on the solver thread, handed to the
//! interface now and then while the run goes on and once more at its end.

use super::{LiveProbe, SolveJob};
use crate::solver::probe::Profiling;
use crate::solver::profile::NodeProfile;
use crate::solver::{self, DepthStats, Event, Limits, Probe, Report, Retired, SolveError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a running search's profile is copied out for the interface: a profile of two
/// moves is a few tens of kilobytes, so a few copies a second cost nothing measurable.
const PROFILE_PUBLISH_INTERVAL: Duration = Duration::from_millis(200);

/// Progress reports between two looks at the clock. A plain run reports every few thousand
/// nodes, a debugged one at every event: reading the clock each time would cost a debugged
/// search a tenth of its time.
const CLOCK_REPORTS: u32 = 4096;

/// The latest node profile of a run, from the solver thread to the interface.
#[derive(Debug, Default)]
pub struct ProfileSlot(Mutex<Option<NodeProfile>>);

impl ProfileSlot {
    /// Puts the latest counts in place of any the interface has not taken yet.
    fn put(&self, profile: NodeProfile) {
        // A profile is plain counts, whole after any panic that left the lock poisoned.
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(profile);
    }

    /// Takes the latest counts, when new ones arrived since the last take.
    pub fn take(&self) -> Option<NodeProfile> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// A run's probe with a node profile, published to `slot` every
/// [`PROFILE_PUBLISH_INTERVAL`] at most.
pub(super) struct LiveProfiling<'a, P: Probe> {
    profiling: Profiling<&'a mut P>,
    slot: &'a ProfileSlot,
    last_publish: Instant,
    /// Progress reports left before the next look at the clock.
    until_clock: u32,
}

impl<P: Probe> Probe for LiveProfiling<'_, P> {
    const PROFILES: bool = true;

    #[inline(always)]
    fn node_profile(&mut self) -> Option<&mut NodeProfile> {
        Some(&mut self.profiling.profile)
    }

    fn wants_events(&self) -> bool {
        self.profiling.wants_events()
    }

    fn event(&mut self, event: impl FnOnce() -> Event) {
        self.profiling.event(event);
    }

    fn node(
        &mut self,
        depth: u32,
        cells: &[crate::model::Cell],
        path: impl FnOnce(&mut Vec<crate::model::Move>),
    ) {
        self.profiling.node(depth, cells, path);
    }

    fn depth_finished(&mut self, stats: &DepthStats) {
        self.profiling.depth_finished(stats);
    }

    fn progress(&mut self, nodes: u64, memory_bytes: usize) {
        self.profiling.progress(nodes, memory_bytes);
        self.until_clock = self.until_clock.saturating_sub(1);
        if self.until_clock > 0 {
            return;
        }
        self.until_clock = CLOCK_REPORTS;
        let now = Instant::now();
        if now.duration_since(self.last_publish) >= PROFILE_PUBLISH_INTERVAL {
            self.last_publish = now;
            self.slot.put(self.profiling.profile.clone());
        }
    }

    fn should_stop(&mut self) -> bool {
        self.profiling.should_stop()
    }
}

/// Runs the job's solver with `probe`, counting into `profile` and publishing it to `slot`
/// while the run goes on and when it ends.
pub(super) fn run_profiled(
    job: &SolveJob,
    limits: &Limits,
    probe: &mut LiveProbe,
    profile: NodeProfile,
    slot: &ProfileSlot,
) -> Result<(Report, Retired), SolveError> {
    with_profile(probe, profile, slot, |probe| {
        solver::run_keeping_memory(&job.solver, &job.puzzle, &job.options, limits, probe)
    })
}

/// Runs `run` with `probe` wrapped so that it counts into `profile`, published to `slot`
/// while the run goes on and once more when it ends: the plain and the debugged runs alike.
pub(super) fn with_profile<P: Probe, T>(
    probe: &mut P,
    profile: NodeProfile,
    slot: &ProfileSlot,
    run: impl FnOnce(&mut LiveProfiling<'_, P>) -> T,
) -> T {
    let mut live = LiveProfiling {
        profiling: Profiling {
            inner: probe,
            profile,
        },
        slot,
        last_publish: Instant::now(),
        until_clock: 1,
    };
    let result = run(&mut live);
    slot.put(live.profiling.profile);
    result
}
