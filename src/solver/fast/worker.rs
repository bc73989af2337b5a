//! One thread's search state: where the robots stand, the path to the node, the counters,
//! and the slides, keys and bounds every part of the search reads.

use super::control::Control;
use super::setup::Setup;
use super::table::Table;
use super::units::Unit;
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Direction, Move};
use crate::solver::probe::DepthStats;
use crate::solver::profile::PrefixTally;
use crate::solver::stops::{EAST, NORTH, SOUTH, WEST};

/// Counters of one iteration.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Counters {
    pub nodes: u64,
    pub expanded: u64,
    pub hits: u64,
    pub bound_cuts: u64,
    pub last_moves: u64,
    /// Moves not searched because the same two moves in the other order reach the same state,
    /// passed over one by one, plus robots all of whose moves are such, passed over whole
    /// (each robot counts once: it was not slid, so its moves are not known).
    pub swaps: u64,
    pub inserted: u64,
    /// Whether anything was cut off (so a deeper iteration could find more).
    pub cut: bool,
}

impl Counters {
    /// The row of the iteration of `depth` in the per-depth statistics.
    pub fn depth_stats(&self, depth: u32) -> DepthStats {
        DepthStats {
            depth,
            nodes: self.nodes,
            inner: self.expanded,
            hits: self.hits,
            extra: vec![
                ("bound cuts", self.bound_cuts),
                ("last-moves searches", self.last_moves),
                ("swaps", self.swaps),
            ],
        }
    }

    pub fn add(&mut self, other: &Counters) {
        self.nodes += other.nodes;
        self.expanded += other.expanded;
        self.hits += other.hits;
        self.bound_cuts += other.bound_cuts;
        self.last_moves += other.last_moves;
        self.swaps += other.swaps;
        self.inserted += other.inserted;
        self.cut |= other.cut;
    }
}

/// One thread's search state.
pub(super) struct Worker<'g, C: Control, const NO_REBOUND: bool> {
    pub setup: &'g Setup,
    pub table: &'g Table,
    pub control: C,
    /// Row-major cells of the robots, in colour order.
    pub cells: [u16; MAX_ROBOTS],
    /// Column-major indices of the same cells.
    pub columns: [u16; MAX_ROBOTS],
    /// Under the no-rebound rule, each robot's last direction index plus one (0: it has not
    /// moved); always zero otherwise.
    pub last_dirs: [u8; MAX_ROBOTS],
    /// The moves so far, as (robot, direction index).
    pub path: Vec<(u8, u8)>,
    pub counters: Counters,
    /// When set, nodes at this depth are not searched but collected as work units.
    pub split: Option<u32>,
    pub units: Vec<Unit>,
    /// The iteration (its depth), stamped on table entries.
    pub iteration: u32,
    /// The node profile's prefix the search is under and the nodes counted since, added to
    /// the profile when the search comes back up to the profile's depth or ends (see
    /// [`Worker::flush_profile`]).
    pub profile_tally: PrefixTally,
}

impl<'g, C: Control, const NO_REBOUND: bool> Worker<'g, C, NO_REBOUND> {
    pub fn new(setup: &'g Setup, table: &'g Table, control: C, iteration: u32) -> Self {
        let mut columns = [0u16; MAX_ROBOTS];
        for (column, &cell) in columns.iter_mut().zip(&setup.start[..setup.robots]) {
            *column = setup.tables.column_index[usize::from(cell)];
        }
        Worker {
            setup,
            table,
            control,
            cells: setup.start,
            columns,
            last_dirs: [0; MAX_ROBOTS],
            path: Vec::with_capacity(256),
            counters: Counters::default(),
            split: None,
            units: Vec::new(),
            iteration,
            profile_tally: PrefixTally::default(),
        }
    }

    /// Where robot `robot` stops sliding in direction `dir` (row-major cell and column-major
    /// index). Equal to its own cell when it cannot move.
    #[inline(always)]
    pub fn slide(&self, robot: usize, dir: usize) -> (u16, u16) {
        let n = self.setup.robots;
        self.setup
            .tables
            .slide(&self.cells[..n], &self.columns[..n], robot, dir)
    }

    /// Where robot `robot` stops in each direction (indexed as [`Direction::ALL`]), as
    /// [`Worker::slide`] gives them, found in one pass over the other robots: a robot can only
    /// be in the way when it stands within the stretch the robot's wall stops span, along its
    /// row or its column, and that is one unsigned comparison each.
    #[inline(always)]
    pub fn slides(&self, robot: usize) -> [(u16, u16); 4] {
        let t = &self.setup.tables;
        let n = self.setup.robots;
        let cell = self.cells[robot];
        let column = self.columns[robot];
        let stops = t.stops[usize::from(cell)];
        let [mut north, mut east, mut south, mut west] = stops;
        // The stops span the robot's own cell, so these never wrap.
        let row_span = stops[EAST] - stops[WEST];
        let column_span = stops[SOUTH] - stops[NORTH];
        for (&other, &other_column) in self.cells[..n].iter().zip(&self.columns[..n]) {
            // Wrapping puts cells before the span's start beyond its length.
            if other.wrapping_sub(stops[WEST]) <= row_span && other != cell {
                if other > cell {
                    east = east.min(other - 1);
                } else {
                    west = west.max(other + 1);
                }
            }
            if other_column.wrapping_sub(stops[NORTH]) <= column_span && other_column != column {
                if other_column > column {
                    south = south.min(other_column - 1);
                } else {
                    north = north.max(other_column + 1);
                }
            }
        }
        [
            (t.cell_of_column[usize::from(north)], north),
            (east, t.column_index[usize::from(east)]),
            (t.cell_of_column[usize::from(south)], south),
            (west, t.column_index[usize::from(west)]),
        ]
    }

