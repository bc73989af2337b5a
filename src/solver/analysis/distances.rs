//! The exact distance map: for every robot and every cell, the fewest moves (any robot may
//! move) after which that robot stands on that cell.
//!
//! A breadth-first search over whole game states from the current position, level by level,
//! with a visited set. A state first reached after `k` moves sets, for the robot that moved,
//! its cell to `k` when the cell has no smaller value yet (the other robots stood where they
//! stand before). The last level is only generated, never stored: its states need no visited
//! check, which saves the biggest level's hashing.
//!
//! The map compares with the minimum-move (rook) table from the robot's own cell, which
//! ignores the other robots: the exact distance is never smaller, and where it is larger the
//! robot cannot get there alone as fast as a rook (it needs helpers, or others are in the way).
//!
//! The ricochet rule is about solutions, not positions, and plays no part here; the no-rebound
//! rule restricts the moves and is honoured (each robot's last direction is part of a state).

use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Cell, Direction, MoveTables, Puzzle, RobotColor};
use crate::solver::key::{StateKey, with_key_width};
use crate::solver::min_moves::{UNREACHABLE, min_moves};
use crate::solver::probe::DepthStats;
use crate::solver::{Limits, Probe, Search, Stop};
use rustc_hash::FxHashSet;
use std::time::Duration;

/// The search depth used when none is given.
pub const DEFAULT_MAX_DEPTH: u32 = 8;

/// One robot's distances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RobotDistances {
    /// The robot.
    pub color: RobotColor,
    /// Per cell (board cell order), the fewest moves after which the robot stands there, or
    /// `None` when it cannot within the depth searched.
    pub exact: Vec<Option<u32>>,
    /// Per cell, the rook bound from the robot's cell (other robots ignored), or `None` where
    /// a rook cannot go at all.
    pub lower_bound: Vec<Option<u32>>,
}

impl RobotDistances {
    /// Cells where the exact distance exceeds the rook bound (within the depth searched: a
    /// cell not reached within it counts when its bound is within it).
    pub fn needs_helpers(&self, cell: Cell, depth: u32) -> bool {
        let cell = usize::from(cell);
        match (self.exact[cell], self.lower_bound[cell]) {
            (Some(exact), Some(bound)) => exact > bound,
            (None, Some(bound)) => bound <= depth,
            _ => false,
        }
    }
}

/// The map and how far the search got.
#[derive(Clone, Debug)]
pub struct DistanceMap {
    /// Board width (cells are numbered row by row).
    pub width: u16,
    /// Board height.
    pub height: u16,
    /// One entry per robot, in colour order.
    pub robots: Vec<RobotDistances>,
    /// Every state within this many moves was searched: values up to it are exact, and cells
    /// without a value need more.
    pub depth: u32,
    /// Whether the search ran out of states before its depth: then cells without a value can
    /// never be reached.
    pub exhausted: bool,
    /// Why it stopped before the requested depth, if a limit or a cancel stopped it.
    pub stopped: Option<Stop>,
    /// Game states generated.
    pub states: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// The largest memory estimate, in bytes.
    pub peak_memory: usize,
    /// One row per finished level: *nodes* the states expanded, *inner* the successors
    /// generated, *hits* those already seen.
    pub levels: Vec<DepthStats>,
}

/// Computes the exact distance map to `max_depth` moves within the limits, reporting every
/// finished level and polling the probe and limits as it goes. A stop keeps the levels that
/// finished.
pub fn distance_map<P: Probe>(
    puzzle: &Puzzle,
    max_depth: u32,
    limits: &Limits,
    probe: &mut P,
) -> DistanceMap {
    let mut search = Search::new(probe, limits);
    let mut run = Bfs::new(puzzle);
    let stopped = run.run(puzzle, max_depth, &mut search).err();
    let board = puzzle.board();
    let robots = puzzle
        .robots()
        .iter()
        .enumerate()
        .map(|(i, robot)| {
            let rook = min_moves(board, board.cell(robot.pos));
            RobotDistances {
                color: robot.color,
                exact: run.best[i]
                    .iter()
                    .map(|&d| (d != UNSEEN).then_some(u32::from(d)))
                    .collect(),
                lower_bound: rook
                    .iter()
                    .map(|&d| (d != UNREACHABLE).then_some(u32::from(d)))
                    .collect(),
            }
        })
        .collect();
    DistanceMap {
        width: board.width(),
        height: board.height(),
        robots,
        depth: run.depth,
        exhausted: run.exhausted,
        stopped,
        states: run.states,
        elapsed: search.elapsed(),
        peak_memory: search.peak_memory,
        levels: search.depths.clone(),
    }
}

