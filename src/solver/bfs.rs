//! The naive algorithm of the thesis draft: breadth-first search over whole game states with
//! a first-in, first-out queue and a hash set of visited states. Optimal, and hungry: memory
//! grows with the number of states, so it stops cleanly at its memory limit. The visited set
//! is split into shards ([`ShardedSet`]) so that it grows a piece at a time and a cancel is
//! answered within milliseconds even at gigabytes (one table's doubling past 1 GiB took
//! 3.5 s); this costs about 15% of its speed. Its tables are handed back to the caller
//! ([`Search::retire`]) rather than freed before the end is reported.
//!
//! Per-level statistics: *Nodes* are the states expanded at that level, *inner* the successor
//! states generated from them, *hits* the successors pruned because they were visited before.
//! A goal is recognised when a state is generated, so the level of a solution of n moves is
//! n - 1 (and 0 reports a solution found at the root).

use super::key::{KeyLayout, StateKey, state_key, with_key_width};
use super::memory::{nodes_bytes, reserve_nodes_within};
use super::probe::{DepthStats, Event, PruneReason, RobotCells};
use super::sharded_set::ShardedSet;
use super::tree::trace_path;
use super::{
    Columns, Optimality, Probe, RuleSupport, Search, SearchEnd, SearchShape, SolverKind, Stop,
};
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Cell, Direction, Move, MoveTables, Puzzle};

/// The command-line name.
pub const NAME: &str = "bfs";

/// The registry entry.
pub const KIND: SolverKind = SolverKind {
    name: NAME,
    title: "Naive BFS",
    description: "Breadth-first search over game states with a FIFO queue and a visited set",
    source: "thesis draft, section Naive algorithm",
    optimality: Optimality::Guaranteed,
    rules: RuleSupport::BOTH,
    columns: Columns {
        depth: "Level",
        nodes: "Nodes",
        inner: "generated",
        hits: "visited",
    },
    deepest_limit: None,
    shape: SearchShape::Queue,
};

algorithm!(
    /// Breadth-first search in the registry.
    Bfs, KIND, |puzzle, _, search| solve(puzzle, search)
);

/// One stored state: the robots' cells, each robot's last direction (for the no-rebound
/// rule), the index of the state it came from and the move that led here.
#[derive(Clone, Copy)]
struct Node {
    cells: [Cell; MAX_ROBOTS],
    last_dir: [Option<Direction>; MAX_ROBOTS],
    parent: u32,
    mv: Option<Move>,
    depth: u32,
}

/// Solves a puzzle breadth first.
pub fn solve<P: Probe>(puzzle: &Puzzle, search: &mut Search<'_, P>) -> SearchEnd {
    with_key_width!(puzzle, |layout, Key| bfs::<P, Key>(puzzle, layout, search))
}

fn bfs<P: Probe, K: StateKey>(
    puzzle: &Puzzle,
    layout: KeyLayout,
    search: &mut Search<'_, P>,
) -> SearchEnd {
    match bfs_inner::<P, K>(puzzle, layout, search) {
        Ok(end) => end,
        Err(stop) => SearchEnd::Stopped(stop),
    }
}

fn bfs_inner<P: Probe, K: StateKey>(
    puzzle: &Puzzle,
    layout: KeyLayout,
    search: &mut Search<'_, P>,
) -> Result<SearchEnd, Stop> {
    let mut nodes: Vec<Node> = Vec::new();
    // Sharded, so that the set grows a little at a time and the limits are polled between.
    let mut visited: ShardedSet<K> = ShardedSet::default();
    let end = search_states(puzzle, layout, &mut nodes, &mut visited, search);
    // Freeing gigabytes takes a while: the caller does it once it has reported the end.
    search.retire((nodes, visited));
    end
}

