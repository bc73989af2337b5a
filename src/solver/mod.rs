//! The solver layer: every algorithm, one API, generic over a [`Probe`].
//!
//! A solver is named by a [`SolverId`] (see [`registry`]) and run with [`run`], which checks
//! its rule support, applies the limits, replays any claimed solution on the board and returns
//! a [`Report`]. Nothing here knows about the user interface. A solver may run scoped threads
//! of its own (the fast solver searches in parallel), always joined before it returns; every
//! other thread is started by the worker layer. The one exception is an external engine
//! ([`engine`], chosen by a [`SolverChoice`]): its process comes with two reader threads
//! that end with it, which after a cancel is up to a second after the run has returned (when
//! the caller drops the [`Retired`] tables of [`run_keeping_memory`]).

#[macro_use]
pub mod registry;

pub mod analysis;
pub mod choice;
pub mod dfs_state;
pub mod drawing;
pub mod engine;
pub mod graph_tracker;
pub mod heuristics;
pub mod intern;
pub mod key;
pub(crate) mod memory;
pub mod min_moves;
pub mod pages;
pub mod picture;
pub mod probe;
pub mod profile;
pub mod report_json;
mod shape;
pub mod sharded_set;
pub mod slide_graph;
pub(crate) mod steps;
pub mod stops;
pub mod trace;
pub(crate) mod tree;

// Every algorithm: one line each declares its module and registers its solvers (see
// `registry`). The order is the order users see them in.
solvers! {
    mod bfs { Bfs => Bfs }
    mod iddfs { Iddfs => IterativeDeepening }
    mod fast { Fast => Fast }
    mod astar {
        Astar => MinMovesAstar,
        AstarManhattan => ManhattanAstar,
        AstarRowcol => RowColumnAstar,
    }
    mod idastar { Idastar => Idastar }
    mod dls { Dls => DepthLimitedSearch }
    mod graph_solver { GraphV1 => GraphV1, GraphV2 => GraphV2 }
    mod stateless { Stateless => Stateless }
}

pub use choice::{SolverChoice, SolverPick};
pub use probe::{
    DepthStats, Event, NoProbe, Probe, PruneReason, RecordingProbe, RobotCells, SolverEvent,
    SolverPayload,
};
pub use registry::SolverRef;
pub use shape::SearchShape;

use crate::model::{Move, Puzzle, ReplayError, Rules};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Whether a solver's answers are always shortest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Optimality {
    /// Every answer has the fewest moves possible.
    Guaranteed,
    /// Answers are valid (replay-checked) but may be longer than necessary.
    NotGuaranteed,
}

/// Which rule options a solver honours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSupport {
    /// The ricochet rule (no solutions of zero or one move).
    pub ricochet: bool,
    /// The no-rebound rule.
    pub no_rebound: bool,
}

impl RuleSupport {
    /// Both rule options: what a solver that searches with the rules rather than around
    /// them supports.
    pub const BOTH: RuleSupport = RuleSupport {
        ricochet: true,
        no_rebound: true,
    };

    /// The first rule `rules` asks for that is not supported (`"ricochet"` or
    /// `"no-rebound"`), or `None` when the solver can take the puzzle. Every run is checked
    /// here, and the solver panel asks the same question before it offers a run.
    pub fn unsupported(&self, rules: Rules) -> Option<&'static str> {
        if rules.ricochet && !self.ricochet {
            Some("ricochet")
        } else if rules.no_rebound && !self.no_rebound {
            Some("no-rebound")
        } else {
            None
        }
    }
}

/// A registered solver: what it is called, what it does and where it comes from.
#[derive(Clone, Copy, Debug)]
pub struct SolverKind {
    /// Command-line name (stable: tools outside the project rely on it).
    pub name: &'static str,
    /// Display name.
    pub title: &'static str,
    /// One line saying what it does.
    pub description: &'static str,
    /// The document the algorithm comes from.
    pub source: &'static str,
    /// Whether it guarantees a shortest answer.
    pub optimality: Optimality,
    /// The rule options it honours.
    pub rules: RuleSupport,
    /// Names of its three per-depth counters, and of the depth column.
    pub columns: Columns,
    /// The deepest depth limit it takes (`SolverOptions::depth_limit`, from 1), or `None` when
    /// it takes none. A deeper limit searches only this deep, and its report says so.
    pub deepest_limit: Option<u32>,
    /// How it chooses the next node, for the debugger's frontier and stack.
    pub shape: SearchShape,
}

