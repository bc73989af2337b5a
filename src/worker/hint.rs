//! Hints on a worker thread: the hint is computed off the user interface's thread and comes
//! back over the task's channel. Cancelling or dropping the task stops the search within
//! milliseconds, in the solve and in the search for the first solution after it alike; a
//! stopped hint comes back as [`Hint::Stopped`], never as a part of an answer.

use super::{Task, Waker, spawn_task};
use crate::model::Puzzle;
use crate::solver::analysis::all_solutions::EnumerateError;
use crate::solver::analysis::hints::{self, Hint, HintLevel};
use crate::solver::{Limits, NoProbe, Report};
use std::time::Duration;

/// What a hint task sends: the hint, or why it could not be computed. A task asked for more
/// than the move count that solves first sends the move count as soon as the solve ends (a
/// [`HintAnswer::partial`] answer), then the hint asked for.
pub type HintResult = Result<HintAnswer, EnumerateError>;

/// A hint with the solve the task made on the way (none when it started from a known run),
/// for a later level of the same position to start from.
#[derive(Clone, Debug)]
pub struct HintAnswer {
    /// The hint.
    pub hint: Hint,
    /// The solve made for it.
    pub solve: Option<Report>,
    /// Whether this is the move count alone, sent while the search for the level asked for
    /// goes on: the task's last message is the answer that is not partial.
    pub partial: bool,
}

/// Starts computing the whole hint of `puzzle` (every level) on a thread named `hint`, within
/// `time_limit`. Dropping or cancelling the returned task stops the search at its next poll.
pub fn spawn_hint(
    puzzle: Puzzle,
    time_limit: Option<Duration>,
    waker: Waker,
) -> std::io::Result<Task<HintResult>> {
    spawn_hint_at(puzzle, HintLevel::Solution, None, time_limit, waker)
}

/// Starts computing what the hint at `level` shows (see [`hints::hint_at`]) on a thread named
/// `hint`, within `time_limit`. `known` is a finished run of the same puzzle to start from (a
/// board's finished solve): with a reusable one, level 1 answers at once and the other levels
/// skip the solve. Dropping or cancelling the returned task stops the search at its next poll.
pub fn spawn_hint_at(
    puzzle: Puzzle,
    level: HintLevel,
    known: Option<Report>,
    time_limit: Option<Duration>,
    waker: Waker,
) -> std::io::Result<Task<HintResult>> {
    // Room for the move count and the answer, so that the thread never waits on the reader.
    spawn_task("hint".to_string(), waker, 2, move |link| {
        let limits = Limits {
            time: time_limit,
            memory_bytes: None,
            cancel: Some(link.cancel.clone()),
        };
        let send_move_count = |moves: usize, solve: &Report| {
            link.send(
                Ok(HintAnswer {
                    hint: Hint::MoveCount { moves },
                    solve: Some(solve.clone()),
                    partial: true,
                }),
                Duration::ZERO,
            );
        };
        let answer = hints::hint_in_steps(
            &puzzle,
            level,
            known.as_ref(),
            &limits,
            &mut NoProbe,
            send_move_count,
        )
        .map(|(hint, solve)| HintAnswer {
            hint,
            solve,
            partial: false,
        });
        link.send(answer, Duration::ZERO);
    })
}
