//! Every optimal solution at once: one exhaustive iteration at the optimal length that keeps
//! each state on a solution, with the moves from it that stay on one, instead of stopping at
//! the first. The states on optimal solutions are few (498 to 3,345 on real-21, hardest-25 and
//! fogleman-22, for 200,311 to 454 million solutions), so the graph is small; its cost is the
//! iteration's.
//!
//! The iterations below the optimum run first, as in a solve, on every core; each proves its
//! length impossible, so its table entries are facts about states (a state met after `j`
//! moves with `k` left has no solution in `k`: with that path it would make one shorter than
//! the optimum), and the gathering iteration starts from them. The table of the solve that
//! found the optimum holds them already; its last iteration's entries, which stopped at the
//! first solution, are rewritten as what the iteration before proves (`k - 1`). Every cut of
//! the gathering iteration is such a fact too (the bounds, the table, the rules for helper
//! moves that cannot matter, no move straight back), except swapped pairs, which depend on the
//! move before: a state whose search skipped a swapped order would pass for dead when reached
//! by another path, so both orders of every pair are searched. A state reached again with the
//! moves left it was solved with is read from the graph, not searched again. The table's key
//! lets helpers swap cells; a state whose key is that of a solved state, but which is not one
//! itself, is searched rather than cut (on real-21, cutting them lost a third of the 200,311
//! solutions).
//!
//! **On every core.** Each thread searches the whole tree, down to `SPREAD_DEPTH` starting a
//! node's children at its own offset, so the threads start apart and each mostly reads what
//! the others have finished; they share the table and the graph, and a thread may join late
//! (see [`GatherJob`]). A table entry of this iteration with as many moves left may belong to
//! a state another thread is still searching, which would pass for dead: each thread
//! publishes the key of the state it is searching at each depth before the table records it,
//! and a state another thread is searching is searched again rather than cut. The graph is
//! complete when every thread that joined has finished, since each finishes every state it
//! relied on. On hansel-24 two threads walk 30 million nodes between them, as many as one
//! alone.
//!
//! Measured on a 2-core machine after the solve, from its table, on two threads: 1.4 s (real-21
//! with blue moved west), 2.0-2.7 s (hansel-24, real-21), 3.4-4.2 s (fogleman-22, hardest-25),
//! against 2.3-6.3 s on one thread.

use super::control::{Control, Halt, NoControl};
use super::driver::Driver;
use super::node::Visit;
use super::setup::Setup;
use super::solution_graph::{Place, SharedGraph, SolutionGraph};
use super::table::Table;
use super::worker::{Counters, Worker};
use super::{INITIAL_BUCKET_BITS, SHARED_CHECK_INTERVAL};
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Direction, Move, Puzzle};
use crate::solver::probe::Event;
use crate::solver::profile::NodeProfile;
use crate::solver::{Probe, Search, SearchEnd, SolverOptions, Stop};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Duration;

/// The depths down to which the threads of a gathering iteration start a node's children at
/// different offsets; below, every thread takes them in the same order.
const SPREAD_DEPTH: u32 = 12;

/// Another thread's control: the shared graph, and the stop flag the main thread sets.
struct GatherHelper<'g> {
    shared: &'g SharedGraph,
    index: usize,
    countdown: u32,
    /// Where the nodes are counted, every `SHARED_CHECK_INTERVAL`.
    nodes: &'g AtomicU64,
    /// The nodes counted there so far.
    counted: u64,
}

