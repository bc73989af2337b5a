//! An engine's own events, carried to the debugger's log and status line like a built-in
//! solver's: its free text, its give-up reason, its search figures (`info depth=… nodes=…`)
//! and the layer it draws on the board (`draw …`).

use super::protocol::{DrawItem, SearchInfo};
use crate::model::Board;
use crate::solver::probe::SolverEvent;

/// An engine's `info string` line, as a solver event in the debugger's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineInfo {
    /// The text.
    pub text: String,
}

impl SolverEvent for EngineInfo {
    fn describe(&self, _board: &Board) -> String {
        format!("engine: {}", self.text)
    }

    fn status(&self) -> Option<(&'static str, String)> {
        Some(("Engine says", self.text.clone()))
    }
}

/// An engine's `gaveup` answer, with the reason it gave, as a solver event: the debugger's log
/// shows it, and `engine check` tells a puzzle the engine does not take (a reason beginning
/// `unsupported`) from a wrong answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineGaveUp {
    /// The rest of the `gaveup` line (may be empty).
    pub reason: String,
}

impl SolverEvent for EngineGaveUp {
    fn describe(&self, _board: &Board) -> String {
        format!("engine gave up: {}", self.reason)
    }

    fn status(&self) -> Option<(&'static str, String)> {
        Some(("Engine gave up", self.reason.clone()))
    }
}

impl EngineGaveUp {
    /// Whether the engine said the puzzle is one it does not take (the adapters' `gaveup
    /// unsupported: REASON`), rather than that its search ended without an answer.
    pub fn is_refusal(&self) -> bool {
        self.reason.starts_with("unsupported")
    }
}

/// An engine's `info` line with the standard keys: what its search is doing now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSearch {
    /// The figures it sent.
    pub info: SearchInfo,
}

impl SolverEvent for EngineSearch {
    fn describe(&self, _board: &Board) -> String {
        format!("engine searching: {}", self.info.summary())
    }

    fn status(&self) -> Option<(&'static str, String)> {
        Some(("Engine searching", self.info.summary()))
    }
}

/// One of an engine's `draw` lines: a change to the layer it paints on the board, in the
/// event stream at the place it was sent, so that stepping the events steps the layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineDraw {
    /// The change.
    pub item: DrawItem,
}

impl SolverEvent for EngineDraw {
    fn describe(&self, _board: &Board) -> String {
        format!("engine draws: {}", self.item)
    }

    fn draw(&self, picture: &mut crate::solver::picture::SearchPicture) {
        // The layer is the engine's part of the picture. Applied one line at a time, so
        // stepping costs one line's work; the layer is cloned with the picture into the
        // debugger's snapshots, so a step back finds it as it was.
        picture.part_mut::<DrawLayer>().apply(&self.item);
    }
}

pub use crate::solver::drawing::DrawLayer;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Pos;

    #[test]
    fn a_layer_applies_draw_lines_in_order_and_clears() {
        let mut layer = DrawLayer::default();
        layer.apply(&DrawItem::Cell {
            pos: Pos::new(1, 2),
            value: Some(3),
            color: None,
        });
        layer.apply(&DrawItem::Cell {
            pos: Pos::new(1, 2),
            value: None,
            color: Some([255, 0, 0]),
        });
        layer.apply(&DrawItem::Legend("h values".into()));
        assert_eq!(
            layer.cells,
            vec![(Pos::new(1, 2), Some(3), Some([255, 0, 0]))]
        );
        assert_eq!(layer.legend.as_deref(), Some("h values"));
        layer.apply(&DrawItem::Clear);
        assert!(layer.is_empty());
    }
}
