//! The fastest optimal solver here: iterative-deepening A* (IDA*) over packed states with a
//! lock-free transposition table, an exact search of the last moves, prefetched table reads
//! and every core on big searches.
//!
//! The search is iterative deepening on the number of moves, like Fogleman's IDDFS, but every
//! part of it is built for speed:
//!
//! - **Slides** read a stop table per cell and direction and resolve robots in the way with a
//!   few integer comparisons (see [`geometry`]); nothing is allocated in the search.
//! - **States** are packed into one word: the target robot's cell, then the other robots'
//!   cells sorted (all robots sorted for the vortex), so positions that differ only by
//!   swapping helpers share an entry.
//! - **The transposition table** ([`table`]) stores, per state, the most moves left with which
//!   it was searched, and the iteration that wrote it; a state reached again with no more moves
//!   left is cut. Keys are mixed by a bijection, so a hit is never a collision. It grows
//!   between iterations; every search thread writes its fresh memory.
//! - **Swapped pairs.** When the moves of two robots give the same state in either order, only
//!   one order is searched: the robot that comes first in the move order moves first. With a
//!   move straight back onto the previous state, these are the only moves the path restricts.
//!   No shortest solution is lost, with or without the table: the first shortest solution in
//!   the move order has no such pair the wrong way round (swapping it would give an earlier
//!   one), so it is never skipped, and a table entry that would cut one of its states would
//!   have to come from an earlier path to that state, which would make an earlier shortest
//!   solution, or from an earlier iteration, which would make a shorter one. The table then
//!   meets far fewer states twice: on the hard puzzles it cuts the nodes by more than half.
//!   Most pairs are far apart, and four range comparisons say so; only the others take the
//!   two test slides. A robot whose cross (its rays up to the walls) misses the last move's
//!   path has every move commute with it, and is passed over before it is slid at all: on
//!   hardest-25 that is nearly half the robots its nodes would slide.
//! - **Prefetching.** A node generates all its children first and asks the processor for the
//!   table buckets of those that will look themselves up, so the memory reads overlap; it then
//!   looks them up itself, so a table hit costs no call.
//! - **Helpers that cannot matter.** A node at depth `d` with `left` moves to go has no
//!   solution in `left - 1` moves: with the path to it, that would be a solution shorter than
//!   the iteration, and every shorter length is proved impossible. So a move whose subtree has
//!   the outcome of the node itself with one move fewer fails without being searched. With one
//!   move to spare, any helper move leaves the target robot's last-moves search to decide. Each
//!   cell has a precomputed region (the cells whose occupation can change that search); a
//!   helper move that neither leaves nor enters it is such a move (and a helper that cannot
//!   reach the region in one move is not even tried). With two to spare, a helper move is one
//!   when the helper stands, before and after, outside the larger region of the target robot's
//!   search alone with one spare move, cannot reach the last-moves region in its next move,
//!   and stands off the rays of every helper that can: about a sixth of the nodes go. The cell
//!   sets are built once a search passes a few thousand nodes.
//! - **Bounds.** The minimum-move (rook) bound `R` of the target robot's cell. When `R` equals
//!   the moves left, only the target robot can move and every move must lower `R` by one: that
//!   last stretch is searched by a small exact routine without table or keys, which slides
//!   only in the directions whose ray holds a cell of bound `R - 1`. A node that fails
//!   reports the least number of moves its children proved they need; an iteration whose root
//!   proves more than one extra move skips the iterations in between.
//! - **Move order**: the target robot first, then the helpers, each in directions N, E, S, W.
//! - **Every core** (one thread per core the system offers, or `SolverOptions::threads`) on
//!   iterations after one of at least `PARALLEL_THRESHOLD` (20,000) nodes (scoped threads, joined
//!   before returning): the tree is cut at a small depth into work units handed out in order
//!   from a shared counter; all threads share the table. Each unit reports the moves it proved
//!   it needs, so a parallel iteration still lets the next skip depths. The main thread polls
//!   the limits, the cancel flag and the probe (through [`Search::tick`]) and tells the others
//!   to stop; they look every thousand nodes. When several units hold solutions, the one from
//!   the earliest unit is returned, so the answer is the one a single thread would give; in
//!   rare races it can be another solution of the same length. Runs whose probe wants events
//!   (the debugger) always use one thread, so every node is reported in order.
//!
//! Per-depth rows: *Nodes* counts the states visited, *expanded* those that passed the bound
//! (table hits included), *hits* the table cuts; the extra columns count bound cuts, the
//! last-moves searches, and *swaps*: the moves passed over one by one as swapped pairs plus the
//! robots passed over whole for that reason (a robot counts once).
//!
//! Rules: the ricochet rule is honoured (a goal reached in fewer than two moves does not count;
//! the table is not used at depths below two then). Under the no-rebound rule each robot's
//! last direction joins the state (three more key bits per robot) and its reverse is not
//! generated; when such keys would pass 64 bits (five robots on boards of more than 512
//! cells) the search runs without the table, slower but still exact.
//! For the vortex the bound is the least rook bound over all robots, and when it equals the
//! moves left only the robots whose own bound equals it move.

pub mod geometry;
pub mod table;

use self::geometry::{CellSets, EAST, Geometry, NORTH, SOUTH, WEST, unreachable};
use self::table::{Lookup, Table, min_bucket_bits};
use super::probe::{DepthStats, Event, PruneReason, RobotCells};
use super::{
    Columns, Optimality, Probe, RuleSupport, Search, SearchEnd, SolverKind, SolverOptions, Stop,
};
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Direction, Move, Puzzle, RobotColor};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The command-line name.
pub const NAME: &str = "fast";

/// The registry entry.
pub const KIND: SolverKind = SolverKind {
    name: NAME,
    title: "Fast IDA*",
    description: "Iterative-deepening A* with a lock-free table, an exact last-moves search, \
                  skipping of helper moves that cannot matter and of swapped move pairs, and \
                  every core",
    source: "Fogleman's IDDFS, sped up: stop tables, packed keys, prefetched table lookups",
    optimality: Optimality::Guaranteed,
    rules: RuleSupport {
        ricochet: true,
        no_rebound: true,
    },
    columns: Columns {
        depth: "Depth",
        nodes: "Nodes",
        inner: "expanded",
        hits: "hits",
    },
    deepest_limit: Some(MAX_DEPTH),
};

/// Searches with fewer nodes than this in the previous iteration run on one thread: starting
/// a thread costs more than it saves on small searches.
const PARALLEL_THRESHOLD: u64 = 20_000;

/// Searches with fewer nodes than this in the previous iteration do not skip helpers before
/// the last moves: building the cell sets that allows it would cost them more.
const LAST_MOVES_THRESHOLD: u64 = 5_000;

/// The depth at which the tree is cut into work units for the threads: about three hundred
/// units on the hard four-robot puzzles (the table and the bound cut most of the tree above
/// it). At depth 3 the threads' CPU time was only 85% of twice the wall time on hardest-25, one
/// thread being left alone with a big unit at the end of an iteration; at 4 it is 93-96%.
const SPLIT_DEPTH: u32 = 4;

/// From this iteration on, a search that has found nothing checks once whether any goal state
/// is reachable at all: deeper than any known shortest solution of the real game.
const CLOSURE_DEPTH: u32 = 40;

/// The most states that check visits before giving up (it then leaves the deepening to go on).
const CLOSURE_STATES: usize = 4_000_000;

/// The deepest iteration: table entries record depths and iterations in a byte.
const MAX_DEPTH: u32 = 255;

/// How often (in nodes) a thread looks at the shared stop flags.
const SHARED_CHECK_INTERVAL: u32 = 1 << 10;

/// The table starts with this many bucket bits (16 KiB) and grows between iterations.
const INITIAL_BUCKET_BITS: u32 = 9;

/// The table never grows past this many bucket bits (2^24 buckets of 32 bytes: 512 MiB).
const MAX_BUCKET_BITS: u32 = 24;

/// Solves a puzzle with the fast IDA*.
///
/// On big searches (and when the probe does not want events) `options.threads` threads (one
/// per core by default) search together: they are scoped, joined before this returns, and stop
/// when the main thread sees the time limit, the cancel flag or the probe ask to stop. The
/// table takes memory up to 512 MiB as the search grows; past the memory limit the run stops
/// with [`Stop::MemoryLimit`].
pub fn solve<P: Probe>(
    puzzle: &Puzzle,
    options: &SolverOptions,
    search: &mut Search<'_, P>,
) -> SearchEnd {
    let setup = Setup::new(puzzle);
    let threads = options.threads.unwrap_or_else(available_threads).max(1);
    let table = Table::with_pages(
        INITIAL_BUCKET_BITS,
        setup.robot_bits * setup.robots as u32,
        options.pages,
    );
    // The rule is a type parameter, so searches without it carry no direction bookkeeping.
    if setup.no_rebound {
        Driver::<true> {
            setup: &setup,
            table,
            inserted: 0,
            threads,
        }
        .run(options, search)
    } else {
        Driver::<false> {
            setup: &setup,
            table,
            inserted: 0,
            threads,
        }
        .run(options, search)
    }
}

