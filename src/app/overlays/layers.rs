//! The overlay layers, each behind one trait, in one list.
//!
//! Every place that deals with layers goes through [`LAYERS`]: the switches in the View menu
//! and the Overlays tab, the legend, and the assembly of the frame's drawing
//! ([`overlay_drawing`]). To add a layer, write a type that implements
//! [`OverlayLayer`] (in a file of its own under `overlays/`) and add one line to [`LAYERS`];
//! the compiler names every method the layer must fill, and nothing else needs to change. What
//! a layer reads comes from [`OverlaySources`], so a layer that needs something new adds it
//! there.

use super::assembly::OverlaySources;
use super::{OverlayDrawing, OverlaySettings, StatelessFilter};
use crate::app::theme::{self, Palette};
use crate::model::{Cell, RobotColor};
use crate::solver::stateless::{IntermediateState, StatelessStores};
use egui::Color32;

/// One overlay layer: a pure function from what the frame shows to shapes in board terms,
/// with its switch and its legend.
pub trait OverlayLayer: Sync {
    /// The layer's name, as its switch shows it.
    fn name(&self) -> &'static str;

    /// Whether the layer is on.
    fn is_on(&self, settings: &OverlaySettings) -> bool;

    /// The layer's switch and options, in the View menu and the Overlays tab; a layer switched
    /// elsewhere (the analyser's heat map, in its window) shows nothing.
    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings);

    /// What the layer's colours mean, while it is on: a colour sample and a sentence each.
    fn legend(&self, palette: &Palette) -> Vec<(Color32, &'static str)>;

    /// What the layer draws this frame; called only while it is on. Empty when what it reads
    /// is not there (no debugged run, no analysis of this board).
    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing;
}

/// Every layer, in drawing order (the painter puts fills under arrows under texts whatever
/// the order).
pub const LAYERS: &[&dyn OverlayLayer] = &[
    &MinMoves,
    &SearchHeat,
    &GraphEdges,
    &Stateless,
    &SolutionPath,
    &ExactDistances,
    &AnalysisHeat,
];

/// Assembles the layers that are on into one drawing: the one place layers are put together.
pub fn overlay_drawing(sources: &OverlaySources<'_>) -> OverlayDrawing {
    let mut drawing = OverlayDrawing::default();
    for layer in LAYERS {
        if layer.is_on(sources.settings) {
            drawing.extend(layer.draw(sources));
        }
    }
    drawing
}

/// The minimum-move map: a heat tint here, the numbers drawn by the board itself.
pub struct MinMoves;

impl OverlayLayer for MinMoves {
    fn name(&self) -> &'static str {
        "Minimum-move map"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.min_moves
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.min_moves, self.name());
    }

    fn legend(&self, _palette: &Palette) -> Vec<(Color32, &'static str)> {
        vec![(
            theme::heat(false, 1.0),
            "Minimum moves: few moves to the target (hot) to many (cold); number = moves",
        )]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        sources
            .min_moves
            .map(|table| super::min_moves_layer(sources.board, table))
            .unwrap_or_default()
    }
}

/// How often a debugged search put the active robot on each cell.
pub struct SearchHeat;

impl OverlayLayer for SearchHeat {
    fn name(&self) -> &'static str {
        "Search heat map"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.search_heat
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.search_heat, self.name())
            .on_hover_text("Needs a debugged run: solve with Debug mode on");
    }

    fn legend(&self, _palette: &Palette) -> Vec<(Color32, &'static str)> {
        vec![(
            theme::heat(true, 1.0),
            "Search heat: how often the active robot stood here in the nodes examined",
        )]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        match sources.debugger {
            Some(debugger) => super::search_heat_layer(sources.board, &debugger.picture.heat),
            None => OverlayDrawing::default(),
        }
    }
}

/// The slide graph's edges: of the hovered cell or of every cell, with the last update's
/// changes.
pub struct GraphEdges;

impl OverlayLayer for GraphEdges {
    fn name(&self) -> &'static str {
        "Slide-graph edges"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.graph_edges
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.graph_edges, self.name());
        ui.add_enabled(
            settings.graph_edges,
            egui::Checkbox::new(&mut settings.graph_all_cells, "Edges of every cell"),
        );
    }

    fn legend(&self, palette: &Palette) -> Vec<(Color32, &'static str)> {
        let colors = theme::overlay(palette);
        vec![
            (
                colors.graph_edge,
                "Slide-graph edge: cell -> where a robot stops",
            ),
            (
                colors.graph_changed,
                "Edge changed by the last update (new child)",
            ),
            (colors.graph_removed, "Where that edge pointed before"),
        ]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        let focus = if sources.settings.graph_all_cells {
            None
        } else {
            // No cell hovered: only the changed edges.
            Some(sources.focus.unwrap_or(Cell::MAX))
        };
        let picture = sources.debugger.map(|d| d.picture);
        match (
            picture.and_then(|p| p.graph.as_ref().map(|g| (g, p))),
            sources.tracker,
        ) {
            (Some((edges, picture)), _) => {
                super::graph_layer(sources.board, edges, focus, &picture.recent_changes)
            }
            (None, Some(tracker)) => {
                super::graph_layer(sources.board, &tracker.edges(), focus, tracker.changes())
            }
            (None, None) => OverlayDrawing::default(),
        }
    }
}

