//! `ricochet-lab bench`: times solvers on the reference puzzles and seeded random games.

use super::common::named;
use super::output::{out, outln};
use ricochet_lab::solver::{Limits, Pages};
use ricochet_lab::study::bench::{self, BenchConfig, Suite};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The arguments of `bench`.
#[derive(Clone, Debug, clap::Args)]
pub struct BenchArgs {
    /// Comma-separated names of built-in solvers and registered engines (`ricochet-lab
    /// engine list`), or `all` for every built-in solver.
    #[arg(long, default_value = "fast,iddfs", value_delimiter = ',')]
    solvers: Vec<String>,
    /// An engine to time beside them, by its command line (`--engine "python3 bfs.py"`);
    /// may be given more than once.
    #[arg(long, value_name = "CMD ARGS")]
    engine: Vec<String>,
    /// Which suite to run.
    #[arg(long, value_parser = named::<Suite>(), default_value_t = Suite::Reference)]
    suite: Suite,
    /// Runs per puzzle and solver, 1 to 1000; the median time is reported.
    #[arg(
        long,
        default_value_t = 1,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=bench::MAX_REPEAT as u64),
        // `-1` reaches the range check, which names the range, instead of reading as a flag.
        allow_negative_numbers = true
    )]
    repeat: usize,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    json: bool,
    /// Stop each run after this many seconds.
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = super::common::seconds, allow_negative_numbers = true)]
    time_limit: Duration,
    /// Stop a run when the solver's own tables (visited states, queues, transposition table)
    /// exceed this many MiB; the process holds more beside them (see docs/command-line.md).
    #[arg(long, value_name = "MIB", default_value_t = 8192)]
    memory_limit: u64,
    /// The folder of reference puzzles.
    #[arg(long, value_name = "DIR", default_value = "boards")]
    boards: PathBuf,
    /// Comma-separated reference puzzles to run (file names without `.ron`, or game ids);
    /// every one when left out.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    puzzles: Vec<String>,
    /// Comma-separated thread counts to run `fast` with, each in turn (e.g. `1,2`); the
    /// speed-up over the first is printed per puzzle. One per core when left out.
    #[arg(long, value_name = "N,..", value_delimiter = ',', value_parser = super::common::thread_count)]
    threads: Vec<usize>,
    /// Comma-separated page sizes to run `fast` with, each in turn (`huge,small`); the time
    /// with 4 KiB pages only over the time with huge pages is printed per puzzle.
    #[arg(long, value_name = "huge,small", value_parser = named::<Pages>(), value_delimiter = ',')]
    pages: Vec<Pages>,
    /// Another build of this program (e.g. an older commit's binary) to time in the same run,
    /// right after this one on each reference puzzle, through its `solve --json`.
    #[arg(long, value_name = "PATH")]
    compare_with: Option<PathBuf>,
    /// The solvers to run in the build given by --compare-with.
    #[arg(
        long,
        value_name = "NAMES",
        default_value = "iddfs",
        value_delimiter = ','
    )]
    compare_solvers: Vec<String>,
    /// Also draw each solver's time per puzzle into FILE (.svg or .png), once the bench ends.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
}

/// Runs the bench and prints its tables or JSON; fails when optimal solvers disagree, and
/// exits 3 after a Ctrl-C with the tables of the puzzles that finished.
pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let json = args.json;
    if let Some(path) = &args.plot {
        super::common::check_plot_path(path)?;
    }
    let plot = args.plot.clone();
    let results = bench::run(&BenchConfig {
        solvers: super::engine::solver_choices(&args.solvers, &args.engine)?,
        suite: args.suite,
        repeat: args.repeat,
        json: args.json,
        limits: Limits {
            time: Some(args.time_limit),
            memory_bytes: Some(super::common::mebibytes(args.memory_limit)?),
            cancel: Some(super::common::cancel_on_signal()?),
        },
        boards: args.boards,
        puzzles: args.puzzles,
        threads: args.threads,
        pages: args.pages,
        compare_with: args.compare_with,
        compare_solvers: args.compare_solvers,
    })?;
    for disagreement in &results.disagreements {
        eprintln!(
            "DISAGREEMENT on {}: {}",
            disagreement.puzzle,
            disagreement
                .answers
                .iter()
                .map(|(solver, moves)| {
                    format!(
                        "{solver} {}",
                        moves.map_or("none".to_string(), |m| m.to_string())
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if json {
        outln!("{}", results.json())?;
    } else {
        out!("{}", results.tables())?;
    }
    if let Some(path) = &plot {
        super::common::write_plot(&bench::time_chart(&results), "time", path)?;
    }
    if !results.disagreements.is_empty() {
        return Ok(ExitCode::FAILURE);
    }
    if results.interrupted {
        eprintln!(
            "interrupted: the tables cover the {} puzzles that finished",
            results.puzzles()
        );
        return Ok(ExitCode::from(super::common::EXIT_STOPPED));
    }
    Ok(ExitCode::SUCCESS)
}
