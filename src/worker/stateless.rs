//! The Stateless solver's stores for the overlays, on a worker thread: the whole run on the
//! board is computed off the user interface's thread and comes back as one message.
//! Cancelling or dropping the task stops the run at its next poll; a stopped run sends why,
//! never stores half built.

use super::{Task, Waker, spawn_answer};
use crate::model::Puzzle;
use crate::solver::Stop;
use crate::solver::stateless::{StatelessStores, compute_stores};

/// What a stores task sends once: the stores of the whole run, or why it stopped.
pub type StoresResult = Result<Box<StatelessStores>, Stop>;

/// Starts the Stateless run of `puzzle` to its end on a thread named `stateless-stores`.
/// Dropping or cancelling the returned task stops the run at its next poll.
pub fn spawn_stateless_stores(puzzle: Puzzle, waker: Waker) -> std::io::Result<Task<StoresResult>> {
    spawn_answer("stateless-stores", waker, None, move |limits| {
        compute_stores(&puzzle, limits).map(Box::new)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use crate::solver::Limits;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_task_sends_the_stores_of_a_direct_run() {
        let puzzle = samples::fogleman_22();
        let task = spawn_stateless_stores(puzzle.clone(), Arc::new(|_| {})).unwrap();
        let stores = task
            .recv_timeout(Duration::from_secs(120))
            .expect("an answer")
            .expect("a whole run");
        let direct = compute_stores(&puzzle, &Limits::default()).unwrap();
        assert_eq!(stores.finals().len(), direct.finals().len());
        assert_eq!(stores.fields().len(), direct.fields().len());
    }
}
