//! Stepping through a search: a probe that records the solver's events and can hold the solver
//! thread inside [`Probe::event`] until the user interface lets it go on.
//!
//! The solver is the same code as in a plain run; only the probe differs. A plain run uses the
//! batched live probe of [`super`] and never pays for any of this. Here every event takes a
//! lock, updates the picture of the search ([`DebugView`], the heat map, the slide graph, the
//! stateless stores), is recorded in a bounded log, and is checked against the run mode and the
//! breakpoints. When the search must stop, the solver thread waits on a condition variable;
//! the cancel flag is polled while it waits, so cancelling (or dropping the run) still ends a
//! paused search.
//!
//! ```no_run
//! use ricochet_lab::model::samples;
//! use ricochet_lab::worker::debug::{DebugSetup, RunMode};
//! use ricochet_lab::worker::{SolveJob, Waker};
//! use std::sync::Arc;
//!
//! let waker: Waker = Arc::new(|_delay| {});
//! let job = SolveJob::new("iddfs", samples::fogleman_22());
//! let (run, debug) = job.spawn_debug(waker, DebugSetup::default()).unwrap();
//! debug.wait_paused(std::time::Duration::from_secs(1));
//! debug.set_mode(RunMode::Steps(10));
//! ```

use super::{
    LiveCounters, LiveProbe, Message, SolveJob, SolveRun, StartError, TaskLink, Waker,
    next_run_number, panic_message,
};
use crate::model::{Cell, Move, Puzzle};
use crate::solver::graph_solver::GraphEvent;
use crate::solver::slide_graph::EdgeChange;
use crate::solver::stateless::{FinalState, IntermediateState, StatelessEvent, StatelessStores};
use crate::solver::{self, DepthStats, Event, Limits, Probe, PruneReason, RobotCells, kind};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How many events the log keeps by default: enough to scrub back through several depths of a
/// small search, small enough (a few megabytes) to never matter.
pub const DEFAULT_RECORD_CAPACITY: usize = 20_000;

/// How often a paused solver thread looks at the cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// How many edge changes are kept as "changed by the last update".
const MAX_RECENT_CHANGES: usize = 256;

/// What the solver thread does with the next events.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RunMode {
    /// Wait inside the probe until told otherwise.
    Paused,
    /// Let this many events through, then pause.
    Steps(u64),
    /// Run to the next node at this depth or shallower (step over the subtree).
    StepOver(u32),
    /// Run to the end of the current depth, bound or level.
    StepDepth,
    /// Run until a breakpoint or the end.
    Continue,
    /// Run until a solution is found (breakpoints are ignored).
    ToSolution,
    /// Animated play: this many events per second, stopping at breakpoints.
    Play(f32),
}

/// Where the search stops by itself, besides the run mode's own stops.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Breakpoints {
    /// Stop on the first node at this depth.
    pub depth: Option<u32>,
    /// Stop when the active robot (the first robot for a target any robot may reach) stands
    /// on this cell in a node.
    pub active_cell: Option<Cell>,
    /// Stop when a node has exactly these robot cells.
    pub state: Option<RobotCells>,
    /// Stop when a solution is found.
    pub solution: bool,
}

/// How a debugged run starts.
#[derive(Clone, Debug)]
pub struct DebugSetup {
    /// Pause on the first event.
    pub start_paused: bool,
    /// The breakpoints to start with.
    pub breakpoints: Breakpoints,
    /// How many events the log keeps (at least one).
    pub record_capacity: usize,
}

impl Default for DebugSetup {
    fn default() -> Self {
        DebugSetup {
            start_paused: true,
            breakpoints: Breakpoints::default(),
            record_capacity: DEFAULT_RECORD_CAPACITY,
        }
    }
}