/// A cell not reached yet.
const UNSEEN: u16 = u16::MAX;

struct Bfs {
    tables: MoveTables,
    n: usize,
    cell_bits: u32,
    no_rebound: bool,
    start: [Cell; MAX_ROBOTS],
    best: Vec<Vec<u16>>,
    depth: u32,
    exhausted: bool,
    states: u64,
}

impl Bfs {
    fn new(puzzle: &Puzzle) -> Bfs {
        let cells = puzzle.board().cell_count();
        let n = puzzle.robots().len();
        let mut start = [0; MAX_ROBOTS];
        start[..n].copy_from_slice(&puzzle.robot_cells());
        let mut best = vec![vec![UNSEEN; cells]; n];
        for (i, row) in best.iter_mut().enumerate() {
            row[usize::from(start[i])] = 0;
        }
        Bfs {
            tables: MoveTables::new(puzzle.board()),
            n,
            cell_bits: usize::BITS - (cells.max(2) - 1).leading_zeros(),
            no_rebound: puzzle.rules().no_rebound,
            start,
            best,
            depth: 0,
            exhausted: false,
            states: 1,
        }
    }

    /// Bits one robot takes in a packed state.
    fn robot_bits(&self) -> u32 {
        self.cell_bits + if self.no_rebound { 3 } else { 0 }
    }

    /// Packs a state: robot `i` in its own field (robots are not interchangeable here).
    fn pack<K: StateKey>(&self, cells: &[Cell], last_dir: &[Option<Direction>]) -> K {
        let mut key = K::default();
        for i in (0..self.n).rev() {
            let mut code = u64::from(cells[i]);
            if self.no_rebound {
                code = (code << 3) | last_dir[i].map_or(0, |d| d.index() as u64 + 1);
            }
            key = key.push(self.robot_bits(), code);
        }
        key
    }

    fn unpack<K: StateKey>(
        &self,
        mut key: K,
        cells: &mut [Cell],
        last_dir: &mut [Option<Direction>],
    ) {
        for i in 0..self.n {
            let (rest, mut code) = key.pop(self.robot_bits());
            key = rest;
            if self.no_rebound {
                last_dir[i] = match code & 7 {
                    0 => None,
                    d => Some(Direction::ALL[d as usize - 1]),
                };
                code >>= 3;
            }
            cells[i] = code as Cell;
        }
    }

    fn run<P: Probe>(
        &mut self,
        puzzle: &Puzzle,
        max_depth: u32,
        search: &mut Search<'_, P>,
    ) -> Result<(), Stop> {
        // Most boards' states fit a word (a standard board's five robots take 40 bits, 55
        // with directions); every board's fit two (five robots on 64x64 with directions take
        // 75 bits). The width is chosen where every solver's is; its layout, which sorts
        // interchangeable robots, is not used, since here each robot keeps its own field of
        // the same size.
        with_key_width!(puzzle, |_layout, Key| self
            .levels::<Key, P>(max_depth, search))
    }

