//! The thesis' slide graph (section "Graph v1 → Construct Graph / Adapting the Graph").
//!
//! A vertex per cell and at most one directed edge per direction; the edge's *child* is the cell
//! where a robot standing on the vertex stops when it slides that way, with walls, closed cells
//! and the robots placed in the graph in the way. A vertex has no edge in a direction when the
//! robot cannot move there at all.
//!
//! - [`SlideGraph::new`] and [`SlideGraph::with_robots`] build the graph in the two
//!   dynamic-programming passes of the text: top-down, left to right for West and North (each
//!   vertex reads the edge of its neighbour in that direction, already built), then bottom-up,
//!   right to left for East and South. O(n²) for an n×n board.
//! - [`SlideGraph::place`] and [`SlideGraph::remove`] adapt the graph to one robot in O(n), by
//!   the four cases of the text, reporting each changed edge as an [`EdgeChange`].
//!
//! Choices where the text is silent:
//! - Vertices that hold a robot keep their edges, and those edges count the other robots as
//!   obstacles: the graph solvers move the obstacle robots along them. So when a robot stands
//!   beyond the child (case 2c), that robot's own edge back towards the placed cell changes
//!   too: in case 2c the most distant vertex is the robot beyond the child. Likewise in case 2a
//!   the adjacent robot loses (on placing) or regains (on removing) its edge back.
//! - Walls are always recorded on both cells they separate (the model guarantees it), so a cell
//!   that cannot move in a direction (case 1) is never crossed from that side either.

use super::steps::OpenSteps;
use crate::model::{Board, Cell, Direction, Pos};

/// The sentinel for "no edge in this direction" in the edge table.
const NO_EDGE: Cell = Cell::MAX;

/// Which of the text's cases changed an edge when a robot was placed or removed. Case 1 (the
/// cell cannot move in the direction) changes nothing, so it never appears in a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UpdateCase {
    /// 2a: the cell has no edge in the direction, so a robot stands on the adjacent cell.
    AdjacentRobot,
    /// 2b: the child of the cell's edge cannot move further, so it is the most distant vertex.
    WalledChild,
    /// 2c: the child could move further, so a robot stands just beyond it.
    RobotBeyondChild,
}

impl UpdateCase {
    /// The case's label in the text: `2a`, `2b` or `2c`.
    pub const fn label(self) -> &'static str {
        match self {
            UpdateCase::AdjacentRobot => "2a",
            UpdateCase::WalledChild => "2b",
            UpdateCase::RobotBeyondChild => "2c",
        }
    }
}

/// Whether a robot was placed in the graph or removed from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GraphAction {
    /// A robot was placed.
    Place,
    /// A robot was removed.
    Remove,
}

/// One edge changed by a placement or removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdgeChange {
    /// Placed or removed.
    pub action: GraphAction,
    /// The cell where the robot was placed or removed.
    pub robot: Cell,
    /// The vertex whose edge changed.
    pub vertex: Cell,
    /// The edge's direction.
    pub dir: Direction,
    /// The child before (`None`: there was no edge).
    pub old: Option<Cell>,
    /// The child after (`None`: the edge is gone).
    pub new: Option<Cell>,
    /// The case of the text that applied to the direction from the robot's cell.
    pub case: UpdateCase,
}

/// Why a robot could not be placed or removed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// The cell is not on the board.
    #[error("cell {cell} is off the {width}x{height} board")]
    OffBoard {
        /// The cell index.
        cell: Cell,
        /// The board's width.
        width: u16,
        /// The board's height.
        height: u16,
    },
    /// A robot already stands there.
    #[error("a robot already stands on {0} in the slide graph")]
    Occupied(Pos),
    /// No robot stands there.
    #[error("no robot stands on {0} in the slide graph")]
    Empty(Pos),
    /// The cell is closed to robots.
    #[error("{0} is a closed cell: no robot can stand there")]
    Closed(Pos),
}

/// What an edge change is part of: a placement or removal on a cell, under a case.
#[derive(Clone, Copy)]
struct Why {
    action: GraphAction,
    robot: Cell,
    case: UpdateCase,
}

impl Why {
    fn new(action: GraphAction, robot: Cell, case: UpdateCase) -> Why {
        Why {
            action,
            robot,
            case,
        }
    }
}

/// The slide graph of a board with some robots placed on it: plain data the app can draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlideGraph {
    width: u16,
    height: u16,
    /// The single steps a robot may take on the empty board.
    steps: OpenSteps,
    closed: Vec<bool>,
    edges: Vec<[Cell; 4]>,
    occupied: Vec<bool>,
}