    /// The packed state: the target robot's cell, then the others sorted (all sorted for the
    /// vortex).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        let bits = self.setup.robot_bits;
        let mut rest = [0u16; MAX_ROBOTS];
        let mut len = 0;
        let mut key = 0u64;
        for i in 0..self.setup.robots {
            let code = if NO_REBOUND {
                (self.cells[i] << 3) | u16::from(self.last_dirs[i])
            } else {
                self.cells[i]
            };
            if Some(i) == self.setup.active {
                key = u64::from(code);
            } else {
                rest[len] = code;
                len += 1;
            }
        }
        sort_small(&mut rest[..len]);
        for &cell in rest[..len].iter() {
            key = (key << bits) | u64::from(cell);
        }
        key
    }

    #[inline(always)]
    pub fn at_goal(&self) -> bool {
        match self.setup.active {
            Some(a) => self.cells[a] == self.setup.goal,
            None => self.cells[..self.setup.robots].contains(&self.setup.goal),
        }
    }

    /// The rook bound of the position: the target robot's, or the least over all robots.
    #[inline(always)]
    pub fn rook_bound(&self) -> u32 {
        match self.setup.active {
            Some(a) => self.setup.rook(self.cells[a]),
            None => self.cells[..self.setup.robots]
                .iter()
                .map(|&c| self.setup.rook(c))
                .min()
                .unwrap_or(u32::MAX),
        }
    }

    /// Where a robot stands in the move order: the target robot first, then the rest in
    /// colour order.
    #[inline(always)]
    pub fn rank(&self, robot: usize) -> usize {
        usize::from(self.setup.ranks[robot])
    }

    /// The robot at place `k` of the move order (see [`Worker::rank`]).
    #[inline(always)]
    pub fn robot_at_rank(&self, k: usize) -> usize {
        usize::from(self.setup.order[k])
    }

    /// Whether the no-rebound rule forbids `robot` to move in `dir`: the reverse of its own
    /// last move (a last direction of 0 never matches: the robot has not moved, or the rule
    /// is off).
    #[inline(always)]
    pub fn reverses(&self, robot: usize, dir: usize) -> bool {
        NO_REBOUND && usize::from(self.last_dirs[robot]) == (dir ^ 2) + 1
    }

    /// Records a robot's move direction when the no-rebound rule needs it.
    #[inline(always)]
    pub fn set_last_dir(&mut self, robot: usize, dir: usize) {
        if NO_REBOUND {
            self.last_dirs[robot] = dir as u8 + 1;
        }
    }

    /// Puts `robot` on `to` (row-major cell, column-major index).
    #[inline(always)]
    pub fn set(&mut self, robot: usize, to: (u16, u16)) {
        self.cells[robot] = to.0;
        self.columns[robot] = to.1;
    }

    /// Reports the node reached by the path, at `depth`, when someone listens.
    #[inline(always)]
    pub fn node_event(&mut self, depth: u32) {
        let setup = self.setup;
        let cells = self.cells;
        let path = &self.path;
        self.control.node(depth, &cells[..setup.robots], |moves| {
            moves.extend(path.iter().map(|&(r, d)| {
                Move::new(setup.colors[usize::from(r)], Direction::ALL[usize::from(d)])
            }))
        });
    }

    /// Counts the node reached by the path in the node profile, when the run profiles. Called
    /// right after the node is counted in [`Counters::nodes`] and before its tick, so a node
    /// counted as its work stops is profiled too. This runs at every node of a profiled
    /// search, so a node deeper than the profile costs only a comparison (see
    /// [`PrefixTally`]), and a shallower one reads the path's first moves, turned into the
    /// profile's codes by a table.
    #[inline(always)]
    pub fn profile_node(&mut self) {
        if let Some(profile) = self.control.node_profile() {
            let codes = &self.setup.move_codes;
            let path = &self.path;
            self.profile_tally
                .count(profile, self.counters.nodes, path.len(), |i| {
                    let (robot, dir) = path[i];
                    usize::from(codes[usize::from(robot)]) + usize::from(dir)
                });
        }
    }

    /// Adds the nodes of the subtree under way to the node profile. Every search of a worker
    /// (an iteration, the shallow part, a work unit) calls it when it returns, however it
    /// returns, so the profile holds every node counted.
    pub fn flush_profile(&mut self) {
        if let Some(profile) = self.control.node_profile() {
            self.profile_tally.flush(profile, self.counters.nodes);
        }
    }
}

