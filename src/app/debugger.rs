//! The algorithm debugger in the solver panel: start a search paused, step it event by event,
//! by subtree or by depth, play it at a chosen speed, stop at breakpoints, and scrub back
//! through the recorded events; plus the slide graph kept up to date while robots are edited,
//! and the assembly of the overlay layers that are on.
//!
//! The solver thread is held by the stepping probe of [`crate::worker::debug`]; this module
//! only reads its picture each frame and sends it run modes.

use super::board_view::{RobotSprite, Trail};
use super::overlays::{self, OverlayDrawing, OverlaySettings};
use super::widgets::format_count;
use super::{Command, theme};
use crate::model::{Board, Cell, Direction, Puzzle};
use crate::solver::slide_graph::{EdgeChange, SlideGraph};
use crate::solver::stateless::{IntermediateState, StatelessStores, compute_stores};
use crate::solver::{Event, PruneReason, RobotCells};
use crate::worker::debug::{
    Breakpoints, DebugFrame, DebugHandle, DebugView, Recorded, RunMode, SearchPicture,
};
use serde::{Deserialize, Serialize};

/// How many events the panel's log lists.
const LOG_LINES: usize = 30;

/// The debugger's choices, kept between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DebugSettings {
    /// Solve through the stepping probe.
    pub enabled: bool,
    /// Pause on the first event.
    pub start_paused: bool,
    /// Animated play speed, events per second.
    pub speed: f32,
    /// Stop at a depth.
    pub break_on_depth: bool,
    /// That depth.
    pub break_depth: u32,
    /// Stop when the active robot enters a cell.
    pub break_on_cell: bool,
    /// That cell's column.
    pub break_x: u16,
    /// That cell's row.
    pub break_y: u16,
    /// Stop when a solution is found.
    pub break_on_solution: bool,
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
        }
    }
}

impl DebugSettings {
    /// The breakpoints these settings describe on a board, plus a state to stop at.
    pub fn breakpoints(&self, board: &Board, state: Option<RobotCells>) -> Breakpoints {
        let cell_pos = crate::model::Pos::new(self.break_x, self.break_y);
        Breakpoints {
            depth: self.break_on_depth.then_some(self.break_depth),
            active_cell: (self.break_on_cell && board.contains(cell_pos))
                .then(|| board.cell(cell_pos)),
            state,
            solution: self.break_on_solution,
        }
    }
}

/// A debugger action, applied once per frame.
#[derive(Clone, Debug, PartialEq)]
pub enum DebugCommand {
    /// One event forward (in the recording first, when scrubbed back).
    Step,
    /// To the next node at the current depth or shallower.
    StepOver,
    /// To the end of the current depth.
    StepDepth,
    /// Run until a breakpoint.
    Continue,
    /// Stop at the next event.
    Pause,
    /// Run until a solution.
    ToSolution,
    /// Animated play at the settings' speed.
    Play,
    /// One recorded event back.
    StepBack,
    /// Show this recorded event (timeline slider).
    Scrub(u64),
    /// Back to the latest event.
    Latest,
    /// Send the settings' breakpoints to the run (with the stop-at-state choice).
    Breakpoints(Breakpoints),
}

/// A debugged run as the panel sees it.
pub struct Debugger {
    handle: DebugHandle,
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
}

impl Debugger {
    /// Wraps the handle of a run on `puzzle`.
    pub fn new(handle: DebugHandle, puzzle: Puzzle) -> Debugger {
        Debugger {
            handle,
            puzzle,
            frame: DebugFrame::default(),
            log: Vec::new(),
            timeline: None,
            speed: 20.0,
            break_state: None,
            shown_picture: None,
        }
    }

    /// Reads the run's picture; called once per frame.
    pub fn refresh(&mut self, speed: f32) {
        self.frame = self.handle.frame();
        self.speed = speed;
        // A scrubbed-back event that fell out of the bounded log can no longer be shown.
        if let Some(shown) = &self.timeline
            && shown.index < self.frame.first_recorded
        {
            self.timeline = None;
        }
        self.sync_picture();
    }

