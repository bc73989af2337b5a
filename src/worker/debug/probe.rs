//! The probe of a debugged run and the thread that runs it. Every event is recorded to the
//! run's trace file; the view, the picture and the stops are kept by the solver thread itself,
//! which takes the gate's lock only to publish them (a few times a second, at every event of
//! animated play) and at a stop, where it waits inside the probe.

use super::gate::{Gate, GateState};
use super::history::{Extras, History};
use super::stepping::{RunMode, node_stop, stop_reason};
use super::{DebugFrame, DebugHandle, DebugSetup, DebugView};
use crate::model::{Cell, Move};
use crate::solver::picture::SearchPicture;
use crate::solver::trace::{TraceHeader, TraceRecorder};
use crate::solver::{self, DepthStats, Event, Limits, NoProbe, Probe};
use crate::worker::{
    LiveCounters, LiveProbe, Message, SolveJob, SolveRun, StartError, TaskLink, Waker,
    next_run_number, panic_message,
};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How often a paused solver thread looks at the cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(20);
/// How often a running search publishes its view and picture for the interface.
const PUBLISH_INTERVAL: Duration = Duration::from_millis(50);
/// Events between two looks at the clock for [`PUBLISH_INTERVAL`].
const CLOCK_EVENTS: u32 = 4096;

/// The probe of a debugged run: the live counters of a plain run, the trace recorder, the
/// view and picture after the latest event, and the gate.
pub(super) struct DebugProbe {
    live: LiveProbe,
    gate: Arc<Gate>,
    recorder: TraceRecorder<NoProbe>,
    /// Running time allowed; time spent paused does not count.
    time_limit: Option<Duration>,
    /// Whether the time limit stopped the search.
    timed_out: bool,
    /// The interface's changes seen so far (see [`Gate::changes`]).
    changes_seen: u64,
    mode: RunMode,
    breakpoints: super::Breakpoints,
    active: Option<usize>,
    /// The view after the latest event, but for its path, which the recorder holds.
    view: DebugView,
    /// The robots at the start: the root a new depth or bound shows.
    start: crate::solver::RobotCells,
    /// Whether the latest event started a depth or bound, so the view shows the root and
    /// not the recorder's last node.
    at_root: bool,
    picture: SearchPicture,
    /// Blocks written when the last snapshot of the picture was taken.
    blocks_seen: u64,
    until_clock: u32,
    last_publish: Instant,
    /// The latest node count and memory the solver reported, published with the view.
    progress: (u64, usize),
    /// Calls of [`Probe::should_stop`] left before the next look at the time limit: the
    /// solver asks at every event, and the running time takes a lock and the clock.
    until_time_check: u32,
}

impl Probe for DebugProbe {
    fn wants_events(&self) -> bool {
        true
    }

    fn event(&mut self, event: impl FnOnce() -> Event) {
        if self.gate.cancel.load(Ordering::Relaxed) {
            return;
        }
        let event = event();
        self.sync_changes();
        super::history::apply_to_view(&mut self.view, &event, Some(self.start));
        match &event {
            Event::IterationStarted { .. } => self.at_root = true,
            Event::Node { .. } => self.at_root = false,
            _ => {}
        }
        if let Event::Node { cells, .. } = &event {
            self.view.cells = Some(*cells);
        }
        event.draw(&mut self.picture);
        if let Event::Solver(payload) = &event {
            // An engine's figures and drawing show in the Run tab as in a plain run.
            self.live.note_engine_event(payload);
            let index = self.view.events - 1;
            self.gate.extras().payloads.insert(index, payload.clone());
        }
        let mode = self.step_mode();
        let stop = stop_reason(mode, &self.breakpoints, &event, self.active);
        self.recorder.event(|| event);
        self.after_event(stop);
    }

    fn node(&mut self, depth: u32, cells: &[Cell], path: impl FnOnce(&mut Vec<Move>)) {
        if self.gate.cancel.load(Ordering::Relaxed) {
            return;
        }
        self.sync_changes();
        self.at_root = false;
        let view = &mut self.view;
        view.events += 1;
        view.nodes += 1;
        view.depth = depth;
        view.cells = Some(crate::solver::RobotCells::new(cells));
        view.last_prune = None;
        self.picture.count_node(cells);
        self.picture.end_event();
        let mode = self.step_mode();
        let stop = node_stop(mode, &self.breakpoints, depth, cells, self.active);
        self.recorder.node(depth, cells, path);
        self.after_event(stop);
    }

