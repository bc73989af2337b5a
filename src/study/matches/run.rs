//! Running a match: worker threads take puzzles in turn, each running every solver on its
//! puzzle one after the other (so a puzzle's times are paired on one thread), and the calling
//! thread appends each finished puzzle's lines to the results file and flushes it.
//!
//! The results file begins with a header line naming the suite (by a hash of its puzzles) and
//! the solvers; then one JSON line per puzzle and solver. `resume` reads it back, cuts a last
//! line a crash left half written, and runs only the pairs of puzzle and solver it lacks, so
//! no run is done twice and the report counts every run once.

use super::order::shard_order;
use super::stats::{Decision, Sprt};
use super::{MatchRecord, SuiteEntry, judge, optimality};
use crate::solver::engine::Engine;
use crate::solver::{self, Limits, NoProbe, Outcome, SolveError, SolverChoice, SolverOptions};
use crate::study::experiment::Shard;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How a match runs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The solvers, the first being the one the others' times are over.
    pub solvers: Vec<SolverChoice>,
    /// How many puzzles run at once, each on a thread of its own.
    pub concurrency: usize,
    /// The longest one solver may take on one puzzle.
    pub time_limit: Option<Duration>,
    /// Threads for `fast` (one by default, so that concurrent puzzles do not share cores).
    pub threads: Option<usize>,
    /// The results file, appended to as puzzles finish.
    pub out: Option<PathBuf>,
    /// Whether to continue the results file rather than refuse an existing one.
    pub resume: bool,
    /// The sequential test that stops the match once the first pair is decided.
    pub stop_when_decided: Option<Sprt>,
    /// The slice of the suite this run takes ([`Shard::WHOLE`] for all of it).
    pub shard: Shard,
}

/// The results file's first line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Header {
    /// The format's version.
    pub(super) r#match: u32,
    /// A hash of the suite's ids and puzzles, so that a file is resumed only for its suite.
    pub(super) suite: String,
    /// The solvers' names, in order.
    pub(super) solvers: Vec<String>,
    /// The shard this file holds (`I/N`), absent for a whole match (and a merged one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) shard: Option<String>,
}

/// Why a match could not run or keep its results.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The results file could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The results file belongs to another match, or is not one.
    #[error("{}: {reason}", path.display())]
    Results {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

/// What a match did.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// Every record: the resumed ones and the new ones, in the order written.
    pub records: Vec<MatchRecord>,
    /// Puzzle and solver pairs run now (not read back from the file).
    pub runs: usize,
    /// Whether the match stopped before its end: cancelled, or decided.
    pub stopped: Option<&'static str>,
}

/// One finished puzzle, as the progress callback sees it.
pub struct Progress<'a> {
    /// Puzzles every solver has a result for.
    pub done: usize,
    /// The suite's puzzles.
    pub total: usize,
    /// Every record so far.
    pub records: &'a [MatchRecord],
}

/// FNV-1a over some bytes: a hash that is the same on every machine and run.
fn fnv(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// A stable hash of the suite's ids and puzzles: FNV-1a over their puzzle lines.
pub(super) fn suite_hash(suite: &[SuiteEntry]) -> String {
    let mut text = String::new();
    for entry in suite {
        text.push_str(&crate::solver::engine::protocol::format_puzzle(
            &entry.id,
            &entry.puzzle,
        ));
        text.push('\n');
    }
    format!("{:016x}", fnv(text.as_bytes()))
}

/// Opens the results file under an exclusive lock held until the match ends (a second run
/// on it is refused at once, naming the one that holds it): a new one with its header, or
/// (resuming) the old one with its records read back and a half-written last line cut.
fn open_results(
    path: &Path,
    header: &Header,
    resume: bool,
) -> Result<(std::fs::File, Vec<MatchRecord>), MatchError> {
    let io = |error| MatchError::Io {
        path: path.to_path_buf(),
        error,
    };
    let bad = |reason: String| MatchError::Results {
        path: path.to_path_buf(),
        reason,
    };
    // Opened without truncating: nothing is read or cut until the lock is held, or a second
    // run would change the file of the run that holds it. Only a regular file is taken.
    let mut file = crate::model::formats::open_regular(
        path,
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false),
    )
    .map_err(io)?;
    if let Err(holder) = crate::study::held_file::try_hold(&file).map_err(io)? {
        return Err(bad(format!(
            "{holder} is writing this file; wait for it to end or choose another --out"
        )));
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut file, &mut bytes).map_err(io)?;
    let header_line = serde_json::to_string(header).map_err(|e| bad(e.to_string()))?;
    if bytes.is_empty() {
        writeln!(file, "{header_line}").map_err(io)?;
        file.flush().map_err(io)?;
        return Ok((file, Vec::new()));
    }
    if !resume {
        return Err(bad(
            "the results file exists; add --resume to continue its match, or choose another file"
                .into(),
        ));
    }
    let (whole, theirs, records) = parse_results(path, &bytes)?;
    if theirs.suite != header.suite {
        return Err(bad(
            "it holds the results of another suite (its puzzles differ)".into(),
        ));
    }
    if theirs.solvers != header.solvers {
        return Err(bad(format!(
            "it holds a match of {}, not of {}",
            theirs.solvers.join(","),
            header.solvers.join(",")
        )));
    }
    if theirs.shard != header.shard {
        let name = |shard: &Option<String>| {
            shard
                .as_ref()
                .map_or("the whole suite".to_string(), |s| format!("shard {s}"))
        };
        return Err(bad(format!(
            "it holds {} of the match, not {}",
            name(&theirs.shard),
            name(&header.shard)
        )));
    }
    file.set_len(whole as u64).map_err(io)?;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0)).map_err(io)?;
    Ok((file, records))
}

