//! The Compare runs window: two searches of one puzzle, each recorded whole from a solver or
//! an engine or opened from a trace file, their per-depth rows side by side with the
//! differences, both stepped together node by node, and "first difference", which lands
//! both on the first place the two searches part (by the rule the window names; see
//! [`crate::solver::trace::DivergenceRule`]), each position drawn beside the other.
//!
//! Recording and comparing run on the worker's named threads ([`crate::worker::debug::compare`]);
//! stepping reads the traces here, a block at most per step.

mod states;
pub(super) mod window;

use crate::app::run::engines::EngineList;
use crate::model::{Cell, Move, Puzzle};
use crate::solver::trace::{
    DivergenceRule, EventKind, TraceComparison, TraceReader, TraceSummary, TracedEvent,
};
use crate::solver::{Event, SolverId, SolverOptions, SolverPick};
use crate::worker::debug::compare::{
    CompareResult, Comparing, RecordResult, Recording, spawn_comparison, spawn_recording,
};
use crate::worker::{Drained, Waker};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How far a step reads for the next or previous node before it gives up: far beyond the
/// prunes and rows any solver writes between two nodes.
const STEP_BUDGET: u64 = 50_000_000;

/// The recording time limit a new window starts with, in seconds: long enough for every
/// shipped puzzle under `fast`, short enough that a slow solver's trace stays a few GB.
const DEFAULT_TIME_LIMIT_S: u32 = 30;

/// Which of the two runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::app) enum Which {
    First,
    Second,
}

impl Which {
    pub(in crate::app) const BOTH: [Which; 2] = [Which::First, Which::Second];

    fn index(self) -> usize {
        match self {
            Which::First => 0,
            Which::Second => 1,
        }
    }

    /// "First run" or "Second run", as the window labels them.
    pub(in crate::app) fn title(self) -> &'static str {
        match self {
            Which::First => "First run",
            Which::Second => "Second run",
        }
    }
}

/// Why the two runs cannot be compared now.
#[derive(Debug, thiserror::Error)]
enum NotComparable {
    /// One of the runs has no trace open.
    #[error("{} has no trace yet", .0.title())]
    NoTrace(Which),
    /// The traces are of two puzzles.
    #[error("The two runs are of different puzzles: record both on one board")]
    DifferentPuzzles,
}

/// A run's trace, open.
pub(in crate::app) struct Loaded {
    reader: TraceReader,
    /// What the window calls it: the solver's title, or the file's name.
    title: String,
    summary: TraceSummary,
    /// The node shown, once stepped to.
    shown: Option<TracedEvent>,
    /// Keeps a recorded trace's temporary file until the run is replaced.
    _temporary: Option<tempfile::TempPath>,
}

/// Where one run stands.
#[derive(Default)]
enum RunState {
    #[default]
    Empty,
    Recording {
        recording: Recording,
        path: tempfile::TempPath,
        title: String,
    },
    Ready(Box<Loaded>),
    Failed(String),
}

/// One of the two runs, with the choices that make it.
#[derive(Default)]
pub(in crate::app) struct Run {
    /// The solver or engine to record.
    pub(in crate::app) pick: Option<SolverPick>,
    /// The trace file to open, as typed or chosen.
    pub(in crate::app) file: String,
    state: RunState,
}

/// The comparison, once asked for.
enum Compared {
    Running(Comparing, DivergenceRule),
    Done(Box<TraceComparison>, DivergenceRule),
    Cancelled,
    Failed(String),
}

/// The window's state.
pub(super) struct CompareView {
    /// Whether the window shows.
    pub(in crate::app) open: bool,
    runs: [Run; 2],
    pub(in crate::app) rule: DivergenceRule,
    /// The longest a recording may run, in seconds.
    pub(in crate::app) time_limit_s: u32,
    compared: Option<Compared>,
    /// The last step's or open's trouble, if any.
    note: Option<String>,
}

impl Default for CompareView {
    fn default() -> Self {
        let mut view = CompareView {
            open: false,
            runs: Default::default(),
            rule: DivergenceRule::Order,
            time_limit_s: DEFAULT_TIME_LIMIT_S,
            compared: None,
            note: None,
        };
        view.runs[0].pick = Some(SolverPick::BuiltIn(SolverId::Iddfs));
        view.runs[1].pick = Some(SolverPick::BuiltIn(SolverId::Fast));
        view
    }
}

