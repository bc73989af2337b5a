//! The `bench` command: runs solvers on a fixed suite of puzzles and prints what they took.
//!
//! Two suites, both deterministic so that two commits can be compared on one machine:
//!
//! - **reference**: every `.ron` puzzle in the boards folder (sorted by file name), plus the
//!   known hard game ids that are not among them;
//! - **random**: 1,000 standard games dealt by [`random_game`] for seeds 1 to 1,000, four robots.
//!
//! Per solver and reference puzzle the table gives the moves, the median time over the
//! repeats, nodes, nodes per second and the peak memory the solver reported; for the random
//! suite the mean, median, 99th percentile and largest time per solver. Every puzzle solved by
//! more than one optimal solver is checked for equal move counts, and any disagreement is
//! printed loudly and fails the command. Each run has a time limit, so a slow solver cannot
//! hang the bench. Progress goes to standard error, one plain line per step.

use super::format::{format_bytes, format_ms, format_rate, format_time};
use crate::model::Puzzle;
use crate::model::formats::{self, game_id};
use crate::model::tiles::random_game;
use crate::solver::{self, Limits, NoProbe, Optimality, Outcome, Pages, Report, SolverOptions};
use anyhow::Context;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// The known hard positions, by game id (see the reference puzzle notes).
pub const REFERENCE_GAME_IDS: [&str; 3] = [
    "7650+42+E2302B12+C9",
    "0765+42+2E21BD0F+93",
    "3650+42+1CF10F0C+C9",
];

/// The seeds of the random suite.
pub const RANDOM_SEEDS: std::ops::RangeInclusive<u64> = 1..=1000;

/// Which puzzles to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Suite {
    /// The puzzles in the boards folder and the known hard game ids.
    Reference,
    /// 1,000 seeded random standard games.
    Random,
    /// Both.
    All,
}

/// What the bench runs.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Solver names, or `all` for every registered solver.
    pub solvers: Vec<String>,
    /// Which suite to run.
    pub suite: Suite,
    /// Runs per puzzle and solver; the median time is reported.
    pub repeat: usize,
    /// Print one JSON object instead of tables.
    pub json: bool,
    /// The limits of each run.
    pub limits: Limits,
    /// The folder of reference puzzles.
    pub boards: PathBuf,
    /// Thread counts to run `fast` with, each in turn (empty: one run with its default).
    pub threads: Vec<usize>,
    /// The memory pages to run `fast` with, each in turn (empty: huge pages only).
    pub pages: Vec<Pages>,
    /// Another build of this program to time in the same run, puzzle by puzzle, through
    /// its `solve --json` (reference suite only).
    pub compare_with: Option<PathBuf>,
    /// The solvers to run in that build.
    pub compare_solvers: Vec<String>,
}

/// One solver's result on one puzzle: the median run of the repeats.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// The puzzle's name.
    pub puzzle: String,
    /// The solver's name.
    pub solver: &'static str,
    /// How the run ended.
    pub outcome: &'static str,
    /// Moves of the solution, when solved.
    pub moves: Option<usize>,
    /// The median wall time of the repeats.
    pub time: Duration,
    /// Nodes counted in the median run.
    pub nodes: u64,
    /// The largest memory estimate the solver reported, in bytes.
    pub peak_memory: usize,
    /// The threads the run was allowed (the count asked for), or else the most it used.
    pub threads: usize,
    /// CPU time of the median run (all threads), where the system reports it.
    pub cpu: Option<Duration>,
    /// Bytes backed by huge pages at the end of the median run, when the solver measured it.
    pub huge_pages: Option<usize>,
    /// The pages the solver was asked to use.
    pub pages: Pages,
    /// The other build that made this measurement (its file name), or `None` for this one.
    pub build: Option<String>,
}

impl Measurement {
    /// The solver's name, with the other build's name when it made the measurement.
    pub fn label(&self) -> String {
        let pages = match self.pages {
            Pages::Huge => "",
            Pages::Small => ", 4 KiB pages",
        };
        match &self.build {
            Some(build) => format!("{} ({build}{pages})", self.solver),
            None if pages.is_empty() => self.solver.to_string(),
            None => format!("{} ({})", self.solver, &pages[2..]),
        }
    }

    /// Nodes per second of wall time.
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            self.nodes as f64 / secs
        } else {
            0.0
        }
    }
}

