//! The thesis' graph solvers, Graph v1 and Graph v2 (sections "Graph v1 → Solver" and
//! "Graph v2"), on the [slide graph](super::slide_graph).
//!
//! Both search breadth first over the positions of the obstacle robots (OR: every robot but the
//! goal robot GR) with a first-in, first-out queue and a hash set of game states (the list of
//! OR cells in colour order). For each game state s taken from the queue:
//!
//! 1. the termination rule is applied to the best solution so far B;
//! 2. the ORs are placed in the graph and a breadth-first search of GR alone over the graph's
//!    edges gives its distance to the target; if it reaches it, `s.moves + distance` replaces
//!    B when smaller;
//! 3. GR is placed at its start, and every OR is moved in every direction along the graph's
//!    edges; new game states not in the hash set are queued;
//! 4. all robots are removed from the graph.
//!
//! The answer is the ORs' moves to s followed by GR's moves. Both rest on the text's assumption:
//! all OR moves come before GR moves, and the ORs may only use GR's starting cell. Under it the
//! level order makes the answer shortest; in general it is not, so both say
//! [`Optimality::NotGuaranteed`].
//!
//! **v1** stops when `B.best < s.moves + 2` and runs GR's breadth-first search over all of the
//! graph it can reach, then reads the target's distance.
//!
//! **v2** adds the minimum-move table ([`min_moves`]): it stops when
//! `B.best < s.moves + min[GR]`, and once B exists, with `depth = B.best - s.moves`, GR's search
//! ends when it takes a vertex at distance `depth - 1` (nothing deeper can improve B) and skips
//! expanding a vertex c when `min[c] + c.d >= depth`.
//!
//! Choices where the text is silent:
//! - The target's distance is read after GR's search, so GR's first path to the target in
//!   breadth-first order (directions N, E, S, W) is the one reported.
//! - For the vortex (any robot may reach it) the text has no GR: the whole search runs once for
//!   each robot as GR, in colour order, sharing B, and the per-level rows restart at level 0 for
//!   each (their `robot` column names the GR's colour index).
//! - When the queue runs empty without B, the outcome is "unsolvable": a statement under the
//!   assumption above, not a proof.
//! - The rule options (ricochet, no rebound) are not part of the algorithm and not supported.
//!
//! Per-level rows (the level is s.moves, the OR moves made): *States* are the game states
//! taken from the queue at that level, *reached* those where GR reached the target, *visited*
//! the new game states dropped because the hash set held them; `edges` counts the graph edges
//! changed by placing and removing robots, `bfs` the vertices GR's searches took from their
//! queues, and `best` is B.best at the end of the level (absent while there is no B).

use super::memory::reserve_within;
use super::min_moves::min_moves;
use super::picture::SearchPicture;
use super::probe::{DepthStats, Event, PruneReason, RobotCells, SolverEvent};
use super::slide_graph::{EdgeChange, GraphAction, SlideGraph};
use super::tree::trace_path;
use super::{
    Columns, Optimality, Probe, RuleSupport, Search, SearchEnd, SearchShape, SolverKind, Stop,
};
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Cell, Direction, Move, Puzzle, RobotColor};
use rustc_hash::FxHashSet;

/// What the graph solvers report beyond the generic events, carried by [`Event::Solver`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GraphEvent {
    /// The slide graph of the empty board was built: a snapshot to draw, which the
    /// [`GraphEvent::EdgeChanged`] events that follow keep up to date.
    Built(Box<SlideGraph>),
    /// Placing or removing a robot changed one edge of the slide graph.
    EdgeChanged(EdgeChange),
    /// The goal robot alone was searched for the game state just examined.
    GoalRobotSearched {
        /// The obstacle robots' moves to the game state.
        level: u32,
        /// The goal robot's distance to the target, if it reached it.
        distance: Option<u32>,
        /// The best solution's length so far.
        best: Option<u32>,
    },
}

impl SolverEvent for GraphEvent {
    fn describe(&self, board: &crate::model::Board) -> String {
        let at = |cell: Cell| board.pos(cell).to_string();
        match self {
            GraphEvent::Built(_) => "slide graph built".to_string(),
            GraphEvent::EdgeChanged(change) => {
                let cell = |c: Option<Cell>| c.map_or("none".to_string(), at);
                format!(
                    "edge of {} {}: {} -> {} (case {})",
                    at(change.vertex),
                    change.dir.letter(),
                    cell(change.old),
                    cell(change.new),
                    change.case.label()
                )
            }
            GraphEvent::GoalRobotSearched {
                level, distance, ..
            } => format!(
                "goal robot at level {level}: {}",
                distance.map_or("no path".into(), |d| format!("{d} moves"))
            ),
        }
    }

