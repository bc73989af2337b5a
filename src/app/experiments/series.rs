//! Shapes experiment statistics into what the Experiments window draws and lists: plot series
//! per solver, the distribution's bars, which series a click is nearest to, the runs behind a
//! selection and the time left. Pure functions, tested without a window.

use crate::solver;
pub(super) use crate::study::experiment::charts::{
    SolverSeries, distribution_points, solver_series,
};
use crate::study::experiment::record::Record;
use std::time::Duration;

/// What a click on a plot or a table cell chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// One solver (by its name in the results), or every solver.
    pub solver: Option<String>,
    /// One required move count, or every one.
    pub moves: Option<u32>,
}

impl Selection {
    /// Says what is selected: "Graph v2 at 11 moves".
    pub(super) fn describe(&self) -> String {
        let who = self
            .solver
            .as_deref()
            .map_or("Every solver".to_string(), |s| {
                solver::kind(s).map_or(s.to_string(), |k| k.title.to_string())
            });
        match self.moves {
            Some(m) => format!("{who} at {m} required moves"),
            None => format!("{who}, every move count"),
        }
    }
}

/// The selection a click at (x, y) on a per-move-count plot makes: the move count nearest x,
/// and of the series with a point there, the one whose value is nearest y. A click where no
/// series has a point selects that move count for every solver.
pub(super) fn select_nearest(
    series: &[SolverSeries],
    x: f64,
    y: f64,
    points: impl Fn(&SolverSeries) -> &Vec<[f64; 2]>,
) -> Selection {
    let moves = x.round().max(0.0);
    let nearest = series
        .iter()
        .filter_map(|s| {
            points(s)
                .iter()
                .find(|p| p[0] == moves)
                .map(|p| ((p[1] - y).abs(), s))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    Selection {
        solver: nearest.map(|(_, s)| s.solver.clone()),
        moves: Some(moves as u32),
    }
}

/// The runs a selection stands for, by configuration and then in the order given. A
/// selection by move count takes the configurations the baseline required that many moves
/// for.
pub(super) fn selected_records<'a>(
    records: &'a [Record],
    selection: &Selection,
) -> Vec<&'a Record> {
    let mut rows: Vec<&Record> = records
        .iter()
        .filter(|r| selection.solver.as_ref().is_none_or(|s| *s == r.solver))
        .filter(|r| selection.moves.is_none_or(|m| r.required_moves == Some(m)))
        .collect();
    rows.sort_by_key(|r| r.config);
    rows
}

