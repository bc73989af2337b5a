//! Every optimal solution on a worker thread: once a solver has found the optimal length, the
//! listing runs off the user interface's thread (no second solve: the length is given) and
//! comes back over the task's channel, with a node count the interface can read meanwhile.

use super::{PROGRESS_REPAINT_DELAY, PUBLISH_INTERVAL, Task, TaskLink, Waker, spawn_task};
use crate::model::Puzzle;
use crate::solver::analysis::all_solutions::{Listing, list_optimal};
use crate::solver::{Limits, Probe};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a running listing has done so far, readable at any moment.
#[derive(Debug, Default)]
pub struct ListingProgress {
    nodes: AtomicU64,
}

impl ListingProgress {
    /// Nodes the listing has visited (published a few times a second).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// A listing under way: its task, which sends the listing once, and its progress.
pub struct ListingTask {
    /// The task; its one message is the listing.
    pub task: Task<Listing>,
    /// The nodes visited so far.
    pub progress: Arc<ListingProgress>,
    /// When it started, for the time shown while it runs.
    pub started: Instant,
}

/// Publishes the listing's node count and wakes the interface, a few times a second.
struct ProgressProbe<'l> {
    progress: Arc<ListingProgress>,
    link: &'l TaskLink<Listing>,
    last_publish: Instant,
}

impl Probe for ProgressProbe<'_> {
    fn progress(&mut self, nodes: u64, _memory_bytes: usize) {
        let now = Instant::now();
        if now.duration_since(self.last_publish) >= PUBLISH_INTERVAL {
            self.last_publish = now;
            self.progress.nodes.store(nodes, Ordering::Relaxed);
            self.link.wake(PROGRESS_REPAINT_DELAY);
        }
    }
}

/// Starts listing the solutions of exactly `depth` moves (the optimal length) of `puzzle`, at
/// most `max_solutions`, on a thread named `solutions`. Cancelling or dropping the task stops
/// the listing at its next poll; it then sends what it found.
pub fn spawn_listing(
    puzzle: Puzzle,
    depth: u32,
    max_solutions: usize,
    time_limit: Option<Duration>,
    waker: Waker,
) -> std::io::Result<ListingTask> {
    let progress = Arc::new(ListingProgress::default());
    let published = Arc::clone(&progress);
    let task = spawn_task("solutions".to_string(), waker, 1, move |link| {
        let limits = Limits {
            time: time_limit,
            memory_bytes: None,
            cancel: Some(link.cancel.clone()),
        };
        let mut probe = ProgressProbe {
            progress: published,
            link: &link,
            last_publish: Instant::now(),
        };
        let listing = list_optimal(&puzzle, depth, max_solutions, None, &limits, &mut probe);
        probe.progress.nodes.store(listing.nodes, Ordering::Relaxed);
        link.send(listing, Duration::ZERO);
    })?;
    Ok(ListingTask {
        task,
        progress,
        started: Instant::now(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::formats::game_id;
    use crate::solver::Stop;

    #[test]
    fn a_stopped_listing_hands_back_what_it_found_and_its_progress() {
        // The deck's hard game: listing its optimal solutions takes far longer than this test.
        let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
        let listing = spawn_listing(puzzle, 20, 1_000, None, Arc::new(|_| {})).unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while listing.progress.nodes() == 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(
            listing.progress.nodes() > 0,
            "progress is published while it runs"
        );
        listing.task.cancel();
        let result = listing
            .task
            .recv_timeout(Duration::from_secs(30))
            .expect("a stopped listing still answers");
        assert_eq!(result.stopped, Some(Stop::Cancelled));
        assert!(!result.complete);
        assert_eq!(listing.progress.nodes(), result.nodes);
    }
}