    /// Reads the log lines the panel lists: the latest events, or those around the
    /// scrubbed-back event so that it is among them.
    fn read_log(&mut self) {
        self.log = match &self.timeline {
            Some(shown) => self.handle.around(shown.index, LOG_LINES),
            None => self.handle.latest(LOG_LINES),
        };
    }

    /// Rebuilds the overlays' picture when the shown event is a recorded one that changed.
    fn sync_picture(&mut self) {
        self.read_log();
        let Some(shown) = &self.timeline else {
            self.shown_picture = None;
            return;
        };
        if self.shown_picture.as_ref().map(|(index, _)| *index) != Some(shown.index) {
            self.shown_picture = self
                .handle
                .picture_at(shown.index)
                .map(|picture| (shown.index, picture));
        }
    }

    /// The overlays' picture at the shown event: the heat map, slide graph and stateless
    /// states as they were then.
    pub fn shown_picture(&self) -> &SearchPicture {
        match (&self.timeline, &self.shown_picture) {
            (Some(_), Some((_, picture))) => picture,
            _ => &self.frame.picture,
        }
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
    pub fn shown_index(&self) -> Option<u64> {
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
    pub fn is_stateless_run(&self) -> bool {
        !self.frame.picture.finals.is_empty()
    }

    /// Whether the solver waits for the user.
    pub fn is_paused(&self) -> bool {
        self.frame.paused
    }

    /// Applies an action.
    pub fn apply(&mut self, command: DebugCommand) {
        match command {
            DebugCommand::Step => match &self.timeline {
                Some(shown) => {
                    let next = shown.index + 1;
                    self.timeline = if next + 1 >= self.frame.view.events {
                        None
                    } else {
                        self.handle.recorded(next)
                    };
                }
                None => self.handle.set_mode(RunMode::Steps(1)),
            },
            DebugCommand::StepOver => {
                self.timeline = None;
                let depth = self.frame.view.depth;
                self.handle.set_mode(RunMode::StepOver(depth));
            }
            DebugCommand::StepDepth => {
                self.timeline = None;
                self.handle.set_mode(RunMode::StepDepth);
            }
            DebugCommand::Continue => {
                self.timeline = None;
                self.handle.set_mode(RunMode::Continue);
            }
            DebugCommand::Pause => self.handle.set_mode(RunMode::Paused),
            DebugCommand::ToSolution => {
                self.timeline = None;
                self.handle.set_mode(RunMode::ToSolution);
            }
            DebugCommand::Play => {
                self.timeline = None;
                self.handle.set_mode(RunMode::Play(self.speed));
            }
            DebugCommand::StepBack => {
                let Some(index) = self.shown_index() else {
                    return;
                };
                if let Some(previous) = index.checked_sub(1)
                    && let Some(recorded) = self.handle.recorded(previous)
                {
                    self.timeline = Some(recorded);
                }
            }
            DebugCommand::Scrub(index) => {
                self.timeline = if index + 1 >= self.frame.view.events {
                    None
                } else {
                    self.handle.recorded(index)
                };
            }
            DebugCommand::Latest => self.timeline = None,
            DebugCommand::Breakpoints(breakpoints) => {
                self.break_state = breakpoints.state;
                self.handle.set_breakpoints(breakpoints);
            }
        }
        // Read the picture again so the panel and tests see the effect of the action at once.
        self.frame = self.handle.frame();
        self.sync_picture();
    }

    /// The robots where the shown node has them, and its path from the root.
    pub fn board_picture(&self) -> Option<(Vec<RobotSprite>, Vec<Trail>)> {
        let view = self.shown_view();
        let cells = view.cells?;
        let board = self.puzzle.board();
        let robots = self
            .puzzle
            .robots()
            .iter()
            .zip(cells.as_slice())
            .map(|(robot, &cell)| RobotSprite::at(robot.color, board.pos(cell)))
            .collect();
        Some((robots, overlays::path_trails(&self.puzzle, &view.path)))
    }
}

/// The slide graph of the board being edited, kept up to date robot by robot so the edges each
/// placement or removal changed can be shown, and checked against a fresh build.
#[derive(Clone, Debug, Default)]
pub struct GraphTracker {
    board: Option<Board>,
    robots: Vec<Cell>,
    graph: Option<SlideGraph>,
    changes: Vec<EdgeChange>,
    /// The last check's verdict.
    pub check: Option<Result<String, String>>,
}

impl GraphTracker {
    /// Follows the board and robots: a new board builds the graph afresh; a change of robots
    /// removes the robots gone and places the new ones, recording the edges that changed.
    pub fn follow(&mut self, board: &Board, robots: &[Cell]) {
        let robots: Vec<Cell> = robots
            .iter()
            .copied()
            .filter(|&c| usize::from(c) < board.cell_count() && !board.is_closed(c))
            .collect();
        if self.board.as_ref() != Some(board) || self.graph.is_none() {
            let mut graph = SlideGraph::new(board);
            for &cell in &robots {
                // Two robots on one cell (an unfinished design) place once.
                let _ = graph.place(cell, |_| {});
            }
            self.board = Some(board.clone());
            self.graph = Some(graph);
            self.robots = robots;
            self.changes.clear();
            self.check = None;
            return;
        }
        if self.robots == robots {
            return;
        }
        let Some(graph) = &mut self.graph else {
            return;
        };
        let mut changes = Vec::new();
        for cell in self.robots.iter().filter(|c| !robots.contains(c)) {
            let _ = graph.remove(*cell, |c| changes.push(c));
        }
        for cell in robots.iter().filter(|c| !self.robots.contains(c)) {
            let _ = graph.place(*cell, |c| changes.push(c));
        }
        self.robots = robots;
        self.changes = changes;
        self.check = None;
    }

    /// The graph's edges per cell.
    pub fn edges(&self) -> Vec<[Option<Cell>; 4]> {
        self.graph
            .as_ref()
            .map(overlays::graph_edges)
            .unwrap_or_default()
    }

    /// The edges changed by the last placement or removal.
    pub fn changes(&self) -> &[EdgeChange] {
        &self.changes
    }

    /// Compares the incrementally updated graph with one built afresh; the verdict is kept in
    /// [`GraphTracker::check`] and returned.
    pub fn run_check(&mut self) -> Result<String, String> {
        let verdict = match (&self.board, &self.graph) {
            (Some(board), Some(graph)) => compare_graphs(board, graph, &self.robots),
            _ => Err("there is no graph to check yet".to_string()),
        };
        self.check = Some(verdict.clone());
        verdict
    }
}

/// Compares a graph with a fresh build for the same robots: `Ok` with a summary, or `Err`
/// listing the first differences.
pub fn compare_graphs(
    board: &Board,
    graph: &SlideGraph,
    robots: &[Cell],
) -> Result<String, String> {
    let mut unique: Vec<Cell> = robots.to_vec();
    unique.sort_unstable();
    unique.dedup();
    let fresh = SlideGraph::with_robots(board, &unique)
        .map_err(|e| format!("a fresh graph could not be built: {e}"))?;
    let mut differences = Vec::new();
    for cell in 0..board.cell_count() as Cell {
        for dir in Direction::ALL {
            let (ours, theirs) = (graph.child(cell, dir), fresh.child(cell, dir));
            if ours != theirs {
                differences.push(format!(
                    "{} {}: updated {:?}, fresh {:?}",
                    board.pos(cell),
                    dir.letter(),
                    ours.map(|c| board.pos(c).to_string()),
                    theirs.map(|c| board.pos(c).to_string())
                ));
            }
        }
    }
    if differences.is_empty() {
        Ok(format!(
            "The updated graph equals a fresh build ({} edges).",
            fresh.edge_list().len()
        ))
    } else {
        let count = differences.len();
        differences.truncate(8);
        Err(format!(
            "{count} edges differ from a fresh build: {}",
            differences.join("; ")
        ))
    }
}

/// Keeps the stateless stores of the puzzle last shown, so the overlay does not recompute
/// them every frame.
#[derive(Clone, Debug, Default)]
pub struct StatelessCache {
    puzzle: Option<Puzzle>,
    stores: Option<StatelessStores>,
}

impl StatelessCache {
    /// The stores of a full stateless run on `puzzle`.
    pub fn stores(&mut self, puzzle: &Puzzle) -> &StatelessStores {
        if self.puzzle.as_ref() != Some(puzzle) {
            self.stores = None;
            self.puzzle = Some(puzzle.clone());
        }
        self.stores.get_or_insert_with(|| compute_stores(puzzle))
    }
}

/// What the overlays read in one frame.
pub struct OverlaySources<'a> {
    /// Which layers are on.
    pub settings: &'a OverlaySettings,
    /// The board shown.
    pub board: &'a Board,
    /// The minimum-move table, when that layer is on.
    pub min_moves: Option<&'a [u16]>,
    /// A debugged run's picture.
    pub debugger: Option<&'a Debugger>,
    /// The editor's graph.
    pub tracker: Option<&'a GraphTracker>,
    /// The cell whose edges to show when not all are shown.
    pub focus: Option<Cell>,
    /// The puzzle and stores for the stateless layer outside a debugged stateless run.
    pub stateless: Option<&'a StatelessStores>,
    /// The last result's puzzle and solution.
    pub solution: Option<(&'a Puzzle, &'a [crate::model::Move])>,
}

/// Assembles the layers that are on into one drawing.
pub fn overlay_drawing(sources: &OverlaySources<'_>) -> OverlayDrawing {
    let settings = sources.settings;
    let board = sources.board;
    let mut drawing = OverlayDrawing::default();
    if let Some(table) = sources.min_moves {
        drawing.extend(overlays::min_moves_layer(board, table));
    }
    let picture = sources.debugger.map(Debugger::shown_picture);
    if settings.search_heat
        && let Some(picture) = picture
    {
        drawing.extend(overlays::search_heat_layer(board, &picture.heat));
    }
    if settings.graph_edges {
        let focus = if settings.graph_all_cells {
            None
        } else {
            // No cell hovered: only the changed edges.
            Some(sources.focus.unwrap_or(Cell::MAX))
        };
        match (
            picture.and_then(|p| p.graph.as_ref().map(|g| (g, p))),
            sources.tracker,
        ) {
            (Some((edges, picture)), _) => drawing.extend(overlays::graph_layer(
                board,
                edges,
                focus,
                &picture.recent_changes,
            )),
            (None, Some(tracker)) => drawing.extend(overlays::graph_layer(
                board,
                &tracker.edges(),
                focus,
                tracker.changes(),
            )),
            (None, None) => {}
        }
    }
    if settings.stateless {
        let stores_layer = |stores: &StatelessStores| {
            let intermediates: Vec<IntermediateState> = stores
                .fields()
                .iter()
                .flat_map(|f| f.intermediates.iter().cloned())
                .collect();
            overlays::stateless_layer(board, stores.finals(), &intermediates)
        };
        // A debugged stateless run draws its states as of the shown event: the stores as they
        // grow while it runs, the complete stores once it has ended.
        let debugged = sources.debugger.filter(|d| d.is_stateless_run());
        match (debugged, sources.stateless) {
            (Some(debugger), _) => {
                let picture = debugger.shown_picture();
                drawing.extend(match &picture.stores {
                    Some(stores) => stores_layer(stores),
                    None => {
                        overlays::stateless_layer(board, &picture.finals, &picture.intermediates)
                    }
                });
            }
            (None, Some(stores)) => drawing.extend(stores_layer(stores)),
            (None, None) => {}
        }
    }
    if settings.solution_path
        && let Some((puzzle, moves)) = sources.solution
    {
        drawing.trails.extend(overlays::path_trails(puzzle, moves));
    }
    drawing
}

/// The debug controls, breakpoints, the shown node and the event log.
pub fn debugger_ui(
    ui: &mut egui::Ui,
    debugger: Option<&Debugger>,
    settings: &mut DebugSettings,
    running: bool,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.horizontal(|ui| {
        ui.checkbox(&mut settings.enabled, "Debug mode")
            .on_hover_text("Solve through the stepping probe: step, pause, breakpoints");
        ui.add_enabled(
            settings.enabled,
            egui::Checkbox::new(&mut settings.start_paused, "Start paused"),
        );
    });
    if !settings.enabled && debugger.is_none() {
        return;
    }
    let send = |commands: &mut Vec<Command>, command: DebugCommand| {
        commands.push(Command::Debug(command));
    };
    let live = debugger.is_some() && running;
    let paused = debugger.is_some_and(Debugger::is_paused);
    ui.horizontal_wrapped(|ui| {
        let button = |ui: &mut egui::Ui, enabled: bool, label: &str, hint: &str| {
            ui.add_enabled(enabled, egui::Button::new(label))
                .on_hover_text(hint)
                .clicked()
        };
        let scrubbed = debugger.is_some_and(Debugger::is_scrubbed_back);
        if button(
            ui,
            debugger.is_some(),
            "Step back",
            "One recorded event back (Shift+F11)",
        ) {
            send(commands, DebugCommand::StepBack);
        }
        if button(
            ui,
            (live && paused) || scrubbed,
            "Step",
            "One event forward (F11)",
        ) {
            send(commands, DebugCommand::Step);
        }
        if button(
            ui,
            live && paused,
            "Step over",
            "To the next node at this depth or shallower (F10)",
        ) {
            send(commands, DebugCommand::StepOver);
        }
        if button(
            ui,
            live && paused,
            "Step depth",
            "To the end of this depth (F9)",
        ) {
            send(commands, DebugCommand::StepDepth);
        }
        if button(ui, live && paused, "Continue", "Run to a breakpoint (F5)") {
            send(commands, DebugCommand::Continue);
        }
        if button(ui, live && !paused, "Pause", "Stop at the next event (F5)") {
            send(commands, DebugCommand::Pause);
        }
        if button(
            ui,
            live,
            "Run to solution",
            "Run until a solution is found (F8)",
        ) {
            send(commands, DebugCommand::ToSolution);
        }
        if button(ui, live, "Play", "Animated play at the speed below (F7)") {
            send(commands, DebugCommand::Play);
        }
    });
    ui.add(
        egui::Slider::new(&mut settings.speed, 1.0..=100_000.0)
            .logarithmic(true)
            .text("Events per second"),
    );
    egui::CollapsingHeader::new("Breakpoints")
        .default_open(false)
        .show(ui, |ui| {
            let before = settings.clone();
            ui.horizontal(|ui| {
                ui.checkbox(&mut settings.break_on_depth, "At depth");
                ui.add(egui::DragValue::new(&mut settings.break_depth).range(0..=255));
            });
            ui.horizontal(|ui| {
                ui.checkbox(&mut settings.break_on_cell, "Active robot on cell");
                ui.add(
                    egui::DragValue::new(&mut settings.break_x)
                        .range(0..=63)
                        .prefix("x "),
                );
                ui.add(
                    egui::DragValue::new(&mut settings.break_y)
                        .range(0..=63)
                        .prefix("y "),
                );
            });
            ui.checkbox(&mut settings.break_on_solution, "When a solution is found");
            let mut state = debugger.and_then(|d| d.break_state);
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(
                        debugger.is_some_and(|d| d.shown_view().cells.is_some()),
                        egui::Button::new("Stop at the state shown"),
                    )
                    .clicked()
                {
                    state = debugger.and_then(|d| d.shown_view().cells);
                }
                if ui
                    .add_enabled(state.is_some(), egui::Button::new("Forget the state"))
                    .clicked()
                {
                    state = None;
                }
            });
            if let Some(debugger) = debugger
                && (before != *settings || state != debugger.break_state)
            {
                send(
                    commands,
                    DebugCommand::Breakpoints(
                        settings.breakpoints(debugger.puzzle().board(), state),
                    ),
                );
            }
        });
    let Some(debugger) = debugger else {
        ui.label(
            egui::RichText::new("Press Solve to start a debugged run.")
                .color(palette.muted)
                .small(),
        );
        return;
    };
    let frame = debugger.frame();
    let view = debugger.shown_view();
    let status = if !running {
        "Finished".to_string()
    } else if debugger.is_paused() {
        match &frame.stop_reason {
            Some(reason) => format!("Paused ({reason})"),
            None => "Paused".to_string(),
        }
    } else {
        "Running".to_string()
    };
    ui.label(egui::RichText::new(status).strong());
    timeline_ui(ui, debugger, commands);
    egui::Grid::new("debug-node").num_columns(2).show(ui, |ui| {
        ui.label("Event");
        ui.label(format_count(view.events));
        ui.end_row();
        ui.label("Depth / bound");
        ui.label(match view.iteration {
            Some(bound) => format!("node depth {}, iteration {bound}", view.depth),
            None => format!("node depth {}", view.depth),
        });
        ui.end_row();
        ui.label("Nodes / pruned");
        ui.label(format!(
            "{} / {}",
            format_count(view.nodes),
            format_count(view.pruned)
        ));
        ui.end_row();
        ui.label("Last prune");
        ui.label(view.last_prune.map_or("-".to_string(), prune_text));
        ui.end_row();
        ui.label("Path");
        ui.label(if view.path.is_empty() {
            "(root)".to_string()
        } else {
            crate::model::format_moves(&view.path)
        });
        ui.end_row();
        if let Some((level, distance, best)) = view.goal_search {
            ui.label("Goal robot");
            ui.label(format!(
                "level {level}, distance {}, best {}",
                distance.map_or("-".into(), |d| d.to_string()),
                best.map_or("-".into(), |b| b.to_string())
            ));
            ui.end_row();
        }
    });
    ui.label(egui::RichText::new("Event log (newest first)").strong());
    egui::ScrollArea::vertical()
        .id_salt("debug-log")
        .max_height(180.0)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            let shown = debugger.shown_index();
            let board = debugger.puzzle().board();
            for recorded in &debugger.log {
                let text = format!(
                    "{:>7}  {}",
                    recorded.index,
                    event_text(board, &recorded.event)
                );
                let mut rich = egui::RichText::new(text).monospace().small();
                let is_shown = Some(recorded.index) == shown;
                if is_shown {
                    rich = rich.strong().color(palette.success);
                }
                let line = ui.label(rich);
                if is_shown && debugger.is_scrubbed_back() {
                    // Scrubbed back, the event shown sits among its neighbours: keep it in view.
                    line.scroll_to_me(Some(egui::Align::Center));
                }
            }
        });
}