impl Control for GatherHelper<'_> {
    const GATHERS: bool = true;

    #[inline(always)]
    fn tick(&mut self) -> Result<(), Halt> {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = SHARED_CHECK_INTERVAL;
            self.nodes
                .fetch_add(u64::from(SHARED_CHECK_INTERVAL), Ordering::Relaxed);
            self.counted += u64::from(SHARED_CHECK_INTERVAL);
            if self.shared.stop.load(Ordering::Relaxed) {
                return Err(Halt::Abandon);
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn event(&mut self, _event: impl FnOnce() -> Event) {}

    #[inline(always)]
    fn node_profile(&mut self) -> Option<&mut NodeProfile> {
        None
    }

    #[inline(always)]
    fn gathering(&self) -> Option<(&SharedGraph, usize)> {
        Some((self.shared, self.index))
    }
}

impl<C: Control, const NO_REBOUND: bool> Worker<'_, C, NO_REBOUND> {
    /// The current state, robot by robot.
    #[inline]
    pub fn place(&self) -> Place {
        let mut place = Place {
            cells: [0; MAX_ROBOTS],
            dirs: [0; MAX_ROBOTS],
        };
        let n = self.setup.robots;
        place.cells[..n].copy_from_slice(&self.cells[..n]);
        if NO_REBOUND {
            place.dirs[..n].copy_from_slice(&self.last_dirs[..n]);
        }
        place
    }

    /// Whether the current state is in the graph with `left` moves left (never when the
    /// search does not gather).
    #[inline(always)]
    pub fn gathered(&self, left: u32) -> bool {
        C::GATHERS
            && self
                .control
                .gathering()
                .is_some_and(|(graph, _)| graph.solved(&self.place(), self.key(), left))
    }

    /// Keeps the goal state reached now in the graph.
    #[inline]
    pub fn keep_goal(&self) {
        if C::GATHERS
            && let Some((graph, _)) = self.control.gathering()
        {
            graph.keep_goal(self.place(), self.key());
        }
    }

    /// Whether the current state, at `depth` with `left` moves left, is searched although the
    /// table holds an entry of `stored` moves left that would cut it (`older`: of an iteration
    /// below). Two cases, only when gathering: another thread is searching it with as many
    /// moves left, so the entry proves nothing yet; or its key is that of a state on a
    /// solution, which it may be too (helpers that swap cells share a key). The first is
    /// asked first: a thread that has finished the state kept what it found before it said so.
    #[inline(always)]
    pub fn hit_needs_search(&self, depth: u32, left: u32, stored: u32, older: bool) -> bool {
        if !C::GATHERS {
            return false;
        }
        let key = self.key();
        self.control.gathering().is_some_and(|(graph, thread)| {
            (!older && stored == left && graph.searched_elsewhere(thread, depth, key))
                || graph.key_solved(key, left)
        })
    }

    /// Says that this thread now searches the current state at `depth`, before the table
    /// records it (only when gathering).
    #[inline(always)]
    pub fn publish(&self, depth: u32) {
        if C::GATHERS
            && let Some((graph, thread)) = self.control.gathering()
        {
            graph.publish(thread, depth, self.key());
        }
    }

    /// Says that this thread has finished the state at `depth` (only when gathering).
    #[inline(always)]
    pub fn unpublish(&self, depth: u32) {
        if C::GATHERS
            && let Some((graph, thread)) = self.control.gathering()
        {
            graph.unpublish(thread, depth);
        }
    }

    /// The offset at which this thread starts the `len` children of a node at `depth`: the
    /// threads of a gathering iteration each search the whole tree, starting apart, so each
    /// mostly reads what the others have finished. Thread `i` starts at the fraction of the
    /// children whose binary digits are those of `i` reversed (0, 1/2, 1/4, 3/4, …), so the
    /// threads spread whatever their number, even those that join late.
    #[inline(always)]
    pub fn first_child(&self, depth: u32, len: usize) -> usize {
        match self.control.gathering() {
            Some((_, thread)) if C::GATHERS && depth < SPREAD_DEPTH && thread > 0 => {
                let fraction = u64::from((thread as u32).reverse_bits());
                ((fraction * len as u64) >> 32) as usize
            }
            _ => 0,
        }
    }

    /// Keeps the move `(robot, dir)` from `from` (a place and its key, with `left` moves left)
    /// to the current state in the graph.
    #[inline]
    pub fn keep_edge(&self, from: (Place, u64), left: u32, robot: u8, dir: u8) {
        if C::GATHERS
            && let Some((graph, _)) = self.control.gathering()
        {
            let mv = Move::new(
                self.setup.colors[usize::from(robot)],
                Direction::ALL[usize::from(dir)],
            );
            graph.add_edge(from.0, from.1, left, mv, self.place());
        }
    }
}

