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

use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Cell, Direction, Move, MoveTables, Puzzle, ReplayError, RobotColor};
use crate::solver::key::{KeyLayout, StateKey, with_key_width};
use crate::solver::min_moves::{UNREACHABLE, min_moves};
use crate::solver::{
    Limits, Optimality, Outcome, Probe, Report, Search, SolveError, SolverOptions, SolverRef, Stop,
};
use rustc_hash::FxHashMap;
use std::collections::BinaryHeap;
use std::time::Duration;

/// How many solutions are listed when no other cap is given.
pub const DEFAULT_MAX_SOLUTIONS: usize = 1_000;

/// The most moves left that the dead-state table records (one bit per count in a word).
const MAX_TABLE_DEPTH: u32 = 63;

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
    let listing = list_optimal(puzzle, depth, max_solutions, &rest, probe);
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
/// optimal solver found it), within the limits: at most `max_solutions`, replayed and sorted.
pub fn list_optimal<P: Probe>(
    puzzle: &Puzzle,
    depth: u32,
    max_solutions: usize,
    limits: &Limits,
    probe: &mut P,
) -> Listing {
    let mut search = Search::new(probe, limits);
    let found = with_key_width!(puzzle, |layout, Key| {
        Lister::<Key>::new(puzzle, layout, max_solutions).run(depth, &mut search)
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

/// The listing search's state.
struct Lister<'a, K: StateKey> {
    puzzle: &'a Puzzle,
    layout: KeyLayout,
    tables: MoveTables,
    /// The rook bound of every cell towards the goal.
    bound: Vec<u16>,
    colors: Vec<RobotColor>,
    no_rebound: bool,
    /// Per state, a bit for each number of moves left with which it led to no solution
    /// moving only the robots of `allowed`.
    dead: FxHashMap<K, u64>,
    cells: [Cell; MAX_ROBOTS],
    last_dir: [Option<Direction>; MAX_ROBOTS],
    path: Vec<Move>,
    /// How many moves of the path each robot made.
    moves_by_robot: [u32; MAX_ROBOTS],
    /// The robots that may move in this search (a bit per robot index).
    allowed: u32,
    /// Set once the heap is full and a further solution was seen, while searching sets that
    /// can only rank lower: the search then ends at once.
    done: bool,
    /// The cap.
    max_solutions: usize,
    found: Found,
}

impl<'a, K: StateKey> Lister<'a, K> {
    fn new(puzzle: &'a Puzzle, layout: KeyLayout, max_solutions: usize) -> Self {
        let mut cells = [0; MAX_ROBOTS];
        let start = puzzle.robot_cells();
        cells[..start.len()].copy_from_slice(&start);
        Lister {
            puzzle,
            layout,
            tables: MoveTables::new(puzzle.board()),
            bound: min_moves(puzzle.board(), puzzle.goal_cell()),
            colors: puzzle.robots().iter().map(|r| r.color).collect(),
            no_rebound: puzzle.rules().no_rebound,
            dead: FxHashMap::default(),
            cells,
            last_dir: [None; MAX_ROBOTS],
            path: Vec::new(),
            moves_by_robot: [0; MAX_ROBOTS],
            allowed: 0,
            done: false,
            max_solutions,
            found: Found {
                best: BinaryHeap::new(),
                more: false,
                stopped: None,
                rejected: Vec::new(),
            },
        }
    }

    /// Searches the sets of robots in order of size (the empty set covers a goal already
    /// reached), keeping the best solutions, until the list is known to be complete or known
    /// to hold the best `max_solutions` with more beyond.
    fn run<P: Probe>(mut self, depth: u32, search: &mut Search<'_, P>) -> Found {
        let n = self.colors.len();
        let mut sets: Vec<u32> = (0..1u32 << n).collect();
        sets.sort_by_key(|set| set.count_ones());
        for set in sets {
            // A solution moving more robots than every kept one ranks below them all: once
            // the heap is full and more are known to exist, larger sets have nothing to add.
            let full = self.found.best.len() >= self.max_solutions;
            let kept_robots = self.found.best.peek().map_or(0, |worst| worst.robots);
            if full && self.found.more && moves_robots(set) > kept_robots {
                break;
            }
            self.allowed = set;
            self.dead.clear();
            if let Err(stop) = self.visit(depth, search) {
                self.found.stopped = Some(stop);
                break;
            }
        }
        self.found
    }

    /// The bound of robot `robot`: the rook moves it needs, or more than any depth when it
    /// cannot take the goal. A robot outside the set never moves, so it takes the goal in no
    /// moves when it stands there and never otherwise.
    fn robot_bound(&self, robot: usize) -> u32 {
        match self.puzzle.active_robot() {
            Some(active) if active != robot => u32::MAX,
            _ if self.allowed & (1 << robot) == 0 => {
                if self.cells[robot] == self.puzzle.goal_cell() {
                    0
                } else {
                    u32::MAX
                }
            }
            _ => {
                let b = self.bound[usize::from(self.cells[robot])];
                if b == UNREACHABLE {
                    u32::MAX
                } else {
                    u32::from(b)
                }
            }
        }
    }

    /// Offers the current path, which solves the puzzle, to the kept solutions when it moves
    /// every robot of the set (one that moves fewer was kept by a smaller set's search).
    fn keep_path(&mut self) {
        let moved = (0..self.colors.len())
            .filter(|&r| self.moves_by_robot[r] > 0)
            .fold(0u32, |set, r| set | 1 << r);
        if moved != self.allowed {
            return;
        }
        let moves = self.path.clone();
        if let Err(error) = self.puzzle.replay(&moves) {
            self.found.rejected.push((moves, error));
            return;
        }
        let full = self.found.best.len() >= self.max_solutions;
        if full
            && self
                .found
                .best
                .peek()
                .is_none_or(|worst| worst.robots < moves_robots(moved))
        {
            // Ranks below every kept one: all it says is that the list is incomplete, and
            // nothing more is to be learnt from this set.
            self.found.more = true;
            self.done = true;
            return;
        }
        let best = &mut self.found.best;
        best.push(Ranked::new(moves));
        if best.len() > self.max_solutions {
            best.pop();
            self.found.more = true;
        }
    }

    /// Searches every sequence of `left` more moves of the allowed robots from the current
    /// state. Returns whether any of them reached the goal (false only when the subtree was
    /// searched whole and none did).
    fn visit<P: Probe>(&mut self, left: u32, search: &mut Search<'_, P>) -> Result<bool, Stop> {
        search.tick()?;
        let n = self.colors.len();
        if left == 0 {
            if self.puzzle.is_goal(&self.cells[..n]) {
                self.keep_path();
                return Ok(true);
            }
            return Ok(false);
        }
        let bound = (0..n)
            .map(|r| self.robot_bound(r))
            .min()
            .unwrap_or(u32::MAX);
        if bound > left {
            return Ok(false);
        }
        let key: Option<K> = (left <= MAX_TABLE_DEPTH)
            .then(|| self.layout.key(&self.cells[..n], &self.last_dir[..n]));
        if let Some(key) = key
            && self
                .dead
                .get(&key)
                .is_some_and(|bits| bits & (1 << left) != 0)
        {
            return Ok(false);
        }
        let mut any = false;
        for robot in 0..n {
            if self.allowed & (1 << robot) == 0 {
                continue;
            }
            // With no move to spare, only a robot that can take the goal in time may move.
            if bound == left && self.robot_bound(robot) != left {
                continue;
            }
            for dir in Direction::ALL {
                if self.no_rebound && self.last_dir[robot] == Some(dir.opposite()) {
                    continue;
                }
                let from = self.cells[robot];
                let to = self.tables.slide(&self.cells[..n], robot, dir);
                if to == from {
                    continue;
                }
                let previous_dir = self.last_dir[robot];
                self.cells[robot] = to;
                self.last_dir[robot] = Some(dir);
                self.path.push(Move::new(self.colors[robot], dir));
                self.moves_by_robot[robot] += 1;
                let result = self.visit(left - 1, search);
                self.moves_by_robot[robot] -= 1;
                self.path.pop();
                self.cells[robot] = from;
                self.last_dir[robot] = previous_dir;
                any |= result?;
                if self.done {
                    // Nothing is marked dead on the way out: the search was not finished.
                    return Ok(true);
                }
            }
        }
        if !any && let Some(key) = key {
            *self.dead.entry(key).or_insert(0) |= 1 << left;
            if self.dead.len().is_multiple_of(4096) {
                let bytes = self.dead.capacity()
                    * (std::mem::size_of::<K>() + std::mem::size_of::<u64>() + 1);
                search.set_memory(bytes)?;
            }
        }
        Ok(any)
    }
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
