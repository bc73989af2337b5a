//! The board as the fast solver reads it: stop tables in two index orders, so that every
//! slide with robots in the way is one table read and a handful of integer comparisons.
//!
//! East and west slides run along a row, where the cells between a robot and its stop have
//! consecutive row-major indices; north and south slides run along a column, where they have
//! consecutive column-major indices. So a robot carries both indices, and a robot `o` blocks a
//! slide east from `start` to the free stop `stop` exactly when `start < o <= stop` in row-major
//! order — no division, no row check.

use super::super::min_moves::UNREACHABLE;
use crate::model::{Board, Cell, Direction};
use std::sync::OnceLock;

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
    /// Per row-major cell, the directions (bit `1 << dir`) whose ray up to the wall holds a
    /// cell with a rook bound one less: only those can start a move that lowers the bound,
    /// wherever the other robots stand.
    pub descents: Vec<u8>,
    /// Per row-major cell, its column and row and how far its rays reach on an empty board
    /// (see [`Cross`]).
    pub crosses: Vec<Cross>,
    /// The number of bits a cell index takes in a state key.
    pub cell_bits: u32,
    /// Words per cell set.
    pub words: usize,
    /// The cell sets of [`CellSets::may_matter`] and the rest, built on first need: small searches finish
    /// before they would pay for themselves.
    last_moves: OnceLock<CellSets>,
}

/// A cell's column and row, and the columns and rows its four rays reach on an empty board:
/// every cell a robot standing there can end a move on lies on this cross.
#[derive(Clone, Copy, Debug)]
pub struct Cross {
    /// The cell's column.
    pub x: u8,
    /// The cell's row.
    pub y: u8,
    /// The column of the west stop.
    pub west: u8,
    /// The column of the east stop.
    pub east: u8,
    /// The row of the north stop.
    pub north: u8,
    /// The row of the south stop.
    pub south: u8,
}

/// Cell sets (`words` words per cell) for skipping helper moves before the last moves. Each
/// test is one bit read; a search fetches the sets once per node with
/// [`Geometry::cell_sets`].
#[derive(Clone, Debug)]
pub struct CellSets {
    words: usize,
    /// Per cell `c`, the cells whose occupation can change whether a robot at `c` reaches the
    /// target with every move lowering its rook bound (see `last_moves_regions`).
    region: Vec<u64>,
    /// Per cell `h`, the cells a robot at `h` could stand on after at most one move: `h`
    /// itself and its four rays up to the walls.
    reach: Vec<u64>,
    /// Per cell `c`, the cells whose occupation can change whether a robot at `c` alone
    /// reaches the target in its bound plus one moves (see `spare_move_regions`).
    spare_region: Vec<u64>,
    /// Per cell `c`, the cells `h` whose reach meets the region of `c`: a helper at `h` may
    /// matter to the last-moves search from `c`.
    matter: Vec<u64>,
}

impl CellSets {
    /// Whether `member` belongs to the set of `owner` in `sets`.
    #[inline(always)]
    fn holds(&self, sets: &[u64], owner: u16, member: u16) -> bool {
        let word = sets[usize::from(owner) * self.words + usize::from(member) / 64];
        word & (1 << (member % 64)) != 0
    }

    /// Whether a robot standing at `other` could change the outcome of a search of the robot
    /// at `cell` alone with one move to spare (see `spare_move_regions`).
    #[inline(always)]
    pub fn in_spare_region(&self, cell: u16, other: u16) -> bool {
        self.holds(&self.spare_region, cell, other)
    }

    /// Whether a robot at `helper` could pass over or stop on `other` in one move (on the
    /// board without robots, so also whenever robots stand in its way).
    #[inline(always)]
    pub fn in_reach(&self, helper: u16, other: u16) -> bool {
        self.holds(&self.reach, helper, other)
    }

    /// Whether a robot's arrival at or departure from `other` could change the outcome of the
    /// last-moves search from `cell`.
    #[inline(always)]
    pub fn in_region(&self, cell: u16, other: u16) -> bool {
        self.holds(&self.region, cell, other)
    }