/// Column names of a solver's per-depth table.
#[derive(Clone, Copy, Debug)]
pub struct Columns {
    /// The row label ("Depth", "Level", "Bound").
    pub depth: &'static str,
    /// The first counter.
    pub nodes: &'static str,
    /// The second counter.
    pub inner: &'static str,
    /// The third counter.
    pub hits: &'static str,
}

/// The deck's columns: depth, nodes, inner nodes, table hits.
pub const DECK_COLUMNS: Columns = Columns {
    depth: "Depth",
    nodes: "Nodes",
    inner: "inner",
    hits: "hits",
};

/// Every solver's registry entry, in the order of [`SolverId::ALL`] (built from it, so the
/// two cannot disagree).
pub static SOLVERS: &[SolverKind] = &{
    let mut kinds = [*SolverId::Bfs.kind(); SolverId::ALL.len()];
    let mut i = 0;
    while i < kinds.len() {
        kinds[i] = *SolverId::ALL[i].kind();
        i += 1;
    }
    kinds
};

/// Looks a solver up by its command-line name.
pub fn kind(name: &str) -> Option<&'static SolverKind> {
    SolverId::from_name(name).map(SolverId::kind)
}

/// Limits on one run.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock time allowed.
    pub time: Option<Duration>,
    /// Memory the solver's own tables may take, in bytes (an estimate the solver keeps).
    pub memory_bytes: Option<usize>,
    /// Set from another thread to cancel the run.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// Options some solvers take.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolverOptions {
    /// The deepest search a depth-limited solver tries.
    pub depth_limit: Option<u32>,
    /// Threads a parallel solver may use (`None`: one per core the system offers).
    pub threads: Option<usize>,
    /// The memory pages `fast` asks the system for its table.
    pub pages: Pages,
}

/// The memory pages a solver asks the system for its big tables. Lookups land at random
/// places in tables of hundreds of MiB, so with 4 KiB pages nearly every one also misses the
/// processor's address translation cache; asking for small pages measures what that costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pages {
    /// 2 MiB pages where the system gives them (Linux `madvise(MADV_HUGEPAGE)`).
    #[default]
    Huge,
    /// 4 KiB pages only (Linux `madvise(MADV_NOHUGEPAGE)`), even where the system would give
    /// huge pages to every large allocation.
    Small,
}

impl Pages {
    /// Every page size.
    pub const ALL: [Pages; 2] = [Pages::Huge, Pages::Small];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Pages::Huge => "huge",
            Pages::Small => "small",
        }
    }
}

impl std::fmt::Display for Pages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution that replayed correctly.
    Solved {
        /// The moves in order.
        moves: Vec<Move>,
    },
    /// The search proved there is no solution: none at all when `within` is `None`, and
    /// otherwise none of at most `within` moves, which says nothing about longer ones (a
    /// depth limit, or the deepest bound a solver's tables record).
    Unsolvable {
        /// The bound the proof holds to; `None` when there is no solution at all.
        within: Option<u32>,
    },
    /// A solver that is not exhaustive finished without an answer. This proves nothing: a
    /// solution may still exist (the graph solvers' assumption, Stateless' stores, a depth
    /// limit with pruning that loses states).
    NotFound,
    /// Cancelled by the user.
    Cancelled,
    /// The time limit ran out.
    TimeLimit,
    /// The memory limit was reached.
    MemoryLimit,
    /// The solver claimed a solution that failed its replay.
    Invalid {
        /// The claimed moves.
        claimed: Vec<Move>,
        /// Where and why the replay failed.
        error: ReplayError,
    },
}