impl SlideGraph {
    /// Builds the graph of an empty board.
    pub fn new(board: &Board) -> SlideGraph {
        let cells = board.cell_count();
        let mut graph = SlideGraph {
            width: board.width(),
            height: board.height(),
            steps: OpenSteps::new(board),
            closed: (0..cells as Cell).map(|c| board.is_closed(c)).collect(),
            edges: vec![[NO_EDGE; 4]; cells],
            occupied: vec![false; cells],
        };
        graph.build();
        graph
    }

    /// Builds the graph fresh with robots on `robots`, in the two passes: the reference the
    /// incremental updates are checked against.
    pub fn with_robots(board: &Board, robots: &[Cell]) -> Result<SlideGraph, GraphError> {
        let mut graph = SlideGraph::new(board);
        for &cell in robots {
            graph.check_cell(cell)?;
            let pos = graph.pos(cell);
            if graph.closed[usize::from(cell)] {
                return Err(GraphError::Closed(pos));
            }
            if graph.occupied[usize::from(cell)] {
                return Err(GraphError::Occupied(pos));
            }
            graph.occupied[usize::from(cell)] = true;
        }
        graph.build();
        Ok(graph)
    }

    /// The two dynamic-programming passes over the current robots.
    fn build(&mut self) {
        let cells = self.edges.len() as Cell;
        for cell in 0..cells {
            for dir in [Direction::West, Direction::North] {
                self.edges[usize::from(cell)][dir.index()] = self.link(cell, dir);
            }
        }
        for cell in (0..cells).rev() {
            for dir in [Direction::East, Direction::South] {
                self.edges[usize::from(cell)][dir.index()] = self.link(cell, dir);
            }
        }
    }

    /// One step of a pass: the edge of `cell` in `dir` from its neighbour's edge, which the
    /// pass has already built. No edge when the cell cannot step or a robot is adjacent; the
    /// neighbour's child when the neighbour has an edge; otherwise the neighbour itself.
    fn link(&self, cell: Cell, dir: Direction) -> Cell {
        if !self.can_move(cell, dir) {
            return NO_EDGE;
        }
        let next = self.step(cell, dir);
        if self.occupied[usize::from(next)] {
            return NO_EDGE;
        }
        match self.edges[usize::from(next)][dir.index()] {
            NO_EDGE => next,
            child => child,
        }
    }

    /// The board's width.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// The board's height.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// The number of vertices (cells).
    pub fn cell_count(&self) -> usize {
        self.edges.len()
    }

    /// The child of the edge of `cell` in `dir`: where a robot on `cell` stops.
    #[inline(always)]
    pub fn child(&self, cell: Cell, dir: Direction) -> Option<Cell> {
        match self.edges[usize::from(cell)][dir.index()] {
            NO_EDGE => None,
            child => Some(child),
        }
    }

    /// The children of all four edges of `cell`, in the order of [`Direction::ALL`].
    pub fn edges(&self, cell: Cell) -> [Option<Cell>; 4] {
        Direction::ALL.map(|dir| self.child(cell, dir))
    }

    /// Every edge as (vertex, direction, child), by vertex then direction.
    pub fn edge_list(&self) -> Vec<(Cell, Direction, Cell)> {
        let mut list = Vec::new();
        for cell in 0..self.edges.len() as Cell {
            for dir in Direction::ALL {
                if let Some(child) = self.child(cell, dir) {
                    list.push((cell, dir, child));
                }
            }
        }
        list
    }

    /// Whether a robot stands on `cell` in the graph.
    pub fn is_occupied(&self, cell: Cell) -> bool {
        self.occupied[usize::from(cell)]
    }

    /// The cells holding robots, in cell order.
    pub fn robots(&self) -> Vec<Cell> {
        (0..self.edges.len() as Cell)
            .filter(|&c| self.occupied[usize::from(c)])
            .collect()
    }

    /// Whether a robot may step from `cell` in `dir` on the empty board ("F\[i,j\] can move in
    /// direction d").
    #[inline(always)]
    pub fn can_move(&self, cell: Cell, dir: Direction) -> bool {
        self.steps.can_move(cell, dir)
    }

    /// The neighbour of `cell` in `dir`. Only called where [`SlideGraph::can_move`] holds, so
    /// the neighbour is on the board.
    #[inline(always)]
    fn step(&self, cell: Cell, dir: Direction) -> Cell {
        self.steps.step(cell, dir)
    }

    fn pos(&self, cell: Cell) -> Pos {
        Pos::new(cell % self.width, cell / self.width)
    }