/// The node being examined and what the search knows about it: what the board and the panel
/// show at a stop. Small, so one is kept with every recorded event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DebugView {
    /// The number of events seen so far (this view follows event number `events - 1`).
    pub events: u64,
    /// The current depth, bound or level.
    pub iteration: Option<u32>,
    /// The depth of the node last examined.
    pub depth: u32,
    /// The robots' cells in the node last examined, in colour order.
    pub cells: Option<RobotCells>,
    /// The moves from the root to that node.
    pub path: Vec<Move>,
    /// Why the last node was cut off, when it was.
    pub last_prune: Option<PruneReason>,
    /// Nodes examined so far.
    pub nodes: u64,
    /// Nodes cut off so far.
    pub pruned: u64,
    /// The graph solvers' last search of the goal robot alone: level, distance, best so far.
    pub goal_search: Option<(u32, Option<u32>, Option<u32>)>,
    /// The solution, once found.
    pub solution: Option<Vec<Move>>,
    /// The last finished depth's statistics.
    pub last_depth: Option<DepthStats>,
}

/// One recorded event with the view right after it.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// The event's number in the run, from 0.
    pub index: u64,
    /// The event.
    pub event: Event,
    /// What was shown after it.
    pub view: DebugView,
}

/// What the overlays draw of a search after some event: the search heat map, the slide graph
/// and the stateless stores. It is the sum of the events so far, so it is rebuilt for any
/// recorded event by applying the events up to it to the picture before the oldest one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchPicture {
    /// How often the active robot stood on each cell among the nodes examined.
    pub heat: Vec<u32>,
    /// The slide graph's edges (per cell, N E S W), once a graph solver built it.
    pub graph: Option<Vec<[Option<Cell>; 4]>>,
    /// Edge changes of the latest placement or removal.
    pub recent_changes: Vec<EdgeChange>,
    /// Stateless: final states stored so far.
    pub finals: Vec<FinalState>,
    /// Stateless: intermediate states alive now.
    pub intermediates: Vec<IntermediateState>,
    /// Stateless: the stores at the end of the run.
    pub stores: Option<StatelessStores>,
    /// The robot whose cells the heat map counts (`None`: every robot's).
    active: Option<usize>,
    /// Whether the previous event was an edge change, so a new update starts a new list.
    in_update: bool,
}

impl SearchPicture {
    /// The picture before the first event of a search on a board of `cells` cells, counting
    /// the `active` robot's cells in the heat map (every robot's when `None`).
    pub fn new(cells: usize, active: Option<usize>) -> SearchPicture {
        SearchPicture {
            heat: vec![0; cells],
            active,
            ..SearchPicture::default()
        }
    }

    /// Adds one event to the picture.
    pub fn apply(&mut self, event: &Event) {
        let mut is_change = false;
        match event {
            Event::Node { cells, .. } => match self.active {
                Some(active) => {
                    if let Some(&cell) = cells.as_slice().get(active) {
                        bump(&mut self.heat, cell);
                    }
                }
                None => {
                    for &cell in cells.as_slice() {
                        bump(&mut self.heat, cell);
                    }
                }
            },
            Event::Solver(payload) => {
                if let Some(event) = payload.downcast_ref::<GraphEvent>() {
                    is_change = self.apply_graph(event);
                } else if let Some(event) = payload.downcast_ref::<StatelessEvent>() {
                    self.apply_stateless(event);
                }
            }
            _ => {}
        }
        self.in_update = is_change;
    }

    /// Adds one graph solver event; returns whether it was an edge change.
    fn apply_graph(&mut self, event: &GraphEvent) -> bool {
        match event {
            GraphEvent::Built(graph) => {
                let edges = (0..graph.cell_count())
                    .map(|cell| graph.edges(cell as Cell))
                    .collect();
                self.graph = Some(edges);
                self.recent_changes.clear();
                false
            }
            GraphEvent::EdgeChanged(change) => {
                if !self.in_update {
                    self.recent_changes.clear();
                }
                if let Some(edges) = &mut self.graph
                    && let Some(slot) = edges.get_mut(usize::from(change.vertex))
                {
                    slot[change.dir.index()] = change.new;
                }
                if self.recent_changes.len() < MAX_RECENT_CHANGES {
                    self.recent_changes.push(*change);
                }
                true
            }
            GraphEvent::GoalRobotSearched { .. } => false,
        }
    }

