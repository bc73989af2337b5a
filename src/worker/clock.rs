//! One clock per run: every figure a run reports (the time each depth row finished, the total,
//! the live running time, the plots) is read from the same start, and a debugged run's clock
//! stands still while the user holds the search paused.
//!
//! The clock starts on the solver thread right before the solver does, and stops when the
//! solver returns: a row can never be later than the total, and rows never go back in time.
//!
//! ```
//! use ricochet_lab::model::samples;
//! use ricochet_lab::solver::{Limits, NoProbe, SolverOptions};
//! use ricochet_lab::worker::clock::run_clocked;
//!
//! let puzzle = samples::fogleman_22();
//! let options = SolverOptions { depth_limit: Some(4), ..SolverOptions::default() };
//! let (report, rows) =
//!     run_clocked("iddfs", &puzzle, &options, &Limits::default(), &mut NoProbe).unwrap();
//! assert_eq!(rows.len(), report.depths.len());
//! assert!(rows.iter().all(|at| *at <= report.elapsed));
//! ```

use crate::solver::SolverRef;
use crate::solver::{self, DepthStats, Event, Limits, Probe, Report, SolveError, SolverOptions};
use std::time::{Duration, Instant};

/// A run's clock: running time since its start, less the time spent paused.
///
/// Readings taken later are never smaller than earlier ones, and once stopped it reads its
/// total for ever.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunClock {
    /// When the run started; `None` before it has.
    started: Option<Instant>,
    /// Time spent in pauses that have ended.
    paused: Duration,
    /// When the pause going on began, if one is.
    paused_since: Option<Instant>,
    /// When the run ended, once it has.
    stopped: Option<Instant>,
}

impl RunClock {
    /// A clock started at `now`.
    pub fn started_at(now: Instant) -> RunClock {
        RunClock {
            started: Some(now),
            ..RunClock::default()
        }
    }

    /// Starts the clock at `now` (again, if it ran before).
    pub fn start(&mut self, now: Instant) {
        *self = RunClock::started_at(now);
    }

    /// Whether the clock has started.
    pub fn has_started(&self) -> bool {
        self.started.is_some()
    }

    /// The running time at `now`: zero before the start, frozen during a pause and after the
    /// stop, and never smaller than a reading taken earlier.
    pub fn running_time_at(&self, now: Instant) -> Duration {
        let Some(started) = self.started else {
            return Duration::ZERO;
        };
        // A pause or a stop holds the clock at the moment it began.
        let mut until = now;
        if let Some(since) = self.paused_since {
            until = until.min(since);
        }
        if let Some(stopped) = self.stopped {
            until = until.min(stopped);
        }
        until
            .saturating_duration_since(started)
            .saturating_sub(self.paused)
    }

    /// The running time now.
    pub fn running_time(&self) -> Duration {
        self.running_time_at(Instant::now())
    }

    /// A pause begins at `now` (a pause already going on continues).
    pub fn pause(&mut self, now: Instant) {
        if self.paused_since.is_none() {
            self.paused_since = Some(now);
        }
    }

    /// The pause going on ends at `now`; the time it took does not count.
    pub fn resume(&mut self, now: Instant) {
        if let Some(since) = self.paused_since.take() {
            self.paused += now.saturating_duration_since(since);
        }
    }

    /// Whether a pause is going on.
    pub fn is_paused(&self) -> bool {
        self.paused_since.is_some()
    }

    /// Stops the clock at `now` and returns its total. A pause going on ends first.
    pub fn stop(&mut self, now: Instant) -> Duration {
        self.resume(now);
        if self.stopped.is_none() {
            self.stopped = Some(now);
        }
        self.running_time_at(now)
    }
}

/// A probe that reads the run's clock when each depth finishes, passing everything on to the
/// probe it wraps.
pub struct ClockedProbe<'p, P: Probe> {
    inner: &'p mut P,
    clock: RunClock,
    rows: Vec<Duration>,
}

