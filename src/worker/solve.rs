//! A solver run on its own thread: the job, its live counters, the rows and the end it sends,
//! and the handle the interface reads them from.

use super::clock::RunClock;
use super::profile;
use super::task::{
    CHANNEL_CAPACITY, Drained, PROGRESS_REPAINT_DELAY, PUBLISH_INTERVAL, Task, TaskLink, Waker,
    panic_message, spawn_task,
};
use crate::model::Puzzle;
use crate::solver::{self, Columns, DepthStats, Limits, Optimality, Probe, Report, SolveError};
use crate::solver::{SolverChoice, SolverOptions};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Everything needed to start one run.
#[derive(Clone, Debug)]
pub struct SolveJob {
    /// The solver: a built-in one or an external engine.
    pub solver: SolverChoice,
    /// The puzzle to solve (a snapshot: later edits do not reach the running solver).
    pub puzzle: Puzzle,
    /// The solver's options.
    pub options: SolverOptions,
    /// The wall-clock limit.
    pub time_limit: Option<Duration>,
    /// The memory limit for the solver's tables, in bytes.
    pub memory_limit: Option<usize>,
    /// Empty counts of nodes per move prefix the run fills in (see [`SolveRun::profile`]);
    /// `None` runs without profiling.
    pub profile: Option<crate::solver::profile::NodeProfile>,
}

impl SolveJob {
    /// A job with default options and no limits.
    pub fn new(solver: impl Into<SolverChoice>, puzzle: Puzzle) -> SolveJob {
        SolveJob {
            solver: solver.into(),
            puzzle,
            options: SolverOptions::default(),
            time_limit: None,
            memory_limit: None,
            profile: None,
        }
    }

    /// Starts the run on a new thread named after the solver.
    ///
    /// Fails when the thread cannot be created. An engine that does not start ends the run
    /// as [`RunEnd::Refused`], with its error and the last lines of its standard error.
    pub fn spawn(self, waker: Waker) -> Result<SolveRun, StartError> {
        let solver = self.solver.clone();
        let live = Arc::new(LiveCounters::default());
        let task = {
            let live = Arc::clone(&live);
            spawn_task(
                format!("solver-{}-{}", thread_name_part(&solver), next_run_number()),
                waker,
                CHANNEL_CAPACITY,
                move |link| run_on_thread(self, live, link),
            )
            .map_err(StartError::Thread)?
        };
        Ok(SolveRun::new(solver, task, live))
    }
}

/// The part of a solver thread's name that says which solver runs: a built-in solver's
/// command-line name, or `engine`, since an engine's registered name may hold any character.
pub(crate) fn thread_name_part(solver: &SolverChoice) -> &str {
    match solver {
        SolverChoice::BuiltIn(id) => id.name(),
        SolverChoice::Engine(_) => "engine",
    }
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The solver refused the job.
    #[error("{0}")]
    Solve(#[from] SolveError),
    /// The system would not create a thread.
    #[error("the solver thread could not be started: {0}")]
    Thread(std::io::Error),
    /// A debugged run's trace file could not be made.
    #[error("the debugged run's trace could not be started: {0}")]
    Trace(String),
}

/// Counters the solver thread publishes and the interface reads at any moment, and the run's
/// clock, which both read.
#[derive(Debug, Default)]
pub struct LiveCounters {
    pub(super) nodes: AtomicU64,
    pub(super) memory_bytes: AtomicUsize,
    /// Started by the solver thread right before the solver, paused while a debugger holds
    /// the search, stopped when the solver returns. Taken only at those moments and when a
    /// row or the interface reads it, never per node.
    clock: Mutex<RunClock>,
    /// The node profile, when the run counts one.
    pub(super) profile: profile::ProfileSlot,
    /// An engine's latest search figures and the layer it drew, as they arrive.
    engine: Mutex<EngineLive>,
}

/// What an engine said while it searches, for the interface to show at once: the latest
/// `info` figures and its `draw` lines applied so far.
#[derive(Clone, Debug, Default)]
pub struct EngineLive {
    /// The latest `info` line with standard keys, if one came.
    pub info: Option<crate::solver::engine::protocol::SearchInfo>,
    /// Every `draw` line so far, applied in order.
    pub layer: crate::solver::engine::DrawLayer,
    /// How many `info` and `draw` lines arrived, so a reader can tell news from old.
    pub changes: u64,
}

impl LiveCounters {
    /// The run's clock.
    fn clock(&self) -> MutexGuard<'_, RunClock> {
        // The clock is a few plain values, consistent after any panic that left it locked.
        self.clock.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The run's running time now: the time since the solver started, less the time a
    /// debugger held it paused; frozen at the end. The same clock times the depth rows and
    /// the total.
    pub fn running_time(&self) -> Duration {
        self.clock().running_time()
    }

    /// Starts the run's clock.
    pub(crate) fn start_clock(&self, now: Instant) {
        self.clock().start(now);
    }

    /// A pause of the run begins.
    pub(crate) fn pause_clock(&self, now: Instant) {
        self.clock().pause(now);
    }

    /// The pause ends; it does not count as running time.
    pub(crate) fn resume_clock(&self, now: Instant) {
        self.clock().resume(now);
    }

    /// Stops the run's clock and returns its total.
    pub(crate) fn stop_clock(&self, now: Instant) -> Duration {
        self.clock().stop(now)
    }

    /// Nodes counted so far in the run (published every [`PUBLISH_INTERVAL`] at most).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The solver's latest estimate of the memory its tables take, in bytes.
    pub fn memory_bytes(&self) -> usize {
        self.memory_bytes.load(Ordering::Relaxed)
    }

    /// What an engine said so far: its latest search figures and its layer.
    fn engine_live(&self) -> MutexGuard<'_, EngineLive> {
        // Plain values, consistent after any panic that left the lock held.
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The engine's latest `info` figures, if it sent any.
    pub fn engine_info(&self) -> Option<crate::solver::engine::protocol::SearchInfo> {
        self.engine_live().info.clone()
    }

    /// The engine's layer as drawn so far, with the count of lines that made it (to tell a
    /// new layer from the one already copied).
    pub fn engine_layer(&self) -> (crate::solver::engine::DrawLayer, u64) {
        let live = self.engine_live();
        (live.layer.clone(), live.changes)
    }

    /// How many `info` and `draw` lines the engine sent so far.
    pub fn engine_changes(&self) -> u64 {
        self.engine_live().changes
    }
}

/// One finished depth, with the time on the run's clock when it finished.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthRow {
    /// The solver's statistics for that depth.
    pub stats: DepthStats,
    /// When it finished, on the run's clock (running time, as the total is): never later
    /// than the total.
    pub at: Duration,
}