    fn draw(&self, picture: &mut SearchPicture) {
        let event = picture.events();
        match self {
            GraphEvent::Built(graph) => {
                let part = picture.part_mut::<GraphPicture>();
                part.edges = (0..graph.cell_count())
                    .map(|cell| graph.edges(cell as Cell))
                    .collect();
                part.recent_changes.clear();
                part.last_change_event = None;
            }
            GraphEvent::EdgeChanged(change) => {
                picture.part_mut::<GraphPicture>().record(*change, event);
            }
            GraphEvent::GoalRobotSearched { .. } => {}
        }
    }

    fn status(&self) -> Option<(&'static str, String)> {
        let GraphEvent::GoalRobotSearched {
            level,
            distance,
            best,
        } = self
        else {
            return None;
        };
        Some((
            "Goal robot",
            format!(
                "level {level}, distance {}, best {}",
                distance.map_or("-".into(), |d| d.to_string()),
                best.map_or("-".into(), |b| b.to_string())
            ),
        ))
    }
}

/// How many edge changes are kept as "changed by the last update".
const MAX_RECENT_CHANGES: usize = 256;

/// The graph solvers' part of the [search picture](SearchPicture): the slide graph as the
/// events so far left it, for the slide-graph overlay. Present once a graph solver built its
/// graph.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GraphPicture {
    /// The slide graph's edges, per cell (N E S W).
    pub edges: Vec<[Option<Cell>; 4]>,
    /// The edge changes of the latest update: a run of changes in consecutive events, as the
    /// placing or removal of one robot makes them (the first 256 of a longer run).
    pub recent_changes: Vec<EdgeChange>,
    /// The number of the event that made the last change, so a change right after it belongs
    /// to the same update.
    last_change_event: Option<u64>,
}

impl GraphPicture {
    /// Records a change of one edge made by event number `event`: a change right after
    /// another belongs to the same update, any other starts a new list of recent changes.
    fn record(&mut self, change: EdgeChange, event: u64) {
        if self.last_change_event.is_none_or(|last| last + 1 != event) {
            self.recent_changes.clear();
        }
        self.last_change_event = Some(event);
        if let Some(slot) = self.edges.get_mut(usize::from(change.vertex)) {
            slot[change.dir.index()] = change.new;
        }
        if self.recent_changes.len() < MAX_RECENT_CHANGES {
            self.recent_changes.push(change);
        }
    }
}

/// The command-line name of Graph v1.
pub const V1_NAME: &str = "graph-v1";
/// The command-line name of Graph v2.
pub const V2_NAME: &str = "graph-v2";

const COLUMNS: Columns = Columns {
    depth: "Level",
    nodes: "States",
    inner: "reached",
    hits: "visited",
};

/// The registry entry of Graph v1.
pub const V1_KIND: SolverKind = SolverKind {
    name: V1_NAME,
    title: "Graph v1",
    description: "BFS over the obstacle robots' positions; for each, a BFS of the goal robot \
                  alone over the incrementally adapted slide graph",
    source: "thesis draft, section Graph v1",
    optimality: Optimality::NotGuaranteed,
    rules: RuleSupport {
        ricochet: false,
        no_rebound: false,
    },
    columns: COLUMNS,
    deepest_limit: None,
    shape: SearchShape::Queue,
};

/// The registry entry of Graph v2.
pub const V2_KIND: SolverKind = SolverKind {
    name: V2_NAME,
    title: "Graph v2",
    description: "Graph v1 with the minimum-move table in its termination rule and a depth \
                  limit and branch cut in the goal robot's BFS",
    source: "thesis draft, section Graph v2",
    optimality: Optimality::NotGuaranteed,
    rules: RuleSupport {
        ricochet: false,
        no_rebound: false,
    },
    columns: COLUMNS,
    deepest_limit: None,
    shape: SearchShape::Queue,
};

algorithm!(
    /// The slide-graph solver, first version in the registry.
    GraphV1, V1_KIND, |puzzle, _, search| solve(puzzle, Version::V1, search)
);

