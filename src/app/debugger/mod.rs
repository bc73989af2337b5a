//! The algorithm debugger: start a search paused, step it event by event, by subtree or by
//! depth, play it at a chosen speed, stop at breakpoints, and scrub back through the recorded
//! events. [`panel`] draws it in the dock's Debugger tab.
//!
//! The solver thread is held by the stepping probe of [`crate::worker::debug`]; this module
//! only reads its picture each frame and sends it run modes.

pub mod frontier;
pub mod panel;
pub mod predict;
pub mod tree;
pub mod tree_state;

use crate::app::board_paint::{RobotSprite, Trail};
use crate::app::command::DebugCommand;
use crate::app::overlays;
use crate::model::{Board, Puzzle};
use crate::solver::RobotCells;
use crate::solver::heuristics::Heuristic;
use crate::solver::trace::{Estimates, EventKind, Health, TraceError, TraceReader, shape_of_trace};
use crate::worker::debug::{
    Breakpoints, DebugFrame, DebugHandle, DebugView, History, PictureStep, Recorded, RunMode,
    SearchPicture,
};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};

/// How many events the panel's log lists.
const LOG_LINES: usize = 40;

/// The debugger's choices, kept between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DebugSettings {
    /// Solve through the stepping probe. Not kept between runs of the app: a Solve after a
    /// restart is a plain run unless debug mode is ticked again, so it never opens in the
    /// debugger unannounced.
    #[serde(skip)]
    pub enabled: bool,
    /// Pause on the first event.
    pub start_paused: bool,
    /// Animated play speed, events per second.
    pub(super) speed: f32,
    /// Stop at a depth.
    pub break_on_depth: bool,
    /// That depth.
    pub(super) break_depth: u32,
    /// Stop when the active robot enters a cell.
    pub break_on_cell: bool,
    /// That cell's column.
    pub(super) break_x: u16,
    /// That cell's row.
    pub(super) break_y: u16,
    /// Stop when a solution is found.
    pub break_on_solution: bool,
    /// Stop on a prune of a kind.
    pub break_on_prune: bool,
    /// That kind (a table hit is one).
    pub(super) break_prune: EventKind,
    /// Stop when a new depth or bound starts.
    pub break_on_bound: bool,
    /// Show the frontier (open list or stack) at the event shown.
    pub show_frontier: bool,
    /// Ask the learner to predict each next step.
    pub predict: bool,
    /// Hold the cell and state breakpoints to a range of depths.
    pub break_in_depths: bool,
    /// The range's shallowest depth.
    pub(super) break_depth_low: u32,
    /// Its deepest.
    pub(super) break_depth_high: u32,
}

impl Default for DebugSettings {
    fn default() -> Self {
        DebugSettings {
            enabled: false,
            start_paused: true,
            speed: 20.0,
            break_on_depth: false,
            break_depth: 3,
            break_on_cell: false,
            break_x: 0,
            break_y: 0,
            break_on_solution: true,
            break_on_prune: false,
            break_prune: EventKind::TableHit,
            break_on_bound: false,
            show_frontier: false,
            predict: false,
            break_in_depths: false,
            break_depth_low: 0,
            break_depth_high: 30,
        }
    }
}

impl DebugSettings {
    /// The breakpoints these settings describe on a board, plus a state to stop at.
    pub(super) fn breakpoints(&self, board: &Board, state: Option<RobotCells>) -> Breakpoints {
        let cell_pos = crate::model::Pos::new(self.break_x, self.break_y);
        Breakpoints {
            depth: self.break_on_depth.then_some(self.break_depth),
            active_cell: (self.break_on_cell && board.contains(cell_pos))
                .then(|| board.cell(cell_pos)),
            state,
            depth_range: self.break_in_depths.then_some((
                self.break_depth_low.min(self.break_depth_high),
                self.break_depth_low.max(self.break_depth_high),
            )),
            solution: self.break_on_solution,
            prune: self.break_on_prune.then_some(self.break_prune),
            new_bound: self.break_on_bound,
        }
    }
}

/// Where a debugger's events come from: a run going on (or ended) with its handle, or a
/// trace file opened with no solver running.
enum Source {
    Live(DebugHandle),
    File {
        history: Arc<Mutex<History>>,
        frame: Box<DebugFrame>,
        /// The overlays' picture before the event of each key, from the empty one before
        /// event 0: a file keeps no pictures, so they are rebuilt as the events are shown.
        snapshots: std::collections::BTreeMap<u64, SearchPicture>,
    },
}

