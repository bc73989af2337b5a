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
    // The solver columns are split into groups that fit the panel, each group a table of its
    // own with the move counts repeated, so no column is ever shown cut at the panel's edge.
    let groups = column_groups(ui, &titles, &solvers, &tables, total);
    for (title, id, cell) in tables {
        for (group_index, group) in groups.iter().enumerate() {
            if group_index == 0 {
                ui.strong(title);
            } else {
                ui.strong(format!("{title} (continued)"));
            }
            egui::Grid::new((id, group_index))
                .striped(true)
                .show(ui, |ui| {
                    ui.label("Moves");
                    ui.label("Configs");
                    for &column in group {
                        ui.label(titles[column]);
                    }
                    ui.end_row();
                    for (moves, count) in &summary.distribution {
                        if cell_button(ui, moves.to_string(), is_selected(None, Some(*moves))) {
                            clicked = Some(Selection {
                                solver: None,
                                moves: Some(*moves),
                            });
                        }
                        ui.label(configs_text(*count, total));
                        for &column in group {
                            let s = solvers[column];
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
                        for &column in group {
                            let s = solvers[column];
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

/// The Configs column's text: the count and its share of all configurations.
fn configs_text(count: u64, total: u64) -> String {
    format!(
        "{count} ({:.1}%)",
        100.0 * count as f64 / total.max(1) as f64
    )
}

/// The solver columns (indices into `solvers`) in groups whose tables fit the width available,
/// in order; each group holds at least one column.
fn column_groups(
    ui: &egui::Ui,
    titles: &[&str],
    solvers: &[&crate::study::experiment::stats::SolverSummary],
    tables: &[(&str, &str, CellText); 3],
    total: u64,
) -> Vec<Vec<usize>> {
    let style = ui.style();
    let font = egui::TextStyle::Body.resolve(style);
    let width_of = |text: &str| {
        ui.fonts_mut(|fonts| {
            fonts
                .layout_no_wrap(text.to_string(), font.clone(), egui::Color32::WHITE)
                .size()
                .x
        })
    };
    // A cell is a button: its text, the button's padding, and the grid's spacing.
    let padding = 2.0 * style.spacing.button_padding.x + style.spacing.item_spacing.x;
    let configs = width_of(&configs_text(total, total)).max(width_of("Configs"));
    let moves = width_of("Moves").max(width_of("Total"));
    let fixed = moves + configs + 2.0 * padding;
    let column_width = |column: usize| {
        let solver = solvers[column];
        let mut widest = width_of(titles[column]).max(width_of("100.0%"));
        for (_, _, cell) in tables {
            for bucket in solver.by_moves.values() {
                widest = widest.max(width_of(&cell(bucket)));
            }
        }
        widest + padding
    };
    let available = ui.available_width();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut used = f32::INFINITY;
    for column in 0..solvers.len() {
        let width = column_width(column);
        match groups.last_mut() {
            Some(group) if used + width <= available => {
                group.push(column);
                used += width;
            }
            _ => {
                groups.push(vec![column]);
                used = fixed + width;
            }
        }
    }
    groups
}
