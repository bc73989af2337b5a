//! One thread's search of a set of robots for the listing: a depth-first search that moves
//! only the set's robots, every one of them, keeping each solution it meets and marking dead
//! states so that no part is searched twice.

use super::{MAX_TABLE_DEPTH, Pace, Ranked, Shared, Unit, moves_robots};
use crate::model::{Move, MoveTables, Puzzle, RobotColor};
use crate::solver::Stop;
use crate::solver::analysis::walk::Walk;
use crate::solver::key::{KeyLayout, StateKey};
use crate::solver::min_moves::min_moves;
use rustc_hash::FxHashMap;
use std::sync::atomic::Ordering;

/// One thread's listing search.
pub(super) struct Lister<'a, K: StateKey, T: Pace> {
    pub(super) puzzle: &'a Puzzle,
    pub(super) layout: KeyLayout,
    pub(super) tables: MoveTables,
    /// The rook bound of every cell towards the goal.
    pub(super) bound: Vec<u16>,
    pub(super) colors: Vec<RobotColor>,
    pub(super) no_rebound: bool,
    /// The fewest moves a solution may have (2 under the ricochet rule).
    pub(super) min_len: usize,
    /// Per state, a bit for each number of moves left with which it led to no solution
    /// moving only the robots of `allowed`, in the part this thread searched.
    pub(super) dead: FxHashMap<K, u64>,
    /// The bytes of `dead` counted in the shared memory.
    pub(super) reported_bytes: usize,
    /// Where the search stands.
    pub(super) walk: Walk,
    /// The robots that may move in this search (a bit per robot index).
    pub(super) allowed: u32,
    /// While cutting units: the path length at which a node becomes a unit.
    pub(super) split: Option<usize>,
    /// The units cut.
    pub(super) units: Vec<Unit>,
    /// The cap.
    pub(super) max_solutions: usize,
    pub(super) shared: &'a Shared,
    pub(super) pace: T,
}

impl<'a, K: StateKey, T: Pace> Lister<'a, K, T> {
    pub(super) fn new(
        puzzle: &'a Puzzle,
        layout: KeyLayout,
        max_solutions: usize,
        shared: &'a Shared,
        pace: T,
    ) -> Self {
        Lister {
            puzzle,
            layout,
            tables: MoveTables::new(puzzle.board()),
            bound: min_moves(puzzle.board(), puzzle.goal_cell()),
            colors: puzzle.robots().iter().map(|r| r.color).collect(),
            no_rebound: puzzle.rules().no_rebound,
            min_len: puzzle.rules().min_solution_len(),
            dead: FxHashMap::default(),
            reported_bytes: 0,
            walk: Walk::at_start(puzzle),
            allowed: 0,
            split: None,
            units: Vec::new(),
            max_solutions,
            shared,
            pace,
        }
    }

    /// Readies the search of one set of robots: its own dead states, from the start.
    pub(super) fn start_set(&mut self, set: u32) {
        self.allowed = set;
        self.dead.clear();
        self.walk.restart(self.puzzle);
    }

    /// Takes work units from the shared counter and searches each with `left` moves, until
    /// none is left, the set's search is done, or the listing stops.
    pub(super) fn take_units(&mut self, units: &[Unit], left: u32) -> Option<Stop> {
        loop {
            let index = self.shared.next_unit.fetch_add(1, Ordering::Relaxed);
            if index >= units.len() || self.shared.done.load(Ordering::Relaxed) {
                return None;
            }
            let unit = &units[index];
            self.walk.resume(&unit.walk);
            if let Err(stop) = self.visit(left) {
                return Some(stop);
            }
        }
    }

    /// The bound of robot `robot` (see [`robot_bound`](crate::solver::analysis::robot_bound)).
    pub(super) fn robot_bound(&self, robot: usize) -> u32 {
        crate::solver::analysis::robot_bound(
            self.puzzle,
            self.allowed,
            &self.walk.cells,
            &self.bound,
            robot,
        )
    }

