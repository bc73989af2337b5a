//! The overlay's painter: turns the layers' drawing (in board terms) into shapes through the
//! board's transform. Fills and arrows go under the targets and walls; texts go over them, on
//! plates so they read over fills, arrows and symbols, laid out by [`super::cell_texts`].

use super::cell_texts::{TextMark, place_texts};
use super::{Arrow, ArrowKind, CellText, HeatKind, OverlayDrawing};
use crate::app::board_paint::geometry::BoardGeometry;
use crate::app::theme::{self, Palette};
use crate::model::{Board, Direction};
use egui::epaint::text::FontsView;
use egui::{Shape, Stroke};

/// The overlay's shapes under the targets and walls: fills, outlines and arrows.
pub(in crate::app) fn overlay_shapes(
    geometry: &BoardGeometry,
    drawing: &OverlayDrawing,
    palette: &Palette,
) -> Vec<Shape> {
    let cell = geometry.cell_size();
    let mut shapes = Vec::new();
    for fill in &drawing.fills {
        let rect = geometry.cell_rect(fill.pos).shrink(cell * 0.03);
        shapes.push(Shape::rect_filled(
            rect,
            cell * 0.08,
            match fill.kind {
                // Translucent, so the board's symbols and walls show through.
                HeatKind::Drawn(color) => color.gamma_multiply(0.55),
                kind => theme::heat(kind == HeatKind::Search, fill.level),
            },
        ));
    }
    let colors = theme::overlay(palette);
    for &pos in &drawing.outlines {
        let rect = geometry.cell_rect(pos).shrink(cell * 0.07);
        shapes.push(Shape::rect_stroke(
            rect,
            cell * 0.08,
            Stroke::new((cell * 0.05).max(1.5), colors.needs_helpers),
            egui::StrokeKind::Inside,
        ));
    }
    for arrow in &drawing.arrows {
        shapes.extend(arrow_shapes(geometry, arrow, colors));
    }
    shapes
}

/// The overlay's texts, over the targets and walls: each on a plate in the board's colour, or
/// as a dot where it does not fit.
pub(in crate::app) fn overlay_text_shapes(
    fonts: &mut FontsView<'_>,
    geometry: &BoardGeometry,
    board: &Board,
    texts: &[CellText],
    palette: &Palette,
) -> Vec<Shape> {
    let dark = palette.board.r() < 128;
    let color_of = |text: &CellText| {
        text.color
            .map_or(palette.board_text, |c| theme::robot_text(c, dark))
    };
    let mut shapes = Vec::new();
    for (index, mark) in place_texts(fonts, geometry, board, texts, &color_of) {
        let color = index.map_or(palette.board_text, |index| color_of(&texts[index]));
        match mark {
            TextMark::Text { pos, galley, plate } => {
                // A plate in the board's colour behind the text keeps it readable over fills,
                // arrows, symbols and walls, in both themes.
                shapes.push(Shape::rect_filled(
                    plate,
                    2.0,
                    palette.board.gamma_multiply(0.85),
                ));
                shapes.push(Shape::galley(pos, galley, color));
            }
            TextMark::Dot(center, radius) => {
                shapes.push(Shape::circle_filled(center, radius, color));
            }
        }
    }
    shapes
}

fn arrow_shapes(
    geometry: &BoardGeometry,
    arrow: &Arrow,
    palette: &theme::OverlayPalette,
) -> Vec<Shape> {
    let cell = geometry.cell_size();
    let (color, width) = match arrow.kind {
        ArrowKind::Edge => (palette.graph_edge, (cell * 0.025).max(0.8)),
        ArrowKind::Changed => (palette.graph_changed, (cell * 0.06).max(1.5)),
        ArrowKind::Removed => (palette.graph_removed, (cell * 0.04).max(1.0)),
        ArrowKind::Drawn(color) => (color, (cell * 0.04).max(1.0)),
    };
    // Each direction has its own lane across the line of travel.
    let lane = match arrow.dir {
        Direction::North => -0.12,
        Direction::South => 0.12,
        Direction::East => -0.12,
        Direction::West => 0.12,
    };
    let a = geometry.cell_center(arrow.from);
    let b = geometry.cell_center(arrow.to);
    let along = b - a;
    if along.length() < 1.0 {
        return Vec::new();
    }
    let direction = along.normalized();
    let across = direction.rot90() * cell * lane;
    let start = a + across + direction * cell * 0.15;
    let tip = b + across - direction * cell * 0.12;
    let head = tip - direction * cell * 0.18;
    let side = direction.rot90() * cell * 0.08;
    vec![
        Shape::line_segment([start, head], Stroke::new(width, color)),
        Shape::convex_polygon(vec![tip, head + side, head - side], color, Stroke::NONE),
    ]
}
