//! The slide graph of a board being edited, carried from one version of the board to the next
//! and brought up to date robot by robot, so that the edges an edit changed can be shown and
//! the incremental updates checked against a fresh build.
//!
//! Plain data and pure functions: the worker updates a tracker off the user interface's
//! thread ([`crate::worker::graph`]) and the app only reads it.

use crate::model::{Board, Cell, Direction};
use crate::solver::slide_graph::{EdgeChange, GraphError, SlideGraph};
use std::fmt;

/// The slide graph of one board with its robots, kept up to date robot by robot so the edges
/// each placement or removal changed can be shown, and checked against a fresh build.
#[derive(Clone, Debug, Default)]
pub struct GraphTracker {
    board: Option<Board>,
    robots: Vec<Cell>,
    graph: Option<SlideGraph>,
    /// The graph's children per cell (north, east, south, west), read by the layer each frame.
    edges: Vec<[Option<Cell>; 4]>,
    changes: Vec<EdgeChange>,
    /// The last check's verdict.
    pub check: Option<GraphCheck>,
}

impl GraphTracker {
    /// Follows the board and robots: a new board builds the graph afresh; a change of robots
    /// removes the robots gone and places the new ones, recording the edges that changed.
    /// Robots off the board or on closed cells are left out, and two robots on one cell (an
    /// unfinished design) are placed once. O(n²) for a fresh build of an n×n board, O(n) per
    /// robot placed or removed.
    pub fn follow(&mut self, board: &Board, robots: &[Cell]) {
        let robots: Vec<Cell> = robots
            .iter()
            .copied()
            .filter(|&c| usize::from(c) < board.cell_count() && !board.is_closed(c))
            .collect();
        if self.board.as_ref() != Some(board) || self.graph.is_none() {
            let mut graph = SlideGraph::new(board);
            for &cell in &robots {
                // A second robot on one cell is refused as occupied: it is placed once.
                let _ = graph.place(cell, |_| {});
            }
            self.edges = graph_edges(&graph);
            self.board = Some(board.clone());
            self.graph = Some(graph);
            self.robots = robots;
            self.changes.clear();
            self.check = None;
            return;
        }
        if self.robots == robots {
            return;
        }
        let Some(graph) = &mut self.graph else {
            return;
        };
        let mut changes = Vec::new();
        for cell in self.robots.iter().filter(|c| !robots.contains(c)) {
            let _ = graph.remove(*cell, |c| changes.push(c));
        }
        for cell in robots.iter().filter(|c| !self.robots.contains(c)) {
            let _ = graph.place(*cell, |c| changes.push(c));
        }
        self.edges = graph_edges(graph);
        self.robots = robots;
        self.changes = changes;
        self.check = None;
    }

    /// The graph's children per cell (north, east, south, west); empty before the first
    /// [`GraphTracker::follow`].
    pub fn edges(&self) -> &[[Option<Cell>; 4]] {
        &self.edges
    }

    /// The edges changed by the last placement or removal.
    pub fn changes(&self) -> &[EdgeChange] {
        &self.changes
    }

    /// Compares the incrementally updated graph with one built afresh; the verdict is kept in
    /// [`GraphTracker::check`] and returned.
    pub fn run_check(&mut self) -> GraphCheck {
        let verdict = match (&self.board, &self.graph) {
            (Some(board), Some(graph)) => compare_graphs(board, graph, &self.robots),
            _ => Err(GraphCheckError::NoGraph),
        };
        self.check = Some(verdict.clone());
        verdict
    }
}

/// The slide graph's edges, as a table of children per cell (north, east, south, west).
pub fn graph_edges(graph: &SlideGraph) -> Vec<[Option<Cell>; 4]> {
    (0..graph.cell_count())
        .map(|cell| graph.edges(cell as Cell))
        .collect()
}

/// The verdict of a check of the updated graph against a fresh build.
pub type GraphCheck = Result<GraphsAgree, GraphCheckError>;

/// The updated graph equals a fresh build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphsAgree {
    /// The number of edges of both.
    pub edges: usize,
}

impl fmt::Display for GraphsAgree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "The updated graph equals a fresh build ({} edges).",
            self.edges
        )
    }
}

/// Why the updated graph could not be found equal to a fresh build.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphCheckError {
    /// No graph follows a board yet.
    #[error("there is no graph to check yet")]
    NoGraph,
    /// The robots cannot all stand on the board, so there is nothing to compare with.
    #[error("a fresh graph could not be built: {0}")]
    Fresh(GraphError),
    /// Edges differ.
    #[error("{count} edges differ from a fresh build: {}", first.join("; "))]
    Differ {
        /// How many edges differ.
        count: usize,
        /// The first few, each as cell, direction, updated child and fresh child.
        first: Vec<String>,
    },
}

