//! The Experiments window: the thesis' study run from the app. The inputs of
//! `ricochet-lab experiment`, Start / Pause / Resume / Cancel, a progress bar with ETA, plots
//! that grow as rows arrive (time against required moves with its spread, hit rate per move
//! count, total hit rate, the distribution of required moves), the thesis' Tables 1 and 2, a
//! previous CSV to compare with, CSV and PNG export, and the configurations behind a point or
//! a table cell, each of which opens on the board.
//!
//! The experiment runs as one task of the worker layer ([`crate::worker::spawn_task`]) that
//! calls [`runner::run`], appends every row to the output CSV as it comes (so the file always
//! holds every finished run) and sends it to the window, which holds no thread of its own. Pause cancels the runs under way (each stops within its next time check and is
//! not recorded) and keeps every finished row; Resume reads the output file back and runs only
//! what is missing, the interrupted runs included, exactly as `--resume` does.

mod inputs;
mod plots;
mod run;
mod selection;
pub mod series;
mod settings;
mod tables;

use crate::app::command::{Command, Pending};
use crate::app::document::draft::Draft;
use crate::app::run::engines::EngineList;
use crate::app::theme;
use crate::model::Puzzle;
use crate::model::formats::{self, game_id};
use crate::solver::{self, Optimality, SOLVERS, SolverChoice, SolverId, SolverOptions, SolverPick};
use crate::study::experiment::record::{self, Record, ResultsWriter};
use crate::study::experiment::runner::{self, BoardSource, ExperimentConfig};
use crate::study::experiment::stats::{Summary, summarize};
use crate::worker::{Drained, Task, TaskLink, Waker, spawn_task};
use egui_plot::{
    AxisHints, Bar, BarChart, BoxElem, BoxPlot, BoxSpread, Corner, Legend, Line, LineStyle, Plot,
    PlotPoint, Points,
};
use inputs::{controls_ui, inputs_ui};
use plots::plots_ui;
use run::ActiveRun;
pub use run::{SettingsError, settings_config};
use selection::selection_ui;
use series::{Selection, SolverSeries};
pub use settings::ExperimentSettings;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tables::tables_ui;

/// How often the statistics are recomputed while rows stream in: often enough to look live,
/// rarely enough that a long run does not spend its frames summarising.
const SUMMARY_INTERVAL: Duration = Duration::from_millis(250);

/// How many rows the experiment's channel holds before the runner waits for the window: many
/// frames' worth, since an experiment on many threads finishes runs quickly.
const EXPERIMENT_CHANNEL: usize = 4096;

/// The most configurations listed for one selection (the list scrolls).
const LISTED_LIMIT: usize = 500;

/// Which part of the window shows below the inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tab {
    /// The four plots.
    Plots,
    /// The thesis' tables.
    Tables,
}

/// A previous results file shown beside the current one.
struct Comparison {
    name: String,
    summary: Summary,
}

/// The window's runtime state (its inputs are persisted in [`ExperimentSettings`]).
pub struct ExperimentsView {
    /// Whether the window is shown.
    pub open: bool,
    tab: Tab,
    optimal_only: bool,
    records: Vec<Record>,
    summary: Summary,
    summarised_rows: usize,
    summarised_at: Option<Instant>,
    /// The experiment the records belong to, when it was started here (a fixed board's
    /// configurations are dealt again from it).
    config: Option<ExperimentConfig>,
    output: Option<PathBuf>,
    total_runs: u64,
    run: Option<ActiveRun>,
    paused: bool,
    comparison: Option<Comparison>,
    selection: Option<Selection>,
    /// Solvers left out of the plots (clicked off in the legend).
    hidden: BTreeSet<String>,
    message: Option<(String, bool)>,
    /// Where the plots were drawn in the latest pass, shared with Export PNG's screenshot
    /// callback: the picture is of the frame that pass painted, so it is cut by that frame's
    /// rectangle, not by one from before a resize.
    plots_rect: Arc<Mutex<Option<egui::Rect>>>,
    png_result: Arc<Mutex<Option<anyhow::Result<PathBuf>>>>,
}

