//! The `accuracy` command: how often a solver finds the optimum, by optimal move count.
//!
//! Puzzle i is the standard random game `random_game(seed + i, robots)`. An optimal baseline
//! solver (IDDFS unless told otherwise) gives the optimum; puzzles it cannot settle within the
//! limits are skipped and counted. The solver under test then runs with the same limits and its
//! answer is sorted into one of: optimal, suboptimal (replayed, longer than the optimum), below
//! the optimum (replayed and shorter: a bug in the baseline), invalid (failed its replay), no
//! answer (it gave up or claimed there is none) and stopped (time or memory limit). Every
//! solver goes through [`solver::run`], so every answer is replayed. Beside these, `count=opt`
//! is the share of answers whose move count equals the optimum, replayed or not: the measure to
//! hold against figures that compared move counts only.
//!
//! Columns of the table: `optimum` (the optimal move count, `all` for every puzzle),
//! `puzzles`, the shares `optimal`, `suboptimal` and `count=opt`, the counts `below`,
//! `invalid`, `no answer` and `stopped`, and the median times in milliseconds of the solver
//! and of the baseline.

use super::statistics::median;
use crate::model::tiles;
use crate::solver::{self, Limits, NoProbe, Outcome, SolverChoice, SolverId, SolverOptions};
use serde::Serialize;
use std::fmt::Write as _;

/// What became of one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The solver's answer replayed and has the optimal length.
    Optimal,
    /// The answer replayed and is longer than the optimum.
    Suboptimal,
    /// The answer replayed and is shorter than the baseline's "optimum": a bug somewhere.
    BelowOptimum,
    /// The answer failed its replay.
    Invalid,
    /// The solver claimed there is no solution or gave up.
    NoAnswer,
    /// The solver hit the time or memory limit.
    Stopped,
}

/// One measured puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleResult {
    /// Its seed.
    pub seed: u64,
    /// The baseline's optimum.
    pub optimum: usize,
    /// The solver's move count (claimed, for an invalid answer).
    pub moves: Option<usize>,
    /// What became of it.
    pub verdict: Verdict,
    /// The solver's time, in milliseconds.
    pub solver_ms: f64,
    /// The baseline's time, in milliseconds.
    pub baseline_ms: f64,
}

/// The counts of one row of the table: one optimal move count, or all of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// The optimal move count; `None` for the total.
    pub optimum: Option<usize>,
    /// Puzzles in the row.
    pub puzzles: usize,
    /// Answers of optimal length.
    pub optimal: usize,
    /// Longer answers.
    pub suboptimal: usize,
    /// Answers shorter than the optimum (should be none).
    pub below: usize,
    /// Answers that failed their replay.
    pub invalid: usize,
    /// No answer.
    pub no_answer: usize,
    /// Stopped by a limit.
    pub stopped: usize,
    /// Answers, replayed or not, whose move count equals the optimum.
    pub count_optimal: usize,
    /// The solver's median time, in milliseconds.
    pub median_ms: f64,
    /// The baseline's median time, in milliseconds.
    pub baseline_median_ms: f64,
}

impl Row {
    /// The share of the row's puzzles with an optimal answer, 0..=1.
    pub fn share_optimal(&self) -> f64 {
        super::share(self.optimal as u64, self.puzzles as u64)
    }

    /// The share with a longer answer, 0..=1.
    pub fn share_suboptimal(&self) -> f64 {
        super::share(self.suboptimal as u64, self.puzzles as u64)
    }

    /// The share whose answer claims the optimal move count, whether it replays or not, 0..=1.
    pub fn share_count_optimal(&self) -> f64 {
        super::share(self.count_optimal as u64, self.puzzles as u64)
    }
}

/// The whole measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct AccuracyReport {
    /// The solver measured.
    pub solver: String,
    /// The baseline.
    pub baseline: String,
    /// The first seed.
    pub seed: u64,
    /// One result per puzzle the baseline settled.
    pub results: Vec<PuzzleResult>,
    /// Seeds of puzzles the baseline did not solve within the limits.
    pub skipped: Vec<u64>,
    /// Seeds of puzzles the baseline proved unsolvable.
    pub unsolvable: Vec<u64>,
    /// Whether the limits' cancel flag stopped the measurement: the report then covers the
    /// puzzles that finished before it, and the one under way is left out.
    pub interrupted: bool,
}

impl AccuracyReport {
    /// One row per optimal move count, in increasing order.
    pub fn rows(&self) -> Vec<Row> {
        let mut counts: Vec<usize> = self.results.iter().map(|r| r.optimum).collect();
        counts.sort_unstable();
        counts.dedup();
        counts
            .into_iter()
            .map(|optimum| {
                let results: Vec<&PuzzleResult> = self
                    .results
                    .iter()
                    .filter(|r| r.optimum == optimum)
                    .collect();
                row(Some(optimum), &results)
            })
            .collect()
    }

    /// The row over all puzzles.
    pub fn total(&self) -> Row {
        let results: Vec<&PuzzleResult> = self.results.iter().collect();
        row(None, &results)
    }
}

