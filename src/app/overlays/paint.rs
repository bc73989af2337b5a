//! The overlay's painter: turns the layers' drawing (in board terms) into shapes through the
//! board's transform, with texts on plates so they read over fills, arrows and walls.

use super::{Arrow, ArrowKind, CellText, HeatKind, OverlayDrawing};
use crate::app::board_view::geometry::BoardGeometry;
use crate::app::theme::{self, Palette};
use crate::model::Direction;
use egui::epaint::text::FontsView;
use egui::{Align2, FontId, Shape, Stroke};

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
    let dark = palette.board.r() < 128;
    for text in &drawing.texts {
        let color = text
            .color
            .map_or(palette.board_text, |c| theme::robot_text(c, dark));
        // Only texts that fit their place in the cell at a readable size are drawn; a corner
        // number that does not fit becomes a dot in its colour, and the numbers are in the
        // board's hover details, so nothing spills into a neighbour or past the board's edge.
        match text_mark(fonts, geometry, text, color) {
            Some(TextMark::Text(pos, galley)) => {
                // A plate in the board's colour behind the text keeps it readable over fills,
                // arrows and walls, in both themes.
                shapes.push(Shape::rect_filled(
                    TextMark::plate(pos, &galley),
                    2.0,
                    palette.board.gamma_multiply(0.85),
                ));
                shapes.push(Shape::galley(pos, galley, color));
            }
            Some(TextMark::Dot(center, radius)) => {
                shapes.push(Shape::circle_filled(center, radius, color));
            }
            None => {}
        }
    }
    shapes
}

/// How a cell text is shown: laid out in its place, or, for a corner number too wide for its
/// corner, as a dot in its colour there (its number is in the cell's hover details).
pub enum TextMark {
    /// The text at this position.
    Text(egui::Pos2, std::sync::Arc<egui::Galley>),
    /// A dot with this centre and radius.
    Dot(egui::Pos2, f32),
}

impl TextMark {
    /// The plate drawn behind a text at `pos`.
    pub fn plate(pos: egui::Pos2, galley: &egui::Galley) -> egui::Rect {
        egui::Rect::from_min_size(pos, galley.size()).expand(1.0)
    }

    /// The rectangle the mark covers on the screen.
    pub fn rect(&self) -> egui::Rect {
        match self {
            TextMark::Text(pos, galley) => TextMark::plate(*pos, galley),
            TextMark::Dot(center, radius) => {
                egui::Rect::from_center_size(*center, egui::Vec2::splat(2.0 * radius))
            }
        }
    }
}

/// How a cell text is shown: [`fitted_text`] when it fits, a dot in its corner when it is a
/// corner text that does not, and nothing for a centre text that does not.
pub fn text_mark(
    fonts: &mut FontsView<'_>,
    geometry: &BoardGeometry,
    text: &CellText,
    color: egui::Color32,
) -> Option<TextMark> {
    if let Some((pos, galley)) = fitted_text(fonts, geometry, text, color) {
        return Some(TextMark::Text(pos, galley));
    }
    let (quarter, _) = place_of(geometry, text)?;
    // A dot stays inside its quarter, with a gap to the next quarter's dot, on the smallest
    // cells too.
    let cell = geometry.cell_size();
    let radius = (cell * 0.08).clamp(2.0, 4.0).min(cell * 0.18);
    Some(TextMark::Dot(quarter.center(), radius))
}

/// A corner text's quarter of its cell and the alignment in it; `None` for a centre text.
fn place_of(geometry: &BoardGeometry, text: &CellText) -> Option<(egui::Rect, Align2)> {
    let rect = geometry.cell_rect(text.pos);
    match text.line {
        0 => Some((
            egui::Rect::from_min_max(rect.left_top(), rect.center()),
            Align2::LEFT_TOP,
        )),
        1 => Some((
            egui::Rect::from_min_max(
                egui::pos2(rect.center().x, rect.top()),
                egui::pos2(rect.right(), rect.center().y),
            ),
            Align2::RIGHT_TOP,
        )),
        2 => Some((
            egui::Rect::from_min_max(
                egui::pos2(rect.left(), rect.center().y),
                egui::pos2(rect.center().x, rect.bottom()),
            ),
            Align2::LEFT_BOTTOM,
        )),
        3 => Some((
            egui::Rect::from_min_max(rect.center(), rect.right_bottom()),
            Align2::RIGHT_BOTTOM,
        )),
        _ => None,
    }
}

