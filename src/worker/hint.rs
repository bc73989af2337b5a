//! Hints on a worker thread: the optimal solutions of a position are listed off the user
//! interface's thread, and the hint read from them comes back over the task's channel.

use super::{Task, Waker, spawn_task};
use crate::model::Puzzle;
use crate::solver::hints::{self, Hint};
use crate::solver::{Limits, NoProbe};
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
    spawn_task("hint".to_string(), waker, 1, move |link| {
        let limits = Limits {
            time: time_limit,
            memory_bytes: None,
            cancel: Some(link.cancel.clone()),
        };
        let result = hints::hint(&puzzle, &limits, &mut NoProbe).map_err(|e| e.to_string());
        link.send(result, Duration::ZERO);
    })
}