    /// Whether a robot standing at `helper` could change the outcome of the last-moves search
    /// from `cell`, now or after one move of its own.
    #[inline(always)]
    pub fn may_matter(&self, cell: u16, helper: u16) -> bool {
        self.holds(&self.matter, cell, helper)
    }
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
        let stops = empty_board_stops(board, &column_index);
        let rook = rook_distances(board, goal);
        let mut geometry = Geometry {
            column_index,
            cell_of_column,
            stops,
            rook,
            descents: Vec::new(),
            crosses: Vec::new(),
            cell_bits: usize::BITS - (cells.max(2) - 1).leading_zeros(),
            words: cells.div_ceil(64),
            last_moves: OnceLock::new(),
        };
        geometry.descents = (0..cells)
            .map(|cell| {
                let below = geometry.rook[cell].checked_sub(1);
                (0..4)
                    .filter(|&dir| {
                        below
                            .is_some_and(|b| geometry.ray(cell, dir).any(|c| geometry.rook[c] == b))
                    })
                    .fold(0u8, |mask, dir| mask | 1 << dir)
            })
            .collect();
        // Sides are at most `MAX_SIDE` (64), so columns and rows fit a byte.
        let place = |cell: usize| ((cell % width) as u8, (cell / width) as u8);
        geometry.crosses = (0..cells)
            .map(|cell| {
                let stops = geometry.stops[cell];
                let (x, y) = place(cell);
                let of_column =
                    |column: u16| place(usize::from(geometry.cell_of_column[usize::from(column)]));
                Cross {
                    x,
                    y,
                    west: place(usize::from(stops[WEST])).0,
                    east: place(usize::from(stops[EAST])).0,
                    north: of_column(stops[NORTH]).1,
                    south: of_column(stops[SOUTH]).1,
                }
            })
            .collect();
        geometry
    }

    /// Builds the cell sets ([`Geometry::cell_sets`]), if not built yet.
    pub fn prepare_last_moves(&self) {
        self.last_moves.get_or_init(|| {
            let region = self.last_moves_regions();
            let reach = self.reach_sets();
            CellSets {
                words: self.words,
                spare_region: self.spare_move_regions(&region),
                matter: self.matter_sets(&region, &reach),
                region,
                reach,
            }
        });
    }

    /// Whether the cell sets are built.
    #[inline(always)]
    pub fn last_moves_ready(&self) -> bool {
        self.last_moves.get().is_some()
    }

    /// The cell sets, once [`Geometry::prepare_last_moves`] built them.
    #[inline(always)]
    pub fn cell_sets(&self) -> Option<&CellSets> {
        self.last_moves.get()
    }

    /// The bytes the tables take.
    pub fn bytes(&self) -> usize {
        let cells = self.rook.len();
        let sets = self.last_moves.get().map_or(0, |m| {
            (m.region.len() + m.reach.len() + m.spare_region.len() + m.matter.len()) * 8
        });
        cells * (2 + 2 + 8 + 2 + 1 + size_of::<Cross>()) + sets
    }

    /// The bytes [`Geometry::prepare_last_moves`] adds.
    pub fn last_moves_bytes(&self) -> usize {
        if self.last_moves_ready() {
            0
        } else {
            4 * self.rook.len() * self.words * 8
        }
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

    /// For every cell `c`, the cells from which a robot could stand in the last-moves region
    /// of `c` now or after one move: the union of the reaches of the region's cells (a cell
    /// lies in the reach of another exactly when that one lies in its reach, as both say the
    /// same straight stretch holds no wall).
    fn matter_sets(&self, region: &[u64], reach: &[u64]) -> Vec<u64> {
        let words = self.words;
        let mut matter = vec![0u64; region.len()];
        for (own, set) in region.chunks(words).zip(matter.chunks_mut(words)) {
            for (w, &bits) in own.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    let at = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let from = &reach[at * words..(at + 1) * words];
                    set.iter_mut().zip(from).for_each(|(m, f)| *m |= f);
                }
            }
        }
        matter
    }

    /// For every cell, the region of the last-moves search: a robot at `c` with bound `R`
    /// looks, in each direction, for a stop one bound lower. Its slide in a direction ends at
    /// the first occupied cell or wall, so only the cells up to one past the farthest cell one
    /// bound lower can change where it stops; and from each such possible stop the search goes
    /// on. The region is the union of those ray cells and of the regions of the possible
    /// stops. Robots outside it never change the outcome.
    fn last_moves_regions(&self) -> Vec<u64> {
        self.ray_regions(None)
    }

    /// For every cell, the region of a search of the robot alone with one move to spare: its
    /// moves lower its rook bound by one, except at most one that keeps it. From a cell with
    /// bound `R` a slide can then stop on a cell of bound `R - 1`, or of `R` while the spare
    /// move is unused, so the cells up to one past the farthest such cell of each ray can
    /// change where it stops. The region is the union of those ray cells, of the spare
    /// regions of the cells one bound lower on them and of the last-moves regions of the
    /// cells of the same bound (the spare move used). It holds the last-moves region.
    fn spare_move_regions(&self, last_moves: &[u64]) -> Vec<u64> {
        self.ray_regions(Some(last_moves))
    }

    /// The regions of [`Geometry::last_moves_regions`] (`same_bound` is `None`) or of
    /// [`Geometry::spare_move_regions`] (`same_bound` holds the last-moves regions, merged for
    /// stops of the same bound), built in order of the bound.
    fn ray_regions(&self, same_bound: Option<&[u64]>) -> Vec<u64> {
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
            let lower = |at: usize| self.rook[at] + 1 == own;
            let same = |at: usize| same_bound.is_some() && self.rook[at] == own;
            for dir in 0..4 {
                let Some(last) = self
                    .ray(cell, dir)
                    .enumerate()
                    .filter(|&(_, at)| lower(at) || same(at))
                    .map(|(i, _)| i)
                    .last()
                else {
                    continue;
                };
                for (i, at) in self.ray(cell, dir).enumerate().take(last + 2) {
                    merged[at / 64] |= 1 << (at % 64);
                    if i > last {
                        continue;
                    }
                    let from = match same_bound {
                        _ if lower(at) => &regions[at * words..(at + 1) * words],
                        Some(same_bound) if same(at) => &same_bound[at * words..(at + 1) * words],
                        _ => continue,
                    };
                    merged.iter_mut().zip(from).for_each(|(m, f)| *m |= f);
                }
            }
            regions[cell * words..(cell + 1) * words].copy_from_slice(&merged);
        }
        regions
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

    /// The rook bound of a cell; [`UNREACHABLE`] when the target cannot be reached from it.
    #[inline(always)]
    pub fn rook(&self, cell: u16) -> u32 {
        u32::from(self.rook[usize::from(cell)])
    }
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

