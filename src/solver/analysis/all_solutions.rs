//! Every optimal solution of a puzzle, not just one.
//!
//! An optimal solver first finds the optimal length `d`. A depth-first search then walks every
//! move sequence of exactly `d` moves that can still reach the goal, and keeps each one that
//! does:
//!
//! - **Bound.** The minimum-move (rook) table of the goal never overestimates, so a node whose
//!   bound exceeds the moves left is cut. When the bound equals the moves left, only the robots
//!   whose own bound equals it may move (a helper move would leave the bound unchanged with one
//!   move fewer).
//! - **Straight back.** The robot that moved last never moves straight back: it would stop
//!   where the same move from the cell it came from stops, so a solution through it would give
//!   one a move shorter than the optimum, or two shorter when that move goes nowhere (under the
//!   ricochet rule, only when that one would be long enough to count). A dead state marked on such a path stays true: a solution from the
//!   state by the move left out would make, with the path, an optimal solution through it.
//! - **Dead states.** A table remembers, per state, the numbers of moves left with which it was
//!   searched and led to no solution. Unlike an optimiser's table, this one must never cut a
//!   state that leads to a solution, and it does not: an entry is written only when the whole
//!   subtree below held none, and it is read only for the same number of moves left. States
//!   that differ only by swapping helpers share an entry (the goal does not care which helper
//!   stands where), and under the no-rebound rule the robots' last directions are part of it.
//!
//! Solutions are ranked by the number of robots moved, then by the number of robot changes,
//! then move by move in the order robots (R, G, B, Y, K) and directions (N, E, S, W) are listed
//! everywhere. A cap of `max_solutions` keeps the best that many of *all* the solutions, never
//! the first ones the search happens to meet, because the enumeration is ordered by the first
//! key: the search runs once per set of robots, smaller sets first, moving only the robots of
//! the set and keeping the solutions that move all of them. Within the sets of one size every
//! solution is found, replayed on the board and offered to a bounded heap that drops the
//! worst; once the heap is full, larger sets can only rank lower, so they are searched only
//! until one solution says the list is incomplete. Each set's search has its own dead-state
//! table (what a state cannot reach depends on which robots may move).
//!
//! **On every core.** Each set's search is cut, on the calling thread, at [`SPLIT_DEPTH`]
//! moves into work units that every thread takes in turn from a shared counter. Each thread
//! keeps its own dead-state table (an entry records only what that thread searched whole, so
//! it stays sound), and all offer their solutions to one shared bounded heap. The list does not
//! depend on the number of threads or on which thread found what: the heap keeps the best
//! `max_solutions` of all it is offered, and a solution skipped once the heap is full ranks
//! below every kept one, whichever moment it was skipped at. Only the calling thread polls the
//! limits and the probe; it stops the other threads through a flag, and counts their nodes
//! into its progress at every poll.
//!
//! Threads do not share their dead-state tables: a table in locked shards kept most of the
//! transpositions between threads, but its locks cost more than they saved. So two threads
//! visit about 1.75 times the nodes of one, and still finish in about 0.6 of its time.

mod lister;

use super::walk::Walk;
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Move, Puzzle, ReplayError, RobotColor};
use crate::solver::key::{KeyLayout, StateKey, with_key_width};
use crate::solver::{
    Limits, Optimality, Outcome, Probe, Report, Search, SolveError, SolverOptions, SolverRef, Stop,
};
use lister::Lister;
use std::collections::BinaryHeap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// How many solutions are listed when no other cap is given.
pub const DEFAULT_MAX_SOLUTIONS: usize = 1_000;

/// The most moves left that the dead-state table records (one bit per count in a word).
const MAX_TABLE_DEPTH: u32 = 63;

/// The moves after which a set's search is cut into work units: up to `(4k)^3` units for a set
/// of `k` robots, enough to keep every core busy to the end, few enough that cutting them is
/// nothing beside searching them.
pub const SPLIT_DEPTH: usize = 3;

