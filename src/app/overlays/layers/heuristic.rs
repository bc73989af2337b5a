//! The heuristic layer: the estimate the chosen solver uses (the minimum-move table, the
//! Manhattan distance or the row and column count), on each cell for the robot the target
//! asks for, as a heat tint with its numbers: the h behind A*'s and IDA*'s choices.

use crate::app::overlays::assembly::OverlaySources;
use crate::app::overlays::layers::OverlayLayer;
use crate::app::overlays::{CellFill, CellText, HeatKind, OverlayDrawing, OverlaySettings};
use crate::app::theme::{self, Palette};
use crate::model::Cell;
use crate::solver::min_moves::UNREACHABLE;
use egui::Color32;

/// The chosen solver's heuristic: a heat tint and, in every open cell, its h.
pub(super) struct HeuristicMap;

impl OverlayLayer for HeuristicMap {
    fn name(&self) -> &'static str {
        "Solver's heuristic (h)"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.heuristic
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.heuristic, self.name())
            .on_hover_text(
                "The estimate h the chosen solver uses, for the target's robot on each cell",
            );
    }

    fn legend(&self, _palette: &Palette) -> Vec<(Color32, &'static str)> {
        vec![(
            theme::heat(false, 1.0),
            "h of the chosen solver for the target's robot: low (hot) to high (cold); none without a heuristic",
        )]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        let Some(source) = &sources.heuristic else {
            return OverlayDrawing::default();
        };
        let board = sources.board;
        let table = &source.table;
        let highest = table
            .iter()
            .copied()
            .filter(|&h| h != UNREACHABLE)
            .max()
            .unwrap_or(0);
        let what = format!("h, {} ({})", source.heuristic.name(), source.solver);
        let mut drawing = OverlayDrawing::default();
        for (cell, &h) in table.iter().enumerate().take(board.cell_count()) {
            if board.is_closed(cell as Cell) {
                continue;
            }
            let pos = board.pos(cell as Cell);
            if h != UNREACHABLE {
                drawing.fills.push(CellFill {
                    pos,
                    kind: HeatKind::MinMoves,
                    level: if highest == 0 {
                        1.0
                    } else {
                        1.0 - f32::from(h) / f32::from(highest)
                    },
                });
            }
            drawing.texts.push(CellText {
                pos,
                line: 4,
                text: if h == UNREACHABLE {
                    "-".to_string()
                } else {
                    h.to_string()
                },
                color: None,
                what: what.clone().into(),
                dot_when_cramped: false,
            });
        }
        drawing
    }
}