/// Sorts the few codes of a key: the usual lengths (two to four helpers) by a sorting
/// network of compare-exchanges, which compile to conditional moves instead of the branches
/// and calls of the general sort; the key of every child the search looks up is built so.
#[inline(always)]
fn sort_small(codes: &mut [u16]) {
    #[inline(always)]
    fn exchange(codes: &mut [u16], i: usize, j: usize) {
        let (a, b) = (codes[i], codes[j]);
        codes[i] = a.min(b);
        codes[j] = a.max(b);
    }
    match codes.len() {
        0 | 1 => {}
        2 => exchange(codes, 0, 1),
        3 => {
            exchange(codes, 0, 1);
            exchange(codes, 1, 2);
            exchange(codes, 0, 1);
        }
        4 => {
            exchange(codes, 0, 1);
            exchange(codes, 2, 3);
            exchange(codes, 0, 2);
            exchange(codes, 1, 3);
            exchange(codes, 1, 2);
        }
        _ => codes.sort_unstable(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{placements, worker};
    use super::*;
    use crate::model::MoveTables;

    #[test]
    fn slides_match_the_model_rule_on_any_board() {
        for (puzzle, cells) in placements(300) {
            let setup = Setup::new(&puzzle);
            let table = Table::new(8, 8);
            let worker = worker(&setup, &table, &cells);
            let tables = MoveTables::new(puzzle.board());
            for robot in 0..cells.len() {
                let slides = worker.slides(robot);
                for (dir, &both) in slides.iter().enumerate() {
                    let expected = tables.slide(&cells, robot, Direction::ALL[dir]);
                    let (cell, column) = worker.slide(robot, dir);
                    assert_eq!(cell, expected, "{cells:?} robot {robot} dir {dir}");
                    assert_eq!(column, setup.tables.column_index[usize::from(cell)]);
                    assert_eq!(both, (cell, column), "{cells:?} robot {robot} dir {dir}");
                }
            }
        }
    }

    /// The lemma behind leaving out a move straight back by the robot that moved last: it
    /// stops where the same move from the cell the robot came from stops.
    #[test]
    fn a_move_straight_back_stops_where_the_move_from_the_start_stops() {
        let mut checked = 0;
        for (puzzle, cells) in placements(300) {
            let setup = Setup::new(&puzzle);
            let table = Table::new(8, 8);
            for robot in 0..cells.len() {
                for dir in 0..4 {
                    let start = worker(&setup, &table, &cells);
                    let (out, _) = start.slide(robot, dir);
                    if out == cells[robot] {
                        continue;
                    }
                    let mut moved = cells.clone();
                    moved[robot] = out;
                    let back = worker(&setup, &table, &moved).slide(robot, dir ^ 2);
                    assert_eq!(
                        back,
                        start.slide(robot, dir ^ 2),
                        "{cells:?} robot {robot} dir {dir}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "only {checked} moves checked");
    }

    #[test]
    fn small_sorts_sort_every_order_of_every_length() {
        // Every arrangement (with repeats) of up to five codes from four values.
        for len in 0..=5usize {
            for n in 0..4usize.pow(len as u32) {
                let codes: Vec<u16> = (0..len).map(|i| ((n >> (2 * i)) & 3) as u16).collect();
                let mut sorted = codes.clone();
                sort_small(&mut sorted);
                let mut expected = codes.clone();
                expected.sort_unstable();
                assert_eq!(sorted, expected, "{codes:?}");
            }
        }
    }

    #[test]
    fn keys_merge_swapped_helpers_but_not_the_target_robot() {
        let puzzle = crate::model::samples::fogleman_22();
        let setup = Setup::new(&puzzle);
        let table = Table::new(8, 32);
        // Blue (index 2) is the target robot.
        let key = |cells: [u16; 4]| worker(&setup, &table, &cells).key();
        assert_eq!(key([1, 2, 3, 4]), key([4, 2, 3, 1]));
        assert_eq!(key([1, 2, 3, 4]), key([2, 4, 3, 1]));
        assert_ne!(key([1, 2, 3, 4]), key([3, 2, 1, 4]));
    }

    #[test]
    fn the_move_order_takes_the_target_robot_first_then_colour_order() {
        let puzzle = crate::model::samples::fogleman_22();
        let setup = Setup::new(&puzzle);
        let table = Table::new(8, 32);
        let w = worker(&setup, &table, &[1, 2, 3, 4]);
        let order: Vec<usize> = (0..4).map(|k| w.robot_at_rank(k)).collect();
        assert_eq!(order, [2, 0, 1, 3]);
        for (k, &robot) in order.iter().enumerate() {
            assert_eq!(w.rank(robot), k);
        }
    }
}
