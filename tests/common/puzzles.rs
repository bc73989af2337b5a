//! Puzzles and solver runs the solver test files share.

use ricochet_lab::model::Puzzle;
use ricochet_lab::model::formats::load_source;
use ricochet_lab::solver::{
    self, Limits, NoProbe, Outcome, Probe, RecordingProbe, Report, SolverOptions, SolverRef,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The path of a shipped board in `boards/`, as the loaders take it.
pub fn board(name: &str) -> String {
    format!("{}/boards/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A shipped board in `boards/`, loaded.
pub fn load(name: &str) -> Puzzle {
    load_source(&board(name)).unwrap()
}

/// Runs a solver with `options` and `limits`, reporting to `probe`. Panics when the solver
/// cannot take the puzzle.
pub fn report_with<P: Probe>(
    solver: impl SolverRef,
    puzzle: &Puzzle,
    options: &SolverOptions,
    limits: &Limits,
    probe: &mut P,
) -> Report {
    solver::run(solver, puzzle, options, limits, probe).unwrap()
}

/// Runs a solver with default options within `limits`.
pub fn report_within(solver: impl SolverRef, puzzle: &Puzzle, limits: &Limits) -> Report {
    report_with(
        solver,
        puzzle,
        &SolverOptions::default(),
        limits,
        &mut NoProbe,
    )
}

/// Runs a solver with default options and a cancel flag that another thread sets after
/// `delay`.
pub fn report_cancelled_after(solver: impl SolverRef, puzzle: &Puzzle, delay: Duration) -> Report {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(delay);
        flag.store(true, Ordering::Relaxed);
    });
    let limits = Limits {
        cancel: Some(cancel),
        ..Limits::default()
    };
    let report = report_within(solver, puzzle, &limits);
    canceller.join().unwrap();
    report
}

/// Runs a solver with default options and no limits, recording every event and depth row.
pub fn recorded(solver: impl SolverRef, puzzle: &Puzzle) -> (Report, RecordingProbe) {
    let mut probe = RecordingProbe::default();
    let report = report_with(
        solver,
        puzzle,
        &SolverOptions::default(),
        &Limits::default(),
        &mut probe,
    );
    (report, probe)
}

/// The optimal move count `solver` finds, with no limits, for a puzzle source (a path or a
/// game id). Panics when it does not solve the puzzle.
pub fn optimum(solver: impl SolverRef, source: &str) -> usize {
    let report = report_within(solver, &load_source(source).unwrap(), &Limits::default());
    match report.outcome {
        Outcome::Solved { moves } => moves.len(),
        other => panic!("{source}: {other:?}"),
    }
}

/// Runs a solver with `options`, `time` and 1 GiB of tables, and returns how it ended.
pub fn solve_with(
    solver: impl SolverRef,
    puzzle: &Puzzle,
    options: &SolverOptions,
    time: Duration,
) -> Outcome {
    let limits = Limits {
        time: Some(time),
        memory_bytes: Some(1 << 30),
        cancel: None,
    };
    report_with(solver, puzzle, options, &limits, &mut NoProbe).outcome
}

/// Runs a solver with default options, `seconds` of time and 1 GiB of tables, and returns how
/// it ended. Panics when the solver cannot take the puzzle.
pub fn solve_within(solver: impl SolverRef, puzzle: &Puzzle, seconds: u64) -> Outcome {
    solve_with(
        solver,
        puzzle,
        &SolverOptions::default(),
        Duration::from_secs(seconds),
    )
}

/// [`solve_within`] with 20 seconds, far more than any test puzzle needs.
pub fn solve(solver: impl SolverRef, puzzle: &Puzzle) -> Outcome {
    solve_within(solver, puzzle, 20)
}
