//! Positions made to order on a worker thread: [`crate::study::generate`] (positions of a
//! chosen length) or [`crate::study::analyze::improve`] (a harder position) on a thread named
//! `generate`, their solves on a pool of their own, joined before it returns.

use super::{Task, Waker, spawn_task};
use crate::model::Puzzle;
use crate::study::analyze::{self, AnalyzeConfig};
use crate::study::generate::{self, Ending, GenerateConfig};
use std::time::{Duration, Instant};

/// What to make.
#[derive(Clone, Debug)]
pub enum MakeJob {
    /// Positions on the board of `board` whose optimum is exactly `config.moves`.
    Length {
        /// The board (its walls, targets, robot colours and rules).
        board: Puzzle,
        /// What to look for.
        config: GenerateConfig,
    },
    /// A harder position than `start`, by moving one robot at a time.
    Harder {
        /// The position to start from.
        start: Puzzle,
        /// The seed of the relocation order.
        seed: u64,
        /// The search's time.
        time: Duration,
        /// Worker threads.
        threads: usize,
    },
}

/// What a making task sends.
#[derive(Debug)]
pub enum MakeNews {
    /// A line saying how far it has come.
    Progress(String),
    /// The positions made with their optimum, and a line saying how the run ended; or why it
    /// could not run.
    Done(Result<(Vec<(Puzzle, u32)>, String), MakeError>),
}

/// Why a making task could not run.
#[derive(Debug, thiserror::Error)]
pub enum MakeError {
    /// Positions of a length could not be searched for.
    #[error(transparent)]
    Generate(#[from] crate::study::generate::GenerateError),
    /// The local search from a position could not run.
    #[error(transparent)]
    Analyze(#[from] crate::study::analyze::AnalyzeError),
    /// The starting position's solve failed.
    #[error(transparent)]
    Solve(#[from] crate::solver::SolveError),
    /// The starting position's solve ended without an answer, as said.
    #[error("The starting position was not solved ({0}).")]
    StartUnsolved(&'static str),
}

/// The interval between progress messages.
const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// Starts `job` on a thread named `generate`. Cancelling or dropping the task stops the
/// solves within a poll interval; the task then sends what it made.
pub fn spawn_make(job: MakeJob, waker: Waker) -> std::io::Result<Task<MakeNews>> {
    spawn_task("generate".to_string(), waker, 64, move |link| {
        let result = match job {
            MakeJob::Length { board, config } => {
                let mut last_sent = Instant::now();
                generate::generate(&board, &config, &link.cancel, |progress| {
                    if last_sent.elapsed() >= PROGRESS_INTERVAL {
                        last_sent = Instant::now();
                        let closest = progress
                            .closest
                            .map(|m| format!(", closest {m} moves"))
                            .unwrap_or_default();
                        link.send(
                            MakeNews::Progress(format!(
                                "{} of {} found, {} solves{closest}",
                                progress.found, config.count, progress.solves
                            )),
                            Duration::ZERO,
                        );
                    }
                })
                .map(|generated| {
                    let ending = match generated.ending {
                        Ending::Complete => "found",
                        Ending::TimeLimit => "the time limit came first",
                        Ending::Cancelled => "cancelled",
                    };
                    let mut made: Vec<(Puzzle, u32)> = generated
                        .positions
                        .into_iter()
                        .map(|f| (f.puzzle, f.moves))
                        .collect();
                    let mut line = format!(
                        "{} of {} positions of {} moves ({ending}, {} solves in {:.1} s)",
                        made.len(),
                        config.count,
                        config.moves,
                        generated.solves,
                        generated.elapsed.as_secs_f64()
                    );
                    if let Some(closest) = generated.closest {
                        line.push_str(&format!("; the closest other has {} moves", closest.moves));
                        made.push((closest.puzzle, closest.moves));
                    }
                    (made, line)
                })
                .map_err(MakeError::from)
            }
            MakeJob::Harder {
                start,
                seed,
                time,
                threads,
            } => harder(&start, seed, time, threads, &link),
        };
        link.send(MakeNews::Done(result), Duration::ZERO);
    })
}

/// Solves `start`, then climbs from it with the analyser's local search.
fn harder(
    start: &Puzzle,
    seed: u64,
    time: Duration,
    threads: usize,
    link: &super::TaskLink<MakeNews>,
) -> Result<(Vec<(Puzzle, u32)>, String), MakeError> {
    let config = AnalyzeConfig {
        deals: 1,
        seed,
        threads,
        solve_time: time,
        memory_limit: 1 << 30,
    };
    let deadline = Instant::now() + time;
    let (moves, outcome, _) =
        analyze::solve_position(start, time, config.memory_limit, &link.cancel)?;
    let Some(moves) = moves else {
        return Err(MakeError::StartUnsolved(outcome));
    };
    link.send(
        MakeNews::Progress(format!("starting from {moves} moves")),
        Duration::ZERO,
    );
    let improved = analyze::improve(start, moves, seed, &config, deadline, &link.cancel)?;
    let ending = if improved.local_optimum {
        "no single robot move makes it harder"
    } else if link.cancel.load(std::sync::atomic::Ordering::Relaxed) {
        "cancelled"
    } else {
        "the time ran out"
    };
    let steps = match improved.steps {
        1 => "1 step".to_string(),
        n => format!("{n} steps"),
    };
    let line = format!(
        "{} -> {} moves in {steps} ({ending})",
        improved.start_moves, improved.moves
    );
    Ok((vec![(improved.puzzle, improved.moves)], line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use std::sync::Arc;

    fn finish(task: &Task<MakeNews>) -> (Vec<(Puzzle, u32)>, String) {
        loop {
            match task.recv_timeout(Duration::from_secs(120)) {
                Ok(MakeNews::Progress(_)) => {}
                Ok(MakeNews::Done(result)) => return result.unwrap(),
                Err(error) => panic!("nothing made: {error}"),
            }
        }
    }

    #[test]
    fn a_task_makes_positions_of_the_asked_length() {
        let config = GenerateConfig {
            moves: 6,
            count: 2,
            seed: 3,
            robots: None,
            threads: 2,
            time_limit: Duration::from_secs(120),
            memory_limit: 1 << 30,
        };
        let job = MakeJob::Length {
            board: samples::fogleman_22(),
            config,
        };
        let (made, line) = finish(&spawn_make(job, Arc::new(|_| {})).unwrap());
        assert_eq!(made.len(), 2, "{line}");
        assert!(made.iter().all(|(_, moves)| *moves == 6));
    }

    #[test]
    fn a_harder_position_is_never_easier_than_its_start() {
        let start = crate::model::formats::load_source(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/boards/small-6x6.ron"
        ))
        .unwrap();
        let job = MakeJob::Harder {
            start,
            seed: 1,
            time: Duration::from_secs(2),
            threads: 2,
        };
        let (made, line) = finish(&spawn_make(job, Arc::new(|_| {})).unwrap());
        assert_eq!(made.len(), 1);
        // The start needs 5 moves; the search only keeps changes that make it longer.
        assert!(made[0].1 >= 5, "{line}");
    }
}
