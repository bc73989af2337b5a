//! What the board is drawn with, shared by the board widget ([`crate::app::board_view`]),
//! the overlays and the debugger: the transform between board and screen and the hit test
//! ([`geometry`]), the robots as drawn, and the slides and their paint ([`trail`]).

pub mod geometry;
pub mod trail;
mod trail_paint;

use crate::model::{Pos, RobotColor};
use egui::{Pos2, pos2};

pub use geometry::{BoardGeometry, EDGE_TOLERANCE, Hit, hit_test};
pub use trail::Trail;
pub use trail_paint::{disc_place, trail_shapes};

/// A robot as drawn: its colour and its centre in board coordinates (between cells while it
/// slides).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RobotSprite {
    /// Its colour.
    pub(in crate::app) color: RobotColor,
    /// Its centre in board coordinates.
    pub(in crate::app) center: Pos2,
}

impl RobotSprite {
    /// A robot standing still on a cell.
    pub(in crate::app) fn at(color: RobotColor, pos: Pos) -> RobotSprite {
        RobotSprite {
            color,
            center: cell_center(pos),
        }
    }
}

/// The centre of a cell in board coordinates.
pub(in crate::app) fn cell_center(pos: Pos) -> Pos2 {
    pos2(f32::from(pos.x) + 0.5, f32::from(pos.y) + 0.5)
}