    /// Adds one stateless solver event.
    fn apply_stateless(&mut self, event: &StatelessEvent) {
        match event {
            StatelessEvent::Final(final_state) => self.finals.push(final_state.clone()),
            StatelessEvent::Intermediate(intermediate) => {
                self.intermediates.push(intermediate.clone())
            }
            StatelessEvent::Converted {
                cell, color, dir, ..
            } => self
                .intermediates
                .retain(|i| !(i.cell == *cell && i.color == *color && i.dir == *dir)),
            StatelessEvent::Moved { .. } => {}
            StatelessEvent::Stores(stores) => self.stores = Some((**stores).clone()),
        }
    }
}

/// The live picture of a debugged search: everything the overlays and the panel draw.
#[derive(Clone, Debug, Default)]
pub struct DebugFrame {
    /// Whether the solver thread is waiting for the user.
    pub paused: bool,
    /// The run mode now.
    pub mode: Option<RunMode>,
    /// The view after the latest event.
    pub view: DebugView,
    /// Why the search stopped last ("breakpoint: depth 3"), if it stopped by itself.
    pub stop_reason: Option<String>,
    /// The overlays' picture after the latest event.
    pub picture: SearchPicture,
    /// The index of the oldest recorded event still kept.
    pub first_recorded: u64,
    /// How many events are recorded now.
    pub recorded: usize,
    /// How many the log keeps at most.
    pub record_capacity: usize,
}

struct GateState {
    mode: RunMode,
    breakpoints: Breakpoints,
    frame: DebugFrame,
    log: VecDeque<Recorded>,
    /// The overlays' picture before the oldest recorded event: the start from which the
    /// picture at any recorded event is rebuilt.
    base: SearchPicture,
    active: Option<usize>,
}

/// What the solver thread and the interface share.
struct Gate {
    state: Mutex<GateState>,
    resume: Condvar,
    cancel: Arc<AtomicBool>,
}

impl Gate {
    fn lock(&self) -> MutexGuard<'_, GateState> {
        // A panic while the lock is held happens only in the solver thread, which then ends;
        // the data is still a consistent picture of the last event, so keep using it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The interface's handle on a debugged run: change the mode and breakpoints, read the
/// picture, read the log.
#[derive(Clone)]
pub struct DebugHandle {
    gate: Arc<Gate>,
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
        let state = self.gate.lock();
        let first = state.log.front()?.index;
        let offset = usize::try_from(index.checked_sub(first)?).ok()?;
        state.log.get(offset).cloned()
    }

    /// The overlays' picture right after the recorded event with this run-wide index, if it
    /// is still kept: what the overlays showed then. Rebuilt from the oldest kept event on,
    /// so it costs up to one pass over the log.
    pub fn picture_at(&self, index: u64) -> Option<SearchPicture> {
        let state = self.gate.lock();
        let first = state.log.front()?.index;
        let offset = usize::try_from(index.checked_sub(first)?).ok()?;
        if offset >= state.log.len() {
            return None;
        }
        let mut picture = state.base.clone();
        for recorded in state.log.iter().take(offset + 1) {
            picture.apply(&recorded.event);
        }
        Some(picture)
    }

    /// Up to `count` recorded events around the one with this index (about half of them
    /// newer), newest first: the log as it reads when the timeline shows that event.
    pub fn around(&self, index: u64, count: usize) -> Vec<Recorded> {
        let state = self.gate.lock();
        let Some(first) = state.log.front().map(|r| r.index) else {
            return Vec::new();
        };
        let len = state.log.len();
        let at = usize::try_from(index.saturating_sub(first))
            .unwrap_or(usize::MAX)
            .min(len - 1);
        let end = (at + count / 2 + 1).min(len).max(count.min(len));
        let start = end.saturating_sub(count);
        state.log.range(start..end).rev().cloned().collect()
    }

