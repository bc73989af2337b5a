//! Pruning rule: swapped pairs. When the moves of two robots give the same state in either
//! order, only one order is searched: the robot that comes first in the move order moves
//! first (see the module notes of [`super`] for why no shortest solution is lost). Most pairs
//! are far apart, and four range comparisons say so; only the others take the two test
//! slides. A robot whose cross misses the last move's path is passed over before it is slid.

use super::control::Control;
use super::worker::Worker;
use crate::solver::stops::{EAST, WEST};

impl<C: Control, const NO_REBOUND: bool> Worker<'_, C, NO_REBOUND> {
    /// Whether robot `b`'s move in direction `b_dir` to `b_to`, made right after robot `a`
    /// moved in direction `a_dir` from `a_from`, gives the same state when the two moves are
    /// made the other way round: `b` slides to the same cell with `a` still at `a_from`, and
    /// `a` then slides to where it stands now.
    #[inline(always)]
    pub fn commutes(
        &mut self,
        a: usize,
        a_dir: usize,
        a_from: u16,
        b: usize,
        b_dir: usize,
        b_to: (u16, u16),
    ) -> bool {
        let column_index = &self.setup.tables.column_index;
        let a_now = (self.cells[a], self.columns[a]);
        let b_now = (self.cells[b], self.columns[b]);
        let a_from = (a_from, column_index[usize::from(a_from)]);
        // Most pairs are far apart: when neither robot stands, before or after, on the other's
        // path or on the cell that stopped it, neither slide can depend on the other.
        if apart(a_dir, a_from, a_now, b_now, b_to) && apart(b_dir, b_now, b_to, a_from, a_now) {
            return true;
        }
        let b_to = b_to.0;
        self.set(a, a_from);
        let b_first = self.slide(b, b_dir);
        let same = b_first.0 == b_to && {
            self.set(b, b_first);
            let a_second = self.slide(a, a_dir);
            a_second.0 == a_now.0
        };
        self.set(a, a_now);
        self.set(b, b_now);
        same
    }

    /// Whether every move robot `b` can make commutes with robot `a`'s move in direction
    /// `a_dir` from `a_from` to where it stands now, as [`Worker::commutes`] would find for
    /// each. It does when `a`'s path, both ends included, misses `b`'s cross (its rays up to
    /// the walls, on which every cell `b` can stop on lies):
    ///
    /// - `b`'s slide cannot depend on `a`: a robot in `b`'s way stands on a ray short of its
    ///   wall, and `a` stands on its path before and after.
    /// - `a`'s slide cannot depend on `b`: `b` stands on its cross before and after, off `a`'s
    ///   path. The one other cell `a`'s slide reads is the one past its end, when no wall lies
    ///   between. `b` standing there before its move would put `a`'s last cell on `b`'s ray.
    ///   `b` ending its move there would too: along `a`'s line, the last cell is then on `b`'s
    ///   path or the one that stopped `b` (with no wall between, only `a` can have); across
    ///   it, that cell was empty when `a` moved, so `a` was stopped by a wall, not by it.
    #[inline(always)]
    pub fn all_moves_commute(&self, a: usize, a_dir: usize, a_from: u16, b: usize) -> bool {
        let crosses = &self.setup.crosses;
        let from = crosses[usize::from(a_from)];
        let now = crosses[usize::from(self.cells[a])];
        let rays = crosses[usize::from(self.cells[b])];
        if a_dir == EAST || a_dir == WEST {
            let path = from.x.min(now.x)..=from.x.max(now.x);
            let meets_row =
                rays.y == now.y && rays.west <= *path.end() && rays.east >= *path.start();
            let meets_column = path.contains(&rays.x) && (rays.north..=rays.south).contains(&now.y);
            !meets_row && !meets_column
        } else {
            let path = from.y.min(now.y)..=from.y.max(now.y);
            let meets_column =
                rays.x == now.x && rays.north <= *path.end() && rays.south >= *path.start();
            let meets_row = path.contains(&rays.y) && (rays.west..=rays.east).contains(&now.x);
            !meets_row && !meets_column
        }
    }
}

