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
    /// The number of bits a cell index takes in a state key.
    pub cell_bits: u32,
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
        let stops: Vec<[u16; 4]> = (0..cells as Cell)
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
        let rook = min_moves(board, goal);
        Geometry {
            column_index,
            cell_of_column,
            stops,
            rook,
            cell_bits: usize::BITS - (cells.max(2) - 1).leading_zeros(),
        }
    }

    /// The rook bound of a cell; [`UNREACHABLE`] when the target cannot be reached from it.
    #[inline(always)]
    pub fn rook(&self, cell: u16) -> u32 {
        u32::from(self.rook[usize::from(cell)])
    }
}

/// Whether a rook bound says the target is out of reach.
#[inline(always)]
pub fn unreachable(bound: u32) -> bool {
    bound == u32::from(UNREACHABLE)
}