fn timeline_ui(ui: &mut egui::Ui, debugger: &Debugger, commands: &mut Vec<Command>) {
    let frame = debugger.frame();
    let Some(last) = frame.view.events.checked_sub(1) else {
        return;
    };
    let first = frame.first_recorded;
    let mut index = debugger.shown_index().unwrap_or(last);
    ui.horizontal(|ui| {
        let slider = ui.add_enabled(
            last > first,
            egui::Slider::new(&mut index, first..=last).text("Timeline"),
        );
        if slider.changed() {
            commands.push(Command::Debug(DebugCommand::Scrub(index)));
        }
        if ui
            .add_enabled(debugger.is_scrubbed_back(), egui::Button::new("Latest"))
            .clicked()
        {
            commands.push(Command::Debug(DebugCommand::Latest));
        }
    });
    ui.label(
        egui::RichText::new(format!(
            "Recorded events {first}..{last}: the last {} are kept",
            format_count(frame.record_capacity as u64)
        ))
        .small(),
    );
}

/// A prune reason for the panel.
pub fn prune_text(reason: PruneReason) -> String {
    match reason {
        PruneReason::DepthLimit => "depth limit".to_string(),
        PruneReason::LowerBound { bound, remaining } => {
            format!("lower bound {bound} > {remaining} moves left")
        }
        PruneReason::TableHit { stored } => {
            format!("table hit (searched with {stored} moves left)")
        }
        PruneReason::Visited => "already visited".to_string(),
        PruneReason::Other(why) => why.to_string(),
    }
}

