//! The board in the middle of the window: the widget that draws it (here: pure layers that
//! turn a scene into shapes), the `BoardScene` it draws, what the panel reads off a scene
//! (`scene`: the hovered cell's texts, the red outlines), and the column and row numbers
//! (`coordinates`). The shell puts the scene together each frame (`shell/board.rs`), since
//! it comes from the document, the runs and the editor or the game. The transform between board and screen, the
//! robots as drawn and the slides are in [`crate::app::board_paint`], which the overlays and
//! the debugger share with this widget.
//!
//! Board coordinates measure in cells: cell `(x, y)` covers `[x, x + 1] x [y, y + 1]`, with
//! `y` growing southwards as on screen. Everything drawn goes through
//! `BoardGeometry::screen_from_board` and everything clicked comes back through its inverse
//! and `hit_test`, both in `board_paint::geometry`.

use crate::app::board_paint::{BoardGeometry, Hit, RobotSprite, Trail, trail_shapes};
use crate::app::theme::{self, Palette};
use crate::model::{Board, Goal, Pos, RobotColor, Shape as TargetShape, TargetColor};
use egui::epaint::text::FontsView;
use egui::{Align2, Color32, FontId, Pos2, Shape, Stroke, StrokeKind, pos2, vec2};

pub(in crate::app) mod coordinates;
mod scene;
mod thumbnail;

pub(in crate::app) use scene::{cell_texts, outline_count};
pub(in crate::app) use thumbnail::board_thumbnail;

/// Everything the board shows in one frame.
#[derive(Clone, Debug, Default)]
pub(in crate::app) struct BoardScene {
    /// The robots.
    pub(in crate::app) robots: Vec<RobotSprite>,
    /// The active target.
    pub(in crate::app) goal: Option<Goal>,
    /// The robot singled out (play mode, or the one being dragged).
    pub(in crate::app) selected: Option<RobotColor>,
    /// Slides to draw.
    pub(in crate::app) trails: Vec<Trail>,
    /// Whether the board as designed is invalid (it cannot be solved until fixed), which
    /// outlines the whole board in red.
    pub(in crate::app) invalid: bool,
    /// Cells to outline as wrong.
    pub(in crate::app) problems: Vec<Pos>,
    /// What the pointer would change.
    pub(in crate::app) hover: Option<Hit>,
    /// The minimum-move table, which its overlay layer tints and numbers.
    pub(in crate::app) min_moves: Option<Vec<u16>>,
    /// Whether to print coordinates along the edges.
    pub(in crate::app) coordinates: bool,
    /// From 0 to 1 while the target-reached ring shows.
    pub(in crate::app) celebration: Option<f32>,
    /// The overlay layers that are on (see [`crate::app::overlays`]).
    pub(in crate::app) overlay: crate::app::overlays::OverlayDrawing,
}

/// The board's cells: background, checker, grid lines and closed cells.
fn cell_shapes(geometry: &BoardGeometry, board: &Board, palette: &Palette) -> Vec<Shape> {
    let mut shapes = vec![Shape::rect_filled(
        geometry.screen_rect(),
        2.0,
        palette.board,
    )];
    let line = Stroke::new((geometry.cell_size() * 0.02).max(0.5), palette.grid_line);
    for cell in 0..board.cell_count() as u16 {
        let pos = board.pos(cell);
        let rect = geometry.cell_rect(pos);
        if board.is_closed(cell) {
            shapes.push(Shape::rect_filled(rect, 0.0, palette.closed));
        } else if (pos.x + pos.y) % 2 == 1 {
            shapes.push(Shape::rect_filled(rect, 0.0, palette.board_alt));
        }
    }
    let r = geometry.screen_rect();
    for x in 1..board.width() {
        let a = geometry.to_screen(pos2(f32::from(x), 0.0));
        shapes.push(Shape::line_segment([a, pos2(a.x, r.bottom())], line));
    }
    for y in 1..board.height() {
        let a = geometry.to_screen(pos2(0.0, f32::from(y)));
        shapes.push(Shape::line_segment([a, pos2(r.right(), a.y)], line));
    }
    shapes
}

/// The walls: interior walls once each, then the border, drawn thick and slightly past the
/// cell corners so that walls meeting at a corner join.
fn wall_shapes(geometry: &BoardGeometry, board: &Board, palette: &Palette) -> Vec<Shape> {
    let thickness = geometry.wall_thickness();
    let stroke = Stroke::new(thickness, palette.wall);
    let mut shapes = Vec::new();
    for (pos, side) in board.interior_walls() {
        let [a, b] = geometry.edge_segment(pos, side);
        let along = (b - a).normalized() * thickness * 0.5;
        shapes.push(Shape::line_segment([a - along, b + along], stroke));
    }
    shapes.push(Shape::rect_stroke(
        geometry.screen_rect(),
        0.0,
        stroke,
        StrokeKind::Inside,
    ));
    shapes
}

