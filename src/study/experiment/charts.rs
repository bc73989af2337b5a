//! An experiment's results as plots: one series per solver (mean time, its spread, hit rate
//! per required move count, total hit rate) and the distribution of required moves, and each
//! of the Experiments window's four plots as a [`Chart`] to write as SVG or PNG, from the app
//! or from `ricochet-lab experiment --plot`.

use crate::print::chart::{Axis, Bar, Chart, Data, Series, Ticks, series_rgb};
use crate::solver::{self, SOLVERS};
use crate::study::experiment::stats::Summary;

/// One solver's series, as plotted.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverSeries {
    /// The solver's name as the results file gives it: a built-in solver's command-line name,
    /// an engine's registered name, or the command line of an engine run without one. It is
    /// the file's text, not a choice, and may name a solver this program does not have.
    pub solver: String,
    /// Its display name.
    pub title: String,
    /// Its position in the registry (which fixes its colour); unknown solvers come after.
    pub color_index: usize,
    /// (required moves, log10 seconds of the mean over every run) (Table 1).
    pub mean_all: Vec<[f64; 2]>,
    /// (required moves, log10 seconds of the mean over the optimal runs) (Table 2).
    pub mean_optimal: Vec<[f64; 2]>,
    /// (required moves, log10 seconds of min, lower quartile, median, upper quartile, max).
    pub spread: Vec<(f64, [f64; 5])>,
    /// (required moves, hit rate in percent).
    pub hit_rate: Vec<[f64; 2]>,
    /// The total hit rate in percent.
    pub total_hit_rate: f64,
}

/// log10 of milliseconds given in seconds, with a microsecond floor (a log axis cannot show
/// zero).
fn log_seconds(ms: f64) -> f64 {
    (ms / 1000.0).max(1e-6).log10()
}

/// The series of every solver in the summary, in registry order (unknown solvers last), so
/// that legends and bars keep their places whichever solver ran first.
pub fn solver_series(summary: &Summary) -> Vec<SolverSeries> {
    let mut all: Vec<SolverSeries> = summary
        .solvers
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let kind = solver::kind(&s.solver);
            let color_index = SOLVERS
                .iter()
                .position(|k| k.name == s.solver)
                .unwrap_or(SOLVERS.len() + i);
            let mut series = SolverSeries {
                solver: s.solver.clone(),
                title: kind.map_or(s.solver.clone(), |k| k.title.to_string()),
                color_index,
                mean_all: Vec::new(),
                mean_optimal: Vec::new(),
                spread: Vec::new(),
                hit_rate: Vec::new(),
                total_hit_rate: 100.0 * s.hit_rate(),
            };
            for (moves, bucket) in &s.by_moves {
                let x = f64::from(*moves);
                series.mean_all.push([x, log_seconds(bucket.mean_all_ms)]);
                if let Some(ms) = bucket.mean_optimal_ms {
                    series.mean_optimal.push([x, log_seconds(ms)]);
                }
                series.spread.push((x, bucket.spread_ms.map(log_seconds)));
                series.hit_rate.push([x, 100.0 * bucket.hit_rate()]);
            }
            series
        })
        .collect();
    all.sort_by_key(|s| s.color_index);
    all
}

/// The distribution of required moves as (moves, configurations) bars.
pub fn distribution_points(summary: &Summary) -> Vec<[f64; 2]> {
    summary
        .distribution
        .iter()
        .map(|(m, n)| [f64::from(*m), *n as f64])
        .collect()
}

/// The Experiments window's plots, by the names the command line gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotKind {
    /// Mean time against required moves, with quartile boxes.
    Time,
    /// Hit rate (optimal answers) against required moves.
    HitRate,
    /// Total hit rate per solver.
    TotalHitRate,
    /// Configurations per required move count.
    Distribution,
}

