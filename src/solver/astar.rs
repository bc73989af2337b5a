//! A* graph search over whole game states with a selectable heuristic, after the course report
//! on Ricochet Robots (section "A* Search"), plus the minimum-move table of Fogleman's deck as
//! a third, admissible heuristic.
//!
//! - States are the robots' cells (with each robot's last direction under the no-rebound
//!   rule). A visited table maps each state's key to the fewest moves it was reached with; a
//!   successor reached again with no fewer moves is a *duplicate* and dropped, one reached with
//!   fewer moves is queued again and the older queue entry is skipped when it comes up (lazy
//!   deletion: it is *stale*).
//! - The open list is a bucket queue indexed by f = g + h, each bucket a stack, so among equal
//!   f the most recently generated state (usually the deepest) is expanded first.
//! - The goal is tested when a successor is generated. With the admissible and consistent
//!   minimum-move heuristic this still returns a shortest solution: every expanded state that
//!   is not a goal has h >= 1, so a goal generated from it lies no deeper than its f, which is
//!   at most the optimum.
//! - Memory: the node list, the visited table and the queue are counted; before a table
//!   grows, the size it will have (with the old visited table, held while it rehashes) is
//!   reported through [`Search::set_memory`], so the run stops with the memory limit *before*
//!   allocating past it.
//!
//! The three heuristics (h of a state; the vortex accepts every robot):
//! - [`Heuristic::MinMoves`]: the [`min_moves`](super::min_moves::min_moves) table at the
//!   active robot's cell (for the vortex, the smallest over all robots). It never overestimates and changes by at most one
//!   per move, so the search is optimal; a state whose value is "unreachable" is dropped.
//! - [`Heuristic::Manhattan`]: the report's `h = |robot.x - target.x| + |robot.y - target.y|`
//!   for the robot of the target's colour (for the vortex, the smallest over all robots). One
//!   move can cross the whole board, so it overestimates.
//! - [`Heuristic::RowColumn`]: the report's sum over all robots: the robot of the target's
//!   colour adds 0 when it shares the target's row or column and 1 otherwise; every other
//!   robot adds 0 when it stands in a row or column next to the target's (`|dy| = 1` or
//!   `|dx| = 1`) and 1 otherwise. For the vortex every robot counts as the target's colour.
//!   It is not 0 at every goal and can overestimate.
//!
//! Under the ricochet rule a state reached with fewer than two moves is kept apart from the
//! same robots reached later (its key carries `min(g, 2)`), and h is raised to the moves still
//! needed to make the solution long enough; both keep the minimum-move search optimal.
//!
//! Per-bound statistics: a row ends when the search first expands a state with a larger f.
//! *Bound* is that f, *expanded* the states taken from the queue and expanded, *generated* the
//! successors made from them, *duplicates* the successors dropped by the visited table, and
//! *stale* the queue entries skipped because their state was later reached with fewer moves.
//! With the overestimating heuristics f is not monotone along a path, so a row also holds the
//! states of smaller f expanded while it is open.

use super::heuristics::Estimator;
pub use super::heuristics::Heuristic;
use super::key::{KeyLayout, StateKey, state_key, with_key_width};
use super::memory::hash_table_bytes;
use super::probe::{DepthStats, Event, PruneReason, RobotCells};
use super::tree::trace_path;
use super::{
    Columns, Optimality, Probe, RuleSupport, Search, SearchEnd, SearchShape, SolverKind, Stop,
};
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Cell, Direction, Move, MoveTables, Puzzle, RobotColor};
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;

/// The command-line name of A* with the minimum-move table.
pub const NAME: &str = "astar";
/// The command-line name of A* with the Manhattan distance.
pub const MANHATTAN_NAME: &str = "astar-manhattan";
/// The command-line name of A* with the row/column heuristic.
pub const ROW_COLUMN_NAME: &str = "astar-rowcol";

