//! `ricochet-lab match`: two or more solvers or engines over a puzzle suite, with concurrency,
//! a results file that resumes, and a report with the paired time ratio and its interval.

use super::output::{out, outln};
use ricochet_lab::study::matches::chart::RatioHistory;
use ricochet_lab::study::matches::run::{MatchConfig, Progress, run_match};
use ricochet_lab::study::matches::stats::Sprt;
use ricochet_lab::study::matches::{self, MatchReport, SuiteEntry};
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
    #[arg(long, value_delimiter = ',', required = true)]
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
    /// Append one line per puzzle and solver to this file as each puzzle finishes.
    #[arg(long, value_name = "FILE")]
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
    };
    let cancel = super::common::cancel_on_signal()?;
    let bar = super::common::progress_bar(suite.len() as u64, "puzzles");
    let names: Vec<String> = config
        .solvers
        .iter()
        .map(|s| s.name().to_string())
        .collect();
    let ids: Vec<String> = suite.iter().map(|e| e.id.clone()).collect();
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
    match args.format {
        ReportFormat::Text => {
            out!("{}", report.text())?;
            if result.runs < result.records.len() {
                outln!(
                    "({} runs read back from {}, {} run now)",
                    result.records.len() - result.runs,
                    args.out
                        .as_ref()
                        .map_or(String::new(), |p| p.display().to_string()),
                    result.runs
                )?;
            }
        }
        ReportFormat::Json => {
            let object = serde_json::json!({
                "report": report,
                "records": result.records,
                "stopped": result.stopped,
            });
            outln!("{}", super::common::json_line(&object)?)?;
        }
        ReportFormat::Csv => out!("{}", matches::records_csv(&result.records))?,
    }
    if let Some(path) = &args.plot {
        // The final report counts the runs read back from a resumed file too.
        history.record(&report);
        super::common::write_plot(&history.chart(), "ratio", path)?;
    }
    match result.stopped {
        Some("cancelled") => eprintln!(
            "interrupted: {} of {} puzzles done; run again with --resume to finish",
            report.complete, report.puzzles
        ),
        Some("decided") => eprintln!(
            "stopped once decided, after {} of {} puzzles",
            report.complete, report.puzzles
        ),
        _ => {}
    }
    Ok(exit_code(&report, result.stopped))
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
