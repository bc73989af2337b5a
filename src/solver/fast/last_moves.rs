//! The last-moves search: when the rook bound equals the moves left, only a robot that can
//! reach the target with every move lowering its bound can finish in time, and nobody else
//! has a move to spare. A small exact routine without table or keys searches that stretch,
//! sliding only in the directions whose ray holds a cell one bound lower.

use super::control::{Control, Halt};
use super::worker::Worker;

impl<C: Control, const NO_REBOUND: bool> Worker<'_, C, NO_REBOUND> {
    /// The last stretch: `left` equals the bound, so only robots whose own bound is `left`
    /// may move, and every move must lower it by one.
    pub fn finish_alone(&mut self, depth: u32, left: u32) -> Result<bool, Halt> {
        if depth + left < self.setup.min_len {
            return Ok(false);
        }
        match self.setup.active {
            Some(a) => self.descend(a, depth, left),
            None => {
                let mut found = false;
                for robot in 0..self.setup.robots {
                    if self.setup.rook(self.cells[robot]) == left
                        && self.descend(robot, depth, left)?
                    {
                        // Gathering, every robot's last moves are kept.
                        if !C::GATHERS {
                            return Ok(true);
                        }
                        found = true;
                    }
                }
                Ok(found)
            }
        }
    }

    /// Whether `robot` reaches the target in exactly `left` moves, each lowering its rook bound
    /// by one, with the other robots standing still. Pushes the moves when it does.
    pub fn descend(&mut self, robot: usize, depth: u32, left: u32) -> Result<bool, Halt> {
        if depth + left < self.setup.min_len {
            return Ok(false);
        }
        let setup = self.setup;
        let from = (self.cells[robot], self.columns[robot]);
        let from_dir = self.last_dirs[robot];
        // `left` is the robot's own bound here: only directions whose ray holds a cell one
        // lower can lower it.
        debug_assert_eq!(
            setup.rook(from.0),
            left,
            "descend starts at the robot's own bound"
        );
        let descents = setup.descents[usize::from(from.0)];
        // Gathering: the state, for the moves kept from it, and whether any was.
        let place = if C::GATHERS {
            (self.place(), self.key())
        } else {
            Default::default()
        };
        let mut gathered = false;
        for dir in 0..4 {
            if descents & (1 << dir) == 0 || self.reverses(robot, dir) {
                continue;
            }
            let to = self.slide(robot, dir);
            // The bound drops by at most one per move, so this also skips non-moves.
            if setup.rook(to.0) + 1 != left {
                continue;
            }
            self.set(robot, to);
            self.set_last_dir(robot, dir);
            self.path.push((robot as u8, dir as u8));
            self.counters.nodes += 1;
            self.profile_node();
            self.control.tick()?;
            self.node_event(depth + 1);
            // A bound of zero is the target itself.
            let found = if left == 1 {
                self.keep_goal();
                true
            } else {
                self.descend(robot, depth + 1, left - 1)?
            };
            if found {
                if !C::GATHERS {
                    return Ok(true);
                }
                self.keep_edge(place, left, robot as u8, dir as u8);
                gathered = true;
            }
            self.path.pop();
            self.set(robot, from);
            self.last_dirs[robot] = from_dir;
        }
        Ok(gathered)
    }
}

#[cfg(test)]
mod tests {
    use super::super::setup::Setup;
    use super::super::testing::placements;
    use crate::model::{Direction, MoveTables};

    #[test]
    fn every_move_that_lowers_the_bound_starts_in_a_descent_direction() {
        let mut lowering = 0;
        for (puzzle, cells) in placements(300) {
            let setup = Setup::new(&puzzle);
            let tables = MoveTables::new(puzzle.board());
            for robot in 0..cells.len() {
                let own = setup.rook(cells[robot]);
                for (dir, &direction) in Direction::ALL.iter().enumerate() {
                    let to = tables.slide(&cells, robot, direction);
                    if to != cells[robot] && setup.rook(to) + 1 == own {
                        lowering += 1;
                        assert!(
                            setup.descents[usize::from(cells[robot])] & (1 << dir) != 0,
                            "{cells:?}: robot {robot} lowers its bound going {direction:?}"
                        );
                    }
                }
            }
        }
        assert!(lowering > 1000, "only {lowering} lowering moves");
    }
}