/// The printed targets in their colour and shape with their robot's letter, the active one on
/// a glow.
fn target_shapes(
    fonts: &mut FontsView<'_>,
    geometry: &BoardGeometry,
    board: &Board,
    goal: Option<Goal>,
    crowded: &dyn Fn(Pos) -> bool,
    palette: &Palette,
) -> Vec<Shape> {
    let mut shapes = Vec::new();
    let cell = geometry.cell_size();
    if let Some(goal) = goal
        && board.contains(goal.pos)
    {
        let rect = geometry.cell_rect(goal.pos).shrink(cell * 0.06);
        shapes.push(Shape::rect_filled(rect, cell * 0.15, palette.goal_glow));
        if board.target_at(goal.pos).is_none() {
            // An active target with no printed symbol: show what it asks for.
            let shape = if goal.color == TargetColor::Any {
                TargetShape::Vortex
            } else {
                TargetShape::Square
            };
            shapes.extend(symbol(
                geometry.cell_center(goal.pos),
                cell * 0.3,
                goal.color,
                shape,
                palette,
            ));
        }
    }
    for target in board.targets() {
        let active = goal.is_some_and(|g| g.pos == target.pos);
        let (center, radius) = if crowded(target.pos) {
            crate::app::board_paint::geometry::small_symbol(geometry, target.pos)
        } else if active {
            (geometry.cell_center(target.pos), cell * 0.34)
        } else {
            (geometry.cell_center(target.pos), cell * 0.26)
        };
        shapes.extend(symbol(center, radius, target.color, target.shape, palette));
        shapes.extend(letter(fonts, center, radius * 0.95, target.color));
    }
    shapes
}

/// A target's letter (none for the vortex) in a `size`-point font, in black or white on its
/// colour; left out where it would be too small to read.
fn letter(fonts: &mut FontsView<'_>, center: Pos2, size: f32, color: TargetColor) -> Option<Shape> {
    let letter = crate::print::colors::target_letter(color)?;
    let fill = theme::target(color);
    (size >= 5.0).then(|| {
        Shape::text(
            fonts,
            center,
            Align2::CENTER_CENTER,
            letter,
            FontId::proportional(size),
            theme::text_on(fill, fill),
        )
    })
}

/// One target symbol around a centre.
fn symbol(
    center: Pos2,
    radius: f32,
    color: TargetColor,
    shape: TargetShape,
    palette: &Palette,
) -> Vec<Shape> {
    let fill = theme::target(color);
    let outline = Stroke::new((radius * 0.12).max(0.8), palette.robot_outline);
    let polygon = |corners: usize, turn: f32| -> Shape {
        let points = (0..corners)
            .map(|i| {
                let angle = turn + i as f32 * std::f32::consts::TAU / corners as f32;
                center + radius * vec2(angle.cos(), angle.sin())
            })
            .collect();
        Shape::convex_polygon(points, fill, outline)
    };
    match shape {
        TargetShape::Circle => vec![Shape::circle_filled(center, radius * 0.85, fill), {
            Shape::circle_stroke(center, radius * 0.85, outline)
        }],
        TargetShape::Triangle => vec![polygon(3, -std::f32::consts::FRAC_PI_2)],
        TargetShape::Square => vec![polygon(4, std::f32::consts::FRAC_PI_4)],
        TargetShape::Hexagon => vec![polygon(6, 0.0)],
        TargetShape::Vortex => vortex(center, radius, outline),
    }
}

/// The multicoloured vortex: four quarter wedges, one per robot colour.
fn vortex(center: Pos2, radius: f32, outline: Stroke) -> Vec<Shape> {
    let mut shapes = Vec::new();
    for (quarter, color) in theme::vortex().into_iter().enumerate() {
        let start = -std::f32::consts::FRAC_PI_2 + quarter as f32 * std::f32::consts::FRAC_PI_2;
        let mut points = vec![center];
        for step in 0..=8 {
            let angle = start + step as f32 / 8.0 * std::f32::consts::FRAC_PI_2;
            points.push(center + radius * vec2(angle.cos(), angle.sin()));
        }
        shapes.push(Shape::convex_polygon(points, color, Stroke::NONE));
    }
    shapes.push(Shape::circle_stroke(center, radius, outline));
    shapes
}

