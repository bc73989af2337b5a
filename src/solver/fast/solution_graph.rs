//! The graph of every optimal solution that [`super::gather`] fills: the states on optimal
//! solutions, robot by robot, with the moves between them.

use crate::model::Move;
use crate::model::puzzle::MAX_ROBOTS;
use rustc_hash::{FxHashMap, FxHashSet};

/// A state told apart robot by robot (where the table's key lets helpers swap): the robots'
/// cells in colour order and, under the no-rebound rule, their last directions (index plus
/// one; 0: not moved).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Place {
    /// The robots' cells; unused slots are 0.
    pub cells: [u16; MAX_ROBOTS],
    /// The robots' last directions under the no-rebound rule; 0 otherwise.
    pub dirs: [u8; MAX_ROBOTS],
}

/// A state on an optimal solution.
#[derive(Clone, Debug, Default)]
pub(crate) struct GraphNode {
    /// The moves left from it.
    pub left: u32,
    /// The moves from it that stay on an optimal solution, with the states they lead to.
    pub edges: Vec<(Move, Place)>,
}

/// Every state on an optimal solution, by place and moves left, and the start.
///
/// Without the ricochet rule a state on optimal solutions has the same moves left on all of
/// them; under it, a solution may leave the goal and come back, so the start can also be a
/// last state: the moves left tell them apart.
#[derive(Clone, Debug, Default)]
pub(crate) struct SolutionGraph {
    /// The states; a move from one with `left` moves left leads to one with `left - 1`.
    pub nodes: FxHashMap<(Place, u32), GraphNode>,
    /// The start position.
    pub root: Place,
    /// The moves left at the start: the optimal length.
    pub depth: u32,
    /// The table keys of the states, with their moves left: a key lets helpers swap, so a
    /// table entry for a key in here may belong to a state on a solution.
    pub(super) keys: FxHashSet<(u64, u32)>,
}

impl SolutionGraph {
    /// Whether `place` is on a solution with `left` moves left.
    #[inline]
    pub(super) fn solved(&self, place: &Place, left: u32) -> bool {
        self.nodes.contains_key(&(*place, left))
    }

    /// Keeps the move `mv` from `from` (with `left` moves left) to `to` as on a solution.
    pub(super) fn add_edge(&mut self, from: Place, key: u64, left: u32, mv: Move, to: Place) {
        self.keys.insert((key, left));
        let node = self.nodes.entry((from, left)).or_insert_with(|| GraphNode {
            left,
            edges: Vec::new(),
        });
        // A state whose table entry gave way is searched again: its moves are kept once.
        if !node.edges.iter().any(|(m, _)| *m == mv) {
            node.edges.push((mv, to));
        }
    }
}