/// How many events a search for an event (of a kind, a position) reads before it gives up, so
/// that a click never holds the window for long: about a second of reading.
const FIND_BUDGET: u64 = 200_000_000;

/// A debugged run as the panel sees it.
pub struct Debugger {
    source: Source,
    puzzle: Puzzle,
    frame: DebugFrame,
    log: Vec<Recorded>,
    /// The recorded event shown instead of the latest one, when scrubbed back.
    timeline: Option<Recorded>,
    /// The play speed to use for [`DebugCommand::Play`].
    speed: f32,
    /// The state to stop at, when one was chosen.
    break_state: Option<RobotCells>,
    /// The overlays' picture at the scrubbed-back event, with that event's index.
    shown_picture: Option<(u64, SearchPicture)>,
    /// What the last search for an event found, in words, for the panel.
    find_note: Option<String>,
    /// The search tree tab's state.
    pub(super) tree: tree_state::TreeView,
    /// The frontier (open list or stack) at the shown event.
    frontier: frontier::FrontierState,
    /// The Predict mode's guesses and score.
    predict: predict::PredictState,
    /// The solver's heuristic and its estimates on this puzzle, once the trace named the
    /// solver (`None` inside: a solver without one).
    numbers: Option<(Option<Heuristic>, Estimates)>,
    /// For a trace file, how its recording ended or what is wrong with it.
    file_state: Option<String>,
}

/// How a trace file's recording ended, in words, after every block was checked: a damaged
/// or incomplete trace says so and where, so that it is never shown as a finished run.
fn file_state(reader: &mut TraceReader) -> String {
    match reader.check() {
        Ok(Health::Whole) => match reader.summary() {
            Ok(summary) => format!("Trace: {}", summary.end),
            Err(error) => format!("Damaged trace: {error}"),
        },
        Ok(Health::Incomplete(why)) => format!("Incomplete trace: {why}"),
        Ok(Health::Damaged(why)) => format!("Damaged trace: {why}"),
        Err(error) => format!("Unreadable trace: {error}"),
    }
}

impl Debugger {
    /// Wraps the handle of a run on `puzzle`.
    pub(super) fn new(handle: DebugHandle, puzzle: Puzzle) -> Debugger {
        Debugger::with_source(Source::Live(handle), puzzle)
    }

    /// A debugger on a trace file, with no solver running: its events are stepped and
    /// scrubbed as a finished run's are.
    pub fn from_trace(mut reader: TraceReader) -> Debugger {
        let puzzle = reader.puzzle().clone();
        let state = file_state(&mut reader);
        let mut history = History::of_reader(reader);
        let events = history.events();
        let last = history
            .read(events.saturating_sub(1), events, &Default::default())
            .unwrap_or_default();
        let frame = DebugFrame {
            view: last.last().map(|r| r.view.clone()).unwrap_or_default(),
            recorded: events,
            picture: SearchPicture::new(puzzle.board().cell_count(), puzzle.active_robot()),
            ..DebugFrame::default()
        };
        let empty = frame.picture.clone();
        let mut debugger = Debugger::with_source(
            Source::File {
                history: Arc::new(Mutex::new(history)),
                frame: Box::new(frame),
                snapshots: std::collections::BTreeMap::from([(0, empty)]),
            },
            puzzle,
        );
        debugger.file_state = Some(state);
        // Read at once, so that a command applied before the first frame (go to an event)
        // finds the whole trace.
        debugger.frame = debugger.read_frame();
        debugger
    }

    /// For a trace file, how its recording ended, or that it is incomplete or damaged and
    /// where: what the panel says where a run would say Finished.
    pub fn file_state(&self) -> Option<&str> {
        self.file_state.as_deref()
    }

    fn with_source(source: Source, puzzle: Puzzle) -> Debugger {
        Debugger {
            source,
            puzzle,
            frame: DebugFrame::default(),
            log: Vec::new(),
            timeline: None,
            speed: 20.0,
            break_state: None,
            shown_picture: None,
            find_note: None,
            tree: tree_state::TreeView::default(),
            frontier: frontier::FrontierState::default(),
            predict: predict::PredictState::default(),
            numbers: None,
            file_state: None,
        }
    }

    /// Whether the events come from a trace file rather than a run.
    pub fn is_from_file(&self) -> bool {
        matches!(self.source, Source::File { .. })
    }

