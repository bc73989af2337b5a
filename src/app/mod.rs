//! The desktop app: a board editor, play mode, a solver panel with live per-depth counts, a
//! debugger, and live plots.
//!
//! One folder per part of the window, as egui's own demo app and rerun's viewer are laid out,
//! in floors: a room names only rooms on the floors below it, never one beside or above it
//! (the `no_import_cycle_between_the_apps_rooms` test in `lib.rs` checks it).
//!
//! The ground floor, which names no room but `document`:
//! - [`command`]: the vocabulary every room speaks: whole-app [`Command`]s (collected while
//!   the panels are drawn, applied once at the end of the frame), the debugger's, the search
//!   tree's and the playback's commands; [`keys`]: the table of keys that send them;
//! - [`document`]: the board, its file, history and validity (every change moves its revision
//!   on), and the settings that name no room;
//! - [`board_paint`]: what the board is drawn with: its geometry, the robots as drawn, the
//!   slides; [`widgets`] and [`theme`]: small widgets and every colour.
//!
//! The rooms:
//! - [`overlays`]: the layers drawn over the board, their dock tab and the exact distance map;
//! - [`debugger`]: the algorithm debugger and its dock tab;
//! - [`board_view`]: the board in the middle of the window: its widget and the scene it
//!   draws;
//! - `editing`: the editor's tools and the New board window;
//! - [`files`]: the Open, Save and Import windows, the system's file dialogs and the question
//!   before unsaved changes are dropped;
//! - `playing`: play mode, its hints, and a solution played back;
//! - [`run`]: the solver panel and what the Run tab and the plots show of a solve (the
//!   per-depth table, the icicle chart, the list of optimal solutions, the live plots);
//! - `analyzer`: the Analyse board window and positions made to order;
//! - `compare`: the Compare runs window: two searches recorded or opened, stepped together
//!   and compared to their first difference;
//! - [`experiments`]: the Experiments window; `matches`: the Matches window;
//! - `lessons`: the Help menu's lessons and the dock's Lesson tab, which shows the open
//!   lesson's page of text.
//!
//! The top floor, which names the rooms:
//! - `derived`: the store of every result derived from the board, each tagged with the
//!   revision it was computed on;
//! - [`settings`]: the persisted [`AppState`], which holds every room's settings, and the
//!   settings file;
//! - [`shell`]: the panels, menus, status line and windows around the board, the board's
//!   scene put together each frame, applying the commands, the work the rooms ask for
//!   (hints, the list of optimal solutions), keeping the background work up to the board
//!   shown, the logic that is not drawing (drain the workers, keys, timers), Help and the
//!   screenshot command; `launch`: opening the window.
//!
//! A room takes its own state, and what the shell hands it, and sends commands; only the top
//! floor reaches into the whole app (the `no_room_reaches_into_the_whole_app` test checks
//! that no room names [`RicochetApp`]). The app's own fields are each a room's state (the
//! editor's, the game, the windows') or the shell's (`shell::ShellState`).
//!
//! This file holds the app type, [`RicochetApp`], and what it answers to tests and tools.
//!
//! What is public here is what the integration tests in `tests/` and the binary use; every
//! other module and item is crate-private or narrower (so the names in backticks above without
//! a link are rooms the public documentation does not show). The `unreachable_pub` lint
//! names an item marked `pub` that the library does not export.
// CI's `-D warnings` makes the lint an error.
#![warn(unreachable_pub)]

mod analyzer;
pub mod board_paint;
pub mod board_view;
pub mod command;
mod compare;
pub mod debugger;
mod derived;
pub mod document;
mod editing;
pub mod experiments;
pub mod files;
pub mod keys;
mod launch;
mod lessons;
mod matches;
pub mod overlays;
mod playing;
mod queries;
pub mod run;
pub mod settings;
pub mod shell;
pub mod theme;
pub mod widgets;

use crate::model::samples;
use crate::worker::Waker;
use command::Command;
use derived::DerivedResults;
use document::Document;
use document::Revision;
use document::draft::{self, Draft, parse_draft};
use document::mode::Mode;
use editing::editor::EditorInteraction;
use editing::new_board::NewBoardWindow;
use files::FileWindows;
pub use launch::{Opening, RunError, native_options, run_native};
pub use playing::hot_cold::HotCold;
use playing::play::PlayState;
pub use queries::RunSummary;
use run::plots::PlotHistory;
use run::solver_panel::SolveSession;
use settings::AppState;
use shell::screenshot::ScreenshotDirector;
use std::sync::Arc;
use std::time::Duration;

/// The window's title and the name eframe stores the app's state under.
pub const APP_NAME: &str = "Ricochet Lab";