algorithm!(
    /// The slide-graph solver, second version in the registry.
    GraphV2, V2_KIND, |puzzle, _, search| solve(puzzle, Version::V2, search)
);

/// Which section of the text to follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// Graph v1.
    V1,
    /// Graph v2.
    V2,
}

/// One game state in the queue: the ORs' cells in colour order, the state it came from and the
/// OR move that led here.
#[derive(Clone, Copy)]
struct StateNode {
    cells: [Cell; MAX_ROBOTS - 1],
    parent: u32,
    mv: Option<Move>,
    moves: u32,
}

impl StateNode {
    /// The start: the obstacle robots on their cells, no move made.
    fn root(start: &[Cell], obstacles: &[usize]) -> StateNode {
        let mut root = StateNode {
            cells: [0; MAX_ROBOTS - 1],
            parent: u32::MAX,
            mv: None,
            moves: 0,
        };
        for (slot, &robot) in obstacles.iter().enumerate() {
            root.cells[slot] = start[robot];
        }
        root
    }
}

/// The obstacle robots' moves from the start to the state at `index`, through the parents.
fn path_to(nodes: &[StateNode], index: usize) -> Vec<Move> {
    trace_path(nodes, index, |node| node.mv.map(|mv| (mv, node.parent)))
}

/// The best solution so far: B.best is `moves.len()`.
struct Best {
    moves: Vec<Move>,
}

/// GR's breadth-first search over the graph, with its arrays kept between searches. A vertex's
/// `seen` stamp equals the current search's number when it has been discovered.
struct GoalSearch {
    seen: Vec<u32>,
    stamp: u32,
    dist: Vec<u32>,
    parent: Vec<(Cell, Direction)>,
    queue: Vec<Cell>,
}

impl GoalSearch {
    fn new(cells: usize) -> GoalSearch {
        GoalSearch {
            seen: vec![0; cells],
            stamp: 0,
            dist: vec![0; cells],
            parent: vec![(0, Direction::North); cells],
            queue: Vec::with_capacity(cells),
        }
    }

    /// Searches from `source`; returns GR's distance to `goal` and the number of vertices taken
    /// from the queue. `limit` is v2's pair (depth, min table) once B exists.
    fn run(
        &mut self,
        graph: &SlideGraph,
        source: Cell,
        goal: Cell,
        limit: Option<(u32, &[u16])>,
    ) -> (Option<u32>, u64) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // After four billion searches the stamps wrap; clear them once.
            self.seen.fill(0);
            self.stamp = 1;
        }
        self.queue.clear();
        self.seen[usize::from(source)] = self.stamp;
        self.dist[usize::from(source)] = 0;
        self.queue.push(source);
        let mut head = 0;
        while head < self.queue.len() {
            let vertex = self.queue[head];
            head += 1;
            let d = self.dist[usize::from(vertex)];
            if let Some((depth, min)) = limit {
                // v2, rule 1: a vertex at depth - 1 has no child that could improve B, and
                // the queue holds nothing nearer: the search ends.
                if d + 1 >= depth {
                    break;
                }
                // v2, rule 2: this branch cannot reach the target within the limit.
                if u32::from(min[usize::from(vertex)]) + d >= depth {
                    continue;
                }
            }
            for dir in Direction::ALL {
                let Some(child) = graph.child(vertex, dir) else {
                    continue;
                };
                let slot = usize::from(child);
                if self.seen[slot] == self.stamp {
                    continue;
                }
                self.seen[slot] = self.stamp;
                self.dist[slot] = d + 1;
                self.parent[slot] = (vertex, dir);
                self.queue.push(child);
            }
        }
        let reached =
            (self.seen[usize::from(goal)] == self.stamp).then(|| self.dist[usize::from(goal)]);
        (reached, head as u64)
    }

    /// GR's moves from the source to `goal` in the last search, which reached it.
    fn path(&self, source: Cell, goal: Cell, color: RobotColor) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut at = goal;
        while at != source {
            let (from, dir) = self.parent[usize::from(at)];
            moves.push(Move::new(color, dir));
            at = from;
        }
        moves.reverse();
        moves
    }
}

