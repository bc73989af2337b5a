//! `lesson check`: every problem of a lesson file, those [`Lesson::resolve`] finds and those
//! only a search finds: a puzzle without a solution, a solver that does not take the puzzle's
//! rules, breakpoints or Predict in a lesson that does not debug.

use super::{Lesson, LessonProblem, parse_file};
use crate::model::formats;
use crate::solver::{self, Limits, NoProbe, Outcome, SolverId, SolverOptions};
use std::path::Path;
use std::time::Duration;

/// How long the check searches for a solution before it takes the puzzle as solvable enough:
/// a lesson's puzzle is meant to be solved in class, in far less.
const SEARCH_TIME: Duration = Duration::from_secs(20);

/// The memory the check's search may take.
const SEARCH_MEMORY: usize = 1 << 30;

/// Every problem of the lesson file at `path`, in the order of its fields; empty when the
/// lesson is valid.
pub fn check_file(path: &Path) -> Vec<LessonProblem> {
    let problem = |field: &str, message: String| LessonProblem {
        file: path.to_path_buf(),
        field: field.to_string(),
        message,
    };
    let text = match formats::read_text(path) {
        Ok(text) => text,
        Err(error) => return vec![problem("file", format!("cannot be read: {error}"))],
    };
    let file = match parse_file(&text, path) {
        Ok(file) => file,
        Err(problem) => return vec![problem],
    };
    let mut problems = Vec::new();
    if !file.debug {
        if !file.breakpoints.is_empty() {
            problems.push(problem(
                "breakpoints",
                "breakpoints are set but debug is false: Solve would not stop at them".into(),
            ));
        }
        if file.predict {
            problems.push(problem(
                "predict",
                "predict is true but debug is false: Predict is a mode of the debugger".into(),
            ));
        }
    }
    let lesson = match Lesson::resolve(file, path) {
        Ok(lesson) => lesson,
        Err(found) => {
            problems.extend(found);
            return problems;
        }
    };
    let rules = lesson.puzzle.rules();
    for solver in &lesson.solvers {
        if let Some(rule) = solver.kind().rules.unsupported(rules) {
            problems.push(problem(
                "solvers",
                format!("{solver} does not take the puzzle's {rule} rule"),
            ));
        }
    }
    if let Some(message) = unsolvable(&lesson) {
        problems.push(problem("puzzle", message));
    }
    problems
}

/// Why the lesson's puzzle cannot be solved, or `None` when a solution was found (or the
/// search ran out of time or memory, which proves nothing).
fn unsolvable(lesson: &Lesson) -> Option<String> {
    let limits = Limits {
        time: Some(SEARCH_TIME),
        memory_bytes: Some(SEARCH_MEMORY),
        cancel: None,
    };
    // IDA* takes every rule, finds a short solution soon with the minimum-move table, and
    // proves by its closure check that none exists.
    let report = solver::run(
        SolverId::Idastar,
        &lesson.puzzle,
        &SolverOptions::default(),
        &limits,
        &mut NoProbe,
    );
    match report.map(|report| report.outcome) {
        Ok(Outcome::Unsolvable { within: None }) => {
            Some("the puzzle has no solution (IDA* reached every position it can)".into())
        }
        Ok(Outcome::Unsolvable {
            within: Some(depth),
        }) => Some(format!("the puzzle has no solution within {depth} moves")),
        Ok(
            Outcome::Solved { .. }
            | Outcome::NotFound
            | Outcome::Cancelled
            | Outcome::TimeLimit
            | Outcome::MemoryLimit
            | Outcome::Invalid { .. },
        ) => None,
        Err(error) => Some(format!("the puzzle cannot be searched: {error}")),
    }
}