impl Outcome {
    /// The name used in JSON output: `solved`, `unsolvable` (proved: no solution at all),
    /// `none-within` (proved only up to a bound: no solution of at most that many moves),
    /// `not-found`, `cancelled`, `time-limit`, `memory-limit` or `invalid`.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Solved { .. } => "solved",
            Outcome::Unsolvable { within: None } => "unsolvable",
            Outcome::Unsolvable { within: Some(_) } => "none-within",
            Outcome::NotFound => "not-found",
            Outcome::Cancelled => "cancelled",
            Outcome::TimeLimit => "time-limit",
            Outcome::MemoryLimit => "memory-limit",
            Outcome::Invalid { .. } => "invalid",
        }
    }

    /// The number of moves found (or claimed, for an invalid answer).
    pub fn move_count(&self) -> Option<usize> {
        match self {
            Outcome::Solved { moves } => Some(moves.len()),
            Outcome::Invalid { claimed, .. } => Some(claimed.len()),
            _ => None,
        }
    }
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct Report {
    /// The solver's command-line name.
    pub solver: &'static str,
    /// How it ended.
    pub outcome: Outcome,
    /// One row per finished depth, bound or level.
    pub depths: Vec<DepthStats>,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
    /// The largest memory estimate the solver reported, in bytes.
    pub peak_memory: usize,
    /// Nodes counted over the whole run.
    pub nodes: u64,
    /// The most threads the solver searched with at once (1 for the sequential solvers).
    pub threads: usize,
    /// CPU time the process spent during the run (all its threads), in milliseconds, where
    /// the system reports it.
    pub cpu_millis: Option<f64>,
    /// Of a big table, the bytes the system backed with huge pages at the end of the search
    /// (the whole process's `AnonHugePages` on Linux), when the solver measured it.
    pub huge_page_bytes: Option<usize>,
}

impl Report {
    /// Whether the run's solver guarantees shortest answers (a built-in optimal solver; an
    /// engine's own claim is not a guarantee), so that its solution's length is the optimum.
    pub fn from_optimal_solver(&self) -> bool {
        self.solver
            .solver_id()
            .is_ok_and(|id| id.kind().optimality == Optimality::Guaranteed)
    }
}

/// CPU time this process has used so far (user and system, all threads), where the system
/// reports it.
pub fn process_cpu_time() -> Option<Duration> {
    #[cfg(target_os = "linux")]
    {
        resource_cpu_time(libc::RUSAGE_SELF)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// CPU time of this process's finished child processes so far (user and system), where the
/// system reports it.
pub fn children_cpu_time() -> Option<Duration> {
    #[cfg(target_os = "linux")]
    {
        resource_cpu_time(libc::RUSAGE_CHILDREN)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// User and system time from `getrusage` for `who` (`RUSAGE_SELF` or `RUSAGE_CHILDREN`).
#[cfg(target_os = "linux")]
fn resource_cpu_time(who: libc::c_int) -> Option<Duration> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: getrusage writes a whole rusage into the pointer it is given on success.
    let usage = unsafe {
        if libc::getrusage(who, usage.as_mut_ptr()) != 0 {
            return None;
        }
        usage.assume_init()
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    Some(time(usage.ru_utime) + time(usage.ru_stime))
}

/// Why a run could not start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// No solver has that name.
    #[error("there is no solver called '{0}'; `ricochet-lab solvers` lists them")]
    UnknownSolver(String),
    /// The puzzle uses a rule option the solver does not implement.
    #[error("the {solver} solver does not implement the {rule} rule")]
    UnsupportedRule {
        /// The solver.
        solver: &'static str,
        /// The rule.
        rule: &'static str,
    },
    /// An external engine failed: it did not start, broke the protocol, crashed or hung.
    #[error("{0}")]
    Engine(engine::EngineError),
}

/// Why a search stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Cancelled by flag or probe.
    Cancelled,
    /// Out of time.
    TimeLimit,
    /// Out of memory budget.
    MemoryLimit,
}

/// What a solver itself returns, before the replay check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEnd {
    /// It claims this solution.
    Found(Vec<Move>),
    /// It proved there is none (within a bound, when given).
    Unsolvable(Option<u32>),
    /// It gave up without an answer and without a proof.
    NotFound,
    /// It was stopped.
    Stopped(Stop),
}

/// How often, in nodes, limits and the probe are polled. Small enough that a cancel is seen
/// within microseconds, large enough that the clock is not read in the hot loop.
const CHECK_INTERVAL: u32 = 1 << 12;

/// The nodes between polls: every node for a probe that looks at events (a debugged search
/// shows its exact counters at every stop, and per-node events cost far more than a poll),
/// [`CHECK_INTERVAL`] otherwise.
fn check_interval<P: Probe>(probe: &P) -> u32 {
    if probe.wants_events() {
        1
    } else {
        CHECK_INTERVAL
    }
}

/// The running search's bookkeeping: the probe, the limits, counters and the depth rows.
pub struct Search<'p, P: Probe> {
    /// The observer.
    pub probe: &'p mut P,
    start: Instant,
    deadline: Option<Instant>,
    memory_limit: Option<usize>,
    cancel: Option<Arc<AtomicBool>>,
    countdown: u32,
    /// Nodes counted in the whole run (solvers add to it).
    pub nodes: u64,
    memory: usize,
    peak_memory: usize,
    depths: Vec<DepthStats>,
    /// The most threads the solver searched with at once.
    pub threads: usize,
    /// See [`Report::huge_page_bytes`].
    pub huge_page_bytes: Option<usize>,
    retired: Retired,
}

