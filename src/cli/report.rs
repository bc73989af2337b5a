//! How the command line prints one solve: the per-depth rows as they finish and the outcome.
//! `solve` and `solve --all-solutions` share it.

use super::output::{OutputError, WriteFailure, outln};
use ricochet_lab::model::format_moves;
use ricochet_lab::solver::{self, Outcome, Probe, Report};

/// Prints each finished depth as the deck does, with the solver's column names. A failed
/// write stops the search (there is no one to read its answer) and is kept for the command to
/// report.
pub(super) struct PrintRows {
    columns: solver::Columns,
    failure: WriteFailure,
}

impl PrintRows {
    /// Rows with the columns of the solver `kind`.
    pub(super) fn new(kind: &'static solver::SolverKind) -> Self {
        PrintRows::with_columns(kind.columns)
    }

    /// Rows with these columns (an external engine's).
    pub(super) fn with_columns(columns: solver::Columns) -> Self {
        PrintRows {
            columns,
            failure: WriteFailure::default(),
        }
    }

    /// The first failed write, if any.
    pub(super) fn check(&mut self) -> Result<(), OutputError> {
        self.failure.check()
    }
}

impl Probe for PrintRows {
    fn depth_finished(&mut self, stats: &solver::DepthStats) {
        if !self.failure.failed() {
            let line = solver::format_depth_line(&self.columns, stats);
            self.failure.note(outln!("{line}"));
        }
    }

    fn should_stop(&mut self) -> bool {
        self.failure.failed()
    }
}

/// Prints a solve's outcome: the solution and its move count, or why there is none.
pub(super) fn print_report(report: &Report) -> Result<(), OutputError> {
    let millis = report.elapsed.as_secs_f64() * 1000.0;
    match &report.outcome {
        Outcome::Solved { moves } => {
            outln!("{}", format_moves(moves))?;
            let count = moves.len();
            let noun = if count == 1 { "move" } else { "moves" };
            outln!("{count} {noun} in {millis:.1} ms")?;
        }
        Outcome::Unsolvable { within: Some(n) } => {
            outln!("no solution within {n} moves ({millis:.1} ms)")?;
        }
        Outcome::Unsolvable { within: None } => outln!("no solution exists ({millis:.1} ms)")?,
        Outcome::NotFound => outln!(
            "no solution found ({millis:.1} ms); this solver is not exhaustive, so one may exist"
        )?,
        Outcome::Cancelled => outln!("cancelled after {millis:.1} ms")?,
        Outcome::TimeLimit => outln!("time limit reached after {millis:.1} ms")?,
        Outcome::MemoryLimit => outln!(
            "memory limit reached after {millis:.1} ms ({} MiB in tables)",
            report.peak_memory >> 20
        )?,
        // A claim that failed its replay is not a solution: its moves are not printed as a
        // move line (--json lists them, marked invalid).
        Outcome::Invalid { claimed, error } => {
            let count = claimed.len();
            let moves = if count == 1 { "move" } else { "moves" };
            outln!(
                "{} claimed a solution of {count} {moves}, but its {error} ({millis:.1} ms)",
                report.solver
            )?;
        }
    }
    Ok(())
}