/// Nodes between two looks at the shared flags (and, on the calling thread, at the limits and
/// the probe).
const POLL_INTERVAL: u32 = 1 << 12;

/// What an enumeration produced.
#[derive(Clone, Debug)]
pub struct Enumeration {
    /// The optimal solver's own run, which fixed the length.
    pub optimum: Report,
    /// The listing of every solution of that length, which ran after the optimal solver
    /// (empty when the solver did not solve the puzzle).
    pub listing: Listing,
}

/// Why the listing cannot run with this solver.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EnumerateError {
    /// The solver could not start.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The solver does not guarantee optimal answers, so it cannot fix the optimal length.
    #[error(
        "the {0} solver cannot list every optimal solution: it does not guarantee optimal \
         answers; choose an optimal solver such as fast, iddfs or bfs"
    )]
    NotOptimal(&'static str),
}

/// Finds the optimal length with the optimal solver `name`, then lists every optimal solution
/// (at most `max_solutions` of them; more found makes the list incomplete).
///
/// The limits hold for both parts together: the listing gets what time the solver left. The
/// probe sees both searches' progress and may stop either. When the solver does not solve the
/// puzzle (no solution, a limit), `solutions` is empty and `optimum` says why.
pub fn enumerate<P: Probe>(
    solver: impl SolverRef,
    puzzle: &Puzzle,
    options: &SolverOptions,
    max_solutions: usize,
    limits: &Limits,
    probe: &mut P,
) -> Result<Enumeration, EnumerateError> {
    enumerate_then(
        solver,
        puzzle,
        options,
        limits,
        probe,
        |probe, depth, rest| {
            list_optimal(puzzle, depth, max_solutions, options.threads, rest, probe)
        },
    )
}

/// As [`enumerate`], with the listing watched by a probe of its own (a command line shows
/// the solver's rows, then the listing's progress).
pub fn enumerate_watched<P: Probe, L: Probe>(
    solver: impl SolverRef,
    puzzle: &Puzzle,
    options: &SolverOptions,
    max_solutions: usize,
    limits: &Limits,
    probe: &mut P,
    listing_probe: &mut L,
) -> Result<Enumeration, EnumerateError> {
    enumerate_then(solver, puzzle, options, limits, probe, |_, depth, rest| {
        list_optimal(
            puzzle,
            depth,
            max_solutions,
            options.threads,
            rest,
            listing_probe,
        )
    })
}

/// Runs the optimal solver, then `list` with the optimal length and the limits it left.
fn enumerate_then<P: Probe>(
    solver: impl SolverRef,
    puzzle: &Puzzle,
    options: &SolverOptions,
    limits: &Limits,
    probe: &mut P,
    list: impl FnOnce(&mut P, u32, &Limits) -> Listing,
) -> Result<Enumeration, EnumerateError> {
    let id = solver.solver_id()?;
    let kind = id.kind();
    if kind.optimality != Optimality::Guaranteed {
        return Err(EnumerateError::NotOptimal(kind.name));
    }
    let optimum = crate::solver::run(id, puzzle, options, limits, probe)?;
    let Outcome::Solved { moves } = &optimum.outcome else {
        return Ok(Enumeration {
            optimum,
            listing: Listing::default(),
        });
    };
    let depth = moves.len() as u32;
    let rest = Limits {
        time: limits.time.map(|t| t.saturating_sub(optimum.elapsed)),
        ..limits.clone()
    };
    let listing = list(probe, depth, &rest);
    Ok(Enumeration { optimum, listing })
}

