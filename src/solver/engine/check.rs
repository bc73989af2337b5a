//! Trying an engine before it is used: the handshake, `isready` and a one-move puzzle, told
//! in sentences.

use super::protocol::{self, Identity};
use super::{Engine, EngineSpec, HANDSHAKE_TIME};
use crate::model::Puzzle;
use crate::solver::{Outcome, SolverOptions};

/// How an engine did in [`test_engine`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineVerdict {
    /// Whether it passed: it started, finished the handshake, answered `isready` and solved
    /// the test puzzle with a valid answer.
    pub works: bool,
    /// What it said about itself, when it got that far.
    pub identity: Option<Identity>,
    /// Sentences for the user, one per step, in order.
    pub steps: Vec<String>,
    /// The last lines of its standard error.
    pub stderr: Vec<String>,
}

/// Tries an engine: the handshake, `isready`, and a small puzzle (the page's 4x3 example,
/// solved by one move) within ten seconds; says in sentences what happened. The app's
/// *Add engine* dialog shows this under its *Test* button.
pub fn test_engine(spec: &EngineSpec) -> EngineVerdict {
    let mut verdict = EngineVerdict {
        works: false,
        identity: None,
        steps: Vec::new(),
        stderr: Vec::new(),
    };
    let mut engine = match Engine::start(spec) {
        Ok(engine) => engine,
        Err(error) => {
            verdict.steps.push(error.problem.to_string());
            verdict.stderr = error.stderr;
            return verdict;
        }
    };
    let identity = engine.identity().clone();
    verdict.steps.push(format!(
        "it started and finished the handshake{}",
        identity
            .name
            .as_ref()
            .map(|name| format!(" as '{name}'"))
            .unwrap_or_default()
    ));
    let facts: Vec<String> = [("author", &identity.author), ("version", &identity.version)]
        .into_iter()
        .filter_map(|(key, value)| value.as_ref().map(|value| format!("{key} {value}")))
        .collect();
    if !facts.is_empty() {
        verdict
            .steps
            .push(format!("it says of itself: {}", facts.join(", ")));
    }
    for option in &identity.options {
        verdict.steps.push(format!(
            "it has the option {} ({}, default {}, {})",
            option.name,
            option.type_word(),
            option.default_value(),
            option.range_text()
        ));
    }
    verdict.identity = Some(identity);
    let puzzle = test_puzzle();
    let limits = crate::solver::Limits {
        time: Some(HANDSHAKE_TIME),
        ..crate::solver::Limits::default()
    };
    let result = engine.solve(
        &puzzle,
        &SolverOptions::default(),
        &limits,
        &mut crate::solver::NoProbe,
    );
    verdict.stderr = engine.stderr_tail();
    match result {
        Ok(report) => match &report.outcome {
            Outcome::Solved { moves } => {
                verdict.works = true;
                verdict.steps.push(format!(
                    "it solved a test puzzle in {} move{} ({} rows)",
                    moves.len(),
                    if moves.len() == 1 { "" } else { "s" },
                    report.depths.len()
                ));
            }
            Outcome::Invalid { error, .. } => verdict
                .steps
                .push(format!("its answer to a test puzzle is wrong: {error}")),
            other => verdict.steps.push(format!(
                "it did not solve a test puzzle that takes one move: {}",
                other.name()
            )),
        },
        Err(error) => verdict.steps.push(error.to_string()),
    }
    engine.quit();
    verdict
}

/// The page's example: a 4x3 board, red at 0,0 reaches 3,0 by one move east.
pub fn test_puzzle() -> Puzzle {
    const LINE: &str = "puzzle id=t size=4x3 walls=d1139002c446 closed=- robots=R@0,0;B@3,2 goal=R@3,0 targets=R:circle@3,0 rules=-";
    match protocol::parse_request(LINE) {
        Ok(Some(protocol::Request::Puzzle(request))) => request.puzzle,
        // The line is the page's example, read by the tests; it always parses.
        _ => unreachable!("the page's example puzzle parses"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_puzzle_is_solved_by_one_move() {
        let puzzle = test_puzzle();
        let report = crate::solver::run(
            crate::solver::SolverId::Bfs,
            &puzzle,
            &SolverOptions::default(),
            &crate::solver::Limits::default(),
            &mut crate::solver::NoProbe,
        )
        .unwrap();
        assert_eq!(report.outcome.move_count(), Some(1));
    }
}
