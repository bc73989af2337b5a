//! The board: size, walls on cell sides, cells closed to robots, and targets.

use super::ModelError;
use super::geometry::{Cell, Direction, Pos};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The smallest board side.
pub const MIN_SIDE: u16 = 1;
/// The largest board side: cell indices then fit in 12 bits.
pub const MAX_SIDE: u16 = 64;
/// The side of the standard board.
pub const STANDARD_SIDE: u16 = 16;

/// The colour of a target: one robot's colour, or the vortex that any robot may reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum TargetColor {
    /// Only the red robot counts.
    Red,
    /// Only the green robot counts.
    Green,
    /// Only the blue robot counts.
    Blue,
    /// Only the yellow robot counts.
    Yellow,
    /// The multicoloured vortex: any robot counts.
    Any,
}

impl TargetColor {
    /// Every target colour, the vortex last.
    pub const ALL: [TargetColor; 5] = [
        TargetColor::Red,
        TargetColor::Green,
        TargetColor::Blue,
        TargetColor::Yellow,
        TargetColor::Any,
    ];

    /// The robot that must reach a target of this colour, or `None` for the vortex.
    pub const fn robot(self) -> Option<RobotColor> {
        match self {
            TargetColor::Red => Some(RobotColor::Red),
            TargetColor::Green => Some(RobotColor::Green),
            TargetColor::Blue => Some(RobotColor::Blue),
            TargetColor::Yellow => Some(RobotColor::Yellow),
            TargetColor::Any => None,
        }
    }

    /// The target colour that asks for this robot (silver has none: it only reaches the vortex).
    pub const fn for_robot(robot: RobotColor) -> Option<TargetColor> {
        match robot {
            RobotColor::Red => Some(TargetColor::Red),
            RobotColor::Green => Some(TargetColor::Green),
            RobotColor::Blue => Some(TargetColor::Blue),
            RobotColor::Yellow => Some(TargetColor::Yellow),
            RobotColor::Silver => None,
        }
    }

    /// Whether a robot of this colour counts on a target of this colour.
    pub fn accepts(self, robot: RobotColor) -> bool {
        self == TargetColor::Any || self.robot() == Some(robot)
    }
}

impl fmt::Display for TargetColor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.robot() {
            Some(robot) => robot.fmt(f),
            None => f.write_str("any"),
        }
    }
}

/// The printed symbol of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Shape {
    /// A circle (a moon in some editions).
    Circle,
    /// A triangle (a planet in some editions).
    Triangle,
    /// A square (a star in some editions).
    Square,
    /// A hexagon (a gear in some editions).
    Hexagon,
    /// The multicoloured vortex.
    Vortex,
}

impl Shape {
    /// Every shape.
    pub const ALL: [Shape; 5] = [
        Shape::Circle,
        Shape::Triangle,
        Shape::Square,
        Shape::Hexagon,
        Shape::Vortex,
    ];

    /// The lower-case name used in tile data and text output.
    pub const fn name(self) -> &'static str {
        match self {
            Shape::Circle => "circle",
            Shape::Triangle => "triangle",
            Shape::Square => "square",
            Shape::Hexagon => "hexagon",
            Shape::Vortex => "vortex",
        }
    }
}

/// A robot colour. The order (red, green, blue, yellow, silver) is the order robots are listed
/// in everywhere: in puzzles, game ids and solver output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RobotColor {
    /// Move letter `R`.
    Red,
    /// Move letter `G`.
    Green,
    /// Move letter `B`.
    Blue,
    /// Move letter `Y`.
    Yellow,
    /// Move letter `K` (Kevin Cox's files call this robot black; `S` would read as south).
    Silver,
}

impl RobotColor {
    /// All robot colours in list order.
    pub const ALL: [RobotColor; 5] = [
        RobotColor::Red,
        RobotColor::Green,
        RobotColor::Blue,
        RobotColor::Yellow,
        RobotColor::Silver,
    ];

    /// The index 0..5 in [`RobotColor::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter used in move notation: `R`, `G`, `B`, `Y`, or `K` for silver.
    pub const fn letter(self) -> char {
        match self {
            RobotColor::Red => 'R',
            RobotColor::Green => 'G',
            RobotColor::Blue => 'B',
            RobotColor::Yellow => 'Y',
            RobotColor::Silver => 'K',
        }
    }

    /// Parses a robot letter, upper or lower case.
    pub fn from_letter(letter: char) -> Option<RobotColor> {
        match letter.to_ascii_uppercase() {
            'R' => Some(RobotColor::Red),
            'G' => Some(RobotColor::Green),
            'B' => Some(RobotColor::Blue),
            'Y' => Some(RobotColor::Yellow),
            'K' => Some(RobotColor::Silver),
            _ => None,
        }
    }

    /// The lower-case colour name.
    pub const fn name(self) -> &'static str {
        match self {
            RobotColor::Red => "red",
            RobotColor::Green => "green",
            RobotColor::Blue => "blue",
            RobotColor::Yellow => "yellow",
            RobotColor::Silver => "silver",
        }
    }
}