/// How a run ended, as the worker saw it.
#[derive(Clone, Debug)]
pub enum RunEnd {
    /// The solver finished (solved, proved unsolvable, stopped by a limit or cancelled); the
    /// report's solution, if any, has been replayed on the puzzle, and its `elapsed` is the
    /// total on the run's clock.
    Finished(Report),
    /// The solver refused to start (e.g. a rule it does not implement).
    Refused(SolveError),
    /// The solver thread panicked: a bug, reported with its message.
    Crashed(String),
}

/// What a solver thread sends.
pub(crate) enum Message {
    Row(DepthRow),
    /// How the run ended, and when the solver thread had it: the interface may only see it
    /// a frame later, and a cancel's latency is the solver's, not the frame's.
    End(RunEnd, Instant),
}

/// A run in progress or finished: the handle the interface keeps.
///
/// Dropping it cancels the run; the thread then ends on its own at its next poll.
pub struct SolveRun {
    solver: SolverChoice,
    pub(super) task: Task<Message>,
    live: Arc<LiveCounters>,
    rows: Vec<DepthRow>,
    /// How the run ended, and when the solver thread had its end.
    end: Option<(RunEnd, Instant)>,
    cancel_requested_at: Option<Instant>,
    /// The latest node profile received, as its entries.
    profile: Option<Vec<crate::solver::profile::ProfileEntry>>,
}

impl SolveRun {
    pub(crate) fn new(
        solver: SolverChoice,
        task: Task<Message>,
        live: Arc<LiveCounters>,
    ) -> SolveRun {
        SolveRun {
            solver,
            task,
            live,
            rows: Vec::new(),
            end: None,
            cancel_requested_at: None,
            profile: None,
        }
    }

    /// The solver being run.
    pub fn solver(&self) -> &SolverChoice {
        &self.solver
    }

    /// The solver's name for people: a built-in solver's title, an engine's registered name.
    pub fn title(&self) -> &str {
        match &self.solver {
            SolverChoice::BuiltIn(id) => id.kind().title,
            SolverChoice::Engine(spec) => &spec.name,
        }
    }

    /// The names of the per-depth table's columns.
    pub fn columns(&self) -> Columns {
        self.solver.columns()
    }

    /// Whether the run's answer is known to be shortest: a built-in solver's registry says
    /// so; an engine's own claim (`id optimal=yes`) is not taken as proof.
    pub fn optimality(&self) -> Optimality {
        self.solver.optimality()
    }

