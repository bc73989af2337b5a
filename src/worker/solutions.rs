//! Every optimal solution on a worker thread: once a solver has found the optimal length, the
//! listing runs off the user interface's thread and comes back over the task's channel.

use super::{Task, Waker, spawn_answer};
use crate::model::Puzzle;
use crate::solver::NoProbe;
use crate::solver::all_solutions::{Listing, list_optimal};
use std::time::Duration;

/// Starts listing the solutions of exactly `depth` moves (the optimal length) of `puzzle`, at
/// most `max_solutions`, on a thread named `solutions`. Cancelling or dropping the task stops
/// the listing at its next poll; it then sends what it found.
pub fn spawn_listing(
    puzzle: Puzzle,
    depth: u32,
    max_solutions: usize,
    time_limit: Option<Duration>,
    waker: Waker,
) -> std::io::Result<Task<Listing>> {
    spawn_answer("solutions", waker, time_limit, move |limits| {
        list_optimal(&puzzle, depth, max_solutions, limits, &mut NoProbe)
    })
}