    /// Offers the current path, which solves the puzzle, to the kept solutions when it moves
    /// every robot of the set (one that moves fewer was kept by a smaller set's search).
    pub(super) fn keep_path(&mut self) {
        let moved = (0..self.colors.len())
            .filter(|&r| self.walk.moves_by_robot[r] > 0)
            .fold(0u32, |set, r| set | 1 << r);
        if moved != self.allowed {
            return;
        }
        let moves = self.walk.path.clone();
        let replayed = self.puzzle.replay(&moves);
        let mut found = self.shared.found();
        if let Err(error) = replayed {
            found.rejected.push((moves, error));
            return;
        }
        let full = found.best.len() >= self.max_solutions;
        if full
            && found
                .best
                .peek()
                .is_none_or(|worst| worst.robots < moves_robots(moved))
        {
            // Ranks below every kept one: all it says is that the list is incomplete, and
            // nothing more is to be learnt from this set.
            found.more = true;
            self.shared.done.store(true, Ordering::Relaxed);
            return;
        }
        found.best.push(Ranked::new(moves));
        if found.best.len() > self.max_solutions {
            found.best.pop();
            found.more = true;
        }
    }

    /// Searches every sequence of `left` more moves of the allowed robots from the current
    /// state. Returns whether any of them reached the goal (false only when the subtree was
    /// searched whole and none did). While cutting units, a node at the split depth becomes a
    /// unit and counts as holding a solution (nothing above it may be marked dead).
    pub(super) fn visit(&mut self, left: u32) -> Result<bool, Stop> {
        if left > 0 && self.split == Some(self.walk.path.len()) {
            self.units.push(Unit {
                walk: self.walk.clone(),
            });
            return Ok(true);
        }
        self.pace.tick()?;
        let n = self.colors.len();
        if left == 0 {
            if self.puzzle.is_goal(&self.walk.cells[..n]) {
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
        let key: Option<K> = (left <= MAX_TABLE_DEPTH).then(|| {
            self.layout
                .key(&self.walk.cells[..n], &self.walk.last_dir[..n])
        });
        if let Some(key) = key
            && self
                .dead
                .get(&key)
                .is_some_and(|bits| bits & (1 << left) != 0)
        {
            return Ok(false);
        }
        // A move straight back by the robot that moved last stops where the same move from
        // the cell it came from stops, so a solution through it would give one a move shorter
        // than the optimum, or two when that move from there goes nowhere: none does, unless
        // that one would be too short to count (under the ricochet rule, on a 2x3 board, RS,
        // RN, RW is the first solution: RN from the start goes nowhere, and RW alone is one
        // move).
        let back = (self.walk.path.len() + left as usize >= self.min_len + 2)
            .then(|| self.walk.path.last())
            .flatten()
            .map(|last| Move::new(last.robot, last.dir.opposite()));
        let mut any = false;
        for robot in 0..n {
            if self.allowed & (1 << robot) == 0 {
                continue;
            }
            // With no move to spare, only a robot that can take the goal in time may move.
            if bound == left && self.robot_bound(robot) != left {
                continue;
            }
            let color = self.colors[robot];
            let moves = self
                .walk
                .moves(&self.tables, n, robot, color, self.no_rebound, back);
            for (dir, to) in moves {
                let made = self.walk.make(robot, color, dir, to);
                let result = self.visit(left - 1);
                self.walk.take_back(robot, made);
                any |= result?;
                if self.shared.done.load(Ordering::Relaxed) {
                    // Nothing is marked dead on the way out: the search was not finished.
                    return Ok(true);
                }
            }
        }
        if !any && let Some(key) = key {
            *self.dead.entry(key).or_insert(0) |= 1 << left;
            if self.dead.len().is_multiple_of(4096) {
                self.report_memory();
            }
        }
        Ok(any)
    }

    /// Counts this thread's dead-state table in the shared memory, which the calling thread
    /// checks against the limit at its next poll.
    pub(super) fn report_memory(&mut self) {
        let bytes =
            self.dead.capacity() * (std::mem::size_of::<K>() + std::mem::size_of::<u64>() + 1);
        if bytes > self.reported_bytes {
            self.shared
                .memory
                .fetch_add(bytes - self.reported_bytes, Ordering::Relaxed);
            self.reported_bytes = bytes;
        }
    }
}