/// The per-bound columns all three A* variants print.
const COLUMNS: Columns = Columns {
    depth: "Bound",
    nodes: "expanded",
    inner: "generated",
    hits: "duplicates",
};

/// Both rule options are implemented by every variant.
const RULES: RuleSupport = RuleSupport::BOTH;

/// The registry entry of A* with the minimum-move table.
pub const KIND: SolverKind = SolverKind {
    name: NAME,
    title: "A* (minimum-move table)",
    description: "A* graph search with a bucket queue and a visited table, guided by the \
                  minimum-move table, which never overestimates",
    source: "course report, section A* Search; heuristic from Fogleman's slide deck",
    optimality: Optimality::Guaranteed,
    rules: RULES,
    columns: COLUMNS,
    deepest_limit: None,
    shape: SearchShape::BestFirst(Heuristic::MinMoves),
};

/// The registry entry of A* with the report's Manhattan distance.
pub const MANHATTAN_KIND: SolverKind = SolverKind {
    name: MANHATTAN_NAME,
    title: "A* (Manhattan distance)",
    description: "A* graph search guided by the Manhattan distance of the target's robot to \
                  the target; it can overestimate, so answers may be longer than necessary",
    source: "course report, section A* Search, heuristic 1",
    optimality: Optimality::NotGuaranteed,
    rules: RULES,
    columns: COLUMNS,
    deepest_limit: None,
    shape: SearchShape::BestFirst(Heuristic::Manhattan),
};

/// The registry entry of A* with the report's row/column heuristic.
pub const ROW_COLUMN_KIND: SolverKind = SolverKind {
    name: ROW_COLUMN_NAME,
    title: "A* (row/column)",
    description: "A* graph search guided by the row/column count of robots in line with or \
                  next to the target; it can overestimate, so answers may be longer than \
                  necessary",
    source: "course report, section A* Search, heuristic 2",
    optimality: Optimality::NotGuaranteed,
    rules: RULES,
    columns: COLUMNS,
    deepest_limit: None,
    shape: SearchShape::BestFirst(Heuristic::RowColumn),
};

algorithm!(
    /// A* with the minimum-move table in the registry.
    MinMovesAstar, KIND, |puzzle, _, search| solve(puzzle, Heuristic::MinMoves, search)
);

algorithm!(
    /// A* with the Manhattan distance in the registry.
    ManhattanAstar, MANHATTAN_KIND, |puzzle, _, search| solve(puzzle, Heuristic::Manhattan, search)
);

algorithm!(
    /// A* with the row/column heuristic in the registry.
    RowColumnAstar, ROW_COLUMN_KIND, |puzzle, _, search| solve(puzzle, Heuristic::RowColumn, search)
);

/// Solves a puzzle with A* and the given heuristic.
pub fn solve<P: Probe>(
    puzzle: &Puzzle,
    heuristic: Heuristic,
    search: &mut Search<'_, P>,
) -> SearchEnd {
    let result = with_key_width!(puzzle, |layout, Key| {
        AStar::<P, Key>::new(puzzle, heuristic, layout, search).run()
    });
    result.unwrap_or_else(SearchEnd::Stopped)
}

/// Marks the root, which no move led to.
const NO_STEP: u8 = u8::MAX;

/// One stored state: the robots' cells, each robot's last direction packed three bits per
/// robot (0 = none, 1 + direction index), the index of the state it came from, the moves
/// made to reach it and the move that led here (robot index times four plus direction index).
#[derive(Clone, Copy)]
struct Node {
    cells: [Cell; MAX_ROBOTS],
    last_dirs: u16,
    step: u8,
    parent: u32,
    g: u32,
}

impl Node {
    fn last_dir(&self, robot: usize) -> Option<Direction> {
        match (self.last_dirs >> (3 * robot)) & 7 {
            0 => None,
            code => Some(Direction::ALL[usize::from(code - 1)]),
        }
    }

    fn with_last_dir(mut self, robot: usize, dir: Direction) -> Node {
        let shift = 3 * robot;
        self.last_dirs = (self.last_dirs & !(7 << shift)) | ((dir.index() as u16 + 1) << shift);
        self
    }

