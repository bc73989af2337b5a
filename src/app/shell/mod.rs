//! The shell: the panels, menus and status line around the board, and the windows over it.
//!
//! The room also holds what runs the frame apart from any one panel: `apply`, which carries
//! out the whole-app actions (their vocabulary is [`crate::app::command`], and the keys that
//! send them [`crate::app::keys`]), saving and opening (`saving`), the logic that is not
//! drawing (`logic`), the Help window (`help`), the order of the windows over the board
//! (`windows`) and the screenshot command ([`screenshot`]).
//!
//! Panels have fixed widths, so nothing a panel shows can move the board or another panel
//! under the pointer. The right-hand dock has the solver's controls on top, always in the same
//! place, and below them one of its tabs: the run (result, per-depth rows, playback), the
//! debugger (controls, node, event log), the search tree, the overlay layers and the lesson.

mod apply;
mod board;
mod dock;
mod follow;
mod help;
mod lesson;
mod logic;
mod saving;
pub mod screenshot;
mod tasks;
mod windows;

pub(in crate::app) use dock::DockTab;
pub use dock::dock_tab_titles;
pub use windows::WINDOW_TITLES;

use crate::app::command::{AnimationSubject, SaveKind};
use crate::app::command::{Command, Pending};
use crate::app::document::mode::Mode;
use crate::app::document::state;
use crate::app::editing::editor;
use crate::app::keys;
use crate::app::playing::play;
use crate::app::run::plots;
use crate::app::run::solver_panel::{self, PanelView};
use crate::app::{RicochetApp, capital, debugger, lessons, overlays, theme};
use crate::worker::RunEnd;

/// The editor or play panel's width in a window `window` points wide: 300 in the window the
/// app opens with, less in a smaller one, so that the board keeps the room.
fn left_panel_width(window: f32) -> f32 {
    (window * 0.22).clamp(230.0, 300.0)
}

/// The solver dock's width in a window `window` points wide: 470 in the window the app opens
/// with, less in a smaller one.
fn right_panel_width(window: f32) -> f32 {
    (window * 0.345).clamp(320.0, 470.0)
}

/// The plots panel's height when it first shows in a window `window` points high: `wanted`,
/// but at most three tenths of the window, so that the board keeps the room.
fn plots_panel_height(window: f32, wanted: f32) -> f32 {
    wanted.min(window * 0.3).max(PLOTS_MIN_HEIGHT)
}

/// The plots panel's least height, where its axes still read.
const PLOTS_MIN_HEIGHT: f32 = 140.0;

/// Where the side panels were laid out in the last frame, for tests and tools that check the
/// layout: a panel that keeps its width keeps the board and the other panel in place.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelRects {
    /// The editor or play panel on the left.
    pub tools: egui::Rect,
    /// The solver dock on the right.
    pub dock: egui::Rect,
}

impl Default for PanelRects {
    /// Nothing laid out yet.
    fn default() -> Self {
        PanelRects {
            tools: egui::Rect::NOTHING,
            dock: egui::Rect::NOTHING,
        }
    }
}

/// The shell's own state, kept between frames: what the panels around the board, the
/// menus and the questions need that no room keeps.
pub(in crate::app) struct ShellState {
    /// Whether the Help window is open.
    help_open: bool,
    /// New game's question, while it waits: the number of moves a new deal would drop.
    deal_asked: Option<usize>,
    /// The action waiting for an answer about unsaved changes.
    pending: Option<Pending>,
    /// Whether closing the window was confirmed (unsaved changes may go).
    close_confirmed: bool,
    /// The theme last applied to the context, so that it is applied again only on a change.
    applied_theme: Option<crate::app::document::state::ThemeChoice>,
    /// The plots panel's height when it first shows.
    plots_height: f32,
    /// Which part of the right-hand dock shows below the solver's controls.
    dock: DockTab,
    /// Commands gathered in `logic` (keys, timers) for this frame.
    queued: Vec<Command>,
    /// The window title last sent, so that it is sent again only when it changes.
    shown_title: String,
    /// Where the side panels were laid out in the last frame.
    laid_out: PanelRects,
}

impl ShellState {
    /// Queues a command for the end of this frame (a file dropped on the window, one named on
    /// the command line).
    pub(in crate::app) fn queue(&mut self, command: Command) {
        self.queued.push(command);
    }