/// Time statistics of one solver over the random suite.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The solver's name.
    pub solver: &'static str,
    /// Puzzles it solved or proved unsolvable.
    pub finished: usize,
    /// Puzzles it did not finish (time or memory limit, invalid answer).
    pub unfinished: usize,
    /// Mean time in milliseconds.
    pub mean_ms: f64,
    /// Median time in milliseconds.
    pub median_ms: f64,
    /// 99th percentile time in milliseconds.
    pub p99_ms: f64,
    /// Largest time in milliseconds.
    pub max_ms: f64,
    /// Mean moves of the solved puzzles.
    pub mean_moves: f64,
    /// Nodes over all puzzles.
    pub nodes: u64,
}

/// Optimal solvers that gave different move counts for one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The puzzle's name.
    pub puzzle: String,
    /// Each solver's move count (`None`: it proved there is no solution).
    pub answers: Vec<(&'static str, Option<usize>)>,
}

/// Runs the bench command.
pub fn run(args: &BenchConfig) -> anyhow::Result<ExitCode> {
    let kinds = solver_kinds(&args.solvers)?;
    let limits = args.limits.clone();
    let fast_runs = FastRuns {
        pages: args.pages.clone(),
        threads: args.threads.clone(),
    };
    let repeat = args.repeat.max(1);
    let mut reference = Vec::new();
    let mut random = Vec::new();
    if matches!(args.suite, Suite::Reference | Suite::All) {
        let puzzles = reference_puzzles(&args.boards)?;
        let other = match &args.compare_with {
            Some(path) => Some(OtherBuild::new(path, &args.compare_solvers, &args.boards)?),
            None => None,
        };
        reference = measure_all(
            &puzzles,
            &kinds,
            &limits,
            repeat,
            &fast_runs,
            other.as_ref(),
            "reference",
        )?;
    }
    if matches!(args.suite, Suite::Random | Suite::All) {
        let puzzles = random_puzzles()?;
        random = measure_all(
            &puzzles, &kinds, &limits, repeat, &fast_runs, None, "random",
        )?;
    }
    let summaries: Vec<Summary> = kinds.iter().map(|k| summarize(k.name, &random)).collect();
    let mut found = disagreements(&reference);
    found.extend(disagreements(&random));
    for d in &found {
        eprintln!(
            "DISAGREEMENT on {}: {}",
            d.puzzle,
            d.answers
                .iter()
                .map(|(s, m)| format!("{s} {}", m.map_or("none".to_string(), |m| m.to_string())))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let value = to_json(&reference, &random, &summaries, &found, repeat);
        writeln!(out, "{value}")?;
    } else {
        if !reference.is_empty() {
            write!(out, "{}", reference_table(&reference))?;
            let speedups = speedup_table(&reference);
            if !speedups.is_empty() {
                write!(out, "\n{speedups}")?;
            }
            let pages = pages_table(&reference);
            if !pages.is_empty() {
                write!(out, "\n{pages}")?;
            }
            let ratios = ratio_table(&reference);
            if !ratios.is_empty() {
                write!(out, "\n{ratios}")?;
            }
        }
        if !random.is_empty() {
            if !reference.is_empty() {
                writeln!(out)?;
            }
            write!(
                out,
                "{}",
                summary_table(&summaries, random.len() / kinds.len().max(1))
            )?;
        }
        let compared = compared_puzzles(&reference) + compared_puzzles(&random);
        if found.is_empty() && compared == 0 {
            writeln!(
                out,
                "\nNo puzzle was finished by two optimal solvers: no move counts were compared."
            )?;
        } else if found.is_empty() {
            writeln!(
                out,
                "\nAll optimal solvers agree on every move count ({compared} puzzles compared)."
            )?;
        } else {
            writeln!(
                out,
                "\n{} DISAGREEMENTS between optimal solvers (listed on standard error).",
                found.len()
            )?;
        }
    }
    if !found.is_empty() {
        return Ok(ExitCode::FAILURE);
    }
    if cancelled(&limits) {
        let puzzles = |rows: &[Measurement]| {
            rows.iter()
                .map(|m| m.puzzle.as_str())
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        };
        eprintln!(
            "interrupted: the tables cover the {} puzzles that finished",
            puzzles(&reference) + puzzles(&random)
        );
        return Ok(ExitCode::from(EXIT_INTERRUPTED));
    }
    Ok(ExitCode::SUCCESS)
}

/// The exit code of a bench stopped by Ctrl-C, as of every stopped command.
const EXIT_INTERRUPTED: u8 = 3;

fn solver_kinds(names: &[String]) -> anyhow::Result<Vec<&'static solver::SolverKind>> {
    if names.iter().any(|n| n == "all") {
        return Ok(solver::SOLVERS.iter().collect());
    }
    names
        .iter()
        .map(|name| {
            solver::kind(name.trim())
                .ok_or_else(|| solver::SolveError::UnknownSolver(name.clone()).into())
        })
        .collect()
}

