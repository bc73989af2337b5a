//! The engine's layer: what an external engine drew on the board with its `draw` lines, a
//! number and colour per cell, arrows and labels, as the engine sent them.

use crate::app::overlays::assembly::OverlaySources;
use crate::app::overlays::layers::OverlayLayer;
use crate::app::overlays::{
    Arrow, ArrowKind, CellFill, CellText, HeatKind, OverlayDrawing, OverlaySettings,
};
use crate::app::theme::Palette;
use crate::model::{Board, Direction, Pos};
use crate::solver::engine::{DrawLayer, protocol::Rgb};
use egui::Color32;

/// The colour of a cell, arrow or sample the engine gave no colour.
const UNCOLOURED: Color32 = Color32::from_rgb(120, 120, 200);

/// What an engine drew on the board.
pub(super) struct EngineDrawing;

impl OverlayLayer for EngineDrawing {
    fn name(&self) -> &'static str {
        "Engine's drawing"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.engine_drawing
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.engine_drawing, self.name())
            .on_hover_text(
                "What an engine draws on the board with its draw lines; stepped with the debugger",
            );
    }

    fn legend(&self, _palette: &Palette) -> Vec<(Color32, &'static str)> {
        vec![(
            UNCOLOURED,
            "Engine's drawing: the engine's own numbers, colours, arrows and labels (its legend is below)",
        )]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        match &sources.engine {
            Some(engine) => engine_layer(sources.board, engine.name, engine.layer),
            None => OverlayDrawing::default(),
        }
    }
}

fn color(rgb: Option<Rgb>) -> Color32 {
    rgb.map_or(UNCOLOURED, |[r, g, b]| Color32::from_rgb(r, g, b))
}

/// The engine's layer in board terms, its numbers and labels named after the engine in a
/// cell's hover details ("bfs-py's value"): cells off the board are left out.
pub(in crate::app) fn engine_layer(
    board: &Board,
    engine: &str,
    layer: &DrawLayer,
) -> OverlayDrawing {
    let on_board = |pos: Pos| pos.x < board.width() && pos.y < board.height();
    let mut drawing = OverlayDrawing::default();
    for &(pos, value, rgb) in layer.cells.iter().filter(|(p, _, _)| on_board(*p)) {
        if let Some(rgb) = rgb {
            drawing.fills.push(CellFill {
                pos,
                kind: HeatKind::Drawn(color(Some(rgb))),
                level: 1.0,
            });
        }
        if let Some(value) = value {
            drawing.texts.push(CellText {
                pos,
                line: 1,
                text: value.to_string(),
                color: None,
                what: format!("{engine}'s value").into(),
                dot_when_cramped: true,
            });
        }
    }
    for &(from, to, rgb) in &layer.arrows {
        if on_board(from) && on_board(to) && from != to {
            drawing.arrows.push(Arrow {
                from,
                to,
                dir: direction_between(from, to),
                kind: ArrowKind::Drawn(color(rgb)),
            });
        }
    }
    for (pos, text) in layer.labels.iter().filter(|(p, _)| on_board(*p)) {
        drawing.texts.push(CellText {
            pos: *pos,
            line: 2,
            text: text.clone(),
            color: None,
            what: format!("{engine}'s label").into(),
            dot_when_cramped: true,
        });
    }
    drawing
}

/// The direction an arrow mostly goes, which picks its lane.
fn direction_between(from: Pos, to: Pos) -> Direction {
    let dx = i32::from(to.x) - i32::from(from.x);
    let dy = i32::from(to.y) - i32::from(from.y);
    match (dx.abs() >= dy.abs(), dx >= 0, dy >= 0) {
        (true, true, _) => Direction::East,
        (true, false, _) => Direction::West,
        (false, _, true) => Direction::South,
        (false, _, false) => Direction::North,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::engine::protocol::DrawItem;

    #[test]
    fn the_engine_layer_draws_its_cells_arrows_and_labels_on_the_board_only() {
        let board = Board::new(4, 4).unwrap();
        let mut layer = DrawLayer::default();
        for item in [
            DrawItem::Cell {
                pos: Pos::new(1, 1),
                value: Some(7),
                color: Some([255, 0, 0]),
            },
            DrawItem::Cell {
                pos: Pos::new(9, 9),
                value: Some(1),
                color: None,
            },
            DrawItem::Arrow {
                from: Pos::new(0, 0),
                to: Pos::new(0, 3),
                color: None,
            },
            DrawItem::Label {
                pos: Pos::new(2, 2),
                text: "cut".into(),
            },
        ] {
            layer.apply(&item);
        }
        let drawing = engine_layer(&board, "bfs-py", &layer);
        assert_eq!(drawing.fills.len(), 1);
        assert_eq!(
            drawing.fills[0].kind,
            HeatKind::Drawn(Color32::from_rgb(255, 0, 0))
        );
        let texts: Vec<&str> = drawing.texts.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["7", "cut"]);
        // The hover names the engine that drew them.
        let whats: Vec<&str> = drawing.texts.iter().map(|t| t.what.as_ref()).collect();
        assert_eq!(whats, ["bfs-py's value", "bfs-py's label"]);
        assert_eq!(drawing.arrows.len(), 1);
        assert_eq!(drawing.arrows[0].dir, Direction::South);
        assert!(engine_layer(&board, "bfs-py", &DrawLayer::default()).is_empty());
    }
}