impl fmt::Display for RobotColor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A target square printed on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Target {
    /// Where it is.
    pub pos: Pos,
    /// Which robot it asks for.
    pub color: TargetColor,
    /// Its symbol.
    pub shape: Shape,
}

/// A rectangular board of `width x height` cells with walls, closed cells and targets.
///
/// Walls live on cell sides and are always recorded on both cells they separate; the outer
/// border is always walled. A closed cell (the 2x2 centre of the standard board) can never
/// hold or be crossed by a robot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    width: u16,
    height: u16,
    walls: Vec<u8>,
    closed: Vec<bool>,
    targets: Vec<Target>,
}

impl Board {
    /// An empty board: only the border is walled.
    pub fn new(width: u16, height: u16) -> Result<Board, ModelError> {
        check_size(width, height)?;
        let cells = usize::from(width) * usize::from(height);
        let mut board = Board {
            width,
            height,
            walls: vec![0; cells],
            closed: vec![false; cells],
            targets: Vec::new(),
        };
        for index in 0..cells {
            let pos = board.pos(index as Cell);
            let mut mask = 0;
            for dir in Direction::ALL {
                if board.neighbour_pos(pos, dir).is_none() {
                    mask |= dir.bit();
                }
            }
            board.walls[index] = mask;
        }
        Ok(board)
    }

    /// Columns.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// The number of cells.
    pub fn cell_count(&self) -> usize {
        self.walls.len()
    }