/// Where a cell text goes and how it is laid out, when it fits its place: a corner text in
/// its quarter of the cell, with a gap to the quarters beside it (in its cell and in the
/// neighbours'), a centre text in the whole cell. Sizes scale with the cell but never go below
/// [`theme::SMALLEST_TEXT`]; a text that does not fit at that size is not drawn.
pub fn fitted_text(
    fonts: &mut FontsView<'_>,
    geometry: &BoardGeometry,
    text: &CellText,
    color: egui::Color32,
) -> Option<(egui::Pos2, std::sync::Arc<egui::Galley>)> {
    let cell = geometry.cell_size();
    // The gap on each side of a place: two of them between the texts of neighbouring cells
    // or quarters, so numbers side by side always read as separate numbers. Above and below,
    // a number cannot run into another, so the gap only keeps the plates apart.
    let inset_x = (cell * 0.08).max(2.0);
    let inset_y = 1.0;
    let (place, align) =
        place_of(geometry, text).unwrap_or((geometry.cell_rect(text.pos), Align2::CENTER_CENTER));
    let place = egui::Rect::from_min_max(
        place.min + egui::vec2(inset_x, inset_y),
        place.max - egui::vec2(inset_x, inset_y),
    );
    let size = if text.large {
        (cell * 0.42).max(theme::SMALLEST_TEXT)
    } else {
        (cell * 0.30).max(theme::SMALLEST_TEXT)
    };
    let font = if text.large {
        FontId::proportional(size)
    } else {
        FontId::monospace(size)
    };
    let galley = fonts.layout_no_wrap(text.text.clone(), font, color);
    // The place is inset by the plate's margin, so a text that fits keeps its plate in the cell.
    let fits = galley.size().x <= place.width() && galley.size().y <= place.height();
    fits.then(|| {
        (
            align.align_size_within_rect(galley.size(), place).min,
            galley,
        )
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Pos;
    use proptest::prelude::*;

    /// Whether `inner` lies inside `outer`, to a tenth of a pixel.
    fn within(inner: egui::Rect, outer: egui::Rect) -> bool {
        outer.expand(0.1).contains_rect(inner)
    }

    proptest! {
        // Problem: heat-map and stateless numbers were clipped at the board's edges and
        // neighbouring corner numbers ran together ("1 13" read "113"). Whatever the cell size
        // and the number's width, a mark stays inside its cell, and marks side by side keep a
        // visible gap between them.
        #[test]
        fn every_mark_stays_in_its_cell_and_apart_from_its_neighbours(
            width in 2u16..=32,
            height in 2u16..=32,
            cell in 8.0f32..90.0,
            corners in any::<bool>(),
            large in any::<bool>(),
            numbers in proptest::collection::vec((0u16..32, 0u16..32, 0u8..4, 0u64..10_000_000, 1u32..=7), 1..40),
        ) {
            let ctx = egui::Context::default();
            let _ = ctx.run_ui(Default::default(), |_| {});
            let geometry = BoardGeometry::fit(
                egui::Rect::from_min_size(
                    egui::pos2(5.0, 5.0),
                    egui::vec2(cell * f32::from(width), cell * f32::from(height)),
                ),
                width,
                height,
            );
            // One text per place: corner numbers, or one centre number per cell.
            let mut texts: Vec<CellText> = Vec::new();
            for (x, y, corner, number, digits) in numbers {
                let pos = Pos { x: x % width, y: y % height };
                let line = if corners { corner } else { 4 };
                if texts.iter().any(|t| t.pos == pos && t.line == line) {
                    continue;
                }
                // Short numbers as often as long ones: most short ones fit, most long ones do not.
                let text = (number % 10u64.pow(digits)).to_string();
                texts.push(CellText { pos, line, text, color: None, large });
            }
            let marks: Vec<(&CellText, egui::Rect)> = ctx.fonts_mut(|fonts| {
                texts
                    .iter()
                    .filter_map(|text| {
                        text_mark(fonts, &geometry, text, egui::Color32::WHITE)
                            .map(|mark| (text, mark.rect()))
                    })
                    .collect()
            });
            for &(text, rect) in &marks {
                prop_assert!(
                    within(rect, geometry.cell_rect(text.pos)),
                    "{:?} at {:?} line {} leaves its cell {:?}: {:?}",
                    text.text, text.pos, text.line, geometry.cell_rect(text.pos), rect
                );
            }
            for (i, &(a_text, a)) in marks.iter().enumerate() {
                for &(b_text, b) in &marks[i + 1..] {
                    let side_by_side = a.top() < b.bottom() && b.top() < a.bottom();
                    if !side_by_side {
                        continue;
                    }
                    let gap = (b.left() - a.right()).max(a.left() - b.right());
                    prop_assert!(
                        gap >= 0.5,
                        "{:?} at {:?} and {:?} at {:?} are {gap} px apart",
                        a_text.text, a_text.pos, b_text.text, b_text.pos
                    );
                }
            }
        }
    }
}