/// A run as the window draws it.
pub(in crate::app) struct RunShown<'a> {
    /// Its title, and how it stands in words.
    pub(in crate::app) status: String,
    /// Whether the status is an error.
    pub(in crate::app) failed: bool,
    /// Whether it is being recorded.
    pub(in crate::app) recording: bool,
    /// The puzzle of its trace, once open.
    pub(in crate::app) puzzle: Option<&'a Puzzle>,
    /// The node shown: its event, depth, iteration, cells and path.
    pub(in crate::app) node: Option<NodeShown>,
}

/// A node as the window draws it.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::app) struct NodeShown {
    pub(in crate::app) index: u64,
    pub(in crate::app) depth: u32,
    pub(in crate::app) iteration: Option<u32>,
    pub(in crate::app) cells: Vec<Cell>,
    pub(in crate::app) path: Vec<Move>,
}

fn node_shown(event: &TracedEvent) -> Option<NodeShown> {
    match &event.event {
        Event::Node { depth, cells, path } => Some(NodeShown {
            index: event.index,
            depth: *depth,
            iteration: event.iteration,
            cells: cells.as_slice().to_vec(),
            path: path.clone(),
        }),
        _ => None,
    }
}

/// Where the comparison stands, for the window.
pub(in crate::app) enum CompareStatus {
    /// Not asked for since the runs last changed.
    None,
    /// Under way: nodes read so far from both traces.
    Running { nodes: u64 },
    /// The same search by `rule`.
    Same { nodes: u64, rule: DivergenceRule },
    /// They differ after `nodes` nodes, for the reason given.
    Differ {
        nodes: u64,
        why: String,
        rule: DivergenceRule,
    },
    /// Cancelled before it ended.
    Cancelled,
    /// It could not be made.
    Failed(String),
}

/// One depth's row of both runs, for the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::app) struct RowPair {
    pub(in crate::app) depth: u32,
    pub(in crate::app) first: Option<u64>,
    pub(in crate::app) second: Option<u64>,
}

impl CompareView {
    /// Takes what the threads have sent; says whether anything changed.
    pub(in crate::app) fn poll(&mut self) -> bool {
        let mut changed = false;
        for which in Which::BOTH {
            changed |= self.poll_run(which);
        }
        changed | self.poll_comparison()
    }

    /// Whether a recording or the comparison is under way (the window then repaints for its
    /// counters).
    pub(in crate::app) fn is_busy(&self) -> bool {
        matches!(self.compared, Some(Compared::Running(..)))
            || self
                .runs
                .iter()
                .any(|run| matches!(run.state, RunState::Recording { .. }))
    }

    fn poll_run(&mut self, which: Which) -> bool {
        let run = &mut self.runs[which.index()];
        let RunState::Recording { recording, .. } = &mut run.state else {
            return false;
        };
        let mut result: Option<RecordResult> = None;
        let drained = recording.task.drain(|message| {
            result = Some(message);
            true
        });
        if drained == Drained::Waiting {
            return false;
        }
        let RunState::Recording { path, title, .. } = std::mem::take(&mut run.state) else {
            unreachable!("the state was a recording above");
        };
        run.state = match result {
            Some(Ok(_)) => match TraceReader::open(&path) {
                Ok(reader) => loaded(reader, title, Some(path)),
                Err(error) => RunState::Failed(format!("{title}: {error}")),
            },
            Some(Err(error)) => RunState::Failed(format!("{title}: {error}")),
            None => RunState::Failed(format!(
                "{title}: the recording stopped on an internal error"
            )),
        };
        self.compared = None;
        true
    }

    fn poll_comparison(&mut self) -> bool {
        let Some(Compared::Running(comparing, rule)) = &self.compared else {
            return false;
        };
        let rule = *rule;
        let mut result: Option<CompareResult> = None;
        let drained = comparing.task.drain(|message| {
            result = Some(message);
            true
        });
        if drained == Drained::Waiting {
            return false;
        }
        self.compared = Some(match result {
            Some(Ok(Some(comparison))) => Compared::Done(Box::new(comparison), rule),
            Some(Ok(None)) => Compared::Cancelled,
            Some(Err(error)) => Compared::Failed(error.to_string()),
            None => Compared::Failed("the comparison stopped on an internal error".into()),
        });
        true
    }