/// Tables from this size on ask for huge pages, so the bench reports how many they got.
const HUGE_PAGE_REPORT_BYTES: usize = 4 << 20;

/// The threads the system offers this process (one per core it may run on), at least one.
pub fn available_threads() -> usize {
    // Asking the system reads files on some platforms: ask once per process.
    static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// What every thread reads: the board tables and the puzzle's parts.
struct Setup {
    geometry: Geometry,
    robots: usize,
    active: Option<usize>,
    goal: u16,
    min_len: u32,
    colors: [RobotColor; MAX_ROBOTS],
    start: [u16; MAX_ROBOTS],
    /// Whether the no-rebound rule holds: each robot's last direction is then part of the
    /// state.
    no_rebound: bool,
    /// Bits of one robot in a state key.
    robot_bits: u32,
    /// Whether states fit the table's keys (at most 64 bits); otherwise the search runs
    /// without a table, slower but still exact.
    use_table: bool,
}

impl Setup {
    fn new(puzzle: &Puzzle) -> Setup {
        let geometry = Geometry::new(puzzle.board(), puzzle.goal_cell());
        let mut colors = [RobotColor::Red; MAX_ROBOTS];
        let mut start = [0u16; MAX_ROBOTS];
        for (i, robot) in puzzle.robots().iter().enumerate() {
            colors[i] = robot.color;
            start[i] = puzzle.board().cell(robot.pos);
        }
        let robots = puzzle.robots().len();
        let active = puzzle.active_robot();
        let no_rebound = puzzle.rules().no_rebound;
        // Under no-rebound a robot's code is its cell and its last direction (0: none yet).
        let robot_bits = geometry.cell_bits + if no_rebound { 3 } else { 0 };
        Setup {
            no_rebound,
            robot_bits,
            use_table: robot_bits * robots as u32 <= 64,
            geometry,
            robots,
            active,
            goal: puzzle.goal_cell(),
            min_len: puzzle.rules().min_solution_len() as u32,
            colors,
            start,
        }
    }
}

/// How the search of a node ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Visit {
    /// A solution: the worker's path holds it.
    Found,
    /// No solution within the moves left; the node needs at least this many moves
    /// (`MAX_DEPTH + 1` when none is possible).
    Failed(u32),
}

/// How an iteration ended.
enum Ending {
    /// With this solution, as (robot, direction) pairs.
    Found(Vec<(u8, u8)>),
    /// Without one; the root needs at least this many moves.
    Failed(u32),
}

/// Moves as (robot index, direction index) pairs.
type Path = Vec<(u8, u8)>;

/// Why a thread left its search early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halt {
    /// A limit, the cancel flag or the probe stopped the run.
    Stop(Stop),
    /// Its work unit no longer matters: an earlier unit holds a solution, or the run stopped.
    Abandon,
}

/// Counters of one iteration.
#[derive(Clone, Copy, Debug, Default)]
struct Counters {
    nodes: u64,
    expanded: u64,
    hits: u64,
    bound_cuts: u64,
    last_moves: u64,
    /// Moves not searched because the same two moves in the other order reach the same state,
    /// passed over one by one, plus robots all of whose moves are such, passed over whole
    /// (each robot counts once: it was not slid, so its moves are not known).
    swaps: u64,
    inserted: u64,
    /// Whether anything was cut off (so a deeper iteration could find more).
    cut: bool,
}

impl Counters {
    fn add(&mut self, other: &Counters) {
        self.nodes += other.nodes;
        self.expanded += other.expanded;
        self.hits += other.hits;
        self.bound_cuts += other.bound_cuts;
        self.last_moves += other.last_moves;
        self.swaps += other.swaps;
        self.inserted += other.inserted;
        self.cut |= other.cut;
    }
}

/// How a thread is told to stop, and how it reports.
trait Control {
    /// Counts a node; fails when the search must stop.
    fn tick(&mut self) -> Result<(), Halt>;
    /// Reports an event when someone listens (only the main thread has a probe).
    fn event(&mut self, event: impl FnOnce() -> Event);
    /// Says which work unit the thread searches now (ignored by controls without units).
    fn set_unit(&mut self, _unit: usize) {}
}

/// The main thread's control: the run's [`Search`], plus the flags it shares with the other
/// thread.
struct MainControl<'a, 's, 'p, P: Probe> {
    search: &'a mut Search<'p, P>,
    shared: Option<&'s Shared>,
    unit: usize,
    countdown: u32,
}

impl<P: Probe> Control for MainControl<'_, '_, '_, P> {
    #[inline(always)]
    fn tick(&mut self) -> Result<(), Halt> {
        if let Err(stop) = self.search.tick() {
            if let Some(shared) = self.shared {
                shared.stop.store(true, Ordering::Relaxed);
            }
            return Err(Halt::Stop(stop));
        }
        if let Some(shared) = self.shared {
            self.countdown -= 1;
            if self.countdown == 0 {
                self.countdown = SHARED_CHECK_INTERVAL;
                if shared.abandons(self.unit) {
                    return Err(Halt::Abandon);
                }
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn event(&mut self, event: impl FnOnce() -> Event) {
        self.search.probe.event(event);
    }

    fn set_unit(&mut self, unit: usize) {
        self.unit = unit;
    }
}

/// The second thread's control: only the shared flags.
struct HelperControl<'s> {
    shared: &'s Shared,
    unit: usize,
    countdown: u32,
}

impl Control for HelperControl<'_> {
    #[inline(always)]
    fn tick(&mut self) -> Result<(), Halt> {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.countdown = SHARED_CHECK_INTERVAL;
            if self.shared.abandons(self.unit) {
                return Err(Halt::Abandon);
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn event(&mut self, _event: impl FnOnce() -> Event) {}

    fn set_unit(&mut self, unit: usize) {
        self.unit = unit;
    }
}

/// What the threads share during one iteration.
struct Shared {
    /// Set by the main thread when the run must stop.
    stop: AtomicBool,
    /// The next work unit to hand out.
    next_unit: AtomicUsize,
    /// The earliest unit known to hold a solution (`usize::MAX`: none yet).
    best_unit: AtomicUsize,
    /// That unit's solution.
    best: Mutex<Option<(usize, Path)>>,
    /// How many of the other threads have finished.
    helpers_done: AtomicUsize,
}

impl Shared {
    #[inline(always)]
    fn abandons(&self, unit: usize) -> bool {
        self.stop.load(Ordering::Relaxed) || unit > self.best_unit.load(Ordering::Relaxed)
    }

    fn offer(&self, unit: usize, path: &[(u8, u8)]) {
        // A poisoned lock only means the other thread panicked; the data is still usable.
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|(u, _)| unit < *u) {
            *best = Some((unit, path.to_vec()));
            self.best_unit.fetch_min(unit, Ordering::Relaxed);
        }
    }
}

/// The bit of [`Worker::helpers_that_cannot_matter`]'s answer that says the node has one move
/// to spare, so helper moves that neither leave nor enter the region of the target robot's
/// last-moves search can be skipped one by one too (robot bits are below [`MAX_ROBOTS`]).
const ONE_TO_SPARE: u32 = 1 << 16;

/// A generated move: the robot, the direction, where it lands and, when the parent looks the
/// child up, the table hash of its key.
#[derive(Clone, Copy, Default)]
struct Child {
    robot: u8,
    dir: u8,
    probed: bool,
    cell: u16,
    column: u16,
    hash: u64,
}

/// What [`Worker::spare_move_cannot_matter`] needs at a node with two moves to spare.
struct SpareMove<'s> {
    /// The cell sets it reads.
    sets: &'s CellSets,
    /// The target robot's cell.
    target: u16,
    /// The helpers that could change the target robot's last-moves search.
    mattering: u32,
    /// The helpers whose moves may be skipped, as far as their cells now tell.
    candidates: u32,
}

/// A subtree to search: the robots' cells after a prefix of moves.
#[derive(Clone, Debug)]
struct Unit {
    cells: [u16; MAX_ROBOTS],
    columns: [u16; MAX_ROBOTS],
    last_dirs: [u8; MAX_ROBOTS],
    path: Vec<(u8, u8)>,
    last_from: u16,
    /// Whether the unit root's parent already recorded it in the table.
    stored: bool,
}

/// One thread's search state.
struct Worker<'g, C: Control, const NO_REBOUND: bool> {
    setup: &'g Setup,
    table: &'g Table,
    control: C,
    /// Row-major cells of the robots, in colour order.
    cells: [u16; MAX_ROBOTS],
    /// Column-major indices of the same cells.
    columns: [u16; MAX_ROBOTS],
    /// Under the no-rebound rule, each robot's last direction index plus one (0: it has not
    /// moved); always zero otherwise.
    last_dirs: [u8; MAX_ROBOTS],
    /// The moves so far, as (robot, direction index).
    path: Vec<(u8, u8)>,
    counters: Counters,
    /// When set, nodes at this depth are not searched but collected as work units.
    split: Option<u32>,
    units: Vec<Unit>,
    /// The iteration (its depth), stamped on table entries.
    iteration: u32,
}

