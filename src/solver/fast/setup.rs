//! What every search thread reads: the board's tables and the puzzle's parts.

use super::cell_tables::{Cross, crosses, descents};
use super::regions::CellSets;
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Direction, Puzzle, RobotColor};
use crate::solver::profile::move_code;
use crate::solver::stops::StopTables;
use std::sync::OnceLock;

/// The board tables and the puzzle's parts, shared by every thread of a search.
pub(super) struct Setup {
    /// The stop tables and the rook bound.
    pub tables: StopTables,
    /// Per row-major cell, the directions (bit `1 << dir`) whose ray up to the wall holds a
    /// cell with a rook bound one less (see [`descents`]).
    pub descents: Vec<u8>,
    /// Per row-major cell, its cross (see [`Cross`]).
    pub crosses: Vec<Cross>,
    /// The cell sets for skipping helper moves, built on first need: small searches finish
    /// before they would pay for themselves.
    cell_sets: OnceLock<CellSets>,
    pub robots: usize,
    pub active: Option<usize>,
    /// Each robot's place in the move order: the target robot first, then the rest in colour
    /// order (see [`Setup::move_order`]).
    pub ranks: [u8; MAX_ROBOTS],
    /// The robots in the move order: `order[ranks[r]] == r`.
    pub order: [u8; MAX_ROBOTS],
    pub goal: u16,
    pub min_len: u32,
    pub colors: [RobotColor; MAX_ROBOTS],
    /// Each robot's node-profile code of its first direction: a move's code (see
    /// [`move_code`]) is this plus the direction's index.
    pub move_codes: [u8; MAX_ROBOTS],
    pub start: [u16; MAX_ROBOTS],
    /// Whether the no-rebound rule holds: each robot's last direction is then part of the
    /// state.
    pub no_rebound: bool,
    /// Bits of one robot in a state key.
    pub robot_bits: u32,
    /// Whether states fit the table's keys (at most 64 bits); otherwise the search runs
    /// without a table, slower but still exact.
    pub use_table: bool,
}

impl Setup {
    pub fn new(puzzle: &Puzzle) -> Setup {
        let tables = StopTables::new(puzzle.board(), puzzle.goal_cell());
        let mut colors = [RobotColor::Red; MAX_ROBOTS];
        let mut start = [0u16; MAX_ROBOTS];
        for (i, robot) in puzzle.robots().iter().enumerate() {
            colors[i] = robot.color;
            start[i] = puzzle.board().cell(robot.pos);
        }
        let robots = puzzle.robots().len();
        let no_rebound = puzzle.rules().no_rebound;
        // Under no-rebound a robot's code is its cell and its last direction (0: none yet).
        let robot_bits = tables.cell_bits + if no_rebound { 3 } else { 0 };
        let active = puzzle.active_robot();
        let (order, ranks) = Setup::move_order(robots, active);
        Setup {
            descents: descents(&tables),
            crosses: crosses(&tables),
            cell_sets: OnceLock::new(),
            no_rebound,
            robot_bits,
            use_table: robot_bits * robots as u32 <= 64,
            robots,
            active,
            ranks,
            order,
            goal: puzzle.goal_cell(),
            min_len: puzzle.rules().min_solution_len() as u32,
            move_codes: colors.map(|color| move_code(color, Direction::ALL[0]) as u8),
            colors,
            start,
            tables,
        }
    }

    /// The move order of `robots` robots and each robot's place in it: the target robot
    /// (`active`, the first robot for the vortex) first, then the others in colour order.
    /// Read at every node, so it is a table rather than a comparison.
    fn move_order(robots: usize, active: Option<usize>) -> ([u8; MAX_ROBOTS], [u8; MAX_ROBOTS]) {
        let first = active.unwrap_or(0);
        let mut order = [0u8; MAX_ROBOTS];
        let mut ranks = [0u8; MAX_ROBOTS];
        let others = (0..robots).filter(|&robot| robot != first);
        for (k, robot) in std::iter::once(first).chain(others).enumerate() {
            order[k] = robot as u8;
            ranks[robot] = k as u8;
        }
        (order, ranks)
    }

    /// The rook bound of a cell.
    #[inline(always)]
    pub fn rook(&self, cell: u16) -> u32 {
        self.tables.rook(cell)
    }

    /// Builds the cell sets ([`Setup::cell_sets`]), if not built yet.
    pub fn prepare_cell_sets(&self) {
        self.cell_sets.get_or_init(|| CellSets::new(&self.tables));
    }

    /// Whether the cell sets are built.
    #[inline(always)]
    pub fn cell_sets_ready(&self) -> bool {
        self.cell_sets.get().is_some()
    }

    /// The cell sets, once [`Setup::prepare_cell_sets`] built them.
    #[inline(always)]
    pub fn cell_sets(&self) -> Option<&CellSets> {
        self.cell_sets.get()
    }

    /// The bytes the board tables take.
    pub fn bytes(&self) -> usize {
        let cells = self.tables.cells();
        let sets = self.cell_sets.get().map_or(0, CellSets::bytes);
        self.tables.bytes() + cells * (1 + size_of::<Cross>()) + sets
    }

    /// The bytes [`Setup::prepare_cell_sets`] adds.
    pub fn cell_sets_bytes(&self) -> usize {
        if self.cell_sets_ready() {
            0
        } else {
            CellSets::bytes_for(self.tables.cells())
        }
    }
}
