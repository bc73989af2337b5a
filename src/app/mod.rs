//! The desktop app: a board editor, play mode, a solver panel with live per-depth counts, and
//! live plots.
//!
//! Laid out as egui's own demo app is: the persisted [`AppState`] apart from runtime state,
//! `logic` (drain the worker, keys, timers) apart from `ui` (one helper per panel), and every
//! whole-app action collected as a [`Command`] while panels are drawn and applied once at the
//! end of the frame, so nothing changes halfway through a layout.

pub mod board_view;
pub mod debugger;
pub mod draft;
pub mod editor;
pub mod experiments;
pub mod files;
pub mod help;
pub mod overlays;
pub mod play;
pub mod playback;
pub mod plots;
pub mod screenshot;
pub mod solver_panel;
pub mod state;
pub mod theme;
pub mod widgets;

use crate::model::formats::{self, cox, game_id};
use crate::model::random::random_puzzle;
use crate::model::tiles::{random_game, random_game_on};
use crate::model::{Direction, ModelError, Puzzle, RobotColor, samples};
use crate::solver::min_moves::min_moves;
use crate::solver::{Outcome, SOLVERS};
use crate::worker::{RunEnd, Waker};
use board_view::{BoardGeometry, BoardScene, Hit, RobotSprite, board_ui};
use debugger::DebugCommand;
use draft::{Draft, Edit, History, parse_draft, problem_cells, write_draft};
use editor::EditorInteraction;
use egui::{Key, Modifiers};
use files::{FileWindows, Resolution, SaveKind};
use play::PlayState;
use playback::{Playback, PlaybackControl};
use plots::{PlotHistory, SolvePoint};
use screenshot::ScreenshotDirector;
use solver_panel::{PanelView, SolveSession};
pub use state::{AppState, Mode};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The window's title and the name eframe stores the app's state under.
pub const APP_NAME: &str = "Ricochet Lab";

/// The window size the app opens with (and screenshots are taken at).
pub const WINDOW_SIZE: [f32; 2] = [1360.0, 900.0];

/// Opens the app window and runs it until it is closed.
pub fn run_native() -> eframe::Result {
    eframe::run_native(
        APP_NAME,
        native_options(),
        Box::new(|cc| Ok(Box::new(RicochetApp::new(cc)))),
    )
}

/// The window options.
pub fn native_options() -> eframe::NativeOptions {
    eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(APP_NAME)
            .with_inner_size(WINDOW_SIZE)
            .with_min_inner_size([720.0, 520.0]),
        ..Default::default()
    }
}

/// Whether a draft change starts a new undo step or joins the previous one (a drag stroke).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoStep {
    /// A new step.
    New,
    /// Part of the step already recorded.
    Continue,
}

/// An action that would drop the current board, asked about first when it has unsaved
/// changes.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// Replace the board by a new one; the text says what it is ("standard game, seed 4").
    Replace(Box<Draft>, String),
    /// Open a file.
    Open(PathBuf),
    /// Import a game id or Cox text.
    Import(String),
    /// Close the app.
    Quit,
}

/// A whole-app action, collected while the panels are drawn and applied once per frame.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Change the board (an undoable edit).
    Edit {
        /// The change.
        edit: Edit,
        /// New undo step or part of the last.
        step: UndoStep,
    },
    /// Undo the last edit.
    Undo,
    /// Redo.
    Redo,
    /// Switch between editing and playing.
    SetMode(Mode),
    /// Do something that drops the board, asking first if it has unsaved changes.
    Guarded(Pending),
    /// The answer to the unsaved-changes question.
    ResolvePending(Resolution),
    /// Show the New board window.
    ShowNewWindow,
    /// Open a file through the system's dialog (or the in-app window without one).
    OpenDialog,
    /// Show the in-app Open window with the boards list.
    ShowOpenWindow,
    /// Show the Import window.
    ShowImportWindow,
    /// Show the Help window.
    ShowHelp,
    /// Save to the board's file (asking where when it has none).
    Save,
    /// Ask where to save (or export).
    SaveAs(SaveKind),
    /// Save (or export) to a path.
    SaveTo(PathBuf, SaveKind),
    /// Copy the board's game id to the clipboard.
    CopyGameId,
    /// Play mode: select a robot.
    SelectRobot(RobotColor),
    /// Play mode: slide the selected robot.
    MoveRobot(Direction),
    /// Play mode: take the last move back.
    UndoMove,
    /// Play mode: put the robots back.
    ResetPlay,
    /// Play mode: deal new robots and a new target on this board.
    NewGame,
    /// Start the chosen solver.
    Solve,
    /// Cancel the running solve.
    Cancel,
    /// Step or play the solution.
    Playback(PlaybackControl),
    /// Forget the plot history.
    ClearPlots,
    /// Show a note in the status line.
    Message(String),
    /// Show an error in the status line.
    Error(String),
    /// A debugger action.
    Debug(debugger::DebugCommand),
    /// Compare the editor's incrementally updated slide graph with a fresh build.
    CheckGraph,
}

impl Command {
    /// An edit that is its own undo step.
    pub fn edit(edit: Edit) -> Command {
        Command::Edit {
            edit,
            step: UndoStep::New,
        }
    }
}

/// A line for the status bar.
#[derive(Clone, Debug, PartialEq, Eq)]
struct StatusMessage {
    text: String,
    error: bool,
}

/// The New board window's choices.
#[derive(Clone, Debug)]
struct NewBoardWindow {
    open: bool,
    width: u16,
    height: u16,
    robots: usize,
    seed: u64,
}

impl Default for NewBoardWindow {
    fn default() -> Self {
        NewBoardWindow {
            open: false,
            width: 16,
            height: 16,
            robots: 4,
            seed: 1,
        }
    }
}

/// A summary of the solver panel's run, for tests and tools that drive the app.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    /// The solver's command-line name.
    pub solver: &'static str,
    /// Whether it is still running.
    pub running: bool,
    /// The finished depth rows so far.
    pub rows: Vec<crate::solver::DepthStats>,
    /// How it ended, once it has (`None` while running, or when it did not start).
    pub outcome: Option<Outcome>,
    /// How long the solver took to stop after a cancel, when it was cancelled.
    pub cancel_latency: Option<Duration>,
}