/// The optimal solutions of a puzzle whose optimal length is already known.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    /// The solutions found, sorted (see the module documentation), each replayed.
    pub solutions: Vec<Vec<Move>>,
    /// Whether they are all of them: false when capped or stopped.
    pub complete: bool,
    /// Why the listing stopped early, when a limit or a cancel stopped it.
    pub stopped: Option<Stop>,
    /// Sequences the search claimed that failed their replay (always empty unless there is a
    /// bug; they are never listed).
    pub rejected: Vec<(Vec<Move>, ReplayError)>,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Lists the solutions of exactly `depth` moves, which must be the optimal length (as an
/// optimal solver found it), within the limits: at most `max_solutions`, replayed and sorted,
/// on `threads` threads (`None`: one per core the system offers). The probe sees the nodes of
/// every thread.
pub fn list_optimal<P: Probe>(
    puzzle: &Puzzle,
    depth: u32,
    max_solutions: usize,
    threads: Option<usize>,
    limits: &Limits,
    probe: &mut P,
) -> Listing {
    let threads = threads
        .unwrap_or_else(crate::solver::fast::available_threads)
        .max(1);
    let mut search = Search::new(probe, limits);
    search.threads = threads;
    let found = with_key_width!(puzzle, |layout, Key| {
        list_sets::<Key, P>(puzzle, layout, depth, max_solutions, threads, &mut search)
    });
    let elapsed = search.elapsed();
    let nodes = search.nodes;
    // Ascending order of rank is the documented order.
    let solutions: Vec<Vec<Move>> = found
        .best
        .into_sorted_vec()
        .into_iter()
        .map(|ranked| ranked.moves)
        .collect();
    Listing {
        complete: !found.more && found.stopped.is_none() && found.rejected.is_empty(),
        solutions,
        stopped: found.stopped,
        rejected: found.rejected,
        nodes,
        elapsed,
    }
}

/// A solution with its rank: ordered by robots moved, then robot changes, then move by move.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Ranked {
    robots: usize,
    changes: usize,
    moves: Vec<Move>,
}

impl Ranked {
    fn new(moves: Vec<Move>) -> Self {
        Ranked {
            robots: robots_moved(&moves),
            changes: robot_changes(&moves),
            moves,
        }
    }
}

/// What the listing search hands back.
struct Found {
    /// The best solutions seen, at most the cap (a max-heap: the worst on top).
    best: BinaryHeap<Ranked>,
    /// Whether more solutions than the cap exist.
    more: bool,
    /// Why the search stopped early.
    stopped: Option<Stop>,
    /// Sequences whose replay failed.
    rejected: Vec<(Vec<Move>, ReplayError)>,
}

/// How many distinct robots a sequence moves.
pub fn robots_moved(moves: &[Move]) -> usize {
    let mut seen = [false; MAX_ROBOTS];
    for mv in moves {
        seen[mv.robot.index()] = true;
    }
    seen.iter().filter(|&&s| s).count()
}

/// How many times consecutive moves change robot.
pub fn robot_changes(moves: &[Move]) -> usize {
    moves
        .windows(2)
        .filter(|w| w[0].robot != w[1].robot)
        .count()
}

/// The robots a sequence moves, in the order they first move.
pub fn robots_in_order(moves: &[Move]) -> Vec<RobotColor> {
    let mut robots = Vec::new();
    for mv in moves {
        if !robots.contains(&mv.robot) {
            robots.push(mv.robot);
        }
    }
    robots
}

/// Sorts solutions by robots moved, then robot changes, then move by move.
pub fn sort_solutions(solutions: &mut [Vec<Move>]) {
    solutions.sort_by(|a, b| {
        (robots_moved(a), robot_changes(a), a).cmp(&(robots_moved(b), robot_changes(b), b))
    });
}

/// What every thread of a listing shares.
struct Shared {
    /// The kept solutions, offered by every thread.
    found: Mutex<Found>,
    /// Set once the heap is full and a further solution was seen, while searching sets that
    /// can only rank lower: the set's search then ends at once.
    done: AtomicBool,
    /// Set by the calling thread when a limit or a cancel stopped the listing.
    stop: AtomicBool,
    /// Nodes the other threads visited that the calling thread has not yet counted.
    nodes: AtomicU64,
    /// The bytes of every thread's dead-state table.
    memory: AtomicUsize,
    /// The next work unit to hand out.
    next_unit: AtomicUsize,
    /// The other threads that have finished the current set's units.
    helpers_done: AtomicUsize,
}

