//! Analyses built on the solvers rather than algorithms of their own: every optimal solution
//! of a position, hints drawn from them, and exact distances from every placement.

pub mod all_solutions;
pub mod distances;
pub mod first_solution;
pub mod hints;
mod walk;

use crate::model::{Cell, Puzzle};
use crate::solver::min_moves::UNREACHABLE;

/// The bound of robot `robot` in a search that moves only the robots of `set` (a bit per
/// robot), standing on `cells`, towards a goal whose rook-move table is `bound`: the rook moves
/// it needs, or more than any depth when it cannot take the goal. A robot outside the set never
/// moves, so it takes the goal in no moves when it stands there and never otherwise.
#[inline]
pub(crate) fn robot_bound(
    puzzle: &Puzzle,
    set: u32,
    cells: &[Cell],
    bound: &[u16],
    robot: usize,
) -> u32 {
    match puzzle.active_robot() {
        Some(active) if active != robot => u32::MAX,
        _ if set & (1 << robot) == 0 => {
            if cells[robot] == puzzle.goal_cell() {
                0
            } else {
                u32::MAX
            }
        }
        _ => {
            let b = bound[usize::from(cells[robot])];
            if b == UNREACHABLE {
                u32::MAX
            } else {
                u32::from(b)
            }
        }
    }
}