/// The app.
pub struct RicochetApp {
    /// What is kept between runs.
    state: AppState,
    /// The board being edited.
    draft: Draft,
    /// The board as last opened or saved.
    clean: Draft,
    /// Whether the draft is a valid puzzle (recomputed after every change).
    validity: Result<Puzzle, ModelError>,
    history: History,
    editor: EditorInteraction,
    play: Option<PlayState>,
    session: Option<SolveSession>,
    playback: Option<Playback>,
    plots: PlotHistory,
    windows: FileWindows,
    new_window: NewBoardWindow,
    help_open: bool,
    pending: Option<Pending>,
    close_confirmed: bool,
    message: Option<StatusMessage>,
    boards: Option<PathBuf>,
    applied_theme: Option<state::ThemeChoice>,
    /// The plots panel's height when it first shows.
    plots_height: f32,
    /// Commands gathered in `logic` (keys, timers) for this frame.
    queued: Vec<Command>,
    /// Set when the app was started to take a screenshot.
    screenshot: Option<ScreenshotDirector>,
    /// The Experiments window.
    experiments: experiments::ExperimentsView,
    /// The debugged run, when the last solve was started in debug mode.
    debugger: Option<debugger::Debugger>,
    /// The editor's slide graph, for the graph overlay.
    graph_tracker: debugger::GraphTracker,
    /// The stateless stores of the puzzle shown, for the stateless overlay.
    stateless_cache: debugger::StatelessCache,
    ctx: egui::Context,
}

impl RicochetApp {
    /// Builds the app, restoring the working board and settings from eframe's storage when
    /// there are any, and otherwise opening on the deck's 22-move puzzle.
    pub fn new(cc: &eframe::CreationContext<'_>) -> RicochetApp {
        let state: AppState = cc
            .storage
            .and_then(|storage| eframe::get_value(storage, state::STORAGE_KEY))
            .unwrap_or_default();
        RicochetApp::with_state(cc.egui_ctx.clone(), state)
    }

    /// Builds the app from a given state (nothing is read from storage).
    pub fn with_state(ctx: egui::Context, state: AppState) -> RicochetApp {
        let mut message = None;
        let stored = state.board.as_deref().map(parse_draft);
        let draft = match stored {
            Some(Ok(draft)) => draft,
            Some(Err(error)) => {
                message = Some(StatusMessage {
                    text: format!(
                        "The stored working board could not be read ({error}); the deck's puzzle is shown instead."
                    ),
                    error: true,
                });
                Draft::from_puzzle(&samples::fogleman_22())
            }
            None => Draft::from_puzzle(&samples::fogleman_22()),
        };
        let clean = state
            .saved_board
            .as_deref()
            .and_then(|text| parse_draft(text).ok())
            .unwrap_or_else(|| draft.clone());
        let validity = draft.to_puzzle();
        let mut app = RicochetApp {
            state,
            draft,
            clean,
            validity,
            history: History::default(),
            editor: EditorInteraction::default(),
            play: None,
            session: None,
            playback: None,
            plots: PlotHistory::default(),
            windows: FileWindows::default(),
            new_window: NewBoardWindow::default(),
            help_open: false,
            pending: None,
            close_confirmed: false,
            message,
            boards: files::boards_dir(),
            applied_theme: None,
            plots_height: 250.0,
            queued: Vec::new(),
            screenshot: None,
            experiments: experiments::ExperimentsView::default(),
            debugger: None,
            graph_tracker: debugger::GraphTracker::default(),
            stateless_cache: debugger::StatelessCache::default(),
            ctx,
        };
        app.ensure_play();
        app
    }

    /// The Experiments window's state.
    pub fn experiments(&self) -> &experiments::ExperimentsView {
        &self.experiments
    }

    /// The board being edited.
    pub fn draft(&self) -> &Draft {
        &self.draft
    }

    /// Editing or playing.
    pub fn mode(&self) -> Mode {
        self.state.mode
    }

    /// Whether the board has changes not saved to its file.
    pub fn is_dirty(&self) -> bool {
        self.draft != self.clean
    }

    /// The file the board came from or was saved to.
    pub fn file(&self) -> Option<&Path> {
        self.state.file.as_deref()
    }

    /// The game in play mode.
    pub fn play(&self) -> Option<&PlayState> {
        self.play.as_ref()
    }

    /// The solution being played back.
    pub fn playback(&self) -> Option<&Playback> {
        self.playback.as_ref()
    }

    /// The number of solves in the plot history.
    pub fn plotted_solves(&self) -> usize {
        self.plots.points().len()
    }

    /// The status line's message, if any.
    pub fn status_message(&self) -> Option<&str> {
        self.message.as_ref().map(|m| m.text.as_str())
    }

    /// The solver panel's current or last run.
    pub fn run_summary(&self) -> Option<RunSummary> {
        let session = self.session.as_ref()?;
        let run = &session.run;
        let outcome = match run.end() {
            Some(RunEnd::Finished(report)) => Some(report.outcome.clone()),
            _ => None,
        };
        Some(RunSummary {
            solver: run.kind().name,
            running: !run.is_finished(),
            rows: run.rows().iter().map(|r| r.stats.clone()).collect(),
            outcome,
            cancel_latency: run.cancel_latency(),
        })
    }

    /// The debugged run, when the last solve was started in debug mode.
    pub fn debugger(&self) -> Option<&debugger::Debugger> {
        self.debugger.as_ref()
    }

    /// The editor's slide graph, kept up to date while the graph overlay is on.
    pub fn graph_tracker(&self) -> &debugger::GraphTracker {
        &self.graph_tracker
    }

    /// The persisted state as it would be saved now.
    pub fn persisted_state(&self) -> AppState {
        let mut state = self.state.clone();
        state.board = Some(write_draft(&self.draft));
        state.saved_board = Some(write_draft(&self.clean));
        state
    }

    fn now(&self) -> f64 {
        self.ctx.input(|i| i.time)
    }

    fn waker(&self) -> Waker {
        let ctx = self.ctx.clone();
        Arc::new(move |delay| ctx.request_repaint_after(delay))
    }

