//! `ricochet-lab experiment`: runs an experiment with a progress bar, streams rows to CSV,
//! survives Ctrl-C, resumes, and prints the thesis' tables.

use super::record::{self, Record};
use super::runner::{self, ExperimentConfig};
use super::stats;
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Where an experiment's rows go.
#[derive(Clone, Debug)]
pub struct ResultsFile {
    /// The CSV file rows are appended to as they finish.
    pub path: PathBuf,
    /// Continue an interrupted run in the file, skipping the rows already there; without it,
    /// an existing file is refused.
    pub resume: bool,
}

/// Prints the tables of some rows to standard output; a failed write is an error (the command
/// line ends quietly when it is a closed pipe).
fn print_tables(records: &[Record]) -> anyhow::Result<()> {
    use std::io::Write;
    let tables = stats::format_tables(&stats::summarize(records));
    std::io::stdout()
        .lock()
        .write_all(tables.as_bytes())
        .context("cannot write the output")
}

/// Prints the tables of an existing results file.
pub fn report(path: &Path) -> anyhow::Result<ExitCode> {
    let records = record::read_records(path)?;
    print_tables(&records)?;
    Ok(ExitCode::SUCCESS)
}

/// Merges the results files of an experiment's shards into `out`, which must not exist yet,
/// and prints the tables of the whole.
pub fn merge(out: &Path, inputs: &[PathBuf]) -> anyhow::Result<ExitCode> {
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
    let (description, records) = super::merge::merge(&files)?;
    // Written whole to a temporary file and renamed, so a full disk leaves no partial file
    // that a retry would then refuse as existing.
    crate::model::formats::save_atomic_with(
        out,
        &record::results_to_csv(Some(&description), &records),
        crate::model::formats::Overwrite::Refuse,
    )?;
    print_tables(&records)?;
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
pub fn run(
    config: &ExperimentConfig,
    out: &ResultsFile,
    cancel: &Arc<AtomicBool>,
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
    let progress = ProgressBar::new(total).with_position(already);
    progress.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} runs  {elapsed_precise} elapsed, ETA {eta_precise}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );

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
    print_tables(&records)?;
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