/// Solves a puzzle with Graph v1 or v2.
pub fn solve<P: Probe>(puzzle: &Puzzle, version: Version, search: &mut Search<'_, P>) -> SearchEnd {
    let goal_robots: Vec<usize> = match puzzle.active_robot() {
        Some(active) => vec![active],
        None => (0..puzzle.robots().len()).collect(),
    };
    let vortex = puzzle.active_robot().is_none();
    let mut graph = SlideGraph::new(puzzle.board());
    search
        .probe
        .event(|| Event::solver(GraphEvent::Built(Box::new(graph.clone()))));
    let min = match version {
        Version::V1 => Vec::new(),
        Version::V2 => min_moves(puzzle.board(), puzzle.goal_cell()),
    };
    let mut best: Option<Best> = None;
    for gr in goal_robots {
        let run = GraphRun {
            puzzle,
            version,
            gr,
            vortex,
            min: &min,
        };
        if let Err(stop) = run.search(&mut graph, &mut best, search) {
            return SearchEnd::Stopped(stop);
        }
    }
    match best {
        Some(best) => SearchEnd::Found(best.moves),
        None => SearchEnd::NotFound,
    }
}

/// One search with a given goal robot.
struct GraphRun<'a> {
    puzzle: &'a Puzzle,
    version: Version,
    gr: usize,
    vortex: bool,
    min: &'a [u16],
}

