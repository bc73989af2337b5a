//! Whether the board is being designed or played: read by every room, so it sits below them.

use serde::{Deserialize, Serialize};

/// What clicks and keys on the board do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// Designing the board.
    #[default]
    Edit,
    /// Playing it: select robots and slide them.
    Play,
}
