//! The blocker bound: the rook bound counts the target robot's moves as if it could stop
//! anywhere, but a robot stops only at a wall or against a robot. A stop away from a wall
//! needs a blocker on the next cell, and a blocker that is not already there costs at least
//! one helper move.
//!
//! **Why it is admissible.** Take any solution from a node, and the target robot's path in it:
//! stops `s1, ..., sk` (the last one the target), reached by moves in directions
//! `d1, ..., dk`. The path has `k >= R` moves (`R`, the rook bound, counts moves that may stop
//! anywhere). A stop `si` that is not the wall stop of its move has a robot on the cell `bi`
//! next to it in direction `di` at that moment, and that robot is not the target robot. When
//! no helper stands on `bi` at the node, some helper move must end on `bi` before; moves end
//! on one cell each, so distinct such cells take distinct helper moves. The solution thus has
//! at least `k + b` moves, `b` the number of distinct blocker cells the path needs that no
//! helper holds now. Counting only paths of `R` moves with at most one such cell, and paths of
//! `R + 1` moves with none, every solution has at least `R + g` moves, where `g` (the *gain*,
//! at most two) is 0 when a path of `R` moves needs no blocker, 1 when some path of `R` moves
//! needs one blocker cell or one of `R + 1` moves needs none, and 2 otherwise.
//!
//! The gain is computed once per cell as if no helper stood anywhere, and used only at nodes
//! whose helpers all stand outside the cell's region: the last-moves region for a gain of one
//! (only paths of `R` moves count), the spare-move region for a gain of two. Every cell a
//! blocker of such a path stands on lies in those regions (the cells up to one past the
//! farthest cell of the right bound on each ray, and the regions of those cells; see
//! [`super::regions`]), so the helpers outside leave the gain as it is. Gains only cut where
//! they pass the moves left: with the moves left equal to the bound (instead of the last-moves
//! search) and one more (instead of expanding the node).

use super::control::Control;
use super::worker::Worker;

impl<C: Control, const NO_REBOUND: bool> Worker<'_, C, NO_REBOUND> {
    /// The least number of moves the node needs, with `left` moves to go and rook bound
    /// `bound`: the bound raised by the gain of the target robot's cell where that cuts (with
    /// `left` equal to the bound or one more) and no helper stands in the region the gain
    /// needs empty; otherwise the bound itself.
    #[inline(always)]
    pub fn blocker_bound(&self, bound: u32, left: u32) -> u32 {
        let (Some(sets), Some(active)) = (self.setup.cell_sets(), self.setup.active) else {
            return bound;
        };
        let target = self.cells[active];
        let gain = sets.blocker_gain(target);
        let helpers = (0..self.setup.robots).filter(|&robot| robot != active);
        if left == bound && gain >= 1 {
            if helpers
                .clone()
                .all(|robot| !sets.in_region(target, self.cells[robot]))
            {
                return bound + 1;
            }
        } else if left == bound + 1
            && gain >= 2
            && helpers
                .clone()
                .all(|robot| !sets.in_spare_region(target, self.cells[robot]))
        {
            return bound + 2;
        }
        bound
    }
}

#[cfg(test)]
mod tests {
    use super::super::setup::Setup;
    use super::super::table::Table;
    use super::super::testing::{placements_on, worker};
    use crate::model::Rules;
    use crate::solver::Limits;
    use crate::solver::Outcome;
    use crate::solver::stops::unreachable;
    use crate::testing::report_within;
    use std::time::Duration;

    #[test]
    fn the_blocker_bound_never_passes_the_optimum_of_bfs_under_any_rule() {
        let rules = [
            Rules::default(),
            Rules {
                ricochet: true,
                no_rebound: false,
            },
            Rules {
                ricochet: false,
                no_rebound: true,
            },
        ];
        let (mut checked, mut raised_by_two) = (0, 0);
        let limits = Limits {
            time: Some(Duration::from_secs(1)),
            memory_bytes: Some(256 << 20),
            cancel: None,
        };
        for (i, (puzzle, cells)) in placements_on(1500, 3..=7, 4, 11).into_iter().enumerate() {
            let Some(active) = puzzle.active_robot() else {
                continue;
            };
            let puzzle = puzzle
                .with_rules(rules[i % rules.len()])
                .with_robot_cells(&cells);
            let setup = Setup::new(&puzzle);
            setup.prepare_cell_sets();
            let table = Table::new(8, 8);
            let w = worker(&setup, &table, &cells);
            let bound = setup.rook(cells[active]);
            if unreachable(bound) || bound == 0 {
                continue;
            }
            for left in [bound, bound + 1] {
                let raised = w.blocker_bound(bound, left);
                if raised <= bound {
                    continue;
                }
                // No solution in fewer than `raised` moves (breadth first finds a shortest).
                let report = report_within("bfs", &puzzle, &limits);
                match &report.outcome {
                    Outcome::Solved { moves } => assert!(
                        moves.len() as u32 >= raised,
                        "{cells:?} under {:?}: bound {raised}, yet {moves:?}",
                        puzzle.rules()
                    ),
                    Outcome::Unsolvable { .. } => {}
                    // Too big to settle here: proves nothing either way.
                    _ => continue,
                }
                checked += 1;
                raised_by_two += u32::from(raised == bound + 2);
            }
        }
        assert!(
            checked > 200 && raised_by_two > 20,
            "only {checked} raised bounds checked, {raised_by_two} by two"
        );
    }
}
