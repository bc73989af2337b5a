//! `ricochet-lab experiment`: the thesis' study over many seeded configurations, run with a
//! progress bar, streamed to CSV, kept through Ctrl-C, resumed, merged from shards, and
//! summarised in the thesis' tables.

use super::common::named;
use anyhow::{Context, bail};
use ricochet_lab::model::formats;
use ricochet_lab::solver::{SolverId, SolverOptions};
use ricochet_lab::study::experiment::charts::{self, PlotKind};
use ricochet_lab::study::experiment::record::{self, Record};
use ricochet_lab::study::experiment::runner::{self, ExperimentConfig};
use ricochet_lab::study::experiment::{BoardSource, Shard, merge, stats};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The arguments of `experiment`.
#[derive(clap::Args, Debug)]
pub struct ExperimentArgs {
    /// Number of game configurations.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..), allow_negative_numbers = true)]
    configs: u64,
    /// Seed: configuration i is dealt from seed * 1000000 + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Robots per configuration, 1 to 5.
    #[arg(long, default_value_t = 4, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=5))]
    robots: usize,
    /// A fixed board (.ron, .txt or game id) to deal robots and targets on; standard random
    /// boards from the real tiles when left out.
    #[arg(long)]
    board: Option<String>,
    /// Solvers to compare, comma-separated: built-in solvers and registered engines
    /// (`ricochet-lab engine list`), or `all` for every built-in solver (the default).
    #[arg(long, value_delimiter = ',')]
    solvers: Vec<String>,
    /// An engine to compare beside them, by its command line (`--engine "python3 bfs.py"`);
    /// may be given more than once.
    #[arg(long, value_name = "CMD ARGS")]
    engine: Vec<String>,
    /// The optimal solver whose move count is the required number of moves.
    #[arg(long, value_parser = named::<SolverId>(), default_value_t = SolverId::Iddfs)]
    baseline: SolverId,
    /// Per-run time limit in seconds (the thesis used 40).
    #[arg(long, value_name = "SECS", default_value = "40", value_parser = super::common::seconds, allow_negative_numbers = true)]
    time_limit: Duration,
    /// Stop a run when the solver's own tables (visited states, queues, transposition table)
    /// exceed this many MiB; the process holds more beside them (see docs/command-line.md).
    #[arg(long, default_value_t = 2048)]
    memory_limit: u64,
    /// Depth limit passed to the compared solvers that take one (at least 1); the baseline
    /// always searches without it, so the required move counts stay exact.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    depth_limit: Option<u32>,
    /// Worker threads (1 keeps timings undisturbed).
    #[arg(long, default_value_t = 1, value_parser = super::common::thread_count)]
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
    /// Also draw one of the Experiments window's plots of the results (with --report, --merge
    /// or a run) as a picture: SVG or PNG by the file's extension.
    #[arg(long, value_name = "OUT.svg|OUT.png")]
    plot: Option<PathBuf>,
    /// Which plot --plot draws: mean time against required moves, hit rate against required
    /// moves, total hit rate per solver, or configurations per required move count.
    #[arg(long, default_value = "time", value_parser = ["time", "hit-rate", "total-hit-rate", "distribution"])]
    plot_kind: String,
    /// Average only the optimal runs in --plot's time plot (Table 2's means).
    #[arg(long)]
    plot_optimal_only: bool,
}

/// A plot to draw of the results, and where.
#[derive(Clone, Debug)]
struct PlotRequest {
    path: PathBuf,
    kind: PlotKind,
    optimal_only: bool,
}

impl PlotRequest {
    /// The plot the arguments ask for, checked before anything runs.
    fn from_args(args: &ExperimentArgs) -> anyhow::Result<Option<PlotRequest>> {
        let Some(path) = &args.plot else {
            return Ok(None);
        };
        super::common::check_plot_path(path)?;
        let kind = PlotKind::ALL
            .into_iter()
            .find(|kind| kind.name() == args.plot_kind)
            .context("an unknown --plot-kind")?;
        Ok(Some(PlotRequest {
            path: path.clone(),
            kind,
            optimal_only: args.plot_optimal_only,
        }))
    }

    /// Draws the plot of some rows and writes it.
    fn write(&self, records: &[Record]) -> anyhow::Result<()> {
        let summary = stats::summarize(records);
        let series = charts::solver_series(&summary);
        let distribution = charts::distribution_points(&summary);
        let chart = charts::chart(
            self.kind,
            charts::PlotInput {
                current: &series,
                compared: None,
                distribution: &distribution,
                compared_distribution: None,
                optimal_only: self.optimal_only,
            },
        );
        super::common::write_plot(&chart, self.kind.name(), &self.path)
    }
}

