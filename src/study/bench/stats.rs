//! Statistics over the measurements: per-solver summaries, disagreements between optimal solvers,
//! the puzzles compared.

use super::*;
use crate::study::statistics::{mean, nearest_rank};

pub(super) fn finished(m: &Measurement) -> bool {
    matches!(m.outcome, "solved" | "unsolvable" | "none-within")
}

/// Time statistics of one solver over a list of measurements.
pub fn summarize(solver: &'static str, measurements: &[Measurement]) -> Summary {
    let mine: Vec<&Measurement> = measurements.iter().filter(|m| m.solver == solver).collect();
    let done: Vec<&&Measurement> = mine.iter().filter(|m| finished(m)).collect();
    let mut times: Vec<f64> = done.iter().map(|m| m.time.as_secs_f64() * 1e3).collect();
    times.sort_by(f64::total_cmp);
    let moves: Vec<usize> = done.iter().filter_map(|m| m.moves).collect();
    Summary {
        solver,
        finished: done.len(),
        unfinished: mine.len() - done.len(),
        mean_ms: mean(times.iter().copied()).unwrap_or(0.0),
        // Nearest ranks, so the median and the 99th percentile are runs that were measured.
        median_ms: nearest_rank(&times, 0.5),
        p99_ms: nearest_rank(&times, 0.99),
        max_ms: times.last().copied().unwrap_or(0.0),
        mean_moves: mean(moves.iter().map(|&m| m as f64)).unwrap_or(0.0),
        nodes: mine.iter().map(|m| m.nodes).sum(),
    }
}

/// Puzzles on which the optimal solvers that finished gave different answers.
pub fn disagreements(measurements: &[Measurement]) -> Vec<Disagreement> {
    let mut names: Vec<&str> = Vec::new();
    for m in measurements {
        if !names.contains(&m.puzzle.as_str()) {
            names.push(&m.puzzle);
        }
    }
    let mut out = Vec::new();
    for name in names {
        let answers: Vec<(&'static str, Option<usize>)> = measurements
            .iter()
            .filter(|m| m.puzzle == name && finished(m))
            .filter(|m| m.optimal)
            .map(|m| (m.solver, m.moves))
            .collect();
        if answers.windows(2).any(|w| w[0].1 != w[1].1) {
            out.push(Disagreement {
                puzzle: name.to_string(),
                answers,
            });
        }
    }
    out
}

/// How many puzzles at least two optimal solvers finished, so that their move counts were
/// compared.
pub fn compared_puzzles(measurements: &[Measurement]) -> usize {
    let mut finishers: BTreeMap<&str, usize> = BTreeMap::new();
    for m in measurements.iter().filter(|m| finished(m)) {
        if m.optimal {
            *finishers.entry(m.puzzle.as_str()).or_insert(0) += 1;
        }
    }
    finishers.values().filter(|&&n| n >= 2).count()
}