impl Default for ExperimentsView {
    fn default() -> Self {
        ExperimentsView {
            open: false,
            tab: Tab::Plots,
            optimal_only: false,
            records: Vec::new(),
            summary: Summary::default(),
            summarised_rows: 0,
            summarised_at: None,
            config: None,
            output: None,
            total_runs: 0,
            run: None,
            paused: false,
            comparison: None,
            selection: None,
            hidden: BTreeSet::new(),
            message: None,
            plots_rect: Arc::new(Mutex::new(None)),
            png_result: Arc::new(Mutex::new(None)),
        }
    }
}

impl ExperimentsView {
    /// Every row of the current experiment so far.
    pub fn records(&self) -> &[Record] {
        &self.records
    }

    /// The statistics of the rows (brought up to date at most every quarter second while a
    /// run streams, and at once when it ends).
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// Whether an experiment is running (or stopping).
    pub fn is_running(&self) -> bool {
        self.run.is_some()
    }

    /// Whether the last run was paused and can be resumed.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The window's last note or error.
    pub fn message(&self) -> Option<&str> {
        self.message.as_ref().map(|(text, _)| text.as_str())
    }

    /// The current selection (from a plot or a table).
    pub fn selection(&self) -> Option<&Selection> {
        self.selection.as_ref()
    }

    /// Shows a tab.
    pub(super) fn show_tab(&mut self, tab: Tab) {
        self.tab = tab;
    }

    /// Selects the least accurate solver at the move count where it misses most often (or,
    /// when every answer is optimal, the most common move count), as a user looking for a
    /// wrong answer would; the screenshot shows this.
    pub(super) fn select_for_screenshot(&mut self) {
        self.resummarise();
        let worst = self
            .summary
            .solvers
            .iter()
            .min_by(|a, b| a.hit_rate().total_cmp(&b.hit_rate()));
        let selection = worst.and_then(|s| {
            s.by_moves
                .iter()
                .max_by_key(|(m, b)| (b.runs - b.optimal, b.runs, std::cmp::Reverse(**m)))
                .map(|(m, _)| Selection {
                    solver: Some(s.solver.clone()),
                    moves: Some(*m),
                })
        });
        self.selection = selection;
    }