fn search_states<P: Probe, K: StateKey>(
    puzzle: &Puzzle,
    layout: KeyLayout,
    nodes: &mut Vec<Node>,
    visited: &mut ShardedSet<K>,
    search: &mut Search<'_, P>,
) -> Result<SearchEnd, Stop> {
    let n = puzzle.robots().len();
    let tables = MoveTables::new(puzzle.board());
    let colors: Vec<_> = puzzle.robots().iter().map(|r| r.color).collect();
    let no_rebound = puzzle.rules().no_rebound;
    let min_len = puzzle.rules().min_solution_len() as u32;
    let mut root = Node {
        cells: [0; MAX_ROBOTS],
        last_dir: [None; MAX_ROBOTS],
        parent: u32::MAX,
        mv: None,
        depth: 0,
    };
    root.cells[..n].copy_from_slice(&puzzle.robot_cells());
    if puzzle.is_goal(&root.cells[..n]) && min_len == 0 {
        search.finish_depth(DepthStats::default());
        return Ok(SearchEnd::Found(Vec::new()));
    }
    // Nodes are kept (not only queued) so the solution can be read back through parents;
    // the queue is the tail of this list from `head` on.
    nodes.push(root);
    // Under the ricochet rule the moves made so far (up to two) are part of the state: a goal
    // reached too early does not count, so the same robots after more moves are a new state.
    let root_key = state_key::<K>(&layout, &root.cells[..n], &root.last_dir[..n], 0, min_len);
    visited.insert_within(root_key, nodes_bytes(nodes), search)?;
    search.set_memory(nodes_bytes(nodes) + visited.bytes())?;
    let mut head = 0;
    let mut stats = DepthStats::default();
    search.probe.event(|| Event::IterationStarted { depth: 0 });
    while head < nodes.len() {
        let node = nodes[head];
        if node.depth != stats.depth {
            let finished = std::mem::replace(
                &mut stats,
                DepthStats {
                    depth: node.depth,
                    ..DepthStats::default()
                },
            );
            search.finish_depth(finished);
            search
                .probe
                .event(|| Event::IterationStarted { depth: node.depth });
        }
        stats.nodes += 1;
        // Profiled before the tick, so a node counted as the run stops is profiled too.
        search
            .probe
            .profile_node(|| trace_path(nodes, head, |node| node.mv.map(|mv| (mv, node.parent))));
        search.tick()?;
        search.probe.node(node.depth, &node.cells[..n], |moves| {
            *moves = trace_path(nodes, head, |node| node.mv.map(|mv| (mv, node.parent)))
        });
        // Room for every child before any is made, so the list grows only within the limit.
        reserve_nodes_within(nodes, visited.bytes(), 4 * n, search)?;
        for (robot, &color) in colors.iter().enumerate() {
            for dir in Direction::ALL {
                if no_rebound && node.last_dir[robot] == Some(dir.opposite()) {
                    continue;
                }
                let to = tables.slide(&node.cells[..n], robot, dir);
                if to == node.cells[robot] {
                    continue;
                }
                stats.inner += 1;
                let mut child = node;
                child.cells[robot] = to;
                child.last_dir[robot] = Some(dir);
                child.parent = head as u32;
                child.mv = Some(Move::new(color, dir));
                child.depth = node.depth + 1;
                if puzzle.is_goal(&child.cells[..n]) && child.depth >= min_len {
                    nodes.push(child);
                    search.finish_depth(stats);
                    return Ok(SearchEnd::Found(trace_path(
                        nodes,
                        nodes.len() - 1,
                        |node| node.mv.map(|mv| (mv, node.parent)),
                    )));
                }
                let key = state_key::<K>(
                    &layout,
                    &child.cells[..n],
                    &child.last_dir[..n],
                    child.depth,
                    min_len,
                );
                if !visited.insert_within(key, nodes_bytes(nodes), search)? {
                    stats.hits += 1;
                    search.probe.event(|| Event::Pruned {
                        depth: child.depth,
                        reason: PruneReason::Visited,
                    });
                    continue;
                }
                nodes.push(child);
                search.probe.event(|| Event::Generated {
                    depth: child.depth,
                    cells: RobotCells::new(&child.cells[..n]),
                    path: trace_path(nodes, nodes.len() - 1, |node| {
                        node.mv.map(|mv| (mv, node.parent))
                    }),
                    h: None,
                });
            }
        }
        head += 1;
    }
    search.finish_depth(stats);
    Ok(SearchEnd::Unsolvable(None))
}