/// Prints a report of an existing file, or runs the experiment into `--out`.
pub fn run(args: ExperimentArgs) -> anyhow::Result<ExitCode> {
    let plot = PlotRequest::from_args(&args)?;
    if let Some(path) = &args.report {
        return report(path, plot.as_ref());
    }
    if let Some((out, inputs)) = args.merge.split_first() {
        return merge(out, inputs, plot.as_ref());
    }
    let board = match &args.board {
        None => BoardSource::Standard,
        Some(source) => BoardSource::Fixed(Box::new(formats::load(source)?)),
    };
    let names = if args.solvers.is_empty() && args.engine.is_empty() {
        vec!["all".to_string()]
    } else {
        args.solvers
    };
    let solvers = super::engine::solver_choices(&names, &args.engine)?;
    let config = ExperimentConfig {
        board,
        configs: args.configs,
        seed: args.seed,
        robots: args.robots,
        solvers,
        baseline: args.baseline,
        options: SolverOptions {
            depth_limit: args.depth_limit,
            ..SolverOptions::default()
        },
        time_limit: args.time_limit,
        memory_limit: super::common::mebibytes(args.memory_limit)?,
        threads: args.threads,
        shard: args.shard.unwrap_or(Shard::WHOLE),
    };
    run_experiment(
        &config,
        &ResultsFile {
            path: args.out,
            resume: args.resume,
        },
        &super::common::cancel_on_signal()?,
        plot.as_ref(),
    )
}

/// Where an experiment's rows go.
#[derive(Clone, Debug)]
struct ResultsFile {
    /// The CSV file rows are appended to as they finish.
    path: PathBuf,
    /// Continue an interrupted run in the file, skipping the rows already there; without it,
    /// an existing file is refused.
    resume: bool,
}

/// Prints the tables of some rows to standard output, and draws the plot asked for; a failed
/// write is an error (the command line ends quietly when it is a closed pipe).
fn print_tables(records: &[Record], plot: Option<&PlotRequest>) -> anyhow::Result<()> {
    use std::io::Write;
    let tables = stats::format_tables(&stats::summarize(records));
    std::io::stdout()
        .lock()
        .write_all(tables.as_bytes())
        .context("cannot write the output")?;
    match plot {
        Some(plot) => plot.write(records),
        None => Ok(()),
    }
}

/// Prints the tables of an existing results file.
fn report(path: &Path, plot: Option<&PlotRequest>) -> anyhow::Result<ExitCode> {
    let records = record::read_records(path)?;
    print_tables(&records, plot)?;
    Ok(ExitCode::SUCCESS)
}

/// Merges the results files of an experiment's shards into `out`, which must not exist yet,
/// and prints the tables of the whole.
fn merge(out: &Path, inputs: &[PathBuf], plot: Option<&PlotRequest>) -> anyhow::Result<ExitCode> {
    if out.exists() {
        bail!(
            "{} already exists: choose a new file for the merged results",
            out.display()
        );
    }
    let mut files = Vec::with_capacity(inputs.len());
    for path in inputs {
        files.push((path.display().to_string(), record::read_results(path)?));
    }
    let (description, records) = merge::merge(&files)?;
    // Written whole to a temporary file and renamed, so a full disk leaves no partial file
    // that a retry would then refuse as existing.
    formats::save_atomic_with(
        out,
        &record::results_to_csv(Some(&description), &records),
        formats::Overwrite::Refuse,
    )?;
    print_tables(&records, plot)?;
    eprintln!(
        "{} rows of {} files in {}",
        records.len(),
        inputs.len(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Runs an experiment into a results file with a progress bar, then prints its tables.
/// Setting `cancel` (the command line's Ctrl-C) lets running solves stop; the finished rows
/// are kept.
fn run_experiment(
    config: &ExperimentConfig,
    out: &ResultsFile,
    cancel: &Arc<AtomicBool>,
    plot: Option<&PlotRequest>,
) -> anyhow::Result<ExitCode> {
    config.validate()?;

    let opened = match runner::open_results(&out.path, out.resume, config) {
        Ok(opened) => opened,
        Err(error @ runner::OpenError::Exists { .. }) => {
            bail!("{error}: add --resume to continue it, or choose another --out")
        }
        Err(error) => return Err(error.into()),
    };
    let (mut writer, mut records) = (opened.writer, opened.records);
    let done = record::done_runs(&records);

    let order = config.run_order();
    let total = config.shard.configs(config.configs).count() as u64 * order.len() as u64;
    let already = done
        .keys()
        .filter(|(c, _)| *c < config.configs && config.shard.contains(*c))
        .count() as u64;
    let progress = super::common::progress_bar(total, "runs").with_position(already);

    let mut write_error = None;
    let result = runner::run(config, &done, cancel, |record| {
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
    print_tables(&records, plot)?;
    if cancel.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: {} finished rows are kept in {}; run the same command with --resume to continue",
            records.len(),
            out.path.display()
        );
        return Ok(ExitCode::from(3));
    }
    eprintln!("{} rows in {}", records.len(), out.path.display());
    Ok(ExitCode::SUCCESS)
}
