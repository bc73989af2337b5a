//! Single steps on the empty board, shared by the slide graph and the stateless solver, which
//! both slide robots one cell at a time ("F[i,j] can move in direction d").

use crate::model::{Board, Cell, Direction};

/// Per cell, the directions in which a robot may step on the empty board: no wall on that
/// side, and the neighbour exists and is open. Closed cells have none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OpenSteps {
    width: u16,
    /// A bit per direction (`Direction::bit`) for each cell.
    open: Vec<u8>,
}

impl OpenSteps {
    /// The steps of `board`.
    pub(crate) fn new(board: &Board) -> OpenSteps {
        let open = (0..board.cell_count() as Cell)
            .map(|cell| {
                let mut mask = 0;
                if !board.is_closed(cell) {
                    for dir in Direction::ALL {
                        let steps = !board.has_wall(cell, dir)
                            && board
                                .neighbour(cell, dir)
                                .is_some_and(|n| !board.is_closed(n));
                        if steps {
                            mask |= dir.bit();
                        }
                    }
                }
                mask
            })
            .collect();
        OpenSteps {
            width: board.width(),
            open,
        }
    }

    /// The number of cells.
    pub(crate) fn cells(&self) -> usize {
        self.open.len()
    }

    /// Whether a robot may step from `cell` in `dir` on the empty board.
    #[inline(always)]
    pub(crate) fn can_move(&self, cell: Cell, dir: Direction) -> bool {
        self.open[usize::from(cell)] & dir.bit() != 0
    }

    /// The neighbour of `cell` in `dir`. Only called where [`OpenSteps::can_move`] holds, so
    /// the neighbour is on the board.
    #[inline(always)]
    pub(crate) fn step(&self, cell: Cell, dir: Direction) -> Cell {
        match dir {
            Direction::North => cell - self.width,
            Direction::East => cell + 1,
            Direction::South => cell + self.width,
            Direction::West => cell - 1,
        }
    }
}
