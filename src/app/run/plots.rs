//! Live plots: time against move count for every solve since the app started (one series per
//! solver, log time axis), and nodes per depth of the current run (log scale), growing as the
//! run's rows arrive.

use crate::app::command::Command;
use crate::app::run::plot_export::{self, rgb};
use crate::app::theme;
use crate::app::widgets;
use crate::print::chart::{Axis, Chart, Data, Series, Ticks};
use crate::solver::{Columns, SolverKind};
use crate::worker::DepthRow;
use egui_plot::{GridInput, GridMark, Line, MarkerShape, Plot, PlotPoint, Points};

/// One finished solve: which solver, how many moves, how long.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::app) struct SolvePoint {
    /// The puzzle it solved: its file's name, the name it was made with, or its game id.
    pub(in crate::app) puzzle: String,
    /// The solver's name: a built-in solver's command-line name, an engine's registered name.
    pub(in crate::app) solver: String,
    /// Its display name: a built-in solver's title, an engine's registered name.
    pub(in crate::app) title: String,
    /// The solution's length.
    pub(in crate::app) moves: usize,
    /// Wall-clock seconds.
    pub(in crate::app) seconds: f64,
}

/// One solver's solves in the time plot: its colour's index, its display name and its points
/// as (moves, log10 seconds).
#[derive(Clone, Debug, PartialEq)]
pub(in crate::app) struct SolveSeries {
    /// The index of its colour: its place among the built-in solvers, or after them for an
    /// engine.
    pub(in crate::app) color_index: usize,
    /// Its display name.
    pub(in crate::app) title: String,
    /// Its points.
    pub(in crate::app) points: Vec<[f64; 2]>,
}

/// Every solve since the app started, for the time plot.
#[derive(Clone, Debug, Default)]
pub(in crate::app) struct PlotHistory {
    points: Vec<SolvePoint>,
}

impl PlotHistory {
    /// Adds a solve.
    pub(in crate::app) fn push(&mut self, point: SolvePoint) {
        self.points.push(point);
    }

    /// Forgets every solve.
    pub(in crate::app) fn clear(&mut self) {
        self.points.clear();
    }

    /// The solves so far.
    pub(in crate::app) fn points(&self) -> &[SolvePoint] {
        &self.points
    }

    /// The series to draw: one per solver that has points, the built-in ones in registry
    /// order, then each engine in the order of its first solve; an engine's colours come after
    /// every built-in solver's, so no engine takes a built-in solver's colour.
    fn series(&self, solvers: &[SolverKind]) -> Vec<SolveSeries> {
        let mut names: Vec<(usize, &str, &str)> = Vec::new();
        for point in &self.points {
            if names.iter().any(|(_, name, _)| *name == point.solver) {
                continue;
            }
            let index = match solvers.iter().position(|k| k.name == point.solver) {
                Some(index) => index,
                None => {
                    let engines = names.iter().filter(|(i, ..)| *i >= solvers.len()).count();
                    solvers.len() + engines
                }
            };
            names.push((index, &point.solver, &point.title));
        }
        names.sort_by_key(|(index, ..)| *index);
        names
            .into_iter()
            .map(|(color_index, name, title)| SolveSeries {
                color_index,
                title: title.to_string(),
                points: self
                    .points
                    .iter()
                    .filter(|p| p.solver == name)
                    .map(|p| [p.moves as f64, log10_clamped(p.seconds)])
                    .collect(),
            })
            .collect()
    }
}

/// log10 of a positive quantity, with zero and below drawn at a floor (a microsecond, or one
/// node) rather than at minus infinity.
pub(in crate::app) fn log10_clamped(value: f64) -> f64 {
    value.max(1e-6).log10()
}