/// The robots: a disc in the robot's colour with its move letter, a ring when selected.
fn robot_shapes(
    fonts: &mut FontsView<'_>,
    geometry: &BoardGeometry,
    robots: &[RobotSprite],
    selected: Option<RobotColor>,
    palette: &Palette,
) -> Vec<Shape> {
    let cell = geometry.cell_size();
    // Never smaller than a few points, so robots stay visible on the largest boards.
    let radius = (cell * 0.36).max(3.0);
    let mut shapes = Vec::new();
    for robot in robots {
        let center = geometry.to_screen(robot.center);
        shapes.push(Shape::circle_filled(
            center + vec2(0.0, cell * 0.04),
            radius,
            Color32::from_black_alpha(60),
        ));
        let fill = theme::robot(robot.color);
        shapes.push(Shape::circle_filled(center, radius, fill));
        shapes.push(Shape::circle_stroke(
            center,
            radius,
            Stroke::new((cell * 0.04).max(1.0), palette.robot_outline),
        ));
        if cell >= 14.0 {
            shapes.push(Shape::text(
                fonts,
                center,
                Align2::CENTER_CENTER,
                robot.color.letter(),
                FontId::proportional(cell * 0.36),
                // Black on the light robots (yellow, silver), white on the dark ones.
                theme::text_on(fill, fill),
            ));
        }
        if selected == Some(robot.color) {
            shapes.push(Shape::circle_stroke(
                center,
                radius + cell * 0.08,
                Stroke::new((cell * 0.05).max(1.5), palette.selection),
            ));
        }
    }
    shapes
}

/// Red outlines around an invalid board and around the cells that make it invalid. The
/// board's own outline is there for every problem, also those no single cell shows (no
/// robots, no target), so an invalid board always reads as one.
pub(in crate::app) fn problem_shapes(
    geometry: &BoardGeometry,
    invalid: bool,
    cells: &[Pos],
    palette: &Palette,
) -> Vec<Shape> {
    if !invalid {
        return Vec::new();
    }
    let stroke = Stroke::new((geometry.cell_size() * 0.08).max(2.0), palette.invalid);
    let outline = Shape::rect_stroke(geometry.screen_rect(), 0.0, stroke, StrokeKind::Inside);
    let cells = cells
        .iter()
        // Off-board problems have no cell to outline.
        .filter(|&&p| geometry.contains(p))
        .map(|&p| Shape::rect_stroke(geometry.cell_rect(p), 2.0, stroke, StrokeKind::Inside));
    std::iter::once(outline).chain(cells).collect()
}

/// What the pointer would change: the wall slot or the cell.
fn hover_shapes(geometry: &BoardGeometry, hover: Option<Hit>, palette: &Palette) -> Vec<Shape> {
    match hover {
        Some(Hit::Edge(pos, side)) => {
            let stroke = Stroke::new(geometry.wall_thickness() * 1.2, palette.hover);
            vec![Shape::line_segment(
                geometry.edge_segment(pos, side),
                stroke,
            )]
        }
        Some(Hit::Cell(pos)) => vec![Shape::rect_stroke(
            geometry.cell_rect(pos),
            2.0,
            Stroke::new(2.0, palette.hover),
            StrokeKind::Inside,
        )],
        None => Vec::new(),
    }
}

/// A ring that grows out of the target when it is reached.
fn celebration_shapes(
    geometry: &BoardGeometry,
    goal: Option<Goal>,
    progress: f32,
    palette: &Palette,
) -> Vec<Shape> {
    let Some(goal) = goal else {
        return Vec::new();
    };
    let cell = geometry.cell_size();
    let radius = cell * (0.45 + 1.2 * progress);
    let alpha = (1.0 - progress).clamp(0.0, 1.0);
    vec![Shape::circle_stroke(
        geometry.cell_center(goal.pos),
        radius,
        Stroke::new(cell * 0.1, palette.celebration.gamma_multiply(alpha)),
    )]
}

/// All layers of a scene, bottom to top.
fn scene_shapes(
    fonts: &mut FontsView<'_>,
    geometry: &BoardGeometry,
    board: &Board,
    scene: &BoardScene,
    palette: &Palette,
) -> Vec<Shape> {
    let mut shapes = cell_shapes(geometry, board, palette);
    shapes.extend(crate::app::overlays::overlay_shapes(
        geometry,
        &scene.overlay,
        palette,
    ));
    // A symbol in a cell with overlay texts makes room for them.
    let crowded = |pos: Pos| scene.overlay.texts.iter().any(|text| text.pos == pos);
    shapes.extend(target_shapes(
        fonts, geometry, board, scene.goal, &crowded, palette,
    ));
    shapes.extend(wall_shapes(geometry, board, palette));
    // Texts go over the symbols and walls, each in a part of its cell that no wall covers.
    shapes.extend(crate::app::overlays::overlay_text_shapes(
        fonts,
        geometry,
        board,
        &scene.overlay.texts,
        palette,
    ));
    shapes.extend(trail_shapes(fonts, geometry, &scene.trails, palette));
    shapes.extend(trail_shapes(
        fonts,
        geometry,
        &scene.overlay.trails,
        palette,
    ));
    shapes.extend(robot_shapes(
        fonts,
        geometry,
        &scene.robots,
        scene.selected,
        palette,
    ));
    if let Some(progress) = scene.celebration {
        shapes.extend(celebration_shapes(geometry, scene.goal, progress, palette));
    }
    shapes.extend(problem_shapes(
        geometry,
        scene.invalid,
        &scene.problems,
        palette,
    ));
    shapes.extend(hover_shapes(geometry, scene.hover, palette));
    shapes
}

