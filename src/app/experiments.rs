//! The Experiments window: the thesis' study run from the app. The inputs of
//! `ricochet-lab experiment`, Start / Pause / Resume / Cancel, a progress bar with ETA, plots
//! that grow as rows arrive (time against required moves with its spread, hit rate per move
//! count, total hit rate, the distribution of required moves), the thesis' Tables 1 and 2, a
//! previous CSV to compare with, CSV and PNG export, and the configurations behind a point or
//! a table cell, each of which opens on the board.
//!
//! The experiment runs on one named thread that calls [`runner::run`], appends every row to
//! the output CSV as it comes (so the file always holds every finished run) and sends it to
//! the window. Pause cancels the runs under way (each stops within its next time check and is
//! not recorded) and keeps every finished row; Resume reads the output file back and runs only
//! what is missing, the interrupted runs included, exactly as `--resume` does.

pub mod series;

use super::draft::Draft;
use super::state::ExperimentSettings;
use super::{Command, Pending, plots, theme, widgets};
use crate::model::Puzzle;
use crate::model::formats::{self, game_id};
use crate::solver::{self, Optimality, SOLVERS, SolverOptions};
use crate::study::experiment::record::{self, Record, ResultsWriter};
use crate::study::experiment::runner::{self, BoardSource, ExperimentConfig};
use crate::study::experiment::stats::{Summary, summarize};
use crate::study::format::format_ms;
use egui_plot::{
    AxisHints, Bar, BarChart, BoxElem, BoxPlot, BoxSpread, Corner, Legend, Line, LineStyle, Plot,
    PlotPoint, Points,
};
use series::{Selection, SolverSeries};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the statistics are recomputed while rows stream in: often enough to look live,
/// rarely enough that a long run does not spend its frames summarising.
const SUMMARY_INTERVAL: Duration = Duration::from_millis(250);

/// The most configurations listed for one selection (the list scrolls).
const LISTED_LIMIT: usize = 500;

/// Which part of the window shows below the inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// The four plots.
    Plots,
    /// The thesis' tables.
    Tables,
}

/// Why a running experiment is being stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Pause,
    Cancel,
}

/// What the experiment thread sends to the window.
enum RunMessage {
    Row(Record),
    Finished(Result<(), String>),
}

/// An experiment under way on its thread.
struct ActiveRun {
    cancel: Arc<AtomicBool>,
    receiver: Receiver<RunMessage>,
    thread: Option<JoinHandle<()>>,
    started: Instant,
    /// Finished runs (inside the experiment) when this run started.
    done_at_start: u64,
    stopping: Option<Stop>,
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
    plots_rect: Option<egui::Rect>,
    png_result: Arc<Mutex<Option<Result<PathBuf, String>>>>,
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
            plots_rect: None,
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

    /// The tab shown.
    pub fn tab(&self) -> Tab {
        self.tab
    }

    /// Shows a tab.
    pub fn show_tab(&mut self, tab: Tab) {
        self.tab = tab;
    }

