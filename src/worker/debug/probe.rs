//! The probe of a debugged run and the thread that runs it: every event goes through the
//! gate, and a paused search waits inside the probe.

use super::gate::{Gate, GateState};
use super::log::EventLog;
use super::stepping::RunMode;
use super::{DebugFrame, DebugHandle, DebugSetup};
use crate::solver::picture::SearchPicture;
use crate::solver::{self, DepthStats, Event, Limits, Probe};
use crate::worker::{
    LiveCounters, LiveProbe, Message, SolveJob, SolveRun, StartError, TaskLink, Waker,
    next_run_number, panic_message,
};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How often a paused solver thread looks at the cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// The probe of a debugged run: the live counters of a plain run, plus the gate.
pub(super) struct DebugProbe {
    live: LiveProbe,
    gate: Arc<Gate>,
    /// Running time allowed; time spent paused does not count.
    time_limit: Option<Duration>,
    /// Whether the time limit stopped the search.
    timed_out: bool,
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
        let mut state = self.gate.lock();
        let stop = state.apply_event(event);
        if let Some(reason) = stop {
            state.mode = RunMode::Paused;
            state.frame.stop_reason = reason;
        }
        if state.mode == RunMode::Paused {
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
        }
        if let RunMode::Play(per_second) = state.mode {
            drop(state);
            self.live.link.wake(Duration::ZERO);
            // The wait between animated events is the pace the user chose, not search time.
            self.live.live.pause_clock(Instant::now());
            self.sleep_between_events(per_second);
            self.live.live.resume_clock(Instant::now());
        }
    }

    fn depth_finished(&mut self, stats: &DepthStats) {
        self.live.depth_finished(stats);
    }

    fn should_stop(&mut self) -> bool {
        if self
            .time_limit
            .is_some_and(|limit| self.live.running_time() >= limit)
        {
            self.timed_out = true;
        }
        self.timed_out
    }

    fn progress(&mut self, nodes: u64, memory_bytes: usize) {
        // Polled at every node of a stepped search: the counters are exact at every stop.
        self.live.live.nodes.store(nodes, Ordering::Relaxed);
        self.live
            .live
            .memory_bytes
            .store(memory_bytes, Ordering::Relaxed);
    }
}

impl DebugProbe {
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
        // The gate shares the task's cancel flag; the flag exists only once the task does, so
        // the gate is handed to the thread through a channel of one.
        let (gate_sender, gate_receiver) = std::sync::mpsc::sync_channel::<Arc<Gate>>(1);
        let state = GateState {
            mode: if setup.start_paused {
                RunMode::Paused
            } else {
                RunMode::Continue
            },
            breakpoints: setup.breakpoints,
            frame: DebugFrame {
                picture: picture.clone(),
                record_capacity: setup.record_capacity.max(1),
                ..DebugFrame::default()
            },
            log: EventLog::new(picture, setup.record_capacity),
            active: self.puzzle.active_robot(),
        };
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
                        gate,
                        time_limit: self.time_limit,
                        timed_out: false,
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
        });
        // The thread waits for its gate; it is alive, so the channel is open.
        let _ = gate_sender.send(Arc::clone(&gate));
        let run = SolveRun::new(solver, task, live);
        Ok((run, DebugHandle { gate }))
    }
}
