//! Lower bounds and estimates of the moves a state still needs, shared by A* and IDA*: the
//! minimum-move table of Fogleman's deck (admissible and consistent) and the course report's
//! Manhattan distance and row/column count (which may overestimate).

use super::min_moves::{UNREACHABLE, min_moves};
use crate::model::{Cell, Puzzle};

/// How A* estimates the moves still needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heuristic {
    /// The minimum-move table: admissible and consistent.
    MinMoves,
    /// The report's Manhattan distance: may overestimate.
    Manhattan,
    /// The report's row/column count: may overestimate.
    RowColumn,
}

impl Heuristic {
    /// Its name in words, as the debugger and the overlays give it.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::MinMoves => "minimum moves",
            Heuristic::Manhattan => "Manhattan distance",
            Heuristic::RowColumn => "row and column",
        }
    }
}

/// A heuristic made into per-cell tables for one puzzle, and the rule adjustments.
pub struct Estimator {
    heuristic: Heuristic,
    /// The value of a cell for a robot that may take the target.
    own: Vec<u16>,
    /// The value of a cell for any other robot (row/column only).
    other: Vec<u16>,
    active: Option<usize>,
    min_len: u32,
}

impl Estimator {
    /// Builds the tables of `heuristic` for `puzzle`.
    pub fn new(puzzle: &Puzzle, heuristic: Heuristic) -> Estimator {
        let board = puzzle.board();
        let target = board.pos(puzzle.goal_cell());
        let offsets = |cell: usize| {
            let pos = board.pos(cell as Cell);
            (pos.x.abs_diff(target.x), pos.y.abs_diff(target.y))
        };
        let cells = board.cell_count();
        let (own, other) = match heuristic {
            Heuristic::MinMoves => (min_moves(board, puzzle.goal_cell()), Vec::new()),
            Heuristic::Manhattan => (
                (0..cells).map(|c| offsets(c).0 + offsets(c).1).collect(),
                Vec::new(),
            ),
            Heuristic::RowColumn => (
                (0..cells)
                    .map(|c| {
                        let (dx, dy) = offsets(c);
                        u16::from(dx != 0 && dy != 0)
                    })
                    .collect(),
                (0..cells)
                    .map(|c| {
                        let (dx, dy) = offsets(c);
                        u16::from(dx != 1 && dy != 1)
                    })
                    .collect(),
            ),
        };
        Estimator {
            heuristic,
            own,
            other,
            active: puzzle.active_robot(),
            min_len: puzzle.rules().min_solution_len() as u32,
        }
    }

    /// The heuristic's value on each cell for the robot the target asks for, the others left
    /// aside (they count only in the row and column heuristic); the minimum-move table's
    /// `UNREACHABLE` where the target cannot be reached.
    pub fn goal_robot_table(&self) -> &[u16] {
        &self.own
    }

    /// The estimate for robots at `cells` reached with `g` moves, or `None` when the target
    /// cannot be reached from there at all (only the minimum-move table knows that).
    #[inline(always)]
    pub fn estimate(&self, cells: &[Cell], g: u32) -> Option<u32> {
        self.raw(cells).map(|h| self.adjust(h, g))
    }

    /// The heuristic's own value for robots at `cells`, before the rule adjustment; `None`
    /// when the target cannot be reached.
    #[inline(always)]
    pub fn raw(&self, cells: &[Cell]) -> Option<u32> {
        let own = |c: Cell| self.own[usize::from(c)];
        let h = match (self.heuristic, self.active) {
            (Heuristic::MinMoves | Heuristic::Manhattan, Some(a)) => own(cells[a]),
            (Heuristic::MinMoves | Heuristic::Manhattan, None) => {
                cells.iter().map(|&c| own(c)).min().unwrap_or(UNREACHABLE)
            }
            (Heuristic::RowColumn, Some(a)) => cells
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    if i == a {
                        own(c)
                    } else {
                        self.other[usize::from(c)]
                    }
                })
                .sum(),
            (Heuristic::RowColumn, None) => cells.iter().map(|&c| own(c)).sum(),
        };
        if self.heuristic == Heuristic::MinMoves && h == UNREACHABLE {
            None
        } else {
            Some(u32::from(h))
        }
    }

    /// Raises a heuristic value `h` at `g` moves to the rule's needs: under the ricochet rule
    /// a goal reached too early does not count, so at least the moves that make the solution
    /// long enough are still needed.
    #[inline(always)]
    pub fn adjust(&self, h: u32, g: u32) -> u32 {
        h.max(self.min_len.saturating_sub(g))
    }

    /// The value of one robot's cell for a robot that may take the target.
    #[inline(always)]
    pub fn cell_value(&self, cell: Cell) -> u32 {
        u32::from(self.own[usize::from(cell)])
    }
}