impl<P: Probe> Probe for ClockedProbe<'_, P> {
    const PROFILES: bool = P::PROFILES;

    #[inline(always)]
    fn node_profile(&mut self) -> Option<&mut crate::solver::profile::NodeProfile> {
        self.inner.node_profile()
    }

    #[inline(always)]
    fn wants_events(&self) -> bool {
        self.inner.wants_events()
    }

    #[inline(always)]
    fn event(&mut self, event: impl FnOnce() -> Event) {
        self.inner.event(event);
    }

    #[inline(always)]
    fn node(
        &mut self,
        depth: u32,
        cells: &[crate::model::Cell],
        path: impl FnOnce(&mut Vec<crate::model::Move>),
    ) {
        self.inner.node(depth, cells, path);
    }

    fn depth_finished(&mut self, stats: &DepthStats) {
        self.rows.push(self.clock.running_time());
        self.inner.depth_finished(stats);
    }

    #[inline(always)]
    fn progress(&mut self, nodes: u64, memory_bytes: usize) {
        self.inner.progress(nodes, memory_bytes);
    }

    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        self.inner.should_stop()
    }
}

/// Runs a solver as [`solver::run`] does, on one clock: returns the report, whose `elapsed`
/// is the clock's total, and the time on that clock at which each of its depth rows finished
/// (non-decreasing, none past the total).
pub fn run_clocked<P: Probe>(
    solver: impl SolverRef,
    puzzle: &crate::model::Puzzle,
    options: &SolverOptions,
    limits: &Limits,
    probe: &mut P,
) -> Result<(Report, Vec<Duration>), SolveError> {
    // An external engine's clock starts here too, before its process and handshake: its
    // rows and total then count the time it takes to start, as a user waits for it.
    let choice = solver.choice()?;
    let mut clocked = ClockedProbe {
        inner: probe,
        clock: RunClock::started_at(Instant::now()),
        rows: Vec::new(),
    };
    let mut report = solver::run(choice, puzzle, options, limits, &mut clocked)?;
    report.elapsed = clocked.clock.stop(Instant::now());
    Ok((report, clocked.rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tiles;
    use crate::solver::NoProbe;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn the_clock_reads_zero_before_its_start_and_its_total_after_its_stop() {
        let t0 = Instant::now();
        let mut clock = RunClock::default();
        assert_eq!(clock.running_time_at(t0 + 5 * MS), Duration::ZERO);
        clock.start(t0);
        assert_eq!(clock.running_time_at(t0 + 5 * MS), 5 * MS);
        assert_eq!(clock.stop(t0 + 8 * MS), 8 * MS);
        assert_eq!(clock.running_time_at(t0 + 100 * MS), 8 * MS);
        // A second stop keeps the first total.
        assert_eq!(clock.stop(t0 + 50 * MS), 8 * MS);
    }

    #[test]
    fn paused_time_does_not_count_and_the_clock_stands_still_while_paused() {
        let t0 = Instant::now();
        let mut clock = RunClock::started_at(t0);
        clock.pause(t0 + 10 * MS);
        assert!(clock.is_paused());
        // During the pause the clock shows where it stopped.
        assert_eq!(clock.running_time_at(t0 + 500 * MS), 10 * MS);
        clock.resume(t0 + 1_000 * MS);
        assert_eq!(clock.running_time_at(t0 + 1_004 * MS), 14 * MS);
        // A pause still going on at the stop ends there and does not count either.
        clock.pause(t0 + 1_010 * MS);
        assert_eq!(clock.stop(t0 + 9_000 * MS), 20 * MS);
    }

    #[test]
    fn readings_never_go_back_in_time_across_pauses() {
        let t0 = Instant::now();
        let mut clock = RunClock::started_at(t0);
        let mut last = Duration::ZERO;
        for step in 0..40u32 {
            let now = t0 + step * 3 * MS;
            match step % 5 {
                1 => clock.pause(now),
                3 => clock.resume(now),
                _ => {}
            }
            let reading = clock.running_time_at(now);
            assert!(reading >= last, "step {step}: {reading:?} < {last:?}");
            last = reading;
        }
    }

    #[test]
    fn a_clocked_run_has_one_row_time_per_depth_none_after_the_total() {
        // An eight-move standard game that every solver here finishes in milliseconds.
        let (puzzle, _) = tiles::random_game(2, 4).unwrap();
        for solver in ["iddfs", "bfs", "stateless", "fast"] {
            let options = SolverOptions::default();
            let (report, rows) =
                run_clocked(solver, &puzzle, &options, &Limits::default(), &mut NoProbe).unwrap();
            assert_eq!(rows.len(), report.depths.len(), "{solver}");
            assert!(rows.windows(2).all(|w| w[0] <= w[1]), "{solver}: {rows:?}");
            assert!(
                rows.iter().all(|at| *at <= report.elapsed),
                "{solver}: {rows:?} against {:?}",
                report.elapsed
            );
        }
    }
}
