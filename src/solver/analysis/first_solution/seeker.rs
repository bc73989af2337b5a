//! One thread's search for the first optimal solution: a depth-first search of one set of
//! robots, with the dead states it has proved.

use super::spare::SpareRule;
use super::{MAX_TABLE_DEPTH, POLL_INTERVAL, Question, Shared, Unit};
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Cell, Move, MoveTables, Puzzle, RobotColor};
use crate::solver::analysis::walk::Walk;
use crate::solver::fast::regions::CellSets;
use crate::solver::key::{KeyLayout, StateKey};
use rustc_hash::FxHashMap;
use std::sync::atomic::Ordering;

/// The dead states of one set of robots, as one thread searched them.
#[derive(Default)]
pub(super) struct DeadStates<K> {
    /// What the thread knows of each state it reached.
    pub(super) states: FxHashMap<K, Seen>,
}

/// What one thread knows of a state.
///
/// A state reached before with more moves left has no solution with fewer: with the earlier
/// path, that would be a solution shorter than the optimum (when long enough to count). So
/// only the most moves left it was reached with are ever searched again, and the fewest
/// changes are kept for that number alone.
#[derive(Clone, Copy)]
pub(super) struct Seen {
    /// A bit for each number of moves left with which it has no solution.
    pub(super) dead: u64,
    /// The most moves left with which it was reached.
    pub(super) reached: u8,
    /// With `reached` moves left, the fewest robot changes any solution from it needs
    /// whichever robot moved last, the first move's own change not counted, as far as a
    /// search has proved.
    pub(super) free: u8,
    /// With `reached` moves left, per cell of the robot that moved last, the fewest robot
    /// changes any solution from it needs, as far as a search has proved (cell [`EMPTY`]:
    /// unused). The cell tells the robot apart where helpers that swap cells share a key.
    pub(super) after: [(Cell, u8); MAX_ROBOTS],
}

/// The cell of an unused slot of [`Seen::after`]: no robot stands there.
const EMPTY: Cell = Cell::MAX - 1;

impl Default for Seen {
    fn default() -> Self {
        Seen {
            dead: 0,
            reached: 0,
            free: 0,
            after: [(EMPTY, 0); MAX_ROBOTS],
        }
    }
}

impl Seen {
    /// The fewest changes proved after the robot at `last_cell` moved, with `reached` moves
    /// left.
    fn proved_after(&self, last_cell: Cell) -> u32 {
        self.after
            .iter()
            .find(|(cell, _)| *cell == last_cell)
            .map_or(0, |&(_, needs)| u32::from(needs))
    }

    /// Keeps `needs` as proved after the robot at `last_cell` moved, with `reached` moves
    /// left.
    fn prove_after(&mut self, last_cell: Cell, needs: u32) {
        let needs = u8::try_from(needs).unwrap_or(u8::MAX);
        // A set has at most `MAX_ROBOTS` robots, so a slot is found: its own or an unused one.
        if let Some(slot) = self
            .after
            .iter_mut()
            .find(|(cell, _)| *cell == last_cell || *cell == EMPTY)
        {
            slot.0 = last_cell;
            slot.1 = slot.1.max(needs);
        }
    }
}

/// What a unit's search says.
pub(super) enum Visit {
    /// The path is a solution: the search stops.
    Found,
    /// No solution below within the budget, searched whole: a solution from here needs at
    /// least this many more robot changes ([`NEVER`]: there is none with any budget).
    Dead(u32),
    /// Cut short (an earlier unit answered, or a stop): nothing may be marked dead.
    Cut,
}

/// The changes of a state with no solution at all.
pub(super) const NEVER: u32 = u32::MAX;