    fn check_cell(&self, cell: Cell) -> Result<(), GraphError> {
        if usize::from(cell) >= self.edges.len() {
            return Err(GraphError::OffBoard {
                cell,
                width: self.width,
                height: self.height,
            });
        }
        Ok(())
    }

    /// Sets one edge and reports it when it changes. `why` names the placement or removal
    /// and the case; its vertex, direction and children are filled in here.
    #[inline(always)]
    fn set_edge(
        &mut self,
        vertex: Cell,
        dir: Direction,
        new: Option<Cell>,
        why: Why,
        report: &mut impl FnMut(EdgeChange),
    ) {
        let slot = &mut self.edges[usize::from(vertex)][dir.index()];
        let old = match *slot {
            NO_EDGE => None,
            child => Some(child),
        };
        if old == new {
            return;
        }
        *slot = new.unwrap_or(NO_EDGE);
        report(EdgeChange {
            action: why.action,
            robot: why.robot,
            vertex,
            dir,
            old,
            new,
            case: why.case,
        });
    }

    /// Places a robot on `cell` and adapts the edges it cuts, by the four cases, reporting
    /// each changed edge. O(n).
    pub fn place(
        &mut self,
        cell: Cell,
        mut report: impl FnMut(EdgeChange),
    ) -> Result<(), GraphError> {
        self.check_cell(cell)?;
        if self.closed[usize::from(cell)] {
            return Err(GraphError::Closed(self.pos(cell)));
        }
        if self.occupied[usize::from(cell)] {
            return Err(GraphError::Occupied(self.pos(cell)));
        }
        self.occupied[usize::from(cell)] = true;
        self.update_around(cell, GraphAction::Place, &mut report);
        Ok(())
    }

    /// Removes the robot on `cell` and restores the edges it cut, by the four cases, reporting
    /// each changed edge. O(n).
    pub fn remove(
        &mut self,
        cell: Cell,
        mut report: impl FnMut(EdgeChange),
    ) -> Result<(), GraphError> {
        self.check_cell(cell)?;
        if !self.occupied[usize::from(cell)] {
            return Err(GraphError::Empty(self.pos(cell)));
        }
        self.occupied[usize::from(cell)] = false;
        self.update_around(cell, GraphAction::Remove, &mut report);
        Ok(())
    }

    /// Places a robot on `cell` or removes the one there, as `action` says (see
    /// [`place`](Self::place) and [`remove`](Self::remove)).
    pub fn apply(
        &mut self,
        action: GraphAction,
        cell: Cell,
        report: impl FnMut(EdgeChange),
    ) -> Result<(), GraphError> {
        match action {
            GraphAction::Place => self.place(cell, report),
            GraphAction::Remove => self.remove(cell, report),
        }
    }

