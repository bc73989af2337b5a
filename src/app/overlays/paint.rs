//! The overlay's painter: turns the layers' drawing (in board terms) into shapes through the
//! board's transform, with texts on plates so they read over fills, arrows and walls.

use super::{Arrow, ArrowKind, HeatKind, OverlayDrawing};
use crate::app::board_view::BoardGeometry;
use crate::app::theme::{self, Palette};
use crate::model::Direction;
use egui::epaint::text::FontsView;
use egui::{Align2, FontId, Shape, Stroke, vec2};

/// The overlay's shapes: fills, arrows, then texts, through the board's transform.
pub fn overlay_shapes(
    fonts: &mut FontsView<'_>,
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
            theme::heat(fill.kind == HeatKind::Search, fill.level),
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
    let small = FontId::monospace((cell * 0.32).max(11.0));
    let large = FontId::proportional((cell * 0.42).max(11.0));
    let dark = palette.board.r() < 128;
    for text in &drawing.texts {
        let rect = geometry.cell_rect(text.pos);
        let color = text
            .color
            .map_or(palette.board_text, |c| theme::robot_text(c, dark));
        let font = if text.large {
            large.clone()
        } else {
            small.clone()
        };
        let inset = cell * 0.06;
        let (anchor, align) = match text.line {
            0 => (rect.left_top() + vec2(inset, inset), Align2::LEFT_TOP),
            1 => (rect.right_top() + vec2(-inset, inset), Align2::RIGHT_TOP),
            2 => (
                rect.left_bottom() + vec2(inset, -inset),
                Align2::LEFT_BOTTOM,
            ),
            3 => (
                rect.right_bottom() - vec2(inset, inset),
                Align2::RIGHT_BOTTOM,
            ),
            _ => (rect.center(), Align2::CENTER_CENTER),
        };
        // A plate in the board's colour behind the text keeps it readable over fills,
        // arrows and walls, in both themes.
        let galley = fonts.layout_no_wrap(text.text.clone(), font, color);
        let text_rect = align.anchor_size(anchor, galley.size());
        shapes.push(Shape::rect_filled(
            text_rect.expand(1.0),
            2.0,
            palette.board.gamma_multiply(0.85),
        ));
        shapes.push(Shape::galley(text_rect.min, galley, color));
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