    fn note(&mut self, text: impl Into<String>) {
        self.message = Some(StatusMessage {
            text: text.into(),
            error: false,
        });
    }

    fn error(&mut self, text: impl Into<String>) {
        self.message = Some(StatusMessage {
            text: text.into(),
            error: true,
        });
    }

    /// Starts a game when in play mode on a valid board.
    fn ensure_play(&mut self) {
        if self.state.mode == Mode::Play && self.play.is_none() {
            self.play = self.validity.as_ref().ok().cloned().map(PlayState::new);
        }
    }

    /// Everything that follows a change of the board: recheck it, cancel a solve of the old
    /// board, drop the game and the solution shown.
    fn after_board_change(&mut self, reason: &str) {
        self.validity = self.draft.to_puzzle();
        if let Some(session) = &mut self.session
            && !session.run.is_finished()
        {
            session.run.cancel();
            session.interrupted = Some(format!("because {reason}"));
        }
        self.playback = None;
        self.play = None;
        self.debugger = None;
        self.ensure_play();
    }

    fn set_document(&mut self, draft: Draft, file: Option<PathBuf>, what: &str) {
        self.draft = draft;
        self.clean = self.draft.clone();
        self.history.clear();
        self.editor.reset();
        self.state.file = file;
        self.after_board_change("another board was opened");
        self.note(what);
    }

    // ---------------------------------------------------------------------------------------
    // Logic: everything that is not drawing.

    fn drain_worker(&mut self) {
        let now = self.now();
        if let Some(debugger) = &mut self.debugger {
            debugger.refresh(self.state.debug.speed);
        }
        let Some(session) = &mut self.session else {
            return;
        };
        session.run.drain();
        if session.run.is_finished() && !session.recorded {
            session.recorded = true;
            let kind = session.run.kind();
            let summary = match session.run.end() {
                Some(RunEnd::Finished(report)) => match &report.outcome {
                    Outcome::Solved { moves } => {
                        format!("{} found {} moves.", kind.title, moves.len())
                    }
                    Outcome::Unsolvable { .. } => {
                        format!("{} proved there is no solution.", kind.title)
                    }
                    Outcome::NotFound => format!("{} found no solution.", kind.title),
                    Outcome::Cancelled => format!("{} was cancelled.", kind.title),
                    Outcome::TimeLimit => format!("{} reached its time limit.", kind.title),
                    Outcome::MemoryLimit => format!("{} reached its memory limit.", kind.title),
                    Outcome::Invalid { .. } => {
                        format!("{} gave an answer that failed its replay.", kind.title)
                    }
                },
                Some(RunEnd::Refused(error)) => capital(&error.to_string()),
                Some(RunEnd::Crashed(message)) => capital(message),
                None => String::new(),
            };
            let failed = matches!(
                session.run.end(),
                Some(RunEnd::Refused(_) | RunEnd::Crashed(_))
                    | Some(RunEnd::Finished(crate::solver::Report {
                        outcome: Outcome::Invalid { .. },
                        ..
                    }))
            );
            self.message = Some(StatusMessage {
                text: summary,
                error: failed,
            });
            if let Some(RunEnd::Finished(report)) = session.run.end()
                && let Outcome::Solved { moves } = &report.outcome
            {
                self.plots.push(SolvePoint {
                    solver: kind.name,
                    title: kind.title,
                    moves: moves.len(),
                    seconds: report.elapsed.as_secs_f64(),
                });
                if session.interrupted.is_none() {
                    self.playback = Some(Playback::new(session.puzzle.clone(), moves.clone(), now));
                }
            }
        }
        if !session.run.is_finished() {
            // The worker wakes us with news; this is only a floor on the refresh rate.
            self.ctx.request_repaint_after(Duration::from_millis(100));
        }
    }

    fn keyboard(&mut self, ctx: &egui::Context) {
        if ctx.egui_wants_keyboard_input() {
            return;
        }
        let mode = self.state.mode;
        let has_playback = self.playback.is_some();
        let debugger_paused = self.debugger.as_ref().map(debugger::Debugger::is_paused);
        let mut commands = Vec::new();
        ctx.input_mut(|input| {
            let ctrl_shift = Modifiers::COMMAND | Modifiers::SHIFT;
            // The most specific shortcuts first: consume_key ignores extra Shift.
            if input.consume_key(ctrl_shift, Key::Z)
                || input.consume_key(Modifiers::COMMAND, Key::Y)
            {
                commands.push(Command::Redo);
            }
            if input.consume_key(Modifiers::COMMAND, Key::Z) {
                commands.push(Command::Undo);
            }
            if input.consume_key(ctrl_shift, Key::S) {
                commands.push(Command::SaveAs(SaveKind::Native));
            }
            if input.consume_key(Modifiers::COMMAND, Key::S) {
                commands.push(Command::Save);
            }
            if input.consume_key(Modifiers::COMMAND, Key::O) {
                commands.push(Command::OpenDialog);
            }
            if input.consume_key(Modifiers::COMMAND, Key::N) {
                commands.push(Command::ShowNewWindow);
            }
            if input.consume_key(Modifiers::NONE, Key::F1) {
                commands.push(Command::ShowHelp);
            }
            if input.consume_key(Modifiers::NONE, Key::Escape) {
                commands.push(Command::Cancel);
            }
            if input.consume_key(Modifiers::COMMAND, Key::E) {
                self.experiments.open = !self.experiments.open;
            }
            if input.consume_key(Modifiers::NONE, Key::E) {
                commands.push(Command::SetMode(Mode::Edit));
            }
            if input.consume_key(Modifiers::NONE, Key::P) {
                commands.push(Command::SetMode(Mode::Play));
            }
            if input.consume_key(Modifiers::NONE, Key::S) {
                commands.push(Command::Solve);
            }
            if mode == Mode::Play {
                for color in RobotColor::ALL {
                    let key = match color {
                        RobotColor::Red => Key::R,
                        RobotColor::Green => Key::G,
                        RobotColor::Blue => Key::B,
                        RobotColor::Yellow => Key::Y,
                        RobotColor::Silver => Key::K,
                    };
                    if input.consume_key(Modifiers::NONE, key) {
                        commands.push(Command::SelectRobot(color));
                    }
                }
                for (key, dir) in [
                    (Key::ArrowUp, Direction::North),
                    (Key::ArrowRight, Direction::East),
                    (Key::ArrowDown, Direction::South),
                    (Key::ArrowLeft, Direction::West),
                ] {
                    if input.consume_key(Modifiers::NONE, key) {
                        commands.push(Command::MoveRobot(dir));
                    }
                }
                if input.consume_key(Modifiers::NONE, Key::U) {
                    commands.push(Command::UndoMove);
                }
                if input.consume_key(Modifiers::NONE, Key::N) {
                    commands.push(Command::NewGame);
                }
            }
            if let Some(paused) = debugger_paused {
                // The keys of common debuggers; Shift+F11 first, as consume_key ignores an
                // extra Shift.
                let debug = |command| Command::Debug(command);
                if input.consume_key(Modifiers::SHIFT, Key::F11) {
                    commands.push(debug(DebugCommand::StepBack));
                }
                for (key, command) in [
                    (Key::F11, DebugCommand::Step),
                    (Key::F10, DebugCommand::StepOver),
                    (Key::F9, DebugCommand::StepDepth),
                    (Key::F8, DebugCommand::ToSolution),
                    (Key::F7, DebugCommand::Play),
                ] {
                    if input.consume_key(Modifiers::NONE, key) {
                        commands.push(debug(command));
                    }
                }
                if input.consume_key(Modifiers::NONE, Key::F5) {
                    commands.push(debug(if paused {
                        DebugCommand::Continue
                    } else {
                        DebugCommand::Pause
                    }));
                }
            }
            if has_playback {
                for (key, control) in [
                    (Key::Space, PlaybackControl::PlayPause),
                    (Key::Comma, PlaybackControl::Back),
                    (Key::Period, PlaybackControl::Forward),
                    (Key::Home, PlaybackControl::First),
                    (Key::End, PlaybackControl::Last),
                ] {
                    if input.consume_key(Modifiers::NONE, key) {
                        commands.push(Command::Playback(control));
                    }
                }
            }
        });
        self.queued.extend(commands);
    }