    /// Re-points the edges that `cell` cuts or no longer cuts once a robot was placed on it
    /// or removed from it, by the four cases, reporting each changed edge. Each direction's
    /// updates read only `cell`'s own edges, which the updates never change, so the
    /// directions can be handled in any order.
    fn update_around(
        &mut self,
        cell: Cell,
        action: GraphAction,
        mut report: impl FnMut(EdgeChange),
    ) {
        for dir in Direction::ALL {
            // Case 1: nothing slides into this cell from that side.
            if !self.can_move(cell, dir) {
                continue;
            }
            let back = dir.opposite();
            let adjacent = self.step(cell, dir);
            // Where a slide back towards the cell now ends. A placed robot stops it next to
            // itself, on the adjacent vertex, which cannot move back at all. Once the robot is
            // removed, the slide runs on through its cell, as far as a robot on the cell
            // itself would slide back.
            let through = match action {
                GraphAction::Place => None,
                GraphAction::Remove => Some(self.child(cell, back).unwrap_or(cell)),
            };
            let new_edge = |vertex: Cell| match action {
                GraphAction::Place => (vertex != adjacent).then_some(adjacent),
                GraphAction::Remove => through,
            };
            let Some(child) = self.child(cell, dir) else {
                // Case 2a: a robot stands on the adjacent cell; it can no longer (placed) or
                // can again (removed) move back.
                self.set_edge(
                    adjacent,
                    back,
                    new_edge(adjacent),
                    Why::new(action, cell, UpdateCase::AdjacentRobot),
                    &mut report,
                );
                continue;
            };
            let case = if self.can_move(child, dir) {
                UpdateCase::RobotBeyondChild
            } else {
                UpdateCase::WalledChild
            };
            // Every vertex from the adjacent one to the child slides back to the new end.
            let mut vertex = adjacent;
            loop {
                self.set_edge(
                    vertex,
                    back,
                    new_edge(vertex),
                    Why::new(action, cell, case),
                    &mut report,
                );
                if vertex == child {
                    break;
                }
                vertex = self.step(vertex, dir);
            }
            if case == UpdateCase::RobotBeyondChild {
                let beyond = self.step(child, dir);
                self.set_edge(
                    beyond,
                    back,
                    new_edge(beyond),
                    Why::new(action, cell, case),
                    &mut report,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::moves::slide_step_by_step;
    use crate::model::random::random_puzzle;
    use crate::model::{MoveTables, tiles};
    use proptest::prelude::*;

    /// Checks every edge of every open vertex against the move rules: for an occupied vertex
    /// the robot there slides, for a free one a robot put there for the check.
    fn assert_edges_follow_move_rules(board: &Board, graph: &SlideGraph) {
        let tables = MoveTables::new(board);
        let robots = graph.robots();
        for cell in 0..board.cell_count() as Cell {
            if board.is_closed(cell) {
                assert_eq!(graph.edges(cell), [None; 4]);
                continue;
            }
            let mut cells = robots.clone();
            let index = match cells.iter().position(|&c| c == cell) {
                Some(index) => index,
                None => {
                    cells.push(cell);
                    cells.len() - 1
                }
            };
            for dir in Direction::ALL {
                let by_rule = slide_step_by_step(board, &cells, index, dir);
                assert_eq!(tables.slide(&cells, index, dir), by_rule);
                let expected = (by_rule != cell).then_some(by_rule);
                assert_eq!(
                    graph.child(cell, dir),
                    expected,
                    "edge of {} going {dir}",
                    board.pos(cell)
                );
            }
        }
    }

    /// Applies one placement or removal, checking that the reported changes are exactly the
    /// difference between the graph before and after.
    fn apply_checked(graph: &mut SlideGraph, cell: Cell, place: bool) {
        let before = graph.clone();
        let mut changes = Vec::new();
        let result = if place {
            graph.place(cell, |c| changes.push(c))
        } else {
            graph.remove(cell, |c| changes.push(c))
        };
        result.unwrap();
        let mut replayed = before.clone();
        for change in &changes {
            assert_ne!(change.old, change.new);
            assert_eq!(replayed.child(change.vertex, change.dir), change.old);
            assert_eq!(change.robot, cell);
            replayed.edges[usize::from(change.vertex)][change.dir.index()] =
                change.new.unwrap_or(NO_EDGE);
        }
        assert_eq!(
            replayed.edges, graph.edges,
            "the reported changes are incomplete"
        );
    }

    #[test]
    fn empty_graph_edges_are_the_free_slides() {
        let (puzzle, _) = tiles::random_game(3, 4).unwrap();
        let graph = SlideGraph::new(puzzle.board());
        assert!(graph.robots().is_empty());
        assert_edges_follow_move_rules(puzzle.board(), &graph);
    }

    #[test]
    fn placing_a_robot_reports_the_case_of_each_direction() {
        // A 5x1 corridor: robots at x=0 and x=4, then one placed at x=2.
        let board = Board::new(5, 1).unwrap();
        let mut graph = SlideGraph::with_robots(&board, &[0, 4]).unwrap();
        let mut changes = Vec::new();
        graph.place(2, |c| changes.push(c)).unwrap();
        changes.sort_by_key(|c| (c.vertex, c.dir));
        let seen: Vec<_> = changes
            .iter()
            .map(|c| (c.vertex, c.dir, c.old, c.new, c.case))
            .collect();
        use Direction::{East, West};
        use UpdateCase::RobotBeyondChild as C;
        assert_eq!(
            seen,
            vec![
                (0, East, Some(3), Some(1), C),
                (1, East, Some(3), None, C),
                (3, West, Some(1), None, C),
                (4, West, Some(1), Some(3), C),
            ]
        );
        graph.remove(2, |_| ()).unwrap();
        assert_eq!(graph, SlideGraph::with_robots(&board, &[0, 4]).unwrap());
        // Adjacent robot (2a) and walled child (2b).
        let mut graph = SlideGraph::with_robots(&board, &[1]).unwrap();
        let mut cases = Vec::new();
        graph.place(0, |c| cases.push((c.vertex, c.case))).unwrap();
        assert_eq!(cases, vec![(1, UpdateCase::AdjacentRobot)]);
        let mut cases = Vec::new();
        graph.place(3, |c| cases.push((c.vertex, c.case))).unwrap();
        cases.sort();
        assert_eq!(
            cases,
            vec![
                (1, UpdateCase::RobotBeyondChild),
                (2, UpdateCase::RobotBeyondChild),
                (4, UpdateCase::WalledChild),
            ]
        );
    }

    #[test]
    fn bad_placements_are_errors_not_panics() {
        let mut board = Board::new(3, 3).unwrap();
        board.set_closed(Pos::new(1, 1), true).unwrap();
        let mut graph = SlideGraph::new(&board);
        assert_eq!(
            graph.place(4, |_| ()),
            Err(GraphError::Closed(Pos::new(1, 1)))
        );
        assert!(matches!(
            graph.place(9, |_| ()),
            Err(GraphError::OffBoard { .. })
        ));
        assert_eq!(
            graph.remove(0, |_| ()),
            Err(GraphError::Empty(Pos::new(0, 0)))
        );
        graph.place(0, |_| ()).unwrap();
        assert_eq!(
            graph.place(0, |_| ()),
            Err(GraphError::Occupied(Pos::new(0, 0)))
        );
        assert!(SlideGraph::with_robots(&board, &[2, 2]).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn graph_matches_fresh_build_after_any_placements(
            width in 1u16..=20,
            height in 1u16..=20,
            wall_every in 1usize..8,
            seed in any::<u64>(),
            closed in proptest::collection::vec(any::<u16>(), 0..4),
            ops in proptest::collection::vec((any::<bool>(), any::<u16>()), 0..40),
        ) {
            let robots = usize::from((width * height).min(3)).max(1);
            let puzzle = match random_puzzle(width, height, robots, wall_every, seed) {
                Ok(puzzle) => puzzle,
                // Tiny boards may have no room for the targets and robots; nothing to test.
                Err(_) => return Ok(()),
            };
            let mut board = puzzle.board().clone();
            let cells = board.cell_count() as u16;
            for c in closed {
                board.set_closed(board.pos(c % cells), true).unwrap();
            }
            let mut graph = SlideGraph::new(&board);
            prop_assert_eq!(&graph, &SlideGraph::with_robots(&board, &[]).unwrap());
            for (place, pick) in ops {
                let robots = graph.robots();
                if place || robots.is_empty() {
                    let cell = pick % cells;
                    if board.is_closed(cell) || graph.is_occupied(cell) {
                        prop_assert!(graph.place(cell, |_| ()).is_err());
                        continue;
                    }
                    apply_checked(&mut graph, cell, true);
                } else {
                    let cell = robots[usize::from(pick) % robots.len()];
                    apply_checked(&mut graph, cell, false);
                }
                let fresh = SlideGraph::with_robots(&board, &graph.robots()).unwrap();
                prop_assert_eq!(&graph, &fresh);
                assert_edges_follow_move_rules(&board, &graph);
            }
        }

        #[test]
        fn large_board_graph_matches_fresh_build_after_any_placements(
            width in 33u16..=64,
            height in 33u16..=64,
            seed in any::<u64>(),
            ops in proptest::collection::vec((any::<bool>(), any::<u16>()), 0..12),
        ) {
            let puzzle = random_puzzle(width, height, 5, 5, seed).unwrap();
            let board = puzzle.board();
            let cells = board.cell_count() as u16;
            let mut graph = SlideGraph::with_robots(board, &puzzle.robot_cells()).unwrap();
            for (place, pick) in ops {
                let robots = graph.robots();
                if place || robots.is_empty() {
                    let cell = pick % cells;
                    if !graph.is_occupied(cell) {
                        apply_checked(&mut graph, cell, true);
                    }
                } else {
                    apply_checked(&mut graph, robots[usize::from(pick) % robots.len()], false);
                }
                prop_assert_eq!(&graph, &SlideGraph::with_robots(board, &graph.robots()).unwrap());
            }
            assert_edges_follow_move_rules(board, &graph);
        }

        #[test]
        fn standard_board_graph_matches_fresh_build_after_any_placements(
            seed in any::<u64>(),
            ops in proptest::collection::vec((any::<bool>(), 0u16..256), 0..30),
        ) {
            let (puzzle, _) = tiles::random_game(seed, 4).unwrap();
            let board = puzzle.board();
            let mut graph = SlideGraph::new(board);
            for (place, cell) in ops {
                if board.is_closed(cell) {
                    continue;
                }
                if place && !graph.is_occupied(cell) {
                    apply_checked(&mut graph, cell, true);
                } else if !place && graph.is_occupied(cell) {
                    apply_checked(&mut graph, cell, false);
                }
                prop_assert_eq!(&graph, &SlideGraph::with_robots(board, &graph.robots()).unwrap());
            }
            assert_edges_follow_move_rules(board, &graph);
        }
    }
}