/// The minimum-move (rook) bound of every cell, as [`min_moves`](super::super::min_moves)
/// defines it (breadth first from the target, each step sliding through every cell until a
/// wall or closed cell), computed on plain arrays.
fn rook_distances(board: &Board, goal: Cell) -> Vec<u16> {
    let width = usize::from(board.width());
    let cells = board.cell_count();
    let mut moves = vec![UNREACHABLE; cells];
    let mut queue = Vec::with_capacity(cells);
    moves[usize::from(goal)] = 0;
    queue.push(usize::from(goal));
    let mut head = 0;
    while head < queue.len() {
        let cell = queue[head];
        head += 1;
        let next = moves[cell] + 1;
        for dir in Direction::ALL {
            let mut at = cell;
            loop {
                let (x, y) = (at % width, at / width);
                let step = match dir {
                    Direction::North if y > 0 => at - width,
                    Direction::South if y + 1 < cells / width => at + width,
                    Direction::West if x > 0 => at - 1,
                    Direction::East if x + 1 < width => at + 1,
                    _ => break,
                };
                if !open_step(board, at, step, dir) {
                    break;
                }
                at = step;
                if moves[at] == UNREACHABLE {
                    moves[at] = next;
                    queue.push(at);
                }
            }
        }
    }
    moves
}

/// Whether a rook bound says the target is out of reach.
#[inline(always)]
pub fn unreachable(bound: u32) -> bool {
    bound == u32::from(UNREACHABLE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MoveTables;
    use crate::model::random::random_puzzle;
    use crate::solver::min_moves::min_moves;

    #[test]
    fn stops_and_bounds_equal_the_model_and_the_shared_bound() {
        let mut boards = 0;
        for seed in 0..300u64 {
            let width = 1 + (seed * 7 % 23) as u16;
            let height = 1 + (seed * 11 % 19) as u16;
            let Ok(puzzle) = random_puzzle(width, height, 1, 1 + (seed % 5) as usize, seed) else {
                continue;
            };
            boards += 1;
            let board = puzzle.board();
            let g = Geometry::new(board, puzzle.goal_cell());
            assert_eq!(g.rook, min_moves(board, puzzle.goal_cell()), "seed {seed}");
            let tables = MoveTables::new(board);
            for cell in 0..board.cell_count() as Cell {
                if board.is_closed(cell) {
                    continue;
                }
                let stops = g.stops[usize::from(cell)];
                assert_eq!(stops[EAST], tables.stop(cell, Direction::East));
                assert_eq!(stops[WEST], tables.stop(cell, Direction::West));
                let north = tables.stop(cell, Direction::North);
                let south = tables.stop(cell, Direction::South);
                assert_eq!(stops[NORTH], g.column_index[usize::from(north)]);
                assert_eq!(stops[SOUTH], g.column_index[usize::from(south)]);
            }
        }
        assert!(boards > 250);
    }

    #[test]
    fn helpers_matter_exactly_when_their_reach_meets_the_region() {
        let mut checked = 0;
        for seed in 0..60u64 {
            let width = 1 + (seed * 7 % 23) as u16;
            let height = 1 + (seed * 11 % 19) as u16;
            let Ok(puzzle) = random_puzzle(width, height, 1, 1 + (seed % 5) as usize, seed) else {
                continue;
            };
            let g = Geometry::new(puzzle.board(), puzzle.goal_cell());
            g.prepare_last_moves();
            let sets = g.cell_sets().expect("prepared above");
            let w = g.words;
            let cells = puzzle.board().cell_count();
            for cell in 0..cells {
                let region = &sets.region[cell * w..(cell + 1) * w];
                for helper in 0..cells {
                    let reach = &sets.reach[helper * w..(helper + 1) * w];
                    let meets = region.iter().zip(reach).any(|(a, b)| a & b != 0);
                    assert_eq!(
                        sets.may_matter(cell as u16, helper as u16),
                        meets,
                        "seed {seed} cell {cell} helper {helper}"
                    );
                    checked += usize::from(meets);
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
