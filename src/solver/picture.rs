//! What the overlays draw of a search after some event: the search heat map, the slide graph,
//! the stateless stores and an engine's own layer. It is the sum of the events so far; each solver's own events draw
//! themselves into it ([`SolverEvent::draw`](super::SolverEvent::draw)) and every event is
//! added by [`Event::draw`](super::Event::draw), so whoever keeps a picture needs no knowledge
//! of any solver.

use super::slide_graph::EdgeChange;
use super::stateless::states::{FinalState, IntermediateState, StatelessStores};
use crate::model::Cell;

/// How many edge changes are kept as "changed by the last update".
const MAX_RECENT_CHANGES: usize = 256;

/// What the overlays draw of a search after some event. A recorded event's picture is rebuilt
/// by applying the events up to it to the picture before the oldest one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchPicture {
    /// How often the active robot stood on each cell among the nodes examined.
    pub heat: Vec<u32>,
    /// The slide graph's edges (per cell, N E S W), once a graph solver built it.
    pub graph: Option<Vec<[Option<Cell>; 4]>>,
    /// Edge changes of the latest placement or removal.
    pub recent_changes: Vec<EdgeChange>,
    /// Stateless: final states stored so far.
    pub finals: Vec<FinalState>,
    /// Stateless: intermediate states alive now.
    pub intermediates: Vec<IntermediateState>,
    /// Stateless: the stores at the end of the run.
    pub stores: Option<StatelessStores>,
    /// What an engine drew with its `draw` lines so far (empty for the built-in solvers).
    pub engine_layer: super::drawing::DrawLayer,
    /// The robot whose cells the heat map counts (`None`: every robot's).
    active: Option<usize>,
    /// Whether the previous event was an edge change, so a new update starts a new list.
    in_update: bool,
}

impl SearchPicture {
    /// The picture before the first event of a search on a board of `cells` cells, counting
    /// the `active` robot's cells in the heat map (every robot's when `None`).
    pub fn new(cells: usize, active: Option<usize>) -> SearchPicture {
        SearchPicture {
            heat: vec![0; cells],
            active,
            ..SearchPicture::default()
        }
    }

    /// Counts a node whose robots stand on `cells` in the heat map: the active robot's cell,
    /// or every robot's when no robot is active.
    pub fn count_node(&mut self, cells: &[Cell]) {
        match self.active {
            Some(active) => {
                if let Some(&cell) = cells.get(active) {
                    bump(&mut self.heat, cell);
                }
            }
            None => {
                for &cell in cells {
                    bump(&mut self.heat, cell);
                }
            }
        }
    }

    /// Ends one event: `was_edge_change` says whether it changed an edge, so that a change
    /// right after it belongs to the same update.
    pub fn end_event(&mut self, was_edge_change: bool) {
        self.in_update = was_edge_change;
    }

    /// Records one edge change of the slide graph: a change right after another belongs to
    /// the same update, any other starts a new list of recent changes.
    pub fn record_edge_change(&mut self, change: EdgeChange) {
        if !self.in_update {
            self.recent_changes.clear();
        }
        if let Some(edges) = &mut self.graph
            && let Some(slot) = edges.get_mut(usize::from(change.vertex))
        {
            slot[change.dir.index()] = change.new;
        }
        if self.recent_changes.len() < MAX_RECENT_CHANGES {
            self.recent_changes.push(change);
        }
    }
}

fn bump(heat: &mut [u32], cell: Cell) {
    if let Some(count) = heat.get_mut(usize::from(cell)) {
        *count = count.saturating_add(1);
    }
}