impl PlotKind {
    /// Every plot, in the window's order.
    pub const ALL: [PlotKind; 4] = [
        PlotKind::Time,
        PlotKind::HitRate,
        PlotKind::TotalHitRate,
        PlotKind::Distribution,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            PlotKind::Time => "time",
            PlotKind::HitRate => "hit-rate",
            PlotKind::TotalHitRate => "total-hit-rate",
            PlotKind::Distribution => "distribution",
        }
    }

    /// Its title, as the window shows it.
    pub fn title(self, optimal_only: bool) -> &'static str {
        match self {
            PlotKind::Time if optimal_only => {
                "Mean time of optimal runs against required moves (log), quartile boxes"
            }
            PlotKind::Time => "Mean time against required moves (log), quartile boxes",
            PlotKind::HitRate => "Hit rate (optimal answers) against required moves",
            PlotKind::TotalHitRate => "Total hit rate per solver",
            PlotKind::Distribution => "Configurations per required move count",
        }
    }
}

/// What one plot shows: the current results' series (the solvers shown), and those of a
/// results file compared with, by its name.
#[derive(Clone, Copy, Debug)]
pub struct PlotInput<'a> {
    /// The solvers shown.
    pub current: &'a [SolverSeries],
    /// The results compared with: their name and their solvers.
    pub compared: Option<(&'a str, &'a [SolverSeries])>,
    /// The distribution of required moves.
    pub distribution: &'a [[f64; 2]],
    /// The compared results' distribution.
    pub compared_distribution: Option<&'a [[f64; 2]]>,
    /// Whether times average only the optimal runs (Table 2).
    pub optimal_only: bool,
}

