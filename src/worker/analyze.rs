//! The board analyser on a worker thread: [`crate::study::analyze`] runs on a thread named
//! `analyze` (its solves on a pool of its own, joined before it returns), sending how many
//! positions are done as they finish and the analysis at the end.

use super::{Task, Waker, spawn_task};
use crate::model::Puzzle;
use crate::study::analyze::{Analysis, AnalyzeConfig, analyze, takeable};
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
    Done(Result<Box<Analysis>, String>),
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
        let result = result.map(Box::new).map_err(|e| e.to_string());
        link.send(AnalysisNews::Done(result), Duration::ZERO);
    })
}
