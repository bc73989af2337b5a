//! The bench as a picture (`bench --plot`): each solver's time on each puzzle, on a log scale,
//! so that a solver's spread over the suite and the puzzles that part the solvers show at once.

use super::{BenchResults, Measurement};
use crate::print::chart::{Axis, Chart, Data, Series, Ticks, series_rgb};

/// The most puzzles named one by one on the horizontal axis; past it they are numbered.
const MOST_NAMED: usize = 40;

/// The shortest time the chart shows (a microsecond): a run timed at zero would have no
/// logarithm.
const SHORTEST_SECONDS: f64 = 1e-6;

/// The chart of every measurement: puzzles across in the order they ran (the reference suite,
/// then the random one), time up on a log scale, one series of points per solver (a solver
/// run with other threads, pages or builds is a series of its own, named as in the tables),
/// and beside it, when some of its runs found no solution, a series of rings: those runs at
/// the time they stopped.
pub fn time_chart(results: &BenchResults) -> Chart {
    let measurements: Vec<&Measurement> = results.reference.iter().chain(&results.random).collect();
    let mut puzzles: Vec<&str> = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    for measurement in &measurements {
        if !puzzles.contains(&measurement.puzzle.as_str()) {
            puzzles.push(&measurement.puzzle);
        }
        let label = measurement.label();
        if !labels.contains(&label) {
            labels.push(label);
        }
    }
    // Each solver's finished runs as dots, and its runs stopped by a limit as rings of the
    // same colour at the time they were stopped: a bound on the time, not a measurement.
    let mut series = Vec::new();
    for (index, label) in labels.iter().enumerate() {
        let points = |stopped: bool| -> Vec<[f64; 2]> {
            measurements
                .iter()
                .filter(|m| m.label() == *label && is_stopped(m) == stopped)
                .filter_map(|m| {
                    let at = puzzles.iter().position(|p| *p == m.puzzle)?;
                    let seconds = m.time.as_secs_f64().max(SHORTEST_SECONDS);
                    Some([at as f64, seconds.log10()])
                })
                .collect()
        };
        let color = series_rgb(index);
        series.push(Series::new(
            label.clone(),
            color,
            Data::Points(points(false)),
        ));
        let stopped = points(true);
        if !stopped.is_empty() {
            series.push(Series::new(
                format!("{label}, stopped"),
                color,
                Data::Rings(stopped),
            ));
        }
    }
    let x = if puzzles.len() <= MOST_NAMED {
        Axis::new(
            "puzzle",
            Ticks::Names(puzzles.iter().map(|p| p.to_string()).collect()),
        )
    } else {
        Axis::new("puzzle (in the order run, from 0)", Ticks::Whole)
    };
    Chart {
        title: format!(
            "Time per puzzle ({} puzzles, median of {} run{})",
            puzzles.len(),
            results.repeat,
            if results.repeat == 1 { "" } else { "s" }
        ),
        x,
        y: Axis::new("time", Ticks::LogSeconds),
        series,
    }
}

/// Whether a run was stopped by a limit (or a cancel) before it could answer.
fn is_stopped(measurement: &Measurement) -> bool {
    matches!(
        measurement.outcome,
        "time-limit" | "memory-limit" | "cancelled"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::bench::tests::measurement;

    #[test]
    fn each_solver_is_a_series_with_a_point_per_puzzle_at_its_log_time() {
        let results = BenchResults {
            reference: vec![
                measurement("a", "fast", Some(3), 10),
                measurement("a", "iddfs", Some(3), 100),
                measurement("b", "fast", Some(5), 1000),
                measurement("b", "iddfs", Some(5), 0),
            ],
            random: Vec::new(),
            summaries: Vec::new(),
            disagreements: Vec::new(),
            solvers: 2,
            repeat: 3,
            interrupted: false,
        };
        let chart = time_chart(&results);
        assert_eq!(chart.x.ticks, Ticks::Names(vec!["a".into(), "b".into()]));
        assert_eq!(chart.series.len(), 2);
        assert_eq!(chart.series[0].name, "fast");
        let points = |series: &Series| match &series.data {
            Data::Points(points) => points.clone(),
            other => panic!("points were drawn, not {other:?}"),
        };
        let near = |got: Vec<[f64; 2]>, want: [[f64; 2]; 2]| {
            got.len() == 2
                && got
                    .iter()
                    .zip(want)
                    .all(|(g, w)| g[0] == w[0] && (g[1] - w[1]).abs() < 1e-9)
        };
        assert!(near(points(&chart.series[0]), [[0.0, -2.0], [1.0, 0.0]]));
        // A time of zero stands at the shortest time shown.
        assert!(near(points(&chart.series[1]), [[0.0, -1.0], [1.0, -6.0]]));
        assert!(chart.title.contains("median of 3 runs"), "{}", chart.title);
    }

    #[test]
    fn runs_stopped_by_a_limit_are_rings_of_their_solvers_colour() {
        let results = BenchResults {
            reference: vec![
                measurement("a", "fast", Some(3), 10),
                Measurement {
                    outcome: "time-limit",
                    ..measurement("a", "iddfs", None, 1000)
                },
                measurement("b", "iddfs", Some(5), 100),
            ],
            random: Vec::new(),
            summaries: Vec::new(),
            disagreements: Vec::new(),
            solvers: 2,
            repeat: 1,
            interrupted: false,
        };
        let chart = time_chart(&results);
        let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["fast", "iddfs", "iddfs, stopped"]);
        assert_eq!(chart.series[1].data, Data::Points(vec![[1.0, -1.0]]));
        assert_eq!(chart.series[2].data, Data::Rings(vec![[0.0, 0.0]]));
        assert_eq!(chart.series[2].color, chart.series[1].color);
    }
}