    fn unpack_last_dirs(&self) -> [Option<Direction>; MAX_ROBOTS] {
        std::array::from_fn(|robot| self.last_dir(robot))
    }
}

struct AStar<'s, 'p, P: Probe, K: StateKey> {
    search: &'s mut Search<'p, P>,
    tables: MoveTables,
    estimator: Estimator,
    goal: Cell,
    active: Option<usize>,
    colors: Vec<RobotColor>,
    start: Vec<Cell>,
    no_rebound: bool,
    min_len: u32,
    layout: KeyLayout,
    nodes: Vec<Node>,
    /// The fewest moves each state was reached with.
    best: FxHashMap<K, u32>,
    /// Node indices by f; each bucket is a stack.
    buckets: Vec<Vec<u32>>,
    stats: DepthStats,
    stale: u64,
}

impl<'s, 'p, P: Probe, K: StateKey> AStar<'s, 'p, P, K> {
    fn new(
        puzzle: &Puzzle,
        heuristic: Heuristic,
        layout: KeyLayout,
        search: &'s mut Search<'p, P>,
    ) -> Self {
        AStar {
            search,
            tables: MoveTables::new(puzzle.board()),
            estimator: Estimator::new(puzzle, heuristic),
            goal: puzzle.goal_cell(),
            active: puzzle.active_robot(),
            colors: puzzle.robots().iter().map(|r| r.color).collect(),
            start: puzzle.robot_cells(),
            no_rebound: puzzle.rules().no_rebound,
            min_len: puzzle.rules().min_solution_len() as u32,
            layout,
            nodes: Vec::new(),
            best: FxHashMap::default(),
            buckets: Vec::new(),
            stats: DepthStats::default(),
            stale: 0,
        }
    }

    #[inline(always)]
    fn at_goal(&self, cells: &[Cell]) -> bool {
        match self.active {
            Some(a) => cells[a] == self.goal,
            None => cells.contains(&self.goal),
        }
    }

    #[inline(always)]
    fn key(&self, node: &Node) -> K {
        let n = self.colors.len();
        if self.no_rebound {
            let last = node.unpack_last_dirs();
            state_key(
                &self.layout,
                &node.cells[..n],
                &last[..n],
                node.g,
                self.min_len,
            )
        } else {
            state_key(&self.layout, &node.cells[..n], &[], node.g, self.min_len)
        }
    }

    fn run(mut self) -> Result<SearchEnd, Stop> {
        let n = self.colors.len();
        let mut root = Node {
            cells: [0; MAX_ROBOTS],
            last_dirs: 0,
            step: NO_STEP,
            parent: u32::MAX,
            g: 0,
        };
        root.cells[..n].copy_from_slice(&self.start);
        if self.at_goal(&root.cells[..n]) && self.min_len == 0 {
            self.search.finish_depth(DepthStats::default());
            return Ok(SearchEnd::Found(Vec::new()));
        }
        let Some(h) = self.estimator.estimate(&root.cells[..n], 0) else {
            self.search.finish_depth(DepthStats::default());
            return Ok(SearchEnd::Unsolvable(None));
        };
        let root_key = self.key(&root);
        self.best.insert(root_key, 0);
        self.nodes.push(root);
        self.push_queue(h, 0);
        let mut bound = h;
        let mut lowest = h as usize;
        self.stats.depth = bound;
        self.search
            .probe
            .event(|| Event::IterationStarted { depth: bound });
        let mut since_memory_check = 0u32;
        loop {
            while lowest < self.buckets.len() && self.buckets[lowest].is_empty() {
                lowest += 1;
            }
            // Every bucket is empty: each reachable state the heuristic did not rule out was
            // expanded without reaching the goal.
            let Some(index) = self.buckets.get_mut(lowest).and_then(Vec::pop) else {
                self.finish_row();
                return Ok(SearchEnd::Unsolvable(None));
            };
            let node = self.nodes[index as usize];
            let key = self.key(&node);
            if self.best.get(&key).is_some_and(|&g| g < node.g) {
                self.stale += 1;
                continue;
            }
            let f = lowest as u32;
            if f > bound {
                self.finish_row();
                bound = f;
                self.stats.depth = bound;
                self.search
                    .probe
                    .event(|| Event::IterationStarted { depth: bound });
            }
            self.stats.nodes += 1;
            let (colors, nodes) = (&self.colors, &self.nodes);
            // Profiled before the tick, so a node counted as the run stops is profiled too.
            self.search
                .probe
                .profile_node(|| path_to(nodes, colors, node));
            self.search.tick()?;
            self.search.probe.node(node.g, &node.cells[..n], |moves| {
                *moves = path_to(nodes, colors, node)
            });
            if let Some(goal) = self.expand(index, &node, &mut lowest)? {
                self.finish_row();
                return Ok(SearchEnd::Found(self.read_path(goal)));
            }
            since_memory_check += 1;
            if since_memory_check == 4096 {
                since_memory_check = 0;
                let bytes = self.memory_bytes(0, 0);
                self.search.set_memory(bytes)?;
            }
        }
    }