    fn handle_close_request(&mut self, ctx: &egui::Context) {
        let asked = ctx.input(|i| i.viewport().close_requested());
        if asked && self.is_dirty() && !self.close_confirmed && self.screenshot.is_none() {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.pending = Some(Pending::Quit);
        }
    }

    fn animate(&mut self, ctx: &egui::Context) {
        let now = self.now();
        let speed = self.state.solver.playback_speed;
        let mut busy = false;
        if let Some(playback) = &mut self.playback {
            busy |= playback.tick(now, speed);
        }
        if let Some(play) = &self.play {
            busy |= play.is_animating(now);
        }
        if busy {
            ctx.request_repaint();
        }
    }

    // ---------------------------------------------------------------------------------------
    // Commands.

    fn apply(&mut self, command: Command) {
        match command {
            Command::Edit { edit, step } => self.apply_edit(&edit, step),
            Command::Undo => match self.history.undo(&self.draft) {
                Some(previous) => {
                    self.draft = previous;
                    self.after_board_change("the board was edited (undo)");
                }
                None => self.note("Nothing to undo."),
            },
            Command::Redo => match self.history.redo(&self.draft) {
                Some(next) => {
                    self.draft = next;
                    self.after_board_change("the board was edited (redo)");
                }
                None => self.note("Nothing to redo."),
            },
            Command::SetMode(mode) => {
                if self.state.mode != mode {
                    self.state.mode = mode;
                    self.play = None;
                    self.editor.reset();
                    self.ensure_play();
                }
            }
            Command::Guarded(pending) => {
                if self.is_dirty() {
                    self.pending = Some(pending);
                } else {
                    self.perform(pending);
                }
            }
            Command::ResolvePending(resolution) => self.resolve_pending(resolution),
            Command::ShowNewWindow => self.new_window.open = true,
            Command::ShowOpenWindow => self.windows.open = true,
            Command::ShowImportWindow => self.windows.import = true,
            Command::ShowHelp => self.help_open = true,
            Command::OpenDialog => {
                if self.use_native_dialogs() {
                    if let Some(path) = files::pick_open_file(self.boards.as_deref()) {
                        self.apply(Command::Guarded(Pending::Open(path)));
                    }
                } else {
                    self.windows.open = true;
                }
            }
            Command::Save => {
                let _ = self.save();
            }
            Command::SaveAs(kind) => {
                let _ = self.save_as(kind);
            }
            Command::SaveTo(path, kind) => {
                if self.save_to(&path, kind) {
                    self.windows.save = None;
                }
            }
            Command::CopyGameId => match &self.validity {
                Ok(puzzle) => match game_id::write(puzzle) {
                    Ok(id) => {
                        self.ctx.copy_text(id.clone());
                        self.note(format!("Copied the game id {id}"));
                    }
                    Err(error) => self.error(format!("This board has no game id: {error}")),
                },
                Err(error) => self.error(format!("This board has no game id: {error}")),
            },
            Command::SelectRobot(color) => {
                if let Some(play) = &mut self.play
                    && let Err(error) = play.select(color)
                {
                    self.error(capital(&error.to_string()));
                }
            }
            Command::MoveRobot(dir) => {
                let now = self.now();
                if let Some(play) = &mut self.play {
                    self.playback = None;
                    match play.slide(dir, now) {
                        Ok(_) if play.is_reached() => {
                            let count = play.moves().len();
                            self.note(format!("Target reached in {count} moves."));
                        }
                        Ok(_) => {}
                        Err(error) => self.error(capital(&error.to_string())),
                    }
                }
            }
            Command::UndoMove => {
                if let Some(play) = &mut self.play {
                    play.undo();
                }
            }
            Command::ResetPlay => {
                if let Some(play) = &mut self.play {
                    play.reset();
                }
            }
            Command::NewGame => self.new_game(),
            Command::Solve => self.solve(),
            Command::Cancel => {
                if let Some(session) = &mut self.session
                    && !session.run.is_finished()
                {
                    session.run.cancel();
                    self.note("Cancelling the solve.");
                }
            }
            Command::Playback(control) => {
                if control == PlaybackControl::Close {
                    self.playback = None;
                } else {
                    let now = self.now();
                    if let Some(playback) = &mut self.playback {
                        playback.control(control, now);
                    }
                }
            }
            Command::ClearPlots => self.plots.clear(),
            Command::Message(text) => self.note(text),
            Command::Error(text) => self.error(text),
            Command::Debug(command) => {
                if let Some(debugger) = &mut self.debugger {
                    debugger.apply(command);
                }
            }
            Command::CheckGraph => match self.graph_tracker.run_check() {
                Ok(text) => self.note(text),
                Err(text) => self.error(text),
            },
        }
    }