/// The graph of every solution of `depth` moves of `puzzle`, which must be its optimal
/// length. The iterations below it run first as in [`super::solve`] (on `threads` threads),
/// each proving its length impossible; their table entries are then facts about states (a
/// state met with `k` moves left after `j` moves has no solution in `k`: with that path it
/// would make one shorter than the optimum), so the gathering iteration starts from them.
/// `solve_table`, the table of the [`super::solve`] of `puzzle` that found a solution of
/// `depth` moves, holds those iterations' entries already: they are not run again (see
/// [`GatherJob::new`]). The run's limits and cancel apply.
pub(crate) fn solution_graph<P: Probe>(
    puzzle: &Puzzle,
    depth: u32,
    threads: usize,
    solve_table: Option<Table>,
    search: &mut Search<'_, P>,
) -> Result<SolutionGraph, Stop> {
    let job = match solve_table.and_then(|table| GatherJob::new(puzzle, depth, table)) {
        Some(job) => job,
        None => match GatherJob::after_iterations_below(puzzle, depth, threads, search)? {
            Some(job) => job,
            // A shorter solution, or none at all: `depth` was not the optimum.
            None => return Ok(SolutionGraph::default()),
        },
    };
    job.start(search)?;
    let threads = job.threads(threads);
    search.threads = search.threads.max(threads);
    std::thread::scope(|scope| {
        let job = &job;
        let workers: Vec<_> = (0..threads)
            .filter_map(|_| job.spawn_worker(scope))
            .collect();
        if workers.is_empty() {
            // No thread to spare: this one searches.
            let index = job.add_worker();
            job.work(index);
        }
        job.wait(search);
        for worker in workers {
            // A thread that panicked is a bug: its panic goes on here.
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    job.finish(search)
}

/// A gathering iteration that threads join as they come free: each searches the whole tree
/// (see the module notes), so a thread may join late, and the graph is complete once every
/// thread that joined has finished. The caller polls the limits (see [`GatherJob::wait`]).
pub(crate) struct GatherJob {
    setup: Setup,
    table: Table,
    depth: u32,
    graph: SharedGraph,
    root: Place,
    /// The threads that have finished (the graph counts those that joined).
    finished: AtomicUsize,
    /// Whether a finished thread found the start on a solution.
    found: AtomicBool,
    /// Whether a thread was stopped before it finished.
    stopped: AtomicBool,
    /// The finished threads' counters.
    counters: Mutex<Counters>,
    /// Nodes not yet counted by the caller.
    nodes: AtomicU64,
    /// Why the run stopped, once it has.
    stop: Mutex<Option<Stop>>,
}

/// The most threads a gathering iteration shares its graph between.
const MAX_GATHER_THREADS: usize = 64;

impl GatherJob {
    /// The gathering iteration at `depth`, the optimal length of `puzzle`, from the table of
    /// the [`super::solve`] of `puzzle` that found a solution of that length. The entries of
    /// its last iteration, which stopped at the first solution, are rewritten as what the
    /// iteration before proves (see [`Table::demote_iteration`]). `None` when the table is not
    /// one for this puzzle's keys, or the puzzle's states are too wide for a table (the
    /// threads could then not share their work).
    pub fn new(puzzle: &Puzzle, depth: u32, mut solve_table: Table) -> Option<GatherJob> {
        let setup = Setup::new(puzzle);
        if !setup.use_table || !solve_table.holds_keys_of(setup.robot_bits * setup.robots as u32) {
            return None;
        }
        solve_table.demote_iteration(depth);
        Some(GatherJob::with_table(setup, solve_table, depth))
    }

    /// The gathering iteration at `depth`, after the iterations below it have run as in a
    /// solve, on `threads` threads; `None` when they found a shorter solution or proved there
    /// is none.
    fn after_iterations_below<P: Probe>(
        puzzle: &Puzzle,
        depth: u32,
        threads: usize,
        search: &mut Search<'_, P>,
    ) -> Result<Option<GatherJob>, Stop> {
        let setup = Setup::new(puzzle);
        let table = Table::new(INITIAL_BUCKET_BITS, setup.robot_bits * setup.robots as u32);
        let table = if setup.no_rebound {
            iterations_below::<P, true>(&setup, table, depth, threads, search)?
        } else {
            iterations_below::<P, false>(&setup, table, depth, threads, search)?
        };
        Ok(table.map(|table| GatherJob::with_table(setup, table, depth)))
    }

    fn with_table(setup: Setup, table: Table, depth: u32) -> GatherJob {
        let root = if setup.no_rebound {
            Worker::<_, true>::new(&setup, &table, NoControl, 0).place()
        } else {
            Worker::<_, false>::new(&setup, &table, NoControl, 0).place()
        };
        GatherJob {
            graph: SharedGraph::new(MAX_GATHER_THREADS),
            setup,
            table,
            depth,
            root,
            finished: AtomicUsize::new(0),
            found: AtomicBool::new(false),
            stopped: AtomicBool::new(false),
            counters: Mutex::new(Counters::default()),
            nodes: AtomicU64::new(0),
            stop: Mutex::new(None),
        }
    }

    /// The threads that may search together, of `threads` offered: one without a table.
    pub fn threads(&self, threads: usize) -> usize {
        if self.setup.use_table {
            threads.clamp(1, MAX_GATHER_THREADS)
        } else {
            1
        }
    }

    /// Builds the cell sets and accounts for the memory, before any thread joins.
    pub fn start<P: Probe>(&self, search: &mut Search<'_, P>) -> Result<(), Stop> {
        let bytes = self.bytes();
        search.reserve_memory(bytes)?;
        search.set_memory(bytes)?;
        self.setup.prepare_cell_sets();
        search
            .probe
            .event(|| Event::IterationStarted { depth: self.depth });
        Ok(())
    }

    /// The memory the iteration holds.
    pub fn bytes(&self) -> usize {
        self.table.bytes() + self.setup.bytes() + self.setup.cell_sets_bytes()
    }

    /// Starts one more thread on the iteration, in `scope`; `None` when the system refuses
    /// it (the others search the whole tree anyway).
    pub fn spawn_worker<'scope, 'env>(
        &'env self,
        scope: &'scope Scope<'scope, 'env>,
    ) -> Option<ScopedJoinHandle<'scope, ()>> {
        let index = self.add_worker();
        let spawned = std::thread::Builder::new()
            .name("fast-gather".to_string())
            .spawn_scoped(scope, move || self.work(index));
        if spawned.is_err() {
            // Never started: it will not finish.
            self.finished.fetch_add(1, Ordering::AcqRel);
        }
        spawned.ok()
    }

    /// Makes room for one more thread and returns its index (`None` past the most threads),
    /// before it is started.
    fn add_worker(&self) -> Option<usize> {
        self.graph.join()
    }

    /// Whether every thread that joined has finished (or none has joined).
    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire) >= self.graph.joined()
    }

    /// Whether the graph is complete: a thread joined and every one finished without a stop.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.graph.joined() > 0 && self.is_finished() && !self.stopped.load(Ordering::Acquire)
    }

    /// Stops every thread, for `stop`.
    pub fn halt(&self, stop: Stop) {
        self.stop
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(stop);
        self.graph.stop.store(true, Ordering::Relaxed);
    }

    /// Nodes counted since the last call.
    pub fn take_nodes(&self) -> u64 {
        self.nodes.swap(0, Ordering::Relaxed)
    }

    /// One thread's search of the whole tree, as thread `index` (from
    /// [`GatherJob::add_worker`]; none past the most threads).
    fn work(&self, index: Option<usize>) {
        if let Some(index) = index {
            if self.setup.no_rebound {
                self.work_as::<true>(index);
            } else {
                self.work_as::<false>(index);
            }
        }
        self.finished.fetch_add(1, Ordering::AcqRel);
    }

    fn work_as<const NO_REBOUND: bool>(&self, index: usize) {
        let control = GatherHelper {
            shared: &self.graph,
            index,
            countdown: SHARED_CHECK_INTERVAL,
            nodes: &self.nodes,
            counted: 0,
        };
        let mut worker =
            Worker::<_, NO_REBOUND>::new(&self.setup, &self.table, control, self.depth);
        let visit = worker.node(0, self.depth, u16::MAX, false);
        worker.unpublish(0);
        // The nodes since the last count.
        self.nodes.fetch_add(
            worker.counters.nodes.saturating_sub(worker.control.counted),
            Ordering::Relaxed,
        );
        self.counters
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .add(&worker.counters);
        match visit {
            Ok(Visit::Found) => self.found.store(true, Ordering::Release),
            Ok(Visit::Failed(_)) => {}
            Err(_) => self.stopped.store(true, Ordering::Release),
        }
    }

    /// Waits on the calling thread for every thread that joined to finish, polling the
    /// limits and counting the nodes.
    pub fn wait<P: Probe>(&self, search: &mut Search<'_, P>) {
        while !self.is_finished() {
            search.nodes += self.take_nodes();
            if let Err(stop) = search.poll() {
                self.halt(stop);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        search.nodes += self.take_nodes();
    }

    /// The graph, once every thread has finished; the stop, if one came first.
    pub fn finish<P: Probe>(self, search: &mut Search<'_, P>) -> Result<SolutionGraph, Stop> {
        let counters = self
            .counters
            .into_inner()
            .unwrap_or_else(|e| e.into_inner());
        search.finish_depth(counters.depth_stats(self.depth));
        if let Some(stop) = self.stop.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(stop);
        }
        if self.stopped.load(Ordering::Acquire) {
            return Err(Stop::Cancelled);
        }
        let graph = if self.found.load(Ordering::Acquire) {
            self.graph.into_graph()
        } else {
            SolutionGraph::default()
        };
        Ok(SolutionGraph {
            root: self.root,
            depth: self.depth,
            ..graph
        })
    }
}

/// The iterations below `depth`, as in a solve; the table, unless they found a solution or
/// proved there is none.
fn iterations_below<P: Probe, const NO_REBOUND: bool>(
    setup: &Setup,
    table: Table,
    depth: u32,
    threads: usize,
    search: &mut Search<'_, P>,
) -> Result<Option<Table>, Stop> {
    let mut driver = Driver::<NO_REBOUND> {
        setup,
        table,
        inserted: 0,
        threads,
    };
    let below = SolverOptions {
        depth_limit: Some(depth.saturating_sub(1)),
        threads: Some(threads),
        ..SolverOptions::default()
    };
    match driver.iterate(&below, search) {
        SearchEnd::Stopped(stop) => return Err(stop),
        SearchEnd::Found(_) | SearchEnd::Unsolvable(None) | SearchEnd::NotFound => return Ok(None),
        SearchEnd::Unsolvable(Some(_)) => {}
    }
    // The last iteration's growth.
    driver.grow_table(search)?;
    Ok(Some(driver.table))
}