    /// Generates the successors of `node` (stored at `index`), queueing the new ones; returns
    /// the goal node when one is generated.
    fn expand(
        &mut self,
        index: u32,
        node: &Node,
        lowest: &mut usize,
    ) -> Result<Option<Node>, Stop> {
        let n = self.colors.len();
        let g = node.g + 1;
        for robot in 0..n {
            for dir in Direction::ALL {
                if self.no_rebound && node.last_dir(robot) == Some(dir.opposite()) {
                    continue;
                }
                let to = self.tables.slide(&node.cells[..n], robot, dir);
                if to == node.cells[robot] {
                    continue;
                }
                self.stats.inner += 1;
                let mut child = node.with_last_dir(robot, dir);
                child.cells[robot] = to;
                child.step = (robot * 4 + dir.index()) as u8;
                child.parent = index;
                child.g = g;
                if self.at_goal(&child.cells[..n]) && g >= self.min_len {
                    return Ok(Some(child));
                }
                let Some(h) = self.estimator.estimate(&child.cells[..n], g) else {
                    self.search.probe.event(|| Event::Pruned {
                        depth: g,
                        reason: PruneReason::Other("the target cannot be reached from here"),
                    });
                    continue;
                };
                let key = self.key(&child);
                if self.best.len() == self.best.capacity() && !self.best.contains_key(&key) {
                    self.grow_best()?;
                }
                match self.best.entry(key) {
                    Entry::Occupied(mut seen) => {
                        if *seen.get() <= g {
                            self.stats.hits += 1;
                            self.search.probe.event(|| Event::Pruned {
                                depth: g,
                                reason: PruneReason::Visited,
                            });
                            continue;
                        }
                        seen.insert(g);
                    }
                    Entry::Vacant(slot) => {
                        slot.insert(g);
                    }
                }
                if self.nodes.len() == self.nodes.capacity() {
                    self.grow_nodes()?;
                }
                let child_index = u32::try_from(self.nodes.len()).map_err(|_| Stop::MemoryLimit)?;
                self.nodes.push(child);
                let (colors, nodes) = (&self.colors, &self.nodes);
                self.search.probe.event(|| Event::Generated {
                    depth: g,
                    cells: RobotCells::new(&child.cells[..n]),
                    path: path_to(nodes, colors, child),
                    h: Some(h),
                });
                let f = (g + h) as usize;
                self.push_queue(g + h, child_index);
                *lowest = (*lowest).min(f);
            }
        }
        Ok(None)
    }

    fn push_queue(&mut self, f: u32, index: u32) {
        let f = f as usize;
        if f >= self.buckets.len() {
            self.buckets.resize_with(f + 1, Vec::new);
        }
        self.buckets[f].push(index);
    }