/// The reference suite: every `.ron` file in `dir` by file name, then the hard game ids that
/// are not the same puzzle as one of the files.
pub fn reference_puzzles(dir: &Path) -> anyhow::Result<Vec<(String, Puzzle)>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the boards folder {}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    let mut puzzles = Vec::new();
    for path in files {
        let puzzle = formats::load_source(&path.to_string_lossy())
            .with_context(|| format!("cannot load {}", path.display()))?;
        let name = path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        puzzles.push((name, puzzle));
    }
    for id in REFERENCE_GAME_IDS {
        let puzzle = game_id::parse(id).with_context(|| format!("game id {id}"))?;
        if !puzzles.iter().any(|(_, p)| *p == puzzle) {
            puzzles.push((id.to_string(), puzzle));
        }
    }
    Ok(puzzles)
}

/// The random suite: standard games for seeds 1 to 1,000 with four robots.
pub fn random_puzzles() -> anyhow::Result<Vec<(String, Puzzle)>> {
    RANDOM_SEEDS
        .map(|seed| {
            let (puzzle, _) = random_game(seed, 4)?;
            Ok((format!("seed {seed}"), puzzle))
        })
        .collect()
}

fn measure_all(
    puzzles: &[(String, Puzzle)],
    kinds: &[&'static solver::SolverKind],
    limits: &Limits,
    repeat: usize,
    runs: &FastRuns,
    other: Option<&OtherBuild>,
    suite: &str,
) -> anyhow::Result<Vec<Measurement>> {
    let mut out = Vec::with_capacity(puzzles.len() * kinds.len());
    let total = puzzles.len();
    let mut stderr = std::io::stderr().lock();
    for (i, (name, puzzle)) in puzzles.iter().enumerate() {
        if cancelled(limits) {
            break;
        }
        let first_of_puzzle = out.len();
        // Long runs name each puzzle; the random suite reports every hundred.
        if total <= 50 || (i + 1) % 100 == 0 {
            writeln!(stderr, "[{suite} {}/{total}] {name}", i + 1)?;
        }
        for kind in kinds {
            // Only the parallel solver runs once per page size and thread count.
            if kind.name == solver::fast::NAME {
                for options in runs.options() {
                    out.push(measure(name, puzzle, kind, limits, repeat, &options));
                }
            } else {
                let options = SolverOptions::default();
                out.push(measure(name, puzzle, kind, limits, repeat, &options));
            }
        }
        // The other build right after this one, puzzle by puzzle, so both see the same load.
        if let Some(other) = other {
            for solver in &other.solvers {
                if cancelled(limits) {
                    break;
                }
                out.push(other.measure(name, solver, limits, repeat)?);
            }
        }
        // A puzzle the cancel cut short is left out whole, so every row of the tables is a
        // run that finished as it would have without the signal.
        if cancelled(limits) {
            out.truncate(first_of_puzzle);
            break;
        }
    }
    Ok(out)
}

/// Whether the bench was cancelled (Ctrl-C on the command line).
fn cancelled(limits: &Limits) -> bool {
    limits
        .cancel
        .as_ref()
        .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
}

/// The runs of `fast` on each puzzle: every page size with every thread count.
struct FastRuns {
    pages: Vec<Pages>,
    threads: Vec<usize>,
}

impl FastRuns {
    /// The options of each run, page sizes outermost.
    fn options(&self) -> Vec<SolverOptions> {
        let pages: &[Pages] = if self.pages.is_empty() {
            &[Pages::Huge]
        } else {
            &self.pages
        };
        let threads: Vec<Option<usize>> = if self.threads.is_empty() {
            vec![None]
        } else {
            self.threads.iter().map(|&t| Some(t)).collect()
        };
        pages
            .iter()
            .flat_map(|&pages| {
                threads.iter().map(move |&threads| SolverOptions {
                    threads,
                    pages,
                    ..SolverOptions::default()
                })
            })
            .collect()
    }
}

/// Runs one solver on one puzzle `repeat` times and keeps the median run. A run that does not
/// finish is not repeated.
pub fn measure(
    name: &str,
    puzzle: &Puzzle,
    kind: &'static solver::SolverKind,
    limits: &Limits,
    repeat: usize,
    options: &SolverOptions,
) -> Measurement {
    let threads = options.threads;
    let mut runs: Vec<Result<Report, solver::SolveError>> = Vec::new();
    for _ in 0..repeat.max(1) {
        let report = solver::run(kind.name, puzzle, options, limits, &mut NoProbe);
        let finished = matches!(
            report.as_ref().map(|r| &r.outcome),
            Ok(Outcome::Solved { .. } | Outcome::Unsolvable { .. })
        );
        runs.push(report);
        if !finished {
            break;
        }
    }
    let mut reports: Vec<Report> = Vec::new();
    for run in runs {
        match run {
            Ok(report) => reports.push(report),
            Err(error) => {
                // The solver refuses the puzzle (a rule it does not implement).
                return Measurement {
                    puzzle: name.to_string(),
                    solver: kind.name,
                    outcome: if matches!(error, solver::SolveError::UnsupportedRule { .. }) {
                        "unsupported"
                    } else {
                        "error"
                    },
                    moves: None,
                    time: Duration::ZERO,
                    nodes: 0,
                    peak_memory: 0,
                    threads: 0,
                    cpu: None,
                    huge_pages: None,
                    pages: options.pages,
                    build: None,
                };
            }
        }
    }
    reports.sort_by_key(|r| r.elapsed);
    let median = &reports[reports.len() / 2];
    Measurement {
        puzzle: name.to_string(),
        solver: kind.name,
        outcome: median.outcome.name(),
        moves: median.outcome.move_count(),
        time: median.elapsed,
        nodes: median.nodes,
        peak_memory: reports.iter().map(|r| r.peak_memory).max().unwrap_or(0),
        // The count asked for, so rows of one puzzle line up even when a small search
        // never needed more than one.
        threads: threads.unwrap_or(median.threads),
        cpu: median
            .cpu_millis
            .map(|ms| Duration::from_secs_f64(ms / 1e3)),
        huge_pages: median.huge_page_bytes,
        pages: options.pages,
        build: None,
    }
}

/// Another build of this program, run through its `solve --json` on the reference puzzles.
pub struct OtherBuild {
    path: PathBuf,
    /// Its file name, shown beside its solvers.
    name: String,
    solvers: Vec<&'static str>,
    boards: PathBuf,
}

impl OtherBuild {
    /// Checks that `path` can be run.
    pub fn new(path: &Path, solvers: &[String], boards: &Path) -> anyhow::Result<OtherBuild> {
        std::process::Command::new(path)
            .arg("--version")
            .output()
            .with_context(|| format!("cannot run {}", path.display()))?;
        let solvers = solver_kinds(solvers)?.iter().map(|k| k.name).collect();
        Ok(OtherBuild {
            path: path.to_path_buf(),
            name: path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            ),
            solvers,
            boards: boards.to_path_buf(),
        })
    }

    /// Runs `solver` on the reference puzzle `name` (a file of the boards folder or a game
    /// id) `repeat` times and keeps the median run; the CPU time is the child's.
    fn measure(
        &self,
        name: &str,
        solver: &'static str,
        limits: &Limits,
        repeat: usize,
    ) -> anyhow::Result<Measurement> {
        let source = if REFERENCE_GAME_IDS.contains(&name) {
            name.to_string()
        } else {
            self.boards
                .join(format!("{name}.ron"))
                .to_string_lossy()
                .into_owned()
        };
        let mut runs = Vec::new();
        for _ in 0..repeat.max(1) {
            let mut command = std::process::Command::new(&self.path);
            command.args(["solve", &source, "--solver", solver, "--json"]);
            if let Some(time) = limits.time {
                command.args(["--time-limit", &time.as_secs_f64().to_string()]);
            }
            if let Some(bytes) = limits.memory_bytes {
                command.args(["--memory-limit", &(bytes >> 20).max(1).to_string()]);
            }
            let cpu_before = crate::solver::children_cpu_time();
            let output = command
                .output()
                .with_context(|| format!("cannot run {}", self.path.display()))?;
            let cpu = crate::solver::children_cpu_time()
                .zip(cpu_before)
                .map(|(after, before)| after.saturating_sub(before));
            let value: serde_json::Value = serde_json::from_slice(&output.stdout)
                .with_context(|| format!("{} gave no JSON report on {name}", self.name))?;
            let outcome = match value["outcome"].as_str() {
                Some("solved") => "solved",
                Some("unsolvable") => "unsolvable",
                Some("none-within") => "none-within",
                Some("time-limit") => "time-limit",
                Some("memory-limit") => "memory-limit",
                _ => "error",
            };
            let finished = matches!(outcome, "solved" | "unsolvable" | "none-within");
            runs.push(Measurement {
                puzzle: name.to_string(),
                solver,
                outcome,
                moves: value["moves"].as_u64().map(|m| m as usize),
                time: Duration::from_secs_f64(value["millis"].as_f64().unwrap_or(0.0) / 1e3),
                nodes: value["nodes"].as_u64().unwrap_or(0),
                peak_memory: value["peak_memory_bytes"].as_u64().unwrap_or(0) as usize,
                threads: value["threads"].as_u64().unwrap_or(1) as usize,
                cpu,
                huge_pages: None,
                // The other build runs with its own default: huge pages where given.
                pages: Pages::Huge,
                build: Some(self.name.clone()),
            });
            if !finished {
                break;
            }
        }
        runs.sort_by_key(|m| m.time);
        let median = runs.len() / 2;
        Ok(runs.swap_remove(median))
    }
}