impl<'g, C: Control, const NO_REBOUND: bool> Worker<'g, C, NO_REBOUND> {
    fn new(setup: &'g Setup, table: &'g Table, control: C, iteration: u32) -> Self {
        let g = &setup.geometry;
        let mut columns = [0u16; MAX_ROBOTS];
        for (column, &cell) in columns.iter_mut().zip(&setup.start[..setup.robots]) {
            *column = g.column_index[usize::from(cell)];
        }
        Worker {
            setup,
            table,
            control,
            cells: setup.start,
            columns,
            last_dirs: [0; MAX_ROBOTS],
            path: Vec::with_capacity(256),
            counters: Counters::default(),
            split: None,
            units: Vec::new(),
            iteration,
        }
    }

    /// Where robot `robot` stops sliding in direction `dir` (row-major cell and column-major
    /// index). Equal to its own cell when it cannot move.
    #[inline(always)]
    fn slide(&self, robot: usize, dir: usize) -> (u16, u16) {
        let g = &self.setup.geometry;
        let n = self.setup.robots;
        let cell = self.cells[robot];
        let stop = g.stops[usize::from(cell)][dir];
        // A robot never blocks itself: its own index fails the strict comparison.
        match dir {
            EAST => {
                let mut to = stop;
                for &other in &self.cells[..n] {
                    if other > cell && other <= to {
                        to = other - 1;
                    }
                }
                (to, g.column_index[usize::from(to)])
            }
            WEST => {
                let mut to = stop;
                for &other in &self.cells[..n] {
                    if other < cell && other >= to {
                        to = other + 1;
                    }
                }
                (to, g.column_index[usize::from(to)])
            }
            SOUTH => {
                let column = self.columns[robot];
                let mut to = stop;
                for &other in &self.columns[..n] {
                    if other > column && other <= to {
                        to = other - 1;
                    }
                }
                (g.cell_of_column[usize::from(to)], to)
            }
            _ => {
                let column = self.columns[robot];
                let mut to = stop;
                for &other in &self.columns[..n] {
                    if other < column && other >= to {
                        to = other + 1;
                    }
                }
                (g.cell_of_column[usize::from(to)], to)
            }
        }
    }

    /// Where robot `robot` stops in each direction (indexed as [`Direction::ALL`]), as
    /// [`Worker::slide`] gives them, found in one pass over the other robots: a robot can only
    /// be in the way when it stands within the stretch the robot's wall stops span, along its
    /// row or its column, and that is one unsigned comparison each.
    #[inline(always)]
    fn slides(&self, robot: usize) -> [(u16, u16); 4] {
        let g = &self.setup.geometry;
        let n = self.setup.robots;
        let cell = self.cells[robot];
        let column = self.columns[robot];
        let stops = g.stops[usize::from(cell)];
        let [mut north, mut east, mut south, mut west] = stops;
        // The stops span the robot's own cell, so these never wrap.
        let row_span = stops[EAST] - stops[WEST];
        let column_span = stops[SOUTH] - stops[NORTH];
        for (&other, &other_column) in self.cells[..n].iter().zip(&self.columns[..n]) {
            // Wrapping puts cells before the span's start beyond its length.
            if other.wrapping_sub(stops[WEST]) <= row_span && other != cell {
                if other > cell {
                    east = east.min(other - 1);
                } else {
                    west = west.max(other + 1);
                }
            }
            if other_column.wrapping_sub(stops[NORTH]) <= column_span && other_column != column {
                if other_column > column {
                    south = south.min(other_column - 1);
                } else {
                    north = north.max(other_column + 1);
                }
            }
        }
        [
            (g.cell_of_column[usize::from(north)], north),
            (east, g.column_index[usize::from(east)]),
            (g.cell_of_column[usize::from(south)], south),
            (west, g.column_index[usize::from(west)]),
        ]
    }

    /// The packed state: the target robot's cell, then the others sorted (all sorted for the
    /// vortex).
    #[inline(always)]
    fn key(&self) -> u64 {
        let bits = self.setup.robot_bits;
        let mut rest = [0u16; MAX_ROBOTS];
        let mut len = 0;
        let mut key = 0u64;
        for i in 0..self.setup.robots {
            let code = if NO_REBOUND {
                (self.cells[i] << 3) | u16::from(self.last_dirs[i])
            } else {
                self.cells[i]
            };
            if Some(i) == self.setup.active {
                key = u64::from(code);
            } else {
                rest[len] = code;
                len += 1;
            }
        }
        let rest = &mut rest[..len];
        rest.sort_unstable();
        for &cell in rest.iter() {
            key = (key << bits) | u64::from(cell);
        }
        key
    }

    #[inline(always)]
    fn at_goal(&self) -> bool {
        match self.setup.active {
            Some(a) => self.cells[a] == self.setup.goal,
            None => self.cells[..self.setup.robots].contains(&self.setup.goal),
        }
    }

    /// The rook bound of the position: the target robot's, or the least over all robots.
    #[inline(always)]
    fn rook_bound(&self) -> u32 {
        let g = &self.setup.geometry;
        match self.setup.active {
            Some(a) => g.rook(self.cells[a]),
            None => self.cells[..self.setup.robots]
                .iter()
                .map(|&c| g.rook(c))
                .min()
                .unwrap_or(u32::MAX),
        }
    }

    /// Where a robot stands in the move order: the target robot first, then the rest in
    /// colour order.
    #[inline(always)]
    fn rank(&self, robot: usize) -> usize {
        let first = self.setup.active.unwrap_or(0);
        match robot.cmp(&first) {
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Less => robot + 1,
            std::cmp::Ordering::Greater => robot,
        }
    }

    /// Whether robot `b`'s move in direction `b_dir` to `b_to`, made right after robot `a`
    /// moved in direction `a_dir` from `a_from`, gives the same state when the two moves are
    /// made the other way round: `b` slides to the same cell with `a` still at `a_from`, and
    /// `a` then slides to where it stands now.
    #[inline(always)]
    fn commutes(
        &mut self,
        a: usize,
        a_dir: usize,
        a_from: u16,
        b: usize,
        b_dir: usize,
        b_to: (u16, u16),
    ) -> bool {
        let g = &self.setup.geometry;
        let a_now = (self.cells[a], self.columns[a]);
        let b_now = (self.cells[b], self.columns[b]);
        let a_from = (a_from, g.column_index[usize::from(a_from)]);
        // Most pairs are far apart: when neither robot stands, before or after, on the other's
        // path or on the cell that stopped it, neither slide can depend on the other.
        if apart(a_dir, a_from, a_now, b_now, b_to) && apart(b_dir, b_now, b_to, a_from, a_now) {
            return true;
        }
        let b_to = b_to.0;
        let a_from = a_from.0;
        self.set(a, (a_from, g.column_index[usize::from(a_from)]));
        let b_first = self.slide(b, b_dir);
        let same = b_first.0 == b_to && {
            self.set(b, b_first);
            let a_second = self.slide(a, a_dir);
            a_second.0 == a_now.0
        };
        self.set(a, a_now);
        self.set(b, b_now);
        same
    }

    /// Whether every move robot `b` can make commutes with robot `a`'s move in direction
    /// `a_dir` from `a_from` to where it stands now, as [`Worker::commutes`] would find for
    /// each. It does when `a`'s path, both ends included, misses `b`'s cross (its rays up to
    /// the walls, on which every cell `b` can stop on lies):
    ///
    /// - `b`'s slide cannot depend on `a`: a robot in `b`'s way stands on a ray short of its
    ///   wall, and `a` stands on its path before and after.
    /// - `a`'s slide cannot depend on `b`: `b` stands on its cross before and after, off `a`'s
    ///   path. The one other cell `a`'s slide reads is the one past its end, when no wall lies
    ///   between. `b` standing there before its move would put `a`'s last cell on `b`'s ray.
    ///   `b` ending its move there would too: along `a`'s line, the last cell is then on `b`'s
    ///   path or the one that stopped `b` (with no wall between, only `a` can have); across
    ///   it, that cell was empty when `a` moved, so `a` was stopped by a wall, not by it.
    #[inline(always)]
    fn all_moves_commute(&self, a: usize, a_dir: usize, a_from: u16, b: usize) -> bool {
        let crosses = &self.setup.geometry.crosses;
        let from = crosses[usize::from(a_from)];
        let now = crosses[usize::from(self.cells[a])];
        let rays = crosses[usize::from(self.cells[b])];
        if a_dir == EAST || a_dir == WEST {
            let path = from.x.min(now.x)..=from.x.max(now.x);
            let meets_row =
                rays.y == now.y && rays.west <= *path.end() && rays.east >= *path.start();
            let meets_column = path.contains(&rays.x) && (rays.north..=rays.south).contains(&now.y);
            !meets_row && !meets_column
        } else {
            let path = from.y.min(now.y)..=from.y.max(now.y);
            let meets_column =
                rays.x == now.x && rays.north <= *path.end() && rays.south >= *path.start();
            let meets_row = path.contains(&rays.y) && (rays.west..=rays.east).contains(&now.x);
            !meets_row && !meets_column
        }
    }

