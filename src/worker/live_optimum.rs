//! The optimum of a position on a worker thread, for the views that follow the board as it
//! changes: the editor's live optimum (the optimal move count, then how many optimal solutions
//! there are when that is cheap to count) and play mode's hot/cold line (the move count alone).
//!
//! The solve is the `fast` solver's, within a time and a memory limit; the count that follows
//! is capped and has a time budget of its own, so a board with thousands of optimal solutions
//! still answers at once. Dropping the task (the next edit does) stops both at their next poll.

use super::{Task, Waker, spawn_task};
use crate::model::Puzzle;
use crate::solver::analysis::all_solutions::list_optimal;
use crate::solver::{Limits, NoProbe, Outcome, SolverId, SolverOptions, Stop};
use std::time::{Duration, Instant};

/// The limits of one live solve and of the count after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveLimits {
    /// The time the solve may take before it gives up.
    pub time: Duration,
    /// The memory the solver's tables may take, in bytes.
    pub memory_bytes: usize,
    /// The most optimal solutions counted; `None` skips the count.
    pub count_cap: Option<usize>,
    /// The time the count may take after the solve.
    pub count_time: Duration,
}

impl Default for LiveLimits {
    /// Ten seconds and 1 GiB for the solve; up to 100 solutions counted within two seconds.
    fn default() -> Self {
        LiveLimits {
            time: Duration::from_secs(10),
            memory_bytes: 1 << 30,
            count_cap: Some(100),
            count_time: Duration::from_secs(2),
        }
    }
}

/// What the solve of a position found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveOutcome {
    /// The optimal solution takes this many moves.
    Optimum {
        /// The optimal move count.
        moves: usize,
    },
    /// No sequence of moves reaches the target.
    Unsolvable,
    /// A limit stopped the solve before it knew.
    GaveUp {
        /// Which limit.
        stop: Stop,
    },
    /// The solver refused the position or failed; the sentence says why.
    Failed(String),
}

/// How many optimal solutions the count found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolutionCount {
    /// Solutions found.
    pub found: usize,
    /// Whether they are all of them (false when the cap or the time budget stopped the count).
    pub complete: bool,
}

/// One message of a live-optimum task: the solve's outcome first, then (for an optimum, when a
/// count was asked for) the count, which is the task's last message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveMessage {
    /// The solve ended after `elapsed`; `last` says whether a count follows.
    Solved {
        /// What it found.
        outcome: LiveOutcome,
        /// How long it took.
        elapsed: Duration,
        /// Whether this is the task's last message.
        last: bool,
    },
    /// The optimal solutions counted.
    Counted(SolutionCount),
}

impl LiveMessage {
    /// Whether this is the task's last message.
    pub fn is_last(&self) -> bool {
        match self {
            LiveMessage::Solved { last, .. } => *last,
            LiveMessage::Counted(_) => true,
        }
    }
}

/// Solves `puzzle` with the `fast` solver within `limits`, then counts its optimal solutions
/// when `limits.count_cap` asks for it, on a thread named `name`. Dropping or cancelling the
/// returned task stops the work at its next poll (the solver polls within milliseconds).
pub fn spawn_live_optimum(
    name: &str,
    puzzle: Puzzle,
    limits: LiveLimits,
    waker: Waker,
) -> std::io::Result<Task<LiveMessage>> {
    // Room for both messages, so that the thread never waits on the reader.
    spawn_task(name.to_string(), waker, 2, move |link| {
        let started = Instant::now();
        let solve_limits = Limits {
            time: Some(limits.time),
            memory_bytes: Some(limits.memory_bytes),
            cancel: Some(link.cancel.clone()),
        };
        let outcome = match crate::solver::run(
            SolverId::Fast,
            &puzzle,
            &SolverOptions::default(),
            &solve_limits,
            &mut NoProbe,
        ) {
            Ok(report) => outcome_of(&report.outcome),
            Err(error) => LiveOutcome::Failed(error.to_string()),
        };
        let elapsed = started.elapsed();
        // A cancelled solve has nobody to tell.
        if link.is_cancelled() {
            return;
        }
        let count = match (&outcome, limits.count_cap) {
            (LiveOutcome::Optimum { moves }, Some(cap)) => Some((*moves, cap)),
            _ => None,
        };
        link.send(
            LiveMessage::Solved {
                outcome,
                elapsed,
                last: count.is_none(),
            },
            Duration::ZERO,
        );
        let Some((moves, cap)) = count else {
            return;
        };
        let count_limits = Limits {
            time: Some(limits.count_time),
            memory_bytes: None,
            cancel: Some(link.cancel.clone()),
        };
        // One thread: the count is an extra, and the cores are the user's.
        let listing = list_optimal(
            &puzzle,
            moves as u32,
            cap,
            Some(1),
            &count_limits,
            &mut NoProbe,
        );
        link.send(
            LiveMessage::Counted(SolutionCount {
                found: listing.solutions.len(),
                complete: listing.complete,
            }),
            Duration::ZERO,
        );
    })
}

