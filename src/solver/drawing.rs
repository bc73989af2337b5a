//! What an engine paints on the board with its `draw` lines, as types that hold no more than
//! the model: the layer is the engine's part of the search picture, and the engine protocol
//! reads and writes the lines (`solver::engine::protocol`).

use crate::model::Pos;

/// A colour as `rrggbb` hexadecimal digits.
pub type Rgb = [u8; 3];

/// One `draw` line: a change to the layer an engine paints on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DrawItem {
    /// `draw clear`: the layer is emptied.
    Clear,
    /// `draw cell=x,y [value=N] [color=rrggbb]`: a number and/or a colour on a cell.
    Cell {
        /// The cell.
        pos: Pos,
        /// The number shown on it.
        value: Option<i64>,
        /// The colour it is tinted with.
        color: Option<Rgb>,
    },
    /// `draw arrow=x,y:x,y [color=rrggbb]`: an arrow from a cell to a cell.
    Arrow {
        /// Where it starts.
        from: Pos,
        /// Where it points.
        to: Pos,
        /// Its colour.
        color: Option<Rgb>,
    },
    /// `draw label=x,y text=WORDS`: a short text on a cell (`_` reads as a space).
    Label {
        /// The cell.
        pos: Pos,
        /// The text.
        text: String,
    },
    /// `draw legend=WORDS`: what the layer's numbers and colours mean (`_` reads as a space).
    Legend(String),
}

/// An engine's layer on the board: every `draw` line of a search applied in order, as the
/// overlay that shows it reads it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawLayer {
    /// Per drawn cell, its number and colour, in the order first drawn.
    pub cells: Vec<(crate::model::Pos, Option<i64>, Option<Rgb>)>,
    /// The arrows, in the order drawn.
    pub arrows: Vec<(crate::model::Pos, crate::model::Pos, Option<Rgb>)>,
    /// The labels, one per cell.
    pub labels: Vec<(crate::model::Pos, String)>,
    /// What the layer means, as the engine says.
    pub legend: Option<String>,
}

/// The most arrows a layer keeps: an engine that draws an arrow per node cannot grow it
/// without bound.
pub const MAX_ARROWS: usize = 4096;

impl DrawLayer {
    /// Applies one `draw` line: a cell drawn again keeps what the new line does not set.
    pub fn apply(&mut self, item: &DrawItem) {
        match item {
            DrawItem::Clear => *self = DrawLayer::default(),
            DrawItem::Cell { pos, value, color } => {
                match self.cells.iter_mut().find(|(p, _, _)| p == pos) {
                    Some(cell) => {
                        cell.1 = value.or(cell.1);
                        cell.2 = color.or(cell.2);
                    }
                    None => self.cells.push((*pos, *value, *color)),
                }
            }
            DrawItem::Arrow { from, to, color } => {
                if self.arrows.len() < MAX_ARROWS {
                    self.arrows.push((*from, *to, *color));
                }
            }
            DrawItem::Label { pos, text } => match self.labels.iter_mut().find(|(p, _)| p == pos) {
                Some(label) => label.1 = text.clone(),
                None => self.labels.push((*pos, text.clone())),
            },
            DrawItem::Legend(text) => self.legend = Some(text.clone()),
        }
    }

    /// Whether nothing is drawn.
    pub fn is_empty(&self) -> bool {
        *self == DrawLayer::default()
    }
}
