//! The gate between a debugged search's thread and the interface: the shared state behind
//! one lock, the condition variable a paused solver waits on, and the interface's handle.

use super::log::{EventLog, Recorded};
use super::stepping::{Breakpoints, RunMode, stop_reason};
use super::{DebugFrame, DebugView};
use crate::solver::Event;
use crate::solver::picture::SearchPicture;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// What the solver thread and the interface share.
pub(super) struct GateState {
    pub(super) mode: RunMode,
    pub(super) breakpoints: Breakpoints,
    pub(super) frame: DebugFrame,
    pub(super) log: EventLog,
    /// The robot the heat map and the cell breakpoint follow.
    pub(super) active: Option<usize>,
}

impl GateState {
    /// Applies one event to the view, the picture and the log; returns `Some(reason)` when
    /// the search must stop after it (the reason is `None` for a plain step).
    pub(super) fn apply_event(&mut self, event: Event) -> Option<Option<String>> {
        let view = &mut self.frame.view;
        view.events += 1;
        match &event {
            Event::IterationStarted { depth } => {
                view.iteration = Some(*depth);
            }
            Event::Node { depth, cells, path } => {
                view.nodes += 1;
                view.depth = *depth;
                view.cells = Some(*cells);
                view.last_prune = None;
                view.path.clone_from(path);
            }
            Event::Pruned { reason, .. } => {
                view.pruned += 1;
                view.last_prune = Some(*reason);
            }
            Event::IterationFinished(stats) => view.last_depth = Some(stats.clone()),
            Event::Solution { moves } => view.solution = Some(moves.clone()),
            Event::Solver(payload) => {
                if let Some(status) = payload.status() {
                    view.solver_status = Some(status);
                }
            }
        }
        event.draw(&mut self.frame.picture);
        let stop = stop_reason(self.mode, &self.breakpoints, &event, self.active);
        if let RunMode::Steps(n) = &mut self.mode {
            *n = n.saturating_sub(1);
        }
        let view: DebugView = self.frame.view.clone();
        let index = view.events - 1;
        self.log.push(Recorded { index, event, view });
        self.frame.first_recorded = self.log.first_index();
        self.frame.recorded = self.log.len();
        stop
    }
}

/// The state behind its lock, the solver's wake-up call and the run's cancel flag.
pub(super) struct Gate {
    pub(super) state: Mutex<GateState>,
    pub(super) resume: Condvar,
    pub(super) cancel: Arc<AtomicBool>,
}

impl Gate {
    pub(super) fn lock(&self) -> MutexGuard<'_, GateState> {
        // A panic while the lock is held happens only in the solver thread, which then ends;
        // the data is still a consistent picture of the last event, so keep using it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The interface's handle on a debugged run: change the mode and breakpoints, read the
/// picture, read the log.
#[derive(Clone)]
pub struct DebugHandle {
    pub(super) gate: Arc<Gate>,
}

impl DebugHandle {
    /// Sets what the solver does next and wakes it if it waits.
    pub fn set_mode(&self, mode: RunMode) {
        let mut state = self.gate.lock();
        state.mode = mode;
        if mode != RunMode::Paused {
            state.frame.stop_reason = None;
        }
        drop(state);
        self.gate.resume.notify_all();
    }

    /// Asks for `count` more events: added to the steps still to run when the solver is
    /// stepping (a stop sets the mode to paused, so steps left are steps asked for and not yet
    /// taken, even before the solver thread wakes for them), so that steps asked for in quick
    /// succession are all taken; otherwise the solver runs `count` events and pauses.
    pub fn add_steps(&self, count: u64) {
        let mut state = self.gate.lock();
        state.mode = match state.mode {
            RunMode::Steps(left) => RunMode::Steps(left.saturating_add(count)),
            _ => RunMode::Steps(count),
        };
        state.frame.stop_reason = None;
        drop(state);
        self.gate.resume.notify_all();
    }

    /// Sets the breakpoints.
    pub fn set_breakpoints(&self, breakpoints: Breakpoints) {
        self.gate.lock().breakpoints = breakpoints;
    }

    /// The breakpoints now.
    pub fn breakpoints(&self) -> Breakpoints {
        self.gate.lock().breakpoints.clone()
    }

    /// A copy of the live picture.
    pub fn frame(&self) -> DebugFrame {
        let state = self.gate.lock();
        let mut frame = state.frame.clone();
        frame.mode = Some(state.mode);
        frame
    }

    /// The view after the latest event (cheaper than [`DebugHandle::frame`]).
    pub fn view(&self) -> DebugView {
        self.gate.lock().frame.view.clone()
    }

    /// Whether the solver thread waits for the user.
    pub fn is_paused(&self) -> bool {
        self.gate.lock().frame.paused
    }

    /// The recorded event with this run-wide index, if it is still kept.
    pub fn recorded(&self, index: u64) -> Option<Recorded> {
        self.gate.lock().log.get(index).cloned()
    }

    /// The overlays' picture right after the recorded event with this run-wide index, if it
    /// is still kept: what the overlays showed then. Rebuilt from the oldest kept event on,
    /// so it costs up to one pass over the log.
    pub fn picture_at(&self, index: u64) -> Option<SearchPicture> {
        self.gate.lock().log.picture_at(index)
    }

    /// Up to `count` recorded events around the one with this index (about half of them
    /// newer), newest first: the log as it reads when the timeline shows that event.
    pub fn around(&self, index: u64, count: usize) -> Vec<Recorded> {
        self.gate.lock().log.around(index, count)
    }

    /// The last `count` recorded events with an index below `end`, newest first
    /// (`u64::MAX`: the last of all). A reader that shows the search as it stood after event
    /// `end - 1` reads the log up to there, however far the search has gone on since.
    pub fn latest_before(&self, end: u64, count: usize) -> Vec<Recorded> {
        self.gate.lock().log.latest_before(end, count)
    }

    /// Waits until the solver thread pauses or `timeout` passes; returns whether it paused.
    /// For tests and the command line: the interface never blocks.
    pub fn wait_paused(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if self.is_paused() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}