    /// The commands queued so far this frame, taken.
    pub(in crate::app) fn take_queued(&mut self) -> Vec<Command> {
        std::mem::take(&mut self.queued)
    }
}

impl Default for ShellState {
    /// The Run tab shown, nothing asked or queued, the app's name as the title.
    fn default() -> ShellState {
        ShellState {
            help_open: false,
            deal_asked: None,
            pending: None,
            close_confirmed: false,
            applied_theme: None,
            plots_height: 250.0,
            dock: DockTab::Run,
            queued: Vec::new(),
            shown_title: crate::app::APP_NAME.to_string(),
            laid_out: PanelRects::default(),
        }
    }
}

impl RicochetApp {
    /// Where the side panels were laid out in the last frame.
    pub fn panel_rects(&self) -> PanelRects {
        self.shell.laid_out
    }

    /// The whole window: panels first (outermost first), then the board, then windows.
    pub(in crate::app) fn shell_ui(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let ctx = ui.ctx().clone();
        let window = ctx.content_rect().size();
        egui::Panel::top("menu-bar").show(ui, |ui| self.menu_bar_ui(ui, commands));
        egui::Panel::bottom("status-line").show(ui, |ui| self.status_ui(ui));
        // Panels are drawn in reading order, which is the order Tab visits their controls
        // in: the tools on the left, then the dock, then the plots under the board. Both side
        // panels take the full height, so the debugger's log and the tools have room.
        let tools = egui::Panel::left("tools")
            .resizable(false)
            .exact_size(left_panel_width(window.x))
            .show(ui, |ui| self.side_panel_ui(ui, commands));
        let dock = egui::Panel::right("solver")
            .resizable(false)
            .exact_size(right_panel_width(window.x))
            .show(ui, |ui| self.dock_ui(ui, commands));
        self.shell.laid_out.tools = tools.response.rect;
        self.shell.laid_out.dock = dock.response.rect;
        if self.state.view.plots {
            egui::Panel::bottom("plots")
                .resizable(true)
                .default_size(plots_panel_height(window.y, self.shell.plots_height))
                .min_size(PLOTS_MIN_HEIGHT)
                .max_size((window.y * 0.45).max(PLOTS_MIN_HEIGHT))
                .show(ui, |ui| self.plots_ui(ui, commands));
        }
        egui::CentralPanel::default().show(ui, |ui| self.board_panel_ui(ui, commands));

        self.windows_ui(&ctx, commands);
    }

    pub(in crate::app) fn apply_theme(&mut self, ctx: &egui::Context) {
        // Every board drawn this frame, and every export it starts, takes the chosen colours.
        crate::print::colors::set_robot_palette(self.state.view.robot_palette);
        if self.shell.applied_theme != Some(self.state.view.theme) {
            ctx.set_theme(self.state.view.theme.preference());
            theme::style_app(ctx);
            self.shell.applied_theme = Some(self.state.view.theme);
        }
    }

