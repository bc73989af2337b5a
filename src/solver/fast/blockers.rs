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
use crate::solver::min_moves::UNREACHABLE;
use crate::solver::stops::{EAST, StopTables, WEST};

/// The most blocker cells kept per cell while the gains are built; a cell with more is
/// treated as having every cell as a possible blocker (a smaller gain: still a lower bound).
const MOST_BLOCKERS: usize = 64;

/// The blocker cells with which the target robot reaches the target from a cell in its rook
/// bound of moves, every stop away from a wall against that one cell.
#[derive(Clone, Debug)]
enum Blockers {
    /// Any cell (also: no blocker needed at all, or too many to keep).
    Any,
    /// Only these cells, sorted.
    Only(Vec<u16>),
}

impl Blockers {
    fn allows(&self, cell: u16) -> bool {
        match self {
            Blockers::Any => true,
            Blockers::Only(cells) => cells.binary_search(&cell).is_ok(),
        }
    }
}

/// The row-major cell of the wall stop of `cell` in `dir`.
fn wall_stop(tables: &StopTables, cell: usize, dir: usize) -> usize {
    let stop = tables.stops[cell][dir];
    usize::from(if dir == EAST || dir == WEST {
        stop
    } else {
        tables.cell_of_column[usize::from(stop)]
    })
}

/// Per row-major cell, its gain (see the module notes): 0, 1 or 2 moves beyond the rook
/// bound that the target robot needs from there with no helper in the cell's region. Cells
/// that cannot reach the target have 0.
pub(super) fn blocker_gains(tables: &StopTables) -> Vec<u8> {
    let rook = &tables.rook;
    let cells = tables.cells();
    let mut order: Vec<usize> = (0..cells).filter(|&c| rook[c] != UNREACHABLE).collect();
    order.sort_by_key(|&c| rook[c]);
    // The stops of a move that lower the bound by one (or keep it) that are wall stops.
    let wall_stops = |cell: usize, step: u16| {
        (0..4)
            .map(move |dir| wall_stop(tables, cell, dir))
            .filter(move |&to| to != cell && rook[to] + step == rook[cell])
    };
    // Paths of the rook bound's length with wall stops only.
    let mut free = vec![false; cells];
    for &cell in &order {
        free[cell] = rook[cell] == 0 || wall_stops(cell, 1).any(|to| free[to]);
    }
    // Paths of that length with every other stop against one blocker cell.
    let mut blockers: Vec<Blockers> = vec![Blockers::Only(Vec::new()); cells];
    for &cell in &order {
        if free[cell] {
            blockers[cell] = Blockers::Any;
            continue;
        }
        let own = rook[cell];
        let mut found: Vec<u16> = Vec::new();
        let mut any = false;
        for dir in 0..4 {
            let ray: Vec<usize> = tables.ray(cell, dir).collect();
            for (i, &at) in ray.iter().enumerate() {
                if rook[at] + 1 != own {
                    continue;
                }
                match (&blockers[at], ray.get(i + 1)) {
                    // A wall stop: the path on needs its own blockers.
                    (Blockers::Only(cells), None) => found.extend_from_slice(cells),
                    // Only when too many were kept: a free wall stop makes the cell free.
                    (Blockers::Any, None) => any = true,
                    // Stopped against the next cell, which then must be the one blocker.
                    (on, Some(&next)) => {
                        if on.allows(next as u16) {
                            found.push(next as u16);
                        }
                    }
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        blockers[cell] = if any || found.len() > MOST_BLOCKERS {
            Blockers::Any
        } else {
            Blockers::Only(found)
        };
    }
    // Paths one move longer with wall stops only: one move keeps the bound.
    let mut spare_free = vec![false; cells];
    for &cell in &order {
        spare_free[cell] =
            wall_stops(cell, 1).any(|to| spare_free[to]) || wall_stops(cell, 0).any(|to| free[to]);
    }
    (0..cells)
        .map(|cell| {
            let one_blocker = match &blockers[cell] {
                Blockers::Any => true,
                Blockers::Only(c) => !c.is_empty(),
            };
            if rook[cell] == UNREACHABLE || free[cell] {
                0
            } else if one_blocker || spare_free[cell] {
                1
            } else {
                2
            }
        })
        .collect()
}

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