    /// Selects the least accurate solver at the move count where it misses most often (or,
    /// when every answer is optimal, the most common move count), as a user looking for a
    /// wrong answer would; the screenshot shows this.
    pub(crate) fn select_for_screenshot(&mut self) {
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

    fn note(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), false));
    }

    fn error(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), true));
    }

    /// Takes the rows the experiment thread has sent and notices its end. Called once per
    /// frame, also while the window is closed, so that a run keeps its rows flowing.
    pub fn drain(&mut self) {
        let mut finished = None;
        if let Some(run) = &mut self.run {
            for message in run.receiver.try_iter() {
                match message {
                    RunMessage::Row(record) => self.records.push(record),
                    RunMessage::Finished(result) => finished = Some(result),
                }
            }
        }
        if let Some(result) = finished
            && let Some(mut run) = self.run.take()
        {
            if let Some(thread) = run.thread.take()
                && thread.join().is_err()
            {
                self.error("The experiment thread stopped unexpectedly; the finished rows are kept in the output file.");
            }
            self.resummarise();
            let output = self
                .output
                .as_ref()
                .map_or_else(String::new, |p| p.display().to_string());
            let rows = self.records.len();
            match (result, run.stopping) {
                (Err(message), _) => self.error(format!("The experiment stopped: {message}")),
                (Ok(()), Some(Stop::Pause)) => {
                    self.paused = true;
                    self.note(format!(
                        "Paused with {rows} finished rows in {output}; Resume continues it."
                    ));
                }
                (Ok(()), Some(Stop::Cancel)) => self.note(format!(
                    "Cancelled; the {rows} finished rows are kept in {output}."
                )),
                (Ok(()), None) => self.note(format!("Finished: {rows} rows in {output}.")),
            }
        }
        let stale = self.records.len() != self.summarised_rows;
        let due = self
            .summarised_at
            .is_none_or(|at| at.elapsed() >= SUMMARY_INTERVAL);
        if stale && (due || self.run.is_none()) {
            self.resummarise();
        }
    }

    fn resummarise(&mut self) {
        self.summary = summarize(&self.records);
        self.summarised_rows = self.records.len();
        self.summarised_at = Some(Instant::now());
    }

    /// Runs (or, with `resume`, continues) the experiment the settings describe.
    pub fn start(
        &mut self,
        settings: &ExperimentSettings,
        current_board: Option<&Puzzle>,
        ctx: &egui::Context,
        resume: bool,
    ) {
        if self.run.is_some() {
            self.error("An experiment is already running.");
            return;
        }
        match self.try_start(settings, current_board, ctx, resume) {
            Ok(()) => {
                self.paused = false;
                self.note(if resume {
                    "Resumed the experiment."
                } else {
                    "Started the experiment."
                });
            }
            Err(message) => self.error(message),
        }
    }

    fn try_start(
        &mut self,
        settings: &ExperimentSettings,
        current_board: Option<&Puzzle>,
        ctx: &egui::Context,
        resume: bool,
    ) -> Result<(), String> {
        let config = settings_config(settings, current_board)?;
        let output = PathBuf::from(settings.out_path.trim());
        if output.as_os_str().is_empty() {
            return Err("Choose an output CSV file first.".into());
        }
        let exists = output.exists();
        if exists && !resume {
            return Err(format!(
                "{} already exists: choose another output file, or press Resume to continue it.",
                output.display()
            ));
        }
        let records = if exists {
            record::read_records(&output).map_err(|e| e.to_string())?
        } else {
            Vec::new()
        };
        runner::check_resume(&config, &records)?;
        let done = record::done_runs(&records);
        let writer = ResultsWriter::open(&output, exists).map_err(|e| e.to_string())?;
        let done_at_start = done.keys().filter(|(c, _)| *c < config.configs).count() as u64;

        let cancel = Arc::new(AtomicBool::new(false));
        let (sender, receiver) = channel();
        let thread = {
            let config = config.clone();
            let cancel = cancel.clone();
            let ctx = ctx.clone();
            std::thread::Builder::new()
                .name("experiment-runner".into())
                .spawn(move || run_thread(config, done, writer, cancel, sender, ctx))
                .map_err(|e| format!("The experiment thread could not be started: {e}"))?
        };
        self.total_runs = config.configs * config.run_order().len() as u64;
        self.records = records;
        self.resummarise();
        self.config = Some(config);
        self.output = Some(output);
        self.selection = None;
        self.run = Some(ActiveRun {
            cancel,
            receiver,
            thread: Some(thread),
            started: Instant::now(),
            done_at_start,
            stopping: None,
        });
        Ok(())
    }

    /// Stops the running experiment: the runs under way are cancelled and not recorded (a
    /// resumed experiment runs them again), every finished row is kept; `Stop::Pause` offers
    /// Resume afterwards.
    fn stop(&mut self, why: Stop) {
        if let Some(run) = &mut self.run {
            run.stopping.get_or_insert(why);
            run.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Pauses the running experiment.
    pub fn pause(&mut self) {
        self.stop(Stop::Pause);
    }

    /// Cancels the running experiment.
    pub fn cancel(&mut self) {
        self.stop(Stop::Cancel);
    }

    /// Finished runs of the experiment and its total, and the estimated time left.
    fn progress(&self) -> Option<(u64, u64, Option<Duration>)> {
        let configs = self.config.as_ref()?.configs;
        let done = self.records.iter().filter(|r| r.config < configs).count() as u64;
        let eta = self.run.as_ref().and_then(|run| {
            series::eta(
                run.started.elapsed(),
                done.saturating_sub(run.done_at_start),
                self.total_runs.saturating_sub(done),
            )
        });
        Some((done, self.total_runs, eta))
    }

    /// The solvers clicked off in the plots' legend.
    pub fn hidden_solvers(&self) -> &BTreeSet<String> {
        &self.hidden
    }

    /// Opens a finished (or interrupted) results file as the current experiment, to look at
    /// its plots and tables and open its configurations, without running anything: for
    /// example a study made by `ricochet-lab experiment`. The inputs take the file's
    /// configuration count, seed and solvers, so Resume continues that experiment.
    pub fn open_results(&mut self, path: &Path, settings: &mut ExperimentSettings) {
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
                settings.solvers = crate::solver::SOLVERS
                    .iter()
                    .map(|k| k.name)
                    .filter(|name| solvers.contains(name))
                    .map(str::to_string)
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

    /// Asks for a screenshot of the next frame and writes the plots' part of it as a PNG.
    pub(crate) fn export_png(&mut self, ctx: &egui::Context, path: PathBuf) {
        let Some(rect) = self.plots_rect else {
            self.error("Show the plots first, then export them.");
            return;
        };
        let slot = Arc::clone(&self.png_result);
        let waker = ctx.clone();
        let pixels_per_point = ctx.pixels_per_point();
        ctx.request_screenshot(move |image| {
            let part = image.region(&rect, Some(pixels_per_point));
            let result = super::screenshot::write_png(&part, &path).map(|()| path);
            if let Ok(mut slot) = slot.lock() {
                *slot = Some(result);
            }
            waker.request_repaint();
        });
        self.note("Taking a picture of the plots...");
    }

    fn collect_png_result(&mut self) {
        let result = self.png_result.lock().ok().and_then(|mut slot| slot.take());
        match result {
            Some(Ok(path)) => self.note(format!("Wrote the plots to {}.", path.display())),
            Some(Err(error)) => self.error(format!("The plots could not be written: {error}")),
            None => {}
        }
    }

    /// The puzzle of one row, to open on the board.
    fn puzzle_of(&self, record: &Record) -> Result<Puzzle, String> {
        if !record.puzzle.is_empty() {
            return game_id::parse(&record.puzzle).map_err(|e| {
                format!(
                    "configuration {}'s game id '{}' cannot be read: {e}",
                    record.config, record.puzzle
                )
            });
        }
        match &self.config {
            Some(config)
                if runner::config_seed(config.seed, record.config) == record.config_seed =>
            {
                runner::config_puzzle(config, record.config)
                    .map_err(|e| format!("configuration {}: {e}", record.config))
            }
            _ => Err(format!(
                "configuration {} was dealt on a fixed board this window does not know; \
                 run the experiment from here to open its configurations",
                record.config
            )),
        }
    }
}

/// The thread's body: runs the experiment, writing and sending each row as it comes.
fn run_thread(
    config: ExperimentConfig,
    done: std::collections::BTreeMap<(u64, String), Record>,
    mut writer: ResultsWriter,
    cancel: Arc<AtomicBool>,
    sender: Sender<RunMessage>,
    ctx: egui::Context,
) {
    let mut write_error = None;
    let result = runner::run(&config, &done, &cancel, |record| {
        if write_error.is_none()
            && let Err(error) = writer.append(&record)
        {
            write_error = Some(error.to_string());
            cancel.store(true, Ordering::Relaxed);
        }
        // The window may be gone when the app closes mid-run; the row is in the file anyway.
        let _ = sender.send(RunMessage::Row(record));
        ctx.request_repaint_after(Duration::from_millis(50));
    });
    let result = match write_error {
        Some(error) => Err(error),
        None => result,
    };
    let _ = sender.send(RunMessage::Finished(result));
    ctx.request_repaint();
}

/// The experiment the settings describe, checked the way the command line checks it.
pub fn settings_config(
    settings: &ExperimentSettings,
    current_board: Option<&Puzzle>,
) -> Result<ExperimentConfig, String> {
    let board = if settings.fixed_board {
        let puzzle = current_board.ok_or(
            "The current board is not a valid puzzle, so configurations cannot be dealt on it.",
        )?;
        BoardSource::Fixed(Box::new(puzzle.clone()))
    } else {
        BoardSource::Standard
    };
    if settings.solvers.is_empty() {
        return Err("Choose at least one solver to compare.".into());
    }
    if settings.configs == 0 {
        return Err("Choose at least one configuration.".into());
    }
    let time_limit = Duration::try_from_secs_f64(settings.time_limit_secs)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or("The time limit must be a positive number of seconds.")?;
    let config = ExperimentConfig {
        board,
        configs: settings.configs,
        seed: settings.seed,
        robots: settings.robots,
        solvers: settings.solvers.clone(),
        baseline: settings.baseline.clone(),
        options: SolverOptions::default(),
        time_limit,
        memory_limit: (settings.memory_limit_mib as usize).saturating_mul(1 << 20),
        threads: settings.threads.max(1),
    };
    config
        .validate()
        .map_err(|e| format!("The experiment cannot start: {e}."))?;
    Ok(config)
}

/// Draws the window (when open) and handles its buttons.
pub fn experiments_window(
    ctx: &egui::Context,
    view: &mut ExperimentsView,
    settings: &mut ExperimentSettings,
    current_board: Option<&Puzzle>,
    native_dialogs: bool,
    commands: &mut Vec<Command>,
) {
    view.collect_png_result();
    if !view.open {
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
            inputs_ui(ui, view, settings, current_board, native_dialogs);
            controls_ui(ui, view, settings, current_board, native_dialogs);
            ui.separator();
            ui.horizontal(|ui| {
                ui.selectable_value(&mut view.tab, Tab::Plots, "Plots");
                ui.selectable_value(&mut view.tab, Tab::Tables, "Tables");
                ui.separator();
                ui.checkbox(&mut view.optimal_only, "Optimal runs only (Table 2)")
                    .on_hover_text("Average only the runs that found an optimal answer.");
            });
            let list_width = 340.0;
            let height = ui.available_height();
            ui.horizontal_top(|ui| {
                let main_width = (ui.available_width() - list_width - 12.0).max(300.0);
                ui.allocate_ui_with_layout(
                    egui::vec2(main_width, height),
                    egui::Layout::top_down(egui::Align::Min),
                    |ui| match view.tab {
                        Tab::Plots => plots_ui(ui, view),
                        Tab::Tables => {
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

fn inputs_ui(
    ui: &mut egui::Ui,
    view: &mut ExperimentsView,
    settings: &mut ExperimentSettings,
    current_board: Option<&Puzzle>,
    native_dialogs: bool,
) {
    let running = view.run.is_some();
    ui.add_enabled_ui(!running, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label("Boards:");
            ui.radio_value(&mut settings.fixed_board, false, "Standard random boards");
            ui.add_enabled_ui(current_board.is_some(), |ui| {
                ui.radio_value(&mut settings.fixed_board, true, "The current board");
            });
            ui.separator();
            widgets::labeled_drag(ui, "Configurations", &mut settings.configs, 1..=1_000_000);
            widgets::labeled_drag(ui, "Seed", &mut settings.seed, 0..=u64::MAX);
            widgets::labeled_drag(ui, "Robots", &mut settings.robots, 1..=5);
            widgets::labeled_drag(ui, "Threads", &mut settings.threads, 1..=64);
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("Solvers:");
            for kind in SOLVERS {
                let mut chosen = settings.solvers.iter().any(|s| s == kind.name);
                if ui.checkbox(&mut chosen, kind.title).changed() {
                    settings.solvers.retain(|s| s != kind.name);
                    if chosen {
                        settings.solvers.push(kind.name.to_string());
                        // Registry order, so that the plots' colours and columns are stable.
                        settings.solvers.sort_by_key(|name| {
                            SOLVERS.iter().position(|k| k.name == name.as_str())
                        });
                    }
                }
            }
            ui.separator();
            let baseline_title = solver::kind(&settings.baseline).map_or("?", |k| k.title);
            egui::ComboBox::from_label("Baseline")
                .selected_text(baseline_title)
                .show_ui(ui, |ui| {
                    for kind in SOLVERS
                        .iter()
                        .filter(|k| k.optimality == Optimality::Guaranteed)
                    {
                        ui.selectable_value(
                            &mut settings.baseline,
                            kind.name.to_string(),
                            kind.title,
                        );
                    }
                });
        });
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Time limit per run");
            ui.add(
                egui::DragValue::new(&mut settings.time_limit_secs)
                    .range(0.01..=3600.0)
                    .speed(0.5)
                    .suffix(" s"),
            )
            .labelled_by(label.id);
            let label = ui.label("Memory limit per run");
            ui.add(
                egui::DragValue::new(&mut settings.memory_limit_mib)
                    .range(16..=1_048_576)
                    .speed(16)
                    .suffix(" MiB"),
            )
            .labelled_by(label.id);
            ui.separator();
            let label = ui.label("Output CSV");
            ui.add(egui::TextEdit::singleline(&mut settings.out_path).desired_width(260.0))
                .labelled_by(label.id);
            if native_dialogs
                && ui.button("Choose...").clicked()
                && let Some(path) = rfd::FileDialog::new()
                    .add_filter("CSV", &["csv"])
                    .set_file_name("experiment.csv")
                    .save_file()
            {
                settings.out_path = path.display().to_string();
            }
            if ui
                .add_enabled(view.run.is_none(), egui::Button::new("Open results"))
                .on_hover_text(
                    "Show the rows already in this CSV (from an earlier run here or from \
                     `ricochet-lab experiment`) without running anything.",
                )
                .clicked()
            {
                let path = pick_csv(native_dialogs, &mut settings.out_path);
                view.open_results(&path, settings);
            }
        });
    });
}

fn controls_ui(
    ui: &mut egui::Ui,
    view: &mut ExperimentsView,
    settings: &mut ExperimentSettings,
    current_board: Option<&Puzzle>,
    native_dialogs: bool,
) {
    let ctx = ui.ctx().clone();
    ui.horizontal_wrapped(|ui| {
        let running = view.run.is_some();
        let stopping = view.run.as_ref().is_some_and(|r| r.stopping.is_some());
        if ui
            .add_enabled(!running, egui::Button::new("Start"))
            .clicked()
        {
            view.start(settings, current_board, &ctx, false);
        }
        if ui
            .add_enabled(running && !stopping, egui::Button::new("Pause"))
            .on_hover_text(
                "Stop now, keeping every finished row; Resume continues from the output file \
                 and runs the interrupted configurations again.",
            )
            .clicked()
        {
            view.pause();
        }
        if ui
            .add_enabled(!running, egui::Button::new("Resume"))
            .on_hover_text(
                "Continue the experiment in the output file, skipping its finished rows.",
            )
            .clicked()
        {
            view.start(settings, current_board, &ctx, true);
        }
        if ui
            .add_enabled(running && !stopping, egui::Button::new("Cancel"))
            .clicked()
        {
            view.cancel();
        }
        if let Some((done, total, eta)) = view.progress() {
            let fraction = if total == 0 {
                1.0
            } else {
                done as f32 / total as f32
            };
            let mut text = format!("{done} / {total} runs");
            if let Some(eta) = eta {
                text.push_str(&format!(", ETA {}", format_eta(eta)));
            }
            if stopping {
                text.push_str(", stopping");
            }
            ui.add(
                egui::ProgressBar::new(fraction)
                    .desired_width(360.0)
                    .text(text)
                    .animate(running),
            );
        }
    });
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Compare with CSV");
        ui.add(egui::TextEdit::singleline(&mut settings.compare_path).desired_width(200.0))
            .labelled_by(label.id);
        if ui.button("Load CSV to compare").clicked() {
            let path = pick_csv(native_dialogs, &mut settings.compare_path);
            view.load_comparison(&path);
        }
        if view.comparison.is_some() && ui.button("Stop comparing").clicked() {
            view.comparison = None;
        }
        ui.separator();
        let label = ui.label("Export to");
        ui.add(egui::TextEdit::singleline(&mut settings.export_path).desired_width(200.0))
            .labelled_by(label.id);
        if native_dialogs
            && ui.button("Choose...").clicked()
            && let Some(path) = rfd::FileDialog::new()
                .add_filter("CSV or PNG", &["csv", "png"])
                .save_file()
        {
            settings.export_path = path.with_extension("").display().to_string();
        }
        let base = PathBuf::from(settings.export_path.trim());
        if ui
            .add_enabled(!view.records.is_empty(), egui::Button::new("Export CSV"))
            .clicked()
        {
            view.export_csv(&base.with_extension("csv"));
        }
        if ui
            .add_enabled(
                !view.records.is_empty() && view.tab == Tab::Plots,
                egui::Button::new("Export PNG"),
            )
            .on_hover_text("A picture of the four plots as they are shown.")
            .clicked()
        {
            view.export_png(&ctx, base.with_extension("png"));
        }
    });
    if let Some((text, error)) = &view.message {
        let color = if *error {
            ui.visuals().error_fg_color
        } else {
            ui.visuals().weak_text_color()
        };
        ui.colored_label(color, text);
    }
}

/// The CSV file a button opens: with the system's dialogs, the button asks for it and the
/// field keeps the answer; otherwise the field names it.
fn pick_csv(native_dialogs: bool, field: &mut String) -> PathBuf {
    if native_dialogs
        && let Some(path) = rfd::FileDialog::new()
            .add_filter("CSV", &["csv"])
            .pick_file()
    {
        *field = path.display().to_string();
    }
    PathBuf::from(field.trim())
}

/// "1 h 05 min", "3 min 20 s", "12 s".
pub fn format_eta(eta: Duration) -> String {
    let secs = eta.as_secs();
    if secs >= 3600 {
        format!("{} h {:02} min", secs / 3600, (secs % 3600) / 60)
    } else if secs >= 60 {
        format!("{} min {:02} s", secs / 60, secs % 60)
    } else {
        format!("{secs} s")
    }
}

/// A time given as log10 seconds, written for a person.
fn log_seconds_text(exponent: f64) -> String {
    let seconds = 10f64.powf(exponent).clamp(0.0, 1e9);
    widgets::format_duration(Duration::from_secs_f64(seconds))
}

fn legend() -> Legend {
    Legend::default()
        .follow_insertion_order(true)
        .position(Corner::LeftTop)
}

/// One legend for the four plots, above them: a plot's own legend of ten or more solvers
/// would cover its lines. A click on a solver hides it in every plot, or shows it again.
fn shared_legend_ui(ui: &mut egui::Ui, all: &[SolverSeries], hidden: &mut BTreeSet<String>) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Solvers (click to hide or show):");
        for s in all {
            let shown = !hidden.contains(&s.solver);
            let color = theme::series(s.color_index);
            let swatch = if shown {
                color
            } else {
                color.gamma_multiply(0.2)
            };
            let text_color = if shown {
                ui.visuals().text_color()
            } else {
                ui.visuals().weak_text_color()
            };
            // Swatch and name are one widget, so a wrapped row never parts them.
            let galley = ui.painter().layout_no_wrap(
                s.title.clone(),
                egui::TextStyle::Body.resolve(ui.style()),
                text_color,
            );
            let swatch_size = 12.0;
            let size = egui::vec2(
                swatch_size + 5.0 + galley.size().x,
                galley.size().y.max(swatch_size),
            );
            let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
            response.widget_info(|| {
                egui::WidgetInfo::selected(
                    egui::Role::CheckBox,
                    ui.is_enabled(),
                    shown,
                    format!("{} in the plots", s.title),
                )
            });
            if response.hovered() {
                ui.painter().rect_filled(
                    rect.expand(2.0),
                    3.0,
                    ui.visuals().widgets.hovered.bg_fill,
                );
            }
            let swatch_rect = egui::Rect::from_center_size(
                egui::pos2(rect.left() + swatch_size / 2.0, rect.center().y),
                egui::vec2(swatch_size, swatch_size),
            );
            ui.painter().rect_filled(swatch_rect, 2.0, swatch);
            ui.painter().galley(
                egui::pos2(
                    rect.left() + swatch_size + 5.0,
                    rect.center().y - galley.size().y / 2.0,
                ),
                galley,
                text_color,
            );
            let response = response.on_hover_text(format!(
                "{}: {:.1}% optimal; click to {} it in the plots",
                s.solver,
                s.total_hit_rate,
                if shown { "hide" } else { "show" }
            ));
            if response.clicked() && !hidden.remove(&s.solver) {
                hidden.insert(s.solver.clone());
            }
        }
        if !hidden.is_empty() && ui.small_button("Show all").clicked() {
            hidden.clear();
        }
    });
}

