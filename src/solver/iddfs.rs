//! Fogleman's iterative-deepening depth-first search, exactly as his deck describes it and as
//! his code stood when the deck was made, so that it prints the deck's "Solver Output" node
//! counts line for line.
//!
//! - Iterations with maximum depth 1, 2, 3, ... until one finds a solution; the first solution
//!   of that iteration is returned, so the answer is shortest.
//! - One transposition table kept across all iterations, keyed on the active robot's cell and
//!   the other robots' cells sorted, storing the depth left when the state was searched: a state
//!   is pruned (a *hit*) when it was searched before with at least as much depth left, and
//!   otherwise its entry is raised.
//! - The minimum-move lower bound ([`min_moves`](super::min_moves)) prunes nodes whose bound
//!   exceeds the depth left; when the bound equals the depth left only the active robot moves.
//! - At each node, in this order: count the node; stop if the goal is reached; stop at the
//!   depth limit; stop if the bound exceeds the depth left; count it as *inner*; unless only
//!   one move is left, look the state up and stop on a hit; then expand.
//! - Robots are tried in the list red, green, blue, yellow (silver last) after swapping the
//!   active robot with the list's first entry, each in directions N, E, S, W. A robot may not
//!   move straight back along its own previous move when that was the last move made;
//!   zero-length moves are not moves.
//!
//! For the vortex (any robot) the bound is the smallest over all robots, the key sorts all
//! robots, the list keeps its natural order, and when the bound equals the depth left only the
//! robots whose own bound equals it move. With the no-rebound rule each robot's last direction
//! joins the key and the opposite direction is skipped; with the ricochet rule a goal reached
//! in fewer than two moves does not end the search, the number of moves made (up to two) joins
//! the key, and moving straight back is allowed within the first two moves.
//!
//! The search stops with "unsolvable" when an iteration finishes without cutting anything off:
//! no node at the depth limit, no finite bound above the depth left, no robot held back
//! because the bound equals the depth left, and no table hit on an entry written in an earlier
//! iteration (every entry carries the iteration that wrote it; this changes no count). A deeper
//! iteration would then search the same tree. Iterations stop at depth 255, the most a table
//! entry records, with "no solution within 255 moves"; a depth limit option stops them sooner.

use super::key::{KeyLayout, StateKey, state_key, with_key_width};
use super::min_moves::{UNREACHABLE, min_moves};
use super::probe::{DepthStats, Event, PruneReason, RobotCells};
use super::{
    Columns, Optimality, Probe, RuleSupport, Search, SearchEnd, SolverKind, SolverOptions, Stop,
};
use crate::model::{Cell, Direction, Move, MoveTables, Puzzle, RobotColor};
use rustc_hash::FxHashMap;

/// The command-line name.
pub const NAME: &str = "iddfs";

/// The registry entry.
pub const KIND: SolverKind = SolverKind {
    name: NAME,
    title: "IDDFS (Fogleman)",
    description: "Iterative deepening with a transposition table and the minimum-move bound, \
                  exactly as Fogleman's deck describes it",
    source: "Fogleman's slide deck; thesis draft, section IDDFS",
    optimality: Optimality::Guaranteed,
    rules: RuleSupport {
        ricochet: true,
        no_rebound: true,
    },
    columns: Columns {
        depth: "Depth",
        nodes: "Nodes",
        inner: "inner",
        hits: "hits",
    },
    takes_depth_limit: true,
};

/// Solves a puzzle with Fogleman's IDDFS.
pub fn solve<P: Probe>(
    puzzle: &Puzzle,
    options: &SolverOptions,
    search: &mut Search<'_, P>,
) -> SearchEnd {
    with_key_width!(puzzle, |layout, Key| {
        Iddfs::<P, Key>::new(puzzle, layout, search).run(options)
    })
}

/// The deepest iteration: table entries record depths in a byte.
const MAX_DEPTH: u32 = 255;