    /// Records run `which` of `puzzle` with its chosen solver or engine, replacing what it
    /// held.
    pub(in crate::app) fn record(
        &mut self,
        which: Which,
        puzzle: &Puzzle,
        engines: &EngineList,
        waker: Waker,
    ) {
        let time_limit = Duration::from_secs(u64::from(self.time_limit_s.max(1)));
        let run = &mut self.runs[which.index()];
        let Some(pick) = run.pick.clone() else {
            run.state = RunState::Failed("Choose a solver or an engine to record".into());
            return;
        };
        self.compared = None;
        let solver = match engines.resolve(&pick) {
            Ok(solver) => solver,
            Err(error) => {
                run.state = RunState::Failed(error.to_string());
                return;
            }
        };
        let title = solver.kind().title.to_string();
        let started = tempfile::Builder::new()
            .prefix("ricochet-lab-run-")
            .suffix(".rltrace")
            .tempfile()
            .map(tempfile::NamedTempFile::into_temp_path)
            .and_then(|path| {
                spawn_recording(
                    solver,
                    puzzle.clone(),
                    SolverOptions::default(),
                    Some(time_limit),
                    path.to_path_buf(),
                    waker,
                )
                .map(|recording| (recording, path))
            });
        run.state = match started {
            Ok((recording, path)) => RunState::Recording {
                recording,
                path,
                title,
            },
            Err(error) => {
                RunState::Failed(format!("{title}: the recording could not start: {error}"))
            }
        };
    }

    /// Stops run `which`'s recording; what it recorded so far stays, marked incomplete.
    pub(in crate::app) fn cancel_recording(&mut self, which: Which) {
        if let RunState::Recording { recording, .. } = &self.runs[which.index()].state {
            recording.task.cancel();
        }
    }

    /// Opens the trace file named in run `which`'s field.
    pub(in crate::app) fn open_file(&mut self, which: Which) {
        let run = &mut self.runs[which.index()];
        let path = PathBuf::from(run.file.trim());
        if path.as_os_str().is_empty() {
            run.state = RunState::Failed("Name a trace file to open".into());
            return;
        }
        self.compared = None;
        let title = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        run.state = match TraceReader::open(&path) {
            Ok(reader) => loaded(reader, title, None),
            Err(error) => RunState::Failed(error.to_string()),
        };
    }

    /// The two runs' traces, when both are open and of one puzzle; otherwise why not.
    fn both(&self) -> Result<[&Loaded; 2], NotComparable> {
        let ready = |which: Which| match &self.runs[which.index()].state {
            RunState::Ready(loaded) => Ok(loaded.as_ref()),
            _ => Err(NotComparable::NoTrace(which)),
        };
        let (first, second) = (ready(Which::First)?, ready(Which::Second)?);
        if first.reader.puzzle() != second.reader.puzzle() {
            return Err(NotComparable::DifferentPuzzles);
        }
        Ok([first, second])
    }

    /// Why Compare cannot start now, if it cannot.
    pub(in crate::app) fn compare_blocked(&self) -> Option<String> {
        if matches!(self.compared, Some(Compared::Running(..))) {
            return Some("A comparison is under way".into());
        }
        self.both().err().map(|why| why.to_string())
    }

    /// Starts comparing the two runs' traces by the window's rule.
    pub(in crate::app) fn compare(&mut self, waker: Waker) {
        let paths = match self.both() {
            Ok([first, second]) => [
                first.reader.path().to_path_buf(),
                second.reader.path().to_path_buf(),
            ],
            Err(why) => {
                self.compared = Some(Compared::Failed(why.to_string()));
                return;
            }
        };
        let [first, second] = paths;
        self.compared = Some(match spawn_comparison(first, second, self.rule, waker) {
            Ok(comparing) => Compared::Running(comparing, self.rule),
            Err(error) => Compared::Failed(format!("The comparison could not start: {error}")),
        });
    }

    /// Stops the comparison under way.
    pub(in crate::app) fn cancel_comparison(&self) {
        if let Some(Compared::Running(comparing, _)) = &self.compared {
            comparing.task.cancel();
        }
    }