fn plots_ui(ui: &mut egui::Ui, view: &mut ExperimentsView) {
    // The exported picture starts above the legend, which names the plots' colours.
    let top = ui.cursor().min;
    let all = series::solver_series(&view.summary);
    shared_legend_ui(ui, &all, &mut view.hidden);
    let hidden = &view.hidden;
    let current: Vec<SolverSeries> = all
        .into_iter()
        .filter(|s| !hidden.contains(&s.solver))
        .collect();
    let compared = view.comparison.as_ref().map(|c| {
        let series = series::solver_series(&c.summary)
            .into_iter()
            .filter(|s| !hidden.contains(&s.solver))
            .collect::<Vec<_>>();
        (c.name.clone(), series)
    });
    let width = ui.available_width();
    let plot_height = ((ui.available_height() - 60.0) / 2.0).max(140.0);
    let mut clicked: Option<Selection> = None;
    ui.columns(2, |columns| {
        columns[0].label(if view.optimal_only {
            "Mean time of optimal runs against required moves (log), quartile boxes"
        } else {
            "Mean time against required moves (log), quartile boxes"
        });
        if let Some(s) = time_plot(
            &mut columns[0],
            &current,
            compared.as_ref(),
            view.optimal_only,
            plot_height,
        ) {
            clicked = Some(s);
        }
        columns[1].label("Hit rate (optimal answers) against required moves");
        if let Some(s) = hit_rate_plot(&mut columns[1], &current, compared.as_ref(), plot_height) {
            clicked = Some(s);
        }
    });
    ui.columns(2, |columns| {
        columns[0].label("Total hit rate per solver");
        if let Some(s) = total_hit_plot(&mut columns[0], &current, compared.as_ref(), plot_height) {
            clicked = Some(s);
        }
        columns[1].label("Configurations per required move count");
        let compared_distribution = view
            .comparison
            .as_ref()
            .map(|c| (c.name.clone(), series::distribution_points(&c.summary)));
        if let Some(s) = distribution_plot(
            &mut columns[1],
            &series::distribution_points(&view.summary),
            compared_distribution.as_ref(),
            plot_height,
        ) {
            clicked = Some(s);
        }
    });
    let bottom = ui.cursor().min.y;
    // A small margin so that the titles' first letters are in the picture.
    view.plots_rect =
        Some(egui::Rect::from_min_size(top, egui::vec2(width, bottom - top.y)).expand(12.0));
    if clicked.is_some() {
        view.selection = clicked;
    }
}