    /// The bytes the tables take, with `extra_nodes` and `extra_best` more capacity.
    fn memory_bytes(&self, extra_nodes: usize, extra_best: usize) -> usize {
        let queue: usize = self.buckets.iter().map(Vec::capacity).sum();
        (self.nodes.capacity() + extra_nodes) * std::mem::size_of::<Node>()
            + hash_table_bytes(
                self.best.capacity() + extra_best,
                std::mem::size_of::<(K, u32)>(),
            )
            + queue * std::mem::size_of::<u32>()
    }

    /// Doubles the node list after checking the memory limit.
    fn grow_nodes(&mut self) -> Result<(), Stop> {
        let more = self.nodes.capacity().max(1024);
        let bytes = self.memory_bytes(more, 0);
        self.search.set_memory(bytes)?;
        self.nodes.try_reserve(more).map_err(|_| Stop::MemoryLimit)
    }

    /// Doubles the visited table after checking the memory limit. While the table rehashes,
    /// the old one is still held beside the new one, so both count.
    fn grow_best(&mut self) -> Result<(), Stop> {
        let more = self.best.capacity().max(1024);
        let old = hash_table_bytes(self.best.capacity(), std::mem::size_of::<(K, u32)>());
        let bytes = self.memory_bytes(0, more) + old;
        self.search.set_memory(bytes)?;
        self.best.try_reserve(more).map_err(|_| Stop::MemoryLimit)
    }

    fn finish_row(&mut self) {
        let mut stats = std::mem::take(&mut self.stats);
        stats.extra.push(("stale", std::mem::take(&mut self.stale)));
        self.search.finish_depth(stats);
    }

    /// The moves from the root to `goal`, through the parents.
    fn read_path(&self, goal: Node) -> Vec<Move> {
        path_to(&self.nodes, &self.colors, goal)
    }
}

/// The moves from the root to `node`, through the parents in `nodes`.
fn path_to(nodes: &[Node], colors: &[RobotColor], goal: Node) -> Vec<Move> {
    let mut moves = Vec::new();
    // The goal is not stored in the table, so its move is taken first and the rest traced.
    let Some(last) = step_move(colors, goal.step) else {
        return moves;
    };
    moves = trace_path(nodes, goal.parent as usize, |node| {
        step_move(colors, node.step).map(|mv| (mv, node.parent))
    });
    moves.push(last);
    moves
}

