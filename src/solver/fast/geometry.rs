//! The board as the fast solver reads it: stop tables in two index orders, so that every
//! slide with robots in the way is one table read and a handful of integer comparisons.
//!
//! East and west slides run along a row, where the cells between a robot and its stop have
//! consecutive row-major indices; north and south slides run along a column, where they have
//! consecutive column-major indices. So a robot carries both indices, and a robot `o` blocks a
//! slide east from `start` to the free stop `stop` exactly when `start < o <= stop` in row-major
//! order — no division, no row check.

use super::super::min_moves::{UNREACHABLE, min_moves};
use crate::model::{Board, Cell, Direction, MoveTables};

/// Directions by index, as in [`Direction::ALL`]: north, east, south, west.
pub const NORTH: usize = 0;
/// East, see [`NORTH`].
pub const EAST: usize = 1;
/// South, see [`NORTH`].
pub const SOUTH: usize = 2;
/// West, see [`NORTH`].
pub const WEST: usize = 3;

/// A segment id that no open cell has: closed cells get it.
const NO_SEGMENT: u16 = u16::MAX;

/// Precomputed facts about one board and one target cell.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Row-major cell index to column-major index.
    pub column_index: Vec<u16>,
    /// Column-major index to row-major cell index.
    pub cell_of_column: Vec<u16>,
    /// Per row-major cell, the stop on an empty board per direction: north and south as
    /// column-major indices, east and west as row-major cells.
    pub stops: Vec<[u16; 4]>,
    /// The minimum-move (rook) bound towards the target per row-major cell.
    pub rook: Vec<u16>,
    /// Per cell, the id of the wall-delimited stretch of its row it lies on.
    pub row_segment: Vec<u16>,
    /// Per cell, the id of the wall-delimited stretch of its column it lies on.
    pub column_segment: Vec<u16>,
    /// The number of bits a cell index takes in a state key.
    pub cell_bits: u32,
    /// The board's width.
    pub width: u16,
    /// Per cell, its column.
    pub x: Vec<u16>,
    /// Per cell, its row.
    pub y: Vec<u16>,
}

impl Geometry {
    /// Builds the tables for `board` and the target at `goal`.
    pub fn new(board: &Board, goal: Cell) -> Geometry {
        let width = usize::from(board.width());
        let height = usize::from(board.height());
        let cells = width * height;
        let column_index: Vec<u16> = (0..cells)
            .map(|c| ((c % width) * height + c / width) as u16)
            .collect();
        let mut cell_of_column = vec![0u16; cells];
        for (cell, &column) in column_index.iter().enumerate() {
            cell_of_column[usize::from(column)] = cell as u16;
        }
        let tables = MoveTables::new(board);
        let stops = (0..cells as Cell)
            .map(|c| {
                let north = column_index[usize::from(tables.stop(c, Direction::North))];
                let south = column_index[usize::from(tables.stop(c, Direction::South))];
                [
                    north,
                    tables.stop(c, Direction::East),
                    south,
                    tables.stop(c, Direction::West),
                ]
            })
            .collect();
        let mut row_segment = vec![NO_SEGMENT; cells];
        let mut column_segment = vec![NO_SEGMENT; cells];
        let mut next = 0u16;
        for y in 0..height {
            let mut open = false;
            for x in 0..width {
                let cell = (y * width + x) as Cell;
                if board.is_closed(cell) {
                    open = false;
                    continue;
                }
                if !open || board.has_wall(cell, Direction::West) {
                    next += 1;
                    open = true;
                }
                row_segment[usize::from(cell)] = next;
            }
        }
        for x in 0..width {
            let mut open = false;
            for y in 0..height {
                let cell = (y * width + x) as Cell;
                if board.is_closed(cell) {
                    open = false;
                    continue;
                }
                if !open || board.has_wall(cell, Direction::North) {
                    next += 1;
                    open = true;
                }
                column_segment[usize::from(cell)] = next;
            }
        }
        Geometry {
            column_index,
            cell_of_column,
            stops,
            rook: min_moves(board, goal),
            row_segment,
            column_segment,
            cell_bits: usize::BITS - (cells.max(2) - 1).leading_zeros(),
            width: width as u16,
            x: (0..cells).map(|c| (c % width) as u16).collect(),
            y: (0..cells).map(|c| (c / width) as u16).collect(),
        }
    }

    /// The rook bound of a cell; [`UNREACHABLE`] when the target cannot be reached from it.
    #[inline(always)]
    pub fn rook(&self, cell: u16) -> u32 {
        u32::from(self.rook[usize::from(cell)])
    }

    /// Whether a robot at `helper` could stand on `cell` after at most one move of its own,
    /// whatever the other robots do: both lie on one wall-delimited stretch of a row or column.
    #[inline(always)]
    pub fn within_one_move(&self, helper: u16, cell: u16) -> bool {
        let (h, c) = (usize::from(helper), usize::from(cell));
        self.row_segment[h] == self.row_segment[c]
            || self.column_segment[h] == self.column_segment[c]
    }
}

impl Geometry {
    /// The fewest moves a robot at `from` needs to stand on `to` if it could stop anywhere
    /// (other robots ignored), counted up to [`ROOK_CAP`]: any larger distance is reported as
    /// the cap, which still never overestimates.
    #[inline(always)]
    pub fn rook_between(&self, from: u16, to: u16) -> u32 {
        if from == to {
            return 0;
        }
        if self.within_one_move(from, to) {
            return 1;
        }
        // Two moves turn at one of the two corners of the rectangle the cells span.
        let (a, b) = (usize::from(from), usize::from(to));
        let w = usize::from(self.width);
        let corner = usize::from(self.y[a]) * w + usize::from(self.x[b]);
        if self.row_segment[corner] == self.row_segment[a]
            && self.column_segment[corner] == self.column_segment[b]
        {
            return 2;
        }
        let corner = usize::from(self.y[b]) * w + usize::from(self.x[a]);
        if self.column_segment[corner] == self.column_segment[a]
            && self.row_segment[corner] == self.row_segment[b]
        {
            return 2;
        }
        ROOK_CAP
    }
}

/// The largest distance [`Geometry::rook_between`] tells apart.
pub const ROOK_CAP: u32 = 3;

/// Whether a rook bound says the target is out of reach.
#[inline(always)]
pub fn unreachable(bound: u32) -> bool {
    bound == u32::from(UNREACHABLE)
}