    /// The trace file the events are read from: the run's own (every event so far) or the
    /// file opened.
    pub fn trace_path(&self) -> std::path::PathBuf {
        match &self.source {
            Source::Live(handle) => handle.trace_path(),
            Source::File { history, .. } => lock(history).path().to_path_buf(),
        }
    }

    /// The history the tree and the searches read.
    pub(super) fn history(&self) -> Arc<Mutex<History>> {
        match &self.source {
            Source::Live(handle) => handle.history(),
            Source::File { history, .. } => Arc::clone(history),
        }
    }

    fn read_frame(&self) -> DebugFrame {
        match &self.source {
            Source::Live(handle) => handle.frame(),
            Source::File { frame, .. } => (**frame).clone(),
        }
    }

    /// The events numbered `from` up to `to` (not included), oldest first.
    fn read(&self, from: u64, to: u64) -> Vec<Recorded> {
        match &self.source {
            Source::Live(handle) => handle.read(from, to),
            Source::File { history, .. } => lock(history)
                .read(from, to, &Default::default())
                .unwrap_or_default(),
        }
    }

    fn recorded(&self, index: u64) -> Option<Recorded> {
        self.read(index, index.checked_add(1)?).pop()
    }

    /// Reads the run's picture; called once per frame. Says whether the overlays' picture
    /// is still being rebuilt (the caller then asks for another frame).
    pub(super) fn refresh(&mut self, speed: f32) -> bool {
        if self.numbers.is_none() {
            let history = self.history();
            let mut history = lock(&history);
            if let Ok(reader) = history.reader() {
                let heuristic = shape_of_trace(reader).heuristic();
                self.numbers = Some((heuristic, Estimates::new(&self.puzzle, heuristic)));
            }
        }
        self.frame = self.read_frame();
        self.speed = speed;
        let pending = self.sync_picture();
        self.sync_prediction();
        pending
    }

    /// Reads the log lines the panel lists: the latest events, or those around the
    /// scrubbed-back event so that it is among them.
    fn read_log(&mut self) {
        // A running search records events between the reading of its picture and of its
        // log, as many as it likes on a busy machine: the log is read up to the picture's
        // last event, so that the node shown ("Event N of N") and the log's newest line are
        // the same event.
        let seen = self.frame.view.events.min(self.frame.recorded);
        let count = LOG_LINES as u64;
        let end = match &self.timeline {
            // About half of the lines are newer than the event shown.
            Some(shown) => (shown.index + count / 2 + 1).min(seen).max(count.min(seen)),
            None => seen,
        };
        self.log = self.read(end.saturating_sub(count), end);
        self.log.reverse();
    }

    /// Rebuilds the overlays' picture when the shown event is a recorded one that changed
    /// (for a trace file, also the last event, as a file has no live picture). Says whether
    /// the picture is still being rebuilt, a stride of events per call.
    fn sync_picture(&mut self) -> bool {
        self.read_log();
        let index = match (&self.timeline, &self.source) {
            (Some(shown), _) => shown.index,
            (None, Source::File { .. }) if self.frame.recorded > 0 => self.frame.recorded - 1,
            _ => {
                self.shown_picture = None;
                return false;
            }
        };
        if self.shown_picture.as_ref().map(|(at, _)| *at) == Some(index) {
            return false;
        }
        let mut pending = false;
        let picture = match &mut self.source {
            Source::Live(handle) => handle.picture_at(index),
            Source::File {
                history, snapshots, ..
            } => {
                let mut history = history.lock().unwrap_or_else(|e| e.into_inner());
                match history.picture_toward(index, snapshots) {
                    Ok(Some(PictureStep::Ready(picture))) => Some(*picture),
                    Ok(Some(PictureStep::Nearer)) => {
                        pending = true;
                        None
                    }
                    Ok(None) | Err(_) => None,
                }
            }
        };
        self.shown_picture = picture.map(|picture| (index, picture));
        pending
    }

    /// Brings the frontier up to the shown event when it is `wanted` (the Debugger tab shows
    /// it), a stride of events per call; says whether it is still being rebuilt.
    pub fn sync_frontier(&mut self, wanted: bool) -> bool {
        if !wanted {
            self.frontier.hovered.replace(None);
            return false;
        }
        let Some(index) = self.shown_index() else {
            return false;
        };
        let history = self.history();
        let mut history = lock(&history);
        let Ok(reader) = history.reader() else {
            return false;
        };
        // A run going on has written every event up to the one shown when it paused; while
        // it runs, the frontier follows the events written.
        let Some(last) = reader.events().checked_sub(1) else {
            return false;
        };
        self.frontier.sync(reader, index.min(last))
    }