fn time_plot(
    ui: &mut egui::Ui,
    current: &[SolverSeries],
    compared: Option<&(String, Vec<SolverSeries>)>,
    optimal_only: bool,
    height: f32,
) -> Option<Selection> {
    let count = current.len().max(1) as f64;
    let response = Plot::new("experiment-time")
        .height(height)
        .x_axis_label("required moves")
        .y_axis_label("time")
        .y_grid_spacer(plots::whole_marks)
        .y_axis_formatter(|mark, _| plots::seconds_label(mark.value))
        .label_formatter(|hover| match hover {
            egui_plot::HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => Some(format!(
                "{plot_name}\n{:.0} moves, mean {}",
                position.x,
                log_seconds_text(position.y)
            )),
            egui_plot::HoverPosition::Elsewhere { .. } => None,
        })
        .include_y(-3.0)
        .include_y(0.0)
        .allow_scroll(false)
        .show(ui, |plot| {
            for (i, s) in current.iter().enumerate() {
                let color = theme::series(s.color_index);
                let means = if optimal_only {
                    &s.mean_optimal
                } else {
                    &s.mean_all
                };
                plot.add(
                    Line::new(s.title.clone(), means.clone())
                        .color(color)
                        .width(2.0),
                );
                plot.add(
                    Points::new(s.title.clone(), means.clone())
                        .color(color)
                        .radius(3.0),
                );
                if !optimal_only {
                    let offset = (i as f64 - (count - 1.0) / 2.0) * 0.8 / count;
                    let boxes = s
                        .spread
                        .iter()
                        .map(|(moves, q)| {
                            BoxElem::new(
                                moves + offset,
                                BoxSpread::new(q[0], q[1], q[2], q[3], q[4]),
                            )
                            .box_width(0.6 / count)
                            .whisker_width(0.4 / count)
                            .fill(color.gamma_multiply(0.25))
                            .stroke(egui::Stroke::new(1.0, color))
                        })
                        .collect();
                    let title = s.title.clone();
                    plot.add(
                        BoxPlot::new(s.title.clone(), boxes)
                            .color(color)
                            .element_formatter(Box::new(move |elem, _| {
                                let q = &elem.spread;
                                format!(
                                    "{}, {:.0} moves\nmax {}\nupper quartile {}\nmedian {}\nlower quartile {}\nmin {}",
                                    title,
                                    elem.argument.round(),
                                    log_seconds_text(q.upper_whisker),
                                    log_seconds_text(q.quartile3),
                                    log_seconds_text(q.median),
                                    log_seconds_text(q.quartile1),
                                    log_seconds_text(q.lower_whisker),
                                )
                            })),
                    );
                }
            }
            if let Some((name, series)) = compared {
                for s in series {
                    let means = if optimal_only {
                        &s.mean_optimal
                    } else {
                        &s.mean_all
                    };
                    plot.add(
                        Line::new(format!("{} ({name})", s.title), means.clone())
                            .color(theme::series(s.color_index))
                            .style(LineStyle::dashed_loose())
                            .width(1.5),
                    );
                }
            }
            clicked_point(plot)
        });
    response.inner.map(|point| {
        series::select_nearest(current, point.x, point.y, |s| {
            if optimal_only {
                &s.mean_optimal
            } else {
                &s.mean_all
            }
        })
    })
}

