//! The command line: `solve`, `solvers`, `show`, `convert`, `random`, `experiment`,
//! `accuracy`, `screenshot`, `bench`, `hint`, `distances`, `analyze`, `export`, `generate`, and the app when no subcommand is given.
//!
//! This module only parses arguments: each command's file turns its clap arguments into the
//! library's plain configuration and calls the library. Nothing in the library imports it.

mod accuracy;
mod all_solutions;
mod analyze;
mod bench;
mod convert;
mod distances;
mod experiment;
mod export;
mod generate;
mod hint;
mod output;
mod random;
mod screenshot;
mod show;
mod solve;
mod solvers;

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(
    name = "ricochet-lab",
    version,
    about = "Board editor, visualiser and algorithm debugger for Ricochet Robots",
    long_about = "With no subcommand, opens the app. Every command that takes a puzzle accepts \
                  a .ron file, a .txt file in Kevin Cox's format, or a DriftingDroids game id \
                  such as 7650+42+E2302B12+C9."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a puzzle and print the per-depth statistics and the solution.
    Solve(solve::SolveArgs),
    /// List the solvers with their descriptions.
    Solvers,
    /// Draw a puzzle as text.
    Show(show::ShowArgs),
    /// Convert a puzzle between formats, chosen by the output's extension (.ron, .txt), or
    /// print its game id when the output is `-`.
    Convert(convert::ConvertArgs),
    /// Run every chosen solver on many seeded configurations, write the results to CSV and
    /// print the thesis' tables (distribution, hit rates, times per required move count).
    Experiment(experiment::ExperimentArgs),
    /// Deal a random standard game from the real tiles.
    Random(random::RandomArgs),
    /// Measure how often a solver finds the optimum on random standard games, by optimal move
    /// count, against an optimal baseline.
    Accuracy(accuracy::AccuracyArgs),
    /// Open the app on a view and save a screenshot of it as PNG (needs a display; use
    /// xvfb-run on a machine without one).
    Screenshot(screenshot::ScreenshotArgs),
    /// Time solvers on the reference puzzles and 1,000 seeded random games.
    Bench(bench::BenchArgs),
    /// Give a hint: the optimal move count, then which robots move, the first move, the
    /// whole solution.
    Hint(hint::HintArgs),
    /// Print the exact distance map: for every robot and cell, the fewest moves (any robot may
    /// move) after which the robot stands there.
    Distances(distances::DistancesArgs),
    /// Analyse a board: solve every target with many seeded random robot deals and print the
    /// distribution of optimal lengths, each target's difficulty and the hardest positions.
    Analyze(analyze::AnalyzeArgs),
    /// Draw a puzzle's board for print, as SVG (vector) or PNG: walls, the centre block,
    /// targets, the active target and the robots.
    Export(export::ExportArgs),
    /// Find positions on a board whose optimum is exactly N moves: seeded random deals climb
    /// towards that length (move a robot or change the target, keep what gets no farther).
    Generate(generate::GenerateArgs),
}

/// Runs the program: the app without arguments, a command otherwise.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        return match ricochet_lab::app::run_native() {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: the window could not be opened: {error}");
                ExitCode::FAILURE
            }
        };
    };
    output::exit_code(run(command))
}

fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Solve(args) => solve::run(args),
        Command::Solvers => solvers::run(),
        Command::Show(args) => show::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Experiment(args) => experiment::run(args),
        Command::Random(args) => random::run(args),
        Command::Accuracy(args) => accuracy::run(args),
        Command::Screenshot(args) => screenshot::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Hint(args) => hint::run(&args),
        Command::Distances(args) => distances::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Export(args) => export::run(args),
        Command::Generate(args) => generate::run(&args),
    }
}

/// Every time option (`--time-limit`, `--solve-limit`) is read by this one parser, so each
/// command validates its limits the same way and before any work: a positive, finite number of
/// seconds that a [`Duration`] holds. Zero, negative, non-finite and unreadable values are
/// refused with the reason; a value past what a duration counts (about 1.8e19 seconds) is
/// refused as such. A limit that fits a duration but not the system clock (from about 9.2e18
/// seconds) is no limit: the search sets no deadline it cannot reach.
fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if value.is_nan() || value <= 0.0 {
        return Err(format!("{text} is not a positive number of seconds"));
    }
    match Duration::try_from_secs_f64(value) {
        Ok(duration) if !duration.is_zero() => Ok(duration),
        Ok(_) => Err(format!("{text} seconds rounds to no time at all")),
        Err(_) => Err(format!(
            "{text} seconds is longer than a clock counts (at most {} seconds); leave the \
             option out for no limit",
            Duration::MAX.as_secs()
        )),
    }
}