    /// Asks the solver to stop. It sees the flag at its next poll (every few thousand nodes),
    /// so it stops within milliseconds; the run then ends as cancelled.
    pub fn cancel(&mut self) {
        if self.end.is_none() && self.cancel_requested_at.is_none() {
            self.cancel_requested_at = Some(Instant::now());
        }
        self.task.cancel();
    }

    /// Whether a cancel was asked for.
    pub fn is_cancelling(&self) -> bool {
        self.cancel_requested_at.is_some()
    }

    /// Receives whatever the solver sent since the last call, without blocking. Returns
    /// whether anything new arrived.
    pub fn drain(&mut self) -> bool {
        let mut news = false;
        let drained = self.task.drain(|message| {
            news = true;
            match message {
                Message::Row(row) => {
                    self.rows.push(row);
                    false
                }
                Message::End(end, at) => {
                    self.end = Some((end, at));
                    true
                }
            }
        });
        if let Some(profile) = self.live.profile.take() {
            self.profile = Some(profile.entries());
            news = true;
        }
        match drained {
            Drained::Waiting => {}
            Drained::Finished => self.join(),
            Drained::Lost => {
                // The thread always sends its end before it exits, even when the solver
                // panics, so a silent disconnect means the thread itself was torn down.
                if self.end.is_none() {
                    let now = Instant::now();
                    self.live.stop_clock(now);
                    self.end = Some((
                        RunEnd::Crashed("the solver thread ended without a result".into()),
                        now,
                    ));
                    news = true;
                }
                self.join();
            }
        }
        news
    }

    fn join(&mut self) {
        // The thread has sent its last message and is returning; a panic was already caught
        // and reported, so the join result carries nothing more.
        let _ = self.task.join();
    }

    /// The nodes per move prefix received so far (in the profile's tree order), when the
    /// run counts them: the last counts of a finished run, or a recent copy while it runs.
    pub fn profile(&self) -> Option<&[crate::solver::profile::ProfileEntry]> {
        self.profile.as_deref()
    }

    /// The finished depth rows received so far.
    pub fn rows(&self) -> &[DepthRow] {
        &self.rows
    }

    /// The live counters.
    pub fn live(&self) -> &LiveCounters {
        &self.live
    }

    /// How the run ended, once it has.
    pub fn end(&self) -> Option<&RunEnd> {
        self.end.as_ref().map(|(end, _)| end)
    }

    /// Whether the run has ended (and its end has been received).
    pub fn is_finished(&self) -> bool {
        self.end.is_some()
    }

    /// The run's running time, on the clock its rows are timed by: frozen while a debugger
    /// holds it paused, and at the end (the report's total).
    pub fn elapsed(&self) -> Duration {
        match &self.end {
            Some((RunEnd::Finished(report), _)) => report.elapsed,
            _ => self.live.running_time(),
        }
    }

    /// How long the solver took to stop after the cancel was asked for, once it has.
    pub fn cancel_latency(&self) -> Option<Duration> {
        let asked = self.cancel_requested_at?;
        let (_, ended_at) = self.end.as_ref()?;
        Some(ended_at.saturating_duration_since(asked))
    }

    /// Waits for the run to end, for tests and the command line; returns how it ended.
    /// Gives up after `timeout` and returns `None`.
    pub fn wait(&mut self, timeout: Duration) -> Option<&RunEnd> {
        let deadline = Instant::now() + timeout;
        while self.end.is_none() {
            let left = deadline.checked_duration_since(Instant::now())?;
            match self.task.recv_timeout(left.min(Duration::from_millis(20))) {
                Ok(Message::Row(row)) => self.rows.push(row),
                Ok(Message::End(end, at)) => {
                    self.end = Some((end, at));
                    self.join();
                }
                Err(_) => {
                    self.drain();
                }
            }
        }
        self.end()
    }
}

/// The probe of a live run: publishes counters to atomics at most every
/// [`PUBLISH_INTERVAL`], sends each finished depth at once with its time on the run's clock,
/// and wakes the interface.
pub(crate) struct LiveProbe {
    pub(crate) live: Arc<LiveCounters>,
    pub(crate) link: TaskLink<Message>,
    pub(crate) last_publish: Instant,
}

impl LiveProbe {
    /// Keeps what an engine's own event says for the Run tab and the overlays (its latest
    /// `info` figures, a `draw` line applied to its layer) and asks for a repaint; other
    /// events are left alone. Plain and debugged engine runs both report through here.
    pub(crate) fn note_engine_event(&mut self, payload: &crate::solver::SolverPayload) {
        use crate::solver::engine::{EngineDraw, EngineSearch};
        let mut live = self.live.engine_live();
        if let Some(search) = payload.downcast_ref::<EngineSearch>() {
            live.info = Some(search.info.clone());
        } else if let Some(draw) = payload.downcast_ref::<EngineDraw>() {
            live.layer.apply(&draw.item);
        } else {
            return;
        }
        live.changes += 1;
        drop(live);
        self.link.wake(PROGRESS_REPAINT_DELAY);
    }

