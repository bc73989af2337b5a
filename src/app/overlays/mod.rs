//! Overlay layers on the board: pure functions from a board and a snapshot of a search (or of
//! the slide graph) to drawable data in board coordinates, then one painter that turns that data
//! into shapes through the board's transform.
//!
//! The layers: minimum-move values as a heat map, the slide graph's edges (all cells or one,
//! with the edges changed by the last update), the stateless solver's states per cell, how
//! often the search put the active robot on each cell, and the path of a sequence of moves.
//! `assembly` puts the layers that are on together each frame; [`panel`] is the dock's
//! Overlays tab; `distance_map` computes the exact distance map its layer draws and
//! `stateless_stores` the stores the stateless layer draws, both on worker threads.

pub(super) mod assembly;
pub mod cell_texts;
pub(super) mod distance_map;
pub(super) mod layers;
mod paint;
pub mod panel;
pub(super) mod stateless_stores;

pub(super) use paint::{overlay_shapes, overlay_text_shapes};

use crate::app::board_paint::trail::Trail;
use crate::app::theme::Palette;
use crate::model::{Direction, Pos, RobotColor};
use serde::{Deserialize, Serialize};

/// Which overlays are on; kept between runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OverlaySettings {
    /// The minimum-move map: its numbers in every cell and its heat tint.
    pub min_moves: bool,
    /// The chosen solver's heuristic (h) per cell for the target's robot.
    pub heuristic: bool,
    /// The stateless layer shows only this robot's states (all robots' when `None`).
    pub(super) stateless_robot: Option<RobotColor>,
    /// Which of the stateless solver's states it shows.
    pub(super) stateless_kinds: StatelessKinds,
    /// The slide graph's edges.
    pub graph_edges: bool,
    /// The edges of every cell (otherwise only of the hovered cell).
    pub graph_all_cells: bool,
    /// The stateless solver's states per cell.
    pub stateless: bool,
    /// How often the search put the active robot on each cell.
    pub search_heat: bool,
    /// The last solution's moves as arrows.
    pub(super) solution_path: bool,
    /// The exact distance map of one robot from the current position.
    pub(super) exact_distances: bool,
    /// The robot whose exact distances are shown (the position's first robot when `None`).
    pub(super) exact_robot: Option<RobotColor>,
    /// How many moves deep the exact distance map searches.
    pub(super) exact_depth: u32,
    /// The memory the exact distance map's search may use, in MiB.
    pub(super) exact_memory_mib: u32,
    /// What an engine drew with its `draw` lines.
    pub(super) engine_drawing: bool,
}

impl Default for OverlaySettings {
    fn default() -> Self {
        OverlaySettings {
            min_moves: false,
            heuristic: false,
            stateless_robot: None,
            stateless_kinds: StatelessKinds::default(),
            graph_edges: false,
            graph_all_cells: false,
            stateless: false,
            search_heat: false,
            // On, so that a solution played back shows its path until this is unticked.
            solution_path: true,
            exact_distances: false,
            exact_robot: None,
            exact_depth: crate::solver::analysis::distances::DEFAULT_MAX_DEPTH,
            exact_memory_mib: distance_map::DEFAULT_MEMORY_MIB,
            // On, so that an engine that draws is seen to draw.
            engine_drawing: true,
        }
    }
}

/// Which of the stateless solver's states the layer shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(in crate::app) struct StatelessKinds {
    /// Final states: where a robot can stop, after how many moves.
    finals: bool,
    /// Intermediate states: where a robot passes, moving in a direction.
    pub(super) intermediates: bool,
}

impl Default for StatelessKinds {
    fn default() -> Self {
        // The final states alone are readable on a full board; intermediates are asked for.
        StatelessKinds {
            finals: true,
            intermediates: false,
        }
    }
}

/// What the stateless layer draws: one robot's states or every robot's, and which kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct StatelessFilter {
    /// Only this robot's states, when given.
    robot: Option<RobotColor>,
    /// Which kinds.
    kinds: StatelessKinds,
}

impl StatelessFilter {
    /// Everything: every robot, both kinds.
    #[cfg(test)]
    const ALL: StatelessFilter = StatelessFilter {
        robot: None,
        kinds: StatelessKinds {
            finals: true,
            intermediates: true,
        },
    };

    /// The filter the settings describe.
    fn of(settings: &OverlaySettings) -> StatelessFilter {
        StatelessFilter {
            robot: settings.stateless_robot,
            kinds: settings.stateless_kinds,
        }
    }