/// The window size the app opens with (screenshots are taken at the smallest it is laid out
/// for, `shell::screenshot::SCREENSHOT_SIZE`).
const WINDOW_SIZE: [f32; 2] = [1360.0, 900.0];

/// How often at most the window is repainted for a run's counters, rows and clocks (a
/// spinner, the nodes so far, the time taken, a finished depth): once a second. Under a
/// software renderer one frame of the whole window takes tens of milliseconds of processor
/// time (41 ms with OpenGL, 188 ms with wgpu at 1360x900), taken from the solver beside it;
/// at four frames a second and a frame per finished depth, `fast` ran at half its speed in
/// the window. Input (a click on Cancel) and a run's end still repaint at once.
const RUN_REFRESH: Duration = Duration::from_secs(1);

/// The name of the board the app opens with when nothing was stored.
const DECK_PUZZLE: &str = "The deck's 22-move puzzle";

/// How the app presents itself: to a person at the screen, or to the screenshot command. Set
/// once when the app is built, and read by name where it matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Presentation {
    /// Draw what the pointer hovers (the editor's outline, a cell's graph edges).
    pointer_feedback: bool,
    /// Save the state and egui's memory when the app closes.
    persist: bool,
    /// Ask before closing with unsaved changes.
    ask_before_close: bool,
    /// Whether the system's file dialogs may be used.
    native_dialogs: bool,
}

impl Presentation {
    /// A person uses the app.
    const INTERACTIVE: Presentation = Presentation {
        pointer_feedback: true,
        persist: true,
        ask_before_close: true,
        native_dialogs: true,
    };

    /// The screenshot command drives it: no pointer, nothing stored, no dialogs.
    const SCREENSHOT: Presentation = Presentation {
        pointer_feedback: false,
        persist: false,
        ask_before_close: false,
        native_dialogs: false,
    };
}

/// A line for the status bar.
#[derive(Clone, Debug, PartialEq, Eq)]
struct StatusMessage {
    text: String,
    error: bool,
    /// The revision of the board the line speaks of, when it reports a result derived from
    /// it (a solve, a graph check): it goes when the board changes.
    about: Option<Revision>,
}

/// The app.
pub struct RicochetApp {
    /// What is kept between runs.
    state: AppState,
    /// The board, its file and history.
    doc: Document,
    editor: EditorInteraction,
    play: Option<PlayState>,
    /// Everything computed from the board, by revision.
    derived: DerivedResults,
    /// Counts the runs started since the app opened, so that no two runs share a number.
    serial: u64,
    plots: PlotHistory,
    windows: FileWindows,
    new_window: NewBoardWindow,
    /// The shell's own state: the dock's tab, Help, the question pending, the title sent.
    shell: shell::ShellState,
    message: Option<StatusMessage>,
    boards: Option<std::path::PathBuf>,
    /// To a person or to the screenshot command.
    presentation: Presentation,
    /// Drives the app to a view when it was started to take a screenshot.
    screenshot: Option<ScreenshotDirector>,
    /// The Experiments window.
    experiments: experiments::ExperimentsView,
    /// The Analyse board window.
    analyzer: analyzer::AnalyzerView,
    /// The editor's live optimum, and play mode's hot/cold solves.
    live_optimum: editing::live_optimum::LiveOptimumState,
    hot_cold: playing::hot_cold::HotColdState,
    export_animation: playing::export_animation::ExportAnimationWindow,
    /// The Compare runs window.
    compare: compare::CompareView,
    /// The registered external engines.
    engines: run::engines::EngineList,
    /// The Add engine window.
    add_engine: run::engine_window::AddEngineWindow,
    /// The Matches window.
    matches: matches::MatchesWindow,
    /// The shipped lessons and the lesson open in the Lesson tab.
    lessons: lessons::LessonState,
    /// Saves the settings to the app's settings file (`None`: nothing is saved).
    settings: Option<settings::store::SettingsSaver>,
    ctx: egui::Context,
}

impl RicochetApp {
    /// Builds the app with the default settings, on the deck's 22-move puzzle; nothing is
    /// read or saved (the settings file is [`run_native`]'s to read and keep).
    pub fn new(cc: &eframe::CreationContext<'_>) -> RicochetApp {
        RicochetApp::with_state(cc.egui_ctx.clone(), AppState::default())
    }

