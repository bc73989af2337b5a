//! Slides drawn on the board: the moves of a game, a solution or a debugged node, each a line
//! with an arrow head and, when numbered, a disc that keeps clear of the others.

use super::geometry::BoardGeometry;
use crate::app::board_paint::trail::Trail;
use crate::app::theme::{self, Palette};
use egui::epaint::text::FontsView;
use egui::{Align2, Color32, FontId, Pos2, Shape, Stroke};

/// Slides as lines from cell centre to cell centre with an arrowhead, in the robot's colour,
/// and their numbers when given. Every line is drawn before any number, so no later line
/// covers a move's number, and each number's disc is placed along its slide where it does not
/// overlap a disc already placed.
pub fn trail_shapes(
    fonts: &mut FontsView<'_>,
    geometry: &BoardGeometry,
    trails: &[Trail],
    palette: &Palette,
) -> Vec<Shape> {
    let cell = geometry.cell_size();
    let dark = palette.board.r() < 128;
    let halo = theme::halo(dark);
    // Faded moves stay clearly visible on the light board, where fading reads as missing.
    let faintest = if dark { 0.35 } else { 0.6 };
    let mut shapes = Vec::new();
    let mut discs: Vec<(Pos2, Color32, usize)> = Vec::new();
    // A move's number sits on a disc wide enough for two digits at the board's smallest
    // number size, so a long solution's numbers read on small cells too.
    let font_size = (cell * 0.26).max(theme::SMALLEST_BOARD_NUMBER);
    let disc = (cell * 0.17).max(font_size * 0.62);
    let radius = disc + (cell * 0.03).max(1.5);
    for (index, trail) in trails.iter().enumerate() {
        let color = theme::robot_text(trail.color, dark)
            .gamma_multiply(faintest + (1.0 - faintest) * trail.emphasis);
        // Moves along the same line (there and back) are drawn side by side, not on top of
        // each other: each is shifted a little across its direction, by its place in the list.
        let along = geometry.cell_center(trail.to) - geometry.cell_center(trail.from);
        let across = along.normalized().rot90() * cell * ((index % 3) as f32 - 1.0) * 0.1;
        let a = geometry.cell_center(trail.from) + across;
        let b = geometry.cell_center(trail.to) + across;
        let width = cell * (0.06 + 0.06 * trail.emphasis);
        // An outline under the line keeps the path visible on any cell, fill or theme.
        shapes.push(Shape::line_segment(
            [a, b],
            Stroke::new(width + cell * 0.05, halo),
        ));
        shapes.push(Shape::line_segment([a, b], Stroke::new(width, color)));
        let direction = (b - a).normalized();
        if direction.length() > 0.0 {
            let head = b - direction * cell * 0.3;
            let side = direction.rot90() * cell * 0.14;
            let tip = b - direction * cell * 0.08;
            shapes.push(Shape::convex_polygon(
                vec![tip, head + side, head - side],
                color,
                Stroke::NONE,
            ));
        }
        if let Some(number) = trail.number {
            let beside = (b - a).normalized().rot90() * cell * 0.22;
            let placed: Vec<Pos2> = discs.iter().map(|(p, _, _)| *p).collect();
            // Discs stay whole on the board: a slide along the edge column would put half
            // of its disc outside.
            let inside = geometry.screen_rect().shrink(radius);
            let mid = disc_place(a + beside, b + beside, radius, &placed, inside);
            discs.push((mid, color, number));
        }
    }
    let font = FontId::proportional(font_size);
    for (mid, color, number) in discs {
        shapes.push(Shape::circle_filled(mid, radius, halo));
        shapes.push(Shape::circle_filled(mid, disc, color));
        shapes.push(Shape::text(
            fonts,
            mid,
            Align2::CENTER_CENTER,
            number.to_string(),
            font.clone(),
            if dark { Color32::BLACK } else { Color32::WHITE },
        ));
    }
    shapes
}