    pub(in crate::app) fn menu_bar_ui(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        use keys::{Action, hint};
        egui::MenuBar::new().ui(ui, |ui| {
            let shown = self.derived.playback(self.doc.revision()).is_some();
            ui.menu_button("File", |ui| file_menu_ui(ui, shown, commands));
            ui.menu_button("Edit", |ui| {
                // In Play, Undo and Redo walk the game's moves (see `apply`).
                let (undo, redo) = match (&self.play, self.state.mode) {
                    (Some(play), Mode::Play) => (!play.moves().is_empty(), play.can_redo()),
                    _ => (self.doc.history().can_undo(), self.doc.history().can_redo()),
                };
                menu_item(
                    ui,
                    commands,
                    undo,
                    "Undo",
                    hint(Action::Undo),
                    Command::Undo,
                );
                menu_item(
                    ui,
                    commands,
                    redo,
                    "Redo",
                    hint(Action::Redo),
                    Command::Redo,
                );
                ui.separator();
                let board = hint(Action::CopyBoard);
                menu_item(ui, commands, true, "Copy board", board, Command::CopyBoard);
                let paste = hint(Action::PasteBoard);
                menu_item(
                    ui,
                    commands,
                    true,
                    "Paste board...",
                    paste,
                    Command::ShowImportWindow,
                );
            });
            ui.menu_button("View", |ui| {
                let view = &mut self.state.view;
                ui.checkbox(&mut view.coordinates, "Coordinates");
                ui.checkbox(&mut view.trails, "Move trails");
                ui.checkbox(&mut view.plots, "Plots panel");
                ui.checkbox(&mut view.live_optimum, "Live optimum in the editor");
                ui.checkbox(&mut view.hot_cold, "Hot/cold in play");
                if menu_button(ui, true, "Experiments...", hint(Action::Experiments)).clicked() {
                    self.experiments.open = true;
                    ui.close();
                }
                if menu_button(ui, true, "Analyse board...", hint(Action::Analyze)).clicked() {
                    self.analyzer.open = true;
                    ui.close();
                }
                if menu_button(ui, true, "Compare runs...", hint(Action::Compare)).clicked() {
                    self.compare.open = true;
                    ui.close();
                }
                if menu_button(ui, true, "Matches...", String::new()).clicked() {
                    self.matches.open = true;
                    ui.close();
                }
                if menu_button(ui, true, "Add engine...", String::new()).clicked() {
                    commands.push(Command::ShowAddEngine);
                    ui.close();
                }
                ui.separator();
                overlays::panel::overlay_checkboxes(ui, &mut self.state.overlays);
                ui.separator();
                ui.radio_value(&mut view.theme, state::ThemeChoice::System, "System theme");
                ui.radio_value(&mut view.theme, state::ThemeChoice::Light, "Light theme");
                ui.radio_value(&mut view.theme, state::ThemeChoice::Dark, "Dark theme");
                robot_palette_ui(ui, &mut view.robot_palette);
                ui.separator();
                ui.checkbox(
                    &mut self.state.native_dialogs,
                    "Use the system's file dialogs",
                );
            });
            ui.menu_button("Help", |ui| {
                menu_item(
                    ui,
                    commands,
                    true,
                    "Keys and help",
                    hint(Action::Help),
                    Command::ShowHelp,
                );
                lessons::lessons_menu_ui(ui, &self.lessons.shipped, commands);
            });
            ui.separator();
            let mut mode = self.state.mode;
            ui.selectable_value(&mut mode, Mode::Edit, "Edit mode")
                .on_hover_text(keys::tooltip("Design the board", Action::EditMode));
            ui.selectable_value(&mut mode, Mode::Play, "Play mode")
                .on_hover_text(keys::tooltip("Play the board", Action::PlayMode));
            if mode != self.state.mode {
                commands.push(Command::SetMode(mode));
            }
        });
    }

