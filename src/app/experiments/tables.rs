//! The thesis' Tables 1 and 2, whose cells select their configurations.

use super::*;
use crate::study::format::format_ms;

pub(super) fn cell_button(ui: &mut egui::Ui, text: String, selected: bool) -> bool {
    ui.selectable_label(selected, text).clicked()
}

pub(super) fn tables_ui(ui: &mut egui::Ui, view: &mut ExperimentsView) {
    let summary = &view.summary;
    if summary.distribution.is_empty() {
        ui.label("No results yet: start an experiment.");
        return;
    }
    let mut clicked: Option<Selection> = None;
    let selected = view.selection.clone();
    let is_selected = |solver: Option<&str>, moves: Option<u32>| {
        selected
            .as_ref()
            .is_some_and(|s| s.solver.as_deref() == solver && s.moves == moves)
    };
    // Columns in registry order, as the plots' legends are.
    let mut solvers: Vec<&crate::study::experiment::stats::SolverSummary> =
        summary.solvers.iter().collect();
    solvers.sort_by_key(|s| {
        SOLVERS
            .iter()
            .position(|k| k.name == s.solver)
            .unwrap_or(SOLVERS.len())
    });
    let titles: Vec<&str> = solvers
        .iter()
        .map(|s| solver::kind(&s.solver).map_or(s.solver.as_str(), |k| k.title))
        .collect();
    let total: u64 = summary.distribution.values().sum();
    let tables: [(&str, &str, CellText); 3] = [
        (
            "Table 1: mean time over every run, per required move count",
            "table-all",
            |b| format_ms(b.mean_all_ms),
        ),
        (
            "Table 2: mean time over the optimal runs only",
            "table-optimal",
            |b| b.mean_optimal_ms.map_or("-".into(), format_ms),
        ),
        (
            "Hit rate (share of optimal answers) per required move count",
            "table-hit-rate",
            |b| format!("{:.1}%", 100.0 * b.hit_rate()),
        ),
    ];
    for (title, id, cell) in tables {
        ui.strong(title);
        egui::Grid::new(id).striped(true).show(ui, |ui| {
            ui.label("Moves");
            ui.label("Configs");
            for t in &titles {
                ui.label(*t);
            }
            ui.end_row();
            for (moves, count) in &summary.distribution {
                if cell_button(ui, moves.to_string(), is_selected(None, Some(*moves))) {
                    clicked = Some(Selection {
                        solver: None,
                        moves: Some(*moves),
                    });
                }
                ui.label(format!(
                    "{count} ({:.1}%)",
                    100.0 * *count as f64 / total.max(1) as f64
                ));
                for s in &solvers {
                    match s.by_moves.get(moves) {
                        Some(bucket) => {
                            if cell_button(
                                ui,
                                cell(bucket),
                                is_selected(Some(&s.solver), Some(*moves)),
                            ) {
                                clicked = Some(Selection {
                                    solver: Some(s.solver.clone()),
                                    moves: Some(*moves),
                                });
                            }
                        }
                        None => {
                            ui.label("-");
                        }
                    }
                }
                ui.end_row();
            }
            if id == "table-hit-rate" {
                ui.strong("Total");
                ui.label(total.to_string());
                for s in &solvers {
                    if cell_button(
                        ui,
                        format!("{:.1}%", 100.0 * s.hit_rate()),
                        is_selected(Some(&s.solver), None),
                    ) {
                        clicked = Some(Selection {
                            solver: Some(s.solver.clone()),
                            moves: None,
                        });
                    }
                }
                ui.end_row();
            }
        });
        ui.add_space(8.0);
    }
    if summary.unknown_configs > 0 {
        ui.label(format!(
            "{} configurations have no required move count: the baseline did not finish them.",
            summary.unknown_configs
        ));
    }
    ui.strong("Runs by status");
    egui::Grid::new("table-statuses")
        .striped(true)
        .show(ui, |ui| {
            ui.label("Solver");
            ui.label("Statuses");
            ui.end_row();
            for (s, title) in solvers.iter().zip(&titles) {
                ui.label(*title);
                let text: Vec<String> = s
                    .statuses
                    .iter()
                    .map(|(status, n)| format!("{} {n}", status.name()))
                    .collect();
                ui.label(text.join(", "));
                ui.end_row();
            }
        });
    if clicked.is_some() {
        view.selection = clicked;
    }
}

/// How a table writes one bucket.
type CellText = fn(&crate::study::experiment::stats::Bucket) -> String;