    /// The probe of a run whose clock starts now.
    pub(crate) fn starting_now(live: Arc<LiveCounters>, link: TaskLink<Message>) -> LiveProbe {
        let now = Instant::now();
        live.start_clock(now);
        LiveProbe {
            live,
            link,
            last_publish: now,
        }
    }

    /// The run's running time now.
    pub(crate) fn running_time(&self) -> Duration {
        self.live.running_time()
    }
}

impl Probe for LiveProbe {
    fn depth_finished(&mut self, stats: &DepthStats) {
        let row = DepthRow {
            stats: stats.clone(),
            at: self.running_time(),
        };
        // A row is drawn with the next refresh of the counters, not at once: a search finishes
        // dozens of depths, and each repaint under a software renderer takes the cores the
        // solver runs on. The run's end still repaints at once.
        self.link.send(Message::Row(row), PROGRESS_REPAINT_DELAY);
    }

    fn progress(&mut self, nodes: u64, memory_bytes: usize) {
        // Called every few thousand nodes; reading the clock that rarely costs nothing
        // measurable, and the atomics are written only a few times a second.
        let now = Instant::now();
        if now.duration_since(self.last_publish) >= PUBLISH_INTERVAL {
            self.last_publish = now;
            self.live.nodes.store(nodes, Ordering::Relaxed);
            self.live
                .memory_bytes
                .store(memory_bytes, Ordering::Relaxed);
            self.link.wake(PROGRESS_REPAINT_DELAY);
        }
    }
}

/// The probe of an engine's live run: the live probe, which also keeps the engine's latest
/// `info` and applies its `draw` lines for the interface. A separate type, so that the
/// built-in solvers' node events stay unbuilt under the plain live probe.
struct EngineLiveProbe<'a> {
    inner: &'a mut LiveProbe,
}

impl Probe for EngineLiveProbe<'_> {
    fn depth_finished(&mut self, stats: &DepthStats) {
        self.inner.depth_finished(stats);
    }

    fn progress(&mut self, nodes: u64, memory_bytes: usize) {
        self.inner.progress(nodes, memory_bytes);
    }

    fn event(&mut self, event: impl FnOnce() -> crate::solver::Event) {
        if let crate::solver::Event::Solver(payload) = event() {
            self.inner.note_engine_event(&payload);
        }
    }
}

fn run_on_thread(job: SolveJob, live: Arc<LiveCounters>, link: TaskLink<Message>) {
    let limits = Limits {
        time: job.time_limit,
        memory_bytes: job.memory_limit,
        cancel: Some(Arc::clone(&link.cancel)),
    };
    let mut probe = LiveProbe::starting_now(Arc::clone(&live), link);
    let result =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match job.profile.clone() {
            // An engine's nodes are not profiled: its run keeps its figures and drawing.
            _ if let SolverChoice::Engine(spec) = &job.solver => solver::engine::run_once(
                spec,
                &job.puzzle,
                &job.options,
                &limits,
                &mut EngineLiveProbe { inner: &mut probe },
            ),
            None => solver::run_keeping_memory(
                &job.solver,
                &job.puzzle,
                &job.options,
                &limits,
                &mut probe,
            ),
            Some(counts) => profile::run_profiled(&job, &limits, &mut probe, counts, &live.profile),
        }));
    // The rows were timed on this clock, so the total is read from it too.
    let total = live.stop_clock(Instant::now());
    // The solver's tables are freed after the end is sent: at gigabytes that takes longer than
    // a cancel may wait.
    let mut retired = None;
    let end = match result {
        Ok(Ok((mut report, tables))) => {
            retired = Some(tables);
            report.elapsed = total;
            live.nodes.store(report.nodes, Ordering::Relaxed);
            live.memory_bytes
                .store(report.peak_memory, Ordering::Relaxed);
            RunEnd::Finished(report)
        }
        Ok(Err(error)) => RunEnd::Refused(error),
        Err(panic) => RunEnd::Crashed(panic_message(panic.as_ref())),
    };
    probe
        .link
        .send(Message::End(end, Instant::now()), Duration::ZERO);
    drop(retired);
}

/// Numbers runs in the order they start, so each solver thread has its own name.
pub(crate) fn next_run_number() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    COUNTER.fetch_add(1, Ordering::Relaxed) + 1
}