    /// Where the comparison stands.
    /// The comparison by states, once made, with the puzzle both runs searched.
    pub(in crate::app) fn states(
        &self,
    ) -> Option<(&crate::solver::trace::StateComparison, &Puzzle)> {
        let Some(Compared::Done(comparison, _)) = &self.compared else {
            return None;
        };
        let states = comparison.states.as_deref()?;
        let puzzle = self.runs.iter().find_map(|run| match &run.state {
            RunState::Ready(loaded) => Some(loaded.reader.puzzle()),
            _ => None,
        })?;
        Some((states, puzzle))
    }

    pub(in crate::app) fn compare_status(&self) -> CompareStatus {
        match &self.compared {
            None => CompareStatus::None,
            Some(Compared::Running(comparing, _)) => CompareStatus::Running {
                nodes: comparing.nodes.load(Ordering::Relaxed),
            },
            Some(Compared::Done(comparison, rule)) => match &comparison.divergence {
                None => CompareStatus::Same {
                    nodes: comparison.nodes_compared,
                    rule: *rule,
                },
                Some(divergence) => CompareStatus::Differ {
                    nodes: comparison.nodes_compared,
                    why: divergence.why.clone(),
                    rule: *rule,
                },
            },
            Some(Compared::Cancelled) => CompareStatus::Cancelled,
            Some(Compared::Failed(why)) => CompareStatus::Failed(why.clone()),
        }
    }

    /// Whether the comparison found a difference to go to.
    pub(in crate::app) fn has_difference(&self) -> bool {
        matches!(&self.compared, Some(Compared::Done(c, _)) if c.divergence.is_some())
    }

    /// A run's choices, for the window's fields.
    pub(in crate::app) fn run_mut(&mut self, which: Which) -> &mut Run {
        &mut self.runs[which.index()]
    }