    fn depth_finished(&mut self, stats: &DepthStats) {
        self.live.depth_finished(stats);
    }

    fn should_stop(&mut self) -> bool {
        if let Some(limit) = self.time_limit {
            self.until_time_check = self.until_time_check.saturating_sub(1);
            if self.until_time_check == 0 {
                self.until_time_check = CLOCK_EVENTS;
                if self.live.running_time() >= limit {
                    self.timed_out = true;
                }
            }
        }
        self.timed_out || self.recorder.failure().is_some()
    }

    fn progress(&mut self, nodes: u64, memory_bytes: usize) {
        // Called at every event of a debugged run: the counters the interface reads are
        // written with the view, a few times a second, not at every node.
        self.progress = (nodes, memory_bytes);
    }
}

impl DebugProbe {
    /// Takes the interface's new mode and breakpoints, if it changed them.
    #[inline]
    fn sync_changes(&mut self) {
        let changes = self.gate.changes.load(Ordering::Acquire);
        if changes != self.changes_seen {
            self.changes_seen = changes;
            let state = self.gate.lock();
            self.mode = state.mode;
            self.breakpoints = state.breakpoints.clone();
        }
    }

    /// The run mode for this event: in [`RunMode::Steps`], the steps left before it, one of
    /// which it takes.
    #[inline]
    fn step_mode(&mut self) -> RunMode {
        match self.mode {
            RunMode::Steps(_) => {
                let left = self
                    .gate
                    .steps
                    .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                        Some(n.saturating_sub(1))
                    })
                    .unwrap_or(0);
                RunMode::Steps(left)
            }
            mode => mode,
        }
    }

    /// What follows every event: a snapshot of the picture when the recorder started a
    /// block, the step count, the stop or the periodic publication.
    #[inline]
    fn after_event(&mut self, stop: Option<Option<String>>) {
        let blocks = self.recorder.blocks_written();
        if blocks != self.blocks_seen {
            self.blocks_seen = blocks;
            self.snapshot();
        }
        if let Some(reason) = stop {
            self.pause(reason);
            return;
        }
        if let RunMode::Play(per_second) = self.mode {
            self.publish();
            self.live.link.wake(Duration::ZERO);
            // The wait between animated events is the pace the user chose, not search time.
            self.live.live.pause_clock(Instant::now());
            self.sleep_between_events(per_second);
            self.live.live.resume_clock(Instant::now());
            return;
        }
        self.until_clock = self.until_clock.saturating_sub(1);
        if self.until_clock == 0 {
            self.until_clock = CLOCK_EVENTS;
            if self.last_publish.elapsed() >= PUBLISH_INTERVAL {
                self.publish();
            }
        }
    }

    /// Keeps the picture as it stands before the next block's first event.
    fn snapshot(&mut self) {
        let index = self.recorder.events();
        self.gate
            .extras()
            .snapshots
            .insert(index, self.picture.clone());
    }

    /// Copies the view and the picture to the gate for the interface, writing the events
    /// so far to the trace first so that it can read them.
    fn publish(&mut self) {
        if self.recorder.flush() {
            self.blocks_seen = self.recorder.blocks_written();
            self.snapshot();
        }
        let mut view = self.view.clone();
        if !self.at_root {
            view.path = self.recorder.current_path();
        }
        let mut state = self.gate.lock();
        state.frame.view = view;
        state.frame.picture.clone_from(&self.picture);
        state.frame.recorded = self.recorder.events();
        drop(state);
        let (nodes, memory_bytes) = self.progress;
        self.live.live.nodes.store(nodes, Ordering::Relaxed);
        self.live
            .live
            .memory_bytes
            .store(memory_bytes, Ordering::Relaxed);
        self.last_publish = Instant::now();
    }

    /// Stops the search after the latest event until the interface lets it go on.
    fn pause(&mut self, reason: Option<String>) {
        self.publish();
        let mut state = self.gate.lock();
        // Steps asked for while this one was being taken are taken too, not lost.
        if reason.is_none()
            && matches!(state.mode, RunMode::Steps(_))
            && self.gate.steps.load(Ordering::Acquire) > 0
        {
            self.mode = state.mode;
            return;
        }
        self.mode = RunMode::Paused;
        state.mode = RunMode::Paused;
        state.frame.stop_reason = reason;
        // The clock stands still from here: the pause is the user's time, not the run's.
        self.live.live.pause_clock(Instant::now());
        state.frame.paused = true;
        self.live.link.wake(Duration::ZERO);
        while state.mode == RunMode::Paused && !self.gate.cancel.load(Ordering::Relaxed) {
            state = match self.gate.resume.wait_timeout(state, CANCEL_POLL) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        self.live.live.resume_clock(Instant::now());
        state.frame.paused = false;
        self.mode = state.mode;
        self.breakpoints = state.breakpoints.clone();
        self.changes_seen = self.gate.changes.load(Ordering::Acquire);
    }

    /// Publishes the view and picture after the last event and closes the trace with its
    /// footer; a trace that could not be written says why in the stop reason.
    fn finish_trace(&mut self, end: &crate::worker::RunEnd) {
        self.publish();
        let (words, complete) = match end {
            crate::worker::RunEnd::Finished(report) => {
                crate::solver::trace::outcome_words(&report.outcome)
            }
            crate::worker::RunEnd::Refused(error) => (format!("refused: {error}"), false),
            crate::worker::RunEnd::Crashed(message) => (format!("crashed: {message}"), false),
        };
        if let Err(error) = self.recorder.close(&words, complete) {
            self.gate.lock().frame.stop_reason =
                Some(format!("the run's trace could not be written: {error}"));
        }
    }

    /// Waits one event's time of animated play, in short slices so that a pause, another
    /// speed or a cancel takes effect at once.
    fn sleep_between_events(&self, per_second: f32) {
        let interval = Duration::from_secs_f32(1.0 / per_second.clamp(0.1, 100_000.0));
        let until = Instant::now() + interval;
        loop {
            let now = Instant::now();
            if now >= until || self.gate.cancel.load(Ordering::Relaxed) {
                return;
            }
            let state = self.gate.lock();
            if !matches!(state.mode, RunMode::Play(p) if p == per_second) {
                return;
            }
            let _ = self
                .gate
                .resume
                .wait_timeout(state, (until - now).min(CANCEL_POLL));
        }
    }
}

