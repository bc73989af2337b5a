//! The comparison by states in the Compare window: per number of moves, the positions both
//! runs reach and those only one reaches, and the difference drawn as two heat maps of the
//! board (where the active robot stands in the positions only that run examines).

use crate::app::theme;
use crate::app::widgets::format_count;
use crate::model::{Cell, Puzzle};
use crate::solver::trace::StateComparison;
use egui::RichText;

/// The side of each heat map, in points.
const HEAT_SIDE: f32 = 150.0;

/// The table of positions by moves and the two heat maps.
pub(super) fn states_ui(ui: &mut egui::Ui, states: &StateComparison, puzzle: &Puzzle) {
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.strong("Positions first examined at each number of moves");
    egui::ScrollArea::vertical()
        .id_salt("compare-states")
        .max_height(ui.text_style_height(&egui::TextStyle::Body) * 7.0)
        .show(ui, |ui| {
            egui::Grid::new("compare-states-rows")
                .num_columns(4)
                .striped(true)
                .show(ui, |ui| {
                    for title in ["Moves", "In both", "Only first", "Only second"] {
                        ui.label(RichText::new(title).strong());
                    }
                    ui.end_row();
                    for depth in &states.depths {
                        let moves = if depth.complete_in_both {
                            depth.moves.to_string()
                        } else {
                            format!("{} (partly)", depth.moves)
                        };
                        ui.label(moves).on_hover_text(if depth.complete_in_both {
                            "Both runs searched every position at this number of moves"
                        } else {
                            "At least one run stopped before it searched this many moves whole"
                        });
                        ui.label(format_count(depth.both));
                        for only in [depth.only_first, depth.only_second] {
                            let text = RichText::new(format_count(only));
                            ui.label(if only > 0 && depth.complete_in_both {
                                text.color(palette.error)
                            } else {
                                text
                            });
                        }
                        ui.end_row();
                    }
                });
        });
    ui.horizontal_top(|ui| {
        for (title, heat) in [
            ("Only in the first run", &states.heat_only_first),
            ("Only in the second run", &states.heat_only_second),
        ] {
            ui.vertical(|ui| {
                ui.label(RichText::new(title).small());
                heat_map_ui(ui, puzzle, heat, title);
            });
        }
    });
}

/// A board-shaped heat map: each cell tinted by how many positions have the active robot
/// there, its walls left out; the count on hover.
fn heat_map_ui(ui: &mut egui::Ui, puzzle: &Puzzle, heat: &[u64], label: &str) {
    let board = puzzle.board();
    let (width, height) = (board.width(), board.height());
    let side = HEAT_SIDE.min(ui.available_width());
    let cell = side / f32::from(width.max(height));
    let size = egui::vec2(cell * f32::from(width), cell * f32::from(height));
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    let highest = heat.iter().copied().max().unwrap_or(0);
    let painter = ui.painter_at(rect);
    let palette = theme::palette(ui.visuals().dark_mode);
    painter.rect_filled(rect, 2.0, palette.board);
    for (index, &count) in heat.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let pos = board.pos(index as Cell);
        let min = rect.min + egui::vec2(f32::from(pos.x) * cell, f32::from(pos.y) * cell);
        let level = count as f32 / highest.max(1) as f32;
        painter.rect_filled(
            egui::Rect::from_min_size(min, egui::Vec2::splat(cell)),
            0.0,
            theme::heat(true, level),
        );
    }
    let goal = board.pos(puzzle.goal_cell());
    let goal_rect = egui::Rect::from_min_size(
        rect.min + egui::vec2(f32::from(goal.x) * cell, f32::from(goal.y) * cell),
        egui::Vec2::splat(cell),
    );
    painter.rect_stroke(
        goal_rect,
        0.0,
        egui::Stroke::new(1.5, palette.error),
        egui::StrokeKind::Inside,
    );
    let total: u64 = heat.iter().sum();
    response.on_hover_text(format!(
        "{label}: {} positions, by where the active robot stands (the target outlined)",
        format_count(total)
    ));
}
