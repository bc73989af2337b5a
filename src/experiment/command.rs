//! `ricochet-lab experiment`: runs an experiment with a progress bar, streams rows to CSV,
//! survives Ctrl-C, resumes, and prints the thesis' tables.

use super::record::{self, Record, ResultsWriter};
use super::runner::{self, BoardSource, ExperimentConfig};
use super::stats;
use crate::solver::{self, SolverOptions};
use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The experiment command's options.
#[derive(Args, Debug)]
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
    #[arg(long, value_delimiter = ',')]
    solvers: Vec<String>,
    /// The optimal solver whose move count is the required number of moves.
    #[arg(long, default_value = "iddfs")]
    baseline: String,
    /// Per-run time limit in seconds (the thesis used 40).
    #[arg(long, default_value_t = 40.0)]
    time_limit: f64,
    /// Per-run memory limit in MiB.
    #[arg(long, default_value_t = 2048)]
    memory_limit: u64,
    /// Depth limit passed to solvers that take one.
    #[arg(long)]
    depth_limit: Option<u32>,
    /// Worker threads (1 keeps timings undisturbed).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The CSV file rows are appended to as they finish.
    #[arg(long, default_value = "results.csv")]
    out: PathBuf,
    /// Continue an interrupted run in --out, skipping the rows already there.
    #[arg(long)]
    resume: bool,
    /// Print the tables of an existing results file and run nothing.
    #[arg(long, value_name = "CSV")]
    report: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: ExperimentArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.report {
        let records = record::read_records(path)?;
        print!("{}", stats::format_tables(&stats::summarize(&records)));
        return Ok(ExitCode::SUCCESS);
    }
    let board = match &args.board {
        None => BoardSource::Standard,
        Some(source) => BoardSource::Fixed(Box::new(crate::cli::load(source)?)),
    };
    let solvers = if args.solvers.is_empty() {
        solver::SOLVERS.iter().map(|k| k.name.to_string()).collect()
    } else {
        args.solvers.clone()
    };
    let time_limit = Duration::try_from_secs_f64(args.time_limit)
        .context("--time-limit must be a positive number of seconds")?;
    let config = ExperimentConfig {
        board,
        configs: args.configs,
        seed: args.seed,
        robots: args.robots,
        solvers,
        baseline: args.baseline.clone(),
        options: SolverOptions {
            depth_limit: args.depth_limit,
            ..SolverOptions::default()
        },
        time_limit,
        memory_limit: (args.memory_limit as usize).saturating_mul(1 << 20),
        threads: args.threads,
    };
    config.validate()?;
    if solver::kind(&config.baseline)
        .is_some_and(|k| k.optimality != solver::Optimality::Guaranteed)
    {
        bail!(
            "the baseline '{}' does not guarantee optimal answers; choose an optimal solver",
            config.baseline
        );
    }
    runner::config_puzzle(&config, 0)?;

    let exists = args.out.exists();
    if exists && !args.resume {
        bail!(
            "{} already exists: add --resume to continue it, or choose another --out",
            args.out.display()
        );
    }
    let mut records: Vec<Record> = if exists {
        record::read_records(&args.out)?
    } else {
        Vec::new()
    };
    runner::check_resume(&config, &records).map_err(anyhow::Error::msg)?;
    let done = record::done_runs(&records);
    let mut writer = ResultsWriter::open(&args.out, args.resume)?;

    let order = config.run_order();
    let total = config.configs * order.len() as u64;
    let already = done.keys().filter(|(c, _)| *c < config.configs).count() as u64;
    let progress = ProgressBar::new(total).with_position(already);
    progress.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} runs  {elapsed_precise} elapsed, ETA {eta_precise}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    // A second Ctrl-C is not caught specially; the first one lets running solves stop.
    ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
        .context("cannot install the Ctrl-C handler")?;

    let mut write_error = None;
    let result = runner::run(&config, &done, &cancel, |record| {
        if write_error.is_none()
            && let Err(e) = writer.append(&record)
        {
            write_error = Some(e);
            cancel.store(true, Ordering::Relaxed);
        }
        progress.set_message(format!("config {} {}", record.config, record.solver));
        progress.inc(1);
        records.push(record);
    });
    progress.finish_and_clear();
    if let Some(e) = write_error {
        return Err(e.into());
    }
    result.map_err(anyhow::Error::msg)?;
    records.sort_by(|a, b| (a.config, &a.solver).cmp(&(b.config, &b.solver)));
    print!("{}", stats::format_tables(&stats::summarize(&records)));
    if cancel.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: {} finished rows are kept in {}; run the same command with --resume to continue",
            records.len(),
            args.out.display()
        );
        return Ok(ExitCode::from(3));
    }
    eprintln!("{} rows in {}", records.len(), args.out.display());
    Ok(ExitCode::SUCCESS)
}
