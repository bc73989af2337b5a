//! Measuring: every solver on every puzzle, repeated, with the fast solver's runs per thread count
//! and page size.

use super::*;

pub(super) fn measure_all(
    puzzles: &[(String, Puzzle)],
    solvers: &[SolverChoice],
    limits: &Limits,
    repeat: usize,
    runs: &FastRuns,
    other: Option<&OtherBuild>,
    suite: &str,
) -> anyhow::Result<Vec<Measurement>> {
    let mut out = Vec::with_capacity(puzzles.len() * solvers.len());
    let total = puzzles.len();
    let mut stderr = std::io::stderr().lock();
    for (i, (name, puzzle)) in puzzles.iter().enumerate() {
        if cancelled(limits) {
            break;
        }
        let first_of_puzzle = out.len();
        // Long runs name each puzzle; the random suite reports every hundred.
        if total <= 50 || (i + 1) % 100 == 0 {
            writeln!(stderr, "[{suite} {}/{total}] {name}", i + 1)?;
        }
        for choice in solvers {
            // Only the parallel solver runs once per page size and thread count.
            if choice.built_in() == Some(SolverId::Fast) {
                for options in runs.options() {
                    out.push(measure(name, puzzle, choice, limits, repeat, &options));
                }
            } else {
                let options = SolverOptions::default();
                out.push(measure(name, puzzle, choice, limits, repeat, &options));
            }
        }
        // The other build right after this one, puzzle by puzzle, so both see the same load.
        if let Some(other) = other {
            for solver in &other.solvers {
                if cancelled(limits) {
                    break;
                }
                out.push(other.measure(name, solver, limits, repeat)?);
            }
        }
        // A puzzle the cancel cut short is left out whole, so every row of the tables is a
        // run that finished as it would have without the signal.
        if cancelled(limits) {
            out.truncate(first_of_puzzle);
            break;
        }
    }
    Ok(out)
}

/// Whether the bench was cancelled (Ctrl-C on the command line).
pub(super) fn cancelled(limits: &Limits) -> bool {
    limits
        .cancel
        .as_ref()
        .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
}

/// The runs of `fast` on each puzzle: every page size with every thread count.
pub(super) struct FastRuns {
    pub(super) pages: Vec<Pages>,
    pub(super) threads: Vec<usize>,
}

impl FastRuns {
    /// The options of each run, page sizes outermost.
    pub(super) fn options(&self) -> Vec<SolverOptions> {
        let pages: &[Pages] = if self.pages.is_empty() {
            &[Pages::Huge]
        } else {
            &self.pages
        };
        let threads: Vec<Option<usize>> = if self.threads.is_empty() {
            vec![None]
        } else {
            self.threads.iter().map(|&t| Some(t)).collect()
        };
        pages
            .iter()
            .flat_map(|&pages| {
                threads.iter().map(move |&threads| SolverOptions {
                    threads,
                    pages,
                    ..SolverOptions::default()
                })
            })
            .collect()
    }
}