    /// A run as the window draws it.
    pub(in crate::app) fn shown(&self, which: Which) -> RunShown<'_> {
        let empty = RunShown {
            status: String::new(),
            failed: false,
            recording: false,
            puzzle: None,
            node: None,
        };
        match &self.runs[which.index()].state {
            RunState::Empty => RunShown {
                status: "Not recorded yet".into(),
                ..empty
            },
            RunState::Recording {
                recording, title, ..
            } => RunShown {
                status: format!(
                    "Recording {title}: {} nodes, {:.1} s",
                    crate::app::widgets::format_count(recording.nodes.load(Ordering::Relaxed)),
                    recording.started.elapsed().as_secs_f64()
                ),
                recording: true,
                ..empty
            },
            RunState::Failed(why) => RunShown {
                status: why.clone(),
                failed: true,
                ..empty
            },
            RunState::Ready(loaded) => RunShown {
                status: format!(
                    "{}: {} events, {}",
                    loaded.title,
                    crate::app::widgets::format_count(loaded.summary.events),
                    loaded.summary.end
                ),
                failed: false,
                recording: false,
                puzzle: Some(loaded.reader.puzzle()),
                node: loaded.shown.as_ref().and_then(node_shown),
            },
        }
    }

    /// The trouble the last step or open met, if any.
    pub(in crate::app) fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Both runs' rows, depth by depth.
    pub(in crate::app) fn rows(&self) -> Vec<RowPair> {
        let rows = |which: Which| match &self.runs[which.index()].state {
            RunState::Ready(loaded) => loaded.summary.rows.clone(),
            _ => Vec::new(),
        };
        let (first, second) = (rows(Which::First), rows(Which::Second));
        let mut depths: Vec<u32> = first.iter().chain(&second).map(|row| row.depth).collect();
        depths.sort_unstable();
        depths.dedup();
        let nodes = |rows: &[crate::solver::trace::TraceRow], depth: u32| {
            rows.iter()
                .find(|row| row.depth == depth)
                .map(|row| row.nodes)
        };
        depths
            .into_iter()
            .map(|depth| RowPair {
                depth,
                first: nodes(&first, depth),
                second: nodes(&second, depth),
            })
            .collect()
    }

    /// Both runs back to their first node.
    pub(in crate::app) fn go_to_start(&mut self) {
        self.note = None;
        for run in &mut self.runs {
            if let RunState::Ready(loaded) = &mut run.state
                && let Some(trouble) = first_node(loaded)
            {
                self.note = Some(trouble);
            }
        }
    }

    /// Both runs one node forward (or back); a run at its end stays.
    pub(in crate::app) fn step(&mut self, forward: bool) {
        self.note = None;
        let mut ended = Vec::new();
        for which in Which::BOTH {
            let RunState::Ready(loaded) = &mut self.runs[which.index()].state else {
                continue;
            };
            let from = loaded.shown.as_ref().map_or(0, |event| event.index);
            let found = loaded
                .reader
                .find_kind(from, EventKind::Node, forward, STEP_BUDGET);
            match found {
                Ok(Some(index)) => {
                    if let Some(trouble) = show_event(loaded, Some(index)) {
                        self.note = Some(trouble);
                    }
                }
                Ok(None) => ended.push(which.title().to_lowercase()),
                Err(error) => self.note = Some(error.to_string()),
            }
        }
        if !ended.is_empty() && self.note.is_none() {
            let place = if forward { "last" } else { "first" };
            self.note = Some(format!(
                "The {} is at its {place} node",
                ended.join(" and the ")
            ));
        }
    }

    /// Both runs to the first place their searches differ, as the comparison found it.
    pub(in crate::app) fn go_to_difference(&mut self) {
        self.note = None;
        let Some(Compared::Done(comparison, _)) = &self.compared else {
            return;
        };
        let Some(divergence) = comparison.divergence.clone() else {
            return;
        };
        let mut notes = Vec::new();
        for (which, node) in Which::BOTH
            .into_iter()
            .zip([divergence.first, divergence.second])
        {
            let RunState::Ready(loaded) = &mut self.runs[which.index()].state else {
                continue;
            };
            match node {
                Some(node) => {
                    if let Some(trouble) = show_event(loaded, Some(node.index)) {
                        notes.push(trouble);
                    }
                }
                None => notes.push(format!(
                    "The {} has no node there: it stays where it was",
                    which.title().to_lowercase()
                )),
            }
        }
        self.note = (!notes.is_empty()).then(|| notes.join("; "));
    }

    /// The trace file and event number run `which` shows, for the debugger to open.
    pub(in crate::app) fn debugger_target(&self, which: Which) -> Option<(PathBuf, u64)> {
        match &self.runs[which.index()].state {
            RunState::Ready(loaded) => Some((
                loaded.reader.path().to_path_buf(),
                loaded.shown.as_ref().map_or(0, |event| event.index),
            )),
            _ => None,
        }
    }

    /// The trace file of run `which`, when it has one.
    pub(in crate::app) fn trace_path(&self, which: Which) -> Option<&Path> {
        match &self.runs[which.index()].state {
            RunState::Ready(loaded) => Some(loaded.reader.path()),
            _ => None,
        }
    }
}

fn loaded(
    mut reader: TraceReader,
    title: String,
    temporary: Option<tempfile::TempPath>,
) -> RunState {
    match reader.summary() {
        Ok(summary) => {
            let mut loaded = Loaded {
                reader,
                title,
                summary,
                shown: None,
                _temporary: temporary,
            };
            // A trace with no node shows its puzzle's own position; nothing to report.
            let _ = first_node(&mut loaded);
            RunState::Ready(Box::new(loaded))
        }
        Err(error) => RunState::Failed(format!("{title}: {error}")),
    }
}

/// Shows a run's first node; says what went wrong, if anything did.
fn first_node(run: &mut Loaded) -> Option<String> {
    run.shown = None;
    let first = match run.reader.event(0) {
        Ok(event) if node_shown(&event).is_some() => Some(0),
        Ok(_) => match run.reader.find_kind(0, EventKind::Node, true, STEP_BUDGET) {
            Ok(found) => found,
            Err(error) => return Some(error.to_string()),
        },
        Err(error) => return Some(error.to_string()),
    };
    show_event(run, first)
}

/// Shows the event at `index` (nothing when `None`); says what went wrong, if anything did.
fn show_event(run: &mut Loaded, index: Option<u64>) -> Option<String> {
    let index = index?;
    match run.reader.event(index) {
        Ok(event) => {
            run.shown = Some(event);
            None
        }
        Err(error) => Some(error.to_string()),
    }
}
