//! Helper moves that cannot matter near the leaves, by `fast`'s rules (see
//! `solver::fast::one_to_spare` and `solver::fast::two_to_spare`): with one or two moves to
//! spare, a helper move whose subtree has the outcome of the node itself with one move fewer
//! fails, since a solution from the node in `left - 1` moves would be one shorter than the
//! optimum. The rules prove that outcome for a search of every robot; a question of fewer
//! robots searches a part of it, so the move fails there too, with any change budget.

use crate::model::Cell;
use crate::solver::fast::regions::CellSets;

/// What a node may skip of its helpers' moves.
pub(super) enum SpareRule<'s> {
    /// Nothing: more than two moves to spare, no target robot, or the rules' proof does not
    /// hold (the shorter solution would be too short to count).
    None,
    /// One move to spare: a helper move that neither leaves nor enters the region of the target
    /// robot's last-moves search, and every move of a helper that cannot reach it.
    One { sets: &'s CellSets, target: Cell },
    /// Two moves to spare: the moves of `candidates` that end outside the target robot's
    /// spare-move region, cannot touch the last-moves region next and stand off the rays of
    /// the helpers in `mattering`.
    Two {
        sets: &'s CellSets,
        target: Cell,
        mattering: u32,
        candidates: u32,
    },
}

impl<'s> SpareRule<'s> {
    /// The rule of a node whose target robot is `active`, with `left` moves to go after
    /// `depth`, and the target robot's rook bound `bound`.
    pub(super) fn at(
        sets: Option<&'s CellSets>,
        cells: &[Cell],
        active: Option<usize>,
        depth: u32,
        left: u32,
        bound: u32,
        min_len: u32,
    ) -> SpareRule<'s> {
        let (Some(sets), Some(active)) = (sets, active) else {
            return SpareRule::None;
        };
        // Under the ricochet rule the shorter solution must be long enough to count.
        if depth + bound < min_len {
            return SpareRule::None;
        }
        let target = cells[active];
        let helpers = || (0..cells.len()).filter(move |&robot| robot != active);
        match left.checked_sub(bound) {
            Some(1) => SpareRule::One { sets, target },
            Some(2) => {
                let mattering = helpers()
                    .filter(|&robot| sets.may_matter(target, cells[robot]))
                    .fold(0, |set, robot| set | 1 << robot);
                let candidates = helpers()
                    .filter(|&robot| {
                        !sets.in_spare_region(target, cells[robot])
                            && off_rays(sets, cells, mattering, robot, cells[robot])
                    })
                    .fold(0, |set, robot| set | 1 << robot);
                if candidates == 0 {
                    SpareRule::None
                } else {
                    SpareRule::Two {
                        sets,
                        target,
                        mattering,
                        candidates,
                    }
                }
            }
            _ => SpareRule::None,
        }
    }

    /// Whether every move of helper `robot` standing at `from` fails unsearched.
    #[inline]
    pub(super) fn skips_robot(&self, robot: usize, from: Cell, active: Option<usize>) -> bool {
        match self {
            SpareRule::One { sets, target } => {
                Some(robot) != active && !sets.may_matter(*target, from)
            }
            _ => false,
        }
    }

    /// Whether the move of helper `robot` from `from` to `to` fails unsearched.
    #[inline]
    pub(super) fn skips_move(
        &self,
        cells: &[Cell],
        robot: usize,
        active: Option<usize>,
        from: Cell,
        to: Cell,
    ) -> bool {
        if Some(robot) == active {
            return false;
        }
        match self {
            SpareRule::None => false,
            SpareRule::One { sets, target } => {
                !sets.in_region(*target, from) && !sets.in_region(*target, to)
            }
            SpareRule::Two {
                sets,
                target,
                mattering,
                candidates,
            } => {
                candidates & (1 << robot) != 0
                    && !sets.in_spare_region(*target, to)
                    && !sets.may_matter(*target, to)
                    && off_rays(sets, cells, *mattering, robot, to)
            }
        }
    }
}

/// Whether `cell` lies off the rays of every helper in `mattering` but `robot`.
fn off_rays(sets: &CellSets, cells: &[Cell], mattering: u32, robot: usize, cell: Cell) -> bool {
    (0..cells.len())
        .filter(|&other| other != robot && mattering & (1 << other) != 0)
        .all(|other| !sets.in_reach(cells[other], cell))
}