    /// The last `count` recorded events, newest first.
    pub fn latest(&self, count: usize) -> Vec<Recorded> {
        let state = self.gate.lock();
        state.log.iter().rev().take(count).cloned().collect()
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

/// The probe of a debugged run: the live counters of a plain run, plus the gate.
struct DebugProbe {
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
        let stop = apply_event(&mut state, event);
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

/// Applies one event to the picture and the log; returns `Some(reason)` when the search must
/// stop after it (the reason is `None` for a plain step).
fn apply_event(state: &mut GateState, event: Event) -> Option<Option<String>> {
    let view = &mut state.frame.view;
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
            if let Some(&GraphEvent::GoalRobotSearched {
                level,
                distance,
                best,
            }) = payload.downcast_ref::<GraphEvent>()
            {
                view.goal_search = Some((level, distance, best));
            }
        }
    }
    state.frame.picture.apply(&event);
    let stop = stop_reason(state.mode, &state.breakpoints, &event, state.active);
    if let RunMode::Steps(n) = &mut state.mode {
        *n = n.saturating_sub(1);
    }
    let view = state.frame.view.clone();
    let index = view.events - 1;
    if state.log.len() >= state.frame.record_capacity.max(1)
        && let Some(oldest) = state.log.pop_front()
    {
        // The oldest event leaves the log, so the base picture moves past it.
        state.base.apply(&oldest.event);
    }
    state.log.push_back(Recorded { index, event, view });
    state.frame.first_recorded = state.log.front().map_or(0, |r| r.index);
    state.frame.recorded = state.log.len();
    stop
}

fn bump(heat: &mut [u32], cell: Cell) {
    if let Some(count) = heat.get_mut(usize::from(cell)) {
        *count = count.saturating_add(1);
    }
}

/// Whether the search stops after `event`, and why.
fn stop_reason(
    mode: RunMode,
    breakpoints: &Breakpoints,
    event: &Event,
    active: Option<usize>,
) -> Option<Option<String>> {
    match mode {
        RunMode::Paused => return Some(None),
        RunMode::Steps(n) if n <= 1 => return Some(None),
        RunMode::StepOver(depth) => {
            if matches!(event, Event::Node { depth: d, .. } if *d <= depth) {
                return Some(None);
            }
        }
        RunMode::StepDepth => {
            if matches!(event, Event::IterationFinished(_)) {
                return Some(None);
            }
        }
        RunMode::ToSolution => {
            return matches!(event, Event::Solution { .. })
                .then(|| Some("a solution was found".to_string()));
        }
        _ => {}
    }
    breakpoint_hit(breakpoints, event, active).map(Some)
}

/// The breakpoint an event hits, described for the panel.
pub fn breakpoint_hit(
    breakpoints: &Breakpoints,
    event: &Event,
    active: Option<usize>,
) -> Option<String> {
    match event {
        Event::Node { depth, cells, .. } => {
            if breakpoints.depth == Some(*depth) {
                return Some(format!("breakpoint: depth {depth}"));
            }
            if let Some(target) = breakpoints.active_cell
                && cells.as_slice().get(active.unwrap_or(0)) == Some(&target)
            {
                return Some(format!("breakpoint: the active robot on cell {target}"));
            }
            if breakpoints.state == Some(*cells) {
                return Some("breakpoint: the chosen state".to_string());
            }
            None
        }
        Event::Solution { moves } if breakpoints.solution => {
            Some(format!("breakpoint: a solution of {} moves", moves.len()))
        }
        _ => None,
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
        let kind = kind(&self.solver).ok_or_else(|| {
            StartError::Solve(solver::SolveError::UnknownSolver(self.solver.clone()))
        })?;
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
            log: VecDeque::new(),
            base: picture,
            active: self.puzzle.active_robot(),
        };
        let task = {
            let live = Arc::clone(&live);
            super::spawn_task(
                format!("debug-{}-{}", kind.name, next_run_number()),
                waker,
                super::CHANNEL_CAPACITY,
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
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        solver::run(
                            &self.solver,
                            &self.puzzle,
                            &self.options,
                            &limits,
                            &mut probe,
                        )
                    }));
                    // Rows, total and plots read one clock, which left out every pause
                    // (including one at the solution, after the solver's own clock stopped).
                    let total = live.stop_clock(Instant::now());
                    let end = match result {
                        Ok(Ok(mut report)) => {
                            if probe.timed_out && report.outcome == solver::Outcome::Cancelled {
                                report.outcome = solver::Outcome::TimeLimit;
                            }
                            report.elapsed = total;
                            super::RunEnd::Finished(report)
                        }
                        Ok(Err(error)) => super::RunEnd::Refused(error),
                        Err(panic) => super::RunEnd::Crashed(panic_message(panic.as_ref())),
                    };
                    probe
                        .live
                        .link
                        .send(Message::End(end, Instant::now()), Duration::ZERO);
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
        let run = SolveRun::new(kind, task, live);
        Ok((run, DebugHandle { gate }))
    }
}

