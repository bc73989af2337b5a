//! The fastest optimal solver here: iterative-deepening A* (IDA*) over packed states with a
//! lock-free transposition table, an exact search of the last moves, prefetched table reads
//! and every core on big searches.
//!
//! The search is iterative deepening on the number of moves, like Fogleman's IDDFS, but every
//! part of it is built for speed:
//!
//! - **Slides** read a stop table per cell and direction and resolve robots in the way with a
//!   few integer comparisons (see [`crate::solver::stops`]); nothing is allocated in the search.
//! - **States** are packed into one word: the target robot's cell, then the other robots'
//!   cells sorted (all robots sorted for the vortex), so positions that differ only by
//!   swapping helpers share an entry. Two to four cells are sorted by a sorting network
//!   (conditional moves, no calls): 2.8%, 2.8%, 3.0% and 2.8% fewer instructions than the
//!   general sort on real-21, hansel-24, hardest-25 and fogleman-22 (one thread, same nodes).
//! - **The transposition table** ([`table`]) stores, per state, the most moves left with which
//!   it was searched, and the iteration that wrote it; a state reached again with no more moves
//!   left is cut. Keys are mixed by a bijection, so a hit is never a collision. It grows
//!   between iterations; every search thread writes its fresh memory.
//! - **Swapped pairs.** When the moves of two robots give the same state in either order, only
//!   one order is searched: the robot that comes first in the move order moves first.
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
//! - **Straight back.** The robot that moved last never moves straight back: it would stop
//!   where the same move from the cell it came from stops (or on that cell), so a solution
//!   through it would give one a move shorter, and shorter lengths are proved impossible. On
//!   the hard puzzles this cuts a tenth of the nodes the table would otherwise meet twice.
//!   With swapped pairs, these are the only moves the path restricts.
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
//!   sets (`regions`) are built once a search passes a few thousand nodes.
//! - **Bounds.** The minimum-move (rook) bound `R` of the target robot's cell. When `R` equals
//!   the moves left, only the target robot can move and every move must lower `R` by one: that
//!   last stretch is searched by a small exact routine without table or keys, which slides
//!   only in the directions whose ray holds a cell of bound `R - 1`. A node that fails
//!   reports the least number of moves its children proved they need; an iteration whose root
//!   proves more than one extra move skips the iterations in between. The blocker bound
//!   (`blockers`) adds what the rook bound ignores: a stop away from a wall needs a robot on
//!   the next cell, and one that is not there costs a helper move. Per cell it knows whether
//!   the target robot needs one or two moves more than `R` when no helper stands in the
//!   cell's region, and cuts with the moves left equal to `R` (no last-moves search) or
//!   `R + 1` (no children): 3-4% of the nodes of the hard puzzles.
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
//!
//! The parts, one concern each: `setup` (what every thread reads), `driver` (the iterations and
//! the table's growth), `gather` (every optimal solution at once, as a graph, `solution_graph`), `parallel` (work
//! units for every core), `control` (how a thread is stopped), `worker` (one thread's state,
//! slides and keys), `node` (the search of one node), `last_moves` (the exact search of the
//! last moves), the pruning rules `swaps`, `one_to_spare` and `two_to_spare`, the blocker bound
//! (`blockers`), the per-cell tables built before a search (`cell_tables`), the cell sets they
//! read (`regions`), the work units (`units`), the table ([`table`]) and the reachability proof
//! (`reachability`).
//!
//! What was tried on this solver and measured, and why it was left out, is kept with its
//! figures in `docs/fast-solver-notes.md`, so the next change starts from what is known.

mod blockers;
mod cell_tables;
mod control;
mod driver;
pub(crate) mod gather;
mod last_moves;
mod node;
mod one_to_spare;
mod parallel;
mod reachability;
pub(crate) mod regions;
mod setup;
pub(crate) mod solution_graph;
mod swaps;
pub mod table;
#[cfg(test)]
mod testing;
mod two_to_spare;
mod units;
mod worker;

use self::driver::Driver;
use self::setup::Setup;
use self::table::Table;
use super::heuristics::Heuristic;
use super::{
    Columns, DECK_COLUMNS, Optimality, Probe, RuleSupport, Search, SearchEnd, SearchShape,
    SolverKind, SolverOptions,
};
use crate::model::Puzzle;

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
    rules: RuleSupport::BOTH,
    columns: Columns {
        inner: "expanded",
        ..DECK_COLUMNS
    },
    deepest_limit: Some(MAX_DEPTH),
    shape: SearchShape::DepthFirst(Some(Heuristic::MinMoves)),
};

algorithm!(
    /// The tuned optimal solver in the registry.
    Fast, KIND
);

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

/// From this many bucket bits (2^21 buckets: 64 MiB) on, the table grows only when it
/// overflows, and then to twice its size. Memory touched for the first time is costly (the
/// kernel zeroes every page, and on virtual machines the host backs it too): the hard puzzles
/// searched the same nodes within 0.05% in 64 MiB as in the 128 MiB the fourfold growth gave
/// them, and 4-12% faster.
const LARGE_BUCKET_BITS: u32 = 21;

/// Solves a puzzle with the fast IDA*.
///
/// On big searches (and when the probe does not want events) `options.threads` threads (one
/// per core by default) search together: they are scoped, joined before this returns, and stop
/// when the main thread sees the time limit, the cancel flag or the probe ask to stop. The
/// table takes memory up to 512 MiB as the search grows; past the memory limit the run stops
/// with [`Stop::MemoryLimit`](super::Stop::MemoryLimit).
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

/// Moves as (robot index, direction index) pairs.
type Path = Vec<(u8, u8)>;