/// Tables a solver has finished with but not freed: handing back gigabytes takes the system a
/// tenth of a second or more, which a caller that must answer first (a cancel, within
/// 100 ms) spends after it has answered, by dropping this. See [`run_keeping_memory`].
#[derive(Default)]
pub struct Retired(Vec<Box<dyn std::any::Any>>);

impl Retired {
    /// Takes the first of the tables that is a `T`, for a caller that knows what the solver
    /// kept and has a use for it.
    pub fn take<T: 'static>(&mut self) -> Option<T> {
        let index = self.0.iter().position(|table| table.is::<T>())?;
        self.0
            .swap_remove(index)
            .downcast::<T>()
            .ok()
            .map(|table| *table)
    }
}

impl<'p, P: Probe> Search<'p, P> {
    /// Starts the clock.
    pub fn new(probe: &'p mut P, limits: &Limits) -> Search<'p, P> {
        let start = Instant::now();
        let countdown = check_interval(probe);
        Search {
            probe,
            start,
            // A limit past what the clock holds is no limit: it could never be reached.
            deadline: limits.time.and_then(|t| start.checked_add(t)),
            memory_limit: limits.memory_bytes,
            cancel: limits.cancel.clone(),
            countdown,
            nodes: 0,
            memory: 0,
            peak_memory: 0,
            depths: Vec::new(),
            threads: 1,
            huge_page_bytes: None,
            retired: Retired::default(),
        }
    }

    /// Takes a solver's tables at its end, to be freed by the caller of
    /// [`run_keeping_memory`] when it chooses (at once, for [`run`]).
    pub fn retire(&mut self, tables: impl std::any::Any) {
        self.retired.0.push(Box::new(tables));
    }

    /// Counts one node and, every few thousand nodes, polls the limits and the probe.
    #[inline(always)]
    pub fn tick(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        self.countdown -= 1;
        if self.countdown == 0 {
            return self.poll();
        }
        Ok(())
    }

    /// Polls the limits and the probe now.
    #[cold]
    pub fn poll(&mut self) -> Result<(), Stop> {
        self.countdown = check_interval(self.probe);
        self.probe.progress(self.nodes, self.memory);
        if self.probe.should_stop()
            || self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(Stop::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::TimeLimit);
        }
        Ok(())
    }

    /// Records the memory the solver's tables hold, or are about to hold; fails past the
    /// limit without recording it. A solver calls this with the size a table will have
    /// before it grows the table, so a run stopped at its limit never held more than the limit
    /// and its peak says so.
    #[inline]
    pub fn set_memory(&mut self, bytes: usize) -> Result<(), Stop> {
        if self.memory_limit.is_some_and(|limit| bytes > limit) {
            return Err(Stop::MemoryLimit);
        }
        self.memory = bytes;
        self.peak_memory = self.peak_memory.max(bytes);
        Ok(())
    }

    /// Fails when the solver's tables would take `bytes` bytes past the limit; records
    /// nothing, so a solver asks before it allocates and the peak never passes the limit.
    #[inline]
    pub fn reserve_memory(&self, bytes: usize) -> Result<(), Stop> {
        if self.memory_limit.is_some_and(|limit| bytes > limit) {
            return Err(Stop::MemoryLimit);
        }
        Ok(())
    }

