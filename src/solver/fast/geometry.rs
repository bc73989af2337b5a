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
    /// Words per cell set.
    pub words: usize,
    /// Per cell `c`, the set of cells (`words` words) whose occupation can change whether a
    /// robot at `c` reaches the target with every move lowering its rook bound (see
    /// [`Geometry::last_moves_region`]).
    pub region: Vec<u64>,
    /// Per cell `h`, the set of cells a robot at `h` could stand on after at most one move:
    /// `h` itself and its four rays up to the walls.
    pub reach: Vec<u64>,
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
        let mut geometry = Geometry {
            column_index,
            cell_of_column,
            stops,
            rook,
            cell_bits: usize::BITS - (cells.max(2) - 1).leading_zeros(),
            words: cells.div_ceil(64),
            region: Vec::new(),
            reach: Vec::new(),
        };
        geometry.reach = geometry.reach_sets();
        geometry.region = geometry.last_moves_regions();
        geometry
    }

    /// The bytes the tables take.
    pub fn bytes(&self) -> usize {
        let cells = self.rook.len();
        cells * (2 + 2 + 8 + 2) + (self.region.len() + self.reach.len()) * 8
    }

    /// The cells on the ray from `cell` in `dir` up to its wall stop, nearest first.
    fn ray(&self, cell: usize, dir: usize) -> impl Iterator<Item = usize> + '_ {
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

    fn reach_sets(&self) -> Vec<u64> {
        let cells = self.rook.len();
        let mut sets = vec![0u64; cells * self.words];
        for cell in 0..cells {
            let set = &mut sets[cell * self.words..(cell + 1) * self.words];
            set[cell / 64] |= 1 << (cell % 64);
            for dir in 0..4 {
                for at in self.ray(cell, dir) {
                    set[at / 64] |= 1 << (at % 64);
                }
            }
        }
        sets
    }

    /// For every cell, the region of the last-moves search: a robot at `c` with bound `R`
    /// looks, in each direction, for a stop one bound lower. Its slide in a direction ends at
    /// the first occupied cell or wall, so only the cells up to one past the farthest cell one
    /// bound lower can change where it stops; and from each such possible stop the search goes
    /// on. The region is the union of those ray cells and of the regions of the possible
    /// stops. Robots outside it never change the outcome.
    fn last_moves_regions(&self) -> Vec<u64> {
        let cells = self.rook.len();
        let words = self.words;
        let mut regions = vec![0u64; cells * words];
        let mut order: Vec<usize> = (0..cells)
            .filter(|&c| self.rook[c] != UNREACHABLE)
            .collect();
        // Regions of lower bounds are complete before they are merged into higher ones.
        order.sort_by_key(|&c| self.rook[c]);
        let mut merged = vec![0u64; words];
        for cell in order {
            let own = self.rook[cell];
            if own == 0 {
                continue;
            }
            merged.iter_mut().for_each(|w| *w = 0);
            for dir in 0..4 {
                let ray: Vec<usize> = self.ray(cell, dir).collect();
                let Some(last) = ray.iter().rposition(|&at| self.rook[at] + 1 == own) else {
                    continue;
                };
                for (i, &at) in ray.iter().enumerate().take((last + 2).min(ray.len())) {
                    merged[at / 64] |= 1 << (at % 64);
                    if i <= last && self.rook[at] + 1 == own {
                        for w in 0..words {
                            merged[w] |= regions[at * words + w];
                        }
                    }
                }
            }
            regions[cell * words..(cell + 1) * words].copy_from_slice(&merged);
        }
        regions
    }

    /// Whether a robot standing at `helper` could change the outcome of the last-moves search
    /// from `cell`, now or after one move of its own.
    #[inline(always)]
    pub fn may_matter(&self, cell: u16, helper: u16) -> bool {
        let w = self.words;
        let region = &self.region[usize::from(cell) * w..(usize::from(cell) + 1) * w];
        let reach = &self.reach[usize::from(helper) * w..(usize::from(helper) + 1) * w];
        region.iter().zip(reach).any(|(a, b)| a & b != 0)
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