/// A table entry: the depth left when the state was searched, and the iteration that wrote it.
#[derive(Clone, Copy, Default)]
struct Entry {
    height: u8,
    iteration: u8,
}

struct Iddfs<'s, 'p, P: Probe, K: StateKey> {
    search: &'s mut Search<'p, P>,
    tables: MoveTables,
    bound: Vec<u16>,
    goal: Cell,
    active: Option<usize>,
    colors: Vec<RobotColor>,
    order: Vec<usize>,
    cells: Vec<Cell>,
    last_dir: Vec<Option<Direction>>,
    no_rebound: bool,
    min_len: u32,
    layout: KeyLayout,
    table: FxHashMap<K, Entry>,
    path: Vec<Move>,
    stats: DepthStats,
    cut: bool,
    table_bytes_checked: usize,
}

impl<'s, 'p, P: Probe, K: StateKey> Iddfs<'s, 'p, P, K> {
    fn new(puzzle: &Puzzle, layout: KeyLayout, search: &'s mut Search<'p, P>) -> Self {
        let n = puzzle.robots().len();
        let active = puzzle.active_robot();
        let mut order: Vec<usize> = (0..n).collect();
        if let Some(a) = active {
            order.swap(0, a);
        }
        Iddfs {
            search,
            tables: MoveTables::new(puzzle.board()),
            bound: min_moves(puzzle.board(), puzzle.goal_cell()),
            goal: puzzle.goal_cell(),
            active,
            colors: puzzle.robots().iter().map(|r| r.color).collect(),
            order,
            cells: puzzle.robot_cells(),
            last_dir: vec![None; n],
            no_rebound: puzzle.rules().no_rebound,
            min_len: puzzle.rules().min_solution_len() as u32,
            layout,
            table: FxHashMap::default(),
            path: Vec::new(),
            stats: DepthStats::default(),
            cut: false,
            table_bytes_checked: 0,
        }
    }

    fn run(mut self, options: &SolverOptions) -> SearchEnd {
        let mut max_depth = 1;
        let cap = options.depth_limit.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        loop {
            if max_depth > cap {
                return SearchEnd::Unsolvable(Some(cap));
            }
            self.stats = DepthStats {
                depth: max_depth,
                ..DepthStats::default()
            };
            self.cut = false;
            self.search
                .probe
                .event(|| Event::IterationStarted { depth: max_depth });
            let found = self.node(0, max_depth, None);
            let stats = std::mem::take(&mut self.stats);
            match found {
                Err(stop) => return SearchEnd::Stopped(stop),
                Ok(true) => {
                    self.search.finish_depth(stats);
                    return SearchEnd::Found(std::mem::take(&mut self.path));
                }
                Ok(false) => self.search.finish_depth(stats),
            }
            if !self.cut {
                return SearchEnd::Unsolvable(None);
            }
            max_depth += 1;
        }
    }

    /// The lower bound of the current position.
    #[inline(always)]
    fn lower_bound(&self) -> u32 {
        match self.active {
            Some(a) => u32::from(self.bound[usize::from(self.cells[a])]),
            None => self
                .cells
                .iter()
                .map(|&c| u32::from(self.bound[usize::from(c)]))
                .min()
                .unwrap_or(u32::from(UNREACHABLE)),
        }
    }

    #[inline(always)]
    fn at_goal(&self) -> bool {
        match self.active {
            Some(a) => self.cells[a] == self.goal,
            None => self.cells.contains(&self.goal),
        }
    }