impl Shared {
    /// The kept solutions; a thread that panicked while holding them left them whole (every
    /// change under the lock is a single push or pop), so a poisoned lock is still read.
    fn found(&self) -> std::sync::MutexGuard<'_, Found> {
        self.found.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A node of a set's search at [`SPLIT_DEPTH`] moves, searched whole by whichever thread
/// takes it.
struct Unit {
    walk: Walk,
}

/// How a thread counts its nodes and learns that it must stop.
trait Pace {
    /// Counts one node; fails when the listing must stop.
    fn tick(&mut self) -> Result<(), Stop>;
    /// Hands over the nodes counted since the last poll.
    fn flush(&mut self);
}

/// The calling thread's pace: it counts every thread's nodes into the search and polls the
/// limits and the probe, and stops the other threads when they say stop.
struct MainPace<'s, 'p, P: Probe> {
    search: &'s mut Search<'p, P>,
    shared: &'s Shared,
    countdown: u32,
}

impl<P: Probe> MainPace<'_, '_, P> {
    /// Counts the other threads' nodes, checks the memory of every table and polls the
    /// limits and the probe.
    #[cold]
    fn poll(&mut self) -> Result<(), Stop> {
        self.countdown = POLL_INTERVAL;
        self.flush();
        let memory = self.shared.memory.load(Ordering::Relaxed);
        let result = self
            .search
            .set_memory(memory)
            .and_then(|()| self.search.poll());
        if result.is_err() {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        result
    }
}

impl<P: Probe> Pace for MainPace<'_, '_, P> {
    #[inline(always)]
    fn tick(&mut self) -> Result<(), Stop> {
        self.search.nodes += 1;
        self.countdown -= 1;
        if self.countdown == 0 {
            return self.poll();
        }
        Ok(())
    }

    fn flush(&mut self) {
        self.search.nodes += self.shared.nodes.swap(0, Ordering::Relaxed);
    }
}

/// Another thread's pace: it hands its nodes to the calling thread and stops when told.
struct HelperPace<'s> {
    shared: &'s Shared,
    countdown: u32,
}

impl Pace for HelperPace<'_> {
    #[inline(always)]
    fn tick(&mut self) -> Result<(), Stop> {
        self.countdown -= 1;
        if self.countdown == 0 {
            self.flush();
            if self.shared.stop.load(Ordering::Relaxed) {
                // The calling thread records why.
                return Err(Stop::Cancelled);
            }
        }
        Ok(())
    }

    fn flush(&mut self) {
        let counted = u64::from(POLL_INTERVAL - self.countdown);
        self.shared.nodes.fetch_add(counted, Ordering::Relaxed);
        self.countdown = POLL_INTERVAL;
    }
}