    pub(in crate::app) fn status_ui(&self, ui: &mut egui::Ui) {
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
            let name = self.doc.name();
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
                // A long message ends in "…" at the window's edge, in full on hover, rather
                // than running off the window.
                ui.add(
                    egui::Label::new(egui::RichText::new(&message.text).color(color)).truncate(),
                );
            }
        });
    }

    /// Why the board cannot be solved as it stands, as a sentence for the panels; `None`
    /// when it can.
    fn board_problem(&self) -> Option<String> {
        self.doc.validity().as_ref().err().map(|error| match error {
            // Said as the editor names things, with what to do about it.
            crate::model::ModelError::GoalWithoutTarget(pos) => format!(
                "No active target: the target at {pos} was removed. Choose another in Active \
                 target, or print one with the Target tool."
            ),
            _ => capital(&error.to_string()),
        })
    }

    pub(in crate::app) fn side_panel_ui(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let problem = self.board_problem();
        egui::ScrollArea::vertical()
            .id_salt("side-panel")
            .auto_shrink([false, false])
            .show(ui, |ui| match self.state.mode {
                Mode::Edit => {
                    let (on, current) = (self.state.view.live_optimum, self.doc.revision());
                    let live_optimum = &self.live_optimum;
                    editor::editor_panel_ui(
                        ui,
                        self.doc.draft(),
                        problem.as_deref(),
                        &|ui: &mut egui::Ui| live_optimum.shown_ui(ui, on, current),
                        &mut self.state.editor,
                        commands,
                    );
                }
                Mode::Play => {
                    let hot_cold = |ui: &mut egui::Ui| {
                        if let Some(play) = &self.play
                            && self.state.view.hot_cold
                        {
                            self.hot_cold.ui(ui, play);
                        }
                    };
                    let play = self.play.as_ref();
                    play::play_panel_ui(ui, play, problem.as_deref(), &hot_cold, commands);
                    self.hint_ui(ui, commands);
                    play::move_list_ui(ui, self.play.as_ref());
                }
            });
    }

    /// The right-hand dock: the solver's controls, then the chosen tab.
    pub(in crate::app) fn dock_ui(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let problem = self.board_problem();
        let position = match (&self.play, self.state.mode) {
            (Some(play), Mode::Play) => Some(play.position()),
            _ => None,
        };
        let puzzle = match (&position, self.doc.validity()) {
            (Some(position), _) => Ok(position),
            (None, Ok(puzzle)) => Ok(puzzle),
            (None, Err(_)) => Err(problem
                .as_deref()
                .unwrap_or("the board is not a valid puzzle")),
        };
        let running = self.is_running();
        let view = PanelView {
            engines: &self.engines,
            choice: self.engines.resolve(&self.state.solver.solver),
            puzzle,
            session: self.derived.session(self.doc.revision()),
            earlier_run: self
                .derived
                .earlier_run(self.doc.revision())
                .map(|earlier| earlier.note.as_str()),
            playback: self.derived.playback(self.doc.revision()),
            debug_paused: running
                && self
                    .derived
                    .debugger(self.doc.revision())
                    .is_some_and(debugger::Debugger::is_paused),
        };
        solver_panel::solver_controls_ui(
            ui,
            &view,
            &mut self.state.solver,
            &mut self.state.debug,
            running,
            commands,
        );
        ui.separator();
        // Wrapped, so that in a window narrower than any the app is laid out for the last
        // tabs go to a second line rather than past the dock's edge.
        ui.horizontal_wrapped(|ui| {
            for tab in DockTab::ALL {
                ui.selectable_value(&mut self.shell.dock, tab, tab.title());
            }
        });
        ui.separator();
        match self.shell.dock {
            DockTab::Run => {
                // After a long solve the rows, plots and profile outgrow the dock: the tab
                // scrolls below the fixed Solve and Cancel. The run's settings are edited on
                // a copy, as the list below reads the app while the tab is drawn.
                let mut settings = self.state.solver.clone();
                egui::ScrollArea::vertical()
                    .id_salt("run-tab")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        solver_panel::run_ui(ui, &view, &mut settings, commands);
                        self.solutions_ui(ui, commands);
                    });
                self.state.solver = settings;
            }
            DockTab::Debugger => {
                let cancelled = self.current_session().is_some_and(|session| {
                    matches!(
                        session.run.end(),
                        Some(RunEnd::Finished(report))
                            if matches!(report.outcome, crate::solver::Outcome::Cancelled)
                    )
                });
                self.engine_events_note_ui(ui);
                debugger::panel::debugger_ui(
                    ui,
                    self.derived.debugger(self.doc.revision()),
                    &mut self.state.debug,
                    running,
                    cancelled,
                    commands,
                );
            }
            DockTab::Tree => {
                debugger::tree::tree_ui(ui, self.derived.debugger(self.doc.revision()), commands);
            }
            DockTab::Overlays => {
                egui::ScrollArea::vertical()
                    .id_salt("overlays-tab")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        overlays::panel::overlay_toggles_ui(ui, &mut self.state.overlays);
                        self.empty_overlays_ui(ui);
                        if self.state.overlays.engine_drawing
                            && let Some((name, layer)) = self.engine_drawing()
                        {
                            overlays::assembly::engine_drawing_ui(ui, &name, &layer);
                        }
                        self.distance_map_ui(ui);
                        let tracker = self
                            .state
                            .overlays
                            .graph_edges
                            .then(|| self.derived.graph(self.doc.revision()))
                            .flatten();
                        ui.separator();
                        overlays::panel::overlays_ui(
                            ui,
                            &mut self.state.overlays,
                            tracker,
                            commands,
                        );
                        if let Some(tracker) = tracker {
                            overlays::panel::change_list_ui(ui, &self.doc.draft().board, tracker);
                        }
                    });
            }
            DockTab::Lesson => {
                lessons::lesson_tab_ui(ui, &self.lessons, &mut self.state.solver.solver, commands);
            }
        }
    }

    /// Says plainly that a debugged engine sends no node events, once its rows show that it
    /// is searching (or it has ended) without any: the debugger then has nothing to step.
    fn engine_events_note_ui(&self, ui: &mut egui::Ui) {
        let Some(session) = self.current_session() else {
            return;
        };
        let Some(debugger) = self.derived.debugger(self.doc.revision()) else {
            return;
        };
        let run = &session.run;
        if run.solver().is_engine()
            && debugger.frame().view.nodes == 0
            && (run.is_finished() || !run.rows().is_empty())
        {
            let palette = theme::palette(ui.visuals().dark_mode);
            ui.colored_label(
                palette.warning,
                "This engine sends no node events; only its rows are shown (in the Run tab).",
            );
        }
    }

    pub(in crate::app) fn plots_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        // Only the rows of a run on the board as it is now, as far as the debugger shows it.
        let current = self.plotted_run();
        let native_dialogs = self.use_native_dialogs();
        plots::plots_ui(
            ui,
            &self.plots,
            crate::solver::SOLVERS,
            current,
            native_dialogs,
            commands,
        );
    }
}