    /// Whether the no-rebound rule forbids `robot` to move in `dir`: the reverse of its own
    /// last move (a last direction of 0 never matches: the robot has not moved, or the rule
    /// is off).
    #[inline(always)]
    fn reverses(&self, robot: usize, dir: usize) -> bool {
        NO_REBOUND && usize::from(self.last_dirs[robot]) == (dir ^ 2) + 1
    }

    /// Records a robot's move direction when the no-rebound rule needs it.
    #[inline(always)]
    fn set_last_dir(&mut self, robot: usize, dir: usize) {
        if NO_REBOUND {
            self.last_dirs[robot] = dir as u8 + 1;
        }
    }

    #[inline(always)]
    fn set(&mut self, robot: usize, to: (u16, u16)) {
        self.cells[robot] = to.0;
        self.columns[robot] = to.1;
    }

    #[inline(always)]
    fn node_event(&mut self, depth: u32) {
        let setup = self.setup;
        let cells = self.cells;
        let path = &self.path;
        self.control.event(|| Event::Node {
            depth,
            cells: RobotCells::new(&cells[..setup.robots]),
            path: path
                .iter()
                .map(|&(r, d)| {
                    Move::new(setup.colors[usize::from(r)], Direction::ALL[usize::from(d)])
                })
                .collect(),
        });
    }

    /// Searches the node reached by `self.path` with `left` moves to go. Returns whether a
    /// solution was found (then `self.path` holds it), or else a lower bound on the moves the
    /// node needs, more than `left`.
    ///
    /// `stored` says the parent already looked it up in the table and recorded this search.
    fn node(&mut self, depth: u32, left: u32, last_from: u16, stored: bool) -> Result<Visit, Halt> {
        if self.split == Some(depth) {
            self.units.push(Unit {
                cells: self.cells,
                columns: self.columns,
                last_dirs: self.last_dirs,
                path: self.path.clone(),
                last_from,
                stored,
            });
            // The unit's own search reports what it needs; here it proves nothing.
            return Ok(Visit::Failed(MAX_DEPTH + 1));
        }
        self.counters.nodes += 1;
        self.control.tick()?;
        self.node_event(depth);
        if self.at_goal() && depth >= self.setup.min_len {
            return Ok(Visit::Found);
        }
        if left == 0 {
            self.counters.cut = true;
            self.control.event(|| Event::Pruned {
                depth,
                reason: PruneReason::DepthLimit,
            });
            return Ok(Visit::Failed(1));
        }
        let bound = self.rook_bound();
        if bound > left {
            if !unreachable(bound) {
                self.counters.cut = true;
            }
            self.counters.bound_cuts += 1;
            self.control.event(|| Event::Pruned {
                depth,
                reason: PruneReason::LowerBound {
                    bound,
                    remaining: left,
                },
            });
            return Ok(Visit::Failed(bound.min(MAX_DEPTH + 1)));
        }
        if bound == left {
            // Only a robot that can reach the target with every move lowering its bound can
            // finish in time: nobody else has a move to spare.
            self.counters.last_moves += 1;
            self.counters.cut = true;
            return Ok(if self.finish_alone(depth, left)? {
                Visit::Found
            } else {
                Visit::Failed(left + 1)
            });
        }
        self.counters.expanded += 1;
        // A parent that looked this node up has already recorded it in the table.
        if !stored && left >= 2 && depth >= self.setup.min_len && self.setup.use_table {
            let key = self.key();
            match self.table.probe_or_store(key, left, self.iteration) {
                Lookup::Stored { new } => self.counters.inserted += u64::from(new),
                Lookup::Hit { stored, older } => {
                    self.counters.hits += 1;
                    // A state searched earlier in this iteration adds nothing a deeper
                    // iteration could extend beyond what that search already counted.
                    self.counters.cut |= older;
                    self.control.event(|| Event::Pruned {
                        depth,
                        reason: PruneReason::TableHit { stored },
                    });
                    // An entry of an earlier iteration is a finished search's proof; one of
                    // this iteration may belong to a search still under way, so only
                    // `left + 1` is certain.
                    return Ok(Visit::Failed(if older { stored + 1 } else { left + 1 }));
                }
            }
        }
        // Generate every child first and fetch the table buckets of those that will look
        // themselves up, so the memory reads overlap instead of stalling one by one.
        let n = self.setup.robots;
        let first = self.setup.active.unwrap_or(0);
        let last = self.path.last().copied();
        let child_probes = left > 2 && depth + 1 >= self.setup.min_len && self.setup.use_table;
        // The cell sets, once built, are read many times per node: fetch them once.
        let sets = self.setup.geometry.cell_sets();
        let skip = sets.map_or(0, |sets| {
            self.helpers_that_cannot_matter(sets, depth, left, bound)
        });
        // Helper moves are filtered one by one with one move to spare.
        let region_of = sets.zip(
            self.setup
                .active
                .filter(|_| skip & ONE_TO_SPARE != 0)
                .map(|a| self.cells[a]),
        );
        // With two moves to spare, the helpers that can change the target robot's last moves.
        let two_to_spare =
            sets.and_then(|sets| self.spare_move_candidates(sets, depth, left, bound));
        let mut children = [Child::default(); MAX_ROBOTS * 4];
        let mut count = 0;
        // Whether a real move was left out (it would have failed with `left - 1` to go).
        let mut passed_over = false;
        for k in 0..n {
            // The target robot first, then the rest in colour order.
            let robot = if k == 0 {
                first
            } else if k <= first {
                k - 1
            } else {
                k
            };
            if skip & (1 << robot) != 0 {
                passed_over = true;
                continue;
            }
            // A robot whose every move commutes with the last move, which a robot later in the
            // move order made, has all its moves searched the other way round: no need to
            // slide it.
            if let Some((r, d)) = last
                && usize::from(r) != robot
                && k < self.rank(usize::from(r))
                && self.all_moves_commute(usize::from(r), usize::from(d), last_from, robot)
            {
                self.counters.swaps += 1;
                passed_over = true;
                continue;
            }
            let from = (self.cells[robot], self.columns[robot]);
            let last_dir = self.last_dirs[robot];
            let slides = self.slides(robot);
            for (dir, &to) in slides.iter().enumerate() {
                if self.reverses(robot, dir) {
                    continue;
                }
                if to.0 == from.0 {
                    continue;
                }
                // With one move to spare, a helper move that neither leaves nor enters the
                // region of the last-moves search leaves its outcome as it was: a failure.
                if let Some((sets, target)) = region_of
                    && robot != first
                    && !sets.in_region(target, from.0)
                    && !sets.in_region(target, to.0)
                {
                    passed_over = true;
                    continue;
                }
                if let Some(spare) = &two_to_spare
                    && spare.candidates & (1 << robot) != 0
                    && self.spare_move_cannot_matter(spare, robot, to.0)
                {
                    passed_over = true;
                    continue;
                }
                // A move straight back onto the previous state: the table would cut it. Under
                // the ricochet rule only once the previous state's goal counted too.
                if let Some((r, d)) = last
                    && depth > self.setup.min_len
                    && usize::from(r) == robot
                    && usize::from(d) == dir ^ 2
                    && to.0 == last_from
                {
                    passed_over = true;
                    continue;
                }
                // Two moves of different robots that give the same state in either order are
                // searched in one order only: the earlier robot first.
                if let Some((r, d)) = last
                    && usize::from(r) != robot
                    && k < self.rank(usize::from(r))
                    && self.commutes(usize::from(r), usize::from(d), last_from, robot, dir, to)
                {
                    self.counters.swaps += 1;
                    passed_over = true;
                    continue;
                }
                let mut child = Child {
                    robot: robot as u8,
                    dir: dir as u8,
                    cell: to.0,
                    column: to.1,
                    probed: false,
                    hash: 0,
                };
                if child_probes {
                    self.cells[robot] = to.0;
                    self.set_last_dir(robot, dir);
                    // Children at their bound go to the last-moves search, not the table.
                    if self.rook_bound() < left - 1 {
                        child.probed = true;
                        child.hash = self.table.hash(self.key());
                        self.table.prefetch_hash(child.hash);
                    }
                    self.cells[robot] = from.0;
                    self.last_dirs[robot] = last_dir;
                }
                children[count] = child;
                count += 1;
            }
        }
        // The least over the children of one more than what each needs (no children: the
        // node is a dead end).
        let mut needed = MAX_DEPTH + 1;
        for child in &children[..count] {
            let robot = usize::from(child.robot);
            let from = (self.cells[robot], self.columns[robot]);
            let from_dir = self.last_dirs[robot];
            self.set(robot, (child.cell, child.column));
            self.set_last_dir(robot, usize::from(child.dir));
            if child.probed {
                // The child passes every check before the table (its bound leaves it a move
                // to spare and it is not the target), so look it up here: a hit then costs
                // no call. It is counted exactly as if it had been visited.
                match self
                    .table
                    .probe_or_store_hash(child.hash, left - 1, self.iteration)
                {
                    Lookup::Stored { new } => self.counters.inserted += u64::from(new),
                    Lookup::Hit { stored, older } => {
                        self.counters.nodes += 1;
                        self.counters.expanded += 1;
                        self.counters.hits += 1;
                        self.counters.cut |= older;
                        let ticked = self.control.tick();
                        self.path.push((child.robot, child.dir));
                        self.node_event(depth + 1);
                        self.path.pop();
                        self.control.event(|| Event::Pruned {
                            depth: depth + 1,
                            reason: PruneReason::TableHit { stored },
                        });
                        self.set(robot, from);
                        self.last_dirs[robot] = from_dir;
                        ticked?;
                        let child_needs = if older { stored + 1 } else { left };
                        needed = needed.min(child_needs + 1);
                        continue;
                    }
                }
            }
            self.path.push((child.robot, child.dir));
            let visit = self.node(depth + 1, left - 1, from.0, child.probed);
            if let Ok(Visit::Found) = visit {
                return visit;
            }
            self.path.pop();
            self.set(robot, from);
            self.last_dirs[robot] = from_dir;
            if let Visit::Failed(child_needs) = visit? {
                needed = needed.min(child_needs + 1);
            }
        }
        // A move left out proves no more than the least a failure proves.
        if passed_over {
            needed = needed.min(left + 1);
        }
        Ok(Visit::Failed(needed.max(left + 1)))
    }