/// The per-depth counters of a run as (depth, log10 count) series: nodes, inner, hits. Zero
/// counts are left out, as a log scale cannot show them.
fn depth_series(rows: &[DepthRow]) -> [Vec<[f64; 2]>; 3] {
    let series = |value: fn(&DepthRow) -> u64| -> Vec<[f64; 2]> {
        rows.iter()
            .filter(|r| value(r) > 0)
            .map(|r| [f64::from(r.stats.depth), (value(r) as f64).log10()])
            .collect()
    };
    [
        series(|r| r.stats.nodes),
        series(|r| r.stats.inner),
        series(|r| r.stats.hits),
    ]
}

/// Grid marks at whole numbers in the visible range: every power of ten of a log axis, or
/// every bar of a bar chart whose bars stand at whole numbers; every second or fifth one when
/// the axis is too short for a label at each (egui_plot leaves out labels closer than about
/// twenty points on a vertical axis).
pub(in crate::app) fn whole_marks(input: GridInput) -> Vec<GridMark> {
    // The base step is the value of egui_plot's smallest grid spacing (8 points).
    let step = nice_step(input.base_step_size * 2.6);
    marks_every(input, step)
}

/// Grid marks for a move-count axis: whole numbers, as far apart as a horizontal axis needs
/// for its labels (about sixty points).
pub(in crate::app) fn moves_marks(input: GridInput) -> Vec<GridMark> {
    let step = nice_step(input.base_step_size * 7.6);
    marks_every(input, step)
}

/// Grid marks at every whole number, however close: for axes whose every mark is named (a
/// bar chart's categories).
pub(in crate::app) fn every_whole_mark(input: GridInput) -> Vec<GridMark> {
    marks_every(input, 1.0)
}

/// The smallest of 1, 2, 5, 10, 20, 50, ... that is at least `at_least`.
fn nice_step(at_least: f64) -> f64 {
    let mut step = 1.0;
    while step < at_least && step < 1e12 {
        for factor in [2.0, 2.5, 2.0] {
            step *= factor;
            if step >= at_least {
                break;
            }
        }
    }
    step
}

fn marks_every(input: GridInput, step: f64) -> Vec<GridMark> {
    let (low, high) = input.bounds;
    if !(low.is_finite() && high.is_finite()) || (high - low) / step > 400.0 {
        return Vec::new();
    }
    // Only marks inside the visible range: a label outside it would be drawn past the plot.
    let mut marks = Vec::new();
    let mut k = (low / step).ceil() * step;
    while k <= high {
        marks.push(GridMark {
            // Adding zero turns -0 into 0, so the axis never reads "-0".
            value: k + 0.0,
            step_size: step,
        });
        k += step;
    }
    marks
}

/// Names a power of ten of seconds: "1 ms", "10 s" (as an exported chart does).
pub(in crate::app) use crate::print::chart::seconds_label;

/// A time given as log10 seconds, as the tables write it.
fn seconds_text(exponent: f64) -> String {
    let seconds = 10f64.powf(exponent).min(1e9);
    crate::study::format::format_time(std::time::Duration::from_secs_f64(seconds))
}

/// Names a power of ten of a count: "1", "10k", "1M" (as an exported chart does).
use crate::print::chart::count_label;

/// The plots panel: the two plots side by side and a button to clear the history.
pub(in crate::app) fn plots_ui(
    ui: &mut egui::Ui,
    history: &PlotHistory,
    solvers: &[SolverKind],
    current: Option<PlottedRun<'_>>,
    native_dialogs: bool,
    commands: &mut Vec<Command>,
) {
    ui.horizontal(|ui| {
        ui.strong("Plots");
        let count = history.points().len();
        ui.label(format!(
            "{count} solve{} since the app started",
            if count == 1 { "" } else { "s" }
        ));
        if ui
            .add_enabled(
                !history.points().is_empty(),
                egui::Button::new("Clear plot history"),
            )
            .clicked()
        {
            commands.push(Command::ClearPlots);
        }
    });
    let mut exports = Vec::new();
    ui.columns(2, |columns| {
        let time = time_chart(history, solvers);
        if let Some(path) = plot_export::title_row_ui(
            &mut columns[0],
            TIME_TITLE,
            Some("Time per solve (log)"),
            "time-per-solve",
            !history.points().is_empty(),
            native_dialogs,
        ) {
            exports.push((time, path));
        }
        time_plot_ui(&mut columns[0], history, solvers);
        let nodes = nodes_chart(current);
        if let Some(path) = plot_export::title_row_ui(
            &mut columns[1],
            &nodes.title,
            Some(&nodes_short_title(current)),
            "nodes-per-depth",
            current.is_some_and(|run| !run.rows.is_empty()),
            native_dialogs,
        ) {
            exports.push((nodes, path));
        }
        nodes_plot_ui(&mut columns[1], current);
    });
    for (chart, path) in exports {
        commands.push(match plot_export::write_chart(&chart, &path) {
            Ok(note) => Command::Message(note),
            Err(error) => Command::Error(error.to_string()),
        });
    }
}