/// The move a node's `step` code stands for; `None` for the root.
fn step_move(colors: &[RobotColor], step: u8) -> Option<Move> {
    (step != NO_STEP).then(|| {
        Move::new(
            colors[usize::from(step / 4)],
            Direction::ALL[usize::from(step % 4)],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pos, Rules};
    use crate::solver::{Limits, Outcome};
    use crate::testing::*;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn astar_finds_the_optimum_on_the_small_board_and_with_five_robots() {
        assert_optimal_on_the_small_boards(NAME);
    }

    #[test]
    fn overestimating_heuristics_give_valid_answers_no_shorter_than_the_optimum() {
        for name in [MANHATTAN_NAME, ROW_COLUMN_NAME] {
            assert!(moves(&run(name, &small(), None)) >= 5);
            assert!(moves(&run(name, &five_robots(), None)) >= 9);
            assert!(moves(&run(name, &small_vortex(), None)) >= 1);
        }
        for kind in [MANHATTAN_KIND, ROW_COLUMN_KIND] {
            assert_eq!(kind.optimality, Optimality::NotGuaranteed);
            assert!(kind.description.contains("overestimate"));
        }
    }

    #[test]
    fn heuristics_follow_the_reports_definitions() {
        // Red (5,5), green (0,0), blue (5,0); the red target at (2,2).
        let puzzle = small();
        let cells = puzzle.robot_cells();
        let board = puzzle.board();
        let manhattan = Estimator::new(&puzzle, Heuristic::Manhattan);
        assert_eq!(manhattan.estimate(&cells, 0), Some(3 + 3));
        let row_column = Estimator::new(&puzzle, Heuristic::RowColumn);
        // Red is off the target's row and column; green and blue are in no row or column
        // next to it.
        assert_eq!(row_column.estimate(&cells, 0), Some(3));
        // Red in the target's column, green in the column next to it, blue in the row next
        // to it: nothing is added.
        let moved = [
            board.cell(Pos::new(2, 5)),
            board.cell(Pos::new(1, 0)),
            board.cell(Pos::new(5, 3)),
        ];
        assert_eq!(row_column.estimate(&moved, 0), Some(0));
        assert_eq!(manhattan.estimate(&moved, 0), Some(3));
        // The vortex: the nearest robot (green) counts for Manhattan; for row/column every
        // robot counts as the target's colour, and only red shares the target's column.
        let vortex = small_vortex();
        let manhattan = Estimator::new(&vortex, Heuristic::Manhattan);
        assert_eq!(manhattan.estimate(&moved, 0), Some(1 + 2));
        let row_column = Estimator::new(&vortex, Heuristic::RowColumn);
        assert_eq!(row_column.estimate(&moved, 0), Some(2));
    }

    #[test]
    fn unsolvable_puzzles_are_proved_so_by_every_heuristic() {
        let puzzle = corridor(true, Rules::default());
        for name in [NAME, MANHATTAN_NAME, ROW_COLUMN_NAME] {
            assert_eq!(
                run(name, &puzzle, None).outcome,
                Outcome::Unsolvable { within: None },
                "{name}"
            );
        }
    }

    #[test]
    fn rule_options_change_the_answer() {
        // One move east reaches the target; the ricochet rule needs east, west, east; with
        // the no-rebound rule too the robot can never come back.
        let free = |rules| corridor(false, rules);
        assert_eq!(moves(&run(NAME, &free(Rules::default()), None)), 1);
        let ricochet = Rules {
            ricochet: true,
            no_rebound: false,
        };
        assert_eq!(moves(&run(NAME, &free(ricochet), None)), 3);
        let both = Rules {
            ricochet: true,
            no_rebound: true,
        };
        assert_eq!(
            run(NAME, &free(both), None).outcome,
            Outcome::Unsolvable { within: None }
        );
    }

    #[test]
    fn astar_stops_cleanly_at_the_memory_limit() {
        let limit = 4 << 20;
        let report = run_to_memory_limit(NAME, &board("fogleman-22.ron"), None, limit);
        // The peak is what the tables held, not far below the limit.
        assert!(report.peak_memory > limit / 4, "{}", report.peak_memory);
        assert!(!report.depths.is_empty());
    }

    #[test]
    fn a_set_cancel_flag_stops_the_search() {
        let limits = Limits {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..Limits::default()
        };
        let report = report_within(NAME, &board("fogleman-22.ron"), &limits);
        assert_eq!(report.outcome, Outcome::Cancelled);
    }

    #[test]
    fn rows_and_events_follow_the_search() {
        let (report, probe) = recorded(NAME, &small(), None);
        assert_eq!(probe.depths, report.depths);
        let bounds: Vec<u32> = report.depths.iter().map(|row| row.depth).collect();
        assert_eq!(bounds, vec![3, 4, 5]);
        assert_eq!(
            probe.count(|e| matches!(e, Event::Node { .. })),
            report.nodes
        );
        let expanded: u64 = report.depths.iter().map(|row| row.nodes).sum();
        assert_eq!(expanded, report.nodes);
        assert_eq!(
            probe.count(|e| matches!(e, Event::IterationStarted { .. })),
            3
        );
        let duplicates: u64 = report.depths.iter().map(|row| row.hits).sum();
        assert_eq!(
            probe.count(|e| matches!(
                e,
                Event::Pruned {
                    reason: PruneReason::Visited,
                    ..
                }
            )),
            duplicates
        );
        assert!(matches!(probe.events.last(), Some(Event::Solution { .. })));
    }
}
