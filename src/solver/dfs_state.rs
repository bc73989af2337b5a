//! The state a depth-first tree search keeps while it walks: robot cells, last directions
//! (for the no-rebound rule and for never undoing a move), the path made so far, and what
//! the puzzle fixes (move tables, goal, rules). Shared by the depth-limited search and IDA*.

use crate::model::{Cell, Direction, Move, MoveTables, Puzzle, RobotColor};

/// A made move: the robot (index), where it came from and its last direction before.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The robot's index.
    pub robot: usize,
    /// Its cell before the move.
    pub from: Cell,
    /// Its last direction before the move.
    pub previous_dir: Option<Direction>,
}

/// The walking state of a depth-first search on one puzzle.
#[derive(Debug)]
pub struct DfsState {
    /// The board's slide tables.
    pub tables: MoveTables,
    /// The target cell.
    pub goal: Cell,
    /// The robot that must reach the goal (`None`: any robot).
    pub active: Option<usize>,
    /// Robot colours, by index.
    pub colors: Vec<RobotColor>,
    /// Robot cells now, by index.
    pub cells: Vec<Cell>,
    /// Each robot's last direction on the path.
    pub last_dir: Vec<Option<Direction>>,
    /// Whether the no-rebound rule is on.
    pub no_rebound: bool,
    /// The shortest solution the rules accept.
    pub min_len: u32,
    /// The moves made, as (robot index, direction).
    pub path: Vec<(usize, Direction)>,
}

impl DfsState {
    /// The state at the root of a search of `puzzle`.
    pub fn new(puzzle: &Puzzle) -> DfsState {
        DfsState {
            tables: MoveTables::new(puzzle.board()),
            goal: puzzle.goal_cell(),
            active: puzzle.active_robot(),
            colors: puzzle.robots().iter().map(|r| r.color).collect(),
            cells: puzzle.robot_cells(),
            last_dir: vec![None; puzzle.robots().len()],
            no_rebound: puzzle.rules().no_rebound,
            min_len: puzzle.rules().min_solution_len() as u32,
            path: Vec::new(),
        }
    }

    /// Whether robots on `cells` have the goal reached.
    #[inline(always)]
    pub fn at_goal(&self, cells: &[Cell]) -> bool {
        match self.active {
            Some(a) => cells[a] == self.goal,
            None => cells.contains(&self.goal),
        }
    }

    /// Where robot `robot` lands moving in `dir`, or `None` when it does not move or the
    /// no-rebound rule forbids reversing its last direction.
    #[inline(always)]
    pub fn try_move(&self, robot: usize, dir: Direction) -> Option<Cell> {
        if self.no_rebound && self.last_dir[robot] == Some(dir.opposite()) {
            return None;
        }
        let to = self.tables.slide(&self.cells, robot, dir);
        (to != self.cells[robot]).then_some(to)
    }

    /// Moves robot `robot` in `dir` to `to`; returns how to take the move back.
    #[inline(always)]
    pub fn make(&mut self, robot: usize, dir: Direction, to: Cell) -> Undo {
        let undo = Undo {
            robot,
            from: self.cells[robot],
            previous_dir: self.last_dir[robot],
        };
        self.cells[robot] = to;
        self.last_dir[robot] = Some(dir);
        self.path.push((robot, dir));
        undo
    }

    /// Takes back the last move made.
    #[inline(always)]
    pub fn undo(&mut self, undo: Undo) {
        self.cells[undo.robot] = undo.from;
        self.last_dir[undo.robot] = undo.previous_dir;
        self.path.pop();
    }

    /// The path as moves.
    pub fn moves(&self) -> Vec<Move> {
        self.path
            .iter()
            .map(|&(robot, dir)| Move::new(self.colors[robot], dir))
            .collect()
    }
}
