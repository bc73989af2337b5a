//! The overlay layers, each behind one trait, in one list.
//!
//! Every place that deals with layers goes through [`LAYERS`]: the switches in the View menu
//! and the Overlays tab, the legend, and the assembly of the frame's drawing
//! ([`overlay_drawing`]). To add a layer, write a type that implements [`OverlayLayer`] in a
//! file of its own under `overlays/layers/`, declare that file with a `mod` line beside the
//! others here, and add one line to [`LAYERS`]; the compiler names every method the layer must
//! fill, and nothing else needs to change. What a layer reads comes from [`OverlaySources`],
//! so a layer that needs something new adds it there.
//!
//! The forgotten steps are named: the layers' types are private to this module, so a layer
//! left out of [`LAYERS`] is never constructed and the dead-code lint says so (an error under
//! `-D warnings`); a file under `layers/` without its `mod` line, or one that holds no layer of
//! the list, fails the test `every_layer_file_is_declared_and_listed`.

use super::assembly::OverlaySources;
use super::{OverlayDrawing, OverlaySettings};
use crate::app::theme::Palette;
use egui::Color32;

// One module per layer, each holding one layer of `LAYERS`; private, so that an unlisted
// layer is dead code.
mod analysis_heat;
mod engine_drawing;
mod exact_distances;
mod graph_edges;
mod heuristic;
mod min_moves;
mod search_heat;
mod solution_path;
mod stateless;

pub(super) use graph_edges::change_lines;
pub(in crate::app) use solution_path::path_trails;

use analysis_heat::AnalysisHeat;
use engine_drawing::EngineDrawing;
use exact_distances::ExactDistances;
use graph_edges::GraphEdges;
use heuristic::HeuristicMap;
use min_moves::MinMoves;
use search_heat::SearchHeat;
use solution_path::SolutionPath;
use stateless::Stateless;

/// One overlay layer: a pure function from what the frame shows to shapes in board terms,
/// with its switch and its legend.
pub(super) trait OverlayLayer: Sync {
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
pub(super) const LAYERS: &[&dyn OverlayLayer] = &[
    &MinMoves,
    &HeuristicMap,
    &SearchHeat,
    &GraphEdges,
    &Stateless,
    &SolutionPath,
    &ExactDistances,
    &EngineDrawing,
    &AnalysisHeat,
];

/// Assembles the layers that are on into one drawing: the one place layers are put together.
pub(in crate::app) fn overlay_drawing(sources: &OverlaySources<'_>) -> OverlayDrawing {
    let mut drawing = OverlayDrawing::default();
    for layer in LAYERS {
        if layer.is_on(sources.settings) {
            drawing.extend(layer.draw(sources));
        }
    }
    drawing
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::theme;

    #[test]
    fn every_layer_has_a_name_of_its_own() {
        let mut names: Vec<&str> = LAYERS.iter().map(|l| l.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), LAYERS.len());
    }

    #[test]
    fn a_layer_that_is_off_has_no_legend_line() {
        // The layers on by default, turned off.
        let settings = OverlaySettings {
            min_moves: false,
            solution_path: false,
            engine_drawing: false,
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

    #[test]
    fn every_layer_file_is_declared_and_listed() {
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/src/app/overlays/layers");
        let mut files: Vec<String> = std::fs::read_dir(folder)
            .expect("the layers' folder")
            .map(|entry| entry.expect("a folder entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "rs"))
            .filter_map(|path| Some(path.file_stem()?.to_str()?.to_string()))
            .collect();
        files.sort_unstable();
        let mut declared: Vec<String> = include_str!("layers.rs")
            .lines()
            .filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';'))
            .map(str::to_string)
            .collect();
        declared.sort_unstable();
        assert_eq!(
            files, declared,
            "every file under layers/ has its `mod` line"
        );
        assert_eq!(
            declared.len(),
            LAYERS.len(),
            "each layer file holds one layer of LAYERS"
        );
    }
}
