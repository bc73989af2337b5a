//! The thesis' statistics over experiment results: the distribution of required moves, the
//! hit rate (share of optimal answers) per move count and in total, and the running time per
//! move count over all results (its Table 1) and over the optimal ones only (its Table 2).

use super::record::{Record, Status};
use crate::study::format::format_ms;
use crate::study::statistics::{mean, quantile};
use std::collections::{BTreeMap, BTreeSet};

/// Running times of one solver at one required move count.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bucket {
    /// Runs with this required move count (every status).
    pub runs: u64,
    /// Runs that found an optimal answer.
    pub optimal: u64,
    /// Mean time over every run, in milliseconds (Table 1).
    pub mean_all_ms: f64,
    /// Mean time over the optimal runs, in milliseconds (Table 2); `None` without any.
    pub mean_optimal_ms: Option<f64>,
    /// Quartiles of the time over every run: min, lower quartile, median, upper quartile, max.
    pub spread_ms: [f64; 5],
}

impl Bucket {
    /// The share of optimal answers, 0..=1.
    pub fn hit_rate(&self) -> f64 {
        crate::study::share(self.optimal, self.runs)
    }
}

/// One solver's statistics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolverSummary {
    /// The solver's name.
    pub solver: String,
    /// Per required move count.
    pub by_moves: BTreeMap<u32, Bucket>,
    /// Runs whose required move count is known.
    pub runs: u64,
    /// Of those, the optimal ones.
    pub optimal: u64,
    /// Runs on configurations the baseline did not finish.
    pub unjudged: u64,
    /// Runs by status, every run counted.
    pub statuses: BTreeMap<Status, u64>,
}

impl SolverSummary {
    /// The total hit rate, 0..=1.
    pub fn hit_rate(&self) -> f64 {
        crate::study::share(self.optimal, self.runs)
    }
}

/// The statistics of a whole experiment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Configurations per required move count.
    pub distribution: BTreeMap<u32, u64>,
    /// Configurations whose required move count is unknown (the baseline did not finish).
    pub unknown_configs: u64,
    /// Per solver, in the order solvers first appear in the records.
    pub solvers: Vec<SolverSummary>,
}

/// Computes the statistics of a set of records.
pub fn summarize(records: &[Record]) -> Summary {
    let mut required: BTreeMap<u64, Option<u32>> = BTreeMap::new();
    for record in records {
        let slot = required.entry(record.config).or_insert(None);
        if slot.is_none() {
            *slot = record.required_moves;
        }
    }
    let mut summary = Summary::default();
    for moves in required.values() {
        match moves {
            Some(m) => *summary.distribution.entry(*m).or_insert(0) += 1,
            None => summary.unknown_configs += 1,
        }
    }
    let mut order: Vec<String> = Vec::new();
    let mut seen = BTreeSet::new();
    for record in records {
        if seen.insert(record.solver.clone()) {
            order.push(record.solver.clone());
        }
    }
    for solver in order {
        let mut times: BTreeMap<u32, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
        let mut s = SolverSummary {
            solver: solver.clone(),
            ..SolverSummary::default()
        };
        for record in records.iter().filter(|r| r.solver == solver) {
            *s.statuses.entry(record.status).or_insert(0) += 1;
            let Some(moves) = required.get(&record.config).copied().flatten() else {
                s.unjudged += 1;
                continue;
            };
            s.runs += 1;
            let (all, optimal) = times.entry(moves).or_default();
            all.push(record.millis);
            if record.status == Status::Optimal {
                s.optimal += 1;
                optimal.push(record.millis);
            }
        }
        for (moves, (mut all, optimal)) in times {
            all.sort_by(f64::total_cmp);
            s.by_moves.insert(
                moves,
                Bucket {
                    runs: all.len() as u64,
                    optimal: optimal.len() as u64,
                    mean_all_ms: mean(all.iter().copied()).unwrap_or(0.0),
                    mean_optimal_ms: mean(optimal),
                    spread_ms: [
                        quantile(&all, 0.0),
                        quantile(&all, 0.25),
                        quantile(&all, 0.5),
                        quantile(&all, 0.75),
                        quantile(&all, 1.0),
                    ],
                },
            );
        }
        summary.solvers.push(s);
    }
    summary
}