/// A results file's header and records, and the length of its whole lines (a last line a
/// crash cut short is left out).
pub(super) fn parse_results(
    path: &Path,
    bytes: &[u8],
) -> Result<(usize, Header, Vec<MatchRecord>), MatchError> {
    let bad = |reason: String| MatchError::Results {
        path: path.to_path_buf(),
        reason,
    };
    // A line without its end of line is one a crash cut short: it is dropped.
    let whole = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |end| end + 1);
    let text = String::from_utf8_lossy(&bytes[..whole]);
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default();
    let header: Header = serde_json::from_str(first)
        .map_err(|_| bad("its first line is not a match's header".into()))?;
    let mut records = Vec::new();
    for (index, line) in lines.enumerate() {
        let record: MatchRecord =
            serde_json::from_str(line).map_err(|e| bad(format!("line {}: {e}", index + 2)))?;
        records.push(record);
    }
    Ok((whole, header, records))
}

/// A worker's solvers: built-in ones run through [`solver::run`]; an engine is started once
/// per worker and kept for its puzzles (restarted after a failure).
struct Runner {
    choice: SolverChoice,
    engine: Option<Engine>,
}

impl Runner {
    fn run(
        &mut self,
        entry: &SuiteEntry,
        options: &SolverOptions,
        limits: &Limits,
    ) -> Result<solver::Report, SolveError> {
        let SolverChoice::Engine(spec) = &self.choice else {
            return solver::run(&self.choice, &entry.puzzle, options, limits, &mut NoProbe);
        };
        let engine = match self.engine.take() {
            Some(engine) => engine,
            None => Engine::start(spec).map_err(SolveError::Engine)?,
        };
        let engine = self.engine.insert(engine);
        let result = engine.solve(&entry.puzzle, options, limits, &mut NoProbe);
        if result.is_err()
            && let Some(engine) = self.engine.take()
        {
            engine.kill();
        }
        result
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit();
        }
    }
}