/// The time plot's title.
const TIME_TITLE: &str = "Time against solution length, every solve (log time)";

/// The time plot as a chart to export: the same points, axes and colours.
fn time_chart(history: &PlotHistory, solvers: &[SolverKind]) -> Chart {
    let series = history.series(solvers);
    let (_, y_range) = data_range(series.iter().flat_map(|s| s.points.iter().copied()));
    Chart {
        title: TIME_TITLE.to_string(),
        x: Axis::new("moves", Ticks::Whole),
        y: Axis::new("time", Ticks::LogSeconds).including([y_range.0 - 0.5, y_range.1 + 0.5]),
        series: series
            .into_iter()
            .map(|s| {
                Series::new(
                    s.title,
                    rgb(theme::series(s.color_index)),
                    Data::Points(s.points),
                )
            })
            .collect(),
    }
}

/// The nodes plot's title: which counters of which run, or what it would show.
fn nodes_title(current: Option<PlottedRun<'_>>) -> String {
    match current.filter(|run| !run.rows.is_empty()) {
        Some(PlottedRun { title, columns, .. }) => format!(
            "{} per {} of the current run, {} (log scale)",
            columns.nodes,
            columns.depth.to_lowercase(),
            title
        ),
        None => "Nodes per depth of the current run (log scale)".to_string(),
    }
}

/// The nodes plot's title as its narrow column shows it; the whole one is on hover.
fn nodes_short_title(current: Option<PlottedRun<'_>>) -> String {
    match current.filter(|run| !run.rows.is_empty()) {
        Some(PlottedRun { columns, .. }) => format!(
            "{} per {} (log)",
            columns.nodes,
            columns.depth.to_lowercase()
        ),
        None => "Nodes per depth (log)".to_string(),
    }
}

/// The nodes plot as a chart to export: each counter per depth, on a log count axis.
fn nodes_chart(current: Option<PlottedRun<'_>>) -> Chart {
    let title = nodes_title(current);
    let Some(PlottedRun { columns, rows, .. }) = current else {
        return Chart {
            title,
            x: Axis::new("depth", Ticks::Whole),
            y: Axis::new("count", Ticks::LogCount),
            series: Vec::new(),
        };
    };
    let names = [columns.nodes, columns.inner, columns.hits];
    Chart {
        title,
        x: Axis::new(columns.depth, Ticks::Whole),
        y: Axis::new("count", Ticks::LogCount).including([0.0]),
        series: names
            .into_iter()
            .zip(depth_series(rows))
            .enumerate()
            .filter(|(_, (_, points))| !points.is_empty())
            .map(|(i, (name, points))| {
                Series::new(
                    name,
                    rgb(theme::COUNTER_SERIES[i]),
                    Data::LinePoints(points),
                )
            })
            .collect(),
    }
}