impl GraphRun<'_> {
    fn search<P: Probe>(
        &self,
        graph: &mut SlideGraph,
        best: &mut Option<Best>,
        search: &mut Search<'_, P>,
    ) -> Result<(), Stop> {
        let puzzle = self.puzzle;
        let all_cells = puzzle.robot_cells();
        let colors: Vec<RobotColor> = puzzle.robots().iter().map(|r| r.color).collect();
        let gr_start = all_cells[self.gr];
        let gr_color = colors[self.gr];
        let goal = puzzle.goal_cell();
        // The ORs in colour order, by their index in the puzzle.
        let obstacles: Vec<usize> = (0..all_cells.len()).filter(|&i| i != self.gr).collect();
        let or_count = obstacles.len();
        let root = StateNode::root(&all_cells, &obstacles);
        // v2's termination bound: GR stays on its start until the ORs are done, so min[GR] is
        // the table's value there throughout.
        let gr_min = match self.version {
            Version::V1 => 2,
            Version::V2 => u32::from(self.min[usize::from(gr_start)]),
        };
        let cell_bits = usize::BITS - (graph.cell_count().max(2) - 1).leading_zeros();
        let key = |cells: &[Cell]| -> u64 {
            cells
                .iter()
                .fold(0u64, |key, &c| (key << cell_bits) | u64::from(c))
        };
        // Game states are kept (not only queued) so B's OR moves can be read back through the
        // parents; the queue is the tail of this list from `head` on.
        let mut nodes: Vec<StateNode> = vec![root];
        let mut visited: FxHashSet<u64> = FxHashSet::default();
        visited.insert(key(&root.cells[..or_count]));
        let mut goal_search = GoalSearch::new(graph.cell_count());
        let mut head = 0;
        let mut stats = self.row(0);
        search.probe.event(|| Event::IterationStarted { depth: 0 });
        while head < nodes.len() {
            let state = nodes[head];
            // The termination rule: no state at this level or later can beat B.
            if let Some(b) = best.as_ref()
                && (b.moves.len() as u32) < state.moves + gr_min
            {
                break;
            }
            if state.moves != stats.depth {
                let finished = std::mem::replace(&mut stats, self.row(state.moves));
                search.finish_depth(self.with_best(finished, best));
                search
                    .probe
                    .event(|| Event::IterationStarted { depth: state.moves });
            }
            stats.nodes += 1;
            // Profiled before the tick, so a node counted as the run stops is profiled too.
            search.probe.profile_node(|| path_to(&nodes, head));
            search.tick()?;
            search.probe.event(|| {
                let mut cells = all_cells.clone();
                for (slot, &robot) in obstacles.iter().enumerate() {
                    cells[robot] = state.cells[slot];
                }
                Event::Node {
                    depth: state.moves,
                    cells: RobotCells::new(&cells),
                    path: path_to(&nodes, head),
                }
            });
            let mut edges_changed = 0u64;
            let ors = &state.cells[..or_count];
            for &cell in ors {
                apply(graph, GraphAction::Place, cell, search, &mut edges_changed);
            }
            let limit = match (self.version, best.as_ref()) {
                (Version::V2, Some(b)) => {
                    Some(((b.moves.len() as u32).saturating_sub(state.moves), self.min))
                }
                _ => None,
            };
            let (reached, taken) = goal_search.run(graph, gr_start, goal, limit);
            stats.extra[1].1 += taken;
            if let Some(distance) = reached {
                stats.inner += 1;
                let total = state.moves + distance;
                if best.as_ref().is_none_or(|b| total < b.moves.len() as u32) {
                    let mut moves = path_to(&nodes, head);
                    moves.extend(goal_search.path(gr_start, goal, gr_color));
                    *best = Some(Best { moves });
                }
            }
            search.probe.event(|| {
                Event::solver(GraphEvent::GoalRobotSearched {
                    level: state.moves,
                    distance: reached,
                    best: best.as_ref().map(|b| b.moves.len() as u32),
                })
            });
            apply(
                graph,
                GraphAction::Place,
                gr_start,
                search,
                &mut edges_changed,
            );
            // Room for every child first, so the tables grow only within the memory limit.
            reserve_within(&mut nodes, &mut visited, 4 * or_count, search)?;
            for slot in 0..or_count {
                for dir in Direction::ALL {
                    let Some(to) = graph.child(ors[slot], dir) else {
                        continue;
                    };
                    let mut child = state;
                    child.cells[slot] = to;
                    child.parent = head as u32;
                    child.mv = Some(Move::new(colors[obstacles[slot]], dir));
                    child.moves = state.moves + 1;
                    if !visited.insert(key(&child.cells[..or_count])) {
                        stats.hits += 1;
                        search.probe.event(|| Event::Pruned {
                            depth: child.moves,
                            reason: PruneReason::Visited,
                        });
                        continue;
                    }
                    nodes.push(child);
                    search
                        .probe
                        .event(|| Self::generated(&nodes, &all_cells, &obstacles));
                }
            }
            apply(
                graph,
                GraphAction::Remove,
                gr_start,
                search,
                &mut edges_changed,
            );
            for &cell in ors {
                apply(graph, GraphAction::Remove, cell, search, &mut edges_changed);
            }
            stats.extra[0].1 += edges_changed;
            head += 1;
        }
        search.finish_depth(self.with_best(stats, best));
        Ok(())
    }

    /// The event of the state pushed last on the queue, with the goal robot on its start.
    fn generated(nodes: &[StateNode], all_cells: &[Cell], obstacles: &[usize]) -> Event {
        let index = nodes.len() - 1;
        let state = nodes[index];
        let mut cells = all_cells.to_vec();
        for (slot, &robot) in obstacles.iter().enumerate() {
            cells[robot] = state.cells[slot];
        }
        Event::Generated {
            depth: state.moves,
            cells: RobotCells::new(&cells),
            path: path_to(nodes, index),
            h: None,
        }
    }

    /// A new per-level row with its extra columns in place.
    fn row(&self, level: u32) -> DepthStats {
        let mut extra = vec![("edges", 0), ("bfs", 0)];
        if self.vortex {
            extra.push(("robot", self.gr as u64));
        }
        DepthStats {
            depth: level,
            extra,
            ..DepthStats::default()
        }
    }

    /// Adds B.best to a finished row when there is a B.
    fn with_best(&self, mut stats: DepthStats, best: &Option<Best>) -> DepthStats {
        if let Some(b) = best {
            stats.extra.push(("best", b.moves.len() as u64));
        }
        stats
    }
}

/// Places a robot in the graph or removes one, reporting each changed edge to the probe and
/// counting it.
fn apply<P: Probe>(
    graph: &mut SlideGraph,
    action: GraphAction,
    cell: Cell,
    search: &mut Search<'_, P>,
    count: &mut u64,
) {
    // Placed cells come from the puzzle's valid robot positions and from the graph's own
    // edges, which only lead to open cells no robot holds; only robots placed for the current
    // state are removed, each once. So neither can fail; a failure would be a bug and is
    // caught by the replay.
    let result = graph.apply(action, cell, |change| {
        *count += 1;
        search
            .probe
            .event(|| Event::solver(GraphEvent::EdgeChanged(change)));
    });
    debug_assert!(result.is_ok(), "{action:?} on {cell}: {result:?}");
}

#[cfg(test)]
mod tests;
