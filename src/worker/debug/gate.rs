//! The gate between a debugged search's thread and the interface: the shared state behind
//! one lock, the condition variable a paused solver waits on, and the interface's handle.

use super::history::{Extras, History, Recorded};
use super::stepping::{Breakpoints, RunMode};
use super::{DebugFrame, DebugView};
use crate::solver::picture::SearchPicture;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// What the solver thread and the interface share.
pub(super) struct GateState {
    pub(super) mode: RunMode,
    pub(super) breakpoints: Breakpoints,
    pub(super) frame: DebugFrame,
}

/// The state behind its lock, the solver's wake-up call and the run's cancel flag.
pub(super) struct Gate {
    pub(super) state: Mutex<GateState>,
    pub(super) resume: Condvar,
    pub(super) cancel: Arc<AtomicBool>,
    /// Counts the interface's changes to the mode and breakpoints, so the solver thread
    /// notices one with an atomic read instead of taking the lock at every event.
    pub(super) changes: AtomicU64,
    /// The solver's own events and the pictures at the start of blocks, behind a lock of
    /// their own so that reading the history never holds up the solver's stops.
    pub(super) extras: Mutex<Extras>,
    /// The events still to run in [`RunMode::Steps`]: the interface adds to it and the solver
    /// thread takes one per event, so that steps asked for in quick succession are all taken
    /// and no more.
    pub(super) steps: AtomicU64,
}

impl Gate {
    pub(super) fn lock(&self) -> MutexGuard<'_, GateState> {
        // A panic while the lock is held happens only in the solver thread, which then ends;
        // the data is still a consistent picture of the last event, so keep using it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The extras, behind their lock (consistent after any panic, as the state is).
    pub(super) fn extras(&self) -> MutexGuard<'_, Extras> {
        self.extras.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The interface's handle on a debugged run: change the mode and breakpoints, read the
/// picture, read the log.
#[derive(Clone)]
pub struct DebugHandle {
    pub(super) gate: Arc<Gate>,
    pub(super) history: Arc<Mutex<History>>,
    /// The run's trace file, removed when the last handle and the run are gone.
    pub(super) trace_file: Arc<tempfile::TempPath>,
}

impl DebugHandle {
    /// Sets what the solver does next and wakes it if it waits.
    pub fn set_mode(&self, mode: RunMode) {
        let mut state = self.gate.lock();
        if let RunMode::Steps(count) = mode {
            self.gate.steps.store(count, Ordering::Release);
        }
        state.mode = mode;
        if mode != RunMode::Paused {
            state.frame.stop_reason = None;
        }
        drop(state);
        self.changed();
    }

    /// Tells the solver thread the mode or breakpoints changed, and wakes it if it waits.
    fn changed(&self) {
        self.gate.changes.fetch_add(1, Ordering::Release);
        self.gate.resume.notify_all();
    }

    /// Asks for `count` more events: added to the steps still to run when the solver is
    /// stepping (a stop sets the mode to paused, so steps left are steps asked for and not yet
    /// taken, even before the solver thread wakes for them), so that steps asked for in quick
    /// succession are all taken; otherwise the solver runs `count` events and pauses.
    pub fn add_steps(&self, count: u64) {
        let mut state = self.gate.lock();
        let left = match state.mode {
            RunMode::Steps(_) => self.gate.steps.fetch_add(count, Ordering::AcqRel) + count,
            _ => {
                self.gate.steps.store(count, Ordering::Release);
                count
            }
        };
        state.mode = RunMode::Steps(left);
        state.frame.stop_reason = None;
        drop(state);
        self.changed();
    }

    /// Sets the breakpoints.
    pub fn set_breakpoints(&self, breakpoints: Breakpoints) {
        self.gate.lock().breakpoints = breakpoints;
        self.changed();
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

    /// The recorded event with this run-wide index, if it has been recorded.
    pub fn recorded(&self, index: u64) -> Option<Recorded> {
        self.read(index, index.checked_add(1)?).pop()
    }

    /// The events numbered `from` up to `to` (not included), oldest first, each with its
    /// view; what the trace does not hold yet is left out.
    pub fn read(&self, from: u64, to: u64) -> Vec<Recorded> {
        let lock_history = || self.history.lock().unwrap_or_else(|e| e.into_inner());
        let start = lock_history().block_start(from);
        // The solver's own events of the stretch read, copied under a short lock: the solver
        // thread takes it at every block it writes, and must not wait while the trace is read.
        let payloads: std::collections::BTreeMap<_, _> = self
            .gate
            .extras()
            .payloads
            .range(start..to)
            .map(|(index, payload)| (*index, payload.clone()))
            .collect();
        lock_history().read(from, to, &payloads).unwrap_or_default()
    }

    /// The overlays' picture right after the recorded event with this run-wide index: what
    /// the overlays showed then, rebuilt from the nearest picture the run kept before it.
    pub fn picture_at(&self, index: u64) -> Option<SearchPicture> {
        let extras = self.gate.extras();
        let mut history = self.history.lock().unwrap_or_else(|e| e.into_inner());
        history.picture_at(index, &extras).ok().flatten()
    }

    /// Up to `count` recorded events around the one with this index (about half of them
    /// newer), newest first: the log as it reads when the timeline shows that event.
    pub fn around(&self, index: u64, count: usize) -> Vec<Recorded> {
        let events = self.recorded_events();
        let count = count as u64;
        let end = (index + count / 2 + 1).min(events).max(count.min(events));
        let mut found = self.read(end.saturating_sub(count), end);
        found.reverse();
        found
    }

    /// The last `count` recorded events with an index below `end`, newest first
    /// (`u64::MAX`: the last of all). A reader that shows the search as it stood after event
    /// `end - 1` reads the log up to there, however far the search has gone on since.
    pub fn latest_before(&self, end: u64, count: usize) -> Vec<Recorded> {
        let end = end.min(self.recorded_events());
        let mut found = self.read(end.saturating_sub(count as u64), end);
        found.reverse();
        found
    }

    /// How many events the trace holds so far.
    pub fn recorded_events(&self) -> u64 {
        self.history
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .events()
    }

    /// The run's trace file: every event so far, finished with its footer once the run has
    /// ended. Copy it to keep it; it is removed when the run is dropped.
    pub fn trace_path(&self) -> PathBuf {
        self.trace_file.to_path_buf()
    }

    /// The history the handle reads, for views that read the trace themselves (the search
    /// tree).
    pub fn history(&self) -> Arc<Mutex<History>> {
        Arc::clone(&self.history)
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
