//! Overlay assembly: what the layers read this frame (the editor's slide graph, a debugged
//! run's picture, the stateless stores, the last solution, the distance map, the analysis),
//! and the layers that are on put together into one drawing for the board.

use super::{OverlayDrawing, OverlaySettings};
use crate::app::widgets::capitalised;
use crate::model::{Board, Cell, Puzzle, RobotColor};
use crate::solver::analysis::distances::DistanceMap;
use crate::solver::graph_tracker::GraphTracker;
use crate::solver::picture::SearchPicture;
use crate::solver::stateless::{IntermediateState, StatelessStores};
use std::fmt::Write as _;

impl crate::app::RicochetApp {
    /// Takes the slide graph's update from its worker, and starts the next one when the graph
    /// layer is on and the graph is not yet brought up to the board as it is now.
    pub(in crate::app) fn sync_graph(&mut self) {
        let current = self.doc.revision();
        self.derived.drain_graph();
        if !self.state.overlays.graph_edges {
            return;
        }
        let waker = self.waker();
        let draft = self.doc.draft();
        let board = &draft.board;
        let robots: Vec<Cell> = draft
            .robots
            .iter()
            .filter(|r| board.contains(r.pos))
            .map(|r| board.cell(r.pos))
            .collect();
        self.derived.follow_graph(current, board, &robots, waker);
    }
}

impl crate::app::RicochetApp {
    /// What an engine drew, with the engine's name: the debugged run's layer as it was at the
    /// event shown, or else the layer the run on this board drew as it goes (a copy, taken
    /// only while the layer is on). `None` when no engine drew anything.
    pub(in crate::app) fn engine_drawing(
        &self,
    ) -> Option<(
        String,
        std::borrow::Cow<'_, crate::solver::engine::DrawLayer>,
    )> {
        use crate::solver::SolverChoice;
        let revision = self.doc.revision();
        let session = self.derived.session(revision)?;
        let SolverChoice::Engine(spec) = session.run.solver() else {
            return None;
        };
        let name = spec.name.clone();
        let layer = match self.derived.debugger_for_overlays(revision) {
            Some(debugger) => debugger
                .shown_picture()
                .part::<crate::solver::engine::DrawLayer>()
                .map_or_else(Default::default, std::borrow::Cow::Borrowed),
            None => std::borrow::Cow::Owned(session.run.live().engine_layer().0),
        };
        (!layer.is_empty()).then_some((name, layer))
    }

    /// The engine's name and how many cells its drawing has, as the board shows it now
    /// (`None` when the layer is off or no engine drew): for tests and the window's checks.
    pub fn engine_drawing_shown(&self) -> Option<(String, usize)> {
        if !self.state.overlays.engine_drawing {
            return None;
        }
        self.engine_drawing()
            .map(|(name, layer)| (name, layer.cells.len()))
    }

    /// The Overlays tab's lines on the engine's drawing: whose it is and its legend, in the
    /// engine's words.
    pub(in crate::app) fn engine_drawing_ui(&self, ui: &mut egui::Ui) {
        if !self.state.overlays.engine_drawing {
            return;
        }
        let Some((name, layer)) = self.engine_drawing() else {
            return;
        };
        let palette = crate::app::theme::palette(ui.visuals().dark_mode);
        let legend = layer.legend.as_deref().unwrap_or("no legend sent");
        let line = format!(
            "{name}'s drawing: {legend} ({} cells, {} arrows, {} labels)",
            layer.cells.len(),
            layer.arrows.len(),
            layer.labels.len()
        );
        ui.add(egui::Label::new(egui::RichText::new(line).color(palette.muted)).wrap());
    }
}

/// What the overlays read in one frame.
pub(in crate::app) struct OverlaySources<'a> {
    /// Which layers are on.
    pub(in crate::app) settings: &'a OverlaySettings,
    /// The board shown.
    pub(in crate::app) board: &'a Board,
    /// The minimum-move table, when that layer is on.
    pub(in crate::app) min_moves: Option<&'a [u16]>,
    /// A debugged run's picture.
    pub(in crate::app) debugger: Option<DebuggedRun<'a>>,
    /// The editor's graph.
    pub(in crate::app) tracker: Option<&'a GraphTracker>,
    /// The cell whose edges to show when not all are shown.
    pub(in crate::app) focus: Option<Cell>,
    /// The puzzle and stores for the stateless layer outside a debugged stateless run.
    pub(in crate::app) stateless: Option<&'a StatelessStores>,
    /// The last result's puzzle and solution.
    pub(in crate::app) solution: Option<(&'a Puzzle, &'a [crate::model::Move])>,
    /// The exact distance map of the position shown, and the robot whose distances to show.
    pub(in crate::app) distances: Option<(&'a DistanceMap, RobotColor)>,
    /// The board analyser's heat map, empty while it is off or analysed another board.
    pub(in crate::app) analyzer_heat: OverlayDrawing,
    /// What an engine drew: of the debugged run at the event shown, or of the last run.
    pub(in crate::app) engine: Option<EngineLayerSource<'a>>,
}

/// An engine's drawing as the overlays read it.
pub(in crate::app) struct EngineLayerSource<'a> {
    /// The engine's registered name, which names its numbers and labels.
    pub(in crate::app) name: &'a str,
    /// The layer.
    pub(in crate::app) layer: &'a crate::solver::engine::DrawLayer,
}

/// A debugged run as the overlays see it: data read from the debugger, so that the overlays
/// stay below the debugger that draws them.
#[derive(Clone, Copy)]
pub(in crate::app) struct DebuggedRun<'a> {
    /// The picture at the event shown.
    pub(in crate::app) picture: &'a SearchPicture,
    /// Whether the run is a stateless one (its picture holds the stores' states).
    pub(in crate::app) stateless: bool,
}

/// Every stateless state of one cell, one line each, for the hovered cell's tooltip; `None`
/// when the cell has none.
pub(in crate::app) fn stateless_details(
    board: &Board,
    stores: &StatelessStores,
    cell: Cell,
) -> Option<String> {
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