    fn node(
        &mut self,
        depth: u32,
        max_depth: u32,
        last: Option<(usize, Direction)>,
    ) -> Result<bool, Stop> {
        self.stats.nodes += 1;
        self.search.tick()?;
        self.search.probe.event(|| Event::Node {
            depth,
            cells: RobotCells::new(&self.cells),
            path: self.path.clone(),
        });
        if self.at_goal() && depth >= self.min_len {
            return Ok(true);
        }
        if depth == max_depth {
            self.cut = true;
            self.search.probe.event(|| Event::Pruned {
                depth,
                reason: PruneReason::DepthLimit,
            });
            return Ok(false);
        }
        let height = max_depth - depth;
        let bound = self.lower_bound();
        if bound > height {
            if bound != u32::from(UNREACHABLE) {
                self.cut = true;
            }
            self.search.probe.event(|| Event::Pruned {
                depth,
                reason: PruneReason::LowerBound {
                    bound,
                    remaining: height,
                },
            });
            return Ok(false);
        }
        self.stats.inner += 1;
        if height != 1 {
            // Under the ricochet rule the moves made so far (up to two) join the key: a goal
            // reached too early does not count, so the same robots later are another state.
            let key: K = state_key(
                &self.layout,
                &self.cells,
                &self.last_dir,
                depth,
                self.min_len,
            );
            if self.table.len() == self.table.capacity() {
                self.grow_table()?;
            }
            let entry = self.table.entry(key).or_default();
            if u32::from(entry.height) >= height {
                let stored = u32::from(entry.height);
                if entry.iteration != max_depth as u8 {
                    self.cut = true;
                }
                self.stats.hits += 1;
                self.search.probe.event(|| Event::Pruned {
                    depth,
                    reason: PruneReason::TableHit { stored },
                });
                return Ok(false);
            }
            // Heights and iterations are at most MAX_DEPTH, so they fit a byte.
            *entry = Entry {
                height: height as u8,
                iteration: max_depth as u8,
            };
            self.track_memory()?;
        }
        for i in 0..self.order.len() {
            let robot = self.order[i];
            if bound == height {
                let own = u32::from(self.bound[usize::from(self.cells[robot])]);
                let may_reach = match self.active {
                    Some(a) => robot == a,
                    None => own == height,
                };
                if !may_reach {
                    self.cut = true;
                    continue;
                }
            }
            for dir in Direction::ALL {
                // Under the ricochet rule moving straight back can be what makes an early goal
                // count, so the deck's rule applies only once the first moves are made.
                if last == Some((robot, dir.opposite())) && depth >= self.min_len {
                    continue;
                }
                if self.no_rebound && self.last_dir[robot] == Some(dir.opposite()) {
                    continue;
                }
                let from = self.cells[robot];
                let to = self.tables.slide(&self.cells, robot, dir);
                if to == from {
                    continue;
                }
                let previous_dir = self.last_dir[robot];
                self.cells[robot] = to;
                self.last_dir[robot] = Some(dir);
                self.path.push(Move::new(self.colors[robot], dir));
                let found = self.node(depth + 1, max_depth, Some((robot, dir)));
                if let Ok(true) = found {
                    return found;
                }
                self.path.pop();
                self.cells[robot] = from;
                self.last_dir[robot] = previous_dir;
                found?;
            }
        }
        Ok(false)
    }

    /// Reports the table's size when it has grown, so the memory limit is honoured.
    #[inline(always)]
    fn track_memory(&mut self) -> Result<(), Stop> {
        let capacity = self.table.capacity();
        if capacity != self.table_bytes_checked {
            self.table_bytes_checked = capacity;
            let bytes = super::bfs::set_bytes(
                super::bfs::buckets_for_capacity(capacity),
                std::mem::size_of::<(K, Entry)>(),
            );
            self.search.set_memory(bytes)?;
        }
        Ok(())
    }

    /// Doubles the full table, after the memory limit allowed the size it will have: a table
    /// that grew on its own inside an insert would hold twice the limit before it was noticed.
    #[cold]
    fn grow_table(&mut self) -> Result<(), Stop> {
        let items = (self.table.capacity() + 1).max(1024);
        let planned = super::bfs::set_bytes(
            super::bfs::buckets_to_hold(items),
            std::mem::size_of::<(K, Entry)>(),
        );
        self.search.set_memory(planned)?;
        self.table
            .try_reserve(items - self.table.len())
            .map_err(|_| Stop::MemoryLimit)?;
        self.track_memory()
    }
}