/// One thread's search.
pub(super) struct Seeker<'a, K: StateKey> {
    pub(super) puzzle: &'a Puzzle,
    pub(super) layout: KeyLayout,
    pub(super) tables: MoveTables,
    pub(super) bound: Vec<u16>,
    /// The cell sets of `fast`'s rules for helper moves that cannot matter.
    pub(super) sets: Option<&'a CellSets>,
    pub(super) colors: Vec<RobotColor>,
    pub(super) no_rebound: bool,
    pub(super) min_len: usize,
    /// The dead states of the current question's set.
    pub(super) dead: DeadStates<K>,
    /// The dead states of the other sets searched, kept for their later questions.
    pub(super) stored: FxHashMap<u32, DeadStates<K>>,
    /// The bytes of `dead` last counted in the shared memory.
    pub(super) reported_bytes: usize,
    /// Where the search stands.
    pub(super) walk: Walk,
    pub(super) changes: u32,
    pub(super) question: Question,
    /// The most robot changes now: the question's, or less in a question of the fewest
    /// changes once solutions have been found.
    pub(super) budget_now: u32,
    pub(super) split: Option<usize>,
    /// The unit being searched.
    pub(super) unit: usize,
    pub(super) countdown: u32,
    pub(super) counted: u64,
}

impl<'a, K: StateKey> Seeker<'a, K> {
    pub(super) fn new(
        puzzle: &'a Puzzle,
        layout: KeyLayout,
        tables: MoveTables,
        bound: Vec<u16>,
        sets: Option<&'a CellSets>,
    ) -> Self {
        Seeker {
            puzzle,
            layout,
            tables,
            bound,
            sets,
            colors: puzzle.robots().iter().map(|r| r.color).collect(),
            no_rebound: puzzle.rules().no_rebound,
            min_len: puzzle.rules().min_solution_len(),
            dead: DeadStates::default(),
            stored: FxHashMap::default(),
            reported_bytes: 0,
            walk: Walk::at_start(puzzle),
            changes: 0,
            question: Question {
                set: 0,
                budget: None,
                fewest: false,
            },
            budget_now: NEVER,
            split: None,
            unit: 0,
            countdown: POLL_INTERVAL,
            counted: 0,
        }
    }

    /// Readies a question, from the start position, with the dead states of its set.
    pub(super) fn start(&mut self, question: Question) {
        if question.set != self.question.set {
            let tables = self.stored.remove(&question.set).unwrap_or_default();
            let done = std::mem::replace(&mut self.dead, tables);
            self.stored.insert(self.question.set, done);
        }
        self.question = question;
        self.budget_now = question.budget.unwrap_or(NEVER);
        self.walk.restart(self.puzzle);
        self.changes = 0;
    }

    /// Forgets the dead states of the sets `keep` refuses.
    pub(super) fn keep_only(&mut self, keep: impl Fn(u32) -> bool) {
        self.stored.retain(|&set, _| keep(set));
        if !keep(self.question.set) {
            self.dead = DeadStates::default();
        }
    }

    /// Takes units in turn and searches each with `left` moves, until none is left, an
    /// earlier unit than the next has answered, or the search stops.
    pub(super) fn take_units(&mut self, units: &[Unit], left: u32, shared: &Shared) {
        self.countdown = POLL_INTERVAL;
        self.counted = 0;
        loop {
            let index = shared.next_unit.fetch_add(1, Ordering::Relaxed);
            if index >= units.len()
                || index > shared.first_found.load(Ordering::Relaxed)
                || shared.stop.load(Ordering::Relaxed)
            {
                break;
            }
            let unit = &units[index];
            self.unit = index;
            self.walk.resume(&unit.walk);
            self.changes = unit.changes;
            if let Visit::Found = self.visit(left, shared) {
                shared.first_found.fetch_min(index, Ordering::Relaxed);
                shared
                    .found
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((index, self.walk.path.clone()));
            }
        }
        shared.nodes.fetch_add(self.counted, Ordering::Relaxed);
        self.counted = 0;
        self.report_memory(shared);
    }

