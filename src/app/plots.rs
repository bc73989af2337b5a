//! Live plots: time against move count for every solve since the app started (one series per
//! solver, log time axis), and nodes per depth of the current run (log scale), growing as the
//! run's rows arrive.

use super::Command;
use super::theme;
use crate::solver::SolverKind;
use crate::worker::DepthRow;
use egui_plot::{
    Corner, GridInput, GridMark, HoverPosition, Legend, Line, MarkerShape, Plot, Points,
};

/// One finished solve: which solver, how many moves, how long.
#[derive(Clone, Debug, PartialEq)]
pub struct SolvePoint {
    /// The solver's command-line name.
    pub solver: &'static str,
    /// Its display name.
    pub title: &'static str,
    /// The solution's length.
    pub moves: usize,
    /// Wall-clock seconds.
    pub seconds: f64,
}

/// Every solve since the app started, for the time plot.
#[derive(Clone, Debug, Default)]
pub struct PlotHistory {
    points: Vec<SolvePoint>,
}

impl PlotHistory {
    /// Adds a solve.
    pub fn push(&mut self, point: SolvePoint) {
        self.points.push(point);
    }

    /// Forgets every solve.
    pub fn clear(&mut self) {
        self.points.clear();
    }

    /// The solves so far.
    pub fn points(&self) -> &[SolvePoint] {
        &self.points
    }

    /// The series to draw: one per solver that has points, in registry order, each with its
    /// points as (moves, log10 seconds).
    pub fn series(&self, solvers: &[SolverKind]) -> Vec<(usize, &'static str, Vec<[f64; 2]>)> {
        solvers
            .iter()
            .enumerate()
            .filter_map(|(index, kind)| {
                let points: Vec<[f64; 2]> = self
                    .points
                    .iter()
                    .filter(|p| p.solver == kind.name)
                    .map(|p| [p.moves as f64, log10_clamped(p.seconds)])
                    .collect();
                (!points.is_empty()).then_some((index, kind.title, points))
            })
            .collect()
    }
}

/// log10 of a positive quantity, with zero and below drawn at a floor (a microsecond, or one
/// node) rather than at minus infinity.
pub fn log10_clamped(value: f64) -> f64 {
    value.max(1e-6).log10()
}

