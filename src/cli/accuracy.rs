//! `ricochet-lab accuracy`: how often a solver finds the optimum, by optimal move count.

use super::common::named;
use super::output::{out, outln};
use ricochet_lab::solver::{Limits, SolverId};
use ricochet_lab::study::accuracy::{self, AccuracyConfig};
use std::process::ExitCode;
use std::time::Duration;

/// The arguments of `accuracy`.
#[derive(clap::Args, Debug, Clone)]
pub struct AccuracyArgs {
    /// The solver to measure: a built-in solver (see `ricochet-lab solvers`) or a registered
    /// engine (`ricochet-lab engine list`).
    #[arg(long, required_unless_present = "engine")]
    solver: Option<String>,
    /// An engine to measure instead, by its command line (`--engine "python3 bfs.py"`).
    #[arg(long, value_name = "CMD ARGS", conflicts_with = "solver")]
    engine: Option<String>,
    /// The number of puzzles.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..), allow_negative_numbers = true)]
    puzzles: u64,
    /// The first puzzle's seed; puzzle i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The optimal solver that gives the optimum.
    #[arg(long, value_parser = named::<SolverId>(), default_value_t = SolverId::Iddfs)]
    baseline: SolverId,
    /// Stop each run (baseline and solver) after this many seconds.
    #[arg(long, value_name = "SECS", default_value = "40", value_parser = super::common::seconds, allow_negative_numbers = true)]
    time_limit: Duration,
    /// Stop a run when the solver's own tables (visited states, queues, transposition table)
    /// exceed this many MiB; the process holds more beside them (see docs/command-line.md).
    #[arg(long, value_name = "MIB", default_value_t = 4096)]
    memory_limit: u64,
    /// The number of robots, 1 to 5 (red, green, blue, yellow, then silver).
    #[arg(long, default_value_t = 4, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=5))]
    robots: usize,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

/// Measures, printing progress every 100 puzzles, then prints the table or JSON.
pub fn run(args: AccuracyArgs) -> anyhow::Result<ExitCode> {
    let config = AccuracyConfig {
        solver: super::engine::solver_choice(
            args.solver.as_deref().unwrap_or_default(),
            args.engine.as_deref(),
        )?,
        baseline: args.baseline,
        puzzles: args.puzzles,
        seed: args.seed,
        robots: args.robots,
        limits: Limits {
            time: Some(args.time_limit),
            memory_bytes: Some(super::common::mebibytes(args.memory_limit)?),
            cancel: Some(super::common::cancel_on_signal()?),
        },
    };
    let total = config.puzzles;
    let report = accuracy::measure(&config, |index, _, _| {
        let done = index + 1;
        if done % 100 == 0 || done == total {
            eprintln!("{done}/{total} puzzles");
        }
    })?;
    if args.json {
        outln!("{}", accuracy::report_json(&report))?;
    } else {
        out!("{}", accuracy::format_table(&report))?;
    }
    if report.interrupted {
        eprintln!(
            "interrupted: the figures cover the {} puzzles that finished",
            report.results.len() + report.skipped.len() + report.unsolvable.len()
        );
        return Ok(ExitCode::from(super::common::EXIT_STOPPED));
    }
    Ok(ExitCode::SUCCESS)
}
