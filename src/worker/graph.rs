//! The editor's slide graph on a worker thread: a [`GraphTracker`] is handed over with the
//! board and robots it is to follow, brought up to date there, and handed back as one message.
//!
//! An update is bounded by the board's size (a fresh build is O(n²) for an n×n board, at most
//! 64×64; moving a robot is O(n)), so it does not poll the cancel flag: a cancelled or dropped
//! task's thread ends with its update, and what it sends is dropped.

use super::{Task, Waker, spawn_answer};
use crate::model::{Board, Cell};
use crate::solver::graph_tracker::GraphTracker;

/// Brings `tracker` up to `board` and `robots` (see [`GraphTracker::follow`]) on a thread named
/// `graph-tracker`, and sends it back.
pub fn spawn_graph_update(
    tracker: GraphTracker,
    board: Board,
    robots: Vec<Cell>,
    waker: Waker,
) -> std::io::Result<Task<Box<GraphTracker>>> {
    spawn_answer("graph-tracker", waker, None, move |_limits| {
        let mut tracker = tracker;
        tracker.follow(&board, &robots);
        Box::new(tracker)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_task_sends_the_tracker_brought_up_to_the_board() {
        let puzzle = samples::fogleman_22();
        let board = puzzle.board().clone();
        let robots: Vec<Cell> = puzzle.robots().iter().map(|r| board.cell(r.pos)).collect();
        let task = spawn_graph_update(
            GraphTracker::default(),
            board.clone(),
            robots.clone(),
            Arc::new(|_| {}),
        )
        .unwrap();
        let tracker = task
            .recv_timeout(Duration::from_secs(10))
            .expect("an answer");
        let mut direct = GraphTracker::default();
        direct.follow(&board, &robots);
        assert_eq!(tracker.edges(), direct.edges());
        assert_eq!(tracker.edges().len(), board.cell_count());
    }

    /// Measures what handing an update to the worker costs the caller (the board cloned and a
    /// thread started) on a 16x16 and a 64x64 board, best of many, beside the update itself
    /// (`graph_tracker::tests::tracker_update_times`). Prints the times.
    #[test]
    #[ignore = "a measurement: run with --ignored --nocapture"]
    fn handing_over_an_update_times() {
        use crate::model::random::random_puzzle;
        use std::time::Instant;
        for side in [16, 64] {
            let puzzle = random_puzzle(side, side, 5, 6, 3).unwrap();
            let board = puzzle.board();
            let robots: Vec<Cell> = puzzle.robots().iter().map(|r| board.cell(r.pos)).collect();
            let mut best = Duration::MAX;
            for _ in 0..100 {
                let start = Instant::now();
                let task = spawn_graph_update(
                    GraphTracker::default(),
                    board.clone(),
                    robots.clone(),
                    Arc::new(|_| {}),
                )
                .unwrap();
                best = best.min(start.elapsed());
                let tracker = task
                    .recv_timeout(Duration::from_secs(10))
                    .expect("an answer");
                assert_eq!(tracker.edges().len(), board.cell_count());
            }
            println!("{side}x{side}: handing over {best:?}");
        }
    }
}