    pub(super) fn note(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), false));
    }

    pub(super) fn error(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), true));
    }

    /// The solvers clicked off in the plots' legend.
    pub fn hidden_solvers(&self) -> &BTreeSet<String> {
        &self.hidden
    }

    /// Opens a finished (or interrupted) results file as the current experiment, to look at
    /// its plots and tables and open its configurations, without running anything: for
    /// example a study made by `ricochet-lab experiment`. The inputs take the file's
    /// configuration count, seed and solvers, so Resume continues that experiment.
    pub(super) fn open_results(&mut self, path: &Path, settings: &mut ExperimentSettings) {
        if self.run.is_some() {
            self.error("Stop the running experiment before opening another results file.");
            return;
        }
        match record::read_records(path) {
            Ok(records) if records.is_empty() => {
                self.error(format!("{} holds no results yet.", path.display()))
            }
            Ok(records) => {
                let solvers: BTreeSet<&str> = records.iter().map(|r| r.solver.as_str()).collect();
                let configs: BTreeSet<u64> = records.iter().map(|r| r.config).collect();
                self.note(format!(
                    "Opened {}: {} rows, {} configurations, {} solvers.",
                    path.display(),
                    records.len(),
                    configs.len(),
                    solvers.len()
                ));
                if let Some(last) = configs.last() {
                    settings.configs = last + 1;
                }
                if let Some(first) = records.first()
                    && let Some(offset) = first.config_seed.checked_sub(first.config)
                    && offset % runner::SEED_STRIDE == 0
                {
                    settings.seed = offset / runner::SEED_STRIDE;
                }
                // The file's built-in solvers, in registry order. Its engines' rows show,
                // but they are not chosen for Resume: a name in a results file may be any
                // command line, not a registered engine.
                settings.solvers = SolverId::ALL
                    .into_iter()
                    .filter(|id| solvers.contains(id.name()))
                    .map(SolverPick::BuiltIn)
                    .collect();
                self.records = records;
                self.resummarise();
                // The file's own experiment is not known here: fixed-board rows without a
                // game id cannot be dealt again, which opening one of them explains.
                self.config = None;
                self.output = Some(path.to_path_buf());
                self.total_runs = 0;
                self.paused = false;
                self.selection = None;
            }
            Err(error) => self.error(format!("Cannot open {}: {error}", path.display())),
        }
    }

    /// Loads a previous results file to draw beside the current one.
    fn load_comparison(&mut self, path: &Path) {
        match record::read_records(path) {
            Ok(records) => {
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into(),
                );
                self.note(format!(
                    "Comparing with {name} ({} rows, dashed).",
                    records.len()
                ));
                self.comparison = Some(Comparison {
                    name,
                    summary: summarize(&records),
                });
            }
            Err(error) => self.error(format!("Cannot load {}: {error}", path.display())),
        }
    }

    /// Writes the rows (sorted by configuration and solver) atomically.
    fn export_csv(&mut self, path: &Path) {
        let mut rows = self.records.clone();
        rows.sort_by(|a, b| (a.config, &a.solver).cmp(&(b.config, &b.solver)));
        match formats::save_atomic(path, &record::records_to_csv(&rows)) {
            Ok(()) => self.note(format!(
                "Exported {} rows to {}.",
                rows.len(),
                path.display()
            )),
            Err(error) => self.error(format!("Cannot export to {}: {error}", path.display())),
        }
    }

    /// Records where the plots were drawn in this pass (`None`: they were not drawn).
    pub(super) fn set_plots_rect(&self, rect: Option<egui::Rect>) {
        if let Ok(mut slot) = self.plots_rect.lock() {
            *slot = rect;
        }
    }

    /// Asks for a screenshot of the next frame and writes the plots' part of it as a PNG.
    pub(super) fn export_png(&mut self, ctx: &egui::Context, path: PathBuf) {
        if self.plots_rect.lock().ok().and_then(|rect| *rect).is_none() {
            self.error("Show the plots first, then export them.");
            return;
        }
        let slot = Arc::clone(&self.png_result);
        let plots_rect = Arc::clone(&self.plots_rect);
        let waker = ctx.clone();
        let pixels_per_point = ctx.pixels_per_point();
        ctx.request_screenshot(move |image| {
            let result = match plots_rect.lock().ok().and_then(|rect| *rect) {
                Some(rect) => {
                    // Only what is on the screen can be taken: a part of the plots scrolled
                    // or cut off below the window is left out rather than read past the
                    // picture's end.
                    let [width, height] = image.size;
                    let screen = egui::Rect::from_min_size(
                        egui::Pos2::ZERO,
                        egui::vec2(width as f32, height as f32) / pixels_per_point,
                    )
                    .shrink(0.5);
                    let part = image.region(&rect.intersect(screen), Some(pixels_per_point));
                    crate::app::files::write_png(&part, &path).map(|()| path)
                }
                None => Err(anyhow::anyhow!(
                    "the plots were closed before their picture was taken"
                )),
            };
            if let Ok(mut slot) = slot.lock() {
                *slot = Some(result);
            }
            waker.request_repaint();
        });
        self.note("Taking a picture of the plots...");
    }

    pub(super) fn collect_png_result(&mut self) {
        let result = self.png_result.lock().ok().and_then(|mut slot| slot.take());
        match result {
            Some(Ok(path)) => self.note(format!("Wrote the plots to {}.", path.display())),
            Some(Err(error)) => self.error(format!("The plots could not be written: {error}")),
            None => {}
        }
    }

    /// The puzzle of one row, to open on the board.
    fn puzzle_of(&self, record: &Record) -> anyhow::Result<Puzzle> {
        if !record.puzzle.is_empty() {
            return game_id::parse(&record.puzzle).map_err(|e| {
                anyhow::anyhow!(
                    "configuration {}'s game id '{}' cannot be read: {e}",
                    record.config,
                    record.puzzle
                )
            });
        }
        match &self.config {
            Some(config)
                if runner::config_seed(config.seed, record.config) == record.config_seed =>
            {
                runner::config_puzzle(config, record.config)
                    .map_err(|e| anyhow::anyhow!("configuration {}: {e}", record.config))
            }
            _ => Err(anyhow::anyhow!(
                "configuration {} was dealt on a fixed board this window does not know; \
                 run the experiment from here to open its configurations",
                record.config
            )),
        }
    }
}