/// Per puzzle, the time of each thread count of the same solver and the speed-up over the
/// first, in Markdown; empty when no solver ran with more than one thread count.
pub fn speedup_table(measurements: &[Measurement]) -> String {
    let mut rows = String::new();
    let mut seen: Vec<(&str, &str, Pages)> = Vec::new();
    for m in measurements.iter().filter(|m| m.build.is_none()) {
        if seen.contains(&(m.puzzle.as_str(), m.solver, m.pages)) {
            continue;
        }
        seen.push((&m.puzzle, m.solver, m.pages));
        let runs: Vec<&Measurement> = measurements
            .iter()
            .filter(|o| {
                o.build.is_none()
                    && o.puzzle == m.puzzle
                    && o.solver == m.solver
                    && o.pages == m.pages
            })
            .collect();
        if runs.len() < 2 {
            continue;
        }
        let base = runs[0];
        for run in &runs[1..] {
            let speedup = base.time.as_secs_f64() / run.time.as_secs_f64().max(1e-9);
            rows.push_str(&format!(
                "| {} | {} | {} × {} | {} × {} | {speedup:.2}x |\n",
                m.puzzle,
                m.label(),
                base.threads,
                format_time(base.time),
                run.threads,
                format_time(run.time),
            ));
        }
    }
    if rows.is_empty() {
        return rows;
    }
    format!(
        "Speed-up with more threads (wall time, same run)\n\n\
         | puzzle | solver | threads × time | threads × time | speed-up |\n\
         |---|---|---:|---:|---:|\n{rows}"
    )
}

