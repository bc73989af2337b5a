//! Pruning rule: helper moves with two moves to spare. As with one to spare (see
//! [`super::one_to_spare`]), a move whose subtree has the outcome of the node itself with one
//! move fewer fails without being searched. With two to spare, a helper move is one when the
//! helper stands, before and after, outside the larger region of the target robot's search
//! alone with one spare move, cannot reach the last-moves region in its next move, and stands
//! off the rays of every helper that can.

use super::control::Control;
use super::regions::CellSets;
use super::worker::Worker;

/// What [`Worker::spare_move_cannot_matter`] needs at a node with two moves to spare.
pub(super) struct SpareMove<'s> {
    /// The cell sets it reads.
    pub sets: &'s CellSets,
    /// The target robot's cell.
    pub target: u16,
    /// The helpers that could change the target robot's last-moves search.
    pub mattering: u32,
    /// The helpers whose moves may be skipped, as far as their cells now tell.
    pub candidates: u32,
}

impl<C: Control, const NO_REBOUND: bool> Worker<'_, C, NO_REBOUND> {
    /// With two moves to spare (`left == bound + 2`), the target robot's cell, the set of
    /// helpers that could change its last-moves search (as in
    /// [`Worker::helpers_that_cannot_matter`]) and the set of helpers whose moves
    /// [`Worker::spare_move_cannot_matter`] may skip, as far as their cells now tell; `None`
    /// at other nodes or when no helper's moves may be skipped.
    #[inline(always)]
    pub fn spare_move_candidates<'s>(
        &self,
        sets: &'s CellSets,
        depth: u32,
        left: u32,
        bound: u32,
    ) -> Option<SpareMove<'s>> {
        let active = self.setup.active?;
        // The same proof as with one move to spare: the shorter solution must count.
        if bound + 2 != left || depth + bound < self.setup.min_len {
            return None;
        }
        let target = self.cells[active];
        let helpers = || (0..self.setup.robots).filter(move |&robot| robot != active);
        let mut mattering = 0;
        for robot in helpers() {
            if sets.may_matter(target, self.cells[robot]) {
                mattering |= 1 << robot;
            }
        }
        let mut candidates = 0;
        for robot in helpers() {
            let from = self.cells[robot];
            if !sets.in_spare_region(target, from) && self.off_rays(sets, mattering, robot, from) {
                candidates |= 1 << robot;
            }
        }
        (candidates != 0).then_some(SpareMove {
            sets,
            target,
            mattering,
            candidates,
        })
    }

    /// Whether `cell` lies off the rays of every helper in `mattering` other than `robot`.
    #[inline(always)]
    fn off_rays(&self, sets: &CellSets, mattering: u32, robot: usize, cell: u16) -> bool {
        (0..self.setup.robots)
            .filter(|&other| other != robot && mattering & (1 << other) != 0)
            .all(|other| !sets.in_reach(self.cells[other], cell))
    }

    /// With two moves to spare, whether the move of helper `robot` (one of `spare`'s
    /// candidates) to `to` leaves the outcome of the search as it would be without it: as the
    /// outcome of this node with one move fewer, a failure (see
    /// [`Worker::helpers_that_cannot_matter`]). After the move one move is left to spare, so a
    /// solution then is the target robot alone with at most one move that keeps its bound, or
    /// one helper move and the last-moves search. Neither changes when the helper stands,
    /// before and after, outside the region of the target robot's search with a move to spare;
    /// when its next move could not touch the last-moves region; and when it stands, before
    /// and after, off every ray of the helpers that could, so their moves end where they
    /// would have.
    #[inline(always)]
    pub fn spare_move_cannot_matter(&self, spare: &SpareMove, robot: usize, to: u16) -> bool {
        let sets = spare.sets;
        !sets.in_spare_region(spare.target, to)
            && !sets.may_matter(spare.target, to)
            && self.off_rays(sets, spare.mattering, robot, to)
    }

    /// Whether `spare` (from [`Worker::spare_move_candidates`]) lets the move of `robot` to
    /// `to` be skipped.
    #[inline(always)]
    pub fn skipped_with_two_to_spare(
        &self,
        spare: Option<&SpareMove>,
        robot: usize,
        to: u16,
    ) -> bool {
        spare.is_some_and(|spare| {
            spare.candidates & (1 << robot) != 0 && self.spare_move_cannot_matter(spare, robot, to)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::setup::Setup;
    use super::super::table::Table;
    use super::super::testing::{placements, worker};
    use crate::model::{Direction, MoveTables};
    use crate::solver::stops::unreachable;

    /// Whether the robot `active` stands on `goal` after at most `moves` moves of any robots
    /// from `cells`, by the model's slides.
    fn solvable_within(
        tables: &MoveTables,
        cells: &mut Vec<u16>,
        active: usize,
        goal: u16,
        moves: u32,
    ) -> bool {
        if cells[active] == goal {
            return true;
        }
        if moves == 0 {
            return false;
        }
        for robot in 0..cells.len() {
            for dir in Direction::ALL {
                let from = cells[robot];
                let to = tables.slide(cells, robot, dir);
                if to == from {
                    continue;
                }
                cells[robot] = to;
                let found = solvable_within(tables, cells, active, goal, moves - 1);
                cells[robot] = from;
                if found {
                    return true;
                }
            }
        }
        false
    }

    #[test]
    fn helper_moves_skipped_with_two_to_spare_never_open_a_solution() {
        // The skip is sound when a solution after the helper's move, with the bound plus one
        // moves, means one from the node without it: the node itself with a move fewer.
        let (mut checked, mut skipped_while_solvable) = (0, 0);
        for (puzzle, cells) in placements(600) {
            let Some(active) = puzzle.active_robot() else {
                continue;
            };
            if cells.len() < 2 {
                continue;
            }
            let setup = Setup::new(&puzzle);
            setup.prepare_cell_sets();
            let table = Table::new(8, 8);
            let bound = setup.rook(cells[active]);
            // Small bounds keep the exhaustive check below quick.
            if unreachable(bound) || bound == 0 || bound > 3 {
                continue;
            }
            let tables = MoveTables::new(puzzle.board());
            let goal = setup.goal;
            let w = worker(&setup, &table, &cells);
            let sets = setup.cell_sets().expect("prepared above");
            let Some(spare) = w.spare_move_candidates(sets, 2, bound + 2, bound) else {
                continue;
            };
            let without = solvable_within(&tables, &mut cells.clone(), active, goal, bound + 1);
            for helper in (0..cells.len()).filter(|&h| h != active) {
                if spare.candidates & (1 << helper) == 0 {
                    continue;
                }
                for dir in 0..4 {
                    let (to, _) = w.slide(helper, dir);
                    if to == cells[helper] || !w.spare_move_cannot_matter(&spare, helper, to) {
                        continue;
                    }
                    let mut moved = cells.clone();
                    moved[helper] = to;
                    let with = solvable_within(&tables, &mut moved, active, goal, bound + 1);
                    assert!(
                        !with || without,
                        "{cells:?}: helper {helper} to {to} opens a solution in {} moves",
                        bound + 1
                    );
                    checked += 1;
                    skipped_while_solvable += u32::from(with);
                }
            }
        }
        assert!(checked > 300, "only {checked} helper moves checked");
        assert!(
            skipped_while_solvable > 10,
            "only {skipped_while_solvable} checked moves left a solution to find"
        );
    }
}