    /// Cuts the search into units at the split depth, in the order moves are tried.
    pub(super) fn cut(&mut self, left: u32, units: &mut Vec<Unit>) {
        if self.split == Some(self.walk.path.len()) {
            units.push(Unit {
                walk: self.walk.clone(),
                changes: self.changes,
            });
            return;
        }
        let Some(bound) = self
            .move_bound(left)
            .filter(|_| self.changes + self.changes_needed() <= self.budget())
        else {
            return;
        };
        self.for_each_move(left, bound, |seeker, left, _| {
            if let Some(left) = left {
                seeker.cut(left, units);
            }
            false
        });
    }

    /// The smallest robot bound, or `None` when the goal is out of reach in `left` moves.
    #[inline]
    pub(super) fn move_bound(&self, left: u32) -> Option<u32> {
        let n = self.colors.len();
        let bound = (0..n)
            .map(|r| self.robot_bound(r))
            .min()
            .unwrap_or(u32::MAX);
        (bound <= left).then_some(bound)
    }

    /// The most robot changes now (`NEVER`: no budget).
    #[inline]
    pub(super) fn budget(&self) -> u32 {
        self.budget_now
    }

    /// The fewest changes the rest of a solution needs for the robots of the set that have
    /// not moved yet (0 with no budget, where they are not counted).
    #[inline]
    pub(super) fn changes_needed(&self) -> u32 {
        let n = self.colors.len();
        if self.question.budget.is_some() {
            // Every robot of the set that has not moved must still be switched to, and so
            // must the target's robot when it stands off the target and did not move last.
            let last = self.walk.path.last().map(|mv| mv.robot);
            let active = self.puzzle.active_robot();
            let mut entered = (0..n)
                .filter(|&r| {
                    self.question.set & (1 << r) != 0
                        && self.walk.moves_by_robot[r] == 0
                        && Some(r) != active
                })
                .count() as u32;
            if let Some(a) = active
                && self.question.set & (1 << a) != 0
                && (self.walk.moves_by_robot[a] == 0
                    || (last != Some(self.colors[a])
                        && self.walk.cells[a] != self.puzzle.goal_cell()))
            {
                entered += 1;
            }
            // Switching to a robot is a change, but for the very first move.
            if self.walk.path.is_empty() {
                entered.saturating_sub(1)
            } else {
                entered
            }
        } else {
            0
        }
    }

    /// Tries each move the listing's cuts allow, in the listing's order, and calls `child`
    /// on the state after it with the move's change (0 or 1); stops when `child` says so and
    /// returns whether it did. A robot the budget leaves no change for is not tried: that
    /// it would have needed one is told to `child` as `(None, 1)`.
    #[inline]
    pub(super) fn for_each_move(
        &mut self,
        left: u32,
        bound: u32,
        mut child: impl FnMut(&mut Self, Option<u32>, u32) -> bool,
    ) -> bool {
        let n = self.colors.len();
        // A move straight back by the robot that moved last stops where the same move from
        // the cell it came from stops, so a solution through it would give one a move shorter
        // than the optimum: none does, unless that one would be too short to count.
        let back = (self.walk.path.len() + left as usize > self.min_len)
            .then(|| self.walk.path.last())
            .flatten()
            .map(|last| Move::new(last.robot, last.dir.opposite()));
        let last_robot = self.walk.path.last().map(|mv| mv.robot);
        // A question of the fewest changes tries the robot that moved last first, so that
        // solutions with few changes, which lower its budget, come early.
        let first = if self.question.fewest {
            last_robot.and_then(|color| self.colors.iter().position(|&c| c == color))
        } else {
            None
        };
        // Helper moves that cannot matter near the leaves; the rules need the target robot
        // among the robots that move.
        let active = self
            .puzzle
            .active_robot()
            .filter(|&a| self.question.set & (1 << a) != 0);
        let rule = SpareRule::at(
            self.sets,
            &self.walk.cells[..n],
            active,
            self.walk.path.len() as u32,
            left,
            bound,
            self.min_len as u32,
        );
        for i in 0..n {
            let robot = match first {
                Some(f) if i == 0 => f,
                Some(f) if i <= f => i - 1,
                _ => i,
            };
            if self.question.set & (1 << robot) == 0
                || rule.skips_robot(robot, self.walk.cells[robot], active)
            {
                continue;
            }
            // With no move to spare, only a robot that can take the goal in time may move.
            if bound == left && self.robot_bound(robot) != left {
                continue;
            }
            let change = u32::from(last_robot.is_some_and(|last| last != self.colors[robot]));
            if self.question.budget.is_some() && self.changes + change > self.budget() {
                if child(self, None, change) {
                    return true;
                }
                continue;
            }
            let color = self.colors[robot];
            let from = self.walk.cells[robot];
            for (dir, to) in self
                .walk
                .moves(&self.tables, n, robot, color, self.no_rebound, back)
            {
                if rule.skips_move(&self.walk.cells[..n], robot, active, from, to) {
                    continue;
                }
                let made = self.walk.make(robot, color, dir, to);
                self.changes += change;
                let stop = child(self, Some(left - 1), change);
                if stop {
                    // The path stays as found.
                    return true;
                }
                self.changes -= change;
                self.walk.take_back(robot, made);
            }
        }
        false
    }

