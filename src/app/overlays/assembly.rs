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

/// The Overlays tab's line on an engine's drawing: whose it is and its legend, in the
/// engine's words.
pub(in crate::app) fn engine_drawing_ui(
    ui: &mut egui::Ui,
    name: &str,
    layer: &crate::solver::engine::DrawLayer,
) {
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
    /// The chosen solver's heuristic on the board, when that layer is on and it has one.
    pub(in crate::app) heuristic: Option<HeuristicSource>,
    /// The robot the active target asks for, when one does (not the vortex's any robot).
    pub(in crate::app) goal_robot: Option<crate::model::RobotColor>,
}

/// A solver's heuristic as the overlays read it.
pub(in crate::app) struct HeuristicSource {
    /// The solver's title, which names the layer's numbers.
    pub(in crate::app) solver: &'static str,
    /// Its heuristic.
    pub(in crate::app) heuristic: crate::solver::heuristics::Heuristic,
    /// The heuristic's value on each cell for the target's robot.
    pub(in crate::app) table: Vec<u16>,
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