fn time_plot_ui(ui: &mut egui::Ui, history: &PlotHistory, solvers: &[SolverKind]) {
    let series = history.series(solvers);
    legend_row_ui(
        ui,
        series
            .iter()
            .map(|s| (theme::series(s.color_index), s.title.as_str())),
    );
    if series.is_empty() {
        no_data_ui(ui, "Solve a puzzle to plot its time here.");
        return;
    }
    // Every point, with what its tooltip says: the solver, the puzzle, moves and time.
    let labelled: Vec<([f64; 2], String)> = history
        .points()
        .iter()
        .map(|p| {
            let at = [p.moves as f64, log10_clamped(p.seconds)];
            let text = format!(
                "{}\n{}\n{} moves in {}",
                p.title,
                p.puzzle,
                p.moves,
                seconds_text(at[1])
            );
            (at, text)
        })
        .collect();
    let (x_range, y_range) = data_range(labelled.iter().map(|(at, _)| *at));
    let response = Plot::new("time-vs-moves")
        .x_axis_label("moves")
        .x_grid_spacer(moves_marks)
        .y_axis_label("time")
        .y_grid_spacer(whole_marks)
        .y_axis_formatter(|mark, _| seconds_label(mark.value))
        // The plot's own hover label is drawn inside the plot and clipped at its edge; the
        // tooltip below is not.
        .label_formatter(|_| None)
        .show_crosshair(false)
        .include_x(x_range.0 - 0.5)
        .include_x(x_range.1 + 0.5)
        // Half a decade of room above and below the points, whatever their times.
        .include_y(y_range.0 - 0.5)
        .include_y(y_range.1 + 0.5)
        .allow_scroll(false)
        .show(ui, |plot| {
            for s in series {
                plot.add(
                    Points::new(s.title, s.points)
                        .radius(4.0)
                        .shape(MarkerShape::Circle)
                        .color(theme::series(s.color_index)),
                );
            }
            nearest_label(plot, &labelled)
        });
    if let Some(text) = response.inner {
        response.response.on_hover_text_at_pointer(text);
    }
}

/// The run the nodes plot draws: its solver's name, its table's columns and its rows so far.
#[derive(Clone, Copy, Debug)]
pub(in crate::app) struct PlottedRun<'a> {
    /// The solver's name for people.
    pub(in crate::app) title: &'a str,
    /// The names of its counters.
    pub(in crate::app) columns: Columns,
    /// The rows drawn.
    pub(in crate::app) rows: &'a [DepthRow],
}

fn nodes_plot_ui(ui: &mut egui::Ui, current: Option<PlottedRun<'_>>) {
    let Some(PlottedRun { columns, rows, .. }) = current.filter(|run| !run.rows.is_empty()) else {
        legend_row_ui(ui, std::iter::empty());
        let why = match current {
            // A run is on, but no depth of it has finished (DLS searches one depth, so its
            // only row comes at its end).
            // The column's name may be plural ("Moves"), so it is named as a column.
            Some(run) => format!(
                "{} has no finished row yet: a point appears as each row of its {} column \
                 finishes.",
                run.title,
                run.columns.depth.to_lowercase()
            ),
            None => "Run a solver to see its counters per depth.".to_string(),
        };
        no_data_ui(ui, &why);
        return;
    };
    let names = [columns.nodes, columns.inner, columns.hits];
    let series = depth_series(rows);
    legend_row_ui(
        ui,
        names
            .iter()
            .zip(&series)
            .enumerate()
            .filter(|(_, (_, points))| !points.is_empty())
            .map(|(i, (name, _))| (theme::COUNTER_SERIES[i], *name)),
    );
    let mut labelled = Vec::new();
    for (name, points) in names.iter().zip(&series) {
        for at in points {
            labelled.push((
                *at,
                format!(
                    "{name}\n{} {}: {}",
                    columns.depth,
                    at[0],
                    widgets::format_count(10f64.powf(at[1]).round() as u64)
                ),
            ));
        }
    }
    let (x_range, y_range) = data_range(labelled.iter().map(|(at, _)| *at));
    let response = Plot::new("nodes-per-depth")
        .x_axis_label(columns.depth)
        .x_grid_spacer(moves_marks)
        .y_axis_label("count")
        .y_grid_spacer(whole_marks)
        .y_axis_formatter(|mark, _| count_label(mark.value))
        .label_formatter(|_| None)
        .show_crosshair(false)
        .include_x(x_range.0 - 0.5)
        .include_x(x_range.1 + 0.5)
        .include_y(0.0)
        .include_y(y_range.1 + 0.5)
        .allow_scroll(false)
        .show(ui, |plot| {
            for (i, (name, points)) in names.into_iter().zip(series).enumerate() {
                if points.is_empty() {
                    continue;
                }
                let color = theme::COUNTER_SERIES[i];
                plot.add(Line::new(name, points.clone()).color(color).width(2.0));
                plot.add(Points::new(name, points).radius(3.0).color(color));
            }
            nearest_label(plot, &labelled)
        });
    if let Some(text) = response.inner {
        response.response.on_hover_text_at_pointer(text);
    }
}