    /// What the frontier section shows at the shown event, once worked out.
    pub fn frontier_shown(&self) -> Option<&frontier::FrontierShown> {
        self.frontier.shown()
    }

    /// The numbers behind a node with robots at `cells`, `g` moves from the start: its h by
    /// the solver's heuristic and that heuristic, when the solver has one.
    pub fn node_numbers(
        &self,
        cells: &[crate::model::Cell],
        g: u32,
    ) -> Option<(Heuristic, Option<u32>)> {
        let (heuristic, estimates) = self.numbers.as_ref()?;
        Some(((*heuristic)?, estimates.h(cells, g)))
    }

    /// The Predict mode's score in this run: right guesses, and guesses made.
    pub fn predict_score(&self) -> (u32, u32) {
        self.predict.score
    }

    /// What the Predict mode said of the last guess.
    pub fn predict_verdict(&self) -> Option<&predict::Verdict> {
        self.predict.last.as_ref()
    }

    /// The overlays' picture at the shown event: the heat map, slide graph and stateless
    /// states as they were then.
    pub fn shown_picture(&self) -> &SearchPicture {
        match &self.shown_picture {
            Some((_, picture)) if self.timeline.is_some() || self.is_from_file() => picture,
            _ => &self.frame.picture,
        }
    }

    /// The log lines the panel lists, newest first.
    pub fn log(&self) -> &[Recorded] {
        &self.log
    }

    /// The live picture.
    pub fn frame(&self) -> &DebugFrame {
        &self.frame
    }

    /// The puzzle being searched.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The view shown: the scrubbed-back event's, or the latest.
    pub fn shown_view(&self) -> &DebugView {
        self.timeline
            .as_ref()
            .map_or(&self.frame.view, |recorded| &recorded.view)
    }

    /// The index of the event shown.
    fn shown_index(&self) -> Option<u64> {
        match &self.timeline {
            Some(recorded) => Some(recorded.index),
            None => self.frame.view.events.checked_sub(1),
        }
    }

    /// Whether the panel shows a recorded event rather than the latest.
    pub fn is_scrubbed_back(&self) -> bool {
        self.timeline.is_some()
    }

    /// Whether the run stores stateless states, so the stateless layer draws its own.
    pub(super) fn is_stateless_run(&self) -> bool {
        let part = self
            .frame
            .picture
            .part::<crate::solver::stateless::StatelessPicture>();
        part.is_some_and(|part| !part.finals.is_empty())
    }

    /// Whether the solver waits for the user.
    pub fn is_paused(&self) -> bool {
        self.frame.paused
    }

    /// What the last search for an event found, when it found nothing or gave up.
    pub fn find_note(&self) -> Option<&str> {
        self.find_note.as_deref()
    }

    /// Shows the recorded event `index` (the latest when it is the last recorded).
    fn show(&mut self, index: u64) {
        let last = self.frame.view.events.min(self.frame.recorded);
        self.timeline = if index + 1 >= last && !self.is_from_file() {
            None
        } else {
            self.recorded(index.min(last.saturating_sub(1)))
        };
    }

    /// Runs a search of the recording for an event and shows what it finds.
    fn find(&mut self, what: &str, search: impl FnOnce(&TraceReader, u64) -> FindResult) {
        let from = self.shown_index().unwrap_or(0);
        let history = self.history();
        let found = {
            let mut history = lock(&history);
            match history.reader() {
                Ok(reader) => search(reader, from),
                Err(error) => Err(error),
            }
        };
        self.find_note = match found {
            Ok(Some(index)) => {
                self.show(index);
                None
            }
            Ok(None) => Some(format!("No {what} in the recording.")),
            Err(error) => Some(error.to_string()),
        };
    }