/// Searches the sets of robots in order of size (the empty set covers a goal already
/// reached), keeping the best solutions, until the list is known to be complete or known to
/// hold the best `max_solutions` with more beyond. Each set's search runs on `threads` threads.
fn list_sets<K: StateKey + Send, P: Probe>(
    puzzle: &Puzzle,
    layout: KeyLayout,
    depth: u32,
    max_solutions: usize,
    threads: usize,
    search: &mut Search<'_, P>,
) -> Found {
    let shared = Shared {
        found: Mutex::new(Found {
            best: BinaryHeap::new(),
            more: false,
            stopped: None,
            rejected: Vec::new(),
        }),
        done: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        memory: AtomicUsize::new(0),
        next_unit: AtomicUsize::new(0),
        helpers_done: AtomicUsize::new(0),
    };
    let pace = MainPace {
        search,
        shared: &shared,
        countdown: POLL_INTERVAL,
    };
    let mut main = Lister::<K, _>::new(puzzle, layout, max_solutions, &shared, pace);
    let mut helpers: Vec<_> = (1..threads)
        .map(|_| {
            let pace = HelperPace {
                shared: &shared,
                countdown: POLL_INTERVAL,
            };
            Lister::<K, _>::new(puzzle, layout, max_solutions, &shared, pace)
        })
        .collect();
    let n = main.colors.len();
    let mut sets: Vec<u32> = (0..1u32 << n).collect();
    sets.sort_by_key(|set| set.count_ones());
    let mut stopped = None;
    for set in sets {
        {
            // A solution moving more robots than every kept one ranks below them all: once
            // the heap is full and more are known to exist, larger sets have nothing to add.
            let found = shared.found();
            let full = found.best.len() >= max_solutions;
            let kept_robots = found.best.peek().map_or(0, |worst| worst.robots);
            if full && found.more && moves_robots(set) > kept_robots {
                break;
            }
        }
        shared.done.store(false, Ordering::Relaxed);
        shared.next_unit.store(0, Ordering::Relaxed);
        shared.helpers_done.store(0, Ordering::Relaxed);
        // The part above the units, on this thread, which also cuts them.
        main.start_set(set);
        main.split = Some(SPLIT_DEPTH);
        let shallow = main.visit(depth);
        main.split = None;
        if let Err(stop) = shallow {
            stopped = Some(stop);
            break;
        }
        let units = std::mem::take(&mut main.units);
        let left = depth.saturating_sub(SPLIT_DEPTH as u32);
        let units = &units;
        let stop = std::thread::scope(|scope| {
            let mut helper_count = 0;
            for helper in &mut helpers {
                helper.start_set(set);
                let spawned = std::thread::Builder::new()
                    .name("solutions-helper".to_string())
                    .spawn_scoped(scope, move || {
                        // Only the calling thread's stop counts; this one just ends.
                        let _ = helper.take_units(units, left);
                        helper.pace.flush();
                        helper.shared.helpers_done.fetch_add(1, Ordering::Release);
                    });
                // A thread the system refuses leaves its share to the others.
                helper_count += usize::from(spawned.is_ok());
            }
            let mut stop = main.take_units(units, left);
            // Keep honouring the limits while the other threads finish their last units.
            while stop.is_none() && shared.helpers_done.load(Ordering::Acquire) < helper_count {
                if let Err(error) = main.pace.poll() {
                    stop = Some(error);
                }
                std::thread::sleep(Duration::from_micros(200));
            }
            stop
        });
        if let Some(stop) = stop {
            stopped = Some(stop);
            break;
        }
    }
    drop(helpers);
    main.pace.flush();
    drop(main);
    let mut found = shared.found.into_inner().unwrap_or_else(|e| e.into_inner());
    found.stopped = stopped;
    // Threads meet failed replays in any order.
    found.rejected.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// The number of robots in a set.
fn moves_robots(set: u32) -> usize {
    set.count_ones() as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_moves;

    #[test]
    fn solutions_sort_by_robots_then_changes_then_moves() {
        let mut list: Vec<Vec<Move>> = ["GN, RS, GE", "RS, GN, RE", "RS, RE, RN", "RE, RS, RN"]
            .iter()
            .map(|s| parse_moves(s).unwrap())
            .collect();
        sort_solutions(&mut list);
        let text: Vec<String> = list.iter().map(|m| crate::model::format_moves(m)).collect();
        // One robot first; directions order N, E, S, W, so RE, RS, RN comes before RS, RE, RN.
        assert_eq!(text[0], "RE, RS, RN");
        assert_eq!(text[1], "RS, RE, RN");
        assert_eq!(text[2], "RS, GN, RE");
        assert_eq!(text[3], "GN, RS, GE");
        assert_eq!(robots_moved(&list[3]), 2);
        assert_eq!(robot_changes(&list[3]), 2);
    }
}