    /// Builds the app from a given state (nothing is read from storage).
    pub fn with_state(ctx: egui::Context, state: AppState) -> RicochetApp {
        let mut message = None;
        let stored = state.board.as_deref().map(draft::parse_draft_noting);
        let (draft, name) = match stored {
            Some(Ok((draft, notes))) => {
                if !notes.is_empty() {
                    message = Some(StatusMessage {
                        text: format!("The stored working board was changed: {}", notes.join(" ")),
                        error: true,
                        about: None,
                    });
                }
                (draft, state.board_name.clone())
            }
            Some(Err(error)) => {
                message = Some(StatusMessage {
                    text: format!(
                        "The stored working board could not be read ({error}); the deck's puzzle is shown instead."
                    ),
                    error: true,
                    about: None,
                });
                (
                    Draft::from_puzzle(&samples::fogleman_22()),
                    Some(DECK_PUZZLE.to_string()),
                )
            }
            None => (
                Draft::from_puzzle(&samples::fogleman_22()),
                Some(DECK_PUZZLE.to_string()),
            ),
        };
        let clean = state
            .saved_board
            .as_deref()
            .and_then(|text| parse_draft(text).ok());
        let doc = Document::new(draft, clean, state.file.clone(), name);
        let boards = files::boards_dir();
        let mut app = RicochetApp {
            state,
            doc,
            editor: EditorInteraction::default(),
            play: None,
            derived: DerivedResults::default(),
            serial: 0,
            plots: PlotHistory::default(),
            windows: FileWindows::default(),
            new_window: NewBoardWindow::default(),
            shell: shell::ShellState::default(),
            message,
            lessons: lessons::LessonState::from_boards(boards.as_deref()),
            boards,
            presentation: Presentation::INTERACTIVE,
            screenshot: None,
            experiments: experiments::ExperimentsView::default(),
            analyzer: Default::default(),
            live_optimum: Default::default(),
            hot_cold: Default::default(),
            export_animation: Default::default(),
            compare: Default::default(),
            engines: run::engines::EngineList::from_settings_folder(),
            add_engine: Default::default(),
            matches: Default::default(),
            settings: None,
            ctx,
        };
        app.windows.opened_folder = app.state.open_folder.clone();
        app.derived
            .on_revision_change(app.doc.revision(), "the app started");
        app.sync_board_fields();
        app.ensure_play();
        let kept = app.state.file_stamp;
        app.restore_disk_state(kept);
        app
    }

    /// The settings and the open document's state, as the panels bind them.
    pub fn app_state(&self) -> &AppState {
        &self.state
    }

    /// Opens a puzzle file (a `.ron` file, Cox text or a text file holding a game id) as
    /// File > Open does, asking first when the board has unsaved changes; a file that cannot
    /// be read is named in the status line. For a file dropped on the window or named on the
    /// command line.
    fn open_puzzle_file(&mut self, path: std::path::PathBuf) {
        self.shell
            .queue(Command::Guarded(command::Pending::Open(path)));
    }

    /// Hands the app to the screenshot command.
    fn present_for_screenshot(&mut self, director: ScreenshotDirector) {
        self.presentation = Presentation::SCREENSHOT;
        self.screenshot = Some(director);
    }

    fn now(&self) -> f64 {
        self.ctx.input(|i| i.time)
    }

    fn waker(&self) -> Waker {
        let ctx = self.ctx.clone();
        // News that matters now (a finished depth, the end, a debugger's step) repaints at
        // once; counters wait for the next refresh of a run, so that repainting the window,
        // which a software renderer does on the same cores as the solver, costs little.
        Arc::new(move |delay| {
            let delay = if delay.is_zero() {
                delay
            } else {
                delay.max(RUN_REFRESH)
            };
            ctx.request_repaint_after(delay);
        })
    }

    fn note(&mut self, text: impl Into<String>) {
        self.message = Some(StatusMessage {
            text: text.into(),
            error: false,
            about: None,
        });
    }

    fn error(&mut self, text: impl Into<String>) {
        self.message = Some(StatusMessage {
            text: text.into(),
            error: true,
            about: None,
        });
    }

    /// A status line about a result derived from the board as it is now: it goes when the
    /// board changes.
    fn note_on_board(&mut self, text: impl Into<String>, error: bool) {
        self.message = Some(StatusMessage {
            text: text.into(),
            error,
            about: Some(self.doc.revision()),
        });
    }

    /// Starts a game when in play mode on a valid board.
    fn ensure_play(&mut self) {
        if self.state.mode == Mode::Play && self.play.is_none() {
            self.play = self
                .doc
                .validity()
                .as_ref()
                .ok()
                .cloned()
                .map(PlayState::new);
        }
    }

    /// The fields that describe the board (its size, its tiles) follow the document.
    fn sync_board_fields(&mut self) {
        let (width, height) = self.doc.size();
        self.state.editor.width = width;
        self.state.editor.height = height;
        self.state.editor.board_tiles = self.doc.tiles();
        if let Some(tiles) = self.state.editor.board_tiles {
            self.state.editor.tiles = tiles;
        }
    }