/// Runs one solver on one puzzle `repeat` times (at most [`MAX_REPEAT`]) and keeps the median
/// run. A run that does not finish is not repeated, and a cancel (the limits' flag) is seen
/// before each run, so a long series of short runs stops as soon as one does. Each run is
/// kept as a few numbers, not as its report, so the memory a series holds is bounded by the
/// repeat count however long it runs. Cancelled before its first run, the measurement has the
/// outcome `cancelled` and no figures.
pub fn measure(
    name: &str,
    puzzle: &Puzzle,
    choice: &SolverChoice,
    limits: &Limits,
    repeat: usize,
    options: &SolverOptions,
) -> Measurement {
    let threads = options.threads;
    let kind = choice.kind();
    let optimal = choice.optimality() == Optimality::Guaranteed;
    let external = choice.is_engine();
    let empty = |outcome| Measurement {
        puzzle: name.to_string(),
        solver: kind.name,
        optimal,
        external,
        outcome,
        moves: None,
        time: Duration::ZERO,
        nodes: 0,
        peak_memory: 0,
        threads: 0,
        cpu: None,
        huge_pages: None,
        pages: options.pages,
        build: None,
    };
    let repeat = repeat.clamp(1, MAX_REPEAT);
    let mut runs: Vec<Run> = Vec::with_capacity(repeat);
    let mut peak_memory = 0;
    for _ in 0..repeat {
        if cancelled(limits) {
            break;
        }
        let report = match solver::run(choice, puzzle, options, limits, &mut NoProbe) {
            Ok(report) => report,
            // The solver refuses the puzzle (a rule it does not implement).
            Err(error) => {
                return empty(
                    if matches!(error, solver::SolveError::UnsupportedRule { .. }) {
                        "unsupported"
                    } else {
                        "error"
                    },
                );
            }
        };
        let finished = matches!(
            report.outcome,
            Outcome::Solved { .. } | Outcome::Unsolvable { .. }
        );
        peak_memory = peak_memory.max(report.peak_memory);
        runs.push(Run::of(&report));
        if !finished {
            break;
        }
    }
    runs.sort_by_key(|run| run.elapsed);
    let Some(median) = runs.get(runs.len() / 2) else {
        return empty(Outcome::Cancelled.name());
    };
    Measurement {
        puzzle: name.to_string(),
        solver: kind.name,
        // An engine that said `optimal=yes` in its handshake has its move counts compared
        // with the optimal solvers', and a longer answer reported as a disagreement.
        optimal: optimal || crate::solver::engine::claims_optimal(choice),
        external,
        outcome: median.outcome,
        moves: median.moves,
        time: median.elapsed,
        nodes: median.nodes,
        peak_memory,
        // The count asked for, so rows of one puzzle line up even when a small search
        // never needed more than one.
        threads: threads.unwrap_or(median.threads),
        cpu: median
            .cpu_millis
            .map(|ms| Duration::from_secs_f64(ms / 1e3)),
        huge_pages: median.huge_pages,
        pages: options.pages,
        build: None,
    }
}

/// The most runs `bench --repeat` takes per puzzle and solver: a median of a thousand runs is
/// as steady as the machine allows, and the bound keeps a slip of the keyboard from starting
/// a run of days.
pub const MAX_REPEAT: usize = 1000;

/// What the median needs of one run: its figures without the solution and per-depth rows.
struct Run {
    elapsed: Duration,
    outcome: &'static str,
    moves: Option<usize>,
    nodes: u64,
    threads: usize,
    cpu_millis: Option<f64>,
    huge_pages: Option<usize>,
}

impl Run {
    fn of(report: &Report) -> Run {
        Run {
            elapsed: report.elapsed,
            outcome: report.outcome.name(),
            moves: report.outcome.move_count(),
            nodes: report.nodes,
            threads: report.threads,
            cpu_millis: report.cpu_millis,
            huge_pages: report.huge_page_bytes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    // A series of short runs once saw a Ctrl-C only when it ended: each run finished before
    // its solver first looked at the flag, and the next one started regardless.
    #[test]
    fn a_cancelled_series_starts_no_further_run() {
        let puzzle = crate::testing::small();
        let bfs = SolverChoice::BuiltIn(SolverId::Bfs);
        let limits = Limits {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..Limits::default()
        };
        let measured = measure(
            "deck",
            &puzzle,
            &bfs,
            &limits,
            MAX_REPEAT,
            &SolverOptions::default(),
        );
        assert_eq!(measured.outcome, "cancelled");
        assert_eq!(measured.nodes, 0);
    }

    #[test]
    fn repeats_keep_the_median_of_runs_that_agree() {
        let puzzle = crate::testing::small();
        let bfs = SolverChoice::BuiltIn(SolverId::Bfs);
        let measured = measure(
            "small",
            &puzzle,
            &bfs,
            &Limits::default(),
            5,
            &SolverOptions::default(),
        );
        assert_eq!(measured.outcome, "solved");
        assert!(measured.nodes > 0);
    }
}
