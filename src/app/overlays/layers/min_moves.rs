//! The minimum-move map layer: the fewest moves of the active robot to the target from each
//! cell, as a heat tint with its numbers.

use crate::app::overlays::assembly::OverlaySources;
use crate::app::overlays::layers::OverlayLayer;
use crate::app::overlays::{CellFill, CellText, HeatKind, OverlayDrawing, OverlaySettings};
use crate::app::theme::{self, Palette};
use crate::model::{Board, Cell};
use crate::solver::min_moves::UNREACHABLE;
use egui::Color32;

/// The minimum-move map: a heat tint and, in every open cell, its number of moves.
pub(super) struct MinMoves;

impl OverlayLayer for MinMoves {
    fn name(&self) -> &'static str {
        "Minimum-move map"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.min_moves
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.min_moves, self.name());
    }

    fn legend(&self, _palette: &Palette) -> Vec<(Color32, &'static str)> {
        vec![(
            theme::heat(false, 1.0),
            "Minimum moves: few moves to the target (hot) to many (cold); number = moves",
        )]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        sources
            .min_moves
            .map(|table| min_moves_layer(sources.board, table))
            .unwrap_or_default()
    }
}

/// The minimum-move table as a heat map with its numbers: the fewer moves, the hotter;
/// unreachable cells stay untinted and read "-". A number that does not fit its place is left
/// out rather than dotted, since every open cell has one.
fn min_moves_layer(board: &Board, table: &[u16]) -> OverlayDrawing {
    let highest = table
        .iter()
        .copied()
        .filter(|&m| m != UNREACHABLE)
        .max()
        .unwrap_or(0);
    let mut drawing = OverlayDrawing::default();
    for (cell, &moves) in table.iter().enumerate().take(board.cell_count()) {
        if board.is_closed(cell as Cell) {
            continue;
        }
        let pos = board.pos(cell as Cell);
        if moves != UNREACHABLE {
            drawing.fills.push(CellFill {
                pos,
                kind: HeatKind::MinMoves,
                level: if highest == 0 {
                    1.0
                } else {
                    1.0 - f32::from(moves) / f32::from(highest)
                },
            });
        }
        drawing.texts.push(CellText {
            pos,
            line: 4,
            text: if moves == UNREACHABLE {
                "-".to_string()
            } else {
                moves.to_string()
            },
            color: None,
            what: "Minimum moves".into(),
            dot_when_cramped: false,
        });
    }
    drawing
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use crate::solver::min_moves::min_moves;

    #[test]
    fn min_moves_heat_is_hottest_on_the_target_and_skips_unreachable_cells() {
        let puzzle = samples::fogleman_22();
        let board = puzzle.board();
        let table = min_moves(board, puzzle.goal_cell());
        let drawing = min_moves_layer(board, &table);
        let target = board.pos(puzzle.goal_cell());
        let on_target = drawing.fills.iter().find(|f| f.pos == target).unwrap();
        assert_eq!(on_target.level, 1.0);
        let reachable = table.iter().filter(|&&m| m != UNREACHABLE).count();
        assert_eq!(drawing.fills.len(), reachable);
        assert!(drawing.fills.iter().all(|f| (0.0..=1.0).contains(&f.level)));
    }
}