    /// The bound of robot `robot` (see [`robot_bound`](crate::solver::analysis::robot_bound)).
    #[inline]
    pub(super) fn robot_bound(&self, robot: usize) -> u32 {
        crate::solver::analysis::robot_bound(
            self.puzzle,
            self.question.set,
            &self.walk.cells,
            &self.bound,
            robot,
        )
    }

    /// Counts a node; says whether the search must end (a stop, or an earlier unit answered).
    #[inline(always)]
    pub(super) fn tick(&mut self, shared: &Shared) -> bool {
        self.counted += 1;
        self.countdown -= 1;
        if self.countdown == 0 {
            return self.poll(shared);
        }
        false
    }

    #[cold]
    pub(super) fn poll(&mut self, shared: &Shared) -> bool {
        self.countdown = POLL_INTERVAL;
        shared.nodes.fetch_add(self.counted, Ordering::Relaxed);
        self.counted = 0;
        self.report_memory(shared);
        // Another thread's solution may have lowered the budget.
        self.budget_now = self.budget_now.min(shared.budget.load(Ordering::Relaxed));
        shared.stop.load(Ordering::Relaxed)
            || shared.first_found.load(Ordering::Relaxed) < self.unit
    }

    /// Searches every sequence of `left` more moves from the current state, in the listing's
    /// order, until one solves the puzzle.
    pub(super) fn visit(&mut self, left: u32, shared: &Shared) -> Visit {
        if self.tick(shared) {
            return Visit::Cut;
        }
        let n = self.colors.len();
        if left == 0 {
            return if !self.puzzle.is_goal(&self.walk.cells[..n]) {
                Visit::Dead(NEVER)
            } else if self.question.fewest {
                self.offer_fewest(shared);
                // Nothing more is needed from here; the budget is now below this solution.
                Visit::Dead(0)
            } else {
                Visit::Found
            };
        }
        let Some(bound) = self.move_bound(left) else {
            return Visit::Dead(NEVER);
        };
        let needed = self.changes_needed();
        if self.changes + needed > self.budget() {
            return Visit::Dead(needed);
        }
        let key: Option<K> = (left <= MAX_TABLE_DEPTH).then(|| {
            self.layout
                .key(&self.walk.cells[..n], &self.walk.last_dir[..n])
        });
        let last_cell = self.last_cell();
        let remaining = self.budget().saturating_sub(self.changes);
        if let Some(key) = key {
            let depth = self.walk.path.len() as u32;
            let min_len = self.min_len as u32;
            let seen = self.dead.states.entry(key).or_default();
            if seen.dead & (1 << left) != 0 {
                return Visit::Dead(NEVER);
            }
            // Reached before with more moves left: no solution with this many (see `Seen`).
            let reached = u32::from(seen.reached);
            if left < reached && depth + left - reached + left >= min_len {
                return Visit::Dead(NEVER);
            }
            if left > reached {
                *seen = Seen {
                    dead: seen.dead,
                    reached: left as u8,
                    ..Seen::default()
                };
            }
            if self.question.budget.is_some() && left == u32::from(seen.reached) {
                // The robot that moved last first; the bound for any robot when that is not
                // enough.
                let mut needs = seen.proved_after(last_cell);
                if needs <= remaining {
                    needs = needs.max(u32::from(seen.free));
                }
                if needs > remaining {
                    return Visit::Dead(needs);
                }
            }
        }
        // The fewest changes the children proved they need, each with its own move's; and
        // without it, for the robot that moved last unknown.
        let mut needs = NEVER;
        let mut free = NEVER;
        let mut cut = false;
        let found = self.for_each_move(left, bound, |seeker, left, change| {
            let child = match left {
                Some(left) => seeker.visit(left, shared),
                // Not tried: the change itself is past the budget.
                None => Visit::Dead(0),
            };
            match child {
                Visit::Found => true,
                Visit::Dead(child_needs) => {
                    needs = needs.min(child_needs.saturating_add(change));
                    free = free.min(child_needs);
                    false
                }
                Visit::Cut => {
                    cut = true;
                    true
                }
            }
        });
        if cut {
            return Visit::Cut;
        }
        if found {
            return Visit::Found;
        }
        if let Some(key) = key {
            let seen = self.dead.states.entry(key).or_default();
            if needs == NEVER {
                // Dead with no change counted: dead with any budget.
                seen.dead |= 1 << left;
            } else if u32::from(seen.reached) == left {
                seen.prove_after(last_cell, needs);
                seen.free = seen.free.max(u8::try_from(free).unwrap_or(u8::MAX));
            }
            if self.dead.states.len().is_multiple_of(4096) {
                self.report_memory(shared);
            }
        }
        Visit::Dead(needs)
    }