/// One line of the event log; cells are named by column and row on `board`.
pub fn event_text(board: &Board, event: &Event) -> String {
    let at = |cell: Cell| board.pos(cell).to_string();
    match event {
        Event::IterationStarted { depth } => format!("start depth {depth}"),
        Event::Node { depth, path, .. } => match path.last() {
            Some(mv) => format!("node d{depth} after {mv}"),
            None => format!("node d{depth} (root)"),
        },
        Event::Pruned { depth, reason } => format!("pruned d{depth}: {}", prune_text(*reason)),
        Event::IterationFinished(stats) => {
            format!(
                "end depth {}: {} nodes",
                stats.depth,
                format_count(stats.nodes)
            )
        }
        Event::Solution { moves } => format!("solution of {} moves", moves.len()),
        Event::GraphBuilt(_) => "slide graph built".to_string(),
        Event::EdgeChanged(change) => {
            let cell = |c: Option<Cell>| c.map_or("none".to_string(), at);
            format!(
                "edge of {} {}: {} -> {} (case {})",
                at(change.vertex),
                change.dir.letter(),
                cell(change.old),
                cell(change.new),
                change.case.label()
            )
        }
        Event::GoalRobotSearched {
            level, distance, ..
        } => format!(
            "goal robot at level {level}: {}",
            distance.map_or("no path".into(), |d| format!("{d} moves"))
        ),
        Event::StatelessFinal(state) => format!(
            "final {}{} at {}",
            state.color.letter(),
            state.moves,
            at(state.cell)
        ),
        Event::StatelessIntermediate(state) => format!(
            "intermediate {}{}{} at {}",
            state.color.letter(),
            state.dir.letter(),
            state.moves,
            at(state.cell)
        ),
        Event::StatelessConverted { cell, color, .. } => {
            format!("converted {} at {}", color.letter(), at(*cell))
        }
        Event::StatelessMoved { state, moves } => format!("move final {state} ({moves} moves)"),
        Event::StatelessStores(_) => "stateless stores complete".to_string(),
        // Events added later are shown in their debug form until they get their own line.
        #[allow(unreachable_patterns)]
        other => format!("{other:?}"),
    }
}