fn hit_rate_plot(
    ui: &mut egui::Ui,
    current: &[SolverSeries],
    compared: Option<&(String, Vec<SolverSeries>)>,
    height: f32,
) -> Option<Selection> {
    let response = Plot::new("experiment-hit-rate")
        .height(height)
        .x_axis_label("required moves")
        .y_axis_label("hit rate")
        .y_axis_formatter(|mark, _| format!("{:.0}%", mark.value))
        .include_y(0.0)
        .include_y(105.0)
        .allow_scroll(false)
        .show(ui, |plot| {
            for s in current {
                let color = theme::series(s.color_index);
                plot.add(
                    Line::new(s.title.clone(), s.hit_rate.clone())
                        .color(color)
                        .width(2.0),
                );
                plot.add(
                    Points::new(s.title.clone(), s.hit_rate.clone())
                        .color(color)
                        .radius(3.0),
                );
            }
            if let Some((name, series)) = compared {
                for s in series {
                    plot.add(
                        Line::new(format!("{} ({name})", s.title), s.hit_rate.clone())
                            .color(theme::series(s.color_index))
                            .style(LineStyle::dashed_loose())
                            .width(1.5),
                    );
                }
            }
            clicked_point(plot)
        });
    response
        .inner
        .map(|point| series::select_nearest(current, point.x, point.y, |s| &s.hit_rate))
}

