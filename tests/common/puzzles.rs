//! Puzzles and solver runs the solver test files share.

use ricochet_lab::model::Puzzle;
use ricochet_lab::solver::{self, Limits, NoProbe, Outcome, SolverOptions, SolverRef};
use std::time::Duration;

/// The path of a shipped board in `boards/`, as the loaders take it.
pub fn board(name: &str) -> String {
    format!("{}/boards/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs a solver with default options, `seconds` of time and 1 GiB of tables, and returns how
/// it ended. Panics when the solver cannot take the puzzle.
pub fn solve_within(solver: impl SolverRef, puzzle: &Puzzle, seconds: u64) -> Outcome {
    let limits = Limits {
        time: Some(Duration::from_secs(seconds)),
        memory_bytes: Some(1 << 30),
        cancel: None,
    };
    solver::run(
        solver,
        puzzle,
        &SolverOptions::default(),
        &limits,
        &mut NoProbe,
    )
    .unwrap()
    .outcome
}

/// [`solve_within`] with 20 seconds, far more than any test puzzle needs.
pub fn solve(solver: impl SolverRef, puzzle: &Puzzle) -> Outcome {
    solve_within(solver, puzzle, 20)
}
