//! The board analyser on a worker thread: [`crate::study::analyze`] runs on a thread named
//! `analyze` (its solves on a pool of its own, joined before it returns), sending how many
//! positions are done as they finish and the analysis at the end.

use super::{Task, Waker, spawn_task};
use crate::model::Puzzle;
use crate::study::analyze::{Analysis, AnalyzeConfig, AnalyzeError, analyze, takeable};
use std::time::{Duration, Instant};

/// What an analysis task sends.
#[derive(Debug)]
pub enum AnalysisNews {
    /// This many of the positions are solved.
    Progress {
        /// Positions finished.
        done: u64,
        /// Positions in the run.
        total: u64,
    },
    /// The run ended: the analysis (cancelled runs keep what finished), or why it could not run.
    Done(Result<Box<Analysis>, AnalyzeError>),
}

/// The interval between progress messages.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(50);

/// Starts analysing the board of `puzzle` with `config` on a thread named `analyze`.
/// Cancelling or dropping the task stops the solves within a poll interval; the task then
/// sends the positions that finished.
pub fn spawn_analysis(
    puzzle: Puzzle,
    config: AnalyzeConfig,
    waker: Waker,
) -> std::io::Result<Task<AnalysisNews>> {
    spawn_task("analyze".to_string(), waker, 64, move |link| {
        let targets = puzzle
            .board()
            .targets()
            .iter()
            .filter(|t| takeable(&puzzle, t))
            .count() as u64;
        let total = targets * u64::from(config.deals);
        let mut done = 0;
        let mut last_sent = Instant::now();
        let result = analyze(&puzzle, &config, &link.cancel, |_| {
            done += 1;
            if last_sent.elapsed() >= PROGRESS_INTERVAL {
                last_sent = Instant::now();
                link.send(AnalysisNews::Progress { done, total }, Duration::ZERO);
            }
        });
        let result = result.map(Box::new);
        link.send(AnalysisNews::Done(result), Duration::ZERO);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use std::sync::Arc;

    fn config(deals: u32) -> AnalyzeConfig {
        AnalyzeConfig {
            deals,
            seed: 7,
            threads: 2,
            solve_time: Duration::from_secs(60),
            memory_limit: 1 << 30,
        }
    }

    fn finish(task: &Task<AnalysisNews>) -> Analysis {
        loop {
            match task.recv_timeout(Duration::from_secs(120)) {
                Ok(AnalysisNews::Progress { done, total }) => assert!(done <= total),
                Ok(AnalysisNews::Done(result)) => return *result.unwrap(),
                Err(error) => panic!("no analysis: {error}"),
            }
        }
    }

    #[test]
    fn a_task_sends_the_same_analysis_as_a_direct_run() {
        let puzzle = samples::fogleman_22();
        let task = spawn_analysis(puzzle.clone(), config(2), Arc::new(|_| {})).unwrap();
        let sent = finish(&task);
        let cancel = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let direct = analyze(&puzzle, &config(2), &cancel, |_| {}).unwrap();
        assert!(!sent.cancelled);
        assert_eq!(sent.distribution(), direct.distribution());
        assert_eq!(sent.results.len(), direct.results.len());
    }

    #[test]
    fn a_cancelled_task_sends_what_finished() {
        let puzzle = samples::fogleman_22();
        let task = spawn_analysis(puzzle, config(10_000), Arc::new(|_| {})).unwrap();
        std::thread::sleep(Duration::from_millis(200));
        task.cancel();
        let analysis = finish(&task);
        assert!(analysis.cancelled);
    }
}
