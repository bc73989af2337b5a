//! Where a depth-first search of the analyses stands, and how it makes a move and takes it
//! back: the listing of every optimal solution and the search for the first one walk alike.

use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Cell, Direction, Move, MoveTables, Puzzle, RobotColor};
use arrayvec::ArrayVec;

/// The robots' cells, each robot's last direction, the moves that led here and how many each
/// robot made. A unit of work handed to another thread is a copy of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Walk {
    /// Each robot's cell, in the puzzle's robot order; past the puzzle's robots, 0.
    pub(super) cells: [Cell; MAX_ROBOTS],
    /// The direction each robot moved last, for the no-rebound rule and the dead-state keys.
    pub(super) last_dir: [Option<Direction>; MAX_ROBOTS],
    /// The moves from the start.
    pub(super) path: Vec<Move>,
    /// How many of the moves each robot made.
    pub(super) moves_by_robot: [u32; MAX_ROBOTS],
}

/// What taking a move back needs: where the robot stood and the direction it moved before.
#[derive(Clone, Copy, Debug)]
pub(super) struct Made {
    from: Cell,
    previous_dir: Option<Direction>,
}

impl Walk {
    /// The walk at the puzzle's start: no move made.
    pub(super) fn at_start(puzzle: &Puzzle) -> Walk {
        let mut walk = Walk {
            cells: [0; MAX_ROBOTS],
            last_dir: [None; MAX_ROBOTS],
            path: Vec::new(),
            moves_by_robot: [0; MAX_ROBOTS],
        };
        walk.restart(puzzle);
        walk
    }

    /// Goes back to the puzzle's start, keeping the path's memory.
    pub(super) fn restart(&mut self, puzzle: &Puzzle) {
        let start = puzzle.robot_cells();
        self.cells = [0; MAX_ROBOTS];
        self.cells[..start.len()].copy_from_slice(&start);
        self.last_dir = [None; MAX_ROBOTS];
        self.path.clear();
        self.moves_by_robot = [0; MAX_ROBOTS];
    }

    /// Stands where `other` stands, keeping the path's memory (a thread takes up a unit).
    pub(super) fn resume(&mut self, other: &Walk) {
        self.cells = other.cells;
        self.last_dir = other.last_dir;
        self.path.clone_from(&other.path);
        self.moves_by_robot = other.moves_by_robot;
    }

    /// The moves robot `robot` (of colour `color`, among the first `n` robots) may try, in
    /// [`Direction::ALL`]'s order, each with the cell it stops on: all but those that go
    /// nowhere, that rebound where the rules forbid it (`no_rebound`), and the move `back` the
    /// search has ruled out (the last move taken straight back).
    #[inline(always)]
    pub(super) fn moves(
        &self,
        tables: &MoveTables,
        n: usize,
        robot: usize,
        color: RobotColor,
        no_rebound: bool,
        back: Option<Move>,
    ) -> ArrayVec<(Direction, Cell), 4> {
        let from = self.cells[robot];
        Direction::ALL
            .into_iter()
            .filter(|&dir| {
                !(no_rebound && self.last_dir[robot] == Some(dir.opposite()))
                    && back != Some(Move::new(color, dir))
            })
            .map(|dir| (dir, tables.slide(&self.cells[..n], robot, dir)))
            .filter(|&(_, to)| to != from)
            .collect()
    }

    /// Moves robot `robot` (of colour `color`) towards `dir`, to `to`; [`Walk::take_back`]
    /// with what it returns undoes it.
    #[inline(always)]
    pub(super) fn make(
        &mut self,
        robot: usize,
        color: RobotColor,
        dir: Direction,
        to: Cell,
    ) -> Made {
        let made = Made {
            from: self.cells[robot],
            previous_dir: self.last_dir[robot],
        };
        self.cells[robot] = to;
        self.last_dir[robot] = Some(dir);
        self.path.push(Move::new(color, dir));
        self.moves_by_robot[robot] += 1;
        made
    }

    /// Takes back the last move, which robot `robot` made.
    #[inline(always)]
    pub(super) fn take_back(&mut self, robot: usize, made: Made) {
        self.moves_by_robot[robot] -= 1;
        self.path.pop();
        self.cells[robot] = made.from;
        self.last_dir[robot] = made.previous_dir;
    }
}