    /// Everything that follows a change of the board: the results derived from the old board
    /// go (a solve still running on it is cancelled, and the Run tab says why), with the
    /// status line that spoke of them and the game.
    fn after_board_change(&mut self, reason: &str) {
        self.sync_derived(reason);
        self.play = None;
        self.sync_board_fields();
        self.ensure_play();
    }

    /// Brings the store of derived results, and the status line that speaks of them, up to
    /// the document's revision. The one place results of an older board are dropped.
    fn sync_derived(&mut self, reason: &str) {
        let current = self.doc.revision();
        if self.derived.on_revision_change(current, reason)
            && self
                .message
                .as_ref()
                .is_some_and(|m| m.about.is_some_and(|about| about != current))
        {
            self.message = None;
        }
    }

    /// Puts another board in place of this one: nothing of the old board's stays.
    fn set_document(
        &mut self,
        draft: Draft,
        file: Option<std::path::PathBuf>,
        name: Option<String>,
        note: &str,
    ) {
        self.doc.replace(draft, file, name);
        self.remember_disk_state();
        self.editor.reset();
        self.after_board_change("another board was opened");
        self.note(note);
    }

    /// The current session, when it was run on the board as it is now.
    fn current_session(&self) -> Option<&SolveSession> {
        self.derived.session(self.doc.revision())
    }

    /// The run whose rows the nodes plot draws: the run on the board as it is now, up to the
    /// event the debugger shows when it is scrubbed back (the plot rewinds with it).
    fn plotted_run(&self) -> Option<run::plots::PlottedRun<'_>> {
        let session = self.current_session()?;
        let rows = session.run.rows();
        let shown = match self.debugger() {
            Some(debugger) if debugger.is_scrubbed_back() => {
                match &debugger.shown_view().last_depth {
                    None => 0,
                    Some(last) => rows
                        .iter()
                        .position(|row| row.stats == *last)
                        .map_or(rows.len(), |i| i + 1),
                }
            }
            _ => rows.len(),
        };
        Some(run::plots::PlottedRun {
            title: session.run.title(),
            columns: session.run.columns(),
            rows: &rows[..shown],
        })
    }

    /// The rows the nodes plot draws now (for tests and tools that drive the app).
    pub fn plotted_rows(&self) -> usize {
        self.plotted_run().map_or(0, |run| run.rows.len())
    }

    /// Whether the run on the board as it is now is still going.
    fn is_running(&self) -> bool {
        self.derived.is_running(self.doc.revision())
    }
}

/// The window's title for a puzzle called `name`: "name — Ricochet Lab", with a "•" before
/// the name when it has unsaved changes, as desktop programs mark them.
fn window_title(name: &str, unsaved: bool) -> String {
    let mark = if unsaved { "• " } else { "" };
    format!("{mark}{name} — {APP_NAME}")
}

/// The first letter made upper case, for error messages shown as sentences.
fn capital(text: &str) -> String {
    widgets::capitalised(text)
}

impl eframe::App for RicochetApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        // Every change of the board already brought the store up to date; this only makes
        // sure nothing of another revision is drawn should a change have come another way.
        self.sync_derived("the board changed");
        self.drain_worker();
        self.experiments.drain();
        if self.engines.refresh(std::time::Instant::now()) {
            ctx.request_repaint();
        }
        self.handle_close_request(ctx);
        self.keep_settings(ctx);
        self.notice_changes_on_disk(ctx);
        self.open_dropped_files(ctx);
        self.keyboard(ctx);
        self.sync_title(ctx);
        self.still_while_running(ctx);
        self.animate(ctx);
        if let Some(mut director) = self.screenshot.take() {
            director.step(self, ctx);
            self.screenshot = Some(director);
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        self.apply_theme(&ctx);
        let mut commands = self.shell.take_queued();
        self.shell_ui(ui, &mut commands);
        for command in commands {
            self.apply(command);
        }
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        self.save_settings_now();
    }

    fn persist_egui_memory(&self) -> bool {
        // The app saves egui's memory with its own settings, never through eframe's storage.
        false
    }

    fn raw_input_hook(&mut self, _ctx: &egui::Context, raw_input: &mut egui::RawInput) {
        // A picture for the screenshot command shows no pointer: no hover outline, no plot
        // crosshair, no tooltip, wherever the display's pointer happens to be.
        if !self.presentation.pointer_feedback {
            raw_input.events.retain(|event| {
                !matches!(
                    event,
                    egui::Event::PointerMoved(_)
                        | egui::Event::MouseMoved(_)
                        | egui::Event::PointerButton { .. }
                        | egui::Event::MouseWheel { .. }
                )
            });
            raw_input.events.push(egui::Event::PointerGone);
        }
    }
}
