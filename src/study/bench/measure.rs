//! Measuring: every solver on every puzzle, repeated, with the fast solver's runs per thread count
//! and page size.

use super::*;

pub(super) fn measure_all(
    puzzles: &[(String, Puzzle)],
    kinds: &[&'static solver::SolverKind],
    limits: &Limits,
    repeat: usize,
    runs: &FastRuns,
    other: Option<&OtherBuild>,
    suite: &str,
) -> anyhow::Result<Vec<Measurement>> {
    let mut out = Vec::with_capacity(puzzles.len() * kinds.len());
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
        for kind in kinds {
            // Only the parallel solver runs once per page size and thread count.
            if kind.name == solver::fast::NAME {
                for options in runs.options() {
                    out.push(measure(name, puzzle, kind, limits, repeat, &options));
                }
            } else {
                let options = SolverOptions::default();
                out.push(measure(name, puzzle, kind, limits, repeat, &options));
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

/// Runs one solver on one puzzle `repeat` times and keeps the median run. A run that does not
/// finish is not repeated.
pub fn measure(
    name: &str,
    puzzle: &Puzzle,
    kind: &'static solver::SolverKind,
    limits: &Limits,
    repeat: usize,
    options: &SolverOptions,
) -> Measurement {
    let threads = options.threads;
    let mut runs: Vec<Result<Report, solver::SolveError>> = Vec::new();
    for _ in 0..repeat.max(1) {
        let report = solver::run(kind.name, puzzle, options, limits, &mut NoProbe);
        let finished = matches!(
            report.as_ref().map(|r| &r.outcome),
            Ok(Outcome::Solved { .. } | Outcome::Unsolvable { .. })
        );
        runs.push(report);
        if !finished {
            break;
        }
    }
    let mut reports: Vec<Report> = Vec::new();
    for run in runs {
        match run {
            Ok(report) => reports.push(report),
            Err(error) => {
                // The solver refuses the puzzle (a rule it does not implement).
                return Measurement {
                    puzzle: name.to_string(),
                    solver: kind.name,
                    outcome: if matches!(error, solver::SolveError::UnsupportedRule { .. }) {
                        "unsupported"
                    } else {
                        "error"
                    },
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
            }
        }
    }
    reports.sort_by_key(|r| r.elapsed);
    let median = &reports[reports.len() / 2];
    Measurement {
        puzzle: name.to_string(),
        solver: kind.name,
        outcome: median.outcome.name(),
        moves: median.outcome.move_count(),
        time: median.elapsed,
        nodes: median.nodes,
        peak_memory: reports.iter().map(|r| r.peak_memory).max().unwrap_or(0),
        // The count asked for, so rows of one puzzle line up even when a small search
        // never needed more than one.
        threads: threads.unwrap_or(median.threads),
        cpu: median
            .cpu_millis
            .map(|ms| Duration::from_secs_f64(ms / 1e3)),
        huge_pages: median.huge_page_bytes,
        pages: options.pages,
        build: None,
    }
}
