//! `ricochet-lab match`: two or more solvers or engines over a puzzle suite, with concurrency,
//! a results file that resumes, and a report with the paired time ratio and its interval.

use super::output::{out, outln};
use ricochet_lab::study::experiment::Shard;
use ricochet_lab::study::matches::chart::RatioHistory;
use ricochet_lab::study::matches::order::{coverage, shard_order};
use ricochet_lab::study::matches::run::{MatchConfig, Progress, run_match};
use ricochet_lab::study::matches::stats::Sprt;
use ricochet_lab::study::matches::{self, MatchRecord, MatchReport, SuiteEntry};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The suite `--signature` runs: fixed, so that its total nodes change only when a search
/// does.
const SIGNATURE_SUITE: &str = include_str!("../../boards/suites/signature.suite");

/// How the report is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    /// Tables and sentences.
    Text,
    /// One JSON object: the report and every record.
    Json,
    /// One CSV line per puzzle and solver.
    Csv,
}

/// The arguments of `match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The solvers and engines, comma-separated (built-in names or registered engines); the
    /// others' times are compared with the first's.
    #[arg(long, value_delimiter = ',', required_unless_present = "merge")]
    solvers: Vec<String>,
    /// The suite file (docs/suites.md); not needed with --signature.
    #[arg(long, value_name = "FILE", required_unless_present = "signature")]
    suite: Option<PathBuf>,
    /// How many puzzles run at once.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256))]
    concurrency: usize,
    /// The longest one solver may take on one puzzle, in seconds.
    #[arg(long, value_name = "SECS", value_parser = super::common::seconds, default_value = "60")]
    time_limit: Duration,
    /// Threads for `fast` (1 by default, so that concurrent puzzles do not share cores).
    #[arg(long, value_name = "N", value_parser = super::common::thread_count)]
    threads: Option<usize>,
    /// Append one line per puzzle and solver to this file as each puzzle finishes (with
    /// --merge: the merged file, which must not exist).
    #[arg(short = 'o', long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Continue the match in --out: run only what it lacks.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Stop once a sequential test decides whether the second solver's time differs from the
    /// first's by at least MARGIN percent (5 by default).
    #[arg(long, value_name = "MARGIN", num_args = 0..=1, default_missing_value = "5")]
    stop_when_decided: Option<f64>,
    /// How the report is printed.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,
    /// Run the fixed signature suite and print each solver's total nodes: a change to a
    /// search shows in one number.
    #[arg(long, conflicts_with_all = ["suite", "out", "resume", "stop_when_decided"])]
    signature: bool,
    /// An option for every engine of the match, NAME=VALUE; repeat for several.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = super::engine::option_pair)]
    options: Vec<(String, String)>,
    /// Run only the I-th of N disjoint slices of the suite (1 <= I <= N), to spread one
    /// match over several processes or machines; merge the files with --merge.
    #[arg(long, value_name = "I/N", conflicts_with_all = ["signature", "stop_when_decided"])]
    shard: Option<Shard>,
    /// Merge the results files of a match's shards into --out (-o), refusing overlapping,
    /// missing or unfinished shards and shards of other matches, print the report of the
    /// whole and run nothing.
    #[arg(long, num_args = 1.., value_name = "FILE", requires = "out", conflicts_with_all = ["signature", "resume", "shard", "stop_when_decided"])]
    merge: Vec<PathBuf>,
    /// Also draw each pair's time ratio and its 95% interval after each puzzle into FILE
    /// (.svg or .png), once the match ends.
    #[arg(long, value_name = "FILE", conflicts_with = "signature")]
    plot: Option<PathBuf>,
}