fn row(optimum: Option<usize>, results: &[&PuzzleResult]) -> Row {
    let count = |verdict| results.iter().filter(|r| r.verdict == verdict).count();
    Row {
        optimum,
        puzzles: results.len(),
        optimal: count(Verdict::Optimal),
        suboptimal: count(Verdict::Suboptimal),
        below: count(Verdict::BelowOptimum),
        invalid: count(Verdict::Invalid),
        no_answer: count(Verdict::NoAnswer),
        stopped: count(Verdict::Stopped),
        count_optimal: results
            .iter()
            .filter(|r| r.moves == Some(r.optimum))
            .count(),
        median_ms: median(results.iter().map(|r| r.solver_ms).collect()),
        baseline_median_ms: median(results.iter().map(|r| r.baseline_ms).collect()),
    }
}

/// What the measurement is asked to do.
#[derive(Clone, Debug)]
pub struct AccuracyConfig {
    /// The solver to measure: a built-in one or an external engine.
    pub solver: SolverChoice,
    /// The optimal baseline, a built-in solver (only the registry promises shortest answers).
    pub baseline: SolverId,
    /// The number of puzzles.
    pub puzzles: u64,
    /// The first seed.
    pub seed: u64,
    /// Robots per puzzle.
    pub robots: usize,
    /// Limits for each run.
    pub limits: Limits,
}

/// Why a measurement could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccuracyError {
    /// A solver could not run.
    #[error(transparent)]
    Solve(#[from] solver::SolveError),
    /// The baseline is unknown or does not guarantee optimal answers.
    #[error(transparent)]
    Baseline(#[from] super::BaselineError),
    /// A puzzle could not be dealt.
    #[error("the game with seed {seed} could not be dealt: {error}")]
    Deal {
        /// The seed.
        seed: u64,
        /// Why.
        error: crate::model::ModelError,
    },
}

/// Measures a solver; `progress` hears of each puzzle as it is done (index, seed, result).
pub fn measure(
    config: &AccuracyConfig,
    mut progress: impl FnMut(u64, u64, Option<&PuzzleResult>),
) -> Result<AccuracyReport, AccuracyError> {
    super::optimal_baseline(config.baseline.name())?;
    let options = SolverOptions::default();
    let mut report = AccuracyReport {
        solver: config.solver.name().to_string(),
        baseline: config.baseline.name().to_string(),
        seed: config.seed,
        results: Vec::new(),
        skipped: Vec::new(),
        unsolvable: Vec::new(),
        interrupted: false,
    };
    let cancelled = || {
        config
            .limits
            .cancel
            .as_ref()
            .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
    };
    for index in 0..config.puzzles {
        if cancelled() {
            report.interrupted = true;
            break;
        }
        let seed = config.seed.wrapping_add(index);
        let (puzzle, _) = tiles::random_game(seed, config.robots)
            .map_err(|error| AccuracyError::Deal { seed, error })?;
        let base = solver::run(
            config.baseline,
            &puzzle,
            &options,
            &config.limits,
            &mut NoProbe,
        )?;
        if base.outcome == Outcome::Cancelled {
            report.interrupted = true;
            break;
        }
        let optimum = match &base.outcome {
            Outcome::Solved { moves } => moves.len(),
            Outcome::Unsolvable { within: None } => {
                report.unsolvable.push(seed);
                progress(index, seed, None);
                continue;
            }
            _ => {
                report.skipped.push(seed);
                progress(index, seed, None);
                continue;
            }
        };
        let run = solver::run(
            &config.solver,
            &puzzle,
            &options,
            &config.limits,
            &mut NoProbe,
        )?;
        if run.outcome == Outcome::Cancelled {
            report.interrupted = true;
            break;
        }
        let verdict = match &run.outcome {
            Outcome::Solved { moves } if moves.len() == optimum => Verdict::Optimal,
            Outcome::Solved { moves } if moves.len() > optimum => Verdict::Suboptimal,
            Outcome::Solved { .. } => Verdict::BelowOptimum,
            Outcome::Invalid { .. } => Verdict::Invalid,
            Outcome::Unsolvable { .. } | Outcome::NotFound | Outcome::Cancelled => {
                Verdict::NoAnswer
            }
            Outcome::TimeLimit | Outcome::MemoryLimit => Verdict::Stopped,
        };
        let result = PuzzleResult {
            seed,
            optimum,
            moves: run.outcome.move_count(),
            verdict,
            solver_ms: run.elapsed.as_secs_f64() * 1000.0,
            baseline_ms: base.elapsed.as_secs_f64() * 1000.0,
        };
        progress(index, seed, Some(&result));
        report.results.push(result);
    }
    Ok(report)
}

/// The report as a table, one row per optimal move count and a total.
pub fn format_table(report: &AccuracyReport) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        out,
        "{} against {} on {} standard puzzles from seed {}",
        report.solver,
        report.baseline,
        report.results.len() + report.skipped.len() + report.unsolvable.len(),
        report.seed
    );
    let _ = writeln!(
        out,
        "{:>7} {:>7} {:>8} {:>10} {:>9} {:>6} {:>8} {:>9} {:>8} {:>10} {:>12}",
        "optimum",
        "puzzles",
        "optimal",
        "suboptimal",
        "count=opt",
        "below",
        "invalid",
        "no answer",
        "stopped",
        "median ms",
        "baseline ms"
    );
    let line = |out: &mut String, label: String, row: &Row| {
        let _ = writeln!(
            out,
            "{:>7} {:>7} {:>7.1}% {:>9.1}% {:>8.1}% {:>6} {:>8} {:>9} {:>8} {:>10.2} {:>12.2}",
            label,
            row.puzzles,
            100.0 * row.share_optimal(),
            100.0 * row.share_suboptimal(),
            100.0 * row.share_count_optimal(),
            row.below,
            row.invalid,
            row.no_answer,
            row.stopped,
            row.median_ms,
            row.baseline_median_ms
        );
    };
    for row in report.rows() {
        line(&mut out, row.optimum.unwrap_or(0).to_string(), &row);
    }
    line(&mut out, "all".to_string(), &report.total());
    if !report.skipped.is_empty() {
        let _ = writeln!(
            out,
            "skipped {} puzzles the baseline did not settle within the limits: seeds {:?}",
            report.skipped.len(),
            report.skipped
        );
    }
    if !report.unsolvable.is_empty() {
        let _ = writeln!(
            out,
            "skipped {} unsolvable puzzles: seeds {:?}",
            report.unsolvable.len(),
            report.unsolvable
        );
    }
    out
}

