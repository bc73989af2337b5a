//! `ricochet-lab solve --all-solutions`: every optimal solution, sorted and replayed.

use super::output::{OutputError, outln};
use ricochet_lab::model::{Puzzle, format_moves};
use ricochet_lab::solver::analysis::all_solutions::{self, Enumeration};
use ricochet_lab::solver::report_json::ReportJson;
use ricochet_lab::solver::{Limits, Outcome, Probe, SolverId, SolverOptions};
use serde::Serialize;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::common::{EXIT_INVALID, EXIT_STOPPED, stop_name};

/// Lists every optimal solution for `solve --all-solutions`, printing text or one JSON object
/// (the solve report with `solutions`, `solution_count` and `complete` added).
pub fn solve_all<P: Probe>(
    solver: SolverId,
    puzzle: &Puzzle,
    options: &SolverOptions,
    max_solutions: usize,
    limits: &Limits,
    probe: &mut P,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let mut listing_progress = ListingProgress::default();
    let enumeration = all_solutions::enumerate_watched(
        solver,
        puzzle,
        options,
        max_solutions,
        limits,
        probe,
        &mut listing_progress,
    )?;
    listing_progress.finish();
    if json {
        outln!(
            "{}",
            super::common::json_line(&enumeration_json(&enumeration))?
        )?;
    } else {
        print_enumeration(&enumeration)?;
    }
    Ok(enumeration_exit_code(&enumeration))
}

/// Shows the listing's progress on a terminal, after the solver's rows: the nodes searched
/// by every thread, a few times a second.
#[derive(Default)]
struct ListingProgress {
    spinner: Option<indicatif::ProgressBar>,
    shown: Option<Instant>,
}

impl ListingProgress {
    /// How often the count is redrawn.
    const INTERVAL: Duration = Duration::from_millis(100);

    /// Clears the spinner once the listing is over, before the list is printed.
    fn finish(&mut self) {
        if let Some(spinner) = self.spinner.take() {
            spinner.finish_and_clear();
        }
    }
}

impl Probe for ListingProgress {
    fn progress(&mut self, nodes: u64, _memory_bytes: usize) {
        let now = Instant::now();
        if self
            .shown
            .is_some_and(|shown| now.duration_since(shown) < Self::INTERVAL)
        {
            return;
        }
        self.shown = Some(now);
        let spinner = self
            .spinner
            .get_or_insert_with(super::common::progress_spinner);
        spinner.set_message(format!("listing the optimal solutions: {nodes} nodes"));
        spinner.tick();
    }
}

/// The exit code of a listing: 4 when a sequence failed its replay, 3 when a limit stopped the
/// solver or the listing, 0 otherwise.
fn enumeration_exit_code(enumeration: &Enumeration) -> ExitCode {
    if !enumeration.listing.rejected.is_empty()
        || matches!(enumeration.optimum.outcome, Outcome::Invalid { .. })
    {
        return ExitCode::from(EXIT_INVALID);
    }
    let solver_stopped = matches!(
        enumeration.optimum.outcome,
        Outcome::Cancelled | Outcome::TimeLimit | Outcome::MemoryLimit
    );
    if solver_stopped || enumeration.listing.stopped.is_some() {
        return ExitCode::from(EXIT_STOPPED);
    }
    ExitCode::SUCCESS
}

/// The JSON object `solve --all-solutions --json` prints: the solve report with the listing
/// added.
#[derive(Serialize)]
struct EnumerationJson {
    #[serde(flatten)]
    report: ReportJson,
    solutions: Vec<Vec<String>>,
    solution_count: usize,
    complete: bool,
    listing_millis: f64,
    listing_nodes: u64,
    /// Why the listing stopped early (stopped listings only).
    #[serde(skip_serializing_if = "Option::is_none")]
    listing_stopped: Option<&'static str>,
    /// Sequences that failed their replay, with the reason (only when there are any).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    rejected: Vec<String>,
}

fn enumeration_json(enumeration: &Enumeration) -> EnumerationJson {
    let listing = &enumeration.listing;
    EnumerationJson {
        report: ReportJson::of(&enumeration.optimum),
        solutions: listing
            .solutions
            .iter()
            .map(|moves| moves.iter().map(ToString::to_string).collect())
            .collect(),
        solution_count: listing.solutions.len(),
        complete: listing.complete,
        listing_millis: listing.elapsed.as_secs_f64() * 1000.0,
        listing_nodes: listing.nodes,
        listing_stopped: listing.stopped.map(stop_name),
        rejected: listing
            .rejected
            .iter()
            .map(|(moves, error)| format!("{}: {error}", format_moves(moves)))
            .collect(),
    }
}

fn print_enumeration(enumeration: &Enumeration) -> Result<(), OutputError> {
    super::report::print_report(&enumeration.optimum)?;
    if !matches!(enumeration.optimum.outcome, Outcome::Solved { .. }) {
        return Ok(());
    }
    let listing = &enumeration.listing;
    let count = listing.solutions.len();
    let millis = listing.elapsed.as_secs_f64() * 1000.0;
    let what = match (listing.complete, listing.stopped) {
        (true, _) => format!("{count} optimal solutions, all of them"),
        (false, Some(stop)) => format!(
            "{count} optimal solutions found before the listing stopped ({})",
            stop_name(stop)
        ),
        (false, None) => format!("the first {count} optimal solutions; there are more"),
    };
    outln!(
        "{what} (listed in {millis:.1} ms, {} nodes):",
        listing.nodes
    )?;
    let width = count.to_string().len();
    for (i, moves) in listing.solutions.iter().enumerate() {
        outln!("{:>width$}. {}", i + 1, format_moves(moves))?;
    }
    for (moves, error) in &listing.rejected {
        outln!("rejected: {} ({error})", format_moves(moves))?;
    }
    Ok(())
}
