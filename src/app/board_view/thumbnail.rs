//! A small board drawn as the big one is, for a window that shows positions beside each
//! other: the cells, walls, targets and robots, with nothing to click.

use super::{BoardGeometry, BoardScene, RobotSprite, scene_shapes};
use crate::app::theme;
use crate::model::{Cell, Puzzle};
use egui::Stroke;

/// Draws `puzzle`'s board in a square of `side` points with its robots at `cells` (colour
/// order; the puzzle's own robots when `None`), and rings the robots whose cell is in
/// `marked`. The widget is announced as `label`.
pub(in crate::app) fn board_thumbnail(
    ui: &mut egui::Ui,
    puzzle: &Puzzle,
    cells: Option<&[Cell]>,
    marked: &[Cell],
    side: f32,
    label: &str,
) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::Vec2::splat(side), egui::Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, label));
    let board = puzzle.board();
    let geometry = BoardGeometry::fit(rect, board.width(), board.height());
    let robots: Vec<RobotSprite> = match cells {
        Some(cells) => puzzle
            .robots()
            .iter()
            .zip(cells)
            .map(|(robot, &cell)| RobotSprite::at(robot.color, board.pos(cell)))
            .collect(),
        None => puzzle
            .robots()
            .iter()
            .map(|robot| RobotSprite::at(robot.color, robot.pos))
            .collect(),
    };
    let scene = BoardScene {
        robots,
        goal: Some(puzzle.goal()),
        ..BoardScene::default()
    };
    let palette = theme::palette(ui.visuals().dark_mode);
    let mut shapes = ui.fonts_mut(|fonts| scene_shapes(fonts, &geometry, board, &scene, palette));
    let ring = Stroke::new((geometry.cell_size() * 0.12).max(2.0), palette.selection);
    for &cell in marked {
        let pos = board.pos(cell);
        shapes.push(egui::Shape::circle_stroke(
            geometry.cell_center(pos),
            geometry.cell_size() * 0.5,
            ring,
        ));
    }
    ui.painter_at(rect).extend(shapes);
    response
}
