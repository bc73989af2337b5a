//! The exact distance map on a worker thread: a bounded breadth-first search over game states
//! from one position, with its progress (finished levels, states, memory) sent as it goes and
//! the map sent once at the end.

use super::{Task, TaskLink, Waker, spawn_task};
use crate::model::Puzzle;
use crate::solver::analysis::distances::{DistanceMap, distance_map};
use crate::solver::{DepthStats, Limits, Probe};
use std::time::{Duration, Instant};

/// How far a distance-map search has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DistanceProgress {
    /// Levels (move counts) finished.
    pub levels: u32,
    /// Game states generated so far.
    pub states: u64,
    /// The memory estimate, in bytes.
    pub memory_bytes: usize,
}

/// What a distance-map task sends: progress while it runs, then the map.
#[derive(Clone, Debug)]
pub enum DistanceNews {
    /// The search is this far.
    Progress(DistanceProgress),
    /// The search ended (finished, limited or cancelled): the levels that finished.
    Done(Box<DistanceMap>),
}

/// The interval between progress messages, so that a fast search does not flood the channel.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// Publishes the search's progress over the task's channel, at most every
/// [`PROGRESS_INTERVAL`] and at every finished level.
struct ProgressProbe<'a> {
    link: &'a TaskLink<DistanceNews>,
    progress: DistanceProgress,
    last_sent: Instant,
}

impl ProgressProbe<'_> {
    fn publish(&mut self) {
        self.last_sent = Instant::now();
        self.link
            .send(DistanceNews::Progress(self.progress), Duration::ZERO);
    }
}

impl Probe for ProgressProbe<'_> {
    fn depth_finished(&mut self, _stats: &DepthStats) {
        self.progress.levels += 1;
        self.publish();
    }

    fn progress(&mut self, nodes: u64, memory_bytes: usize) {
        self.progress.states = nodes;
        self.progress.memory_bytes = memory_bytes;
        if self.last_sent.elapsed() >= PROGRESS_INTERVAL {
            self.publish();
        }
    }

    fn should_stop(&mut self) -> bool {
        self.link.is_cancelled()
    }
}

/// Starts the exact distance map of `puzzle` to `max_depth` moves on a thread named
/// `distances`, within `memory_bytes`. Cancelling or dropping the task stops the search at
/// its next poll; it then sends the levels that finished.
pub fn spawn_distance_map(
    puzzle: Puzzle,
    max_depth: u32,
    memory_bytes: usize,
    waker: Waker,
) -> std::io::Result<Task<DistanceNews>> {
    // Room for a burst of progress while the user interface is between frames.
    spawn_task("distances".to_string(), waker, 64, move |link| {
        let limits = Limits {
            time: None,
            memory_bytes: Some(memory_bytes),
            cancel: Some(link.cancel.clone()),
        };
        let mut probe = ProgressProbe {
            link: &link,
            progress: DistanceProgress::default(),
            last_sent: Instant::now(),
        };
        let map = distance_map(&puzzle, max_depth, &limits, &mut probe);
        link.send(DistanceNews::Done(Box::new(map)), Duration::ZERO);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use crate::solver::Stop;
    use std::sync::Arc;

    fn finish(task: &Task<DistanceNews>) -> (DistanceMap, Vec<DistanceProgress>) {
        let mut progress = Vec::new();
        loop {
            match task.recv_timeout(Duration::from_secs(120)) {
                Ok(DistanceNews::Progress(p)) => progress.push(p),
                Ok(DistanceNews::Done(map)) => return (*map, progress),
                Err(error) => panic!("no map: {error}"),
            }
        }
    }

    #[test]
    fn a_task_reports_each_level_and_sends_the_map_of_a_direct_run() {
        let puzzle = samples::fogleman_22();
        let task = spawn_distance_map(puzzle.clone(), 5, 1 << 30, Arc::new(|_| {})).unwrap();
        let (map, progress) = finish(&task);
        let direct = distance_map(&puzzle, 5, &Limits::default(), &mut crate::solver::NoProbe);
        assert_eq!(map.robots, direct.robots);
        assert_eq!(map.depth, 5);
        assert_eq!(
            progress.last().map(|p| p.levels),
            Some(map.levels.len() as u32)
        );
    }

    #[test]
    fn a_cancelled_task_stops_and_keeps_the_finished_levels() {
        let puzzle = samples::fogleman_22();
        let task = spawn_distance_map(puzzle, 30, 8 << 30, Arc::new(|_| {})).unwrap();
        std::thread::sleep(Duration::from_millis(50));
        task.cancel();
        let (map, _) = finish(&task);
        assert_eq!(map.stopped, Some(Stop::Cancelled));
        assert!(map.depth < 30);
    }
}