/// Runs `match`.
pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.plot {
        super::common::check_plot_path(path)?;
    }
    let suite: Vec<SuiteEntry> = if args.signature {
        matches::parse_suite(SIGNATURE_SUITE, "signature.suite")?
    } else {
        let path = args.suite.as_ref().ok_or_else(|| {
            super::output::usage("name a suite with --suite FILE (see docs/suites.md)".to_string())
        })?;
        matches::load_suite(path)?
    };
    if let Some(out) = args.out.as_ref().filter(|_| !args.merge.is_empty()) {
        let (names, records) = matches::merge::merge_shards(&suite, &args.merge, out)?;
        let ids: Vec<String> = suite.iter().map(|e| e.id.clone()).collect();
        let report = matches::report(&ids, &names, &records, None);
        print_report(&args, &report, &records, None)?;
        if let Some(path) = &args.plot {
            let mut history = RatioHistory::default();
            history.record(&report);
            super::common::write_plot(&history.chart(), "ratio", path)?;
        }
        return Ok(exit_code(&report, None));
    }
    let mut solvers = Vec::new();
    for name in &args.solvers {
        let choice = super::engine::resolve_name(name.trim())?;
        let choice = if choice.is_engine() {
            super::engine::with_options(choice, &args.options)?
        } else {
            choice
        };
        if solvers.contains(&choice) {
            return Err(super::output::usage(format!(
                "the solver '{name}' is named twice in --solvers"
            )));
        }
        solvers.push(choice);
    }
    if !args.signature && solvers.len() < 2 {
        return Err(super::output::usage(
            "a match needs two or more solvers (--solvers A,B); --signature takes one".to_string(),
        ));
    }
    if let Some(margin) = args.stop_when_decided
        && !(0.1..=100.0).contains(&margin)
    {
        return Err(super::output::usage(format!(
            "--stop-when-decided takes a margin of 0.1 to 100 percent, not {margin}"
        )));
    }
    let config = MatchConfig {
        solvers,
        concurrency: args.concurrency,
        time_limit: Some(args.time_limit),
        threads: args.threads,
        out: args.out.clone(),
        resume: args.resume,
        stop_when_decided: args.stop_when_decided.map(|margin| Sprt {
            margin: margin / 100.0,
            ..Sprt::default()
        }),
        shard: args.shard.unwrap_or(Shard::WHOLE),
    };
    let cancel = super::common::cancel_on_signal()?;
    let order = shard_order(&suite, config.shard);
    let bar = super::common::progress_bar(order.len() as u64, "puzzles");
    let names: Vec<String> = config
        .solvers
        .iter()
        .map(|s| s.name().to_string())
        .collect();
    let ids: Vec<String> = order.iter().map(|&i| suite[i].id.clone()).collect();
    let mut history = RatioHistory::default();
    let mut show = |progress: &Progress| {
        bar.set_position(progress.done as u64);
        if names.len() >= 2 {
            let report = matches::report(&ids, &names, progress.records, None);
            history.record(&report);
            if let Some(pair) = report.pairs.first()
                && let (Some(ratio), Some((low, high))) = (pair.ratio, pair.interval)
            {
                bar.set_message(format!(
                    "{}/{} {ratio:.3} ({low:.3}..{high:.3})",
                    pair.other, pair.base
                ));
            }
        }
    };
    let result = run_match(&suite, &config, &cancel, &mut show)?;
    bar.finish_and_clear();
    if args.signature {
        let report = matches::report(&ids, &names, &result.records, None);
        for total in &report.solvers {
            outln!(
                "signature {}: {} nodes over {} puzzles",
                total.solver,
                total.nodes,
                total.runs
            )?;
        }
        return Ok(exit_code(&report, result.stopped));
    }
    let report = matches::report(
        &ids,
        &names,
        &result.records,
        config.stop_when_decided.as_ref(),
    );
    let read_back = result.records.len() - result.runs;
    print_report(&args, &report, &result.records, result.stopped)?;
    if read_back > 0 && args.format == ReportFormat::Text {
        outln!(
            "({read_back} runs read back from {}, {} run now)",
            args.out
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string()),
            result.runs
        )?;
    }
    if let Some(path) = &args.plot {
        // The final report counts the runs read back from a resumed file too.
        history.record(&report);
        super::common::write_plot(&history.chart(), "ratio", path)?;
    }
    // A match stopped before its end says what it measured: the first puzzles of its order,
    // by length.
    let ran = |id: &str| ran_by_all(&result.records, &names, id);
    let sample = coverage(
        &order.iter().map(|&i| suite[i].clone()).collect::<Vec<_>>(),
        &ran,
    );
    match result.stopped {
        Some("cancelled") => eprintln!(
            "interrupted: {} of {} puzzles done ({sample}); run again with --resume to finish",
            report.complete, report.puzzles
        ),
        Some("decided") => eprintln!(
            "stopped once decided, after {} of {} puzzles, the first of the match's order \
             (seeded, stratified by optimal length): {sample}",
            report.complete, report.puzzles
        ),
        _ => {}
    }
    Ok(exit_code(&report, result.stopped))
}

/// Whether every solver named has a record of the puzzle `id`.
fn ran_by_all(records: &[MatchRecord], names: &[String], id: &str) -> bool {
    names
        .iter()
        .all(|name| records.iter().any(|r| r.puzzle == id && &r.solver == name))
}

/// Prints the report in the format asked for; JSON also lists the puzzles every solver ran.
fn print_report(
    args: &MatchArgs,
    report: &MatchReport,
    records: &[MatchRecord],
    stopped: Option<&str>,
) -> anyhow::Result<()> {
    match args.format {
        ReportFormat::Text => out!("{}", report.text())?,
        ReportFormat::Json => {
            let object = serde_json::json!({
                "report": report,
                "records": records,
                "stopped": stopped,
            });
            outln!("{}", super::common::json_line(&object)?)?;
        }
        ReportFormat::Csv => out!("{}", matches::records_csv(records))?,
    }
    Ok(())
}

/// Failure when an answer was wrong or the suite was shown wrong; the stop code after a
/// cancel; success otherwise.
fn exit_code(report: &MatchReport, stopped: Option<&str>) -> ExitCode {
    if !report.problems.is_empty() {
        return ExitCode::FAILURE;
    }
    if stopped == Some("cancelled") {
        return ExitCode::from(super::common::EXIT_STOPPED);
    }
    ExitCode::SUCCESS
}
