//! A puzzle: a board, the robots on it, the active target and the rule options.

use super::ModelError;
use super::board::{Board, RobotColor, Shape, TargetColor};
use super::geometry::{Cell, Direction, Pos};
use super::moves::{Move, MoveTables};
use serde::{Deserialize, Serialize};

/// The most robots a puzzle may hold (red, green, blue, yellow, silver).
pub const MAX_ROBOTS: usize = 5;

/// A robot and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Robot {
    /// Its colour, unique within a puzzle.
    pub color: RobotColor,
    /// Its position.
    pub pos: Pos,
}

/// The active target: where a robot must stop, and which robot counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Goal {
    /// The cell to reach.
    pub pos: Pos,
    /// The robot that must reach it (`Any` for the vortex: every robot counts).
    pub color: TargetColor,
}

/// Rule options some players and solvers use. Both are off by default.
///
/// A field of another name is refused rather than dropped: a misspelt `no_rebond: true`
/// would otherwise leave the rule off without a word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// The game's ricochet rule, as DriftingDroids' "solution01" option has it: a solution of
    /// zero or one move does not count (the robot must not already stand on the target, nor
    /// reach it in one straight move), so the shortest accepted solution has two moves.
    pub ricochet: bool,
    /// No rebound: a robot may not move in the direction opposite to its own previous move.
    pub no_rebound: bool,
}

impl Rules {
    /// The fewest moves an accepted solution may have.
    pub fn min_solution_len(&self) -> usize {
        if self.ricochet { 2 } else { 0 }
    }
}

/// A complete, valid puzzle. Robots are kept in colour order; every position has been checked
/// to lie on the board, outside closed cells and apart from the other robots.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    board: Board,
    robots: Vec<Robot>,
    goal: Goal,
    rules: Rules,
}