    /// The search, level by level, with states packed in keys of type `K`.
    fn levels<K: StateKey, P: Probe>(
        &mut self,
        max_depth: u32,
        search: &mut Search<'_, P>,
    ) -> Result<(), Stop> {
        let start: K = self.pack(&self.start[..self.n], &[None; MAX_ROBOTS][..self.n]);
        let mut visited: FxHashSet<K> = FxHashSet::default();
        visited.insert(start);
        let mut frontier = vec![start];
        let mut next = Vec::new();
        let mut cells = [0 as Cell; MAX_ROBOTS];
        let mut last_dir = [None; MAX_ROBOTS];
        while self.depth < max_depth {
            let depth = self.depth + 1;
            let last_level = depth == max_depth;
            let mut stats = DepthStats {
                depth,
                ..DepthStats::default()
            };
            for &state in &frontier {
                search.tick()?;
                stats.nodes += 1;
                self.unpack(state, &mut cells, &mut last_dir);
                for robot in 0..self.n {
                    for dir in Direction::ALL {
                        if self.no_rebound && last_dir[robot] == Some(dir.opposite()) {
                            continue;
                        }
                        let from = cells[robot];
                        let to = self.tables.slide(&cells[..self.n], robot, dir);
                        if to == from {
                            continue;
                        }
                        stats.inner += 1;
                        let slot = &mut self.best[robot][usize::from(to)];
                        if *slot == UNSEEN {
                            *slot = depth as u16;
                        }
                        if last_level {
                            continue;
                        }
                        let previous = last_dir[robot];
                        cells[robot] = to;
                        last_dir[robot] = Some(dir);
                        let key = self.pack(&cells[..self.n], &last_dir[..self.n]);
                        cells[robot] = from;
                        last_dir[robot] = previous;
                        // Growth is checked before it happens: a doubling table holds the
                        // old one beside the new while it rehashes, and a doubling list
                        // may copy.
                        if visited.len() == visited.capacity() || next.len() == next.capacity() {
                            search.set_memory(memory_after_growth(&visited, &frontier, &next))?;
                        }
                        if visited.insert(key) {
                            next.push(key);
                        } else {
                            stats.hits += 1;
                        }
                    }
                }
                if stats.nodes.is_multiple_of(4096) {
                    search.set_memory(memory(&visited, &frontier, &next))?;
                }
            }
            self.states += stats.inner - stats.hits;
            search.set_memory(memory(&visited, &frontier, &next))?;
            search.finish_depth(stats);
            self.depth = depth;
            if !last_level && next.is_empty() {
                self.exhausted = true;
                break;
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        Ok(())
    }
}

/// The bytes the search's tables take: the visited set (a key and a control byte per slot)
/// and both frontiers.
fn memory<K>(visited: &FxHashSet<K>, frontier: &Vec<K>, next: &Vec<K>) -> usize {
    let key = std::mem::size_of::<K>();
    crate::solver::memory::hash_table_bytes(visited.capacity(), key)
        + (frontier.capacity() + next.capacity()) * key
}

/// The bytes held while the visited set or the next frontier doubles: the tables as they are,
/// plus the doubled one of each that is full.
fn memory_after_growth<K>(visited: &FxHashSet<K>, frontier: &Vec<K>, next: &Vec<K>) -> usize {
    let key = std::mem::size_of::<K>();
    let mut bytes = memory(visited, frontier, next);
    if visited.len() == visited.capacity() {
        bytes += crate::solver::memory::hash_table_bytes(visited.capacity().max(4) * 2, key);
    }
    if next.len() == next.capacity() {
        bytes += next.capacity().max(4) * 2 * key;
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pos, Rules};

    #[test]
    fn two_word_states_give_the_same_map_as_one_word_states() {
        // The deck's puzzle under the no-rebound rule fits one word; the two-word keys that the
        // largest boards need must find the same levels, counts and distances.
        let puzzle = crate::model::samples::fogleman_22().with_rules(Rules {
            ricochet: false,
            no_rebound: true,
        });
        let run = |wide: bool| {
            let mut probe = crate::solver::NoProbe;
            let mut search = Search::new(&mut probe, &Limits::default());
            let mut bfs = Bfs::new(&puzzle);
            let levels = if wide {
                bfs.levels::<u128, _>(4, &mut search)
            } else {
                bfs.levels::<u64, _>(4, &mut search)
            };
            levels.unwrap();
            (bfs.best, bfs.states, bfs.depth, search.depths.clone())
        };
        let narrow = run(false);
        assert_eq!(narrow.2, 4);
        assert_eq!(narrow, run(true));
    }

    #[test]
    fn a_robot_needs_a_helper_to_stop_in_an_open_corridor() {
        // One row of five cells: red at the west end cannot stop in the middle alone.
        let puzzle =
            crate::testing::red_and_green(5, 1, Pos::new(0, 0), Pos::new(4, 0), Pos::new(2, 0));
        let map = distance_map(&puzzle, 6, &Limits::default(), &mut crate::solver::NoProbe);
        let red = &map.robots[0];
        // Red slides east to cell 3 (green in the way) at once.
        assert_eq!(red.exact[3], Some(1));
        // Green moves west to cell 1 (red in the way); red then cannot reach cell 2 at all,
        // because the two robots only ever fill both ends of the gap.
        assert_eq!(red.lower_bound[2], Some(1));
        assert!(map.exhausted);
        assert_eq!(red.exact[2], None);
        assert!(red.needs_helpers(2, map.depth));
    }
}