    /// With one move to spare (`left == bound + 1`), a helper move leaves the target robot
    /// exactly `bound` moves, each lowering its bound: the last-moves search. A helper that
    /// stands outside the region of that search and cannot enter it in one move leaves its
    /// outcome as it is without the helper's move: the outcome of this node with one move
    /// fewer. That is a failure, with no need to search: a solution in `left - 1` moves from
    /// here would make one of `depth + left - 1` moves, shorter than this iteration's depth,
    /// and every shorter length is proved impossible (by the iterations before, or by the
    /// root's proven need when iterations were skipped). So the moves of such helpers need not
    /// be tried. Returns the set of such helpers as a bit mask, with [`ONE_TO_SPARE`] set
    /// (helper moves that neither leave nor enter the region can be skipped one by one too).
    #[inline(always)]
    fn helpers_that_cannot_matter(
        &self,
        sets: &CellSets,
        depth: u32,
        left: u32,
        bound: u32,
    ) -> u32 {
        let Some(active) = self.setup.active else {
            return 0;
        };
        // Under the ricochet rule the helper's move may be what makes a solution long enough:
        // the argument needs the shorter solution to count.
        if bound + 1 != left || depth + bound < self.setup.min_len {
            return 0;
        }
        let cell = self.cells[active];
        let mut skip = ONE_TO_SPARE;
        for robot in 0..self.setup.robots {
            if robot != active && !sets.may_matter(cell, self.cells[robot]) {
                skip |= 1 << robot;
            }
        }
        skip
    }

