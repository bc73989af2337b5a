//! Traces: a whole search recorded to a file as it runs, read back event by event.
//!
//! A [`TraceRecorder`] is a probe that encodes every event against the one before it (a node
//! as the move from its parent and how far the search climbed back first, usually one byte)
//! into blocks of about 64 KiB, each opening with a checkpoint of the search's path, and
//! writes them as they fill. A [`TraceReader`] indexes the blocks and replays events from any
//! of them, working out each node's robot cells from the puzzle, so any event is reached by
//! decoding at most one block. The format is documented in `docs/trace-format.md`.
//!
//! A recording cut off by a crash or a full disk leaves whole blocks behind, readable as a
//! prefix marked incomplete; a finished one ends with a footer that holds the summary and the
//! blocks' offsets.

mod codec;
mod compare;
mod file;
mod frontier;
mod kind;
mod reader;
mod recorder;
mod states;
mod tree;

pub use codec::{CodeError, Decoded, TEXT_CHARS};
pub use compare::{
    Divergence, DivergenceRule, TraceComparison, compare_traces, compare_traces_until,
};
pub use file::{BLOCK_BYTES, BlockInfo, MAGIC, VERSION};
pub use frontier::{
    Estimates, FRONTIER_STRIDE, Frontier, FrontierBuilder, FrontierEntry, STACK_LOOKAHEAD, Stack,
    StackLevel, shape_of_trace, stack_at,
};
pub use kind::EventKind;
pub use reader::{HEADER_TEXT_CHARS, Health, Replay, TraceReader, TracedEvent};
pub use recorder::TraceRecorder;
pub use states::{
    MAX_STATE_POSITIONS, Reached, StateComparison, StateDepth, StateDifference,
    compare_states_until,
};
pub use tree::{TreeNode, TreeNodeFate};

use super::DepthStats;
use std::path::{Path, PathBuf};

/// What a trace records about where it came from, at the start of its file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TraceHeader {
    /// The program and version that wrote it.
    pub program: String,
    /// The puzzle, in the native `.ron` format.
    pub puzzle: String,
    /// The solver's name: a built-in solver's command-line name, or an engine's.
    pub solver: String,
    /// The solver's title, as tables show it.
    pub solver_title: String,
    /// Whether the solver is an external engine.
    pub external: bool,
}

/// One finished depth, bound or level, as a trace keeps it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TraceRow {
    /// The depth, bound or level.
    pub depth: u32,
    /// The first counter (nodes).
    pub nodes: u64,
    /// The second counter.
    pub inner: u64,
    /// The third counter.
    pub hits: u64,
    /// Further named counters.
    pub extra: Vec<(String, u64)>,
}

impl From<&DepthStats> for TraceRow {
    fn from(stats: &DepthStats) -> TraceRow {
        TraceRow {
            depth: stats.depth,
            nodes: stats.nodes,
            inner: stats.inner,
            hits: stats.hits,
            extra: stats
                .extra
                .iter()
                .map(|(name, value)| ((*name).to_string(), *value))
                .collect(),
        }
    }
}

/// What a finished recording says about itself in its footer; for a recording cut off, the
/// reader works the same out from the blocks that survived.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TraceSummary {
    /// Whether the search ran to its own end (a solution, or proof there is none), rather
    /// than being cancelled, stopped by a limit or cut off.
    pub complete: bool,
    /// How the run ended, in words ("solved in 8 moves", "cancelled", ...).
    pub end: String,
    /// Every event.
    pub events: u64,
    /// Events by kind, named as [`EventKind::name`] spells them, in [`EventKind::ALL`]'s
    /// order; kinds with no event are left out.
    pub by_kind: Vec<(String, u64)>,
    /// The finished rows.
    pub rows: Vec<TraceRow>,
    /// The solution, in move notation, when one was found.
    pub solution: Option<String>,
}

/// Why a trace could not be written or read. Each names the file.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// A write failed before any event was written whole, so the file, which no reader
    /// could have read an event from, was removed.
    #[error(
        "{}: {source}; the file was removed, as no event of the trace had been written whole",
        path.display()
    )]
    NothingKept {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The file does not start as a trace does.
    #[error("{} is not a Ricochet Lab trace (it does not start with the trace format's mark)", .0.display())]
    NotATrace(PathBuf),
    /// The file was written by a newer program.
    #[error(
        "{} is a trace of format version {version}; this program reads versions up to {}",
        path.display(),
        VERSION
    )]
    NewerVersion {
        /// The file.
        path: PathBuf,
        /// Its format version.
        version: u16,
    },
    /// The file is damaged or cut off where it cannot be read past.
    #[error("{} is damaged: {why}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        why: String,
    },
    /// Two traces that cannot be compared: of two puzzles, or too large to compare by the
    /// rule asked for.
    #[error("{}: {why}", path.display())]
    Incomparable {
        /// The file that cannot be compared.
        path: PathBuf,
        /// Why, naming the other file where it matters.
        why: String,
    },
    /// An event number past the trace's end.
    #[error("{} has {events} events; there is no event {index}", path.display())]
    NoSuchEvent {
        /// The file.
        path: PathBuf,
        /// The event asked for.
        index: u64,
        /// How many there are.
        events: u64,
    },
}

