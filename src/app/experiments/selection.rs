//! The configurations behind a selected point or table cell, each of which opens on the
//! board.

use super::*;
use crate::app::capital;
use crate::study::format::format_ms;

pub(super) fn selection_ui(
    ui: &mut egui::Ui,
    view: &mut ExperimentsView,
    commands: &mut Vec<Command>,
) {
    ui.strong("Configurations");
    let Some(selection) = view.selection.clone() else {
        ui.label("Click a point, a bar or a table cell to list its configurations.");
        return;
    };
    ui.label(selection.describe());
    let rows = series::selected_records(&view.records, &selection);
    ui.label(format!(
        "{} run{}{}",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" },
        if rows.len() > LISTED_LIMIT {
            format!(", the first {LISTED_LIMIT} listed")
        } else {
            String::new()
        }
    ));
    if ui.button("Clear selection").clicked() {
        view.selection = None;
        return;
    }
    let mut open: Option<Record> = None;
    egui::ScrollArea::vertical()
        .id_salt("experiment-selection")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for record in rows.iter().take(LISTED_LIMIT) {
                let title =
                    solver::kind(&record.solver).map_or(record.solver.as_str(), |k| k.title);
                let required = record
                    .required_moves
                    .map_or("?".to_string(), |m| m.to_string());
                let found = record
                    .found_moves
                    .map_or("-".to_string(), |m| m.to_string());
                let text = format!(
                    "#{} {title}: {found} moves ({required} required), {}, {}",
                    record.config,
                    record.status.name(),
                    format_ms(record.millis)
                );
                if ui
                    .button(text)
                    .on_hover_text("Open this configuration on the board")
                    .clicked()
                {
                    open = Some((*record).clone());
                }
            }
        });
    if let Some(record) = open {
        match view.puzzle_of(&record) {
            Ok(puzzle) => commands.push(Command::Guarded(Pending::Replace(
                Box::new(Draft::from_puzzle(&puzzle)),
                format!("experiment configuration {}", record.config),
            ))),
            Err(error) => view.error(capital(&error.to_string())),
        }
    }
}