    /// With two moves to spare (`left == bound + 2`), the target robot's cell, the set of
    /// helpers that could change its last-moves search (as in
    /// [`Worker::helpers_that_cannot_matter`]) and the set of helpers whose moves
    /// [`Worker::spare_move_cannot_matter`] may skip, as far as their cells now tell; `None`
    /// at other nodes or when no helper's moves may be skipped.
    #[inline(always)]
    fn spare_move_candidates<'s>(
        &self,
        sets: &'s CellSets,
        depth: u32,
        left: u32,
        bound: u32,
    ) -> Option<SpareMove<'s>> {
        let active = self.setup.active?;
        // The same proof as with one move to spare: the shorter solution must count.
        if bound + 2 != left || depth + bound < self.setup.min_len {
            return None;
        }
        let target = self.cells[active];
        let helpers = || (0..self.setup.robots).filter(move |&robot| robot != active);
        let mut mattering = 0;
        for robot in helpers() {
            if sets.may_matter(target, self.cells[robot]) {
                mattering |= 1 << robot;
            }
        }
        let mut candidates = 0;
        for robot in helpers() {
            let from = self.cells[robot];
            if !sets.in_spare_region(target, from) && self.off_rays(sets, mattering, robot, from) {
                candidates |= 1 << robot;
            }
        }
        (candidates != 0).then_some(SpareMove {
            sets,
            target,
            mattering,
            candidates,
        })
    }

    /// Whether `cell` lies off the rays of every helper in `mattering` other than `robot`.
    #[inline(always)]
    fn off_rays(&self, sets: &CellSets, mattering: u32, robot: usize, cell: u16) -> bool {
        (0..self.setup.robots)
            .filter(|&other| other != robot && mattering & (1 << other) != 0)
            .all(|other| !sets.in_reach(self.cells[other], cell))
    }

    /// With two moves to spare, whether the move of helper `robot` (one of `spare`'s
    /// candidates) to `to` leaves the outcome of the search as it would be without it: as the
    /// outcome of this node with one move fewer, a failure (see
    /// [`Worker::helpers_that_cannot_matter`]). After the move one move is left to spare, so a
    /// solution then is the target robot alone with at most one move that keeps its bound, or
    /// one helper move and the last-moves search. Neither changes when the helper stands,
    /// before and after, outside the region of the target robot's search with a move to spare;
    /// when its next move could not touch the last-moves region; and when it stands, before
    /// and after, off every ray of the helpers that could, so their moves end where they
    /// would have.
    #[inline(always)]
    fn spare_move_cannot_matter(&self, spare: &SpareMove, robot: usize, to: u16) -> bool {
        let sets = spare.sets;
        !sets.in_spare_region(spare.target, to)
            && !sets.may_matter(spare.target, to)
            && self.off_rays(sets, spare.mattering, robot, to)
    }

    /// The last stretch: `left` equals the bound, so only robots whose own bound is `left`
    /// may move, and every move must lower it by one.
    fn finish_alone(&mut self, depth: u32, left: u32) -> Result<bool, Halt> {
        if depth + left < self.setup.min_len {
            return Ok(false);
        }
        match self.setup.active {
            Some(a) => self.descend(a, depth, left),
            None => {
                for robot in 0..self.setup.robots {
                    if self.setup.geometry.rook(self.cells[robot]) == left
                        && self.descend(robot, depth, left)?
                    {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
        }
    }

    /// Whether `robot` reaches the target in exactly `left` moves, each lowering its rook bound
    /// by one, with the other robots standing still. Pushes the moves when it does.
    fn descend(&mut self, robot: usize, depth: u32, left: u32) -> Result<bool, Halt> {
        if depth + left < self.setup.min_len {
            return Ok(false);
        }
        let g = &self.setup.geometry;
        let from = (self.cells[robot], self.columns[robot]);
        let from_dir = self.last_dirs[robot];
        // `left` is the robot's own bound here: only directions whose ray holds a cell one
        // lower can lower it.
        debug_assert_eq!(
            g.rook(from.0),
            left,
            "descend starts at the robot's own bound"
        );
        let descents = g.descents[usize::from(from.0)];
        for dir in 0..4 {
            if descents & (1 << dir) == 0 || self.reverses(robot, dir) {
                continue;
            }
            let to = self.slide(robot, dir);
            // The bound drops by at most one per move, so this also skips non-moves.
            if g.rook(to.0) + 1 != left {
                continue;
            }
            self.set(robot, to);
            self.set_last_dir(robot, dir);
            self.path.push((robot as u8, dir as u8));
            self.counters.nodes += 1;
            self.control.tick()?;
            self.node_event(depth + 1);
            // A bound of zero is the target itself.
            let found = left == 1 || self.descend(robot, depth + 1, left - 1)?;
            if found {
                return Ok(true);
            }
            self.path.pop();
            self.set(robot, from);
            self.last_dirs[robot] = from_dir;
        }
        Ok(false)
    }

    /// Takes work units in order from the shared counter and searches each until none is
    /// left, the run stops, or a solution in an earlier unit makes the rest pointless. Returns
    /// the least any unit proved it needs (counted from the root of an iteration of depth
    /// `depth`), and the stop that ended the run, if one did.
    fn take_units(&mut self, units: &[Unit], shared: &Shared, depth: u32) -> (u32, Option<Stop>) {
        let mut needs = MAX_DEPTH + 1;
        loop {
            let index = shared.next_unit.fetch_add(1, Ordering::Relaxed);
            if index >= units.len() || shared.abandons(index) {
                return (needs, None);
            }
            self.control.set_unit(index);
            match self.unit(&units[index], SPLIT_DEPTH, depth - SPLIT_DEPTH) {
                Ok(Visit::Found) => shared.offer(index, &self.path),
                Ok(Visit::Failed(n)) => needs = needs.min(n + SPLIT_DEPTH),
                // An abandoned unit proves only what the iteration does.
                Err(Halt::Abandon) => needs = needs.min(depth + 1),
                Err(Halt::Stop(stop)) => return (needs, Some(stop)),
            }
        }
    }

    /// Searches one work unit.
    fn unit(&mut self, unit: &Unit, depth: u32, left: u32) -> Result<Visit, Halt> {
        self.cells = unit.cells;
        self.columns = unit.columns;
        self.last_dirs = unit.last_dirs;
        self.path.clear();
        self.path.extend_from_slice(&unit.path);
        self.node(depth, left, unit.last_from, unit.stored)
    }
}

/// Whether cells `p` and `q` (row-major, column-major) both lie off the stretch a robot
/// slid in direction `dir` from `from` to `to`, widened by one cell at each end (where a robot
/// would have stopped it). Along a row the stretch has consecutive row-major indices, along a
/// column consecutive column-major ones, so this is two range checks (a cell just past a row's
/// end falls in the range too: the check may say no when the robots are apart, never yes when
/// they are not).
#[inline(always)]
fn apart(dir: usize, from: (u16, u16), to: (u16, u16), p: (u16, u16), q: (u16, u16)) -> bool {
    let (from, to, p, q) = if dir == EAST || dir == WEST {
        (from.0, to.0, p.0, q.0)
    } else {
        (from.1, to.1, p.1, q.1)
    };
    let low = from.min(to).saturating_sub(1);
    let high = from.max(to).saturating_add(1);
    let outside = |c: u16| c < low || c > high;
    outside(p) && outside(q)
}

/// Runs the iterations and owns the table.
struct Driver<'a, const NO_REBOUND: bool> {
    setup: &'a Setup,
    table: Table,
    /// Entries made since the table last grew.
    inserted: u64,
    threads: usize,
}

impl<const NO_REBOUND: bool> Driver<'_, NO_REBOUND> {
    fn run<P: Probe>(&mut self, options: &SolverOptions, search: &mut Search<'_, P>) -> SearchEnd {
        let end = self.iterate(options, search);
        // While the table still lives: how much of it the system backed with huge pages.
        if self.table.bytes() >= HUGE_PAGE_REPORT_BYTES {
            search.huge_page_bytes = table::anon_huge_page_bytes();
        }
        // Freeing hundreds of MiB takes a while: the caller does it once it has reported.
        search.retire(std::mem::replace(&mut self.table, Table::new(0, 1)));
        end
    }

    fn iterate<P: Probe>(
        &mut self,
        options: &SolverOptions,
        search: &mut Search<'_, P>,
    ) -> SearchEnd {
        let bytes = self.table.bytes() + self.setup.geometry.bytes();
        if let Err(stop) = search.reserve_memory(bytes) {
            return SearchEnd::Stopped(stop);
        }
        if let Err(stop) = search.set_memory(bytes) {
            return SearchEnd::Stopped(stop);
        }
        let root = Worker::<_, NO_REBOUND>::new(self.setup, &self.table, NoControl, 0);
        let start_bound = root.rook_bound();
        if unreachable(start_bound) {
            search.finish_depth(DepthStats::default());
            return SearchEnd::Unsolvable(None);
        }
        let mut depth = start_bound.max(self.setup.min_len);
        let mut previous_nodes = 0;
        let mut closure_tried = false;
        loop {
            let cap = options.depth_limit.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
            if depth > cap {
                return SearchEnd::Unsolvable(Some(cap));
            }
            if depth >= CLOSURE_DEPTH && !closure_tried {
                closure_tried = true;
                match self.goal_unreachable(search) {
                    Ok(true) => return SearchEnd::Unsolvable(None),
                    Ok(false) => {}
                    Err(stop) => return SearchEnd::Stopped(stop),
                }
            }
            if let Err(stop) = self.grow_table(search) {
                return SearchEnd::Stopped(stop);
            }
            if previous_nodes >= LAST_MOVES_THRESHOLD && !self.setup.geometry.last_moves_ready() {
                let g = &self.setup.geometry;
                let bytes = self.table.bytes() + g.bytes() + g.last_moves_bytes();
                if let Err(stop) = search.reserve_memory(bytes) {
                    return SearchEnd::Stopped(stop);
                }
                g.prepare_last_moves();
                if let Err(stop) = search.set_memory(self.table.bytes() + g.bytes()) {
                    return SearchEnd::Stopped(stop);
                }
            }
            search.probe.event(|| Event::IterationStarted { depth });
            let parallel = self.threads > 1
                && !search.probe.wants_events()
                && previous_nodes >= PARALLEL_THRESHOLD
                && depth > SPLIT_DEPTH + 1;
            let (result, counters) = if parallel {
                self.parallel_iteration(depth, search)
            } else {
                self.single_iteration(depth, search)
            };
            previous_nodes = counters.nodes;
            self.inserted += counters.inserted;
            let stats = DepthStats {
                depth,
                nodes: counters.nodes,
                inner: counters.expanded,
                hits: counters.hits,
                extra: vec![
                    ("bound cuts", counters.bound_cuts),
                    ("last-moves searches", counters.last_moves),
                    ("swaps", counters.swaps),
                ],
            };
            let needed = match result {
                Err(stop) => return SearchEnd::Stopped(stop),
                Ok(Ending::Found(path)) => {
                    search.finish_depth(stats);
                    return SearchEnd::Found(self.moves(&path));
                }
                Ok(Ending::Failed(needed)) => {
                    search.finish_depth(stats);
                    needed
                }
            };
            if !counters.cut {
                return SearchEnd::Unsolvable(None);
            }
            // The root proved it needs `needed` moves: iterations below that would fail.
            depth = needed.max(depth + 1);
        }
    }

    /// Whether no goal state can be reached from the start at all: a breadth-first walk over
    /// every reachable state, given up (`false`) past [`CLOSURE_STATES`] states or when its
    /// memory would pass the limit. Deepening alone cannot prove this: the table's cuts leave
    /// every iteration looking as if a deeper one might find more.
    fn goal_unreachable<P: Probe>(&self, search: &mut Search<'_, P>) -> Result<bool, Stop> {
        if !self.setup.use_table {
            return Ok(false);
        }
        // A state takes its queue entry, its key in the set and the set's spare room.
        let most = self.table.bytes() + self.setup.geometry.bytes() + CLOSURE_STATES * 48;
        if search.reserve_memory(most).is_err() {
            return Ok(false);
        }
        let g = &self.setup.geometry;
        let n = self.setup.robots;
        let mut walker = Worker::<_, NO_REBOUND>::new(self.setup, &self.table, NoControl, 0);
        let mut seen: rustc_hash::FxHashSet<u64> = rustc_hash::FxHashSet::default();
        let mut queue: Vec<([u16; MAX_ROBOTS], [u8; MAX_ROBOTS])> = Vec::new();
        seen.insert(walker.key());
        queue.push((walker.cells, walker.last_dirs));
        let mut head = 0;
        while head < queue.len() {
            let (cells, last_dirs) = queue[head];
            head += 1;
            search.tick()?;
            for (robot, &cell) in cells[..n].iter().enumerate() {
                walker.set(robot, (cell, g.column_index[usize::from(cell)]));
            }
            walker.last_dirs = last_dirs;
            if walker.at_goal() {
                return Ok(false);
            }
            for robot in 0..n {
                for dir in 0..4 {
                    if walker.reverses(robot, dir) {
                        continue;
                    }
                    let to = walker.slide(robot, dir);
                    if to.0 == cells[robot] {
                        continue;
                    }
                    let from = (walker.cells[robot], walker.columns[robot]);
                    walker.set(robot, to);
                    walker.set_last_dir(robot, dir);
                    if seen.insert(walker.key()) {
                        if seen.len() > CLOSURE_STATES {
                            return Ok(false);
                        }
                        queue.push((walker.cells, walker.last_dirs));
                    }
                    walker.set(robot, from);
                    walker.last_dirs[robot] = last_dirs[robot];
                }
            }
        }
        Ok(true)
    }

    /// Grows the table when the last iterations made more entries than it holds.
    fn grow_table<P: Probe>(&mut self, search: &mut Search<'_, P>) -> Result<(), Stop> {
        let bits = self.table.bucket_bits();
        if bits >= MAX_BUCKET_BITS || self.inserted <= self.table.capacity() as u64 / 2 {
            return Ok(());
        }
        let wanted = (self.inserted * 4).max(1);
        let mut new_bits = bits;
        while new_bits < MAX_BUCKET_BITS && ((1u64 << new_bits) * 4) < wanted {
            new_bits += 1;
        }
        new_bits = new_bits.max(bits + 2).min(MAX_BUCKET_BITS);
        new_bits = new_bits.max(min_bucket_bits(
            self.setup.robot_bits * self.setup.robots as u32,
        ));
        // Both tables live while entries move over. Asked before allocating, so a run stopped
        // here reports only what it held.
        let fixed = self.setup.geometry.bytes();
        let during = fixed + self.table.bytes() + Table::bytes_for(new_bits);
        search.reserve_memory(during)?;
        search.set_memory(during)?;
        // Polled, so a cancel or the time limit is answered while a big table is written.
        self.table = self
            .table
            .grown_polled(new_bits, self.threads, || search.poll())?;
        self.inserted = 0;
        search.set_memory(fixed + self.table.bytes())
    }

    fn single_iteration<P: Probe>(
        &mut self,
        depth: u32,
        search: &mut Search<'_, P>,
    ) -> (Result<Ending, Stop>, Counters) {
        let control = MainControl {
            search,
            shared: None,
            unit: 0,
            countdown: SHARED_CHECK_INTERVAL,
        };
        let mut worker = Worker::<_, NO_REBOUND>::new(self.setup, &self.table, control, depth);
        let result = match worker.node(0, depth, u16::MAX, false) {
            Ok(Visit::Found) => Ok(Ending::Found(std::mem::take(&mut worker.path))),
            Ok(Visit::Failed(needed)) => Ok(Ending::Failed(needed)),
            Err(Halt::Stop(stop)) => Err(stop),
            // Nothing can abandon a run on one thread.
            Err(Halt::Abandon) => Ok(Ending::Failed(depth + 1)),
        };
        (result, worker.counters)
    }

    fn parallel_iteration<P: Probe>(
        &mut self,
        depth: u32,
        search: &mut Search<'_, P>,
    ) -> (Result<Ending, Stop>, Counters) {
        let shared = Shared {
            stop: AtomicBool::new(false),
            next_unit: AtomicUsize::new(0),
            best_unit: AtomicUsize::new(usize::MAX),
            best: Mutex::new(None),
            helpers_done: AtomicUsize::new(0),
        };
        // Cut the tree into units on the main thread (this also searches the shallow part).
        let mut counters = Counters::default();
        let shallow_needs;
        let units = {
            let control = MainControl {
                search: &mut *search,
                shared: Some(&shared),
                unit: 0,
                countdown: SHARED_CHECK_INTERVAL,
            };
            let mut worker = Worker::<_, NO_REBOUND>::new(self.setup, &self.table, control, depth);
            worker.split = Some(SPLIT_DEPTH);
            let result = worker.node(0, depth, u16::MAX, false);
            counters.add(&worker.counters);
            match result {
                Ok(Visit::Found) => {
                    return (
                        Ok(Ending::Found(std::mem::take(&mut worker.path))),
                        counters,
                    );
                }
                Ok(Visit::Failed(needs)) => shallow_needs = needs,
                Err(Halt::Stop(stop)) => return (Err(stop), counters),
                Err(Halt::Abandon) => return (Ok(Ending::Failed(depth + 1)), counters),
            }
            std::mem::take(&mut worker.units)
        };
        let setup = self.setup;
        let table = &self.table;
        let helpers = self.threads - 1;
        search.threads = search.threads.max(self.threads);
        // The least a unit proved it needs, counted from the root, and what stopped the run.
        let (mut unit_needs, mut stopped) = (MAX_DEPTH + 1, None);
        let units = &units;
        let shared = &shared;
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..helpers)
                .map(|_| {
                    scope.spawn(move || {
                        let control = HelperControl {
                            shared,
                            unit: 0,
                            countdown: SHARED_CHECK_INTERVAL,
                        };
                        let mut worker = Worker::<_, NO_REBOUND>::new(setup, table, control, depth);
                        // Only the main thread's control ever stops the run.
                        let (needs, _) = worker.take_units(units, shared, depth);
                        shared.helpers_done.fetch_add(1, Ordering::Release);
                        (worker.counters, needs)
                    })
                })
                .collect();
            let control = MainControl {
                search: &mut *search,
                shared: Some(shared),
                unit: 0,
                countdown: SHARED_CHECK_INTERVAL,
            };
            let mut worker = Worker::<_, NO_REBOUND>::new(setup, table, control, depth);
            (unit_needs, stopped) = worker.take_units(units, shared, depth);
            counters.add(&worker.counters);
            // Keep honouring the limits while the other threads finish their last units.
            let search = worker.control.search;
            while stopped.is_none() && shared.helpers_done.load(Ordering::Acquire) < helpers {
                if let Err(stop) = search.poll() {
                    shared.stop.store(true, Ordering::Relaxed);
                    stopped = Some(stop);
                }
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
            for handle in handles {
                // A panic in another thread is a bug; its counters are then lost, not the run.
                if let Ok((helper_counters, needs)) = handle.join() {
                    search.nodes += helper_counters.nodes;
                    counters.add(&helper_counters);
                    unit_needs = unit_needs.min(needs);
                }
            }
        });
        if let Some(stop) = stopped {
            return (Err(stop), counters);
        }
        let best = shared.best.lock().unwrap_or_else(|e| e.into_inner()).take();
        // The root needs what its shallow part proved or the least a unit proved, whichever
        // is less: every path from the root either ends above the units or passes one.
        let ending = match best {
            Some((_, path)) => Ending::Found(path),
            None => Ending::Failed(shallow_needs.min(unit_needs).max(depth + 1)),
        };
        (Ok(ending), counters)
    }

    fn moves(&self, path: &[(u8, u8)]) -> Vec<Move> {
        path.iter()
            .map(|&(r, d)| {
                Move::new(
                    self.setup.colors[usize::from(r)],
                    Direction::ALL[usize::from(d)],
                )
            })
            .collect()
    }
}