/// One of the window's plots as a chart: the same series, axes and colours.
pub fn chart(kind: PlotKind, input: PlotInput<'_>) -> Chart {
    let title = kind.title(input.optimal_only).to_string();
    let means = |s: &SolverSeries| {
        if input.optimal_only {
            s.mean_optimal.clone()
        } else {
            s.mean_all.clone()
        }
    };
    let compared_lines = |values: &dyn Fn(&SolverSeries) -> Vec<[f64; 2]>| -> Vec<Series> {
        input
            .compared
            .map(|(name, series)| {
                series
                    .iter()
                    .map(|s| {
                        Series::new(
                            format!("{} ({name})", s.title),
                            series_rgb(s.color_index),
                            Data::Line {
                                points: values(s),
                                dashed: true,
                            },
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    match kind {
        PlotKind::Time => {
            let count = input.current.len().max(1) as f64;
            let mut series = Vec::new();
            for (i, s) in input.current.iter().enumerate() {
                let color = series_rgb(s.color_index);
                series.push(Series::new(
                    s.title.clone(),
                    color,
                    Data::LinePoints(means(s)),
                ));
                if !input.optimal_only {
                    // Side by side at each move count, as the window draws them.
                    let offset = (i as f64 - (count - 1.0) / 2.0) * 0.8 / count;
                    let boxes = s.spread.iter().map(|(m, q)| (m + offset, *q)).collect();
                    series.push(
                        Series::new(
                            s.title.clone(),
                            color,
                            Data::Boxes {
                                boxes,
                                width: 0.6 / count,
                            },
                        )
                        .unlisted(),
                    );
                }
            }
            series.extend(compared_lines(&means));
            Chart {
                title,
                x: Axis::new("required moves", Ticks::Whole),
                y: Axis::new("time", Ticks::LogSeconds).including([-3.0, 0.0]),
                series,
            }
        }
        PlotKind::HitRate => {
            let mut series: Vec<Series> = input
                .current
                .iter()
                .map(|s| {
                    Series::new(
                        s.title.clone(),
                        series_rgb(s.color_index),
                        Data::LinePoints(s.hit_rate.clone()),
                    )
                })
                .collect();
            series.extend(compared_lines(&|s: &SolverSeries| s.hit_rate.clone()));
            Chart {
                title,
                x: Axis::new("required moves", Ticks::Whole),
                y: Axis::new("hit rate", Ticks::Percent).including([0.0, 105.0]),
                series,
            }
        }
        PlotKind::TotalHitRate => total_hit_chart(title, input),
        PlotKind::Distribution => {
            let bars = input
                .distribution
                .iter()
                .map(|[moves, count]| Bar {
                    at: *moves,
                    value: *count,
                    label: None,
                })
                .collect();
            let mut series = vec![Series::new(
                "this experiment",
                series_rgb(7),
                Data::Bars {
                    bars,
                    width: 0.7,
                    horizontal: false,
                    pale: false,
                },
            )];
            if let (Some((name, _)), Some(points)) = (input.compared, input.compared_distribution) {
                series.push(Series::new(
                    name,
                    series_rgb(3),
                    Data::Line {
                        points: points.to_vec(),
                        dashed: true,
                    },
                ));
            }
            Chart {
                title,
                x: Axis::new("required moves", Ticks::Whole),
                y: Axis::new("configurations", Ticks::Numbers).including([0.0]),
                series,
            }
        }
    }
}

/// The total hit rate as horizontal bars, the first solver at the top, each with its rate.
fn total_hit_chart(title: String, input: PlotInput<'_>) -> Chart {
    let count = input.current.len();
    let row = |i: usize| (count - 1 - i) as f64;
    let shift = if input.compared.is_some() { 0.2 } else { 0.0 };
    let width = if input.compared.is_some() { 0.4 } else { 0.7 };
    let mut series: Vec<Series> = input
        .current
        .iter()
        .enumerate()
        .map(|(i, s)| {
            Series::new(
                s.title.clone(),
                series_rgb(s.color_index),
                Data::Bars {
                    bars: vec![Bar {
                        at: row(i) + shift,
                        value: s.total_hit_rate,
                        label: Some(format!("{:.1}%", s.total_hit_rate)),
                    }],
                    width,
                    horizontal: true,
                    pale: false,
                },
            )
        })
        .collect();
    if let Some((name, compared)) = input.compared {
        for s in compared {
            let Some(i) = input.current.iter().position(|c| c.solver == s.solver) else {
                continue;
            };
            series.push(
                Series::new(
                    format!("{} ({name})", s.title),
                    series_rgb(s.color_index),
                    Data::Bars {
                        bars: vec![Bar {
                            at: row(i) - 0.2,
                            value: s.total_hit_rate,
                            label: None,
                        }],
                        width,
                        horizontal: true,
                        pale: true,
                    },
                )
                .unlisted(),
            );
        }
    }
    let names = input
        .current
        .iter()
        .rev()
        .map(|s| s.title.clone())
        .collect();
    Chart {
        title,
        x: Axis::new("hit rate", Ticks::Percent).including([0.0, 115.0]),
        y: Axis::new("", Ticks::Names(names)),
        series,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::Item;
    use crate::print::chart_drawing::drawing;
    use crate::study::experiment::record::{Record, Status};
    use crate::study::experiment::stats::summarize;

    #[test]
    fn every_plot_draws_its_solvers_and_names_them() {
        let records: Vec<Record> = ["iddfs", "bfs"]
            .into_iter()
            .flat_map(|solver| {
                (0..3).map(move |config| Record {
                    config,
                    config_seed: config,
                    puzzle: String::new(),
                    solver: solver.into(),
                    required_moves: Some(4 + config as u32),
                    found_moves: Some(4 + config as u32),
                    status: Status::Optimal,
                    millis: 2.0 * (config + 1) as f64,
                    nodes: 1,
                    peak_memory_bytes: 0,
                })
            })
            .collect();
        let summary = summarize(&records);
        let series = solver_series(&summary);
        let distribution = distribution_points(&summary);
        for kind in PlotKind::ALL {
            let chart = chart(
                kind,
                PlotInput {
                    current: &series,
                    compared: Some(("old.csv", &series)),
                    distribution: &distribution,
                    compared_distribution: Some(&distribution),
                    optimal_only: false,
                },
            );
            let texts: Vec<String> = drawing(&chart)
                .items
                .into_iter()
                .filter_map(|item| match item {
                    Item::Text { text, .. } => Some(text),
                    _ => None,
                })
                .collect();
            assert!(texts.contains(&kind.title(false).to_string()), "{texts:?}");
            if kind != PlotKind::Distribution {
                assert!(
                    texts.iter().any(|t| t == "IDDFS (Fogleman)"),
                    "{kind:?}: {texts:?}"
                );
            }
        }
    }
}
