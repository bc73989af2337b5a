//! The Run tab's line of an engine's live figures: the latest `info` it sent (depth, nodes,
//! nodes per second, table fill, its current line), in one line of fixed height that is there
//! for every engine run, so nothing below moves when the first figures arrive.

use crate::app::theme;
use crate::solver::SolverChoice;
use crate::worker::SolveRun;

/// The engine's latest figures, or what stands in for them, as the line shows it.
pub(in crate::app) fn engine_figures_text(run: &SolveRun) -> Option<String> {
    if !matches!(run.solver(), SolverChoice::Engine(_)) {
        return None;
    }
    let text = match run.live().engine_info() {
        Some(info) if run.is_finished() => format!("Engine's last figures: {}", info.summary()),
        Some(info) => format!("Engine: {}", info.summary()),
        None => "Engine: no search figures (info lines) sent".to_string(),
    };
    Some(text)
}

/// The line, elided to the dock's width and shown whole on hover; nothing for a built-in
/// solver's run.
pub(in crate::app) fn engine_figures_ui(ui: &mut egui::Ui, run: &SolveRun) {
    let Some(text) = engine_figures_text(run) else {
        return;
    };
    let palette = theme::palette(ui.visuals().dark_mode);
    let color = if run.live().engine_info().is_some() {
        ui.visuals().text_color()
    } else {
        palette.muted
    };
    let width = ui.available_width();
    let height = ui.text_style_height(&egui::TextStyle::Body);
    // A fixed box: the figures change many times a second and must not move what is below.
    ui.allocate_ui_with_layout(
        egui::vec2(width, height),
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.set_min_size(egui::vec2(width, height));
            ui.add(egui::Label::new(egui::RichText::new(&text).color(color)).truncate())
                .on_hover_text(&text);
        },
    );
}
