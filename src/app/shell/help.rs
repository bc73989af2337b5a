//! The Help window: every key the app answers to, and how the board is edited.

use crate::app::widgets;

/// The Help window.
pub(super) fn help_ui(ctx: &egui::Context, open: &mut bool) {
    widgets::window_position(egui::Window::new("Help"), ctx)
        .open(open)
        .default_width(460.0)
        .show(ctx, |ui| {
            ui.heading("Keys");
            egui::Grid::new("help-keys")
                .striped(true)
                .num_columns(2)
                .show(ui, |ui| {
                    for (keys, action) in crate::app::keys::help_rows() {
                        ui.monospace(keys);
                        ui.label(action);
                        ui.end_row();
                    }
                });
            ui.separator();
            ui.heading("Editing");
            ui.label(
                "Pick a tool in the editor panel. Walls: click a cell side to toggle its wall, \
                 drag along sides to draw several. Robots and Targets: click a cell to place \
                 the chosen colour. Move: drag robots and targets, click a target to make it \
                 active. A right click removes a robot, target or wall. Every edit can be \
                 undone.",
            );
            ui.heading("Solving");
            ui.label(
                "Choose a solver in the right panel and press Solve. Each finished depth \
                 appears as a row while the solver runs on its own thread; Cancel stops it. \
                 Every solution is replayed on the board before it is shown. Editing the board \
                 cancels a running solve.",
            );
        });
}