/// The stateless solver's states per cell.
pub struct Stateless;

impl OverlayLayer for Stateless {
    fn name(&self) -> &'static str {
        "Stateless states"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.stateless
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.stateless, self.name());
    }

    fn legend(&self, palette: &Palette) -> Vec<(Color32, &'static str)> {
        vec![(
            palette.board_text,
            "Stateless states, in the robot's colour: a final state's moves (one robot: in the \
             centre; all: in the robot's corner); an intermediate state as direction and \
             moves, or +count. A number too wide for its corner is a dot in the robot's colour: \
             hover a cell for its states in full.",
        )]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        let board = sources.board;
        let filter = StatelessFilter::of(sources.settings);
        let stores_layer = |stores: &StatelessStores| {
            let intermediates: Vec<IntermediateState> = stores
                .fields()
                .iter()
                .flat_map(|f| f.intermediates.iter().cloned())
                .collect();
            super::stateless_layer(board, stores.finals(), &intermediates, filter)
        };
        // A debugged stateless run draws its states as of the shown event: the stores as they
        // grow while it runs, the complete stores once it has ended.
        let debugged = sources.debugger.filter(|d| d.stateless);
        match (debugged, sources.stateless) {
            (Some(debugger), _) => {
                let picture = debugger.picture;
                match &picture.stores {
                    Some(stores) => stores_layer(stores),
                    None => super::stateless_layer(
                        board,
                        &picture.finals,
                        &picture.intermediates,
                        filter,
                    ),
                }
            }
            (None, Some(stores)) => stores_layer(stores),
            (None, None) => OverlayDrawing::default(),
        }
    }
}

/// The last solution's moves as numbered arrows.
pub struct SolutionPath;

impl OverlayLayer for SolutionPath {
    fn name(&self) -> &'static str {
        "Solution path"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.solution_path
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.solution_path, self.name());
    }

    fn legend(&self, _palette: &Palette) -> Vec<(Color32, &'static str)> {
        vec![(
            theme::robot(RobotColor::Red),
            "Solution path: numbered moves in the robot's colour",
        )]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        match sources.solution {
            Some((puzzle, moves)) => OverlayDrawing {
                trails: super::path_trails(puzzle, moves),
                ..OverlayDrawing::default()
            },
            None => OverlayDrawing::default(),
        }
    }
}

/// The exact distance map of one robot from the position shown.
pub struct ExactDistances;

impl OverlayLayer for ExactDistances {
    fn name(&self) -> &'static str {
        "Exact distance map"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.exact_distances
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.exact_distances, self.name())
            .on_hover_text("Per cell, the fewest moves before the chosen robot stands there");
    }

    fn legend(&self, palette: &Palette) -> Vec<(Color32, &'static str)> {
        let colors = theme::overlay(palette);
        vec![
            (
                theme::heat(false, 1.0),
                "Exact distances: the fewest moves (any robot may move) before the chosen \
                 robot stands here; hot = few",
            ),
            (
                colors.needs_helpers,
                "Outlined: the robot needs helpers here (exact distance above the lower \
                 bound, shown small in the corner)",
            ),
        ]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        match sources.distances {
            Some((map, color)) => super::exact::exact_distance_layer(sources.board, map, color),
            None => OverlayDrawing::default(),
        }
    }
}

/// The board analyser's heat map: each target's mean optimal length. Switched in the Analyse
/// board window, beside the analysis it shows.
pub struct AnalysisHeat;

impl OverlayLayer for AnalysisHeat {
    fn name(&self) -> &'static str {
        "Analysis heat map"
    }

    fn is_on(&self, _settings: &OverlaySettings) -> bool {
        // Its switch is the analyser's own; the drawing is empty while that is off.
        true
    }

    fn switch_ui(&self, _ui: &mut egui::Ui, _settings: &mut OverlaySettings) {}

    fn legend(&self, _palette: &Palette) -> Vec<(Color32, &'static str)> {
        Vec::new()
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        sources.analyzer_heat.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layer_has_a_name_of_its_own() {
        let mut names: Vec<&str> = LAYERS.iter().map(|l| l.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), LAYERS.len());
    }

    #[test]
    fn a_layer_that_is_off_has_no_legend_line() {
        let settings = OverlaySettings {
            min_moves: false,
            solution_path: false,
            ..OverlaySettings::default()
        };
        assert!(super::super::legend(&settings, &theme::LIGHT).is_empty());
        let settings = OverlaySettings {
            stateless: true,
            ..settings
        };
        let legend = super::super::legend(&settings, &theme::LIGHT);
        assert_eq!(legend.len(), Stateless.legend(&theme::LIGHT).len());
    }
}