    /// Whether a position lies on the board.
    pub fn contains(&self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    /// The cell index of an on-board position.
    pub fn cell(&self, pos: Pos) -> Cell {
        debug_assert!(self.contains(pos));
        pos.y * self.width + pos.x
    }

    /// The position of a cell index.
    pub fn pos(&self, cell: Cell) -> Pos {
        Pos::new(cell % self.width, cell / self.width)
    }

    /// The neighbouring position in `dir`, or `None` past the border.
    pub fn neighbour_pos(&self, pos: Pos, dir: Direction) -> Option<Pos> {
        let (dx, dy) = dir.delta();
        let x = i32::from(pos.x) + dx;
        let y = i32::from(pos.y) + dy;
        if x < 0 || y < 0 || x >= i32::from(self.width) || y >= i32::from(self.height) {
            None
        } else {
            Some(Pos::new(x as u16, y as u16))
        }
    }

    /// The neighbouring cell in `dir`, or `None` past the border.
    pub fn neighbour(&self, cell: Cell, dir: Direction) -> Option<Cell> {
        self.neighbour_pos(self.pos(cell), dir)
            .map(|p| self.cell(p))
    }

    /// The signed index step of one cell in `dir`.
    pub fn step(&self, dir: Direction) -> isize {
        let (dx, dy) = dir.delta();
        dx as isize + dy as isize * self.width as isize
    }

    /// The wall mask of a cell (`N=1, E=2, S=4, W=8`).
    pub fn wall_mask(&self, cell: Cell) -> u8 {
        self.walls[usize::from(cell)]
    }

    /// Whether the `dir` side of a cell is walled (always true on the border).
    pub fn has_wall(&self, cell: Cell, dir: Direction) -> bool {
        self.walls[usize::from(cell)] & dir.bit() != 0
    }

    /// Whether the wall between a cell and its neighbour in `dir` is on the border.
    pub fn is_border(&self, pos: Pos, dir: Direction) -> bool {
        self.neighbour_pos(pos, dir).is_none()
    }

    /// Puts up or takes down the wall on the `dir` side of `pos`, on both cells it separates.
    /// Border walls cannot be removed: that is an error naming the side.
    pub fn set_wall(&mut self, pos: Pos, dir: Direction, on: bool) -> Result<(), ModelError> {
        if !self.contains(pos) {
            return Err(ModelError::OffBoard {
                what: "wall".into(),
                pos,
                width: self.width,
                height: self.height,
            });
        }
        let Some(other) = self.neighbour_pos(pos, dir) else {
            if on {
                return Ok(());
            }
            return Err(ModelError::BorderWall { pos, side: dir });
        };
        let a = usize::from(self.cell(pos));
        let b = usize::from(self.cell(other));
        if on {
            self.walls[a] |= dir.bit();
            self.walls[b] |= dir.opposite().bit();
        } else {
            self.walls[a] &= !dir.bit();
            self.walls[b] &= !dir.opposite().bit();
        }
        Ok(())
    }

    /// Every interior wall once, as the east or south side of the cell west or north of it,
    /// sorted by cell then side.
    pub fn interior_walls(&self) -> Vec<(Pos, Direction)> {
        let mut walls = Vec::new();
        for cell in 0..self.cell_count() as Cell {
            let pos = self.pos(cell);
            for dir in [Direction::East, Direction::South] {
                if self.has_wall(cell, dir) && !self.is_border(pos, dir) {
                    walls.push((pos, dir));
                }
            }
        }
        walls
    }

    /// Removes every interior wall.
    pub fn clear_walls(&mut self) {
        for (pos, dir) in self.interior_walls() {
            // Interior walls always have a cell on both sides, so this cannot fail.
            let _ = self.set_wall(pos, dir, false);
        }
    }

    /// Whether robots are kept out of a cell.
    pub fn is_closed(&self, cell: Cell) -> bool {
        self.closed[usize::from(cell)]
    }

    /// Closes a cell to robots, or opens it.
    pub fn set_closed(&mut self, pos: Pos, closed: bool) -> Result<(), ModelError> {
        if !self.contains(pos) {
            return Err(ModelError::OffBoard {
                what: "closed cell".into(),
                pos,
                width: self.width,
                height: self.height,
            });
        }
        let cell = usize::from(self.cell(pos));
        self.closed[cell] = closed;
        Ok(())
    }

    /// The closed cells in row-major order.
    pub fn closed_cells(&self) -> Vec<Pos> {
        (0..self.cell_count() as Cell)
            .filter(|&c| self.is_closed(c))
            .map(|c| self.pos(c))
            .collect()
    }

    /// The printed targets, sorted by position.
    pub fn targets(&self) -> &[Target] {
        &self.targets
    }

    /// The target printed at a position, if any.
    pub fn target_at(&self, pos: Pos) -> Option<&Target> {
        self.targets.iter().find(|t| t.pos == pos)
    }

    /// Prints a target, replacing any target already at its position.
    pub fn set_target(&mut self, target: Target) -> Result<(), ModelError> {
        if !self.contains(target.pos) {
            return Err(ModelError::OffBoard {
                what: "target".into(),
                pos: target.pos,
                width: self.width,
                height: self.height,
            });
        }
        self.targets.retain(|t| t.pos != target.pos);
        self.targets.push(target);
        self.targets.sort_by_key(|t| (t.pos.y, t.pos.x));
        Ok(())
    }

    /// Removes the target at a position; returns it if there was one.
    pub fn remove_target(&mut self, pos: Pos) -> Option<Target> {
        let index = self.targets.iter().position(|t| t.pos == pos)?;
        Some(self.targets.remove(index))
    }

    /// Removes every target.
    pub fn clear_targets(&mut self) {
        self.targets.clear();
    }

    /// A board of another size holding everything of this one that fits: walls between two
    /// kept cells, closed cells and targets inside the new size.
    pub fn resized(&self, width: u16, height: u16) -> Result<Board, ModelError> {
        let mut board = Board::new(width, height)?;
        for (pos, dir) in self.interior_walls() {
            if let Some(other) = self.neighbour_pos(pos, dir)
                && board.contains(pos)
                && board.contains(other)
            {
                board.set_wall(pos, dir, true)?;
            }
        }
        for pos in self.closed_cells() {
            if board.contains(pos) {
                board.set_closed(pos, true)?;
            }
        }
        for target in &self.targets {
            if board.contains(target.pos) {
                board.set_target(*target)?;
            }
        }
        Ok(board)
    }
}

/// Checks a board size against the model's range.
pub fn check_size(width: u16, height: u16) -> Result<(), ModelError> {
    let range = MIN_SIDE..=MAX_SIDE;
    if !range.contains(&width) || !range.contains(&height) {
        return Err(ModelError::Size { width, height });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_are_set_on_both_cells_and_border_stays() {
        let mut board = Board::new(4, 3).unwrap();
        board
            .set_wall(Pos::new(1, 1), Direction::East, true)
            .unwrap();
        assert!(board.has_wall(board.cell(Pos::new(1, 1)), Direction::East));
        assert!(board.has_wall(board.cell(Pos::new(2, 1)), Direction::West));
        board
            .set_wall(Pos::new(2, 1), Direction::West, false)
            .unwrap();
        assert!(!board.has_wall(board.cell(Pos::new(1, 1)), Direction::East));
        assert!(
            board
                .set_wall(Pos::new(0, 0), Direction::North, false)
                .is_err()
        );
        assert!(board.has_wall(0, Direction::North));
        assert!(board.has_wall(0, Direction::West));
    }

    #[test]
    fn sizes_outside_one_to_sixty_four_are_rejected() {
        assert!(Board::new(0, 4).is_err());
        assert!(Board::new(65, 4).is_err());
        assert!(Board::new(1, 1).is_ok());
        assert!(Board::new(64, 64).is_ok());
    }

    #[test]
    fn resize_keeps_what_fits() {
        let mut board = Board::new(8, 8).unwrap();
        board
            .set_wall(Pos::new(1, 1), Direction::South, true)
            .unwrap();
        board
            .set_wall(Pos::new(6, 6), Direction::East, true)
            .unwrap();
        let small = board.resized(4, 4).unwrap();
        assert_eq!(
            small.interior_walls(),
            vec![(Pos::new(1, 1), Direction::South)]
        );
    }
}