    fn apply_edit(&mut self, edit: &Edit, step: UndoStep) {
        let before = self.draft.clone();
        match draft::apply(&mut self.draft, edit) {
            Ok(true) => {
                if step == UndoStep::New || !self.history.can_undo() {
                    self.history.record(before);
                }
                self.after_board_change("the board was edited");
            }
            Ok(false) => {}
            Err(error) => self.error(capital(&error.to_string())),
        }
    }

    fn perform(&mut self, pending: Pending) {
        match pending {
            Pending::Replace(draft, what) => self.set_document(*draft, None, &what),
            Pending::Open(path) => {
                let format = formats::Format::of_path(&path);
                let loaded = match format {
                    Some(format) => formats::load_file(&path, format),
                    None => Err(formats::FormatError::UnknownFormat(
                        path.display().to_string(),
                    )),
                };
                match loaded {
                    Ok(puzzle) => {
                        let name = display_name(&path);
                        let file = (format == Some(formats::Format::Native)).then(|| path.clone());
                        self.set_document(
                            Draft::from_puzzle(&puzzle),
                            file,
                            &format!("Opened {name}"),
                        );
                        self.windows.open = false;
                    }
                    Err(error) => self.error(format!("Could not open {}: {error}", path.display())),
                }
            }
            Pending::Import(text) => {
                let text = text.trim();
                let parsed = if game_id::looks_like(text) {
                    game_id::parse(text)
                } else {
                    cox::parse(text)
                };
                match parsed {
                    Ok(puzzle) => {
                        self.set_document(Draft::from_puzzle(&puzzle), None, "Imported the board");
                        self.windows.import = false;
                    }
                    Err(error) => self.error(format!("Could not import: {error}")),
                }
            }
            Pending::Quit => {
                self.close_confirmed = true;
                self.ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    fn resolve_pending(&mut self, resolution: Resolution) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        match resolution {
            Resolution::Cancel => {}
            Resolution::Discard => self.perform(pending),
            Resolution::Save => match self.save() {
                SaveResult::Saved => self.perform(pending),
                SaveResult::Failed => {}
                SaveResult::Asked => self.note("Choose where to save, then try again."),
            },
        }
    }

    fn use_native_dialogs(&self) -> bool {
        self.state.native_dialogs && files::native_dialogs_available() && self.screenshot.is_none()
    }

    fn save(&mut self) -> SaveResult {
        match self.state.file.clone() {
            Some(path) if formats::Format::of_path(&path) == Some(formats::Format::Native) => {
                if self.save_to(&path, SaveKind::Native) {
                    SaveResult::Saved
                } else {
                    SaveResult::Failed
                }
            }
            _ => self.save_as(SaveKind::Native),
        }
    }

    fn save_as(&mut self, kind: SaveKind) -> SaveResult {
        let name = match (&self.state.file, kind) {
            (Some(path), _) => path
                .with_extension(kind.extension())
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            (None, _) => format!("board.{}", kind.extension()),
        };
        if self.use_native_dialogs() {
            let start = self
                .state
                .file
                .as_ref()
                .and_then(|p| p.parent().map(Path::to_path_buf))
                .or_else(|| self.boards.clone());
            match files::pick_save_file(kind, start.as_deref(), &name) {
                Some(path) => {
                    if self.save_to(&path, kind) {
                        SaveResult::Saved
                    } else {
                        SaveResult::Failed
                    }
                }
                None => SaveResult::Asked,
            }
        } else {
            self.windows.path = self
                .state
                .file
                .as_ref()
                .map(|p| p.with_extension(kind.extension()).display().to_string())
                .unwrap_or_else(|| format!("boards/{name}"));
            self.windows.save = Some(kind);
            SaveResult::Asked
        }
    }

    /// Saves (or exports) atomically; returns whether it worked.
    fn save_to(&mut self, path: &Path, kind: SaveKind) -> bool {
        let puzzle = match &self.validity {
            Ok(puzzle) => puzzle.clone(),
            Err(error) => {
                self.error(format!("Cannot save this board yet: {error}"));
                return false;
            }
        };
        match formats::save_puzzle(&puzzle, path) {
            Ok(()) => {
                if kind == SaveKind::Native {
                    self.state.file = Some(path.to_path_buf());
                    self.clean = self.draft.clone();
                    self.note(format!("Saved {}", display_name(path)));
                } else {
                    self.note(format!("Exported {}", display_name(path)));
                }
                true
            }
            Err(error) => {
                self.error(format!("Could not save: {error}"));
                false
            }
        }
    }

    fn new_game(&mut self) {
        let seed = self.state.editor.robots_seed;
        let count = self.draft.robots.len().clamp(1, 5);
        match random_game_on(&self.draft.board, seed, count) {
            Ok(puzzle) => {
                let mut draft = Draft::from_puzzle(&puzzle);
                draft.rules = self.draft.rules;
                self.apply_edit(&Edit::Replace(Box::new(draft)), UndoStep::New);
                self.state.editor.robots_seed += 1;
                self.note(format!("New game dealt with seed {seed}"));
            }
            Err(error) => self.error(format!("No new game on this board: {error}")),
        }
    }

    fn solve(&mut self) {
        let puzzle = match (&self.play, self.state.mode) {
            (Some(play), Mode::Play) => play.position(),
            _ => match &self.validity {
                Ok(puzzle) => puzzle.clone(),
                Err(error) => {
                    self.error(format!("Cannot solve: {error}"));
                    return;
                }
            },
        };
        let Some(kind) = SOLVERS
            .iter()
            .find(|k| k.name == self.state.solver.solver)
            .or(SOLVERS.first())
        else {
            self.error("No solvers are registered.");
            return;
        };
        if let Some(reason) = solver_panel::unsupported_rule(kind, puzzle.rules()) {
            self.error(format!("Cannot solve: {reason}"));
            return;
        }
        let job = solver_panel::job_for(kind, puzzle.clone(), &self.state.solver);
        self.debugger = None;
        let started = if self.state.debug.enabled {
            let setup = crate::worker::debug::DebugSetup {
                start_paused: self.state.debug.start_paused,
                breakpoints: self.state.debug.breakpoints(puzzle.board(), None),
                ..Default::default()
            };
            job.spawn_debug(self.waker(), setup).map(|(run, handle)| {
                self.debugger = Some(debugger::Debugger::new(handle, puzzle.clone()));
                run
            })
        } else {
            job.spawn(self.waker())
        };
        match started {
            Ok(run) => {
                // Replacing the solve state drops (and so cancels) any run still going.
                self.session = Some(SolveSession {
                    run,
                    puzzle,
                    interrupted: None,
                    recorded: false,
                });
                self.playback = None;
                self.note(format!("Solving with {}", kind.title));
            }
            Err(error) => self.error(format!("Could not start the solver: {error}")),
        }
    }

    // ---------------------------------------------------------------------------------------
    // Drawing.

    fn apply_theme(&mut self, ctx: &egui::Context) {
        if self.applied_theme != Some(self.state.view.theme) {
            ctx.set_theme(self.state.view.theme.preference());
            self.applied_theme = Some(self.state.view.theme);
        }
    }

    fn menu_bar_ui(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                let mut item = |ui: &mut egui::Ui, label: &str, command: Command| {
                    if ui.button(label).clicked() {
                        commands.push(command);
                        ui.close();
                    }
                };
                item(ui, "New...", Command::ShowNewWindow);
                item(ui, "Open...", Command::OpenDialog);
                item(ui, "Open from boards/...", Command::ShowOpenWindow);
                item(ui, "Save", Command::Save);
                item(ui, "Save as...", Command::SaveAs(SaveKind::Native));
                ui.separator();
                item(
                    ui,
                    "Import game id or Cox text...",
                    Command::ShowImportWindow,
                );
                item(ui, "Export as Cox text...", Command::SaveAs(SaveKind::Cox));
                item(ui, "Copy game id", Command::CopyGameId);
                ui.separator();
                item(ui, "Quit", Command::Guarded(Pending::Quit));
            });
            ui.menu_button("Edit", |ui| {
                if ui
                    .add_enabled(
                        self.history.can_undo(),
                        egui::Button::new("Undo").shortcut_text("Ctrl+Z"),
                    )
                    .clicked()
                {
                    commands.push(Command::Undo);
                    ui.close();
                }
                if ui
                    .add_enabled(
                        self.history.can_redo(),
                        egui::Button::new("Redo").shortcut_text("Ctrl+Y"),
                    )
                    .clicked()
                {
                    commands.push(Command::Redo);
                    ui.close();
                }
            });
            ui.menu_button("View", |ui| {
                let view = &mut self.state.view;
                ui.checkbox(&mut view.coordinates, "Coordinates");
                ui.checkbox(&mut view.min_moves, "Minimum-move map");
                ui.checkbox(&mut view.trails, "Move trails");
                ui.checkbox(&mut view.plots, "Plots panel");
                if ui
                    .add(egui::Button::new("Experiments...").shortcut_text("Ctrl+E"))
                    .clicked()
                {
                    self.experiments.open = true;
                    ui.close();
                }
                ui.separator();
                debugger::overlay_checkboxes(ui, &mut self.state.overlays);
                ui.separator();
                ui.radio_value(&mut view.theme, state::ThemeChoice::System, "System theme");
                ui.radio_value(&mut view.theme, state::ThemeChoice::Light, "Light theme");
                ui.radio_value(&mut view.theme, state::ThemeChoice::Dark, "Dark theme");
                ui.separator();
                ui.checkbox(
                    &mut self.state.native_dialogs,
                    "Use the system's file dialogs",
                );
            });
            ui.menu_button("Help", |ui| {
                if ui.button("Keys and help").clicked() {
                    commands.push(Command::ShowHelp);
                    ui.close();
                }
            });
            ui.separator();
            let mut mode = self.state.mode;
            ui.selectable_value(&mut mode, Mode::Edit, "Edit mode");
            ui.selectable_value(&mut mode, Mode::Play, "Play mode");
            if mode != self.state.mode {
                commands.push(Command::SetMode(mode));
            }
        });
    }

    fn status_ui(&self, ui: &mut egui::Ui) {
        let palette = theme::palette(ui.visuals().dark_mode);
        ui.horizontal(|ui| {
            let mode = match self.state.mode {
                Mode::Edit => format!("Editing: {} tool", self.state.editor.tool.label()),
                Mode::Play => "Playing".to_string(),
            };
            ui.label(mode);
            if let (Mode::Play, Some(play)) = (self.state.mode, &self.play) {
                ui.separator();
                ui.label(format!("Selected: {}", play.selected()));
                ui.separator();
                ui.label(format!("Moves: {}", play.moves().len()));
            }
            ui.separator();
            let name = self
                .state
                .file
                .as_deref()
                .map(display_name)
                .unwrap_or_else(|| "untitled".into());
            if self.is_dirty() {
                ui.label(format!("{name} (unsaved changes)"));
            } else {
                ui.label(name);
            }
            if let Some(message) = &self.message {
                ui.separator();
                let color = if message.error {
                    palette.error
                } else {
                    palette.muted
                };
                ui.colored_label(color, &message.text);
            }
        });
    }

    fn side_panel_ui(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let problem = self
            .validity
            .as_ref()
            .err()
            .map(|e| capital(&e.to_string()));
        egui::ScrollArea::vertical()
            .id_salt("side-panel")
            .show(ui, |ui| match self.state.mode {
                Mode::Edit => editor::editor_panel_ui(
                    ui,
                    &self.draft,
                    problem.as_deref(),
                    &mut self.state.editor,
                    commands,
                ),
                Mode::Play => {
                    play::play_panel_ui(ui, self.play.as_ref(), problem.as_deref(), commands)
                }
            });
    }

    fn solver_ui(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let problem = self
            .validity
            .as_ref()
            .err()
            .map(|e| capital(&e.to_string()));
        let position = match (&self.play, self.state.mode) {
            (Some(play), Mode::Play) => Some(play.position()),
            _ => None,
        };
        let puzzle = match (&position, &self.validity) {
            (Some(position), _) => Ok(position),
            (None, Ok(puzzle)) => Ok(puzzle),
            (None, Err(_)) => Err(problem
                .as_deref()
                .unwrap_or("the board is not a valid puzzle")),
        };
        let view = PanelView {
            solvers: SOLVERS,
            puzzle,
            session: self.session.as_ref(),
            playback: self.playback.as_ref(),
        };
        let running = self.session.as_ref().is_some_and(|s| !s.run.is_finished());
        let min_moves = self.state.view.min_moves;
        let tracker = self
            .state
            .overlays
            .graph_edges
            .then_some(&self.graph_tracker);
        egui::ScrollArea::vertical()
            .id_salt("solver-panel")
            .show(ui, |ui| {
                solver_panel::solver_panel_ui(ui, view, &mut self.state.solver, commands);
                ui.separator();
                debugger::debugger_ui(
                    ui,
                    self.debugger.as_ref(),
                    &mut self.state.debug,
                    running,
                    commands,
                );
                ui.separator();
                debugger::overlay_toggles_ui(
                    ui,
                    &mut self.state.overlays,
                    &mut self.state.view.min_moves,
                );
                debugger::overlays_ui(ui, &mut self.state.overlays, min_moves, tracker, commands);
                if let Some(tracker) = tracker {
                    debugger::change_list_ui(ui, &self.draft.board, tracker);
                }
            });
    }

    fn plots_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let current = self.session.as_ref().map(|s| (s.run.kind(), s.run.rows()));
        plots::plots_ui(ui, &self.plots, SOLVERS, current, commands);
    }

    fn scene(&self, now: f64) -> BoardScene {
        let mut scene = BoardScene {
            coordinates: self.state.view.coordinates,
            ..BoardScene::default()
        };
        let speed = self.state.solver.playback_speed;
        let running = self.session.as_ref().is_some_and(|s| !s.run.is_finished());
        let debug_picture = self
            .debugger
            .as_ref()
            .filter(|d| running || d.is_scrubbed_back())
            .and_then(|d| d.board_picture().map(|p| (p, d.puzzle().goal())));
        if let Some(((robots, trails), goal)) = debug_picture {
            scene.robots = robots;
            scene.trails = trails;
            scene.goal = Some(goal);
        } else if let Some(playback) = &self.playback {
            scene.robots = playback.sprites(now, speed);
            scene.trails = playback.trails();
            scene.goal = Some(playback.puzzle().goal());
        } else if let (Mode::Play, Some(play)) = (self.state.mode, &self.play) {
            scene.robots = play.sprites(now);
            if self.state.view.trails {
                scene.trails = play.trails();
            }
            scene.goal = Some(play.start().goal());
            scene.selected = Some(play.selected());
            scene.celebration = play.celebration(now);
        } else {
            scene.robots = self
                .draft
                .robots
                .iter()
                .map(|r| RobotSprite::at(r.color, r.pos))
                .collect();
            scene.goal = Some(self.draft.goal);
            if let Err(error) = &self.validity {
                scene.problems = problem_cells(error);
            }
        }
        if self.state.view.min_moves
            && let Some(goal) = scene.goal
            && self.draft.board.contains(goal.pos)
        {
            scene.min_moves = Some(min_moves(
                &self.draft.board,
                self.draft.board.cell(goal.pos),
            ));
        }
        scene
    }

    /// Adds the overlay layers that are on to the scene.
    fn overlay_scene(&mut self, scene: &mut BoardScene, focus: Option<crate::model::Cell>) {
        let settings = self.state.overlays.clone();
        let board = &self.draft.board;
        if settings.graph_edges {
            let robots: Vec<crate::model::Cell> = self
                .draft
                .robots
                .iter()
                .filter(|r| board.contains(r.pos))
                .map(|r| board.cell(r.pos))
                .collect();
            self.graph_tracker.follow(board, &robots);
        }
        let debugged_stateless = self
            .debugger
            .as_ref()
            .is_some_and(debugger::Debugger::is_stateless_run);
        let stateless = match (&self.validity, settings.stateless && !debugged_stateless) {
            (Ok(puzzle), true) => Some(self.stateless_cache.stores(puzzle)),
            _ => None,
        };
        let solution = self
            .session
            .as_ref()
            .and_then(|s| s.solution().map(|moves| (&s.puzzle, moves)));
        let sources = debugger::OverlaySources {
            settings: &settings,
            board,
            min_moves: scene.min_moves.as_deref(),
            debugger: self.debugger.as_ref(),
            tracker: settings.graph_edges.then_some(&self.graph_tracker),
            focus,
            stateless,
            solution,
        };
        scene.overlay = debugger::overlay_drawing(&sources);
    }

    fn board_panel_ui(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let now = self.now();
        let board = self.draft.board.clone();
        let available = ui.available_rect_before_wrap();
        let geometry = BoardGeometry::fit(available.shrink(6.0), board.width(), board.height());
        let pointer = ui.input(|i| i.pointer.hover_pos());
        let hit = pointer.and_then(|p| geometry.hit(p));
        let mut scene = self.scene(now);
        // Screenshots show the board without the pointer's hover outline.
        if self.state.mode == Mode::Edit && self.screenshot.is_none() {
            scene.hover = self.editor.hover(hit, &self.state.editor);
            self.editor.adjust_scene(&mut scene);
        }
        // Screenshots show no pointer, so no hovered cell's edges either.
        let focus = hit
            .filter(|_| self.screenshot.is_none())
            .map(|h| board.cell(h.cell()));
        self.overlay_scene(&mut scene, focus);
        let (response, geometry) = board_ui(ui, &board, &scene);
        match self.state.mode {
            Mode::Edit => {
                self.editor.board_input(
                    &response,
                    &geometry,
                    &self.draft,
                    &self.state.editor,
                    commands,
                );
            }
            Mode::Play => {
                if response.clicked()
                    && let Some(pos) = response
                        .interact_pointer_pos()
                        .and_then(|p| geometry.hit(p))
                        .map(Hit::cell)
                    && let Some(play) = &self.play
                {
                    let cells = play.position();
                    if let Some(robot) = cells.robots().iter().find(|r| r.pos == pos) {
                        commands.push(Command::SelectRobot(robot.color));
                    }
                }
            }
        }
    }

    fn new_window_ui(&mut self, ctx: &egui::Context, commands: &mut Vec<Command>) {
        if !self.new_window.open {
            return;
        }
        let mut open = true;
        let window = &mut self.new_window;
        widgets::window_position(egui::Window::new("New board"), ctx)
            .open(&mut open)
            .default_width(380.0)
            .show(ctx, |ui| {
                let before = commands.len();
                ui.horizontal(|ui| {
                    widgets::labeled_drag(ui, "Width", &mut window.width, 1..=64);
                    widgets::labeled_drag(ui, "Height", &mut window.height, 1..=64);
                });
                ui.horizontal(|ui| {
                    widgets::labeled_drag(ui, "Robot count", &mut window.robots, 1..=5);
                    widgets::labeled_drag(ui, "Seed", &mut window.seed, 0..=u64::MAX);
                });
                ui.separator();
                if ui.button("Empty board").clicked() {
                    match Draft::empty(window.width, window.height) {
                        Ok(draft) => commands.push(Command::Guarded(Pending::Replace(
                            Box::new(draft),
                            format!("New empty {}x{} board", window.width, window.height),
                        ))),
                        Err(error) => commands.push(Command::Error(error.to_string())),
                    }
                }
                if ui
                    .button("Standard game")
                    .on_hover_text(
                        "A 16x16 board dealt from the real tiles, with robots and a target",
                    )
                    .clicked()
                {
                    match random_game(window.seed, window.robots) {
                        Ok((puzzle, _)) => commands.push(Command::Guarded(Pending::Replace(
                            Box::new(Draft::from_puzzle(&puzzle)),
                            format!("New standard game, seed {}", window.seed),
                        ))),
                        Err(error) => commands.push(Command::Error(error.to_string())),
                    }
                    window.seed += 1;
                }
                if ui
                    .button("Random custom board")
                    .on_hover_text("Random walls and targets on a board of the size above")
                    .clicked()
                {
                    match random_puzzle(window.width, window.height, window.robots, 5, window.seed)
                    {
                        Ok(puzzle) => commands.push(Command::Guarded(Pending::Replace(
                            Box::new(Draft::from_puzzle(&puzzle)),
                            format!(
                                "New random {}x{} board, seed {}",
                                window.width, window.height, window.seed
                            ),
                        ))),
                        Err(error) => commands.push(Command::Error(error.to_string())),
                    }
                    window.seed += 1;
                }
                if ui.button("The deck's 22-move puzzle").clicked() {
                    commands.push(Command::Guarded(Pending::Replace(
                        Box::new(Draft::from_puzzle(&samples::fogleman_22())),
                        "The deck's 22-move puzzle".into(),
                    )));
                }
                // A board was made: the window has done its job.
                if commands.len() > before {
                    window.open = false;
                }
            });
        self.new_window.open &= open;
    }
}

