//! The board as the table-driven solvers (`fast`, `iddfs`) read it: stop tables in two index
//! orders, so that every slide with robots in the way is one table read and a handful of
//! integer comparisons, and the minimum-move bound of every cell.
//!
//! East and west slides run along a row, where the cells between a robot and its stop have
//! consecutive row-major indices; north and south slides run along a column, where they have
//! consecutive column-major indices. So a robot carries both indices, and a robot `o` blocks a
//! slide east from `start` to the free stop `stop` exactly when `start < o <= stop` in row-major
//! order — no division, no row check.

use super::min_moves::{UNREACHABLE, min_moves};
use crate::model::{Board, Cell, Direction};

/// Directions by index, as in [`Direction::ALL`]: north, east, south, west.
pub const NORTH: usize = 0;
/// East, see [`NORTH`].
pub const EAST: usize = 1;
/// South, see [`NORTH`].
pub const SOUTH: usize = 2;
/// West, see [`NORTH`].
pub const WEST: usize = 3;

/// The stop tables and the minimum-move bound of one board and one target cell.
#[derive(Clone, Debug)]
pub struct StopTables {
    /// Row-major cell index to column-major index.
    pub column_index: Vec<u16>,
    /// Column-major index to row-major cell index.
    pub cell_of_column: Vec<u16>,
    /// Per row-major cell, the stop on an empty board per direction: north and south as
    /// column-major indices, east and west as row-major cells.
    pub stops: Vec<[u16; 4]>,
    /// The minimum-move (rook) bound towards the target per row-major cell, as
    /// [`min_moves`] gives it.
    pub rook: Vec<u16>,
    /// The number of bits a cell index takes in a state key.
    pub cell_bits: u32,
    /// The board's width: cell `c` lies in column `c % width` and row `c / width`.
    pub width: usize,
}

impl StopTables {
    /// Builds the tables for `board` and the target at `goal`.
    pub fn new(board: &Board, goal: Cell) -> StopTables {
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
        StopTables {
            stops: empty_board_stops(board, &column_index),
            rook: min_moves(board, goal),
            column_index,
            cell_of_column,
            cell_bits: usize::BITS - (cells.max(2) - 1).leading_zeros(),
            width,
        }
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.rook.len()
    }

    /// The bytes the tables take.
    pub fn bytes(&self) -> usize {
        self.cells() * (2 + 2 + 8 + 2)
    }

    /// The rook bound of a cell; [`UNREACHABLE`] when the target cannot be reached from it.
    #[inline(always)]
    pub fn rook(&self, cell: u16) -> u32 {
        u32::from(self.rook[usize::from(cell)])
    }

    /// The cells on the ray from `cell` in `dir` up to its wall stop, nearest first.
    pub fn ray(&self, cell: usize, dir: usize) -> impl Iterator<Item = usize> + '_ {
        let horizontal = dir == EAST || dir == WEST;
        let forward = dir == EAST || dir == SOUTH;
        let start = if horizontal {
            cell as u16
        } else {
            self.column_index[cell]
        };
        let stop = self.stops[cell][dir];
        let steps = usize::from(start.abs_diff(stop));
        (1..=steps).map(move |k| {
            let at = if forward {
                start + k as u16
            } else {
                start - k as u16
            };
            usize::from(if horizontal {
                at
            } else {
                self.cell_of_column[usize::from(at)]
            })
        })
    }

    /// Where robot `robot` stops sliding in direction `dir` (row-major cell and column-major
    /// index), with the robots at `cells` (row-major) and `columns` (column-major, the same
    /// robots in the same order). Equal to its own cell when it cannot move.
    #[inline(always)]
    pub fn slide(&self, cells: &[u16], columns: &[u16], robot: usize, dir: usize) -> (u16, u16) {
        let cell = cells[robot];
        let stop = self.stops[usize::from(cell)][dir];
        // A robot never blocks itself: its own index fails the strict comparison.
        match dir {
            EAST => {
                let mut to = stop;
                for &other in cells {
                    if other > cell && other <= to {
                        to = other - 1;
                    }
                }
                (to, self.column_index[usize::from(to)])
            }
            WEST => {
                let mut to = stop;
                for &other in cells {
                    if other < cell && other >= to {
                        to = other + 1;
                    }
                }
                (to, self.column_index[usize::from(to)])
            }
            SOUTH => {
                let column = columns[robot];
                let mut to = stop;
                for &other in columns {
                    if other > column && other <= to {
                        to = other - 1;
                    }
                }
                (self.cell_of_column[usize::from(to)], to)
            }
            _ => {
                let column = columns[robot];
                let mut to = stop;
                for &other in columns {
                    if other < column && other >= to {
                        to = other + 1;
                    }
                }
                (self.cell_of_column[usize::from(to)], to)
            }
        }
    }
}

