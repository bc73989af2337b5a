//! Matches: two or more solvers (built-in or engines) over a puzzle suite, each answer replayed
//! and checked against the suite's known optimum, the results written one line per puzzle and
//! solver as each puzzle finishes (so a match killed half way resumes where it stopped), and a
//! report with per-solver totals and the paired time ratio of each solver to the first, with
//! its 95% interval and an optional sequential test that stops the match once it is decided.
//!
//! - [`suite`]: the suite format, one puzzle a line;
//! - [`stats`]: the ratio, its interval and the sequential test;
//! - [`run`](mod@run): the worker threads and the results file;
//! - [`order`]: the seeded order, stratified by length, a match runs its suite in, and its
//!   shards;
//! - [`merge`]: the results files of a match's shards merged into one;
//! - [`chart`]: the ratio and its interval as the match went, for `match --plot`.

pub mod chart;
pub mod merge;
pub mod order;
pub mod run;
pub mod stats;
pub mod suite;

use crate::solver::{Optimality, Outcome, SolverChoice};
use serde::{Deserialize, Serialize};
use stats::{Decision, PairStats, Sprt};
pub use suite::{Optimum, SuiteEntry, SuiteError, SuiteProblem, load_suite, parse_suite};

/// How one answer compares with the suite's optimum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The answer is as short as the optimum (or, for a puzzle without solution, says so).
    Optimal,
    /// A replayed solution longer than the optimum, from a solver that does not claim shortest
    /// answers.
    Longer,
    /// No answer: a time or memory limit, or a search that is not exhaustive ended empty.
    Unfinished,
    /// A false answer: it failed its replay, or contradicts the optimum where the solver is
    /// the one to blame (an engine's claim of no solution, or of a shortest answer).
    Wrong,
    /// The answer shows the suite wrong: a replayed solution shorter than its optimum, or an
    /// optimal built-in solver's answer that differs from it.
    SuiteError,
    /// The suite gives no optimum to check the answer against.
    Unchecked,
}

impl Verdict {
    /// Whether the run ended with an answer whose time counts in the ratio.
    pub fn finished(self) -> bool {
        matches!(
            self,
            Verdict::Optimal | Verdict::Longer | Verdict::Unchecked
        )
    }
}

/// One solver's result on one puzzle: a line of the results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// The puzzle's id in the suite.
    pub puzzle: String,
    /// The solver's name.
    pub solver: String,
    /// How the run ended (`solved`, `unsolvable`, `time-limit`, `error`, …).
    pub outcome: String,
    /// The solution's moves, when solved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<u32>,
    /// The run's wall time in milliseconds (an engine's from `go` to its result).
    pub millis: f64,
    /// The nodes it reported.
    pub nodes: u64,
    /// How the answer compares with the suite's optimum.
    pub verdict: Verdict,
    /// What is wrong, for a wrong answer or a suite error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// Judges an outcome against the suite's optimum. `optimal` says whether the solver's answers
/// are claimed shortest, `trusted` whether that claim is a built-in solver's (whose
/// disagreement with the suite blames the suite) rather than an engine's (which is blamed).
pub fn judge(
    optimum: Optimum,
    outcome: &Outcome,
    optimal: bool,
    trusted: bool,
) -> (Verdict, Option<String>) {
    let blame = |text: String| {
        if trusted {
            (Verdict::SuiteError, Some(text))
        } else {
            (Verdict::Wrong, Some(text))
        }
    };
    match (outcome, optimum) {
        (Outcome::Invalid { error, .. }, _) => (
            Verdict::Wrong,
            Some(format!("its answer failed the replay: {error}")),
        ),
        (Outcome::Solved { moves }, Optimum::Moves(n)) => {
            let m = moves.len() as u32;
            if m == n {
                (Verdict::Optimal, None)
            } else if m < n {
                (
                    Verdict::SuiteError,
                    Some(format!(
                        "a replayed solution of {m} moves is shorter than the suite's optimum {n}"
                    )),
                )
            } else if optimal {
                blame(format!(
                    "its answer of {m} moves, claimed shortest, is longer than the suite's optimum {n}"
                ))
            } else {
                (Verdict::Longer, None)
            }
        }
        (Outcome::Solved { moves }, Optimum::Unsolvable) => (
            Verdict::SuiteError,
            Some(format!(
                "a replayed solution of {} moves, but the suite says there is none",
                moves.len()
            )),
        ),
        (Outcome::Unsolvable { within: None }, Optimum::Unsolvable) => (Verdict::Optimal, None),
        (Outcome::Unsolvable { within }, Optimum::Moves(n))
            if within.is_none_or(|limit| n <= limit) =>
        {
            blame(format!(
                "it says there is no solution, but the suite's optimum is {n} moves"
            ))
        }
        (Outcome::Solved { .. } | Outcome::Unsolvable { .. }, _) => (Verdict::Unchecked, None),
        _ => (Verdict::Unfinished, None),
    }
}