/// The robots of a puzzle moved to a node's cells: what the board shows at a stop.
pub fn puzzle_at(puzzle: &Puzzle, cells: &RobotCells) -> Puzzle {
    if cells.as_slice().len() == puzzle.robots().len() {
        puzzle.with_robot_cells(cells.as_slice())
    } else {
        puzzle.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use crate::model::tiles;
    use crate::solver::Outcome;
    use crate::worker::RunEnd;

    fn quiet_waker() -> Waker {
        Arc::new(|_| {})
    }

    fn small_puzzle() -> Puzzle {
        // An eight-move standard game that IDDFS solves in milliseconds.
        tiles::random_game(2, 4).unwrap().0
    }

    #[test]
    fn a_paused_run_lets_through_exactly_the_steps_asked_for() {
        let job = SolveJob::new("iddfs", small_puzzle());
        let (mut run, debug) = job
            .spawn_debug(quiet_waker(), DebugSetup::default())
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        assert_eq!(debug.view().events, 1);
        debug.set_mode(RunMode::Steps(5));
        // The thread may not have taken the steps yet: wait until it pauses again at 6.
        let deadline = Instant::now() + Duration::from_secs(10);
        while debug.view().events < 6 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(debug.wait_paused(Duration::from_secs(10)));
        assert_eq!(debug.view().events, 6);
        let latest = debug.latest(3);
        assert_eq!(
            latest.iter().map(|r| r.index).collect::<Vec<_>>(),
            vec![5, 4, 3]
        );
        assert!(!run.is_finished());
        run.cancel();
        let end = run.wait(Duration::from_secs(10)).expect("the run ends");
        assert!(matches!(end, RunEnd::Finished(r) if r.outcome == Outcome::Cancelled));
    }

    #[test]
    fn a_run_held_at_its_solution_counts_its_running_time_not_zero() {
        let (mut run, debug) = SolveJob::new("iddfs", small_puzzle())
            .spawn_debug(quiet_waker(), DebugSetup::default())
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        debug.set_mode(RunMode::ToSolution);
        let deadline = Instant::now() + Duration::from_secs(60);
        while debug.frame().view.solution.is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(debug.wait_paused(Duration::from_secs(10)));
        // Held at the solution for longer than the whole search ran: the hold is the user's
        // time, and only it is left out of the total.
        let held = run.elapsed();
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(run.elapsed(), held, "the clock stands still while paused");
        debug.set_mode(RunMode::Continue);
        let end = run.wait(Duration::from_secs(60)).cloned();
        let Some(RunEnd::Finished(report)) = end else {
            panic!("unexpected end {end:?}");
        };
        assert!(report.elapsed > Duration::ZERO);
        assert_eq!(run.elapsed(), report.elapsed);
        let rows: Vec<Duration> = run.rows().iter().map(|r| r.at).collect();
        assert_eq!(rows.len(), report.depths.len());
        assert!(rows.windows(2).all(|w| w[0] <= w[1]), "{rows:?}");
        assert!(
            rows.iter().all(|at| *at <= report.elapsed),
            "{rows:?} against {:?}",
            report.elapsed
        );
    }

    #[test]
    fn run_to_solution_ends_with_the_same_answer_as_a_plain_run() {
        let puzzle = small_puzzle();
        let (mut run, debug) = SolveJob::new("iddfs", puzzle.clone())
            .spawn_debug(quiet_waker(), DebugSetup::default())
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        debug.set_mode(RunMode::ToSolution);
        // The search stops on the solution, so that it can be looked at, and ends when let go.
        let deadline = Instant::now() + Duration::from_secs(60);
        while debug.frame().view.solution.is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(debug.wait_paused(Duration::from_secs(10)));
        assert_eq!(
            debug.frame().stop_reason.as_deref(),
            Some("a solution was found")
        );
        debug.set_mode(RunMode::Continue);
        let end = run.wait(Duration::from_secs(60)).cloned();
        let Some(RunEnd::Finished(report)) = end else {
            panic!("unexpected end {end:?}");
        };
        let plain = solver::run(
            "iddfs",
            &puzzle,
            &solver::SolverOptions::default(),
            &Limits::default(),
            &mut solver::NoProbe,
        )
        .unwrap();
        assert_eq!(report.outcome, plain.outcome);
        assert_eq!(report.nodes, plain.nodes);
        let frame = debug.frame();
        assert!(frame.view.solution.is_some());
        assert!(frame.recorded <= DEFAULT_RECORD_CAPACITY);
        assert!(frame.picture.heat.iter().sum::<u32>() > 0);
    }

    #[test]
    fn depth_breakpoint_stops_on_the_first_node_of_that_depth_with_its_path() {
        let setup = DebugSetup {
            start_paused: false,
            breakpoints: Breakpoints {
                depth: Some(3),
                ..Breakpoints::default()
            },
            ..DebugSetup::default()
        };
        let (mut run, debug) = SolveJob::new("iddfs", small_puzzle())
            .spawn_debug(quiet_waker(), setup)
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        let frame = debug.frame();
        assert_eq!(frame.view.depth, 3);
        assert_eq!(frame.view.path.len(), 3);
        assert_eq!(frame.stop_reason.as_deref(), Some("breakpoint: depth 3"));
        // The path slides the robots to the cells the node reports.
        let puzzle = small_puzzle();
        let tables = crate::model::MoveTables::new(puzzle.board());
        let mut cells = puzzle.robot_cells();
        for mv in &frame.view.path {
            let robot = puzzle.robot_index(mv.robot).unwrap();
            cells[robot] = tables.slide(&cells, robot, mv.dir);
        }
        assert_eq!(cells, frame.view.cells.unwrap().as_slice());
        run.cancel();
        assert!(run.wait(Duration::from_secs(10)).is_some());
    }

    #[test]
    fn step_depth_stops_at_the_end_of_an_iteration() {
        let (mut run, debug) = SolveJob::new("iddfs", small_puzzle())
            .spawn_debug(quiet_waker(), DebugSetup::default())
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        debug.set_mode(RunMode::StepDepth);
        let deadline = Instant::now() + Duration::from_secs(10);
        while debug.frame().view.last_depth.is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(debug.wait_paused(Duration::from_secs(10)));
        let latest = debug.latest(1);
        assert!(matches!(latest[0].event, Event::IterationFinished(_)));
        run.cancel();
        assert!(run.wait(Duration::from_secs(10)).is_some());
    }

    #[test]
    fn the_log_keeps_only_the_newest_events_up_to_its_bound() {
        let setup = DebugSetup {
            start_paused: false,
            record_capacity: 50,
            ..DebugSetup::default()
        };
        let (mut run, debug) = SolveJob::new("bfs", samples::fogleman_22())
            .spawn_debug(quiet_waker(), setup)
            .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        run.cancel();
        assert!(run.wait(Duration::from_secs(10)).is_some());
        let frame = debug.frame();
        assert_eq!(frame.recorded, 50);
        let last = frame.view.events - 1;
        assert_eq!(frame.first_recorded, last - 49);
        assert!(debug.recorded(frame.first_recorded).is_some());
        assert!(debug.recorded(frame.first_recorded - 1).is_none());
        // The log around an event holds it, half newer events, and stays inside the log.
        let middle = frame.first_recorded + 25;
        let around: Vec<u64> = debug.around(middle, 10).iter().map(|r| r.index).collect();
        assert_eq!(around, (middle - 4..=middle + 5).rev().collect::<Vec<_>>());
        let oldest: Vec<u64> = debug.around(0, 10).iter().map(|r| r.index).collect();
        assert_eq!(oldest.last(), Some(&frame.first_recorded));
        assert_eq!(oldest.len(), 10);
        let newest: Vec<u64> = debug.around(last, 10).iter().map(|r| r.index).collect();
        assert_eq!(newest.first(), Some(&last));
        assert_eq!(newest.len(), 10);
    }

    #[test]
    fn the_picture_at_a_recorded_event_is_the_picture_shown_then() {
        // The same solvers run twice: recorded by a plain probe, from which the picture after
        // every event is built from scratch, and debugged with a short log, whose rebuilt
        // pictures must match them once the oldest events have left the log.
        let puzzle = small_puzzle();
        for solver_name in ["graph-v2", "stateless", "bfs"] {
            let mut recording = crate::solver::RecordingProbe::default();
            solver::run(
                solver_name,
                &puzzle,
                &crate::solver::SolverOptions::default(),
                &Limits::default(),
                &mut recording,
            )
            .unwrap();
            let setup = DebugSetup {
                start_paused: false,
                record_capacity: 300,
                ..DebugSetup::default()
            };
            let (mut run, debug) = SolveJob::new(solver_name, puzzle.clone())
                .spawn_debug(quiet_waker(), setup)
                .unwrap();
            assert!(run.wait(Duration::from_secs(30)).is_some());
            let frame = debug.frame();
            let total = recording.events.len() as u64;
            assert_eq!(frame.view.events, total, "{solver_name}");
            assert!(
                frame.first_recorded > 0,
                "{solver_name}: the log never filled"
            );
            let mut expected =
                SearchPicture::new(puzzle.board().cell_count(), puzzle.active_robot());
            for (index, event) in recording.events.iter().enumerate() {
                expected.apply(event);
                let index = index as u64;
                if index < frame.first_recorded {
                    assert!(debug.picture_at(index).is_none());
                } else if index.is_multiple_of(7) || index + 1 == total {
                    let rebuilt = debug.picture_at(index).unwrap();
                    assert_eq!(rebuilt, expected, "{solver_name}: event {index}");
                }
            }
            assert_eq!(frame.picture, expected, "{solver_name}: the live picture");
            assert!(debug.picture_at(total).is_none());
        }
    }

    #[test]
    fn a_stepped_search_publishes_its_node_count_at_every_stop() {
        let (mut run, debug) = SolveJob::new("iddfs", small_puzzle())
            .spawn_debug(quiet_waker(), DebugSetup::default())
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        debug.set_mode(RunMode::Steps(40));
        let deadline = Instant::now() + Duration::from_secs(10);
        while debug.view().events < 41 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(debug.wait_paused(Duration::from_secs(10)));
        let nodes = debug.view().nodes;
        assert!(nodes > 0);
        assert_eq!(run.live().nodes(), nodes);
        run.cancel();
        assert!(run.wait(Duration::from_secs(10)).is_some());
    }
}
