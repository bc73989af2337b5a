//! The reachability proof: whether any goal state can be reached from the start at all.
//! Deepening alone cannot prove that a puzzle has no solution, since the table's cuts leave
//! every iteration looking as if a deeper one might find more.

use super::CLOSURE_STATES;
use super::control::NoControl;
use super::driver::Driver;
use super::worker::Worker;
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Direction, Move};
use crate::solver::profile::MAX_PROFILE_DEPTH;
use crate::solver::{Probe, Search, Stop};

/// The first moves to a state, as far as a node profile reads them.
type Prefix = [Option<Move>; MAX_PROFILE_DEPTH];

impl<const NO_REBOUND: bool> Driver<'_, NO_REBOUND> {
    /// Whether no goal state can be reached from the start at all: a breadth-first walk over
    /// every reachable state, given up (`false`) past [`CLOSURE_STATES`] states or when its
    /// memory would pass the limit. Deepening alone cannot prove this: the table's cuts leave
    /// every iteration looking as if a deeper one might find more.
    pub(super) fn goal_unreachable<P: Probe>(
        &self,
        search: &mut Search<'_, P>,
    ) -> Result<bool, Stop> {
        if !self.setup.use_table {
            return Ok(false);
        }
        // A state takes its queue entry, its key in the set and the set's spare room.
        let most = self.table.bytes() + self.setup.bytes() + CLOSURE_STATES * 48;
        if search.reserve_memory(most).is_err() {
            return Ok(false);
        }
        let column_index = &self.setup.tables.column_index;
        let n = self.setup.robots;
        let mut walker = Worker::<_, NO_REBOUND>::new(self.setup, &self.table, NoControl, 0);
        let mut seen: rustc_hash::FxHashSet<u64> = rustc_hash::FxHashSet::default();
        let mut queue: Vec<([u16; MAX_ROBOTS], [u8; MAX_ROBOTS])> = Vec::new();
        seen.insert(walker.key());
        queue.push((walker.cells, walker.last_dirs));
        // The first moves that reached each queued state, kept only when the run profiles
        // nodes per move prefix: this walk's states count as the run's nodes too.
        let mut prefixes: Vec<Prefix> = Vec::new();
        if P::PROFILES {
            prefixes.push([None; MAX_PROFILE_DEPTH]);
        }
        let mut head = 0;
        while head < queue.len() {
            let (cells, last_dirs) = queue[head];
            let prefix: Prefix = if P::PROFILES {
                prefixes.get(head).copied().unwrap_or_default()
            } else {
                [None; MAX_PROFILE_DEPTH]
            };
            head += 1;
            // Profiled before the tick, so a node counted as the run stops is profiled too.
            search.probe.profile_node(|| prefix.into_iter().flatten());
            search.tick()?;
            for (robot, &cell) in cells[..n].iter().enumerate() {
                walker.set(robot, (cell, column_index[usize::from(cell)]));
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
                        if P::PROFILES {
                            let mut longer = prefix;
                            if let Some(free) = longer.iter_mut().find(|m| m.is_none()) {
                                let color = self.setup.colors[robot];
                                *free = Some(Move::new(color, Direction::ALL[dir]));
                            }
                            prefixes.push(longer);
                        }
                    }
                    walker.set(robot, from);
                    walker.last_dirs[robot] = last_dirs[robot];
                }
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CLOSURE_DEPTH, NAME};
    use crate::model::Pos;
    use crate::solver::Outcome;
    use crate::testing::{red_and_green, run};

    #[test]
    fn a_goal_no_state_reaches_is_proved_unreachable() {
        // On an empty board two robots never stop in the middle: each stops at a wall or
        // next to the other, which stands at a wall or next to the first. Yet the rook bound
        // of the middle is two, so deepening alone would go on to its cap.
        let puzzle = red_and_green(64, 64, Pos::new(0, 0), Pos::new(63, 0), Pos::new(31, 31));
        let report = run(NAME, &puzzle, None);
        assert_eq!(report.outcome, Outcome::Unsolvable { within: None });
        // Proved when the deepening reached the check, not at the cap.
        assert!(report.depths.iter().all(|d| d.depth < CLOSURE_DEPTH));
    }
}
