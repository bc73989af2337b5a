//! The search heat layer: how often a debugged search put the active robot on each cell.

use crate::app::overlays::assembly::OverlaySources;
use crate::app::overlays::layers::OverlayLayer;
use crate::app::overlays::{CellFill, CellText, HeatKind, OverlayDrawing, OverlaySettings};
use crate::app::theme::{self, Palette};
use crate::model::{Board, Cell};
use egui::Color32;

/// How often a debugged search put the active robot on each cell.
pub(super) struct SearchHeat;

impl OverlayLayer for SearchHeat {
    fn name(&self) -> &'static str {
        "Search heat map"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.search_heat
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.search_heat, self.name())
            .on_hover_text("Needs a debugged run: solve with Debug mode on");
    }

    fn legend(&self, _palette: &Palette) -> Vec<(Color32, &'static str)> {
        vec![(
            theme::heat(true, 1.0),
            "Search heat: how often the active robot stood here in the nodes examined",
        )]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        match sources.debugger {
            Some(debugger) => search_heat_layer(sources.board, &debugger.picture.heat),
            None => OverlayDrawing::default(),
        }
    }
}

/// How often the search put the active robot on each cell: tinted on a square-root scale (a
/// few cells take most visits) and counted in the cell's lower line.
fn search_heat_layer(board: &Board, heat: &[u32]) -> OverlayDrawing {
    let highest = heat.iter().copied().max().unwrap_or(0);
    let mut drawing = OverlayDrawing::default();
    if highest == 0 {
        return drawing;
    }
    for (cell, &count) in heat.iter().enumerate() {
        if count == 0 || cell >= board.cell_count() {
            continue;
        }
        let pos = board.pos(cell as Cell);
        drawing.fills.push(CellFill {
            pos,
            kind: HeatKind::Search,
            level: (count as f32 / highest as f32).sqrt(),
        });
        drawing.texts.push(CellText {
            pos,
            line: 3,
            text: short_count(count),
            color: None,
            what: "Search visits".into(),
            dot_when_cramped: true,
        });
    }
    drawing
}

/// A count in at most four characters: 950, 12k, 3.4M.
fn short_count(count: u32) -> String {
    match count {
        0..=999 => count.to_string(),
        1_000..=9_999 => format!("{:.1}k", count as f32 / 1e3),
        10_000..=999_999 => format!("{}k", count / 1_000),
        _ => format!("{:.1}M", count as f32 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_heat_counts_every_visited_cell_and_scales_to_the_busiest() {
        let board = Board::new(4, 4).unwrap();
        let mut heat = vec![0; 16];
        heat[5] = 100;
        heat[6] = 25;
        let drawing = search_heat_layer(&board, &heat);
        assert_eq!(drawing.fills.len(), 2);
        assert_eq!(drawing.fills[0].level, 1.0);
        assert!((drawing.fills[1].level - 0.5).abs() < 1e-6);
        assert_eq!(drawing.texts[1].text, "25");
        assert!(search_heat_layer(&board, &[0; 16]).is_empty());
    }
}