    /// Keeps the path as the solution with the fewest changes, when it has fewer than any
    /// found before, and lowers every thread's budget below it.
    #[cold]
    fn offer_fewest(&mut self, shared: &Shared) {
        let changes = self.changes;
        let mut fewest = shared.fewest.lock().unwrap_or_else(|e| e.into_inner());
        if fewest.as_ref().is_none_or(|(known, _)| changes < *known) {
            *fewest = Some((changes, self.walk.path.clone()));
        }
        let below = changes.saturating_sub(1);
        shared.budget.fetch_min(below, Ordering::Relaxed);
        self.budget_now = self.budget_now.min(below);
    }

    /// The cell of the robot that moved last (`u16::MAX` before any move).
    pub(super) fn last_cell(&self) -> u16 {
        self.walk
            .path
            .last()
            .and_then(|mv| self.puzzle.robot_index(mv.robot))
            .map_or(u16::MAX, |r| self.walk.cells[r])
    }

    /// Counts this thread's tables in the shared memory.
    pub(super) fn report_memory(&mut self, shared: &Shared) {
        let bytes: usize = std::iter::once(&self.dead)
            .chain(self.stored.values())
            .map(|tables| tables.states.capacity() * (std::mem::size_of::<(K, Seen)>() + 1))
            .sum();
        if bytes > self.reported_bytes {
            shared
                .memory
                .fetch_add(bytes - self.reported_bytes, Ordering::Relaxed);
        } else {
            shared
                .memory
                .fetch_sub(self.reported_bytes - bytes, Ordering::Relaxed);
        }
        self.reported_bytes = bytes;
    }
}
