//! The Matches window: `ricochet-lab match` in the app. Two or more solvers or registered
//! engines over a suite file, run on a named thread (`match-run`, which starts the match's own
//! workers), with a live plot of the paired time ratio and its 95% interval as puzzles finish,
//! the report when it ends, and Cancel heard at once (runs cut short are not counted).

use crate::app::run::engines::EngineList;
use crate::app::run::plot_export;
use crate::print::chart::{Axis, Chart, Data, Series, Ticks, series_rgb};
use crate::solver::SolverPick;
use crate::study::matches::run::{MatchConfig, MatchError, run_match};
use crate::study::matches::stats::Sprt;
use crate::study::matches::{self, MatchReport};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, sync_channel};
use std::time::{Duration, Instant};

/// One point of the live plot: the ratio and its interval after so many complete puzzles.
#[derive(Clone, Copy, Debug, PartialEq)]
struct RatioPoint {
    puzzles: usize,
    ratio: f64,
    low: f64,
    high: f64,
}

/// What the match thread tells the window.
enum Update {
    /// A puzzle finished: the report so far.
    Progress(MatchReport),
    /// The match ended: its report and why it stopped early, or why it could not run.
    Finished(Result<(MatchReport, Option<&'static str>), MatchError>),
}

/// A match under way.
struct Running {
    receiver: Receiver<Update>,
    cancel: Arc<AtomicBool>,
    started: Instant,
}

/// The Matches window's state.
pub(super) struct MatchesWindow {
    /// Whether it shows.
    pub(super) open: bool,
    suite: String,
    solvers: String,
    concurrency: usize,
    time_limit_secs: u64,
    stop_when_decided: bool,
    running: Option<Running>,
    report: Option<MatchReport>,
    history: Vec<RatioPoint>,
    /// Why the last match could not start or ended early, or how it ended.
    note: Option<(bool, String)>,
}

impl Default for MatchesWindow {
    fn default() -> MatchesWindow {
        MatchesWindow {
            open: false,
            suite: "boards/suites/length-06.suite".into(),
            solvers: "fast,iddfs".into(),
            concurrency: 1,
            time_limit_secs: 60,
            stop_when_decided: false,
            running: None,
            report: None,
            history: Vec::new(),
            note: None,
        }
    }
}

impl MatchesWindow {
    /// Starts a match of the fields' solvers over the fields' suite.
    fn start(&mut self, engines: &EngineList, ctx: &egui::Context) {
        self.note = None;
        let suite = match matches::load_suite(&PathBuf::from(self.suite.trim())) {
            Ok(suite) => suite,
            Err(error) => {
                self.note = Some((true, error.to_string()));
                return;
            }
        };
        let mut solvers = Vec::new();
        for name in self
            .solvers
            .split(',')
            .map(str::trim)
            .filter(|n| !n.is_empty())
        {
            let choice = SolverPick::from_name(name)
                .map_err(|e| e.to_string())
                .and_then(|pick| engines.resolve(&pick).map_err(|e| e.to_string()));
            match choice {
                Ok(choice) if !solvers.contains(&choice) => solvers.push(choice),
                Ok(_) => {}
                Err(error) => {
                    self.note = Some((true, error));
                    return;
                }
            }
        }
        if solvers.len() < 2 {
            self.note = Some((
                true,
                "Name two or more solvers, separated by commas.".into(),
            ));
            return;
        }
        let config = MatchConfig {
            solvers,
            concurrency: self.concurrency.max(1),
            time_limit: Some(Duration::from_secs(self.time_limit_secs.max(1))),
            threads: None,
            out: None,
            resume: false,
            stop_when_decided: self.stop_when_decided.then(Sprt::default),
            shard: crate::study::experiment::Shard::WHOLE,
        };
        let cancel = Arc::new(AtomicBool::new(false));
        // Bounded: progress is dropped when the window is behind, the end never is.
        let (sender, receiver) = sync_channel(64);
        let flag = cancel.clone();
        let waker = ctx.clone();
        let started = std::thread::Builder::new()
            .name("match-run".into())
            .spawn(move || {
                let names: Vec<String> = config
                    .solvers
                    .iter()
                    .map(|s| s.name().to_string())
                    .collect();
                let ids: Vec<String> = suite.iter().map(|e| e.id.clone()).collect();
                let progress_sender = sender.clone();
                let progress_waker = waker.clone();
                let mut progress = |p: &matches::run::Progress| {
                    let report = matches::report(&ids, &names, p.records, None);
                    // A full channel means the window has not drawn the last ones yet.
                    let _ = progress_sender.try_send(Update::Progress(report));
                    progress_waker.request_repaint();
                };
                let ended = run_match(&suite, &config, &flag, &mut progress).map(|result| {
                    let report = matches::report(
                        &ids,
                        &names,
                        &result.records,
                        config.stop_when_decided.as_ref(),
                    );
                    (report, result.stopped)
                });
                // The window may have been closed: then nobody waits for the end.
                let _ = sender.send(Update::Finished(ended));
                waker.request_repaint();
            });
        match started {
            Ok(_) => {
                self.report = None;
                self.history.clear();
                self.running = Some(Running {
                    receiver,
                    cancel,
                    started: Instant::now(),
                });
            }
            Err(error) => {
                self.note = Some((true, format!("The match could not be started: {error}")));
            }
        }
    }

    /// Takes what the match thread sent since the last frame.
    fn drain(&mut self) {
        loop {
            let Some(running) = &self.running else {
                return;
            };
            match running.receiver.try_recv() {
                Ok(Update::Progress(report)) => self.take(report),
                Ok(Update::Finished(ended)) => {
                    match ended {
                        Ok((report, stopped)) => {
                            let note = match stopped {
                                Some("cancelled") => {
                                    "Cancelled: the report covers the runs that finished."
                                }
                                Some("decided") => "Stopped once the sequential test decided.",
                                _ => "The match is over.",
                            };
                            self.note = Some((false, note.to_string()));
                            self.take(report);
                        }
                        Err(error) => self.note = Some((true, error.to_string())),
                    }
                    self.running = None;
                    return;
                }
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.note = Some((true, "The match ended without a report.".into()));
                    self.running = None;
                    return;
                }
            }
        }
    }

    /// Keeps a report and adds its first pair's ratio to the plot.
    fn take(&mut self, report: MatchReport) {
        if let Some(pair) = report.pairs.first()
            && let (Some(ratio), Some((low, high))) = (pair.ratio, pair.interval)
            && self
                .history
                .last()
                .is_none_or(|p| p.puzzles != pair.puzzles)
        {
            self.history.push(RatioPoint {
                puzzles: pair.puzzles,
                ratio,
                low,
                high,
            });
        }
        self.report = Some(report);
    }
}

/// The Matches window, when it is open.
pub(in crate::app) fn matches_window(
    ctx: &egui::Context,
    window: &mut MatchesWindow,
    engines: &EngineList,
    native_dialogs: bool,
) {
    window.drain();
    if !window.open {
        return;
    }
    let mut open = true;
    egui::Window::new("Matches")
        .open(&mut open)
        .default_width(640.0)
        .resizable(true)
        .collapsible(false)
        .show(ctx, |ui| {
            let running = window.running.is_some();
            egui::Grid::new("match-fields")
                .num_columns(2)
                .spacing([8.0, 6.0])
                .show(ui, |ui| {
                    let label = ui.label("Suite");
                    ui.add_enabled(
                        !running,
                        egui::TextEdit::singleline(&mut window.suite).desired_width(360.0),
                    )
                    .labelled_by(label.id);
                    ui.end_row();
                    let label = ui.label("Solvers");
                    ui.add_enabled(
                        !running,
                        egui::TextEdit::singleline(&mut window.solvers)
                            .hint_text("fast,iddfs")
                            .desired_width(360.0),
                    )
                    .labelled_by(label.id)
                    .on_hover_text("Built-in solvers or registered engines, comma-separated; the others' times are over the first's");
                    ui.end_row();
                    let label = ui.label("Concurrency");
                    ui.add_enabled(
                        !running,
                        egui::DragValue::new(&mut window.concurrency).range(1..=16),
                    )
                    .labelled_by(label.id);
                    ui.end_row();
                    let label = ui.label("Time limit (s)");
                    ui.add_enabled(
                        !running,
                        egui::DragValue::new(&mut window.time_limit_secs).range(1..=3600),
                    )
                    .labelled_by(label.id);
                    ui.end_row();
                });
            ui.add_enabled(
                !running,
                egui::Checkbox::new(
                    &mut window.stop_when_decided,
                    "Stop when decided (a 5% margin, α = β = 0.05)",
                ),
            );
            ui.horizontal(|ui| {
                if ui.add_enabled(!running, egui::Button::new("Start")).clicked() {
                    window.start(engines, ctx);
                }
                if ui.add_enabled(running, egui::Button::new("Cancel")).clicked()
                    && let Some(run) = &window.running
                {
                    run.cancel.store(true, Ordering::Relaxed);
                }
                if let Some(run) = &window.running {
                    let done = window.report.as_ref().map_or(0, |r| r.complete);
                    ui.label(format!(
                        "Running for {:.0} s: {done} puzzles done",
                        run.started.elapsed().as_secs_f64()
                    ));
                    ctx.request_repaint_after(Duration::from_millis(250));
                }
            });
            if let Some((error, text)) = &window.note {
                let palette = crate::app::theme::palette(ctx.global_style().visuals.dark_mode);
                let color = if *error { palette.error } else { palette.muted };
                ui.colored_label(color, text);
            }
            if !window.history.is_empty() {
                let pair = window
                    .report
                    .as_ref()
                    .and_then(|r| r.pairs.first())
                    .map(|p| format!("{} over {}", p.other, p.base));
                let title = ratio_title(pair.as_deref());
                if let Some(path) =
                    plot_export::title_row_ui(ui, &title, None, "match-ratio", true, native_dialogs)
                {
                    let chart = ratio_chart(&title, &window.history);
                    window.note = Some(match plot_export::write_chart(&chart, &path) {
                        Ok(note) => (false, note),
                        Err(error) => (true, error.to_string()),
                    });
                }
                ratio_plot_ui(ui, &window.history);
            }
            if let Some(report) = &window.report {
                egui::ScrollArea::vertical().max_height(260.0).show(ui, |ui| {
                    ui.add(
                        egui::Label::new(egui::RichText::new(report.text()).monospace())
                            .selectable(true),
                    );
                });
            }
        });
    if !open {
        window.open = false;
    }
}

/// The ratio plot's title, naming the pair when it is known.
fn ratio_title(pair: Option<&str>) -> String {
    match pair {
        Some(pair) => format!("Time ratio of {pair} and its 95% interval"),
        None => "Time ratio and its 95% interval".to_string(),
    }
}

/// The ratio plot as a chart to export: the ratio, its interval's ends and the line of equal
/// times.
fn ratio_chart(title: &str, history: &[RatioPoint]) -> Chart {
    let points = |value: fn(&RatioPoint) -> f64| -> Vec<[f64; 2]> {
        history
            .iter()
            .map(|p| [p.puzzles as f64, value(p)])
            .collect()
    };
    let line = |points| Data::Line {
        points,
        dashed: false,
    };
    Chart {
        title: title.to_string(),
        x: Axis::new("puzzles finished by both", Ticks::Numbers),
        y: Axis::new("time ratio", Ticks::Numbers),
        series: vec![
            Series::new("ratio", series_rgb(0), line(points(|p| p.ratio))),
            Series::new("95% low", series_rgb(1), line(points(|p| p.low))),
            Series::new("95% high", series_rgb(2), line(points(|p| p.high))),
            Series::new("equal", series_rgb(3), Data::HLine(1.0)),
        ],
    }
}

/// The ratio of the first pair and its interval against the puzzles done.
fn ratio_plot_ui(ui: &mut egui::Ui, history: &[RatioPoint]) {
    let points = |value: fn(&RatioPoint) -> f64| -> Vec<[f64; 2]> {
        history
            .iter()
            .map(|p| [p.puzzles as f64, value(p)])
            .collect()
    };
    egui_plot::Plot::new("match-ratio")
        .height(180.0)
        .x_axis_label("puzzles finished by both")
        .y_axis_label("time ratio")
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(egui_plot::Line::new("ratio", points(|p| p.ratio)));
            plot.line(egui_plot::Line::new("95% low", points(|p| p.low)));
            plot.line(egui_plot::Line::new("95% high", points(|p| p.high)));
            plot.hline(egui_plot::HLine::new("equal", 1.0));
        });
}