/// Compares a graph with a fresh build for the same robots: `Ok` with the edge count, or
/// `Err` listing the first differences.
pub fn compare_graphs(board: &Board, graph: &SlideGraph, robots: &[Cell]) -> GraphCheck {
    let mut unique: Vec<Cell> = robots.to_vec();
    unique.sort_unstable();
    unique.dedup();
    let fresh = SlideGraph::with_robots(board, &unique).map_err(GraphCheckError::Fresh)?;
    let mut differences = Vec::new();
    for cell in 0..board.cell_count() as Cell {
        for dir in Direction::ALL {
            let (ours, theirs) = (graph.child(cell, dir), fresh.child(cell, dir));
            if ours != theirs {
                differences.push(format!(
                    "{} {}: updated {:?}, fresh {:?}",
                    board.pos(cell),
                    dir.letter(),
                    ours.map(|c| board.pos(c).to_string()),
                    theirs.map(|c| board.pos(c).to_string())
                ));
            }
        }
    }
    if differences.is_empty() {
        Ok(GraphsAgree {
            edges: fresh.edge_list().len(),
        })
    } else {
        let count = differences.len();
        differences.truncate(8);
        Err(GraphCheckError::Differ {
            count,
            first: differences,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::random::random_puzzle;
    use std::time::{Duration, Instant};

    fn robot_cells(puzzle: &crate::model::Puzzle) -> Vec<Cell> {
        let board = puzzle.board();
        puzzle.robots().iter().map(|r| board.cell(r.pos)).collect()
    }

    /// A free cell of `board` that holds none of `robots`.
    fn free_cell(board: &Board, robots: &[Cell]) -> Cell {
        (0..board.cell_count() as Cell)
            .find(|c| !robots.contains(c) && !board.is_closed(*c))
            .expect("a free cell")
    }

    #[test]
    fn a_tracker_brought_forward_equals_a_fresh_build_and_lists_the_changed_edges() {
        let puzzle = random_puzzle(16, 16, 4, 6, 7).unwrap();
        let board = puzzle.board();
        let robots = robot_cells(&puzzle);
        let mut tracker = GraphTracker::default();
        tracker.follow(board, &robots);
        assert!(
            tracker.changes().is_empty(),
            "a fresh build changes nothing"
        );
        assert_eq!(
            tracker.edges(),
            graph_edges(&SlideGraph::with_robots(board, &robots).unwrap())
        );

        let mut moved = robots.clone();
        moved[1] = free_cell(board, &robots);
        tracker.follow(board, &moved);
        assert!(!tracker.changes().is_empty());
        assert_eq!(
            tracker.edges(),
            graph_edges(&SlideGraph::with_robots(board, &moved).unwrap())
        );
        assert!(tracker.run_check().is_ok(), "{:?}", tracker.check);

        // The same robots again: nothing to do, and the last changes stay.
        let changes = tracker.changes().to_vec();
        tracker.follow(board, &moved);
        assert_eq!(tracker.changes(), changes.as_slice());
        assert!(
            tracker.check.is_some(),
            "the verdict stays with the graph it judged"
        );
    }

    #[test]
    fn a_new_board_is_built_afresh_and_a_check_of_nothing_says_so() {
        let mut tracker = GraphTracker::default();
        assert!(tracker.run_check().is_err());
        let first = random_puzzle(8, 8, 2, 4, 1).unwrap();
        tracker.follow(first.board(), &robot_cells(&first));
        let second = random_puzzle(8, 8, 2, 4, 2).unwrap();
        let robots = robot_cells(&second);
        tracker.follow(second.board(), &robots);
        assert!(tracker.changes().is_empty());
        assert_eq!(
            tracker.edges(),
            graph_edges(&SlideGraph::with_robots(second.board(), &robots).unwrap())
        );
    }

    /// Measures what one update of the tracker costs on a 16x16 and a 64x64 board: a fresh
    /// build (a new board) and one robot moved, best of many runs each. Prints the times;
    /// asserts only that the updates did their work.
    #[test]
    #[ignore = "a measurement: run with --ignored --nocapture"]
    fn tracker_update_times() {
        fn best(runs: usize, mut work: impl FnMut()) -> Duration {
            (0..runs)
                .map(|_| {
                    let start = Instant::now();
                    work();
                    start.elapsed()
                })
                .min()
                .unwrap_or_default()
        }
        for side in [16, 64] {
            let puzzle = random_puzzle(side, side, 5, 6, 3).unwrap();
            let board = puzzle.board();
            let robots = robot_cells(&puzzle);
            let mut moved = robots.clone();
            moved[0] = free_cell(board, &robots);
            let fresh = best(200, || {
                let mut tracker = GraphTracker::default();
                tracker.follow(board, &robots);
                assert_eq!(tracker.edges().len(), board.cell_count());
            });
            let mut tracker = GraphTracker::default();
            tracker.follow(board, &robots);
            let mut flip = false;
            let step = best(200, || {
                flip = !flip;
                tracker.follow(board, if flip { &moved } else { &robots });
                assert!(!tracker.changes().is_empty());
            });
            let check = best(50, || {
                assert!(tracker.run_check().is_ok());
            });
            println!(
                "{side}x{side}: fresh build {fresh:?}, one robot moved {step:?}, check {check:?}"
            );
        }
    }
}