    /// Records a finished depth and tells the probe.
    pub fn finish_depth(&mut self, stats: DepthStats) {
        self.probe.depth_finished(&stats);
        self.probe.event(|| Event::IterationFinished(stats.clone()));
        self.depths.push(stats);
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The limits of a search run beside this one from now, on another thread: the time
    /// left, the same memory limit and the same cancel flag.
    pub fn limits_left(&self) -> Limits {
        Limits {
            time: self
                .deadline
                .map(|deadline| deadline.saturating_duration_since(Instant::now())),
            memory_bytes: self.memory_limit,
            cancel: self.cancel.clone(),
        }
    }
}

/// Runs a solver (a [`SolverId`] or its command-line name) on a puzzle and checks its answer
/// by replaying it. A name that is no solver, and a rule the solver does not implement, are
/// errors before the search starts.
pub fn run<P: Probe>(
    solver: impl SolverRef,
    puzzle: &Puzzle,
    options: &SolverOptions,
    limits: &Limits,
    probe: &mut P,
) -> Result<Report, SolveError> {
    run_keeping_memory(solver, puzzle, options, limits, probe).map(|(report, _)| report)
}

/// [`run`], returning with the report the tables the solver retired instead of freeing them
/// first, so the caller can pass the report on before it frees them.
pub fn run_keeping_memory<P: Probe>(
    solver: impl SolverRef,
    puzzle: &Puzzle,
    options: &SolverOptions,
    limits: &Limits,
    probe: &mut P,
) -> Result<(Report, Retired), SolveError> {
    let id = match solver.choice()? {
        SolverChoice::BuiltIn(id) => id,
        SolverChoice::Engine(spec) => {
            return engine::run_once(&spec, puzzle, options, limits, probe);
        }
    };
    let kind = id.kind();
    if let Some(rule) = kind.rules.unsupported(puzzle.rules()) {
        return Err(SolveError::UnsupportedRule {
            solver: kind.name,
            rule,
        });
    }
    let cpu_start = process_cpu_time();
    let mut search = Search::new(probe, limits);
    let end = id.search(puzzle, options, &mut search);
    let cpu = process_cpu_time()
        .zip(cpu_start)
        .map(|(end, start)| end.saturating_sub(start));
    let retired = std::mem::take(&mut search.retired);
    let mut report = finish(kind, puzzle, end, search);
    report.cpu_millis = cpu.map(|c| c.as_secs_f64() * 1000.0);
    Ok((report, retired))
}

/// Turns a solver's end into a report, replaying any claimed solution.
fn finish<P: Probe>(
    kind: &'static SolverKind,
    puzzle: &Puzzle,
    end: SearchEnd,
    search: Search<'_, P>,
) -> Report {
    // The replay below is the framework's check, not the solver's work: time stops here.
    let elapsed = search.elapsed();
    let outcome = match end {
        SearchEnd::Found(moves) => match puzzle.replay(&moves) {
            Ok(_) => {
                search.probe.event(|| Event::Solution {
                    moves: moves.clone(),
                });
                Outcome::Solved { moves }
            }
            Err(error) => Outcome::Invalid {
                claimed: moves,
                error,
            },
        },
        SearchEnd::Unsolvable(within) => Outcome::Unsolvable { within },
        SearchEnd::NotFound => Outcome::NotFound,
        SearchEnd::Stopped(Stop::Cancelled) => Outcome::Cancelled,
        SearchEnd::Stopped(Stop::TimeLimit) => Outcome::TimeLimit,
        SearchEnd::Stopped(Stop::MemoryLimit) => Outcome::MemoryLimit,
    };
    Report {
        solver: kind.name,
        outcome,
        elapsed,
        depths: search.depths,
        peak_memory: search.peak_memory,
        nodes: search.nodes,
        threads: search.threads,
        cpu_millis: None,
        huge_page_bytes: search.huge_page_bytes,
    }
}

/// One per-depth row as the deck prints it: `Depth: 5, Nodes: 28 (11 inner, 0 hits)`, with
/// the solver's own column names.
pub fn format_depth_line(columns: &Columns, stats: &DepthStats) -> String {
    let mut line = format!(
        "{}: {}, {}: {} ({} {}, {} {})",
        columns.depth,
        stats.depth,
        columns.nodes,
        stats.nodes,
        stats.inner,
        columns.inner,
        stats.hits,
        columns.hits
    );
    for (name, value) in &stats.extra {
        line.push_str(&format!(", {name}: {value}"));
    }
    line
}

/// One per-depth row in the deck's exact words.
pub fn deck_line(stats: &DepthStats) -> String {
    format_depth_line(&DECK_COLUMNS, stats)
}
