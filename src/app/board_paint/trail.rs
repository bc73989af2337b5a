//! A slide as the board draws it, shared by the board widget, the overlays, play, playback
//! and the debugger.

use crate::model::{Pos, RobotColor};

/// A straight slide drawn on the board: a move already made, or one of a solution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trail {
    /// The robot that slid.
    pub(in crate::app) color: RobotColor,
    /// Where it started.
    pub(in crate::app) from: Pos,
    /// Where it stopped.
    pub(in crate::app) to: Pos,
    /// How strongly to draw it (1 for the current move, less for others).
    pub(in crate::app) emphasis: f32,
    /// Its number in the sequence, drawn beside it when given.
    pub(in crate::app) number: Option<usize>,
}