impl Puzzle {
    /// Builds a puzzle, checking that it is possible: 1 to 5 robots of distinct colours, each
    /// on the board, on an open cell and alone; the goal on an open cell of the board; and the
    /// goal's robot present.
    pub fn new(
        board: Board,
        mut robots: Vec<Robot>,
        goal: Goal,
        rules: Rules,
    ) -> Result<Puzzle, ModelError> {
        robots.sort_by_key(|r| r.color);
        validate(&board, &robots, &goal)?;
        Ok(Puzzle {
            board,
            robots,
            goal,
            rules,
        })
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The robots in colour order.
    pub fn robots(&self) -> &[Robot] {
        &self.robots
    }

    /// The active target.
    pub fn goal(&self) -> Goal {
        self.goal
    }

    /// The rule options.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The goal's cell index.
    pub fn goal_cell(&self) -> Cell {
        self.board.cell(self.goal.pos)
    }

    /// The index (in [`Puzzle::robots`]) of the robot the goal asks for; `None` for the vortex.
    pub fn active_robot(&self) -> Option<usize> {
        let color = self.goal.color.robot()?;
        self.robots.iter().position(|r| r.color == color)
    }

    /// The index of a robot colour in [`Puzzle::robots`].
    pub fn robot_index(&self, color: RobotColor) -> Option<usize> {
        self.robots.iter().position(|r| r.color == color)
    }

    /// The robots' cells in colour order.
    pub fn robot_cells(&self) -> Vec<Cell> {
        self.robots.iter().map(|r| self.board.cell(r.pos)).collect()
    }

    /// Whether the robots at `cells` (colour order) satisfy the goal.
    pub fn is_goal(&self, cells: &[Cell]) -> bool {
        let goal = self.goal_cell();
        match self.active_robot() {
            Some(active) => cells[active] == goal,
            None => cells.contains(&goal),
        }
    }

    /// The checks every file format makes on top of [`Puzzle::new`], so that a puzzle read
    /// from one format is valid in every format that can express it: the goal stands on a
    /// printed target that counts for the goal's robot (the target's own colour, or the vortex
    /// that any robot may take); no target lies on a closed cell; and the vortex shape belongs
    /// to the vortex target (colour `Any`) alone, which has no other shape.
    pub fn check_targets(&self) -> Result<(), ModelError> {
        for target in self.board.targets() {
            if self.board.is_closed(self.board.cell(target.pos)) {
                return Err(ModelError::OnClosedCell {
                    what: format!("{} target", target.color),
                    pos: target.pos,
                });
            }
            if (target.shape == Shape::Vortex) != (target.color == TargetColor::Any) {
                return Err(ModelError::TargetShape {
                    pos: target.pos,
                    color: target.color,
                    shape: target.shape,
                });
            }
        }
        let goal = self.goal;
        let Some(target) = self.board.target_at(goal.pos) else {
            return Err(ModelError::GoalWithoutTarget(goal.pos));
        };
        if target.color != goal.color && target.color != TargetColor::Any {
            return Err(ModelError::GoalColor {
                pos: goal.pos,
                goal: goal.color,
                target: target.color,
            });
        }
        Ok(())
    }

    /// A copy with other rule options.
    pub fn with_rules(&self, rules: Rules) -> Puzzle {
        Puzzle {
            rules,
            ..self.clone()
        }
    }

    /// A copy with the robots at `cells` (colour order), as after a sequence of moves.
    pub fn with_robot_cells(&self, cells: &[Cell]) -> Puzzle {
        let mut puzzle = self.clone();
        for (robot, &cell) in puzzle.robots.iter_mut().zip(cells) {
            robot.pos = self.board.pos(cell);
        }
        puzzle
    }

    /// Replays moves from the start and checks each: the robot exists, it moves at least one
    /// cell, the no-rebound rule (when on) holds; and at the end the goal is reached by a
    /// solution long enough for the ricochet rule (when on).
    pub fn replay(&self, moves: &[Move]) -> Result<Vec<Cell>, ReplayError> {
        let tables = MoveTables::new(&self.board);
        let mut cells = self.robot_cells();
        let mut last_dir: [Option<Direction>; MAX_ROBOTS] = [None; MAX_ROBOTS];
        for (step, mv) in moves.iter().enumerate() {
            let Some(index) = self.robot_index(mv.robot) else {
                return Err(ReplayError {
                    step,
                    at_end: false,
                    reason: format!("there is no {} robot", mv.robot),
                });
            };
            if self.rules.no_rebound && last_dir[index] == Some(mv.dir.opposite()) {
                return Err(ReplayError {
                    step,
                    at_end: false,
                    reason: format!("{mv} moves the robot straight back (no-rebound rule)"),
                });
            }
            let to = tables.slide(&cells, index, mv.dir);
            if to == cells[index] {
                return Err(ReplayError {
                    step,
                    at_end: false,
                    reason: format!("{mv} does not move the robot"),
                });
            }
            cells[index] = to;
            last_dir[index] = Some(mv.dir);
        }
        if !self.is_goal(&cells) {
            return Err(ReplayError {
                step: moves.len(),
                at_end: true,
                reason: "the target is not reached".into(),
            });
        }
        if moves.len() < self.rules.min_solution_len() {
            return Err(ReplayError {
                step: moves.len(),
                at_end: true,
                reason: format!(
                    "the ricochet rule needs at least {} moves",
                    self.rules.min_solution_len()
                ),
            });
        }
        Ok(cells)
    }
}

/// Why a move sequence is not a solution: the 0-based move where it went wrong (or the
/// sequence's length when the end position misses the goal) and a sentence saying why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("replay failed {}: {reason}", place_of_failure(*step, *at_end))]
pub struct ReplayError {
    /// The 0-based index of the failing move, or the number of moves when the end is wrong.
    pub step: usize,
    /// Whether every move was made and the end position is what is wrong (then `step` is the
    /// number of moves, and the message says "after move N", not a move that does not exist).
    pub at_end: bool,
    /// What went wrong.
    pub reason: String,
}

/// "at move N" (counted from 1) for a move that failed, "after move N" for an end position that
/// misses the goal.
fn place_of_failure(step: usize, at_end: bool) -> String {
    if at_end {
        format!("after move {step}")
    } else {
        format!("at move {}", step + 1)
    }
}

fn validate(board: &Board, robots: &[Robot], goal: &Goal) -> Result<(), ModelError> {
    if robots.is_empty() || robots.len() > MAX_ROBOTS {
        return Err(ModelError::RobotCount(robots.len()));
    }
    for (i, robot) in robots.iter().enumerate() {
        if robots[..i].iter().any(|r| r.color == robot.color) {
            return Err(ModelError::DuplicateRobot(robot.color));
        }
        if !board.contains(robot.pos) {
            return Err(ModelError::OffBoard {
                what: format!("{} robot", robot.color),
                pos: robot.pos,
                width: board.width(),
                height: board.height(),
            });
        }
        if board.is_closed(board.cell(robot.pos)) {
            return Err(ModelError::OnClosedCell {
                what: format!("{} robot", robot.color),
                pos: robot.pos,
            });
        }
        if let Some(other) = robots[..i].iter().find(|r| r.pos == robot.pos) {
            return Err(ModelError::Overlap {
                first: other.color,
                second: robot.color,
                pos: robot.pos,
            });
        }
    }
    if !board.contains(goal.pos) {
        return Err(ModelError::OffBoard {
            what: "target".into(),
            pos: goal.pos,
            width: board.width(),
            height: board.height(),
        });
    }
    if board.is_closed(board.cell(goal.pos)) {
        return Err(ModelError::OnClosedCell {
            what: "target".into(),
            pos: goal.pos,
        });
    }
    if let Some(color) = goal.color.robot()
        && !robots.iter().any(|r| r.color == color)
    {
        return Err(ModelError::MissingGoalRobot(color));
    }
    Ok(())
}
