//! The model layer: board, robots, targets, move rules, standard tiles and file formats.
//!
//! Nothing here knows about solvers, threads or the user interface.

pub mod board;
pub mod formats;
pub mod geometry;
pub mod moves;
pub mod puzzle;
pub mod random;
pub mod samples;
pub mod text;
pub mod tiles;

pub use board::{Board, RobotColor, Shape, Target, TargetColor};
pub use geometry::{Cell, Direction, Pos};
pub use moves::{Move, MoveError, MoveTables, format_moves, parse_moves};
pub use puzzle::{Goal, Puzzle, ReplayError, Robot, Rules};

/// A board or puzzle that the model does not allow, with what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// The size is outside 1x1 ..= 64x64.
    #[error("a board of {width}x{height} is out of range: width and height must be 1 to 64")]
    Size {
        /// Requested width.
        width: u16,
        /// Requested height.
        height: u16,
    },
    /// Something lies outside the board.
    #[error("the {what} at {pos} is off the {width}x{height} board")]
    OffBoard {
        /// What it is ("red robot", "target", ...).
        what: String,
        /// Where it was put.
        pos: Pos,
        /// The board's width.
        width: u16,
        /// The board's height.
        height: u16,
    },
    /// Something stands on a cell closed to robots.
    #[error("the {what} at {pos} is on a closed cell")]
    OnClosedCell {
        /// What it is.
        what: String,
        /// Where.
        pos: Pos,
    },
    /// Two robots share a cell.
    #[error("the {first} and {second} robots both stand on {pos}")]
    Overlap {
        /// The first robot.
        first: RobotColor,
        /// The second robot.
        second: RobotColor,
        /// The shared cell.
        pos: Pos,
    },
    /// A robot colour appears twice.
    #[error("there are two {0} robots")]
    DuplicateRobot(RobotColor),
    /// Too few or too many robots.
    #[error("a puzzle needs 1 to 5 robots, not {0}")]
    RobotCount(usize),
    /// The target asks for a robot that is not on the board.
    #[error("the target is for the {0} robot, which is not on the board")]
    MissingGoalRobot(RobotColor),
    /// The outer border cannot lose its walls.
    #[error("the {side} side of {pos} is on the border, which is always walled")]
    BorderWall {
        /// The cell.
        pos: Pos,
        /// The side.
        side: Direction,
    },
    /// A tile index that names no tile.
    #[error("there is no tile with id {0:X} (tiles are 0 to F)")]
    UnknownTile(u8),
    /// Not enough free cells for random robots.
    #[error("{robots} robots do not fit on the {free} free cells")]
    NoRoom {
        /// Robots asked for.
        robots: usize,
        /// Free cells.
        free: usize,
    },
    /// No target on the board suits the robots.
    #[error("the board has no target for any of its robots")]
    NoTarget,
    /// The goal names a cell where no target is printed.
    #[error("the goal at {0} has no target printed on its cell")]
    GoalWithoutTarget(Pos),
    /// The goal asks for another robot than the target printed on its cell.
    #[error("the goal at {pos} is for {goal}, but the target on that cell is {target}")]
    GoalColor {
        /// The goal's cell.
        pos: Pos,
        /// The colour the goal asks for.
        goal: TargetColor,
        /// The colour of the printed target.
        target: TargetColor,
    },
    /// A target whose shape does not suit its colour: the vortex shape belongs to the vortex
    /// target (any robot) alone.
    #[error(
        "the target at {pos} has color {color:?} and shape {shape:?}: the shape Vortex goes with \
         the color Any (the vortex, for any robot) and with no other"
    )]
    TargetShape {
        /// Where.
        pos: Pos,
        /// Its colour.
        color: TargetColor,
        /// Its shape.
        shape: Shape,
    },
    /// A standard board that uses one physical tile twice.
    #[error(
        "tiles {first} and {second} are one physical tile (the same face, or its two faces); \
         a board uses each physical tile at most once"
    )]
    TileTwice {
        /// The first tile's name.
        first: String,
        /// The second tile's name.
        second: String,
    },
}