/// Whether a solver's answers are claimed shortest, and whether the claim is a built-in
/// solver's: a built-in optimal solver's by its registry, an engine's by its handshake.
pub fn optimality(choice: &SolverChoice) -> (bool, bool) {
    match choice {
        SolverChoice::BuiltIn(_) => {
            let optimal = choice.optimality() == Optimality::Guaranteed;
            (optimal, optimal)
        }
        SolverChoice::Engine(_) => (crate::solver::engine::claims_optimal(choice), false),
    }
}

/// One solver's totals over a match.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SolverTotals {
    /// The solver's name.
    pub solver: String,
    /// Puzzles it ran.
    pub runs: usize,
    /// Answers as short as the optimum.
    pub optimal: usize,
    /// Longer answers.
    pub longer: usize,
    /// Runs without an answer.
    pub unfinished: usize,
    /// False answers.
    pub wrong: usize,
    /// Answers that show the suite wrong.
    pub suite_errors: usize,
    /// Answers the suite gives no optimum for.
    pub unchecked: usize,
    /// Its total wall time, in seconds.
    pub seconds: f64,
    /// Its total nodes.
    pub nodes: u64,
}

/// A match's report: totals, the ratio of each solver to the first, the sequential test's
/// decision, and every wrong answer and suite error.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchReport {
    /// The suite's puzzles.
    pub puzzles: usize,
    /// Puzzles every solver has a result for.
    pub complete: usize,
    /// Per solver, in the order named.
    pub solvers: Vec<SolverTotals>,
    /// Each solver after the first against the first.
    pub pairs: Vec<PairStats>,
    /// The sequential test on the first pair, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// Wrong answers and suite errors: puzzle, solver, what.
    pub problems: Vec<(String, String, Verdict, String)>,
}

/// The report over `records` (any order) of a suite of `puzzles` puzzles run by `solvers`.
pub fn report(
    puzzle_ids: &[String],
    solvers: &[String],
    records: &[MatchRecord],
    sprt: Option<&Sprt>,
) -> MatchReport {
    let mut totals: Vec<SolverTotals> = solvers
        .iter()
        .map(|solver| SolverTotals {
            solver: solver.clone(),
            ..SolverTotals::default()
        })
        .collect();
    let mut problems = Vec::new();
    for record in records {
        let Some(total) = totals.iter_mut().find(|t| t.solver == record.solver) else {
            continue;
        };
        total.runs += 1;
        total.seconds += record.millis / 1000.0;
        total.nodes = total.nodes.saturating_add(record.nodes);
        match record.verdict {
            Verdict::Optimal => total.optimal += 1,
            Verdict::Longer => total.longer += 1,
            Verdict::Unfinished => total.unfinished += 1,
            Verdict::Wrong => total.wrong += 1,
            Verdict::SuiteError => total.suite_errors += 1,
            Verdict::Unchecked => total.unchecked += 1,
        }
        if matches!(record.verdict, Verdict::Wrong | Verdict::SuiteError) {
            problems.push((
                record.puzzle.clone(),
                record.solver.clone(),
                record.verdict,
                record.detail.clone().unwrap_or_default(),
            ));
        }
    }
    // Problems in the suite's order, then by solver, whatever order the threads finished in.
    let order = |id: &str| puzzle_ids.iter().position(|p| p == id);
    problems.sort_by(|a, b| (order(&a.0), &a.1).cmp(&(order(&b.0), &b.1)));
    let time_of = |puzzle: &str, solver: &str| {
        records
            .iter()
            .find(|r| r.puzzle == puzzle && r.solver == solver && r.verdict.finished())
            .map(|r| r.millis / 1000.0)
    };
    let by_puzzle = group(records);
    let complete = puzzle_ids
        .iter()
        .filter(|id| {
            by_puzzle
                .get(id.as_str())
                .is_some_and(|done| solvers.iter().all(|s| done.contains(&s.as_str())))
        })
        .count();
    let mut pairs = Vec::new();
    let mut decision = None;
    if let Some(base) = solvers.first() {
        for (index, other) in solvers.iter().enumerate().skip(1) {
            let times: Vec<(f64, f64)> = puzzle_ids
                .iter()
                .filter_map(|id| Some((time_of(id, base)?, time_of(id, other)?)))
                .collect();
            if index == 1
                && let Some(sprt) = sprt
            {
                decision = Some(sprt.decide(&log_ratios(&times)).0);
            }
            pairs.push(stats::pair_stats(base, other, &times));
        }
    }
    MatchReport {
        puzzles: puzzle_ids.len(),
        complete,
        solvers: totals,
        pairs,
        decision,
        problems,
    }
}

