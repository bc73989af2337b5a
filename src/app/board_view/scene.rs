//! What the board panel derives from a scene: the hovered cell's overlay texts and the red
//! outlines of an invalid design. The scene itself is put together each frame by the shell
//! (`shell/board.rs`), which sees the document, the runs and every room.

use crate::app::board_paint::BoardGeometry;
use crate::app::board_view::{BoardScene, problem_shapes};
use crate::app::theme;
use crate::model::Cell;

/// How many red outlines `scene` draws on a board of `width` x `height` cells: the board's
/// own and one per wrong cell when the design is invalid, none when it is valid.
pub(in crate::app) fn outline_count(scene: &BoardScene, width: u16, height: u16) -> usize {
    // The count does not depend on where the board is drawn, so any rectangle does.
    let area = egui::Rect::from_min_size(
        egui::Pos2::ZERO,
        egui::vec2(f32::from(width), f32::from(height)),
    );
    let geometry = BoardGeometry::fit(area, width, height);
    problem_shapes(
        &geometry,
        scene.invalid,
        &scene.problems,
        theme::palette(true),
    )
    .len()
}

/// The overlay texts of one cell, one line each, for the hovered cell's tooltip; `None` when
/// the cell has none. The stateless layer's own are left out when its states are listed in
/// words beside them (`stateless_in_words`).
pub(in crate::app) fn cell_texts(
    board: &crate::model::Board,
    scene: &BoardScene,
    cell: Cell,
    stateless_in_words: bool,
) -> Option<String> {
    let pos = board.pos(cell);
    let lines: Vec<String> = scene
        .overlay
        .texts
        .iter()
        .filter(|t| t.pos == pos)
        .filter(|t| !(stateless_in_words && crate::app::overlays::is_stateless_text(t)))
        .map(|t| match t.color {
            Some(color) => format!("{} ({}): {}", t.what, color.name(), t.text),
            None => format!("{}: {}", t.what, t.text),
        })
        .collect();
    (!lines.is_empty()).then(|| format!("{pos}\n{}", lines.join("\n")))
}