/// What a save attempt came to.
enum SaveResult {
    Saved,
    Failed,
    /// A dialog or window was shown (or cancelled); nothing was saved yet.
    Asked,
}

/// A file's name for the status line.
fn display_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The first letter made upper case, for error messages shown as sentences.
fn capital(text: &str) -> String {
    editor::capitalised(text)
}

impl eframe::App for RicochetApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.drain_worker();
        self.experiments.drain();
        self.handle_close_request(ctx);
        self.keyboard(ctx);
        self.animate(ctx);
        if let Some(mut director) = self.screenshot.take() {
            director.step(self, ctx);
            self.screenshot = Some(director);
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.apply_theme(&ctx);
        let mut commands = std::mem::take(&mut self.queued);

        egui::Panel::top("menu-bar").show(ui, |ui| self.menu_bar_ui(ui, &mut commands));
        egui::Panel::bottom("status-line").show(ui, |ui| self.status_ui(ui));
        if self.state.view.plots {
            egui::Panel::bottom("plots")
                .resizable(true)
                .default_size(self.plots_height)
                .min_size(140.0)
                .show(ui, |ui| self.plots_ui(ui, &mut commands));
        }
        egui::Panel::left("tools")
            .resizable(true)
            .default_size(290.0)
            .show(ui, |ui| self.side_panel_ui(ui, &mut commands));
        egui::Panel::right("solver")
            .resizable(true)
            .default_size(450.0)
            .show(ui, |ui| self.solver_ui(ui, &mut commands));
        egui::CentralPanel::default().show(ui, |ui| self.board_panel_ui(ui, &mut commands));

        files::file_windows_ui(
            &ctx,
            &mut self.windows,
            self.boards.as_deref(),
            &mut commands,
        );
        self.new_window_ui(&ctx, &mut commands);
        help::help_ui(&ctx, &mut self.help_open);
        let native_dialogs = self.use_native_dialogs();
        experiments::experiments_window(
            &ctx,
            &mut self.experiments,
            &mut self.state.experiments,
            self.validity.as_ref().ok(),
            native_dialogs,
            &mut commands,
        );
        if let Some(pending) = &self.pending {
            files::unsaved_changes_ui(&ctx, pending, &mut commands);
        }

        for command in commands {
            self.apply(command);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.screenshot.is_none() {
            eframe::set_value(storage, state::STORAGE_KEY, &self.persisted_state());
        }
    }

    fn persist_egui_memory(&self) -> bool {
        self.screenshot.is_none()
    }
}
