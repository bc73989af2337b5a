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
//! The search keeps at most `max_solutions` sequences; it notices when there are more and then
//! says the list is incomplete. Every kept sequence is replayed on the board, and the list is
//! sorted by the number of robots moved, then by the number of robot changes, then move by move
//! in the order robots (R, G, B, Y, K) and directions (N, E, S, W) are listed everywhere.

use super::key::{KeyLayout, StateKey, with_key_width};
use super::min_moves::{UNREACHABLE, min_moves};
use super::{
    Limits, Optimality, Outcome, Probe, Report, Search, SolveError, SolverOptions, SolverRef, Stop,
};
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Cell, Direction, Move, MoveTables, Puzzle, ReplayError, RobotColor};
use rustc_hash::FxHashMap;
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
    let optimum = super::run(id, puzzle, options, limits, probe)?;
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
    let (mut found, stopped) = list_at_depth(puzzle, depth, max_solutions, &mut search);
    let elapsed = search.elapsed();
    let nodes = search.nodes;
    let capped = found.len() > max_solutions;
    let mut solutions = Vec::with_capacity(found.len());
    let mut rejected = Vec::new();
    for moves in found.drain(..) {
        match puzzle.replay(&moves) {
            Ok(_) => solutions.push(moves),
            Err(error) => rejected.push((moves, error)),
        }
    }
    sort_solutions(&mut solutions);
    solutions.truncate(max_solutions);
    Listing {
        complete: !capped && stopped.is_none() && rejected.is_empty(),
        solutions,
        stopped,
        rejected,
        nodes,
        elapsed,
    }
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

/// Lists every sequence of exactly `depth` moves that solves the puzzle, stopping once
/// `max_solutions + 1` are found. A stop (a limit, a cancel) hands back what was found so far
/// and why it stopped.
pub fn list_at_depth<P: Probe>(
    puzzle: &Puzzle,
    depth: u32,
    max_solutions: usize,
    search: &mut Search<'_, P>,
) -> (Vec<Vec<Move>>, Option<Stop>) {
    with_key_width!(puzzle, |layout, Key| {
        Lister::<Key>::new(puzzle, layout, max_solutions).run(depth, search)
    })
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
    /// Per state, a bit for each number of moves left with which it led to no solution.
    dead: FxHashMap<K, u64>,
    cells: [Cell; MAX_ROBOTS],
    last_dir: [Option<Direction>; MAX_ROBOTS],
    path: Vec<Move>,
    found: Vec<Vec<Move>>,
    /// The search stops once it holds this many (one past the cap).
    enough: usize,
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
            found: Vec::new(),
            enough: max_solutions.saturating_add(1),
        }
    }

    fn run<P: Probe>(
        mut self,
        depth: u32,
        search: &mut Search<'_, P>,
    ) -> (Vec<Vec<Move>>, Option<Stop>) {
        let stopped = self.visit(depth, search).err();
        (self.found, stopped)
    }

    /// The bound of robot `robot`: the rook moves it needs, or more than any depth when it
    /// cannot take the goal.
    fn robot_bound(&self, robot: usize) -> u32 {
        match self.puzzle.active_robot() {
            Some(active) if active != robot => u32::MAX,
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

    /// Searches every sequence of `left` more moves from the current state. Returns whether
    /// any of them solved the puzzle.
    fn visit<P: Probe>(&mut self, left: u32, search: &mut Search<'_, P>) -> Result<bool, Stop> {
        search.tick()?;
        let n = self.colors.len();
        if left == 0 {
            if self.puzzle.is_goal(&self.cells[..n]) {
                self.found.push(self.path.clone());
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
                let result = self.visit(left - 1, search);
                self.path.pop();
                self.cells[robot] = from;
                self.last_dir[robot] = previous_dir;
                any |= result?;
                if self.found.len() >= self.enough {
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