/// Per puzzle, solver and thread count run on both page sizes, the time with 4 KiB pages
/// over the time with huge pages, in Markdown; empty when no run asked for small pages.
pub fn pages_table(measurements: &[Measurement]) -> String {
    let mut rows = String::new();
    for small in measurements
        .iter()
        .filter(|m| m.build.is_none() && m.pages == Pages::Small)
    {
        let Some(huge) = measurements.iter().find(|m| {
            m.build.is_none()
                && m.pages == Pages::Huge
                && m.puzzle == small.puzzle
                && m.solver == small.solver
                && m.threads == small.threads
        }) else {
            continue;
        };
        if !finished(small) || !finished(huge) {
            continue;
        }
        let slowdown = small.time.as_secs_f64() / huge.time.as_secs_f64().max(1e-9);
        rows.push_str(&format!(
            "| {} | {} × {} | {} | {} | {} | {slowdown:.2}x |\n",
            small.puzzle,
            small.solver,
            small.threads,
            format_time(huge.time),
            huge.huge_pages.map_or("-".to_string(), format_bytes),
            format_time(small.time),
        ));
    }
    if rows.is_empty() {
        return rows;
    }
    format!(
        "Without huge pages (wall time, same run)\n\n\
         | puzzle | solver × threads | huge pages | of them backed | 4 KiB pages only | ratio |\n\
         |---|---|---:|---:|---:|---:|\n{rows}"
    )
}

/// Per puzzle, the other build's time over this build's for every pair of solvers, in
/// Markdown; empty without another build.
pub fn ratio_table(measurements: &[Measurement]) -> String {
    let mut rows = String::new();
    for theirs in measurements.iter().filter(|m| m.build.is_some()) {
        for ours in measurements
            .iter()
            .filter(|m| m.build.is_none() && m.puzzle == theirs.puzzle)
        {
            if !finished(ours) || !finished(theirs) {
                continue;
            }
            let ratio = theirs.time.as_secs_f64() / ours.time.as_secs_f64().max(1e-9);
            rows.push_str(&format!(
                "| {} | {} × {} | {} | {ratio:.2}x |\n",
                ours.puzzle,
                ours.label(),
                ours.threads,
                theirs.label(),
            ));
        }
    }
    if rows.is_empty() {
        return rows;
    }
    format!(
        "How many times faster than the other build (its wall time over ours, same run)\n\n\
         | puzzle | this build × threads | other build | ratio |\n\
         |---|---|---|---:|\n{rows}"
    )
}