/// The per-depth counters of a run as (depth, log10 count) series: nodes, inner, hits. Zero
/// counts are left out, as a log scale cannot show them.
pub fn depth_series(rows: &[DepthRow]) -> [Vec<[f64; 2]>; 3] {
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

/// Grid marks at every whole number in the visible range: every power of ten of a log axis,
/// or every bar of a bar chart whose bars stand at whole numbers.
pub(crate) fn whole_marks(input: GridInput) -> Vec<GridMark> {
    let (low, high) = input.bounds;
    if !(low.is_finite() && high.is_finite()) || high - low > 400.0 {
        return Vec::new();
    }
    // Only marks inside the visible range: a label outside it would be drawn past the plot.
    let mut marks = Vec::new();
    let mut k = low.ceil();
    while k <= high.floor() {
        marks.push(GridMark {
            value: k,
            step_size: 1.0,
        });
        k += 1.0;
    }
    marks
}

/// Names a power of ten of seconds: "1 ms", "10 s".
pub fn seconds_label(exponent: f64) -> String {
    let e = exponent.round() as i32;
    let seconds = 10f64.powi(e);
    if e < -3 {
        format!("{} ms", seconds * 1000.0)
    } else if e < 0 {
        format!("{:.0} ms", seconds * 1000.0)
    } else {
        format!("{seconds:.0} s")
    }
}

/// A time given as log10 seconds, as the tables write it.
fn seconds_text(exponent: f64) -> String {
    let seconds = 10f64.powf(exponent).min(1e9);
    super::widgets::format_duration(std::time::Duration::from_secs_f64(seconds))
}

/// Names a power of ten of a count: "1", "10k", "1M".
pub fn count_label(exponent: f64) -> String {
    let e = exponent.round() as i32;
    if e < 0 {
        return String::new();
    }
    let (unit, scale) = match e {
        0..=2 => ("", 0),
        3..=5 => ("k", 3),
        6..=8 => ("M", 6),
        9..=11 => ("G", 9),
        _ => ("T", 12),
    };
    format!("{}{unit}", 10u64.pow((e - scale).clamp(0, 2) as u32))
}

/// The plots panel: the two plots side by side and a button to clear the history.
pub fn plots_ui(
    ui: &mut egui::Ui,
    history: &PlotHistory,
    solvers: &[SolverKind],
    current: Option<(&SolverKind, &[DepthRow])>,
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
    ui.columns(2, |columns| {
        time_plot_ui(&mut columns[0], history, solvers);
        nodes_plot_ui(&mut columns[1], current);
    });
}

fn time_plot_ui(ui: &mut egui::Ui, history: &PlotHistory, solvers: &[SolverKind]) {
    ui.label("Time against solution length, every solve (log time)");
    Plot::new("time-vs-moves")
        .legend(
            Legend::default()
                .follow_insertion_order(true)
                .position(Corner::LeftTop),
        )
        .x_axis_label("moves")
        .y_axis_label("time")
        .y_grid_spacer(whole_marks)
        .y_axis_formatter(|mark, _| seconds_label(mark.value))
        .label_formatter(|hover| match hover {
            HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => Some(format!(
                "{plot_name}\n{:.0} moves, {}",
                position.x,
                seconds_text(position.y)
            )),
            HoverPosition::Elsewhere { .. } => None,
        })
        .include_x(0.0)
        .include_x(10.0)
        .include_y(-3.0)
        .include_y(0.0)
        .allow_scroll(false)
        .show(ui, |plot| {
            for (index, title, points) in history.series(solvers) {
                plot.add(
                    Points::new(title, points)
                        .radius(4.0)
                        .shape(MarkerShape::Circle)
                        .color(theme::series(index)),
                );
            }
        });
}

fn nodes_plot_ui(ui: &mut egui::Ui, current: Option<(&SolverKind, &[DepthRow])>) {
    let Some((kind, rows)) = current else {
        ui.label("Nodes per depth of the current run (log scale)");
        ui.label("Run a solver to see its counters per depth.");
        return;
    };
    ui.label(format!(
        "{} per {} of the current run, {} (log scale)",
        kind.columns.nodes,
        kind.columns.depth.to_lowercase(),
        kind.title
    ));
    let names = [kind.columns.nodes, kind.columns.inner, kind.columns.hits];
    let series = depth_series(rows);
    Plot::new("nodes-per-depth")
        .legend(
            Legend::default()
                .follow_insertion_order(true)
                .position(Corner::LeftTop),
        )
        .x_axis_label(kind.columns.depth)
        .y_axis_label("count")
        .y_grid_spacer(whole_marks)
        .y_axis_formatter(|mark, _| count_label(mark.value))
        .include_x(0.0)
        .include_y(0.0)
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

    #[test]
    fn history_groups_points_by_solver_in_registry_order() {
        let mut history = PlotHistory::default();
        let last = SOLVERS.last().unwrap();
        let first = SOLVERS.first().unwrap();
        history.push(SolvePoint {
            solver: last.name,
            title: last.title,
            moves: 8,
            seconds: 0.01,
        });
        history.push(SolvePoint {
            solver: first.name,
            title: first.title,
            moves: 5,
            seconds: 0.0,
        });
        let series = history.series(SOLVERS);
        assert_eq!(series.first().unwrap().1, first.title);
        assert_eq!(series.first().unwrap().2, vec![[5.0, -6.0]]);
        assert_eq!(series.last().unwrap().2, vec![[8.0, -2.0]]);
        history.clear();
        assert!(history.series(SOLVERS).is_empty());
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
