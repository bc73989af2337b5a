//! Column and row numbers around the board: outside its top and left edges, at the body
//! text's size, so that robots never cover them and the last one is never cut off.

use crate::app::board_paint::BoardGeometry;
use crate::model::{Board, Pos};
use egui::epaint::text::FontsView;
use egui::{Align2, FontId, Rect, Shape, vec2};

/// The room coordinates need outside the board's top and left edges, at a text size.
fn coordinate_margin(text_size: f32) -> f32 {
    // Two digits and a gap on the left; one line and a gap on top.
    text_size * 1.6 + 4.0
}

/// Where the board may go in `available`: a small border, and room for the coordinates
/// outside its top and left edges when they are shown.
pub(in crate::app) fn board_area(ui: &egui::Ui, available: Rect, coordinates: bool) -> Rect {
    let mut area = available.shrink(6.0);
    if coordinates {
        let margin = coordinate_margin(body_size(ui));
        area.min += vec2(margin, margin);
    }
    area
}

/// The body text's size.
pub(super) fn body_size(ui: &egui::Ui) -> f32 {
    ui.style()
        .text_styles
        .get(&egui::TextStyle::Body)
        .map_or(14.0, |font| font.size)
}

/// Column and row numbers outside the top and left edges, at the body text's size; on a
/// board too fine for every number, every second (or third...) one.
pub(super) fn coordinate_shapes(
    fonts: &mut FontsView<'_>,
    geometry: &BoardGeometry,
    board: &Board,
    color: egui::Color32,
    text_size: f32,
) -> Vec<Shape> {
    let cell = geometry.cell_size();
    let font = FontId::proportional(text_size);
    let every = ((text_size * 1.4) / cell).ceil().max(1.0) as u16;
    let board_rect = geometry.screen_rect();
    let mut shapes = Vec::new();
    for x in (0..board.width()).filter(|x| x % every == 0) {
        let rect = geometry.cell_rect(Pos::new(x, 0));
        shapes.push(Shape::text(
            fonts,
            egui::pos2(rect.center().x, board_rect.top() - 3.0),
            Align2::CENTER_BOTTOM,
            x,
            font.clone(),
            color,
        ));
    }
    for y in (0..board.height()).filter(|y| y % every == 0) {
        let rect = geometry.cell_rect(Pos::new(0, y));
        shapes.push(Shape::text(
            fonts,
            egui::pos2(board_rect.left() - 4.0, rect.center().y),
            Align2::RIGHT_CENTER,
            y,
            font.clone(),
            color,
        ));
    }
    shapes
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    #[test]
    fn coordinates_sit_outside_the_board_at_the_text_size() {
        let ctx = egui::Context::default();
        let board = Board::new(16, 16).unwrap();
        let geometry = BoardGeometry::fit(
            Rect::from_min_size(pos2(40.0, 40.0), vec2(640.0, 640.0)),
            16,
            16,
        );
        let mut shapes = Vec::new();
        let _ = ctx.run_ui(Default::default(), |ui| {
            shapes = ui.fonts_mut(|fonts| {
                coordinate_shapes(fonts, &geometry, &board, egui::Color32::WHITE, 14.0)
            });
        });
        assert_eq!(shapes.len(), 32, "every column and row is numbered");
        let inside = geometry.screen_rect();
        for shape in &shapes {
            let rect = shape.visual_bounding_rect();
            assert!(
                !rect.intersects(inside.shrink(0.5)),
                "{rect:?} is on the board"
            );
            // A digit's glyph is about seven tenths of its font's size.
            assert!(
                rect.height() >= 14.0 * 0.6,
                "{rect:?} is smaller than the text size"
            );
        }
    }
}
