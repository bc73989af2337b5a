//! Pruning rule: helper moves with one move to spare. A node at depth `d` with `left` moves
//! to go has no solution in `left - 1` moves: with the path to it, that would be a solution
//! shorter than the iteration, and every shorter length is proved impossible. So a move whose
//! subtree has the outcome of the node itself with one move fewer fails without being
//! searched. With one move to spare, any helper move leaves the target robot's last-moves
//! search to decide; a helper move that neither leaves nor enters the region of that search
//! (see [`super::regions`]) is such a move, and a helper that cannot reach the region in one
//! move is not even tried.

use super::control::Control;
use super::regions::CellSets;
use super::worker::Worker;

/// The bit of [`Worker::helpers_that_cannot_matter`]'s answer that says the node has one move
/// to spare, so helper moves that neither leave nor enter the region of the target robot's
/// last-moves search can be skipped one by one too (robot bits are below `MAX_ROBOTS`).
pub(super) const ONE_TO_SPARE: u32 = 1 << 16;

impl<C: Control, const NO_REBOUND: bool> Worker<'_, C, NO_REBOUND> {
    /// With one move to spare (`left == bound + 1`), a helper move leaves the target robot
    /// exactly `bound` moves, each lowering its bound: the last-moves search. A helper that
    /// stands outside the region of that search and cannot enter it in one move leaves its
    /// outcome as it is without the helper's move: the outcome of this node with one move
    /// fewer. That is a failure, with no need to search: a solution in `left - 1` moves from
    /// here would make one of `depth + left - 1` moves, shorter than this iteration's depth,
    /// and every shorter length is proved impossible (by the iterations before, or by the
    /// root's proven need when iterations were skipped). So the moves of such helpers need not
    /// be tried. Returns the set of such helpers as a bit mask, with [`ONE_TO_SPARE`] set
    /// (helper moves that neither leave nor enter the region can be skipped one by one too).
    #[inline(always)]
    pub fn helpers_that_cannot_matter(
        &self,
        sets: &CellSets,
        depth: u32,
        left: u32,
        bound: u32,
    ) -> u32 {
        let Some(active) = self.setup.active else {
            return 0;
        };
        // Under the ricochet rule the helper's move may be what makes a solution long enough:
        // the argument needs the shorter solution to count.
        if bound + 1 != left || depth + bound < self.setup.min_len {
            return 0;
        }
        let cell = self.cells[active];
        let mut skip = ONE_TO_SPARE;
        for robot in 0..self.setup.robots {
            if robot != active && !sets.may_matter(cell, self.cells[robot]) {
                skip |= 1 << robot;
            }
        }
        skip
    }

    /// With one move to spare (`skip` from [`Worker::helpers_that_cannot_matter`]), whether
    /// the move of `robot` from `from` to `to` is a helper move that neither leaves nor enters
    /// the region of the target robot's last-moves search, so leaves its outcome as it was: a
    /// failure.
    #[inline(always)]
    pub fn outside_the_region(
        &self,
        region_of: Option<(&CellSets, u16)>,
        robot: usize,
        from: u16,
        to: u16,
    ) -> bool {
        region_of.is_some_and(|(sets, target)| {
            Some(robot) != self.setup.active
                && !sets.in_region(target, from)
                && !sets.in_region(target, to)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::setup::Setup;
    use super::super::table::Table;
    use super::super::testing::{placements, worker};
    use super::*;
    use crate::solver::stops::unreachable;

    /// Checks, on random placements, that every helper move `skipped` says may be left out
    /// (given the board's sets, the target robot's cell and the helper's move) leaves the
    /// outcome of the target robot's last-moves search as it was; returns how many it checked.
    fn check_skipped_helper_moves(skipped: impl Fn(&CellSets, u16, u16, u16) -> bool) -> usize {
        let mut checked = 0;
        for (puzzle, cells) in placements(400) {
            let Some(active) = puzzle.active_robot() else {
                continue;
            };
            let setup = Setup::new(&puzzle);
            setup.prepare_cell_sets();
            let table = Table::new(8, 8);
            let sets = setup.cell_sets().expect("prepared above");
            let bound = setup.rook(cells[active]);
            if unreachable(bound) || bound == 0 {
                continue;
            }
            let outcome = |cells: &[u16]| {
                let mut w = worker(&setup, &table, cells);
                w.descend(active, 0, bound) == Ok(true)
            };
            let before = outcome(&cells);
            let w = worker(&setup, &table, &cells);
            for helper in (0..cells.len()).filter(|&h| h != active) {
                for dir in 0..4 {
                    let (to, _) = w.slide(helper, dir);
                    if !skipped(sets, cells[active], cells[helper], to) {
                        continue;
                    }
                    let mut moved = cells.clone();
                    moved[helper] = to;
                    assert_eq!(outcome(&moved), before, "{cells:?} helper {helper} to {to}");
                    checked += 1;
                }
            }
        }
        checked
    }

    #[test]
    fn helper_moves_outside_the_region_never_change_the_last_moves_search() {
        let checked = check_skipped_helper_moves(|sets, target, from, to| {
            !sets.in_region(target, from) && !sets.in_region(target, to)
        });
        assert!(checked > 500, "only {checked} helper moves checked");
    }

    #[test]
    fn helpers_outside_the_region_never_change_the_last_moves_search() {
        let checked =
            check_skipped_helper_moves(|sets, target, from, _| !sets.may_matter(target, from));
        assert!(checked > 500, "only {checked} helper moves checked");
    }
}