/// The log of each pair's ratio, other's time over base's.
pub fn log_ratios(times: &[(f64, f64)]) -> Vec<f64> {
    times
        .iter()
        .map(|(a, b)| (b.max(1e-6) / a.max(1e-6)).ln())
        .collect()
}

/// The solvers with a record, per puzzle id.
fn group(records: &[MatchRecord]) -> std::collections::HashMap<&str, Vec<&str>> {
    let mut by_puzzle: std::collections::HashMap<&str, Vec<&str>> =
        std::collections::HashMap::new();
    for record in records {
        by_puzzle
            .entry(record.puzzle.as_str())
            .or_default()
            .push(record.solver.as_str());
    }
    by_puzzle
}

impl MatchReport {
    /// The report as text: the totals table, each pair's ratio with its interval, the
    /// decision, and the problems found.
    pub fn text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} of {} puzzles run by every solver\n",
            self.complete, self.puzzles
        );
        let _ = writeln!(
            out,
            "| solver | runs | optimal | longer | unfinished | wrong | suite errors | unchecked | time | nodes |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        for t in &self.solvers {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                t.solver,
                t.runs,
                t.optimal,
                t.longer,
                t.unfinished,
                t.wrong,
                t.suite_errors,
                t.unchecked,
                crate::study::format::format_ms(t.seconds * 1000.0),
                t.nodes
            );
        }
        for pair in &self.pairs {
            let _ = writeln!(out);
            match (pair.ratio, pair.interval) {
                (Some(ratio), Some((low, high))) => {
                    let _ = writeln!(
                        out,
                        "{} / {}: time ratio {ratio:.3} (95% interval {low:.3} to {high:.3}) over {} puzzles; {} faster on {}, slower on {}, tied on {}",
                        pair.other,
                        pair.base,
                        pair.puzzles,
                        pair.other,
                        pair.wins,
                        pair.losses,
                        pair.ties
                    );
                }
                (Some(ratio), None) => {
                    let _ = writeln!(
                        out,
                        "{} / {}: time ratio {ratio:.3} over 1 puzzle (no interval from one)",
                        pair.other, pair.base
                    );
                }
                _ => {
                    let _ = writeln!(
                        out,
                        "{} / {}: no puzzle finished by both, so no ratio",
                        pair.other, pair.base
                    );
                }
            }
        }
        if let (Some(decision), Some(pair)) = (self.decision, self.pairs.first()) {
            let said = match decision {
                Decision::Open => "not decided yet".to_string(),
                Decision::Faster => format!("decided: {} is faster than {}", pair.other, pair.base),
                Decision::Slower => format!("decided: {} is slower than {}", pair.other, pair.base),
                Decision::Same => format!(
                    "decided: {} and {} are within the margin of each other",
                    pair.other, pair.base
                ),
            };
            let _ = writeln!(out, "sequential test: {said}");
        }
        if !self.problems.is_empty() {
            let _ = writeln!(out, "\nProblems:");
            for (puzzle, solver, verdict, detail) in &self.problems {
                let who = match verdict {
                    Verdict::SuiteError => "suite error",
                    _ => "wrong answer",
                };
                let _ = writeln!(out, "- {puzzle}: {who} ({solver}): {detail}");
            }
        }
        out
    }
}