/// The time left, from the time this run has taken for the runs it finished; `None` before
/// the first one.
pub(super) fn eta(elapsed: Duration, finished: u64, remaining: u64) -> Option<Duration> {
    if finished == 0 {
        return None;
    }
    Some(elapsed.mul_f64(remaining as f64 / finished as f64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SOLVERS;
    use crate::study::experiment::record::Status;
    use crate::study::experiment::stats::summarize;

    fn record(config: u64, solver: &str, required: u32, found: u32, millis: f64) -> Record {
        let status = if found == required {
            Status::Optimal
        } else {
            Status::Suboptimal
        };
        Record {
            config,
            config_seed: config,
            puzzle: String::new(),
            solver: solver.into(),
            required_moves: Some(required),
            found_moves: Some(found),
            status,
            millis,
            nodes: 1,
            peak_memory_bytes: 0,
        }
    }

    /// Two configurations at 5 moves and one at 8; Graph v2 misses one of the 5-move ones.
    fn records() -> Vec<Record> {
        vec![
            record(0, "iddfs", 5, 5, 10.0),
            record(1, "iddfs", 5, 5, 1000.0),
            record(2, "iddfs", 8, 8, 100.0),
            record(0, "graph-v2", 5, 5, 1.0),
            record(1, "graph-v2", 5, 7, 100.0),
            record(2, "graph-v2", 8, 8, 10.0),
        ]
    }

    #[test]
    fn series_put_means_on_a_log_seconds_axis_and_rates_in_percent() {
        let series = solver_series(&summarize(&records()));
        let iddfs = series.iter().find(|s| s.solver == "iddfs").unwrap();
        let graph = series.iter().find(|s| s.solver == "graph-v2").unwrap();
        // Mean of 10 ms and 1000 ms is 505 ms.
        assert_eq!(iddfs.mean_all[0][0], 5.0);
        assert!((iddfs.mean_all[0][1] - 0.505f64.log10()).abs() < 1e-9);
        assert!((iddfs.mean_all[1][1] - (-1.0)).abs() < 1e-9);
        assert_eq!(iddfs.total_hit_rate, 100.0);
        // Graph v2 at 5 moves: one of two optimal; Table 2 averages only that 1 ms run.
        assert_eq!(graph.hit_rate, vec![[5.0, 50.0], [8.0, 100.0]]);
        assert!((graph.mean_optimal[0][1] - (-3.0)).abs() < 1e-9);
        assert!((graph.total_hit_rate - 200.0 / 3.0).abs() < 1e-9);
        // The spread runs from the fastest to the slowest run of the bucket.
        let (x, q) = graph.spread[0];
        assert_eq!(x, 5.0);
        assert!((q[0] - (-3.0)).abs() < 1e-9 && (q[4] - (-1.0)).abs() < 1e-9);
        assert!(
            q.windows(2).all(|w| w[0] <= w[1]),
            "quartiles in order: {q:?}"
        );
        assert_eq!(
            graph.color_index,
            SOLVERS.iter().position(|k| k.name == "graph-v2").unwrap()
        );
        let order: Vec<usize> = series.iter().map(|s| s.color_index).collect();
        assert!(order.is_sorted(), "registry order: {order:?}");
    }

    #[test]
    fn distribution_counts_configurations_once_per_move_count() {
        let summary = summarize(&records());
        assert_eq!(distribution_points(&summary), vec![[5.0, 2.0], [8.0, 1.0]]);
    }

    #[test]
    fn a_click_selects_the_nearest_series_at_the_nearest_move_count() {
        let series = solver_series(&summarize(&records()));
        // Near 5 moves and 50%: Graph v2 (IDDFS is at 100%).
        let near_graph = select_nearest(&series, 5.2, 55.0, |s| &s.hit_rate);
        assert_eq!(near_graph.solver.as_deref(), Some("graph-v2"));
        assert_eq!(near_graph.moves, Some(5));
        let near_iddfs = select_nearest(&series, 4.8, 95.0, |s| &s.hit_rate);
        assert_eq!(near_iddfs.solver.as_deref(), Some("iddfs"));
        // Where no series has a point, every solver at that move count.
        let empty = select_nearest(&series, 12.0, 50.0, |s| &s.hit_rate);
        assert_eq!(empty.solver, None);
        assert_eq!(empty.moves, Some(12));
    }

    #[test]
    fn a_selection_lists_its_runs_by_configuration() {
        let records = records();
        let at_five = selected_records(
            &records,
            &Selection {
                solver: None,
                moves: Some(5),
            },
        );
        let configs: Vec<(u64, &str)> = at_five
            .iter()
            .map(|r| (r.config, r.solver.as_str()))
            .collect();
        assert_eq!(
            configs,
            vec![(0, "iddfs"), (0, "graph-v2"), (1, "iddfs"), (1, "graph-v2")]
        );
        let graph = selected_records(
            &records,
            &Selection {
                solver: Some("graph-v2".into()),
                moves: None,
            },
        );
        assert_eq!(graph.len(), 3);
        assert!(graph.iter().all(|r| r.solver == "graph-v2"));
    }

    #[test]
    fn eta_scales_the_elapsed_time_by_the_runs_left() {
        assert_eq!(eta(Duration::from_secs(10), 0, 100), None);
        assert_eq!(
            eta(Duration::from_secs(10), 20, 60),
            Some(Duration::from_secs(30))
        );
        assert_eq!(eta(Duration::from_secs(10), 20, 0), Some(Duration::ZERO));
    }
}