/// The smallest and largest x and y of some points; `(0, 1)` each when there are none.
fn data_range(points: impl Iterator<Item = [f64; 2]>) -> ((f64, f64), (f64, f64)) {
    let mut x = (f64::INFINITY, f64::NEG_INFINITY);
    let mut y = (f64::INFINITY, f64::NEG_INFINITY);
    for [px, py] in points {
        x = (x.0.min(px), x.1.max(px));
        y = (y.0.min(py), y.1.max(py));
    }
    if !x.0.is_finite() {
        return ((0.0, 1.0), (0.0, 1.0));
    }
    (x, y)
}

/// The label of the point nearest the pointer, when one is within a few points of it.
fn nearest_label(plot: &egui_plot::PlotUi<'_>, labelled: &[([f64; 2], String)]) -> Option<String> {
    let pointer = plot.pointer_coordinate()?;
    let pointer = plot.screen_from_plot(pointer);
    labelled
        .iter()
        .map(|(at, text)| {
            let screen = plot.screen_from_plot(PlotPoint::new(at[0], at[1]));
            (screen.distance(pointer), text)
        })
        .filter(|(distance, _)| *distance <= 8.0)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, text)| text.clone())
}

/// A plot's legend as a row above it, so that it never covers the data.
fn legend_row_ui<'a>(ui: &mut egui::Ui, entries: impl Iterator<Item = (egui::Color32, &'a str)>) {
    ui.horizontal_wrapped(|ui| {
        // Always one row high, so the plot below does not move when entries come.
        ui.set_min_height(ui.text_style_height(&egui::TextStyle::Body));
        for (color, name) in entries {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
            ui.painter().circle_filled(rect.center(), 5.0, color);
            ui.label(name);
        }
    });
}

