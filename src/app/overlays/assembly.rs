//! Overlay assembly: what the layers read this frame (the editor's slide graph, a debugged
//! run's picture, the stateless stores, the last solution, the distance map, the analysis),
//! and the layers that are on put together into one drawing for the board.

use super::{OverlayDrawing, OverlaySettings};
use crate::app::overlays;
use crate::app::widgets::capitalised;
use crate::model::{Board, Cell, Direction, Puzzle, RobotColor};
use crate::solver::analysis::distances::DistanceMap;
use crate::solver::picture::SearchPicture;
use crate::solver::slide_graph::{EdgeChange, SlideGraph};
use crate::solver::stateless::{IntermediateState, StatelessStores};
use std::fmt::Write as _;

/// The slide graph of the board being edited, kept up to date robot by robot so the edges each
/// placement or removal changed can be shown, and checked against a fresh build.
#[derive(Clone, Debug, Default)]
pub struct GraphTracker {
    board: Option<Board>,
    robots: Vec<Cell>,
    graph: Option<SlideGraph>,
    changes: Vec<EdgeChange>,
    /// The last check's verdict.
    pub check: Option<Result<String, String>>,
}

impl GraphTracker {
    /// Follows the board and robots: a new board builds the graph afresh; a change of robots
    /// removes the robots gone and places the new ones, recording the edges that changed.
    pub fn follow(&mut self, board: &Board, robots: &[Cell]) {
        let robots: Vec<Cell> = robots
            .iter()
            .copied()
            .filter(|&c| usize::from(c) < board.cell_count() && !board.is_closed(c))
            .collect();
        if self.board.as_ref() != Some(board) || self.graph.is_none() {
            let mut graph = SlideGraph::new(board);
            for &cell in &robots {
                // Two robots on one cell (an unfinished design) place once.
                let _ = graph.place(cell, |_| {});
            }
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
        self.robots = robots;
        self.changes = changes;
        self.check = None;
    }

    /// The graph's edges per cell.
    pub fn edges(&self) -> Vec<[Option<Cell>; 4]> {
        self.graph
            .as_ref()
            .map(overlays::layers::graph_edges)
            .unwrap_or_default()
    }

    /// The edges changed by the last placement or removal.
    pub fn changes(&self) -> &[EdgeChange] {
        &self.changes
    }

    /// Compares the incrementally updated graph with one built afresh; the verdict is kept in
    /// [`GraphTracker::check`] and returned.
    pub fn run_check(&mut self) -> Result<String, String> {
        let verdict = match (&self.board, &self.graph) {
            (Some(board), Some(graph)) => compare_graphs(board, graph, &self.robots),
            _ => Err("there is no graph to check yet".to_string()),
        };
        self.check = Some(verdict.clone());
        verdict
    }
}

impl crate::app::RicochetApp {
    /// Brings the slide graph up to the board as it is now, while the graph layer is on. An
    /// update is a few robots placed or removed (a fresh build when the walls changed): cheap
    /// enough for the frame, unlike the stateless stores.
    pub(in crate::app) fn sync_graph(&mut self) {
        if !self.state.overlays.graph_edges {
            return;
        }
        let draft = self.doc.draft();
        let board = &draft.board;
        let robots: Vec<Cell> = draft
            .robots
            .iter()
            .filter(|r| board.contains(r.pos))
            .map(|r| board.cell(r.pos))
            .collect();
        self.derived
            .follow_graph(self.doc.revision(), board, &robots);
    }
}

/// Compares a graph with a fresh build for the same robots: `Ok` with a summary, or `Err`
/// listing the first differences.
pub fn compare_graphs(
    board: &Board,
    graph: &SlideGraph,
    robots: &[Cell],
) -> Result<String, String> {
    let mut unique: Vec<Cell> = robots.to_vec();
    unique.sort_unstable();
    unique.dedup();
    let fresh = SlideGraph::with_robots(board, &unique)
        .map_err(|e| format!("a fresh graph could not be built: {e}"))?;
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
        Ok(format!(
            "The updated graph equals a fresh build ({} edges).",
            fresh.edge_list().len()
        ))
    } else {
        let count = differences.len();
        differences.truncate(8);
        Err(format!(
            "{count} edges differ from a fresh build: {}",
            differences.join("; ")
        ))
    }
}

/// What the overlays read in one frame.
pub struct OverlaySources<'a> {
    /// Which layers are on.
    pub settings: &'a OverlaySettings,
    /// The board shown.
    pub board: &'a Board,
    /// The minimum-move table, when that layer is on.
    pub min_moves: Option<&'a [u16]>,
    /// A debugged run's picture.
    pub debugger: Option<DebuggedRun<'a>>,
    /// The editor's graph.
    pub tracker: Option<&'a GraphTracker>,
    /// The cell whose edges to show when not all are shown.
    pub focus: Option<Cell>,
    /// The puzzle and stores for the stateless layer outside a debugged stateless run.
    pub stateless: Option<&'a StatelessStores>,
    /// The last result's puzzle and solution.
    pub solution: Option<(&'a Puzzle, &'a [crate::model::Move])>,
    /// The exact distance map of the position shown, and the robot whose distances to show.
    pub distances: Option<(&'a DistanceMap, RobotColor)>,
    /// The board analyser's heat map, empty while it is off or analysed another board.
    pub analyzer_heat: OverlayDrawing,
}

/// A debugged run as the overlays see it: data read from the debugger, so that the overlays
/// stay below the debugger that draws them.
#[derive(Clone, Copy)]
pub struct DebuggedRun<'a> {
    /// The picture at the event shown.
    pub picture: &'a SearchPicture,
    /// Whether the run is a stateless one (its picture holds the stores' states).
    pub stateless: bool,
}

/// Every stateless state of one cell, one line each, for the hovered cell's tooltip; `None`
/// when the cell has none.
pub fn stateless_details(board: &Board, stores: &StatelessStores, cell: Cell) -> Option<String> {
    let mut finals: Vec<_> = stores.finals().iter().filter(|f| f.cell == cell).collect();
    finals.sort_by_key(|f| (f.color.index(), f.moves));
    let mut intermediates: Vec<&IntermediateState> = stores
        .fields()
        .iter()
        .flat_map(|f| f.intermediates.iter())
        .filter(|i| i.cell == cell)
        .collect();
    intermediates.sort_by_key(|i| (i.color.index(), i.moves, i.dir.letter()));
    if finals.is_empty() && intermediates.is_empty() {
        return None;
    }
    let mut text = format!("Stateless states at {}", board.pos(cell));
    for state in finals {
        let _ = write!(
            text,
            "\n{} robot stops here after {} move{}",
            capitalised(state.color.name()),
            state.moves,
            if state.moves == 1 { "" } else { "s" }
        );
    }
    for state in intermediates {
        let _ = write!(
            text,
            "\n{} robot passes moving {} after {} move{}",
            capitalised(state.color.name()),
            state.dir.letter(),
            state.moves,
            if state.moves == 1 { "" } else { "s" }
        );
    }
    Some(text)
}