fn finished(m: &Measurement) -> bool {
    matches!(m.outcome, "solved" | "unsolvable" | "none-within")
}

/// Time statistics of one solver over a list of measurements.
pub fn summarize(solver: &'static str, measurements: &[Measurement]) -> Summary {
    let mine: Vec<&Measurement> = measurements.iter().filter(|m| m.solver == solver).collect();
    let done: Vec<&&Measurement> = mine.iter().filter(|m| finished(m)).collect();
    let mut times: Vec<f64> = done.iter().map(|m| m.time.as_secs_f64() * 1e3).collect();
    times.sort_by(f64::total_cmp);
    let at = |q: f64| -> f64 {
        if times.is_empty() {
            return 0.0;
        }
        // Nearest rank: the smallest time with at least q of the runs at or below it.
        let rank = ((q * times.len() as f64).ceil() as usize).clamp(1, times.len());
        times[rank - 1]
    };
    let moves: Vec<usize> = done.iter().filter_map(|m| m.moves).collect();
    Summary {
        solver,
        finished: done.len(),
        unfinished: mine.len() - done.len(),
        mean_ms: if times.is_empty() {
            0.0
        } else {
            times.iter().sum::<f64>() / times.len() as f64
        },
        median_ms: at(0.5),
        p99_ms: at(0.99),
        max_ms: times.last().copied().unwrap_or(0.0),
        mean_moves: if moves.is_empty() {
            0.0
        } else {
            moves.iter().sum::<usize>() as f64 / moves.len() as f64
        },
        nodes: mine.iter().map(|m| m.nodes).sum(),
    }
}

/// Puzzles on which the optimal solvers that finished gave different answers.
pub fn disagreements(measurements: &[Measurement]) -> Vec<Disagreement> {
    let mut names: Vec<&str> = Vec::new();
    for m in measurements {
        if !names.contains(&m.puzzle.as_str()) {
            names.push(&m.puzzle);
        }
    }
    let mut out = Vec::new();
    for name in names {
        let answers: Vec<(&'static str, Option<usize>)> = measurements
            .iter()
            .filter(|m| m.puzzle == name && finished(m))
            .filter(|m| {
                solver::kind(m.solver).is_some_and(|k| k.optimality == Optimality::Guaranteed)
            })
            .map(|m| (m.solver, m.moves))
            .collect();
        if answers.windows(2).any(|w| w[0].1 != w[1].1) {
            out.push(Disagreement {
                puzzle: name.to_string(),
                answers,
            });
        }
    }
    out
}

/// How many puzzles at least two optimal solvers finished, so that their move counts were
/// compared.
pub fn compared_puzzles(measurements: &[Measurement]) -> usize {
    let mut finishers: BTreeMap<&str, usize> = BTreeMap::new();
    for m in measurements.iter().filter(|m| finished(m)) {
        if solver::kind(m.solver).is_some_and(|k| k.optimality == Optimality::Guaranteed) {
            *finishers.entry(m.puzzle.as_str()).or_insert(0) += 1;
        }
    }
    finishers.values().filter(|&&n| n >= 2).count()
}

/// The reference table in Markdown.
pub fn reference_table(measurements: &[Measurement]) -> String {
    let mut text = String::from(
        "| puzzle | solver | threads | moves | time | CPU | nodes | nodes/s | peak memory | huge pages | outcome |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for m in measurements {
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            m.puzzle,
            m.label(),
            m.threads,
            m.moves.map_or("-".to_string(), |n| n.to_string()),
            format_time(m.time),
            m.cpu.map_or("-".to_string(), format_time),
            m.nodes,
            format_rate(m.nodes_per_second()),
            format_bytes(m.peak_memory),
            m.huge_pages.map_or("-".to_string(), format_bytes),
            m.outcome
        ));
    }
    text
}

/// The random-suite table in Markdown.
pub fn summary_table(summaries: &[Summary], puzzles: usize) -> String {
    let mut text = format!(
        "Random suite: {puzzles} standard games (seeds 1..={puzzles}, four robots)\n\n\
         | solver | finished | mean moves | mean | median | p99 | max | nodes |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    for s in summaries {
        text.push_str(&format!(
            "| {} | {}{} | {:.2} | {} | {} | {} | {} | {} |\n",
            s.solver,
            s.finished,
            if s.unfinished > 0 {
                format!(" ({} not)", s.unfinished)
            } else {
                String::new()
            },
            s.mean_moves,
            format_ms(s.mean_ms),
            format_ms(s.median_ms),
            format_ms(s.p99_ms),
            format_ms(s.max_ms),
            s.nodes
        ));
    }
    text
}