/// The place of an empty plot: a frame that says there is no data yet, and how to get some,
/// rather than axes around nothing.
pub(in crate::app) fn no_data_ui(ui: &mut egui::Ui, how: &str) {
    let size = ui.available_size().max(egui::vec2(120.0, 60.0));
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    ui.painter().rect_stroke(
        rect,
        4.0,
        ui.visuals().widgets.noninteractive.bg_stroke,
        egui::StrokeKind::Inside,
    );
    let mut child = ui.new_child(egui::UiBuilder::new().max_rect(rect.shrink(8.0)).layout(
        egui::Layout::centered_and_justified(egui::Direction::TopDown),
    ));
    child.vertical_centered(|ui| {
        ui.add_space((rect.height() / 2.0 - 24.0).max(0.0));
        ui.label(egui::RichText::new("no data yet").strong());
        ui.label(egui::RichText::new(how).weak());
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{DepthStats, SOLVERS};
    use std::time::Duration;

    #[test]
    fn axis_labels_name_powers_of_ten() {
        assert_eq!(seconds_label(-3.0), "1 ms");
        assert_eq!(seconds_label(-1.0), "100 ms");
        assert_eq!(seconds_label(0.0), "1 s");
        assert_eq!(seconds_label(2.0), "100 s");
        assert_eq!(seconds_label(-4.0), "0.1 ms");
        assert_eq!(count_label(0.0), "1");
        assert_eq!(count_label(4.0), "10k");
        assert_eq!(count_label(7.0), "10M");
        assert_eq!(count_label(9.0), "1G");
    }

    fn solve(solver: &str, title: &str, moves: usize, seconds: f64) -> SolvePoint {
        SolvePoint {
            puzzle: "a".into(),
            solver: solver.into(),
            title: title.into(),
            moves,
            seconds,
        }
    }

    #[test]
    fn history_groups_points_by_solver_in_registry_order() {
        let mut history = PlotHistory::default();
        let last = SOLVERS.last().unwrap();
        let first = SOLVERS.first().unwrap();
        history.push(solve(last.name, last.title, 8, 0.01));
        history.push(solve(first.name, first.title, 5, 0.0));
        let series = history.series(SOLVERS);
        assert_eq!(series.first().unwrap().title, first.title);
        assert_eq!(series.first().unwrap().points, vec![[5.0, -6.0]]);
        assert_eq!(series.last().unwrap().points, vec![[8.0, -2.0]]);
        history.clear();
        assert!(history.series(SOLVERS).is_empty());
    }

    #[test]
    fn an_engine_solve_is_a_series_of_its_own_after_the_built_in_ones() {
        let mut history = PlotHistory::default();
        let first = SOLVERS.first().unwrap();
        history.push(solve("bfs-py", "bfs-py", 6, 1.0));
        history.push(solve(first.name, first.title, 5, 0.01));
        history.push(solve("other", "other", 7, 0.1));
        history.push(solve("bfs-py", "bfs-py", 9, 10.0));
        let series = history.series(SOLVERS);
        let titles: Vec<&str> = series.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, vec![first.title, "bfs-py", "other"]);
        assert_eq!(series[1].points, vec![[6.0, 0.0], [9.0, 1.0]]);
        assert_eq!(series[1].color_index, SOLVERS.len());
        assert_eq!(series[2].color_index, SOLVERS.len() + 1);
    }

    #[test]
    fn marks_thin_out_to_nice_whole_steps() {
        assert_eq!(nice_step(0.3), 1.0);
        assert_eq!(nice_step(1.5), 2.0);
        assert_eq!(nice_step(3.0), 5.0);
        assert_eq!(nice_step(7.0), 10.0);
        assert_eq!(nice_step(11.0), 20.0);
        let marks = marks_every(
            GridInput {
                bounds: (-0.5, 9.5),
                base_step_size: 0.1,
            },
            2.0,
        );
        let values: Vec<f64> = marks.iter().map(|m| m.value).collect();
        assert_eq!(values, vec![0.0, 2.0, 4.0, 6.0, 8.0]);
    }

    #[test]
    fn the_axes_follow_the_data_whatever_its_scale() {
        let (x, y) = data_range([[3.0, -5.0], [9.0, 2.5]].into_iter());
        assert_eq!(x, (3.0, 9.0));
        assert_eq!(y, (-5.0, 2.5));
        assert_eq!(data_range(std::iter::empty()), ((0.0, 1.0), (0.0, 1.0)));
    }

    #[test]
    fn zero_counters_are_left_out_of_the_log_plot() {
        let rows = vec![
            DepthRow {
                stats: DepthStats {
                    depth: 1,
                    nodes: 10,
                    inner: 0,
                    hits: 0,
                    extra: Vec::new(),
                },
                at: Duration::ZERO,
            },
            DepthRow {
                stats: DepthStats {
                    depth: 2,
                    nodes: 1000,
                    inner: 100,
                    hits: 1,
                    extra: Vec::new(),
                },
                at: Duration::ZERO,
            },
        ];
        let [nodes, inner, hits] = depth_series(&rows);
        assert_eq!(nodes, vec![[1.0, 1.0], [2.0, 3.0]]);
        assert_eq!(inner, vec![[2.0, 2.0]]);
        assert_eq!(hits, vec![[2.0, 0.0]]);
    }
}