    /// Applies an action.
    pub(super) fn apply(&mut self, command: DebugCommand) {
        self.find_note = None;
        let live = match &self.source {
            Source::Live(handle) => Some(handle.clone()),
            Source::File { .. } => None,
        };
        match command {
            DebugCommand::Step => match (&self.timeline, &live) {
                (Some(shown), _) => {
                    let next = shown.index + 1;
                    self.show(next);
                }
                (None, Some(handle)) => handle.add_steps(1),
                (None, None) => {}
            },
            DebugCommand::StepBack => {
                let Some(index) = self.shown_index() else {
                    return;
                };
                if let Some(previous) = index.checked_sub(1)
                    && let Some(recorded) = self.recorded(previous)
                {
                    self.timeline = Some(recorded);
                }
            }
            DebugCommand::Scrub(index) | DebugCommand::GoTo(index) => self.show(index),
            DebugCommand::Latest => {
                self.timeline = None;
                if self.is_from_file() {
                    let last = self.frame.recorded.saturating_sub(1);
                    self.show(last);
                }
            }
            DebugCommand::FindKind(kind, forward) => self.find(kind.name(), |reader, from| {
                reader.find_kind(from, kind, forward, FIND_BUDGET)
            }),
            DebugCommand::IterationStart(depth) => {
                self.find(&format!("start of depth {depth}"), |reader, _| {
                    reader.find_iteration_start(depth, FIND_BUDGET)
                });
            }
            DebugCommand::FirstVisit => {
                let Some(cells) = self.shown_view().cells else {
                    return;
                };
                self.find("earlier visit of this position", |reader, _| {
                    reader.find_cells(&cells, FIND_BUDGET)
                });
            }
            DebugCommand::Tree(command) => self.apply_tree(command),
            DebugCommand::Predict(guess) => self.predict(guess),
            DebugCommand::Breakpoints(breakpoints) => {
                self.break_state = breakpoints.state;
                if let Some(handle) = &live {
                    handle.set_breakpoints(breakpoints);
                }
            }
            run_command => {
                if let Some(handle) = &live {
                    self.timeline = None;
                    match run_command {
                        DebugCommand::StepOver => {
                            handle.set_mode(RunMode::StepOver(self.frame.view.depth));
                        }
                        DebugCommand::StepDepth => handle.set_mode(RunMode::StepDepth),
                        DebugCommand::Continue => handle.set_mode(RunMode::Continue),
                        DebugCommand::Pause => handle.set_mode(RunMode::Paused),
                        DebugCommand::ToSolution => handle.set_mode(RunMode::ToSolution),
                        DebugCommand::Play => handle.set_mode(RunMode::Play(self.speed)),
                        _ => {}
                    }
                }
            }
        }
        // Read the picture again so the panel and tests see the effect of the action at once.
        self.frame = self.read_frame();
        self.sync_picture();
        self.sync_prediction();
    }

    /// The robots where the shown node has them, and its path from the root.
    /// A frontier entry under the pointer takes the shown node's place.
    pub fn board_picture(&self) -> Option<(Vec<RobotSprite>, Vec<Trail>)> {
        let view = self.shown_view();
        let hovered = self.frontier.hovered.borrow().clone();
        let (cells, path) = match hovered {
            Some((cells, path)) => (cells, path),
            None => (view.cells?.as_slice().to_vec(), view.path.clone()),
        };
        let board = self.puzzle.board();
        let robots = self
            .puzzle
            .robots()
            .iter()
            .zip(&cells)
            .map(|(robot, &cell)| RobotSprite::at(robot.color, board.pos(cell)))
            .collect();
        Some((robots, overlays::layers::path_trails(&self.puzzle, &path)))
    }
}

/// What a search of the recording found: the event's number, none, or why it could not
/// look.
type FindResult = Result<Option<u64>, TraceError>;

/// The history behind its lock; a panic elsewhere while it was held leaves it readable.
fn lock(history: &Mutex<History>) -> std::sync::MutexGuard<'_, History> {
    history.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_mode_is_not_kept_between_runs_of_the_app() {
        let settings = DebugSettings {
            enabled: true,
            start_paused: false,
            break_depth: 7,
            ..DebugSettings::default()
        };
        let text = ron::to_string(&settings).unwrap();
        let restored: DebugSettings = ron::from_str(&text).unwrap();
        assert!(!restored.enabled, "{text}");
        // The other choices are kept.
        assert!(!restored.start_paused);
        assert_eq!(restored.break_depth, 7);
        // A settings file written when debug mode was kept still loads, unticked.
        let old: DebugSettings = ron::from_str("(enabled: true, break_depth: 4)").unwrap();
        assert!(!old.enabled);
        assert_eq!(old.break_depth, 4);
    }
}