/// The File menu's items; the solution's animation only while one is shown.
fn file_menu_ui(ui: &mut egui::Ui, shown: bool, commands: &mut Vec<Command>) {
    use keys::{Action, hint};
    let mut item = |ui: &mut egui::Ui, label: &str, keys: String, command: Command| {
        menu_item(ui, commands, true, label, keys, command);
    };
    item(ui, "New...", hint(Action::New), Command::ShowNewWindow);
    item(ui, "Open...", hint(Action::Open), Command::OpenDialog);
    item(
        ui,
        "Open from boards/...",
        String::new(),
        Command::ShowOpenWindow,
    );
    item(ui, "Save", hint(Action::Save), Command::Save);
    item(
        ui,
        "Save as...",
        hint(Action::SaveAs),
        Command::SaveAs(SaveKind::Native),
    );
    ui.separator();
    item(
        ui,
        "Import game id or Cox text...",
        String::new(),
        Command::ShowImportWindow,
    );
    item(
        ui,
        "Export as Cox text...",
        String::new(),
        Command::SaveAs(SaveKind::Cox),
    );
    item(
        ui,
        "Export board image...",
        String::new(),
        Command::SaveAs(SaveKind::Image),
    );
    ui.add_enabled_ui(shown, |ui| {
        item(
            ui,
            "Export solution animation...",
            hint(Action::ExportAnimation),
            Command::ExportAnimation(AnimationSubject::Solution),
        );
    });
    item(ui, "Copy game id", String::new(), Command::CopyGameId);
    ui.separator();
    item(
        ui,
        "Quit",
        hint(Action::Quit),
        Command::Guarded(Pending::Quit),
    );
}

/// A menu entry that queues `command` and closes the menu when clicked, with its keys on the
/// right; announced by its name alone, so that tests and screen readers find "Save" rather
/// than "Save Ctrl+S".
fn menu_item(
    ui: &mut egui::Ui,
    commands: &mut Vec<Command>,
    enabled: bool,
    label: &str,
    keys: String,
    command: Command,
) {
    if menu_button(ui, enabled, label, keys).clicked() {
        commands.push(command);
        ui.close();
    }
}

/// The View menu's choice of robot colours, a check box between the game's colours and the
/// Okabe–Ito palette.
fn robot_palette_ui(ui: &mut egui::Ui, palette: &mut crate::print::colors::RobotPalette) {
    use crate::print::colors::RobotPalette;
    let mut safe = *palette == RobotPalette::OkabeIto;
    if ui
        .checkbox(&mut safe, "Colour-blind-safe robot colours")
        .on_hover_text("The Okabe–Ito colours, which stay apart for red–green colour blindness")
        .changed()
    {
        *palette = if safe {
            RobotPalette::OkabeIto
        } else {
            RobotPalette::Classic
        };
    }
}

fn menu_button(ui: &mut egui::Ui, enabled: bool, label: &str, keys: String) -> egui::Response {
    let mut button = egui::Button::new(label);
    if !keys.is_empty() {
        button = button.shortcut_text(keys);
    }
    let response = ui.add_enabled(enabled, button);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, label));
    response
}

#[cfg(test)]
mod tests {
    use super::DockTab;

    #[test]
    fn every_dock_tab_has_one_button_with_its_own_label() {
        for tab in DockTab::ALL {
            assert_eq!(DockTab::ALL.iter().filter(|t| **t == tab).count(), 1);
            assert_eq!(DockTab::ALL[tab.place()], tab);
        }
        let titles: Vec<&str> = DockTab::ALL.iter().map(|t| t.title()).collect();
        // The labels the UI tests click.
        assert_eq!(
            titles,
            ["Run", "Debugger", "Search tree", "Overlays", "Lesson"]
        );
    }
}
