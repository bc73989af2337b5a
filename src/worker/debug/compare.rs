//! Two runs side by side: each recorded whole to a trace on its own named thread, then the
//! two traces compared on another, each with live progress and a cancel flag (see
//! [`crate::solver::trace::compare_traces_until`] for what counts as a difference).

use crate::model::Puzzle;
use crate::solver::trace::{
    self, DivergenceRule, RecordError, TraceComparison, TraceError, TraceReader, TraceSummary,
};
use crate::solver::{Limits, Probe, Report, SolverChoice, SolverOptions};
use crate::worker::{PROGRESS_REPAINT_DELAY, Task, Waker, spawn_task};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A run recorded to a trace: the solver's report and what the trace holds.
#[derive(Debug)]
pub struct RecordedRun {
    /// The solver's report.
    pub report: Report,
    /// The trace's summary.
    pub summary: TraceSummary,
}

/// What a recording thread sends once, at its end.
pub type RecordResult = Result<RecordedRun, RecordError>;

/// A recording on its thread: its task, and the nodes it has searched so far.
pub struct Recording {
    /// The thread; dropping it cancels the search, whose trace then ends as a prefix.
    pub task: Task<RecordResult>,
    /// Nodes searched so far, published every few thousand nodes.
    pub nodes: Arc<AtomicU64>,
    /// When it started.
    pub started: Instant,
}

/// Starts recording `solver` on `puzzle` to a trace at `path` on a thread named
/// `record trace`, within `time_limit`. Cancelling the task stops the search at its next poll;
/// the trace is then finished as incomplete and the report says the run was cancelled.
pub fn spawn_recording(
    solver: SolverChoice,
    puzzle: Puzzle,
    options: SolverOptions,
    time_limit: Option<Duration>,
    path: PathBuf,
    waker: Waker,
) -> std::io::Result<Recording> {
    let nodes = Arc::new(AtomicU64::new(0));
    let published = Arc::clone(&nodes);
    let task = spawn_task("record trace".into(), waker.clone(), 1, move |link| {
        let limits = Limits {
            time: time_limit,
            memory_bytes: None,
            cancel: Some(Arc::clone(&link.cancel)),
        };
        let counter = NodeCounter {
            nodes: published,
            waker,
            cancel: Arc::clone(&link.cancel),
            last_wake: Instant::now(),
        };
        let result = trace::record(&solver, &puzzle, &options, &limits, &path, counter)
            .map(|(report, summary)| RecordedRun { report, summary });
        link.send(result, Duration::ZERO);
    })?;
    Ok(Recording {
        task,
        nodes,
        started: Instant::now(),
    })
}

/// The probe under a recording: it publishes the node count for the window and honours its
/// cancel flag (the recorder above it keeps the events).
struct NodeCounter {
    nodes: Arc<AtomicU64>,
    waker: Waker,
    cancel: Arc<AtomicBool>,
    last_wake: Instant,
}

impl Probe for NodeCounter {
    fn progress(&mut self, nodes: u64, _memory_bytes: usize) {
        self.nodes.store(nodes, Ordering::Relaxed);
        // A repaint a few times a second is enough for a counter.
        if self.last_wake.elapsed() >= PROGRESS_REPAINT_DELAY {
            self.last_wake = Instant::now();
            (self.waker)(PROGRESS_REPAINT_DELAY);
        }
    }

    fn should_stop(&mut self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// What a comparing thread sends once: the comparison, `None` when it was cancelled.
pub type CompareResult = Result<Option<TraceComparison>, TraceError>;

/// A comparison on its thread: its task, and the nodes it has read so far.
pub struct Comparing {
    /// The thread; dropping it stops the comparison.
    pub task: Task<CompareResult>,
    /// Nodes read so far, from both traces together.
    pub nodes: Arc<AtomicU64>,
}

/// Starts comparing the traces at `first` and `second` by `rule` on a thread named
/// `compare traces`. Each trace is opened afresh on that thread.
pub fn spawn_comparison(
    first: PathBuf,
    second: PathBuf,
    rule: DivergenceRule,
    waker: Waker,
) -> std::io::Result<Comparing> {
    let nodes = Arc::new(AtomicU64::new(0));
    let published = Arc::clone(&nodes);
    let task = spawn_task("compare traces".into(), waker.clone(), 1, move |link| {
        let result = TraceReader::open(&first).and_then(|mut first| {
            let mut second = TraceReader::open(&second)?;
            let mut keep_going = |read: u64| {
                published.store(read, Ordering::Relaxed);
                waker(PROGRESS_REPAINT_DELAY);
                !link.is_cancelled()
            };
            trace::compare_traces_until(&mut first, &mut second, rule, &mut keep_going)
        });
        link.send(result, Duration::ZERO);
    })?;
    Ok(Comparing { task, nodes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SolverId;
    use crate::worker::Drained;

    fn quiet() -> Waker {
        Arc::new(|_| {})
    }

    fn wait<M>(task: &Task<M>) -> M {
        let message = task.recv_timeout(Duration::from_secs(60));
        message.unwrap_or_else(|e| panic!("the task did not answer: {e}"))
    }

    #[test]
    fn two_recordings_of_one_solver_compare_the_same_and_two_solvers_differ() {
        let folder = tempfile::tempdir().unwrap();
        let puzzle = crate::testing::small();
        let record = |id: SolverId, name: &str| {
            let path = folder.path().join(name);
            let recording = spawn_recording(
                SolverChoice::BuiltIn(id),
                puzzle.clone(),
                SolverOptions::default(),
                None,
                path.clone(),
                quiet(),
            )
            .unwrap();
            let run = wait(&recording.task).unwrap();
            assert!(run.summary.complete, "{name}: {:?}", run.summary);
            path
        };
        let iddfs = record(SolverId::Iddfs, "a.rltrace");
        let again = record(SolverId::Iddfs, "b.rltrace");
        let bfs = record(SolverId::Bfs, "c.rltrace");
        let same = spawn_comparison(iddfs.clone(), again, DivergenceRule::Order, quiet()).unwrap();
        let same = wait(&same.task).unwrap().unwrap();
        assert!(same.divergence.is_none(), "{same:?}");
        assert!(same.nodes_compared > 0);
        let other = spawn_comparison(iddfs, bfs, DivergenceRule::Order, quiet()).unwrap();
        let other = wait(&other.task).unwrap().unwrap();
        assert!(other.divergence.is_some(), "{other:?}");
    }

    #[test]
    fn a_cancelled_recording_ends_its_trace_as_a_readable_prefix() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("long.rltrace");
        let recording = spawn_recording(
            SolverChoice::BuiltIn(SolverId::Iddfs),
            crate::testing::board("hardest-25.ron"),
            SolverOptions::default(),
            None,
            path.clone(),
            quiet(),
        )
        .unwrap();
        std::thread::sleep(Duration::from_millis(200));
        let asked = Instant::now();
        recording.task.cancel();
        let run = wait(&recording.task).unwrap();
        assert!(asked.elapsed() < Duration::from_secs(5));
        assert_eq!(run.report.outcome, crate::solver::Outcome::Cancelled);
        assert!(!run.summary.complete);
        let reader = TraceReader::open(&path).unwrap();
        assert!(reader.events() > 0);
        assert!(matches!(
            recording.task.drain(|_| true),
            Drained::Lost | Drained::Waiting
        ));
    }
}