/// One measurement in the JSON report.
#[derive(Serialize)]
struct MeasurementJson<'a> {
    puzzle: &'a str,
    solver: &'a str,
    outcome: &'a str,
    moves: Option<usize>,
    millis: f64,
    nodes: u64,
    nodes_per_second: f64,
    peak_memory_bytes: usize,
    threads: usize,
    cpu_millis: Option<f64>,
    huge_page_bytes: Option<usize>,
    pages: Pages,
    build: Option<&'a str>,
}

impl<'a> MeasurementJson<'a> {
    fn new(m: &'a Measurement) -> MeasurementJson<'a> {
        MeasurementJson {
            puzzle: &m.puzzle,
            solver: m.solver,
            outcome: m.outcome,
            moves: m.moves,
            millis: m.time.as_secs_f64() * 1e3,
            nodes: m.nodes,
            nodes_per_second: m.nodes_per_second(),
            peak_memory_bytes: m.peak_memory,
            threads: m.threads,
            cpu_millis: m.cpu.map(|c| c.as_secs_f64() * 1e3),
            huge_page_bytes: m.huge_pages,
            pages: m.pages,
            build: m.build.as_deref(),
        }
    }
}

/// One solver's summary over the random puzzles in the JSON report.
#[derive(Serialize)]
struct SummaryJson<'a> {
    solver: &'a str,
    finished: usize,
    unfinished: usize,
    mean_moves: f64,
    mean_millis: f64,
    median_millis: f64,
    p99_millis: f64,
    max_millis: f64,
    nodes: u64,
}

/// One solver's answer to a puzzle the solvers disagree on.
#[derive(Serialize)]
struct AnswerJson<'a> {
    solver: &'a str,
    moves: Option<usize>,
}

/// A puzzle the solvers disagree on.
#[derive(Serialize)]
struct DisagreementJson<'a> {
    puzzle: &'a str,
    answers: Vec<AnswerJson<'a>>,
}

/// The whole JSON report.
#[derive(Serialize)]
struct BenchJson<'a> {
    repeat: usize,
    reference: Vec<MeasurementJson<'a>>,
    random: Vec<MeasurementJson<'a>>,
    random_summary: Vec<SummaryJson<'a>>,
    disagreements: Vec<DisagreementJson<'a>>,
}