/// The most threads a command starts per core: more only adds switching and memory.
const THREADS_PER_CORE: usize = 4;

/// Every `--threads` option is read by this one parser: at least 1 (no work is done by no
/// threads) and at most [`THREADS_PER_CORE`] per core of this machine, so a typing slip cannot
/// start thousands of threads that swamp it and delay its answer to Ctrl-C.
fn thread_count(text: &str) -> Result<usize, String> {
    let count: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of threads"))?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most = THREADS_PER_CORE * cores;
    match count {
        0 => Err("must be at least 1".into()),
        n if n > most => Err(format!(
            "{n} is more than {most} ({THREADS_PER_CORE} for each of the {cores} cores here)"
        )),
        n => Ok(n),
    }
}

/// The flag Ctrl-C (SIGINT) or SIGTERM sets, shared by every command: searches poll it and
/// stop at their next check, and each command then prints what finished and exits with the
/// code of a stopped run. A second signal ends the process at once, in case a search does not
/// come back. The handler is installed once per process (the signal crate allows no more), on
/// the first call.
fn cancel_on_signal() -> anyhow::Result<Arc<AtomicBool>> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    if let Some(flag) = FLAG.get() {
        return Ok(Arc::clone(flag));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    // ctrlc runs this on its own signal-waiting thread, which only sets the flag.
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    })
    .map_err(|error| anyhow::anyhow!("cannot catch Ctrl-C: {error}"))?;
    Ok(Arc::clone(FLAG.get_or_init(|| cancel)))
}

/// One JSON object as a line of text, its keys in sorted order at every level (as every
/// command has printed them): the object goes through `serde_json::Value`, whose maps are
/// sorted.
fn json_line(object: &impl serde::Serialize) -> anyhow::Result<String> {
    Ok(serde_json::to_value(object)?.to_string())
}

/// A `--memory-limit` in MiB as bytes; zero is refused (no search fits in no memory).
fn mebibytes(value: u64) -> anyhow::Result<usize> {
    if value == 0 {
        anyhow::bail!("--memory-limit must be at least 1 MiB");
    }
    Ok(usize::try_from(value)
        .unwrap_or(usize::MAX)
        .saturating_mul(1 << 20))
}

/// The bytes a search run alone in this process may give its tables under a `--memory-limit`
/// of `mib` MiB: the limit less what the process already holds before the search (its code,
/// libraries, the puzzle and the tables solvers precompute, read as its resident memory where
/// the system reports it), so that the process as a whole stays within the limit. A limit the
/// process already passes is refused. Where the resident memory cannot be read, the whole
/// limit goes to the tables.
fn search_budget(mib: u64) -> anyhow::Result<usize> {
    let limit = mebibytes(mib)?;
    let held = resident_bytes().map_or(0, |bytes| bytes + LATER_BYTES);
    if held >= limit {
        anyhow::bail!(
            "--memory-limit {mib} MiB is less than the {} MiB this program holds before it \
             searches",
            held.div_ceil(1 << 20)
        );
    }
    Ok(limit - held)
}

/// What a search command comes to hold beside its tables after [`search_budget`] looks: the
/// code first run during the search and the printing, the allocator's spare room and the
/// output's text.
const LATER_BYTES: usize = 2 << 20;

/// The memory this process holds now (its resident set), where the system reports it.
#[cfg(target_os = "linux")]
fn resident_bytes() -> Option<usize> {
    // The second field of statm is the resident set, in pages.
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = text.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages.saturating_mul(usize::try_from(page).ok()?))
}

/// The memory this process holds now, where the system reports it (not here).
#[cfg(not(target_os = "linux"))]
fn resident_bytes() -> Option<usize> {
    None
}

/// How a command that writes a file treats an existing one: replaced only with `--force`.
fn overwrite(force: bool) -> ricochet_lab::model::formats::Overwrite {
    if force {
        ricochet_lab::model::formats::Overwrite::Allow
    } else {
        ricochet_lab::model::formats::Overwrite::Refuse
    }
}

/// A save error, with the way out when the file exists.
fn save_error(error: ricochet_lab::model::formats::FormatError) -> anyhow::Error {
    match error {
        ricochet_lab::model::formats::FormatError::Exists { .. } => {
            anyhow::anyhow!("{error}; give --force to replace it")
        }
        other => other.into(),
    }
}