/// Runs every pair of puzzle and solver the records lack; `progress` is called on the
/// calling thread after each puzzle is written. A cancel stops the workers within a run's
/// cancel time; runs it cut short are not recorded, so a resume runs them again.
pub fn run_match(
    suite: &[SuiteEntry],
    config: &MatchConfig,
    cancel: &Arc<AtomicBool>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<MatchResult, MatchError> {
    let names: Vec<String> = config
        .solvers
        .iter()
        .map(|s| s.name().to_string())
        .collect();
    let header = Header {
        r#match: 1,
        suite: suite_hash(suite),
        solvers: names.clone(),
        shard: (config.shard != Shard::WHOLE).then(|| config.shard.to_string()),
    };
    let (mut file, mut records) = match &config.out {
        Some(path) => {
            let (file, records) = open_results(path, &header, config.resume)?;
            (Some((path.clone(), file)), records)
        }
        None => (None, Vec::new()),
    };
    let order = shard_order(suite, config.shard);
    let todo = pairs_to_run(suite, &order, &names, &records);
    let ids: Vec<String> = order.iter().map(|&i| suite[i].id.clone()).collect();
    let complete = |records: &[MatchRecord]| super::report(&ids, &names, records, None).complete;
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let options = SolverOptions {
        threads: Some(config.threads.unwrap_or(1)),
        ..SolverOptions::default()
    };
    let limits = Limits {
        time: config.time_limit,
        memory_bytes: None,
        cancel: Some(cancel.clone()),
    };
    let mut runs = 0;
    let mut stopped = None;
    let mut write_error = None;
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::sync_channel::<Vec<MatchRecord>>(config.concurrency * 2);
        for worker in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let (todo, next, halt, options, limits) = (&todo, &next, &halt, &options, &limits);
            let solvers = &config.solvers;
            let names = &names;
            // A worker that cannot be started leaves its puzzles to the others.
            let _ = std::thread::Builder::new()
                .name(format!("match-{worker}"))
                .spawn_scoped(scope, move || {
                    let mut runners: Vec<Runner> = solvers
                        .iter()
                        .map(|choice| Runner {
                            choice: choice.clone(),
                            engine: None,
                        })
                        .collect();
                    loop {
                        if halt.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed) {
                            return;
                        }
                        let Some((index, missing)) = todo.get(next.fetch_add(1, Ordering::Relaxed))
                        else {
                            return;
                        };
                        let entry = &suite[*index];
                        let mut lines = Vec::new();
                        for &s in missing {
                            let report = runners[s].run(entry, options, limits);
                            if cancel.load(Ordering::Relaxed) {
                                return;
                            }
                            lines.push(record_of(entry, &names[s], &solvers[s], report));
                        }
                        if sender.send(lines).is_err() {
                            return;
                        }
                    }
                });
        }
        drop(sender);
        for lines in receiver {
            if let Some((path, file)) = &mut file {
                let mut text = String::new();
                for line in &lines {
                    match serde_json::to_string(line) {
                        Ok(json) => {
                            text.push_str(&json);
                            text.push('\n');
                        }
                        Err(error) => write_error = Some((path.clone(), error.to_string())),
                    }
                }
                // One write per puzzle, so a crash leaves at most one line cut short.
                if let Err(error) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
                    write_error = Some((path.clone(), error.to_string()));
                    halt.store(true, Ordering::Relaxed);
                }
            }
            runs += lines.len();
            records.extend(lines);
            progress(&Progress {
                done: complete(&records),
                total: ids.len(),
                records: &records,
            });
            if let Some(sprt) = &config.stop_when_decided {
                let report = super::report(&ids, &names, &records, Some(sprt));
                if report.decision.is_some_and(|d| d != Decision::Open) {
                    halt.store(true, Ordering::Relaxed);
                    stopped = Some("decided");
                }
            }
        }
    });
    if let Some((path, error)) = write_error {
        return Err(MatchError::Io {
            path,
            error: std::io::Error::other(error),
        });
    }
    if cancel.load(Ordering::Relaxed) {
        stopped = Some("cancelled");
    }
    Ok(MatchResult {
        records,
        runs,
        stopped,
    })
}

/// The pairs each puzzle of `order` still needs (solvers by index), in that order: the
/// match's seeded order stratified by length ([`super::order`]), so that a match stopped
/// early (decided, or cancelled) has run a sample of every length, the same on every run and
/// resume.
fn pairs_to_run(
    suite: &[SuiteEntry],
    order: &[usize],
    names: &[String],
    records: &[MatchRecord],
) -> Vec<(usize, Vec<usize>)> {
    let done: HashSet<(&str, &str)> = records
        .iter()
        .map(|r| (r.puzzle.as_str(), r.solver.as_str()))
        .collect();
    order
        .iter()
        .filter_map(|&index| {
            let entry = &suite[index];
            let missing: Vec<usize> = (0..names.len())
                .filter(|&s| !done.contains(&(entry.id.as_str(), names[s].as_str())))
                .collect();
            (!missing.is_empty()).then_some((index, missing))
        })
        .collect()
}

/// A run's record: its outcome, time, nodes and verdict.
fn record_of(
    entry: &SuiteEntry,
    name: &str,
    choice: &SolverChoice,
    report: Result<solver::Report, SolveError>,
) -> MatchRecord {
    let report = match report {
        Ok(report) => report,
        Err(error) => {
            return MatchRecord {
                puzzle: entry.id.clone(),
                solver: name.to_string(),
                outcome: "error".into(),
                moves: None,
                millis: 0.0,
                nodes: 0,
                verdict: super::Verdict::Wrong,
                detail: Some(error.to_string()),
            };
        }
    };
    let (optimal, trusted) = optimality(choice);
    let (verdict, detail) = judge(entry.optimum, &report.outcome, optimal, trusted);
    MatchRecord {
        puzzle: entry.id.clone(),
        solver: name.to_string(),
        outcome: report.outcome.name().to_string(),
        moves: match &report.outcome {
            Outcome::Solved { moves } => Some(moves.len() as u32),
            _ => None,
        },
        millis: report.elapsed.as_secs_f64() * 1000.0,
        nodes: report.nodes,
        verdict,
        detail,
    }
}
