//! `ricochet-lab experiment`: the thesis' study over many seeded configurations.

use ricochet_lab::model::formats;
use ricochet_lab::solver::{SolverId, SolverOptions};
use ricochet_lab::study::experiment::command::{self, ResultsFile};
use ricochet_lab::study::experiment::{BoardSource, ExperimentConfig, Shard};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The arguments of `experiment`.
#[derive(clap::Args, Debug)]
pub struct ExperimentArgs {
    /// Number of game configurations.
    #[arg(long, default_value_t = 1000)]
    configs: u64,
    /// Seed: configuration i is dealt from seed * 1000000 + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Robots per configuration.
    #[arg(long, default_value_t = 4)]
    robots: usize,
    /// A fixed board (.ron, .txt or game id) to deal robots and targets on; standard random
    /// boards from the real tiles when left out.
    #[arg(long)]
    board: Option<String>,
    /// Solvers to compare, comma-separated (all registered solvers when left out).
    #[arg(long, value_enum, value_delimiter = ',')]
    solvers: Vec<SolverId>,
    /// The optimal solver whose move count is the required number of moves.
    #[arg(long, value_enum, default_value_t = SolverId::Iddfs)]
    baseline: SolverId,
    /// Per-run time limit in seconds (the thesis used 40).
    #[arg(long, value_name = "SECS", default_value = "40", value_parser = super::seconds)]
    time_limit: Duration,
    /// Stop a run when the solver's own tables (visited states, queues, transposition table)
    /// exceed this many MiB; the process holds more beside them (see the README).
    #[arg(long, default_value_t = 2048)]
    memory_limit: u64,
    /// Depth limit passed to the compared solvers that take one (at least 1); the baseline
    /// always searches without it, so the required move counts stay exact.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    depth_limit: Option<u32>,
    /// Worker threads (1 keeps timings undisturbed).
    #[arg(long, default_value_t = 1, value_parser = super::thread_count)]
    threads: usize,
    /// The CSV file rows are appended to as they finish.
    #[arg(long, default_value = "results.csv")]
    out: PathBuf,
    /// Continue an interrupted run in --out, skipping the rows already there.
    #[arg(long)]
    resume: bool,
    /// Run only the I-th of N disjoint slices of the configurations (1 <= I <= N), to spread
    /// one experiment over several processes or machines; merge the files with --merge.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Merge the results files of shards (CSV ...) into OUT, refusing overlapping shards or
    /// shards of different experiments, print the tables of the whole and run nothing.
    #[arg(long, num_args = 2.., value_names = ["OUT", "CSV"])]
    merge: Vec<PathBuf>,
    /// Print the tables of an existing results file and run nothing.
    #[arg(long, value_name = "CSV")]
    report: Option<PathBuf>,
}

/// Prints a report of an existing file, or runs the experiment into `--out`.
pub fn run(args: ExperimentArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.report {
        return command::report(path);
    }
    if let Some((out, inputs)) = args.merge.split_first() {
        return command::merge(out, inputs);
    }
    let board = match &args.board {
        None => BoardSource::Standard,
        Some(source) => BoardSource::Fixed(Box::new(formats::load(source)?)),
    };
    let solvers = if args.solvers.is_empty() {
        SolverId::ALL.to_vec()
    } else {
        args.solvers
    };
    let config = ExperimentConfig {
        board,
        configs: args.configs,
        seed: args.seed,
        robots: args.robots,
        solvers: solvers.iter().map(|id| id.name().to_string()).collect(),
        baseline: args.baseline.name().to_string(),
        options: SolverOptions {
            depth_limit: args.depth_limit,
            ..SolverOptions::default()
        },
        time_limit: args.time_limit,
        memory_limit: super::mebibytes(args.memory_limit)?,
        threads: args.threads,
        shard: args.shard.unwrap_or(Shard::WHOLE),
    };
    command::run(
        &config,
        &ResultsFile {
            path: args.out,
            resume: args.resume,
        },
        &super::cancel_on_signal()?,
    )
}
