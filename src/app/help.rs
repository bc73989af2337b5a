//! The Help window: every key the app answers to, and how the board is edited.

/// Every keyboard shortcut as (keys, what they do), in the order the Help window lists them.
pub const KEYS: &[(&str, &str)] = &[
    ("Ctrl+Z", "Undo the last edit"),
    ("Ctrl+Shift+Z, Ctrl+Y", "Redo"),
    ("Ctrl+N", "New board"),
    ("Ctrl+O", "Open a board"),
    ("Ctrl+S", "Save"),
    ("Ctrl+Shift+S", "Save as"),
    ("E", "Editor mode"),
    ("P", "Play mode"),
    (
        "R, G, B, Y, K",
        "Play mode: select the red, green, blue, yellow or silver robot",
    ),
    ("Arrow keys", "Play mode: slide the selected robot"),
    ("U", "Play mode: undo the last move"),
    (
        "N",
        "Play mode: deal a new game (new robots and target) on this board",
    ),
    ("S", "Solve (in play mode, from the current position)"),
    ("Esc", "Cancel the running solve"),
    ("Space", "Play or pause the solution"),
    (", and .", "Solution: one move back or forward"),
    ("Home, End", "Solution: first or final position"),
    ("F11, Shift+F11", "Debugger: step one event forward or back"),
    (
        "F10",
        "Debugger: step over (to the next node at this depth or shallower)",
    ),
    ("F9", "Debugger: step to the end of this depth"),
    ("F5", "Debugger: continue to a breakpoint, or pause"),
    ("F7, F8", "Debugger: animated play; run to the solution"),
    ("Ctrl+E", "The Experiments window"),
    ("F1", "This help"),
];

/// The Help window.
pub fn help_ui(ctx: &egui::Context, open: &mut bool) {
    super::widgets::window_position(egui::Window::new("Help"), ctx)
        .open(open)
        .default_width(460.0)
        .show(ctx, |ui| {
            ui.heading("Keys");
            egui::Grid::new("help-keys")
                .striped(true)
                .num_columns(2)
                .show(ui, |ui| {
                    for (keys, action) in KEYS {
                        ui.monospace(*keys);
                        ui.label(*action);
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
