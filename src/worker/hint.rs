//! Hints on a worker thread: the optimal solutions of a position are listed off the user
//! interface's thread, and the hint read from them comes back over the task's channel.

use super::{Task, Waker, spawn_answer};
use crate::model::Puzzle;
use crate::solver::NoProbe;
use crate::solver::analysis::hints::{self, Hint};
use std::time::Duration;

/// What a hint task sends once: the hint, or why it could not be computed.
pub type HintResult = Result<Hint, String>;

/// Starts computing the hint of `puzzle` on a thread named `hint`, within `time_limit`.
/// Dropping or cancelling the returned task stops the search at its next poll.
pub fn spawn_hint(
    puzzle: Puzzle,
    time_limit: Option<Duration>,
    waker: Waker,
) -> std::io::Result<Task<HintResult>> {
    spawn_answer("hint", waker, time_limit, move |limits| {
        hints::hint(&puzzle, limits, &mut NoProbe).map_err(|e| e.to_string())
    })
}