/// Whether a rook bound says the target is out of reach.
#[inline(always)]
pub fn unreachable(bound: u32) -> bool {
    bound == u32::from(UNREACHABLE)
}

/// Whether a robot may step from `cell` to its neighbour in `dir` (no wall, and the
/// neighbour, at `next`, is open). The border is always walled.
#[inline(always)]
fn open_step(board: &Board, cell: usize, next: usize, dir: Direction) -> bool {
    board.wall_mask(cell as Cell) & dir.bit() == 0 && !board.is_closed(next as Cell)
}

/// Where a robot stops from every cell in every direction on the empty board, by one sweep
/// per row and column: the same stops as the model's `MoveTables`, without stepping cell by
/// cell from every start. North and south are column-major indices, east and west cells.
fn empty_board_stops(board: &Board, column_index: &[u16]) -> Vec<[u16; 4]> {
    let width = usize::from(board.width());
    let height = usize::from(board.height());
    let mut stops = vec![[0u16; 4]; width * height];
    for y in 0..height {
        let row = y * width;
        for x in 0..width {
            let cell = row + x;
            stops[cell][WEST] = if x > 0 && open_step(board, cell, cell - 1, Direction::West) {
                stops[cell - 1][WEST]
            } else {
                cell as u16
            };
        }
        for x in (0..width).rev() {
            let cell = row + x;
            stops[cell][EAST] =
                if x + 1 < width && open_step(board, cell, cell + 1, Direction::East) {
                    stops[cell + 1][EAST]
                } else {
                    cell as u16
                };
        }
    }
    for x in 0..width {
        for y in 0..height {
            let cell = y * width + x;
            stops[cell][NORTH] = if y > 0 && open_step(board, cell, cell - width, Direction::North)
            {
                stops[cell - width][NORTH]
            } else {
                column_index[cell]
            };
        }
        for y in (0..height).rev() {
            let cell = y * width + x;
            stops[cell][SOUTH] =
                if y + 1 < height && open_step(board, cell, cell + width, Direction::South) {
                    stops[cell + width][SOUTH]
                } else {
                    column_index[cell]
                };
        }
    }
    stops
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MoveTables;
    use crate::model::random::random_puzzle;

    #[test]
    fn stops_equal_the_model_and_rays_end_at_them() {
        let mut boards = 0;
        for seed in 0..300u64 {
            let width = 1 + (seed * 7 % 23) as u16;
            let height = 1 + (seed * 11 % 19) as u16;
            let Ok(puzzle) = random_puzzle(width, height, 1, 1 + (seed % 5) as usize, seed) else {
                continue;
            };
            boards += 1;
            let board = puzzle.board();
            let t = StopTables::new(board, puzzle.goal_cell());
            let tables = MoveTables::new(board);
            for cell in 0..board.cell_count() as Cell {
                if board.is_closed(cell) {
                    continue;
                }
                let stops = t.stops[usize::from(cell)];
                assert_eq!(stops[EAST], tables.stop(cell, Direction::East));
                assert_eq!(stops[WEST], tables.stop(cell, Direction::West));
                let north = tables.stop(cell, Direction::North);
                let south = tables.stop(cell, Direction::South);
                assert_eq!(stops[NORTH], t.column_index[usize::from(north)]);
                assert_eq!(stops[SOUTH], t.column_index[usize::from(south)]);
                for (dir, &direction) in Direction::ALL.iter().enumerate() {
                    let last = t.ray(usize::from(cell), dir).last();
                    let stop = tables.stop(cell, direction);
                    assert_eq!(last.unwrap_or(usize::from(cell)), usize::from(stop));
                }
            }
        }
        assert!(boards > 250);
    }
}