fn total_hit_plot(
    ui: &mut egui::Ui,
    current: &[SolverSeries],
    compared: Option<&(String, Vec<SolverSeries>)>,
    height: f32,
) -> Option<Selection> {
    // Horizontal bars, so the solvers' names fit beside them on the axis, first at the top.
    let count = current.len();
    let row = move |i: usize| (count - 1 - i) as f64;
    let titles: Vec<String> = current.iter().map(|s| s.solver.clone()).collect();
    let response = Plot::new("experiment-total-hit-rate")
        .height(height)
        .x_axis_label("hit rate")
        .x_axis_formatter(|mark, _| format!("{:.0}%", mark.value))
        .custom_y_axes(vec![
            AxisHints::new_y()
                .formatter(move |mark, _| {
                    let index = mark.value.round();
                    if (mark.value - index).abs() < 1e-6 && index >= 0.0 && (index as usize) < count
                    {
                        titles
                            .get(count - 1 - index as usize)
                            .cloned()
                            .unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                // One name per bar, even when the bars are close together.
                .label_spacing(9.0..=12.0)
                .min_thickness(100.0),
        ])
        .y_grid_spacer(plots::whole_marks)
        .include_x(0.0)
        .include_x(112.0)
        .include_y(-0.6)
        .include_y(count.max(1) as f64 - 0.4)
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        .show(ui, |plot| {
            let width = if compared.is_some() { 0.4 } else { 0.7 };
            let shift = if compared.is_some() { 0.2 } else { 0.0 };
            for (i, s) in current.iter().enumerate() {
                let color = theme::series(s.color_index);
                let bar = Bar::new(row(i) + shift, s.total_hit_rate)
                    .width(width)
                    .fill(color)
                    .name(format!("{}: {:.1}%", s.title, s.total_hit_rate));
                plot.add(
                    BarChart::new(s.title.clone(), vec![bar])
                        .horizontal()
                        .color(color),
                );
                plot.add(
                    egui_plot::Text::new(
                        format!("{} rate", s.title),
                        PlotPoint::new(s.total_hit_rate + 1.5, row(i) + shift),
                        format!("{:.1}%", s.total_hit_rate),
                    )
                    .anchor(egui::Align2::LEFT_CENTER)
                    .color(color),
                );
            }
            if let Some((name, series)) = compared {
                for s in series {
                    let Some(i) = current.iter().position(|c| c.solver == s.solver) else {
                        continue;
                    };
                    let color = theme::series(s.color_index);
                    let bar = Bar::new(row(i) - 0.2, s.total_hit_rate)
                        .width(width)
                        .fill(color.gamma_multiply(0.35))
                        .stroke(egui::Stroke::new(1.0, color))
                        .name(format!("{} ({name}): {:.1}%", s.title, s.total_hit_rate));
                    plot.add(BarChart::new(name.clone(), vec![bar]).horizontal());
                }
            }
            clicked_point(plot)
        });
    let point = response.inner?;
    let index = point.y.round();
    (index >= 0.0 && (index as usize) < count)
        .then(|| current.get(count - 1 - index as usize))
        .flatten()
        .map(|s| Selection {
            solver: Some(s.solver.clone()),
            moves: None,
        })
}

fn distribution_plot(
    ui: &mut egui::Ui,
    distribution: &[[f64; 2]],
    compared: Option<&(String, Vec<[f64; 2]>)>,
    height: f32,
) -> Option<Selection> {
    let response = Plot::new("experiment-distribution")
        .height(height)
        .legend(legend().position(Corner::RightTop))
        .x_axis_label("required moves")
        .y_axis_label("configurations")
        .include_y(0.0)
        .allow_scroll(false)
        .show(ui, |plot| {
            let bars = distribution
                .iter()
                .map(|[moves, count]| {
                    Bar::new(*moves, *count)
                        .width(0.7)
                        .name(format!("{moves:.0} moves: {count:.0} configurations"))
                })
                .collect();
            plot.add(BarChart::new("this experiment", bars).color(theme::series(7)));
            if let Some((name, points)) = compared {
                plot.add(
                    Line::new(name.clone(), points.clone())
                        .color(theme::series(3))
                        .style(LineStyle::dashed_loose())
                        .width(1.5),
                );
            }
            clicked_point(plot)
        });
    let point = response.inner?;
    let moves = point.x.round();
    (moves >= 0.0).then_some(Selection {
        solver: None,
        moves: Some(moves as u32),
    })
}

/// Where the plot was clicked, in plot coordinates.
fn clicked_point(plot: &egui_plot::PlotUi<'_>) -> Option<PlotPoint> {
    if plot.response().clicked() {
        plot.pointer_coordinate()
    } else {
        None
    }
}

fn cell_button(ui: &mut egui::Ui, text: String, selected: bool) -> bool {
    ui.selectable_label(selected, text).clicked()
}

fn tables_ui(ui: &mut egui::Ui, view: &mut ExperimentsView) {
    let summary = &view.summary;
    if summary.distribution.is_empty() {
        ui.label("No results yet: start an experiment.");
        return;
    }
    let mut clicked: Option<Selection> = None;
    let selected = view.selection.clone();
    let is_selected = |solver: Option<&str>, moves: Option<u32>| {
        selected
            .as_ref()
            .is_some_and(|s| s.solver.as_deref() == solver && s.moves == moves)
    };
    // Columns in registry order, as the plots' legends are.
    let mut solvers: Vec<&crate::study::experiment::stats::SolverSummary> =
        summary.solvers.iter().collect();
    solvers.sort_by_key(|s| {
        SOLVERS
            .iter()
            .position(|k| k.name == s.solver)
            .unwrap_or(SOLVERS.len())
    });
    let titles: Vec<&str> = solvers
        .iter()
        .map(|s| solver::kind(&s.solver).map_or(s.solver.as_str(), |k| k.title))
        .collect();
    let total: u64 = summary.distribution.values().sum();
    let tables: [(&str, &str, CellText); 3] = [
        (
            "Table 1: mean time over every run, per required move count",
            "table-all",
            |b| format_ms(b.mean_all_ms),
        ),
        (
            "Table 2: mean time over the optimal runs only",
            "table-optimal",
            |b| b.mean_optimal_ms.map_or("-".into(), format_ms),
        ),
        (
            "Hit rate (share of optimal answers) per required move count",
            "table-hit-rate",
            |b| format!("{:.1}%", 100.0 * b.hit_rate()),
        ),
    ];
    for (title, id, cell) in tables {
        ui.strong(title);
        egui::Grid::new(id).striped(true).show(ui, |ui| {
            ui.label("Moves");
            ui.label("Configs");
            for t in &titles {
                ui.label(*t);
            }
            ui.end_row();
            for (moves, count) in &summary.distribution {
                if cell_button(ui, moves.to_string(), is_selected(None, Some(*moves))) {
                    clicked = Some(Selection {
                        solver: None,
                        moves: Some(*moves),
                    });
                }
                ui.label(format!(
                    "{count} ({:.1}%)",
                    100.0 * *count as f64 / total.max(1) as f64
                ));
                for s in &solvers {
                    match s.by_moves.get(moves) {
                        Some(bucket) => {
                            if cell_button(
                                ui,
                                cell(bucket),
                                is_selected(Some(&s.solver), Some(*moves)),
                            ) {
                                clicked = Some(Selection {
                                    solver: Some(s.solver.clone()),
                                    moves: Some(*moves),
                                });
                            }
                        }
                        None => {
                            ui.label("-");
                        }
                    }
                }
                ui.end_row();
            }
            if id == "table-hit-rate" {
                ui.strong("Total");
                ui.label(total.to_string());
                for s in &solvers {
                    if cell_button(
                        ui,
                        format!("{:.1}%", 100.0 * s.hit_rate()),
                        is_selected(Some(&s.solver), None),
                    ) {
                        clicked = Some(Selection {
                            solver: Some(s.solver.clone()),
                            moves: None,
                        });
                    }
                }
                ui.end_row();
            }
        });
        ui.add_space(8.0);
    }
    if summary.unknown_configs > 0 {
        ui.label(format!(
            "{} configurations have no required move count: the baseline did not finish them.",
            summary.unknown_configs
        ));
    }
    ui.strong("Runs by status");
    egui::Grid::new("table-statuses")
        .striped(true)
        .show(ui, |ui| {
            ui.label("Solver");
            ui.label("Statuses");
            ui.end_row();
            for (s, title) in solvers.iter().zip(&titles) {
                ui.label(*title);
                let text: Vec<String> = s
                    .statuses
                    .iter()
                    .map(|(status, n)| format!("{} {n}", status.name()))
                    .collect();
                ui.label(text.join(", "));
                ui.end_row();
            }
        });
    if clicked.is_some() {
        view.selection = clicked;
    }
}

/// How a table writes one bucket.
type CellText = fn(&crate::study::experiment::stats::Bucket) -> String;

fn selection_ui(ui: &mut egui::Ui, view: &mut ExperimentsView, commands: &mut Vec<Command>) {
    ui.strong("Configurations");
    let Some(selection) = view.selection.clone() else {
        ui.label("Click a point, a bar or a table cell to list its configurations.");
        return;
    };
    ui.label(selection.describe());
    let rows = series::selected_records(&view.records, &selection);
    ui.label(format!(
        "{} run{}{}",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" },
        if rows.len() > LISTED_LIMIT {
            format!(", the first {LISTED_LIMIT} listed")
        } else {
            String::new()
        }
    ));
    if ui.button("Clear selection").clicked() {
        view.selection = None;
        return;
    }
    let mut open: Option<Record> = None;
    egui::ScrollArea::vertical()
        .id_salt("experiment-selection")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for record in rows.iter().take(LISTED_LIMIT) {
                let title =
                    solver::kind(&record.solver).map_or(record.solver.as_str(), |k| k.title);
                let required = record
                    .required_moves
                    .map_or("?".to_string(), |m| m.to_string());
                let found = record
                    .found_moves
                    .map_or("-".to_string(), |m| m.to_string());
                let text = format!(
                    "#{} {title}: {found} moves ({required} required), {}, {}",
                    record.config,
                    record.status.name(),
                    format_ms(record.millis)
                );
                if ui
                    .button(text)
                    .on_hover_text("Open this configuration on the board")
                    .clicked()
                {
                    open = Some((*record).clone());
                }
            }
        });
    if let Some(record) = open {
        match view.puzzle_of(&record) {
            Ok(puzzle) => commands.push(Command::Guarded(Pending::Replace(
                Box::new(Draft::from_puzzle(&puzzle)),
                format!("experiment configuration {}", record.config),
            ))),
            Err(error) => view.error(super::capital(&error)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::random::random_puzzle;
    use crate::study::experiment::Status;

    fn settings(solvers: &[&str], baseline: &str) -> ExperimentSettings {
        ExperimentSettings {
            configs: 4,
            solvers: solvers.iter().map(|s| s.to_string()).collect(),
            baseline: baseline.into(),
            ..ExperimentSettings::default()
        }
    }

    #[test]
    fn settings_are_checked_as_the_command_line_checks_them() {
        let ok = settings_config(&settings(&["bfs", "iddfs"], "iddfs"), None).unwrap();
        assert_eq!(ok.run_order(), vec!["iddfs".to_string(), "bfs".to_string()]);
        assert_eq!(ok.time_limit, Duration::from_secs(40));
        let none = settings_config(&settings(&[], "iddfs"), None).unwrap_err();
        assert!(none.contains("at least one solver"), "{none}");
        let unknown = settings_config(&settings(&["bfs", "nope"], "iddfs"), None).unwrap_err();
        assert!(unknown.contains("nope"), "{unknown}");
        let heuristic = settings_config(&settings(&["bfs"], "stateless"), None).unwrap_err();
        assert!(heuristic.contains("optimal"), "{heuristic}");
        let mut fixed = settings(&["bfs"], "iddfs");
        fixed.fixed_board = true;
        let no_board = settings_config(&fixed, None).unwrap_err();
        assert!(no_board.contains("current board"), "{no_board}");
        let mut zero_time = settings(&["bfs"], "iddfs");
        zero_time.time_limit_secs = 0.0;
        assert!(settings_config(&zero_time, None).is_err());
    }

    #[test]
    fn a_fixed_board_configuration_without_a_game_id_is_dealt_again() {
        // A 10x10 board has no game id, so its rows carry none.
        let board = random_puzzle(10, 10, 3, 6, 5).unwrap();
        let mut fixed = settings(&["bfs"], "iddfs");
        fixed.fixed_board = true;
        fixed.robots = 3;
        let config = settings_config(&fixed, Some(&board)).unwrap();
        let expected = runner::config_puzzle(&config, 2).unwrap();
        let record = Record {
            config: 2,
            config_seed: runner::config_seed(config.seed, 2),
            puzzle: String::new(),
            solver: "bfs".into(),
            required_moves: Some(3),
            found_moves: Some(3),
            status: Status::Optimal,
            millis: 1.0,
            nodes: 10,
            peak_memory_bytes: 0,
        };
        let mut view = ExperimentsView::default();
        // Without the experiment it came from, the window says why it cannot open it.
        let unknown = view.puzzle_of(&record).unwrap_err();
        assert!(unknown.contains("fixed board"), "{unknown}");
        view.config = Some(config);
        assert_eq!(view.puzzle_of(&record).unwrap(), expected);
        // A row of another experiment (another seed) is not dealt from this one.
        let other = Record {
            config_seed: 12345,
            ..record
        };
        assert!(view.puzzle_of(&other).is_err());
    }

    #[test]
    fn eta_is_written_in_hours_minutes_or_seconds() {
        assert_eq!(format_eta(Duration::from_secs(12)), "12 s");
        assert_eq!(format_eta(Duration::from_secs(200)), "3 min 20 s");
        assert_eq!(format_eta(Duration::from_secs(3900)), "1 h 05 min");
    }
}