/// The live view of a solver's outcome.
fn outcome_of(outcome: &Outcome) -> LiveOutcome {
    match outcome {
        Outcome::Solved { moves } => LiveOutcome::Optimum { moves: moves.len() },
        Outcome::Unsolvable { within: None } => LiveOutcome::Unsolvable,
        Outcome::Unsolvable {
            within: Some(depth),
        } => LiveOutcome::Failed(format!("no solution within {depth} moves")),
        Outcome::Cancelled => LiveOutcome::GaveUp {
            stop: Stop::Cancelled,
        },
        Outcome::TimeLimit => LiveOutcome::GaveUp {
            stop: Stop::TimeLimit,
        },
        Outcome::MemoryLimit => LiveOutcome::GaveUp {
            stop: Stop::MemoryLimit,
        },
        Outcome::NotFound => LiveOutcome::Failed("the solver found no solution".into()),
        Outcome::Invalid { .. } => {
            LiveOutcome::Failed("the solver's answer failed its replay".into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::formats::game_id;
    use crate::model::samples;
    use std::sync::Arc;

    fn messages(task: &Task<LiveMessage>) -> Vec<LiveMessage> {
        let mut got = Vec::new();
        while let Ok(message) = task.recv_timeout(Duration::from_secs(120)) {
            let last = message.is_last();
            got.push(message);
            if last {
                break;
            }
        }
        got
    }

    #[test]
    fn the_optimum_comes_first_then_the_count() {
        let task = spawn_live_optimum(
            "live-test",
            samples::fogleman_22(),
            LiveLimits::default(),
            Arc::new(|_| {}),
        )
        .unwrap();
        let got = messages(&task);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(matches!(
            &got[0],
            LiveMessage::Solved {
                outcome: LiveOutcome::Optimum { moves: 22 },
                last: false,
                ..
            }
        ));
        let LiveMessage::Counted(count) = got[1] else {
            panic!("{got:?}");
        };
        assert!(count.found >= 1, "{count:?}");
    }

    #[test]
    fn without_a_count_the_solve_is_the_last_message() {
        let limits = LiveLimits {
            count_cap: None,
            ..LiveLimits::default()
        };
        let task = spawn_live_optimum(
            "live-test",
            samples::fogleman_22(),
            limits,
            Arc::new(|_| {}),
        )
        .unwrap();
        let got = messages(&task);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].is_last());
    }

    #[test]
    fn a_time_limit_gives_up_and_says_which_limit() {
        // The deck's hard game takes the fast solver far longer than a millisecond.
        let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
        let limits = LiveLimits {
            time: Duration::from_millis(1),
            ..LiveLimits::default()
        };
        let task = spawn_live_optimum("live-test", puzzle, limits, Arc::new(|_| {})).unwrap();
        let got = messages(&task);
        assert!(
            matches!(
                &got[..],
                [LiveMessage::Solved {
                    outcome: LiveOutcome::GaveUp {
                        stop: Stop::TimeLimit
                    },
                    last: true,
                    ..
                }]
            ),
            "{got:?}"
        );
    }

    #[test]
    fn a_dropped_task_stops_without_an_answer() {
        let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
        let task = spawn_live_optimum("live-test", puzzle, LiveLimits::default(), Arc::new(|_| {}))
            .unwrap();
        task.cancel();
        let started = Instant::now();
        assert!(task.recv_timeout(Duration::from_secs(10)).is_err());
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
