//! The Overlays tab: each layer's switch, the stateless layer's filters, the legends, the
//! slide graph's check and the edges the last edit changed.

use super::{OverlaySettings, StatelessKinds};
use crate::app::command::Command;
use crate::app::theme;
use crate::model::{Board, RobotColor};
use crate::solver::graph_tracker::GraphTracker;

/// The overlay layers' switches in the panel, the same as in the View menu, so layers can be
/// combined while stepping without opening the menu each time.
pub(in crate::app) fn overlay_toggles_ui(ui: &mut egui::Ui, settings: &mut OverlaySettings) {
    ui.label(egui::RichText::new("Overlay layers").strong());
    ui.horizontal_wrapped(|ui| {
        overlay_checkboxes(ui, settings);
    });
    if settings.stateless {
        stateless_filter_ui(ui, settings);
    }
}

/// The stateless layer's filters: one robot or all, final and intermediate states.
fn stateless_filter_ui(ui: &mut egui::Ui, settings: &mut OverlaySettings) {
    let name = |robot: Option<RobotColor>| match robot {
        Some(color) => crate::app::widgets::capitalised(color.name()),
        None => "All robots".to_string(),
    };
    ui.horizontal(|ui| {
        egui::ComboBox::from_label("States of robot")
            .selected_text(name(settings.stateless_robot))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut settings.stateless_robot, None, name(None));
                for color in RobotColor::ALL {
                    ui.selectable_value(
                        &mut settings.stateless_robot,
                        Some(color),
                        name(Some(color)),
                    );
                }
            });
    });
    let kinds: &mut StatelessKinds = &mut settings.stateless_kinds;
    ui.horizontal(|ui| {
        ui.checkbox(&mut kinds.finals, "Final states")
            .on_hover_text("Where a robot can stop, and after how many moves");
        ui.checkbox(&mut kinds.intermediates, "Intermediate states")
            .on_hover_text("Where a robot passes while moving, by direction");
    });
}

/// Every overlay layer's switch (the View menu has them too).
pub(in crate::app) fn overlay_checkboxes(ui: &mut egui::Ui, settings: &mut OverlaySettings) {
    for layer in super::layers::LAYERS {
        layer.switch_ui(ui, settings);
    }
}

/// The overlay legends, with the slide graph's check.
pub(in crate::app) fn overlays_ui(
    ui: &mut egui::Ui,
    settings: &mut OverlaySettings,
    tracker: Option<&GraphTracker>,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    let legend = super::legend(settings, palette);
    if legend.is_empty() {
        return;
    }
    ui.label(egui::RichText::new("Overlays").strong());
    for (color, text) in legend {
        // Wrapped, so that a long legend never widens the panel.
        ui.horizontal_wrapped(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 14.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, color);
            ui.add(egui::Label::new(egui::RichText::new(text)).wrap());
        });
    }
    if settings.graph_edges
        && let Some(tracker) = tracker
    {
        if ui
            .button("Check graph")
            .on_hover_text("Compare the incrementally updated graph with a fresh build")
            .clicked()
        {
            commands.push(Command::CheckGraph);
        }
        // The check's answer wraps on its own line below the button: beside it, a long
        // answer widened the dock and pushed Solve out of the window.
        let answer = match &tracker.check {
            Some(Ok(agree)) => Some((palette.success, agree.to_string())),
            Some(Err(error)) => Some((palette.error, error.to_string())),
            None => None,
        };
        if let Some((color, text)) = answer {
            ui.add(egui::Label::new(egui::RichText::new(text).color(color)).wrap());
        }
        let lines = tracker.changes().to_vec();
        if !lines.is_empty() {
            ui.label(
                egui::RichText::new(format!("Edges changed by the last edit: {}", lines.len()))
                    .small(),
            );
        }
    }
}

/// The least height of the changed-edge list: a dozen lines.
const CHANGE_LIST_HEIGHT: f32 = 240.0;

/// The changed-edge list of the editor's graph, one line per edge: placements and removals in
/// colours of their own, what each case of the update means above the list (and on hover),
/// in a box that takes the room the tab has and starts at its top after each edit.
pub(in crate::app) fn change_list_ui(ui: &mut egui::Ui, board: &Board, tracker: &GraphTracker) {
    use crate::solver::slide_graph::{GraphAction, UpdateCase};
    let mut changes = tracker.changes().to_vec();
    if changes.is_empty() {
        return;
    }
    // The order of `change_lines`, so that each line stands beside its change.
    changes.sort_by_key(|c| (c.robot, c.vertex, c.dir.index()));
    let palette = theme::palette(ui.visuals().dark_mode);
    let colour = |action: GraphAction| match action {
        GraphAction::Place => palette.success,
        GraphAction::Remove => palette.warning,
    };
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(colour(GraphAction::Place), "place: a robot was put there");
        ui.colored_label(
            colour(GraphAction::Remove),
            "remove: a robot was taken away",
        );
    });
    let mut cases: Vec<UpdateCase> = changes.iter().map(|c| c.case).collect();
    cases.sort();
    cases.dedup();
    for case in cases {
        ui.add(egui::Label::new(format!("case {}: {}", case.label(), case_meaning(case))).wrap());
    }
    let lines = super::layers::change_lines(board, &changes);
    // A new edit is a new list, read from its top. Below the legends the tab has little room
    // left at 1024x700, so the box takes at least a dozen lines whatever is above it (the tab
    // itself scrolls to show them).
    egui::ScrollArea::vertical()
        .id_salt(("graph-changes", &lines))
        .min_scrolled_height(CHANGE_LIST_HEIGHT)
        .max_height(ui.available_height().max(CHANGE_LIST_HEIGHT))
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for (line, change) in lines.iter().zip(&changes) {
                let text = egui::RichText::new(line)
                    .monospace()
                    .color(colour(change.action));
                ui.label(text).on_hover_text(format!(
                    "case {}: {}",
                    change.case.label(),
                    case_meaning(change.case)
                ));
            }
        });
}

/// What a case of the slide graph's update means, in words.
pub fn case_meaning(case: crate::solver::slide_graph::UpdateCase) -> &'static str {
    use crate::solver::slide_graph::UpdateCase;
    match case {
        UpdateCase::AdjacentRobot => {
            "the cell had no edge that way, so the robot stands right next to it"
        }
        UpdateCase::WalledChild => {
            "the edge's end could go no further, so it was the farthest cell reached"
        }
        UpdateCase::RobotBeyondChild => {
            "the edge's end could go further, so a robot stands just beyond it"
        }
    }
}