/// The overlay layers' switches in the panel, the same as in the View menu, so layers can be
/// combined while stepping without opening the menu each time.
pub fn overlay_toggles_ui(ui: &mut egui::Ui, settings: &mut OverlaySettings, min_moves: &mut bool) {
    egui::CollapsingHeader::new("Overlay layers")
        .default_open(false)
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(min_moves, "Minimum-move map");
                overlay_checkboxes(ui, settings);
            });
        });
}

/// One checkbox per overlay layer of the search (the View menu has them too).
pub fn overlay_checkboxes(ui: &mut egui::Ui, settings: &mut OverlaySettings) {
    ui.checkbox(&mut settings.graph_edges, "Slide-graph edges");
    ui.add_enabled(
        settings.graph_edges,
        egui::Checkbox::new(&mut settings.graph_all_cells, "Edges of every cell"),
    );
    ui.checkbox(&mut settings.stateless, "Stateless states");
    ui.checkbox(&mut settings.search_heat, "Search heat map");
    ui.checkbox(&mut settings.solution_path, "Solution path");
}

/// The overlay legends, with the slide graph's check.
pub fn overlays_ui(
    ui: &mut egui::Ui,
    settings: &mut OverlaySettings,
    min_moves: bool,
    tracker: Option<&GraphTracker>,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    let legend = overlays::legend(settings, min_moves, palette);
    if legend.is_empty() {
        return;
    }
    ui.label(egui::RichText::new("Overlays").strong());
    for (color, text) in legend {
        // Wrapped, so that a long legend never widens the panel.
        ui.horizontal_wrapped(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, color);
            ui.add(egui::Label::new(egui::RichText::new(text).small()).wrap());
        });
    }
    if settings.graph_edges
        && let Some(tracker) = tracker
    {
        ui.horizontal(|ui| {
            if ui
                .button("Check graph")
                .on_hover_text("Compare the incrementally updated graph with a fresh build")
                .clicked()
            {
                commands.push(Command::CheckGraph);
            }
            match &tracker.check {
                Some(Ok(text)) => {
                    ui.colored_label(palette.success, text);
                }
                Some(Err(text)) => {
                    ui.colored_label(palette.error, text);
                }
                None => {}
            }
        });
        let lines = tracker.changes().to_vec();
        if !lines.is_empty() {
            ui.label(
                egui::RichText::new(format!("Edges changed by the last edit: {}", lines.len()))
                    .small(),
            );
        }
    }
}

/// The changed-edge list of the editor's graph, one line per edge.
pub fn change_list_ui(ui: &mut egui::Ui, board: &Board, tracker: &GraphTracker) {
    let lines = overlays::change_lines(board, tracker.changes());
    if lines.is_empty() {
        return;
    }
    egui::ScrollArea::vertical()
        .id_salt("graph-changes")
        .max_height(140.0)
        .show(ui, |ui| {
            for line in lines {
                ui.label(egui::RichText::new(line).monospace().small());
            }
        });
}
