//! The board analyser's heat map layer: each target's mean optimal length, switched in the
//! Analyse board window.

use crate::app::overlays::assembly::OverlaySources;
use crate::app::overlays::layers::OverlayLayer;
use crate::app::overlays::{OverlayDrawing, OverlaySettings};
use crate::app::theme::Palette;
use egui::Color32;

/// The board analyser's heat map: each target's mean optimal length. Switched in the Analyse
/// board window, beside the analysis it shows.
pub(super) struct AnalysisHeat;

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