/// What the window reads from the rest of the app.
pub(super) struct WindowInputs<'a> {
    /// The open board, when it is a valid puzzle (for "The current board").
    pub(super) current_board: Option<&'a Puzzle>,
    /// The registered engines, listed beside the built-in solvers.
    pub(super) engines: &'a EngineList,
    /// Whether file dialogs are the system's own.
    pub(super) native_dialogs: bool,
}

/// Draws the window (when open) and handles its buttons.
pub(super) fn experiments_window(
    ctx: &egui::Context,
    view: &mut ExperimentsView,
    settings: &mut ExperimentSettings,
    inputs: WindowInputs<'_>,
    waker: Waker,
    commands: &mut Vec<Command>,
) {
    let WindowInputs {
        current_board,
        engines,
        native_dialogs,
    } = inputs;
    view.collect_png_result();
    if !view.open {
        view.set_plots_rect(None);
        return;
    }
    let mut open = view.open;
    let area = ctx.content_rect();
    let size = egui::vec2(
        (area.width() - 40.0).clamp(600.0, 1500.0),
        (area.height() - 80.0).clamp(420.0, 960.0),
    );
    egui::Window::new("Experiments")
        .open(&mut open)
        .default_size(size)
        .default_pos(egui::pos2(
            area.center().x - size.x / 2.0,
            area.top() + 30.0,
        ))
        .resizable(true)
        .collapsible(false)
        .show(ctx, |ui| {
            inputs_ui(ui, view, settings, current_board, engines, native_dialogs);
            controls_ui(
                ui,
                view,
                settings,
                current_board,
                engines,
                native_dialogs,
                &waker,
            );
            ui.separator();
            ui.horizontal(|ui| {
                ui.selectable_value(&mut view.tab, Tab::Plots, "Plots");
                ui.selectable_value(&mut view.tab, Tab::Tables, "Tables");
                ui.separator();
                ui.checkbox(&mut view.optimal_only, "Optimal runs only (Table 2)")
                    .on_hover_text("Average only the runs that found an optimal answer.");
            });
            // The configurations list gives up width first in a small window, so that the
            // plots keep room for the bars' names.
            let list_width = (ui.available_width() * 0.28).clamp(220.0, 340.0);
            let height = ui.available_height();
            ui.horizontal_top(|ui| {
                let main_width = (ui.available_width() - list_width - 12.0).max(300.0);
                ui.allocate_ui_with_layout(
                    egui::vec2(main_width, height),
                    egui::Layout::top_down(egui::Align::Min),
                    |ui| match view.tab {
                        // Every plot keeps a readable height; a short window scrolls them.
                        Tab::Plots => {
                            egui::ScrollArea::vertical()
                                .id_salt("experiment-plots")
                                .auto_shrink(false)
                                .show(ui, |ui| plots_ui(ui, view, native_dialogs));
                        }
                        Tab::Tables => {
                            view.set_plots_rect(None);
                            egui::ScrollArea::both()
                                .id_salt("experiment-tables")
                                .show(ui, |ui| tables_ui(ui, view));
                        }
                    },
                );
                ui.separator();
                ui.allocate_ui_with_layout(
                    egui::vec2(list_width, height),
                    egui::Layout::top_down(egui::Align::Min),
                    |ui| selection_ui(ui, view, commands),
                );
            });
        });
    view.open = open;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::run::engines::EngineListError;
    use crate::model::random::random_puzzle;

    /// Resolves built-in solvers only, as with no engine registered.
    fn built_in(pick: &SolverPick) -> Result<SolverChoice, EngineListError> {
        match pick {
            SolverPick::BuiltIn(id) => Ok(SolverChoice::BuiltIn(*id)),
            SolverPick::Engine(name) => Err(EngineListError::NotRegistered {
                name: name.to_string(),
                place: String::new(),
            }),
        }
    }

    fn settings(solvers: &[&str], baseline: &str) -> ExperimentSettings {
        ExperimentSettings {
            configs: 4,
            solvers: solvers.iter().map(|s| s.parse().unwrap()).collect(),
            baseline: baseline.parse().unwrap(),
            ..ExperimentSettings::default()
        }
    }

    #[test]
    fn settings_are_checked_as_the_command_line_checks_them() {
        let ok = settings_config(&settings(&["bfs", "iddfs"], "iddfs"), None, &built_in).unwrap();
        assert_eq!(ok.run_order(), vec!["iddfs".to_string(), "bfs".to_string()]);
        assert_eq!(ok.time_limit, Duration::from_secs(40));
        let none = settings_config(&settings(&[], "iddfs"), None, &built_in).unwrap_err();
        assert!(matches!(none, SettingsError::NoSolver), "{none}");
        let unknown =
            settings_config(&settings(&["bfs", "nope"], "iddfs"), None, &built_in).unwrap_err();
        assert!(unknown.to_string().contains("nope"), "{unknown}");
        let heuristic =
            settings_config(&settings(&["bfs"], "stateless"), None, &built_in).unwrap_err();
        assert!(
            matches!(heuristic, SettingsError::Invalid(_)),
            "{heuristic}"
        );
        let mut fixed = settings(&["bfs"], "iddfs");
        fixed.fixed_board = true;
        let no_board = settings_config(&fixed, None, &built_in).unwrap_err();
        assert!(matches!(no_board, SettingsError::NoBoard), "{no_board}");
        let mut zero_time = settings(&["bfs"], "iddfs");
        zero_time.time_limit_secs = 0.0;
        let zero = settings_config(&zero_time, None, &built_in).unwrap_err();
        assert!(matches!(zero, SettingsError::TimeLimit), "{zero}");
    }

    #[test]
    fn a_fixed_board_configuration_without_a_game_id_is_dealt_again() {
        // A 10x10 board has no game id, so its rows carry none.
        let board = random_puzzle(10, 10, 3, 6, 5).unwrap();
        let mut fixed = settings(&["bfs"], "iddfs");
        fixed.fixed_board = true;
        fixed.robots = 3;
        let config = settings_config(&fixed, Some(&board), &built_in).unwrap();
        let expected = runner::config_puzzle(&config, 2).unwrap();
        let record = Record::optimal_for_tests(2, config.seed, "bfs");
        let mut view = ExperimentsView::default();
        // Without the experiment it came from, the window says why it cannot open it.
        let unknown = view.puzzle_of(&record).unwrap_err();
        assert!(unknown.to_string().contains("fixed board"), "{unknown}");
        view.config = Some(config);
        assert_eq!(view.puzzle_of(&record).unwrap(), expected);
        // A row of another experiment (another seed) is not dealt from this one.
        let other = Record {
            config_seed: 12345,
            ..record
        };
        assert!(view.puzzle_of(&other).is_err());
    }
}
