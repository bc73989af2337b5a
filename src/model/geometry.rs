//! Directions and cell coordinates.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the four directions a robot can slide in.
///
/// The order `North, East, South, West` is the order in which the deck's solver tries
/// directions, and the bit values (`N=1, E=2, S=4, W=8`) are those of its wall masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Direction {
    /// Towards row 0.
    #[serde(alias = "N")]
    North,
    /// Towards the last column.
    #[serde(alias = "E")]
    East,
    /// Towards the last row.
    #[serde(alias = "S")]
    South,
    /// Towards column 0.
    #[serde(alias = "W")]
    West,
}

impl Direction {
    /// All directions in the deck's order.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// The index 0..4 in [`Direction::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The wall-mask bit of this side of a cell (`N=1, E=2, S=4, W=8`).
    pub const fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// The direction pointing the other way.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::East => Direction::West,
            Direction::South => Direction::North,
            Direction::West => Direction::East,
        }
    }

    /// The direction after a quarter turn clockwise.
    pub const fn clockwise(self) -> Direction {
        match self {
            Direction::North => Direction::East,
            Direction::East => Direction::South,
            Direction::South => Direction::West,
            Direction::West => Direction::North,
        }
    }

    /// The letter used in move notation (`N`, `E`, `S`, `W`).
    pub const fn letter(self) -> char {
        match self {
            Direction::North => 'N',
            Direction::East => 'E',
            Direction::South => 'S',
            Direction::West => 'W',
        }
    }

    /// Parses a direction letter, upper or lower case.
    pub fn from_letter(letter: char) -> Option<Direction> {
        match letter.to_ascii_uppercase() {
            'N' => Some(Direction::North),
            'E' => Some(Direction::East),
            'S' => Some(Direction::South),
            'W' => Some(Direction::West),
            _ => None,
        }
    }

    /// The step `(dx, dy)` of one cell in this direction (y grows southwards).
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (0, -1),
            Direction::East => (1, 0),
            Direction::South => (0, 1),
            Direction::West => (-1, 0),
        }
    }

    /// Whether the direction runs along a row (east or west).
    pub const fn is_horizontal(self) -> bool {
        matches!(self, Direction::East | Direction::West)
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Direction::North => "north",
            Direction::East => "east",
            Direction::South => "south",
            Direction::West => "west",
        };
        f.write_str(name)
    }
}

/// A cell position: column `x` (west to east) and row `y` (north to south), both from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    /// Column, 0 at the west edge.
    pub x: u16,
    /// Row, 0 at the north edge.
    pub y: u16,
}

impl Pos {
    /// A position from its column and row.
    pub const fn new(x: u16, y: u16) -> Pos {
        Pos { x, y }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The index of a cell in a board's row-major cell arrays: `y * width + x`.
pub type Cell = u16;