/// One row of the JSON report: the counts with their shares.
#[derive(Serialize)]
struct RowJson {
    optimum: Option<usize>,
    puzzles: usize,
    optimal: usize,
    share_optimal: f64,
    suboptimal: usize,
    share_suboptimal: f64,
    count_optimal: usize,
    share_count_optimal: f64,
    below_optimum: usize,
    invalid: usize,
    no_answer: usize,
    stopped: usize,
    median_ms: f64,
    baseline_median_ms: f64,
}

impl RowJson {
    fn new(row: &Row) -> RowJson {
        RowJson {
            optimum: row.optimum,
            puzzles: row.puzzles,
            optimal: row.optimal,
            share_optimal: row.share_optimal(),
            suboptimal: row.suboptimal,
            share_suboptimal: row.share_suboptimal(),
            count_optimal: row.count_optimal,
            share_count_optimal: row.share_count_optimal(),
            below_optimum: row.below,
            invalid: row.invalid,
            no_answer: row.no_answer,
            stopped: row.stopped,
            median_ms: row.median_ms,
            baseline_median_ms: row.baseline_median_ms,
        }
    }
}

/// The whole JSON report.
#[derive(Serialize)]
struct ReportJson<'a> {
    solver: &'a str,
    baseline: &'a str,
    seed: u64,
    rows: Vec<RowJson>,
    total: RowJson,
    skipped_seeds: &'a [u64],
    unsolvable_seeds: &'a [u64],
}

/// The report as one JSON object.
pub fn report_json(report: &AccuracyReport) -> serde_json::Value {
    let json = ReportJson {
        solver: &report.solver,
        baseline: &report.baseline,
        seed: report.seed,
        rows: report.rows().iter().map(RowJson::new).collect(),
        total: RowJson::new(&report.total()),
        skipped_seeds: &report.skipped,
        unsolvable_seeds: &report.unsolvable,
    };
    // Plain numbers, strings and lists: serialising them cannot fail.
    serde_json::to_value(json).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn optimal_solver_against_itself_is_always_optimal() {
        let config = AccuracyConfig {
            solver: SolverId::Bfs.into(),
            baseline: SolverId::Iddfs,
            puzzles: 5,
            seed: 10,
            robots: 2,
            limits: Limits {
                time: Some(Duration::from_secs(20)),
                ..Limits::default()
            },
        };
        let report = measure(&config, |_, _, _| ()).unwrap();
        let total = report.total();
        assert_eq!(
            total.puzzles + report.skipped.len() + report.unsolvable.len(),
            5
        );
        assert_eq!(total.optimal, total.puzzles);
        let by_count: usize = report.rows().iter().map(|r| r.puzzles).sum();
        assert_eq!(by_count, total.puzzles);
        assert!(format_table(&report).contains("100.0%"));
    }

    #[test]
    fn a_baseline_that_is_not_optimal_is_refused() {
        let config = AccuracyConfig {
            solver: SolverId::Bfs.into(),
            baseline: SolverId::Stateless,
            puzzles: 1,
            seed: 1,
            robots: 4,
            limits: Limits::default(),
        };
        assert_eq!(
            measure(&config, |_, _, _| ()),
            Err(AccuracyError::Baseline(
                crate::study::BaselineError::NotOptimal("stateless".into())
            ))
        );
    }
}
