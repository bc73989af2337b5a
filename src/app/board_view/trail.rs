//! A slide as the board draws it, shared by the board widget, the overlays, play, playback
//! and the debugger.

use crate::model::{Pos, RobotColor};

/// A straight slide drawn on the board: a move already made, or one of a solution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trail {
    /// The robot that slid.
    pub(crate) color: RobotColor,
    /// Where it started.
    pub(crate) from: Pos,
    /// Where it stopped.
    pub(crate) to: Pos,
    /// How strongly to draw it (1 for the current move, less for others).
    pub(crate) emphasis: f32,
    /// Its number in the sequence, drawn beside it when given.
    pub(crate) number: Option<usize>,
}