/// Whether cells `p` and `q` (row-major, column-major) both lie off the stretch a robot
/// slid in direction `dir` from `from` to `to`, widened by one cell at each end (where a robot
/// would have stopped it). Along a row the stretch has consecutive row-major indices, along a
/// column consecutive column-major ones, so this is two range checks (a cell just past a row's
/// end falls in the range too: the check may say no when the robots are apart, never yes when
/// they are not).
#[inline(always)]
fn apart(dir: usize, from: (u16, u16), to: (u16, u16), p: (u16, u16), q: (u16, u16)) -> bool {
    let (from, to, p, q) = if dir == EAST || dir == WEST {
        (from.0, to.0, p.0, q.0)
    } else {
        (from.1, to.1, p.1, q.1)
    };
    let low = from.min(to).saturating_sub(1);
    let high = from.max(to).saturating_add(1);
    let outside = |c: u16| c < low || c > high;
    outside(p) && outside(q)
}

#[cfg(test)]
mod tests {
    use super::super::setup::Setup;
    use super::super::table::Table;
    use super::super::testing::{placements, worker};
    use crate::model::{Direction, MoveTables};

    #[test]
    fn crosses_hold_each_cell_and_its_wall_stops() {
        for (puzzle, _) in placements(100) {
            let setup = Setup::new(&puzzle);
            let board = puzzle.board();
            let tables = MoveTables::new(board);
            for cell in 0..board.cell_count() as u16 {
                let cross = setup.crosses[usize::from(cell)];
                let pos = board.pos(cell);
                assert_eq!((u16::from(cross.x), u16::from(cross.y)), (pos.x, pos.y));
                let stop = |dir| board.pos(tables.stop(cell, dir));
                assert_eq!(u16::from(cross.west), stop(Direction::West).x);
                assert_eq!(u16::from(cross.east), stop(Direction::East).x);
                assert_eq!(u16::from(cross.north), stop(Direction::North).y);
                assert_eq!(u16::from(cross.south), stop(Direction::South).y);
            }
        }
    }

    #[test]
    fn swapped_pairs_are_exactly_the_pairs_that_commute_and_swapped_robots_commute_always() {
        let (mut same, mut different, mut whole_robots) = (0, 0, 0);
        for (puzzle, cells) in placements(300) {
            if cells.len() < 2 {
                continue;
            }
            let setup = Setup::new(&puzzle);
            let table = Table::new(8, 8);
            let tables = MoveTables::new(puzzle.board());
            let dirs = Direction::ALL;
            for a in 0..cells.len() {
                for a_dir in 0..4 {
                    let mut after_a = cells.clone();
                    after_a[a] = tables.slide(&cells, a, dirs[a_dir]);
                    if after_a[a] == cells[a] {
                        continue;
                    }
                    for b in (0..cells.len()).filter(|&b| b != a) {
                        let all_commute = worker(&setup, &table, &after_a)
                            .all_moves_commute(a, a_dir, cells[a], b);
                        whole_robots += usize::from(all_commute);
                        for b_dir in 0..4 {
                            let mut a_then_b = after_a.clone();
                            a_then_b[b] = tables.slide(&after_a, b, dirs[b_dir]);
                            let mut b_then_a = cells.clone();
                            b_then_a[b] = tables.slide(&cells, b, dirs[b_dir]);
                            b_then_a[a] = tables.slide(&b_then_a, a, dirs[a_dir]);
                            let mut w = worker(&setup, &table, &after_a);
                            let b_to = a_then_b[b];
                            let b_to = (b_to, setup.tables.column_index[usize::from(b_to)]);
                            let says = w.commutes(a, a_dir, cells[a], b, b_dir, b_to);
                            assert!(
                                !all_commute || a_then_b == b_then_a,
                                "{cells:?}: robot {b} dir {b_dir} does not commute with robot \
                                 {a} dir {a_dir}, though all its moves are said to"
                            );
                            assert_eq!(
                                says,
                                a_then_b == b_then_a,
                                "{cells:?}: robot {a} dir {a_dir}, then robot {b} dir {b_dir}"
                            );
                            // The check leaves the worker's robots where they were.
                            assert_eq!(&w.cells[..cells.len()], &after_a[..]);
                            if says {
                                same += 1;
                            } else {
                                different += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(
            same > 1000 && different > 1000 && whole_robots > 1000,
            "{same} swapped, {different} not, {whole_robots} whole robots swapped"
        );
    }
}
