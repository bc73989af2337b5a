//! Move rules: robots slide until the next cell is walled off, closed, or holds a robot.

use super::board::{Board, RobotColor};
use super::geometry::{Cell, Direction};
use std::fmt;
use std::str::FromStr;

/// One move: a robot slides in a direction. Written as in the deck: colour letter plus
/// direction letter, `BS` = blue moves south (`K` is silver).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The robot that moves.
    pub robot: RobotColor,
    /// Where it slides.
    pub dir: Direction,
}

impl Move {
    /// A move from its robot and direction.
    pub const fn new(robot: RobotColor, dir: Direction) -> Move {
        Move { robot, dir }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.robot.letter(), self.dir.letter())
    }
}

/// Why a piece of text is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not two letters.
    #[error(
        "'{0}' is not a move: write a robot letter (R, G, B, Y, K) and a direction letter (N, E, S, W), e.g. BS"
    )]
    NotTwoLetters(String),
    /// The first letter names no robot.
    #[error("'{letter}' in '{text}' is not a robot letter (R, G, B, Y, K)")]
    Robot {
        /// The letter read.
        letter: char,
        /// The whole move as written.
        text: String,
    },
    /// The second letter names no direction.
    #[error("'{letter}' in '{text}' is not a direction letter (N, E, S, W)")]
    Direction {
        /// The letter read.
        letter: char,
        /// The whole move as written.
        text: String,
    },
}

impl FromStr for Move {
    type Err = MoveError;

    fn from_str(text: &str) -> Result<Move, MoveError> {
        let mut chars = text.trim().chars();
        let (Some(r), Some(d), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(MoveError::NotTwoLetters(text.to_string()));
        };
        let robot = RobotColor::from_letter(r).ok_or_else(|| MoveError::Robot {
            letter: r,
            text: text.to_string(),
        })?;
        let dir = Direction::from_letter(d).ok_or_else(|| MoveError::Direction {
            letter: d,
            text: text.to_string(),
        })?;
        Ok(Move { robot, dir })
    }
}

/// Formats moves as the deck does: `BS, BW, BN`.
pub fn format_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses a comma- or space-separated move list such as `BS, BW, BN`.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, MoveError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(str::parse)
        .collect()
}

/// Where a robot stops from each cell in each direction when no robot is in the way, and the
/// slide rule with robots in the way. Build once per board; sliding is then O(robots).
#[derive(Clone, Debug)]
pub struct MoveTables {
    width: u16,
    stops: Vec<[Cell; 4]>,
}

impl MoveTables {
    /// Computes the stop cell of every cell and direction on an empty board.
    pub fn new(board: &Board) -> MoveTables {
        let cells = board.cell_count() as Cell;
        let stops = (0..cells)
            .map(|start| Direction::ALL.map(|dir| board_stop(board, start, dir)))
            .collect();
        MoveTables {
            width: board.width(),
            stops,
        }
    }

    /// Where a robot starting at `cell` stops in `dir` with no robot in the way.
    pub fn stop(&self, cell: Cell, dir: Direction) -> Cell {
        self.stops[usize::from(cell)][dir.index()]
    }

    /// Where robot `index` of `cells` stops when it slides in `dir` and the others stay put.
    /// Returns its own cell when it cannot move.
    #[inline]
    pub fn slide(&self, cells: &[Cell], index: usize, dir: Direction) -> Cell {
        let start = cells[index];
        let free_stop = self.stop(start, dir);
        if free_stop == start {
            return start;
        }
        let width = self.width;
        let mut stop = free_stop;
        for (i, &other) in cells.iter().enumerate() {
            if i == index {
                continue;
            }
            match dir {
                Direction::East => {
                    if other > start && other <= stop && other / width == start / width {
                        stop = other - 1;
                    }
                }
                Direction::West => {
                    if other < start && other >= stop && other / width == start / width {
                        stop = other + 1;
                    }
                }
                Direction::South => {
                    if other > start && other <= stop && other % width == start % width {
                        stop = other - width;
                    }
                }
                Direction::North => {
                    if other < start && other >= stop && other % width == start % width {
                        stop = other + width;
                    }
                }
            }
        }
        stop
    }
}

/// Slides one step at a time on an empty board: the reference the tables are built from.
fn board_stop(board: &Board, start: Cell, dir: Direction) -> Cell {
    let mut cell = start;
    while !board.has_wall(cell, dir) {
        match board.neighbour(cell, dir) {
            Some(next) if !board.is_closed(next) => cell = next,
            _ => break,
        }
    }
    cell
}

/// Slides one step at a time with robots in the way: the plain statement of the move rule,
/// used to check the tables.
pub fn slide_step_by_step(board: &Board, cells: &[Cell], index: usize, dir: Direction) -> Cell {
    let mut cell = cells[index];
    while !board.has_wall(cell, dir) {
        match board.neighbour(cell, dir) {
            Some(next) if !board.is_closed(next) && !cells.contains(&next) => cell = next,
            _ => break,
        }
    }
    cell
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::Pos;

    #[test]
    fn moves_parse_and_print_in_deck_notation() {
        let moves = parse_moves("BS, BW,GN  KE").unwrap();
        assert_eq!(format_moves(&moves), "BS, BW, GN, KE");
        assert!(parse_moves("BX").is_err());
        assert!(parse_moves("QS").is_err());
        assert!(parse_moves("BSS").is_err());
    }

    #[test]
    fn robots_stop_before_walls_robots_and_closed_cells() {
        let mut board = Board::new(6, 6).unwrap();
        board
            .set_wall(Pos::new(3, 0), Direction::East, true)
            .unwrap();
        board.set_closed(Pos::new(0, 4), true).unwrap();
        let tables = MoveTables::new(&board);
        let c = |x, y| board.cell(Pos::new(x, y));
        let cells = [c(0, 0), c(5, 5), c(0, 2)];
        assert_eq!(tables.slide(&cells, 0, Direction::East), c(3, 0));
        assert_eq!(tables.slide(&cells, 0, Direction::South), c(0, 1));
        assert_eq!(tables.slide(&cells, 2, Direction::South), c(0, 3));
        assert_eq!(tables.slide(&cells, 0, Direction::North), c(0, 0));
        for index in 0..3 {
            for dir in Direction::ALL {
                assert_eq!(
                    tables.slide(&cells, index, dir),
                    slide_step_by_step(&board, &cells, index, dir)
                );
            }
        }
    }
}