/// The thesis' tables as text: distribution, hit rates, Table 1 and Table 2.
pub fn format_tables(summary: &Summary) -> String {
    let mut out = String::new();
    let moves: Vec<u32> = summary.distribution.keys().copied().collect();
    let total: u64 = summary.distribution.values().sum();
    out.push_str("Distribution of required moves\n");
    out.push_str(&format!("{:>6} {:>8} {:>7}\n", "moves", "configs", "share"));
    for (m, count) in &summary.distribution {
        out.push_str(&format!(
            "{m:>6} {count:>8} {:>6.1}%\n",
            100.0 * *count as f64 / total.max(1) as f64
        ));
    }
    if summary.unknown_configs > 0 {
        out.push_str(&format!(
            "{:>6} {:>8}   (the baseline did not finish)\n",
            "?", summary.unknown_configs
        ));
    }
    let header = |title: &str| {
        let mut line = format!("\n{title}\n{:>6}", "moves");
        for s in &summary.solvers {
            line.push_str(&format!(" {:>14}", s.solver));
        }
        line.push('\n');
        line
    };
    out.push_str(&header(
        "Hit rate (share of optimal answers) per required move count",
    ));
    for m in &moves {
        out.push_str(&format!("{m:>6}"));
        for s in &summary.solvers {
            let cell = s
                .by_moves
                .get(m)
                .map_or("-".to_string(), |b| format!("{:.1}%", 100.0 * b.hit_rate()));
            out.push_str(&format!(" {cell:>14}"));
        }
        out.push('\n');
    }
    out.push_str(&format!("{:>6}", "total"));
    for s in &summary.solvers {
        out.push_str(&format!(" {:>14}", format!("{:.1}%", 100.0 * s.hit_rate())));
    }
    out.push('\n');
    for (title, optimal_only) in [
        (
            "Table 1: average time per required move count, all results",
            false,
        ),
        (
            "Table 2: average time per required move count, optimal results only",
            true,
        ),
    ] {
        out.push_str(&header(title));
        for m in &moves {
            out.push_str(&format!("{m:>6}"));
            for s in &summary.solvers {
                let value = s.by_moves.get(m).and_then(|b| {
                    if optimal_only {
                        b.mean_optimal_ms
                    } else {
                        Some(b.mean_all_ms)
                    }
                });
                let cell = value.map_or("-".to_string(), format_ms);
                out.push_str(&format!(" {cell:>14}"));
            }
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        config: u64,
        solver: &str,
        required: Option<u32>,
        status: Status,
        millis: f64,
    ) -> Record {
        Record {
            config,
            config_seed: config,
            puzzle: String::new(),
            solver: solver.into(),
            required_moves: required,
            found_moves: required,
            status,
            millis,
            nodes: 1,
            peak_memory_bytes: 0,
        }
    }

    #[test]
    fn statistics_of_a_hand_made_result_set() {
        let records = vec![
            row(0, "iddfs", Some(3), Status::Optimal, 10.0),
            row(0, "graph-v2", Some(3), Status::Optimal, 1.0),
            row(1, "iddfs", Some(3), Status::Optimal, 30.0),
            row(1, "graph-v2", Some(3), Status::Suboptimal, 3.0),
            row(2, "iddfs", Some(5), Status::Optimal, 100.0),
            row(2, "graph-v2", Some(5), Status::Timeout, 40.0),
            row(3, "iddfs", None, Status::Timeout, 400.0),
            row(3, "graph-v2", None, Status::Unknown, 2.0),
        ];
        let summary = summarize(&records);
        assert_eq!(summary.distribution, BTreeMap::from([(3, 2), (5, 1)]));
        assert_eq!(summary.unknown_configs, 1);
        let names: Vec<&str> = summary.solvers.iter().map(|s| s.solver.as_str()).collect();
        assert_eq!(names, ["iddfs", "graph-v2"]);
        let iddfs = &summary.solvers[0];
        assert_eq!(iddfs.hit_rate(), 1.0);
        assert_eq!(iddfs.by_moves[&3].mean_all_ms, 20.0);
        assert_eq!(iddfs.by_moves[&3].mean_optimal_ms, Some(20.0));
        assert_eq!(iddfs.unjudged, 1);
        let graph = &summary.solvers[1];
        assert_eq!(graph.runs, 3);
        assert_eq!(graph.optimal, 1);
        assert!((graph.hit_rate() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(graph.by_moves[&3].hit_rate(), 0.5);
        assert_eq!(graph.by_moves[&3].mean_all_ms, 2.0);
        assert_eq!(graph.by_moves[&3].mean_optimal_ms, Some(1.0));
        assert_eq!(graph.by_moves[&5].mean_optimal_ms, None);
        assert_eq!(graph.by_moves[&3].spread_ms, [1.0, 1.5, 2.0, 2.5, 3.0]);
        assert_eq!(graph.statuses[&Status::Timeout], 1);
        let text = format_tables(&summary);
        assert!(
            text.contains("Table 1") && text.contains("Table 2"),
            "{text}"
        );
        assert!(text.contains("33.3%"), "{text}");
    }
}
