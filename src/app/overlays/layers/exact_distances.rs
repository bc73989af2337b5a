//! The exact distance map's layer: per cell, the fewest moves (every robot may move) after
//! which the chosen robot stands there, tinted like the minimum-move map, with the cells where
//! that exceeds the lower bound outlined (the robot needs helpers there).

use crate::app::overlays::OverlaySettings;
use crate::app::overlays::assembly::OverlaySources;
use crate::app::overlays::layers::OverlayLayer;
use crate::app::overlays::{CellFill, CellText, HeatKind, OverlayDrawing};
use crate::app::theme::{self, Palette};
use crate::model::{Board, Cell, RobotColor};
use crate::solver::analysis::distances::DistanceMap;
use egui::Color32;

/// The layer of `color`'s exact distances; empty when the map has no such robot.
fn exact_distance_layer(board: &Board, map: &DistanceMap, color: RobotColor) -> OverlayDrawing {
    let mut drawing = OverlayDrawing::default();
    let Some(robot) = map.robots.iter().find(|r| r.color == color) else {
        return drawing;
    };
    if usize::from(map.width) != usize::from(board.width())
        || usize::from(map.height) != usize::from(board.height())
    {
        return drawing;
    }
    let highest = robot.exact.iter().flatten().copied().max().unwrap_or(0);
    for cell in 0..board.cell_count() {
        let cell_id = cell as Cell;
        if board.is_closed(cell_id) {
            continue;
        }
        let pos = board.pos(cell_id);
        if let Some(moves) = robot.exact[cell] {
            drawing.fills.push(CellFill {
                pos,
                kind: HeatKind::MinMoves,
                level: if highest == 0 {
                    1.0
                } else {
                    1.0 - moves as f32 / highest as f32
                },
            });
            drawing.texts.push(CellText {
                pos,
                line: 4,
                text: moves.to_string(),
                color: None,
                what: "Exact distance".into(),
                dot_when_cramped: true,
            });
        }
        if robot.needs_helpers(cell_id, map.depth) {
            drawing.outlines.push(pos);
            if let Some(bound) = robot.lower_bound[cell] {
                drawing.texts.push(CellText {
                    pos,
                    line: 1,
                    text: bound.to_string(),
                    color: None,
                    what: "Lower bound".into(),
                    dot_when_cramped: true,
                });
            }
        }
    }
    drawing
}

/// The exact distance map of one robot from the position shown.
pub(super) struct ExactDistances;

impl OverlayLayer for ExactDistances {
    fn name(&self) -> &'static str {
        "Exact distance map"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.exact_distances
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.exact_distances, self.name())
            .on_hover_text("Per cell, the fewest moves before the chosen robot stands there");
    }

    fn legend(&self, palette: &Palette) -> Vec<(Color32, &'static str)> {
        let colors = theme::overlay(palette);
        vec![
            (
                theme::heat(false, 1.0),
                "Exact distances: the fewest moves (any robot may move) before the chosen \
                 robot stands here; hot = few",
            ),
            (
                colors.needs_helpers,
                "Outlined: the robot needs helpers here (exact distance above the lower \
                 bound, shown small in the corner)",
            ),
        ]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        match sources.distances {
            Some((map, color)) => exact_distance_layer(sources.board, map, color),
            None => OverlayDrawing::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use crate::solver::analysis::distances::distance_map;
    use crate::solver::{Limits, NoProbe};

    #[test]
    fn every_reached_cell_shows_its_distance_and_helper_cells_are_outlined() {
        let puzzle = samples::fogleman_22();
        let map = distance_map(&puzzle, 3, &Limits::default(), &mut NoProbe);
        let color = puzzle.robots()[0].color;
        let drawing = exact_distance_layer(puzzle.board(), &map, color);
        let robot = map.robots.iter().find(|r| r.color == color).unwrap();
        let reached = robot.exact.iter().flatten().count();
        assert_eq!(drawing.fills.len(), reached);
        let helpers = (0..puzzle.board().cell_count())
            .filter(|&c| robot.needs_helpers(c as Cell, map.depth))
            .count();
        assert_eq!(drawing.outlines.len(), helpers);
        // The robot's own cell is at distance 0.
        let home = puzzle
            .board()
            .pos(puzzle.board().cell(puzzle.robots()[0].pos));
        assert!(
            drawing
                .texts
                .iter()
                .any(|t| t.pos == home && t.text == "0" && t.what == "Exact distance")
        );
    }
}