/// Where along the segment from `a` to `b` a disc of `radius` goes: the middle, or the first
/// of the points farther along or back that keeps clear of the discs already `placed`; when
/// the segment has no such point (a long path back and forth over the same cells), the first
/// clear point beside it, a disc's width farther out each time; and when even those are taken,
/// the point of all of them farthest from its nearest disc. Every point is first brought
/// within `inside` (where a disc's centre keeps the disc whole on the board).
pub fn disc_place(a: Pos2, b: Pos2, radius: f32, placed: &[Pos2], inside: egui::Rect) -> Pos2 {
    let nearest = |p: Pos2| {
        placed
            .iter()
            .map(|q| (p - *q).length())
            .fold(f32::INFINITY, f32::min)
    };
    let clear = |p: Pos2| nearest(p) >= radius * 2.05;
    let within = |p: Pos2| {
        if inside.is_positive() {
            inside.clamp(p)
        } else {
            inside.center()
        }
    };
    // Along the segment: the middle first, then outwards in both directions.
    let along: Vec<f32> = std::iter::once(0.5)
        .chain((1..=8).flat_map(|i| {
            let step = i as f32 * 0.05;
            [0.5 - step, 0.5 + step]
        }))
        .collect();
    let direction = (b - a).normalized();
    let across = if direction.length() > 0.0 {
        direction.rot90()
    } else {
        egui::vec2(0.0, 1.0)
    };
    // Rings farther out than a short path needs: a long one back and forth over few cells
    // (a 25-move search path) needs them all before its discs stop overlapping.
    let mut candidates = Vec::new();
    for ring in 0..=8 {
        let offsets: &[f32] = if ring == 0 { &[0.0] } else { &[1.0, -1.0] };
        for &sign in offsets {
            let shift = across * sign * ring as f32 * radius * 2.1;
            candidates.extend(along.iter().map(|&t| within(a + (b - a) * t + shift)));
        }
    }
    if let Some(&point) = candidates.iter().find(|&&p| clear(p)) {
        return point;
    }
    candidates
        .into_iter()
        .max_by(|p, q| nearest(*p).total_cmp(&nearest(*q)))
        .unwrap_or(within(a + (b - a) * 0.5))
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::{Rect, pos2};

    /// Room enough that no test point is moved.
    fn everywhere() -> Rect {
        Rect::from_min_max(pos2(-1000.0, -1000.0), pos2(1000.0, 1000.0))
    }

    #[test]
    fn move_discs_keep_clear_of_each_other() {
        let radius = 8.0;
        let first = disc_place(pos2(0.0, 0.0), pos2(100.0, 0.0), radius, &[], everywhere());
        assert_eq!(first, pos2(50.0, 0.0));
        // A second slide along the same line puts its disc elsewhere.
        let second = disc_place(
            pos2(0.0, 0.0),
            pos2(100.0, 0.0),
            radius,
            &[first],
            everywhere(),
        );
        assert!((second - first).length() >= radius * 2.0, "{second:?}");
    }

    #[test]
    fn a_long_path_over_the_same_cells_keeps_its_discs_apart() {
        // A 25-move search path going back and forth along one short column, as a debugged
        // iterative-deepening node does: every number keeps a disc of its own.
        let radius = 8.0;
        let mut placed: Vec<Pos2> = Vec::new();
        for step in 0..25 {
            let (a, b) = if step % 2 == 0 {
                (pos2(0.0, 0.0), pos2(0.0, 120.0))
            } else {
                (pos2(0.0, 120.0), pos2(0.0, 0.0))
            };
            let disc = disc_place(a, b, radius, &placed, everywhere());
            for other in &placed {
                assert!(
                    (disc - *other).length() >= radius * 2.0,
                    "disc {step} at {disc:?} overlaps one at {other:?}"
                );
            }
            placed.push(disc);
        }
    }

    // Problem: on a long solution one disc sat half outside the board at column 0. Discs of
    // slides along the board's west edge stay whole on it, and apart.
    #[test]
    fn discs_along_the_edge_stay_on_the_board() {
        let radius = 8.0;
        let board = Rect::from_min_max(pos2(0.0, 0.0), pos2(320.0, 320.0));
        let inside = board.shrink(radius);
        let mut placed: Vec<Pos2> = Vec::new();
        for step in 0..12 {
            // Up and down the first column, its centre 10 points from the edge, the disc
            // set beside it to the west.
            let (a, b) = if step % 2 == 0 {
                (pos2(-3.0, 10.0), pos2(-3.0, 310.0))
            } else {
                (pos2(-3.0, 310.0), pos2(-3.0, 10.0))
            };
            let disc = disc_place(a, b, radius, &placed, inside);
            assert!(
                inside.expand(0.01).contains(disc),
                "{disc:?} leaves the board"
            );
            for other in &placed {
                assert!(
                    (disc - *other).length() >= radius * 2.0,
                    "disc {step} at {disc:?} overlaps one at {other:?}"
                );
            }
            placed.push(disc);
        }
    }
}