impl TraceError {
    fn io(path: &Path, source: std::io::Error) -> TraceError {
        TraceError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Runs `solver` on `puzzle` as [`run`](crate::solver::run) does, recording every event to a
/// trace at `path`; `inner` sees the run as it would without the recording (live counters,
/// cancellation). Returns the report and the trace's summary. A search cancelled or stopped
/// by a limit still finishes its trace, marked incomplete; a write that fails stops the
/// search and is the error.
pub fn record<P: crate::solver::Probe>(
    solver: &crate::solver::SolverChoice,
    puzzle: &crate::model::Puzzle,
    options: &crate::solver::SolverOptions,
    limits: &crate::solver::Limits,
    path: &Path,
    inner: P,
) -> Result<(crate::solver::Report, TraceSummary), RecordError> {
    let header = TraceHeader {
        program: format!("ricochet-lab {}", env!("CARGO_PKG_VERSION")),
        puzzle: crate::model::formats::native::write(puzzle),
        solver: solver.name().to_string(),
        solver_title: solver.kind().title.to_string(),
        external: solver.is_engine(),
    };
    let mut recorder = TraceRecorder::create(path, &header, puzzle.board().clone(), inner)?;
    let run = crate::solver::run(solver, puzzle, options, limits, &mut recorder);
    let report = match run {
        Ok(report) => report,
        Err(error) => {
            // Nothing ran: leave no trace of a run that never was.
            drop(recorder);
            let _ = std::fs::remove_file(path);
            return Err(RecordError::Solve(error));
        }
    };
    let (end, complete) = outcome_words(&report.outcome);
    let (_, summary) = recorder.finish(&end, complete)?;
    Ok((report, summary))
}

/// How a run ended, in words, and whether the search reached its own end.
pub fn outcome_words(outcome: &crate::solver::Outcome) -> (String, bool) {
    use crate::solver::Outcome;
    match outcome {
        Outcome::Solved { moves } => (format!("solved in {} moves", moves.len()), true),
        Outcome::Unsolvable { within: None } => ("no solution exists".into(), true),
        Outcome::Unsolvable { within: Some(n) } => (format!("no solution within {n} moves"), true),
        Outcome::NotFound => ("finished without a solution".into(), true),
        Outcome::Cancelled => ("cancelled".into(), false),
        Outcome::TimeLimit => ("stopped by the time limit".into(), false),
        Outcome::MemoryLimit => ("stopped by the memory limit".into(), false),
        Outcome::Invalid { error, .. } => (format!("its answer failed its replay: {error}"), true),
    }
}

/// Why a recording failed.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The trace could not be written.
    #[error(transparent)]
    Trace(#[from] TraceError),
    /// The solver refused the puzzle or could not start.
    #[error(transparent)]
    Solve(#[from] crate::solver::SolveError),
}

/// The file name extension of a trace, as the app's dialogs propose it.
pub const EXTENSION: &str = "rltrace";

/// Whether the file at `path` is to be opened as a trace: it starts as a trace does (its
/// first eight bytes), or its name ends in `.rltrace` (then a file that is no trace, empty or
/// of zeros, is refused as a trace, "is not a Ricochet Lab trace", not read as a puzzle).
pub fn is_trace_file(path: &Path) -> bool {
    if path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case(EXTENSION))
    {
        return true;
    }
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut head))
        .is_ok()
        && &head == MAGIC
}

/// Copies a trace (one still being recorded too: its whole blocks are what a reader sees)
/// to `to`, through a temporary file beside it that is renamed over it, so a copy cut off
/// never replaces a file. Returns the bytes copied.
pub fn copy_trace(from: &Path, to: &Path) -> Result<u64, TraceError> {
    let folder = match to.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let temporary = tempfile::Builder::new()
        .prefix(".trace-")
        .suffix(".tmp")
        .tempfile_in(&folder)
        .map_err(|e| TraceError::io(to, e))?;
    let mut source = std::fs::File::open(from).map_err(|e| TraceError::io(from, e))?;
    let mut target = temporary.as_file();
    let bytes = std::io::copy(&mut source, &mut target).map_err(|e| TraceError::io(to, e))?;
    target.sync_all().map_err(|e| TraceError::io(to, e))?;
    temporary
        .persist(to)
        .map_err(|e| TraceError::io(to, e.error))?;
    Ok(bytes)
}
