//! Limits that every solver honours in every phase: a run stopped at its memory limit never
//! reports more memory than the limit, a finished run's peak is what its tables held (the run
//! succeeds again under exactly that limit), and a run cut short is never reported as solved.

use ricochet_lab::testing::{board, report_with, report_within};

use ricochet_lab::model::Puzzle;
use ricochet_lab::solver::{Limits, NoProbe, Outcome, Report, SolverOptions};
use std::time::Duration;

/// Runs a solver with `memory` bytes for its tables (`None`: no limit) and a minute of time.
fn run(name: &str, puzzle: &Puzzle, memory: Option<usize>) -> Report {
    let limits = Limits {
        memory_bytes: memory,
        time: Some(Duration::from_secs(60)),
        cancel: None,
    };
    report_within(name, puzzle, &limits)
}

/// The solvers whose tables grow with the search, each on a puzzle that needs a few MiB.
const HUNGRY: [(&str, &str); 5] = [
    ("bfs", "five-robots.ron"),
    ("astar", "real-21.ron"),
    ("idastar", "real-21.ron"),
    ("graph-v1", "five-robots.ron"),
    ("iddfs", "real-21.ron"),
];

#[test]
fn a_run_stopped_at_its_memory_limit_reports_no_more_than_the_limit() {
    for (name, file) in HUNGRY {
        let puzzle = board(file);
        let limit = 1 << 20;
        let report = run(name, &puzzle, Some(limit));
        assert_eq!(report.outcome, Outcome::MemoryLimit, "{name}");
        assert!(
            report.peak_memory <= limit,
            "{name} reported {} bytes under a limit of {limit}",
            report.peak_memory
        );
    }
}

#[test]
fn bfs_under_a_limit_between_two_table_sizes_stops_below_it() {
    // The tables double, so a limit just under a doubled size used to be overshot by almost
    // a factor of two (143 MiB reported under a 100 MiB limit).
    let puzzle = board("five-robots.ron");
    for limit in [300_000, 1_000_000, 3_000_000, 5_000_000] {
        let report = run("bfs", &puzzle, Some(limit));
        assert!(
            report.peak_memory <= limit,
            "{limit}: {}",
            report.peak_memory
        );
        if report.outcome == Outcome::MemoryLimit {
            // Stopped at the last size that fitted: the next doubling would not have.
            assert!(
                report.peak_memory * 3 > limit,
                "{limit}: {}",
                report.peak_memory
            );
        }
    }
}

#[test]
fn a_finished_runs_peak_is_what_its_tables_held() {
    for (name, file) in [
        ("bfs", "small-6x6.ron"),
        ("bfs", "five-robots.ron"),
        ("graph-v1", "five-robots.ron"),
        ("graph-v2", "standard-random.ron"),
        ("astar", "five-robots.ron"),
        ("iddfs", "five-robots.ron"),
    ] {
        let puzzle = board(file);
        let free = run(name, &puzzle, None);
        assert!(
            matches!(free.outcome, Outcome::Solved { .. }),
            "{name} on {file}: {:?}",
            free.outcome
        );
        assert!(free.peak_memory > 0, "{name} on {file}");
        // Exactly the reported peak is enough for the same run ...
        let same = run(name, &puzzle, Some(free.peak_memory));
        assert_eq!(same.outcome, free.outcome, "{name} on {file}");
        assert_eq!(same.peak_memory, free.peak_memory, "{name} on {file}");
        // ... and one byte less is not: the peak is not an overstatement.
        let less = run(name, &puzzle, Some(free.peak_memory - 1));
        assert_eq!(less.outcome, Outcome::MemoryLimit, "{name} on {file}");
    }
}

#[test]
fn dls_with_a_deep_limit_and_a_time_limit_reports_the_time_limit() {
    let options = SolverOptions {
        depth_limit: Some(1000),
        ..SolverOptions::default()
    };
    let limits = Limits {
        time: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    let report = report_with(
        "dls",
        &board("small-6x6.ron"),
        &options,
        &limits,
        &mut NoProbe,
    );
    assert_eq!(report.outcome, Outcome::TimeLimit);
    assert!(
        report.elapsed < Duration::from_secs(5),
        "{:?}",
        report.elapsed
    );
}