impl SolveJob {
    /// Starts the run on a new thread with the stepping probe: the same solver as
    /// [`SolveJob::spawn`], observed event by event. Returns the run (counters, rows, result,
    /// cancel) and the handle that steps it.
    pub fn spawn_debug(
        self,
        waker: Waker,
        setup: DebugSetup,
    ) -> Result<(SolveRun, DebugHandle), StartError> {
        let solver = self.solver.clone();
        let live = Arc::new(LiveCounters::default());
        let picture =
            SearchPicture::new(self.puzzle.board().cell_count(), self.puzzle.active_robot());
        let (trace_file, recorder) = self.debug_trace()?;
        // The gate shares the task's cancel flag; the flag exists only once the task does, so
        // the gate is handed to the thread through a channel of one.
        let (gate_sender, gate_receiver) = std::sync::mpsc::sync_channel::<Arc<Gate>>(1);
        let mode = if setup.start_paused {
            RunMode::Paused
        } else {
            RunMode::Continue
        };
        let breakpoints = setup.breakpoints.clone();
        let mut extras = Extras::default();
        extras.snapshots.insert(0, picture.clone());
        let state = GateState {
            mode,
            breakpoints: setup.breakpoints,
            frame: DebugFrame {
                picture: picture.clone(),
                ..DebugFrame::default()
            },
        };
        let active = self.puzzle.active_robot();
        let start = crate::solver::RobotCells::new(&self.puzzle.robot_cells());
        let task = {
            let live = Arc::clone(&live);
            crate::worker::spawn_task(
                format!(
                    "debug-{}-{}",
                    crate::worker::thread_name_part(&solver),
                    next_run_number()
                ),
                waker,
                crate::worker::CHANNEL_CAPACITY,
                move |link: TaskLink<Message>| {
                    let Ok(gate) = gate_receiver.recv() else {
                        return;
                    };
                    // The time limit counts running time only: the probe checks it, leaving
                    // out the time spent paused, rather than the solver's wall clock.
                    let limits = Limits {
                        time: None,
                        memory_bytes: self.memory_limit,
                        cancel: Some(Arc::clone(&link.cancel)),
                    };
                    let mut probe = DebugProbe {
                        live: LiveProbe::starting_now(Arc::clone(&live), link),
                        changes_seen: gate.changes.load(Ordering::Acquire),
                        gate,
                        recorder,
                        time_limit: self.time_limit,
                        timed_out: false,
                        mode,
                        breakpoints,
                        active,
                        view: DebugView::default(),
                        start,
                        at_root: false,
                        picture,
                        blocks_seen: 0,
                        until_clock: CLOCK_EVENTS,
                        last_publish: Instant::now(),
                        progress: (0, 0),
                        until_time_check: 1,
                    };
                    // A debugged run counts its node profile as a plain run does, so the
                    // Run tab's chart shows where it went.
                    let result =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            match self.profile.clone() {
                                None => solver::run_keeping_memory(
                                    &self.solver,
                                    &self.puzzle,
                                    &self.options,
                                    &limits,
                                    &mut probe,
                                ),
                                Some(counts) => crate::worker::profile::with_profile(
                                    &mut probe,
                                    counts,
                                    &live.profile,
                                    |probe| {
                                        solver::run_keeping_memory(
                                            &self.solver,
                                            &self.puzzle,
                                            &self.options,
                                            &limits,
                                            probe,
                                        )
                                    },
                                ),
                            }
                        }));
                    // Rows, total and plots read one clock, which left out every pause
                    // (including one at the solution, after the solver's own clock stopped).
                    let total = live.stop_clock(Instant::now());
                    // What the solver retired (a cancelled engine's process, given its grace
                    // when dropped; a solver's tables) goes after the end is sent, so a cancel
                    // is answered at once.
                    let mut retired = None;
                    let end = match result {
                        Ok(Ok((mut report, tables))) => {
                            retired = Some(tables);
                            if probe.timed_out && report.outcome == solver::Outcome::Cancelled {
                                report.outcome = solver::Outcome::TimeLimit;
                            }
                            report.elapsed = total;
                            crate::worker::RunEnd::Finished(report)
                        }
                        Ok(Err(error)) => crate::worker::RunEnd::Refused(error),
                        Err(panic) => crate::worker::RunEnd::Crashed(panic_message(panic.as_ref())),
                    };
                    probe.finish_trace(&end);
                    probe
                        .live
                        .link
                        .send(Message::End(end, Instant::now()), Duration::ZERO);
                    drop(retired);
                },
            )
            .map_err(StartError::Thread)?
        };
        let gate = Arc::new(Gate {
            state: Mutex::new(state),
            resume: Condvar::new(),
            cancel: Arc::clone(task.cancel_flag()),
            changes: AtomicU64::new(0),
            extras: Mutex::new(extras),
            steps: AtomicU64::new(0),
        });
        // The thread waits for its gate; it is alive, so the channel is open.
        let _ = gate_sender.send(Arc::clone(&gate));
        let run = SolveRun::new(solver, task, live);
        let history = Arc::new(Mutex::new(History::new(&trace_file)));
        Ok((
            run,
            DebugHandle {
                gate,
                history,
                trace_file: Arc::new(trace_file),
            },
        ))
    }

    /// The trace file a debugged run is recorded to, whole, and its recorder: the interface
    /// reads the file to travel back through the run, and it goes when the run does.
    fn debug_trace(&self) -> Result<(tempfile::TempPath, TraceRecorder<NoProbe>), StartError> {
        let trace_file = tempfile::Builder::new()
            .prefix("ricochet-lab-debug-")
            .suffix(".rltrace")
            .tempfile()
            .map_err(|e| StartError::Trace(e.to_string()))?
            .into_temp_path();
        let header = TraceHeader {
            program: format!("ricochet-lab {}", env!("CARGO_PKG_VERSION")),
            puzzle: crate::model::formats::native::write(&self.puzzle),
            solver: self.solver.name().to_string(),
            solver_title: self.solver.kind().title.to_string(),
            external: self.solver.is_engine(),
        };
        let recorder =
            TraceRecorder::create(&trace_file, &header, self.puzzle.board().clone(), NoProbe)
                .map_err(|e| StartError::Trace(e.to_string()))?;
        Ok((trace_file, recorder))
    }
}