    fn shows(&self, color: RobotColor) -> bool {
        self.robot.is_none_or(|robot| robot == color)
    }
}

/// What a heat fill measures: each has its own colour ramp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum HeatKind {
    /// Few moves to the target: hot.
    MinMoves,
    /// Often visited by the search: hot.
    Search,
    /// A colour an engine gave the cell.
    Drawn(egui::Color32),
}

/// A cell tinted by a value scaled to 0..=1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct CellFill {
    /// The cell.
    pub(super) pos: Pos,
    /// The ramp.
    pub(super) kind: HeatKind,
    /// Where on the ramp, from 0 (cold) to 1 (hot).
    pub(super) level: f32,
}

/// A short text in a cell. The painter shares a cell out among its texts (see
/// [`cell_texts`]' notes), so texts of several layers in one cell never meet.
#[derive(Clone, Debug, PartialEq)]
pub struct CellText {
    /// The cell.
    pub pos: Pos,
    /// The corner the text keeps when the cell's texts share it out in quarters: 0 top left,
    /// 1 top right, 2 bottom left, 3 bottom right; 4 for none.
    pub(super) line: u8,
    /// The text.
    pub text: String,
    /// Drawn in a robot's colour, or in the board's text colour.
    pub(super) color: Option<RobotColor>,
    /// What the text is, for the cell's hover details ("Minimum moves", "bfs-py's value").
    pub(super) what: std::borrow::Cow<'static, str>,
    /// Whether a text too large for its place shows as a dot there (where each text is worth
    /// noticing), or is left out (where every cell has one, and the dots would be noise).
    pub(super) dot_when_cramped: bool,
}

/// What the stateless layer's final-state numbers are, in a cell's hover details.
pub(in crate::app) const STATELESS_FINAL: &str = "Final state, moves";

/// What the stateless layer's intermediate-state marks are, in a cell's hover details.
pub(in crate::app) const STATELESS_INTERMEDIATE: &str = "Intermediate states";

/// Whether a text is the stateless layer's, whose states the hover details can also list in
/// words.
pub(in crate::app) fn is_stateless_text(text: &CellText) -> bool {
    text.what == STATELESS_FINAL || text.what == STATELESS_INTERMEDIATE
}

/// How an arrow between two cells is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ArrowKind {
    /// A slide-graph edge.
    Edge,
    /// An edge the last update created or redirected (to its new child).
    Changed,
    /// Where a changed edge pointed before (to its old child).
    Removed,
    /// An arrow an engine drew, in its colour.
    Drawn(egui::Color32),
}

/// An arrow from a cell to a cell, drawn along `dir` and shifted to that direction's lane so
/// that opposite edges between the same cells do not cover each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Arrow {
    /// Where it starts.
    from: Pos,
    /// Where it ends.
    to: Pos,
    /// The edge's direction.
    dir: Direction,
    /// How it is drawn.
    kind: ArrowKind,
}

/// Everything the overlays draw in one frame, in board terms.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OverlayDrawing {
    /// Cell tints, drawn first.
    pub(super) fills: Vec<CellFill>,
    /// Arrows.
    arrows: Vec<Arrow>,
    /// Texts, drawn last.
    pub texts: Vec<CellText>,
    /// Paths of moves, drawn as the board's trails.
    pub trails: Vec<Trail>,
    /// Cells outlined as needing attention (where a robot needs helpers), drawn over fills.
    outlines: Vec<Pos>,
}

impl OverlayDrawing {
    /// Adds another layer's data on top of this one's.
    fn extend(&mut self, other: OverlayDrawing) {
        self.fills.extend(other.fills);
        self.arrows.extend(other.arrows);
        self.texts.extend(other.texts);
        self.trails.extend(other.trails);
        self.outlines.extend(other.outlines);
    }

    /// Whether there is nothing to draw.
    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.fills.is_empty()
            && self.arrows.is_empty()
            && self.texts.is_empty()
            && self.trails.is_empty()
            && self.outlines.is_empty()
    }
}

/// The legend of the overlays that are on: a colour sample and what it means, layer by layer
/// in `layers::LAYERS` order.
fn legend(settings: &OverlaySettings, palette: &Palette) -> Vec<(egui::Color32, &'static str)> {
    layers::LAYERS
        .iter()
        .filter(|layer| layer.is_on(settings))
        .flat_map(|layer| layer.legend(palette))
        .collect()
}