/// The records as CSV, one line per puzzle and solver, with a header.
pub fn records_csv(records: &[MatchRecord]) -> String {
    let mut out = String::from("puzzle,solver,outcome,moves,millis,nodes,verdict,detail\n");
    for r in records {
        let detail = r.detail.as_deref().unwrap_or("").replace('"', "\"\"");
        out.push_str(&format!(
            "{},{},{},{},{:.3},{},{},\"{detail}\"\n",
            r.puzzle,
            r.solver,
            r.outcome,
            r.moves.map_or(String::new(), |m| m.to_string()),
            r.millis,
            r.nodes,
            serde_json::to_value(r.verdict)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Move;

    fn solved(n: usize) -> Outcome {
        Outcome::Solved {
            moves: vec![Move::new(crate::model::RobotColor::Red, crate::model::Direction::East); n],
        }
    }

    #[test]
    fn answers_are_judged_against_the_optimum_and_blame_falls_where_it_belongs() {
        let five = Optimum::Moves(5);
        assert_eq!(judge(five, &solved(5), true, true).0, Verdict::Optimal);
        assert_eq!(judge(five, &solved(7), false, false).0, Verdict::Longer);
        // A shorter replayed solution shows the suite wrong, whoever found it.
        assert_eq!(judge(five, &solved(4), false, false).0, Verdict::SuiteError);
        // A longer answer claimed shortest: the suite's fault for a built-in optimal solver,
        // the engine's for an engine.
        assert_eq!(judge(five, &solved(6), true, true).0, Verdict::SuiteError);
        assert_eq!(judge(five, &solved(6), true, false).0, Verdict::Wrong);
        let none = Outcome::Unsolvable { within: None };
        assert_eq!(judge(five, &none, true, false).0, Verdict::Wrong);
        assert_eq!(
            judge(Optimum::Unsolvable, &none, true, true).0,
            Verdict::Optimal
        );
        assert_eq!(
            judge(Optimum::Unknown, &solved(3), true, true).0,
            Verdict::Unchecked
        );
        assert_eq!(
            judge(five, &Outcome::TimeLimit, true, true).0,
            Verdict::Unfinished
        );
    }

    fn record(puzzle: &str, solver: &str, millis: f64) -> MatchRecord {
        MatchRecord {
            puzzle: puzzle.into(),
            solver: solver.into(),
            outcome: "solved".into(),
            moves: Some(3),
            millis,
            nodes: 10,
            verdict: Verdict::Optimal,
            detail: None,
        }
    }

    #[test]
    fn the_report_pairs_times_by_puzzle_and_counts_complete_puzzles() {
        let ids: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let solvers: Vec<String> = ["x", "y"].map(String::from).to_vec();
        let records = vec![
            record("a", "x", 10.0),
            record("a", "y", 20.0),
            record("b", "y", 40.0),
            record("b", "x", 20.0),
            record("c", "x", 5.0),
        ];
        let report = report(&ids, &solvers, &records, None);
        assert_eq!(report.complete, 2);
        assert_eq!(report.solvers[0].runs, 3);
        assert_eq!(report.pairs[0].puzzles, 2);
        assert!((report.pairs[0].ratio.unwrap() - 2.0).abs() < 1e-9);
        let text = report.text();
        assert!(text.contains("y / x: time ratio 2.000"), "{text}");
        let csv = records_csv(&records);
        assert!(csv.starts_with("puzzle,solver,"), "{csv}");
        assert!(csv.contains("a,x,solved,3,10.000,10,optimal,\"\""), "{csv}");
    }
}