/// Allocates the board widget in the space left, paints the scene and returns the response
/// (for clicks and drags) with the geometry used, so the caller can hit-test the pointer.
///
/// The widget is announced to assistive technology (and UI tests) as "Board".
pub(in crate::app) fn board_ui(
    ui: &mut egui::Ui,
    board: &Board,
    scene: &BoardScene,
) -> (egui::Response, BoardGeometry) {
    // Decide the size: all the space left, the board square-celled in its middle, with room
    // for the coordinates outside its edges.
    let available = ui.available_rect_before_wrap();
    let geometry = BoardGeometry::fit(
        coordinates::board_area(ui, available, scene.coordinates),
        board.width(),
        board.height(),
    );
    // Allocate the board's own rectangle, so that clicks beside it are not board clicks.
    let response = ui.allocate_rect(geometry.screen_rect(), egui::Sense::click_and_drag());
    response
        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, ui.is_enabled(), "Board"));
    // Paint.
    let palette = theme::palette(ui.visuals().dark_mode);
    let shapes = ui.fonts_mut(|fonts| scene_shapes(fonts, &geometry, board, scene, palette));
    // Clipped to the board, so wall ends that reach past the border are cut at its edge.
    ui.painter_at(geometry.screen_rect()).extend(shapes);
    if scene.coordinates {
        let color = ui.visuals().text_color();
        let size = coordinates::body_size(ui);
        let labels = ui.fonts_mut(|fonts| {
            coordinates::coordinate_shapes(fonts, &geometry, board, color, size)
        });
        ui.painter_at(available).extend(labels);
    }
    (response, geometry)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::board_paint::hit_test;
    use crate::model::Direction;
    use egui::Rect;

    #[test]
    fn points_near_a_side_hit_the_side_and_the_middle_hits_the_cell() {
        assert_eq!(
            hit_test(pos2(1.5, 1.5), 4, 4, 0.2),
            Some(Hit::Cell(Pos::new(1, 1)))
        );
        assert_eq!(
            hit_test(pos2(1.95, 1.5), 4, 4, 0.2),
            Some(Hit::Edge(Pos::new(1, 1), Direction::East))
        );
        assert_eq!(
            hit_test(pos2(2.05, 1.5), 4, 4, 0.2),
            Some(Hit::Edge(Pos::new(2, 1), Direction::West))
        );
        assert_eq!(
            hit_test(pos2(0.5, 0.1), 4, 4, 0.2),
            Some(Hit::Edge(Pos::new(0, 0), Direction::North))
        );
        assert_eq!(
            hit_test(pos2(3.5, 3.9), 4, 4, 0.2),
            Some(Hit::Edge(Pos::new(3, 3), Direction::South))
        );
        assert_eq!(hit_test(pos2(-0.1, 1.0), 4, 4, 0.2), None);
        assert_eq!(hit_test(pos2(4.0, 1.0), 4, 4, 0.2), None);
        assert_eq!(hit_test(pos2(1.0, 4.5), 4, 3, 0.2), None);
    }

    #[test]
    fn screen_and_board_coordinates_invert_each_other() {
        let geometry = BoardGeometry::fit(
            Rect::from_min_size(pos2(10.0, 20.0), vec2(800.0, 400.0)),
            16,
            8,
        );
        // The board is as wide as fits the height: 8 rows of 50 points.
        assert_eq!(geometry.cell_size(), 50.0);
        let center = geometry.cell_center(Pos::new(3, 2));
        assert_eq!(geometry.hit(center), Some(Hit::Cell(Pos::new(3, 2))));
        let [a, b] = geometry.edge_segment(Pos::new(3, 2), Direction::South);
        let middle = a + (b - a) * 0.5;
        let hit = geometry.hit(middle + vec2(0.0, -1.0));
        assert_eq!(hit, Some(Hit::Edge(Pos::new(3, 2), Direction::South)));
        let back = geometry.to_board(geometry.to_screen(pos2(5.25, 7.75)));
        assert!((back - pos2(5.25, 7.75)).length() < 1e-4);
    }
}
