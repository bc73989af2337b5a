//! The per-cell tables built once per board before a search, each for one pruning rule:
//! the crosses of [`super::swaps`], the descents of [`super::last_moves`] and the blocker
//! gains of [`super::blockers`] (read through [`super::regions`]). They sit below the rules'
//! searches so that [`super::setup`] builds them without reaching into the worker.

use crate::solver::min_moves::UNREACHABLE;
use crate::solver::stops::{EAST, NORTH, SOUTH, StopTables, WEST};

/// A cell's column and row, and the columns and rows its four rays reach on an empty board:
/// every cell a robot standing there can end a move on lies on this cross.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cross {
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

/// The cross of every row-major cell of the board of `tables`.
pub(super) fn crosses(tables: &StopTables) -> Vec<Cross> {
    let width = tables.width;
    // Sides are at most `MAX_SIDE` (64), so columns and rows fit a byte.
    let place = |cell: usize| ((cell % width) as u8, (cell / width) as u8);
    (0..tables.cells())
        .map(|cell| {
            let stops = tables.stops[cell];
            let (x, y) = place(cell);
            let of_column =
                |column: u16| place(usize::from(tables.cell_of_column[usize::from(column)]));
            Cross {
                x,
                y,
                west: place(usize::from(stops[WEST])).0,
                east: place(usize::from(stops[EAST])).0,
                north: of_column(stops[NORTH]).1,
                south: of_column(stops[SOUTH]).1,
            }
        })
        .collect()
}

/// Per row-major cell, the directions (bit `1 << dir`) whose ray up to the wall holds a cell
/// with a rook bound one less: only those can start a move that lowers the bound, wherever
/// the other robots stand.
pub(super) fn descents(tables: &StopTables) -> Vec<u8> {
    (0..tables.cells())
        .map(|cell| {
            let below = tables.rook[cell].checked_sub(1);
            (0..4)
                .filter(|&dir| {
                    below.is_some_and(|b| tables.ray(cell, dir).any(|c| tables.rook[c] == b))
                })
                .fold(0u8, |mask, dir| mask | 1 << dir)
        })
        .collect()
}

/// The most blocker cells kept per cell while the gains are built; a cell with more is
/// treated as having every cell as a possible blocker (a smaller gain: still a lower bound).
const MOST_BLOCKERS: usize = 64;

/// The blocker cells with which the target robot reaches the target from a cell in its rook
/// bound of moves, every stop away from a wall against that one cell.
#[derive(Clone, Debug)]
enum Blockers {
    /// Any cell (also: no blocker needed at all, or too many to keep).
    Any,
    /// Only these cells, sorted.
    Only(Vec<u16>),
}

impl Blockers {
    fn allows(&self, cell: u16) -> bool {
        match self {
            Blockers::Any => true,
            Blockers::Only(cells) => cells.binary_search(&cell).is_ok(),
        }
    }
}

/// The row-major cell of the wall stop of `cell` in `dir`.
fn wall_stop(tables: &StopTables, cell: usize, dir: usize) -> usize {
    let stop = tables.stops[cell][dir];
    usize::from(if dir == EAST || dir == WEST {
        stop
    } else {
        tables.cell_of_column[usize::from(stop)]
    })
}

/// Per row-major cell, its gain (see the module notes): 0, 1 or 2 moves beyond the rook
/// bound that the target robot needs from there with no helper in the cell's region. Cells
/// that cannot reach the target have 0.
pub(super) fn blocker_gains(tables: &StopTables) -> Vec<u8> {
    let rook = &tables.rook;
    let cells = tables.cells();
    let mut order: Vec<usize> = (0..cells).filter(|&c| rook[c] != UNREACHABLE).collect();
    order.sort_by_key(|&c| rook[c]);
    // The stops of a move that lower the bound by one (or keep it) that are wall stops.
    let wall_stops = |cell: usize, step: u16| {
        (0..4)
            .map(move |dir| wall_stop(tables, cell, dir))
            .filter(move |&to| to != cell && rook[to] + step == rook[cell])
    };
    // Paths of the rook bound's length with wall stops only.
    let mut free = vec![false; cells];
    for &cell in &order {
        free[cell] = rook[cell] == 0 || wall_stops(cell, 1).any(|to| free[to]);
    }
    // Paths of that length with every other stop against one blocker cell.
    let mut blockers: Vec<Blockers> = vec![Blockers::Only(Vec::new()); cells];
    for &cell in &order {
        if free[cell] {
            blockers[cell] = Blockers::Any;
            continue;
        }
        let own = rook[cell];
        let mut found: Vec<u16> = Vec::new();
        let mut any = false;
        for dir in 0..4 {
            let ray: Vec<usize> = tables.ray(cell, dir).collect();
            for (i, &at) in ray.iter().enumerate() {
                if rook[at] + 1 != own {
                    continue;
                }
                match (&blockers[at], ray.get(i + 1)) {
                    // A wall stop: the path on needs its own blockers.
                    (Blockers::Only(cells), None) => found.extend_from_slice(cells),
                    // Only when too many were kept: a free wall stop makes the cell free.
                    (Blockers::Any, None) => any = true,
                    // Stopped against the next cell, which then must be the one blocker.
                    (on, Some(&next)) => {
                        if on.allows(next as u16) {
                            found.push(next as u16);
                        }
                    }
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        blockers[cell] = if any || found.len() > MOST_BLOCKERS {
            Blockers::Any
        } else {
            Blockers::Only(found)
        };
    }
    // Paths one move longer with wall stops only: one move keeps the bound.
    let mut spare_free = vec![false; cells];
    for &cell in &order {
        spare_free[cell] =
            wall_stops(cell, 1).any(|to| spare_free[to]) || wall_stops(cell, 0).any(|to| free[to]);
    }
    (0..cells)
        .map(|cell| {
            let one_blocker = match &blockers[cell] {
                Blockers::Any => true,
                Blockers::Only(c) => !c.is_empty(),
            };
            if rook[cell] == UNREACHABLE || free[cell] {
                0
            } else if one_blocker || spare_free[cell] {
                1
            } else {
                2
            }
        })
        .collect()
}