/// A control for workers that never search (used to read the root's bound).
struct NoControl;

impl Control for NoControl {
    fn tick(&mut self) -> Result<(), Halt> {
        Ok(())
    }

    fn event(&mut self, _event: impl FnOnce() -> Event) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MoveTables;
    use crate::model::random::random_puzzle;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Random puzzles of many shapes, and for each a few random placements of its robots.
    fn placements(count: u64) -> Vec<(Puzzle, Vec<u16>)> {
        let mut out = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for seed in 0..count {
            let width = rng.random_range(1..=20);
            let height = rng.random_range(1..=20);
            let robots = rng.random_range(1..=5usize);
            let Ok(puzzle) = random_puzzle(width, height, robots, 3, seed) else {
                continue;
            };
            let cells = puzzle.board().cell_count() as u16;
            for _ in 0..5 {
                let mut placed: Vec<u16> = Vec::new();
                while placed.len() < robots {
                    let cell = rng.random_range(0..cells);
                    if !puzzle.board().is_closed(cell) && !placed.contains(&cell) {
                        placed.push(cell);
                    }
                }
                out.push((puzzle.clone(), placed));
            }
        }
        out
    }

    fn worker<'a>(
        setup: &'a Setup,
        table: &'a Table,
        cells: &[u16],
    ) -> Worker<'a, NoControl, false> {
        let mut worker = Worker::<_, false>::new(setup, table, NoControl, 1);
        for (i, &cell) in cells.iter().enumerate() {
            worker.set(i, (cell, setup.geometry.column_index[usize::from(cell)]));
        }
        worker
    }

    #[test]
    fn slides_match_the_model_rule_on_any_board() {
        for (puzzle, cells) in placements(300) {
            let setup = Setup::new(&puzzle);
            let table = Table::new(8, 8);
            let worker = worker(&setup, &table, &cells);
            let tables = MoveTables::new(puzzle.board());
            for robot in 0..cells.len() {
                let slides = worker.slides(robot);
                for (dir, &both) in slides.iter().enumerate() {
                    let expected = tables.slide(&cells, robot, Direction::ALL[dir]);
                    let (cell, column) = worker.slide(robot, dir);
                    assert_eq!(cell, expected, "{cells:?} robot {robot} dir {dir}");
                    assert_eq!(column, setup.geometry.column_index[usize::from(cell)]);
                    assert_eq!(both, (cell, column), "{cells:?} robot {robot} dir {dir}");
                }
            }
        }
    }

    #[test]
    fn keys_merge_swapped_helpers_but_not_the_target_robot() {
        let puzzle = crate::model::samples::fogleman_22();
        let setup = Setup::new(&puzzle);
        let table = Table::new(8, 32);
        // Blue (index 2) is the target robot.
        let key = |cells: [u16; 4]| worker(&setup, &table, &cells).key();
        assert_eq!(key([1, 2, 3, 4]), key([4, 2, 3, 1]));
        assert_eq!(key([1, 2, 3, 4]), key([2, 4, 3, 1]));
        assert_ne!(key([1, 2, 3, 4]), key([3, 2, 1, 4]));
    }

    #[test]
    fn a_goal_no_state_reaches_is_proved_unreachable() {
        use crate::model::Pos;
        use crate::solver::Outcome;
        use crate::solver::fixtures::{red_and_green, run};
        // On an empty board two robots never stop in the middle: each stops at a wall or
        // next to the other, which stands at a wall or next to the first. Yet the rook bound
        // of the middle is two, so deepening alone would go on to its cap.
        let puzzle = red_and_green(64, 64, Pos::new(0, 0), Pos::new(63, 0), Pos::new(31, 31));
        let report = run(NAME, &puzzle, None);
        assert_eq!(report.outcome, Outcome::Unsolvable { within: None });
        // Proved when the deepening reached the check, not at the cap.
        assert!(report.depths.iter().all(|d| d.depth < CLOSURE_DEPTH));
    }

    #[test]
    fn every_move_that_lowers_the_bound_starts_in_a_descent_direction() {
        let mut lowering = 0;
        for (puzzle, cells) in placements(300) {
            let setup = Setup::new(&puzzle);
            let g = &setup.geometry;
            let tables = MoveTables::new(puzzle.board());
            for robot in 0..cells.len() {
                let own = g.rook(cells[robot]);
                for (dir, &direction) in Direction::ALL.iter().enumerate() {
                    let to = tables.slide(&cells, robot, direction);
                    if to != cells[robot] && g.rook(to) + 1 == own {
                        lowering += 1;
                        assert!(
                            g.descents[usize::from(cells[robot])] & (1 << dir) != 0,
                            "{cells:?}: robot {robot} lowers its bound going {direction:?}"
                        );
                    }
                }
            }
        }
        assert!(lowering > 1000, "only {lowering} lowering moves");
    }

    #[test]
    fn swapped_pairs_are_exactly_the_pairs_that_commute_and_swapped_robots_commute_always() {
        let (mut same, mut different, mut whole_robots) = (0, 0, 0);
        for (puzzle, cells) in placements(300) {
            if cells.len() < 2 {
                continue;
            }
            let setup = Setup::new(&puzzle);
            let table = Table::new(8, 8);
            let tables = MoveTables::new(puzzle.board());
            let dirs = Direction::ALL;
            for a in 0..cells.len() {
                for a_dir in 0..4 {
                    let mut after_a = cells.clone();
                    after_a[a] = tables.slide(&cells, a, dirs[a_dir]);
                    if after_a[a] == cells[a] {
                        continue;
                    }
                    for b in (0..cells.len()).filter(|&b| b != a) {
                        let all_commute = worker(&setup, &table, &after_a)
                            .all_moves_commute(a, a_dir, cells[a], b);
                        whole_robots += usize::from(all_commute);
                        for b_dir in 0..4 {
                            let mut a_then_b = after_a.clone();
                            a_then_b[b] = tables.slide(&after_a, b, dirs[b_dir]);
                            let mut b_then_a = cells.clone();
                            b_then_a[b] = tables.slide(&cells, b, dirs[b_dir]);
                            b_then_a[a] = tables.slide(&b_then_a, a, dirs[a_dir]);
                            let mut w = worker(&setup, &table, &after_a);
                            let b_to = a_then_b[b];
                            let b_to = (b_to, setup.geometry.column_index[usize::from(b_to)]);
                            let says = w.commutes(a, a_dir, cells[a], b, b_dir, b_to);
                            assert!(
                                !all_commute || a_then_b == b_then_a,
                                "{cells:?}: robot {b} dir {b_dir} does not commute with robot \
                                 {a} dir {a_dir}, though all its moves are said to"
                            );
                            assert_eq!(
                                says,
                                a_then_b == b_then_a,
                                "{cells:?}: robot {a} dir {a_dir}, then robot {b} dir {b_dir}"
                            );
                            // The check leaves the worker's robots where they were.
                            assert_eq!(&w.cells[..cells.len()], &after_a[..]);
                            if says {
                                same += 1;
                            } else {
                                different += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(
            same > 1000 && different > 1000 && whole_robots > 1000,
            "{same} swapped, {different} not, {whole_robots} whole robots swapped"
        );
    }

    /// Checks, on random placements, that every helper move `skipped` says may be left out
    /// (given the board's tables, the target robot's cell and the helper's move) leaves the
    /// outcome of the target robot's last-moves search as it was; returns how many it checked.
    fn check_skipped_helper_moves(skipped: impl Fn(&CellSets, u16, u16, u16) -> bool) -> usize {
        let mut checked = 0;
        for (puzzle, cells) in placements(400) {
            let Some(active) = puzzle.active_robot() else {
                continue;
            };
            let setup = Setup::new(&puzzle);
            setup.geometry.prepare_last_moves();
            let table = Table::new(8, 8);
            let g = &setup.geometry;
            let sets = g.cell_sets().expect("prepared above");
            let bound = g.rook(cells[active]);
            if unreachable(bound) || bound == 0 {
                continue;
            }
            let outcome = |cells: &[u16]| {
                let mut w = worker(&setup, &table, cells);
                w.descend(active, 0, bound) == Ok(true)
            };
            let before = outcome(&cells);
            let w = worker(&setup, &table, &cells);
            for helper in (0..cells.len()).filter(|&h| h != active) {
                for dir in 0..4 {
                    let (to, _) = w.slide(helper, dir);
                    if !skipped(sets, cells[active], cells[helper], to) {
                        continue;
                    }
                    let mut moved = cells.clone();
                    moved[helper] = to;
                    assert_eq!(outcome(&moved), before, "{cells:?} helper {helper} to {to}");
                    checked += 1;
                }
            }
        }
        checked
    }

    #[test]
    fn helper_moves_outside_the_region_never_change_the_last_moves_search() {
        let checked = check_skipped_helper_moves(|sets, target, from, to| {
            !sets.in_region(target, from) && !sets.in_region(target, to)
        });
        assert!(checked > 500, "only {checked} helper moves checked");
    }

    #[test]
    fn helpers_outside_the_region_never_change_the_last_moves_search() {
        let checked =
            check_skipped_helper_moves(|sets, target, from, _| !sets.may_matter(target, from));
        assert!(checked > 500, "only {checked} helper moves checked");
    }

    /// Whether the robot `active` stands on `goal` after at most `moves` moves of any robots
    /// from `cells`, by the model's slides.
    fn solvable_within(
        tables: &MoveTables,
        cells: &mut Vec<u16>,
        active: usize,
        goal: u16,
        moves: u32,
    ) -> bool {
        if cells[active] == goal {
            return true;
        }
        if moves == 0 {
            return false;
        }
        for robot in 0..cells.len() {
            for dir in Direction::ALL {
                let from = cells[robot];
                let to = tables.slide(cells, robot, dir);
                if to == from {
                    continue;
                }
                cells[robot] = to;
                let found = solvable_within(tables, cells, active, goal, moves - 1);
                cells[robot] = from;
                if found {
                    return true;
                }
            }
        }
        false
    }

    #[test]
    fn helper_moves_skipped_with_two_to_spare_never_open_a_solution() {
        // The skip is sound when a solution after the helper's move, with the bound plus one
        // moves, means one from the node without it: the node itself with a move fewer.
        let (mut checked, mut skipped_while_solvable) = (0, 0);
        for (puzzle, cells) in placements(600) {
            let Some(active) = puzzle.active_robot() else {
                continue;
            };
            if cells.len() < 2 {
                continue;
            }
            let setup = Setup::new(&puzzle);
            setup.geometry.prepare_last_moves();
            let table = Table::new(8, 8);
            let bound = setup.geometry.rook(cells[active]);
            // Small bounds keep the exhaustive check below quick.
            if unreachable(bound) || bound == 0 || bound > 3 {
                continue;
            }
            let tables = MoveTables::new(puzzle.board());
            let goal = setup.goal;
            let w = worker(&setup, &table, &cells);
            let sets = setup.geometry.cell_sets().expect("prepared above");
            let Some(spare) = w.spare_move_candidates(sets, 2, bound + 2, bound) else {
                continue;
            };
            let without = solvable_within(&tables, &mut cells.clone(), active, goal, bound + 1);
            for helper in (0..cells.len()).filter(|&h| h != active) {
                if spare.candidates & (1 << helper) == 0 {
                    continue;
                }
                for dir in 0..4 {
                    let (to, _) = w.slide(helper, dir);
                    if to == cells[helper] || !w.spare_move_cannot_matter(&spare, helper, to) {
                        continue;
                    }
                    let mut moved = cells.clone();
                    moved[helper] = to;
                    let with = solvable_within(&tables, &mut moved, active, goal, bound + 1);
                    assert!(
                        !with || without,
                        "{cells:?}: helper {helper} to {to} opens a solution in {} moves",
                        bound + 1
                    );
                    checked += 1;
                    skipped_while_solvable += u32::from(with);
                }
            }
        }
        assert!(checked > 300, "only {checked} helper moves checked");
        assert!(
            skipped_while_solvable > 10,
            "only {skipped_while_solvable} checked moves left a solution to find"
        );
    }
}