fn to_json(
    reference: &[Measurement],
    random: &[Measurement],
    summaries: &[Summary],
    disagreements: &[Disagreement],
    repeat: usize,
) -> serde_json::Value {
    let random_summary = summaries
        .iter()
        .filter(|_| !random.is_empty())
        .map(|s| SummaryJson {
            solver: s.solver,
            finished: s.finished,
            unfinished: s.unfinished,
            mean_moves: s.mean_moves,
            mean_millis: s.mean_ms,
            median_millis: s.median_ms,
            p99_millis: s.p99_ms,
            max_millis: s.max_ms,
            nodes: s.nodes,
        })
        .collect();
    let disagreements = disagreements
        .iter()
        .map(|d| DisagreementJson {
            puzzle: &d.puzzle,
            answers: d
                .answers
                .iter()
                .map(|&(solver, moves)| AnswerJson { solver, moves })
                .collect(),
        })
        .collect();
    let json = BenchJson {
        repeat,
        reference: reference.iter().map(MeasurementJson::new).collect(),
        random: random.iter().map(MeasurementJson::new).collect(),
        random_summary,
        disagreements,
    };
    // Plain numbers, strings and lists: serialising them cannot fail.
    serde_json::to_value(json).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measurement(
        puzzle: &str,
        solver: &'static str,
        moves: Option<usize>,
        ms: u64,
    ) -> Measurement {
        Measurement {
            puzzle: puzzle.to_string(),
            solver,
            outcome: "solved",
            moves,
            time: Duration::from_millis(ms),
            nodes: 10,
            peak_memory: 0,
            threads: 1,
            cpu: None,
            huge_pages: None,
            pages: Pages::Huge,
            build: None,
        }
    }

    #[test]
    fn thread_counts_of_one_puzzle_give_its_speed_up() {
        let mut two = measurement("hard", "fast", Some(20), 500);
        two.threads = 2;
        let runs = vec![
            measurement("hard", "fast", Some(20), 900),
            two,
            measurement("hard", "iddfs", Some(20), 2000),
        ];
        let table = speedup_table(&runs);
        assert!(table.contains("| hard | fast | 1 × 900.0 ms | 2 × 500.0 ms | 1.80x |"));
        assert!(!table.contains("iddfs"));
        assert!(speedup_table(&runs[2..]).is_empty());
    }

    #[test]
    fn small_pages_are_set_beside_huge_ones_of_the_same_thread_count() {
        let mut small = measurement("hard", "fast", Some(20), 1100);
        small.pages = Pages::Small;
        let mut huge = measurement("hard", "fast", Some(20), 1000);
        huge.huge_pages = Some(64 << 20);
        let mut two = measurement("hard", "fast", Some(20), 600);
        two.threads = 2;
        let runs = vec![huge, two, small];
        let table = pages_table(&runs);
        assert!(
            table.contains("| hard | fast × 1 | 1.00 s | 64 MiB | 1.10 s | 1.10x |"),
            "{table}"
        );
        assert_eq!(table.matches("| hard |").count(), 1, "{table}");
        assert!(pages_table(&runs[..2]).is_empty());
        // Thread speed-ups compare runs on the same pages only.
        assert!(!speedup_table(&runs).contains("4 KiB"));
    }

    #[test]
    fn the_other_build_is_compared_with_every_solver_of_this_one() {
        let mut theirs = measurement("hard", "iddfs", Some(20), 3000);
        theirs.build = Some("old".to_string());
        let runs = vec![
            measurement("hard", "fast", Some(20), 1000),
            measurement("hard", "iddfs", Some(20), 2000),
            theirs,
        ];
        let mut small = measurement("hard", "fast", Some(20), 1500);
        small.pages = Pages::Small;
        let mut with_small = runs.clone();
        with_small.push(small);
        let table = ratio_table(&with_small);
        assert!(
            table.contains("| hard | fast (4 KiB pages) × 1 | iddfs (old) | 2.00x |"),
            "{table}"
        );
        let table = ratio_table(&runs);
        assert!(
            table.contains("| hard | fast × 1 | iddfs (old) | 3.00x |"),
            "{table}"
        );
        assert!(
            table.contains("| hard | iddfs × 1 | iddfs (old) | 1.50x |"),
            "{table}"
        );
        assert!(ratio_table(&runs[..2]).is_empty());
    }

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let runs: Vec<Measurement> = (1..=100)
            .map(|ms| measurement(&format!("seed {ms}"), "fast", Some(5), ms))
            .collect();
        let summary = summarize("fast", &runs);
        assert_eq!(summary.finished, 100);
        assert_eq!(summary.median_ms, 50.0);
        assert_eq!(summary.p99_ms, 99.0);
        assert_eq!(summary.max_ms, 100.0);
        assert_eq!(summary.mean_ms, 50.5);
        assert_eq!(summary.nodes, 1000);
    }

    #[test]
    fn differing_move_counts_of_optimal_solvers_are_reported() {
        let runs = vec![
            measurement("a", "fast", Some(5), 1),
            measurement("a", "iddfs", Some(5), 1),
            measurement("b", "fast", Some(6), 1),
            measurement("b", "iddfs", Some(7), 1),
        ];
        let found = disagreements(&runs);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].puzzle, "b");
        assert_eq!(
            found[0].answers,
            vec![("fast", Some(6)), ("iddfs", Some(7))]
        );
    }

    #[test]
    fn the_reference_suite_holds_the_boards_and_the_hard_game_ids_once() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards");
        let puzzles = reference_puzzles(&dir).unwrap();
        let names: Vec<&str> = puzzles.iter().map(|(n, _)| n.as_str()).collect();
        assert!(names.contains(&"fogleman-22"));
        // Every game id is either a shipped board or listed by its id, never both.
        for id in REFERENCE_GAME_IDS {
            let puzzle = game_id::parse(id).unwrap();
            assert_eq!(
                puzzles.iter().filter(|(_, p)| *p == puzzle).count(),
                1,
                "{id}"
            );
        }
        // Files come first, sorted by name; game ids follow.
        let files: Vec<&str> = names.iter().copied().filter(|n| !n.contains('+')).collect();
        let mut sorted = files.clone();
        sorted.sort_unstable();
        assert_eq!(files, sorted);
        assert_eq!(&names[..files.len()], &files[..]);
    }

    #[test]
    fn the_random_suite_is_the_same_every_time() {
        let a = random_puzzles().unwrap();
        let b = random_puzzles().unwrap();
        assert_eq!(a.len(), 1000);
        assert!(a.iter().zip(&b).all(|(x, y)| x == y));
    }
}
