//! Exporting an animation: a solution's playback, or a recorded search's nodes between two
//! events, drawn, encoded and written atomically. [`ExportJob::run`] does it where it is
//! called (the command line); [`ExportJob::spawn`] does it on a named thread that reports its
//! progress and stops when cancelled (the app).

use crate::model::formats::{self, FormatError, Overwrite};
use crate::model::{Move, Puzzle};
use crate::print::animation::{
    self, AnimationError, AnimationOptions, Encoded, MAX_FRAMES, Output,
};
use crate::print::frame_files::{self, FramesError};
use crate::print::search_animation::{self, SearchStep, StepOutcome};
use crate::solver::Event;
use crate::solver::trace::{TraceError, TraceReader};
use crate::worker::{PUBLISH_INTERVAL, Task, Waker, spawn_task};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What to animate.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportSource {
    /// A solution's playback: the start, then the position after each move.
    Solution {
        /// The puzzle it solves.
        puzzle: Puzzle,
        /// The moves, which must solve it.
        moves: Vec<Move>,
    },
    /// The nodes a recorded search examined from event `from` to event `to`, both included.
    Search {
        /// The trace file.
        trace: PathBuf,
        /// The first event.
        from: u64,
        /// The last event.
        to: u64,
    },
}

/// An animation to make and where to write it.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportJob {
    /// What to animate.
    pub source: ExportSource,
    /// One animated file or numbered frames.
    pub output: Output,
    /// The file, or the folder for frames.
    pub path: PathBuf,
    /// The size and the pace.
    pub options: AnimationOptions,
    /// Whether an existing file (or a folder with files) may be replaced.
    pub overwrite: Overwrite,
}

/// What an export wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Exported {
    /// The file or folder.
    pub path: PathBuf,
    /// How many frames.
    pub frames: usize,
    /// How many bytes in all.
    pub bytes: usize,
    /// How long drawing, encoding and writing took.
    pub elapsed: Duration,
}

/// Why an export failed; every message names the file it is about.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The range runs backwards.
    #[error("the range runs backwards: event {from} comes after event {to}")]
    Backwards {
        /// The first event asked for.
        from: u64,
        /// The last event asked for.
        to: u64,
    },
    /// The range ends past the trace.
    #[error("{} has {events} events (0 to {}); there is no event {to}", .path.display(), .events.saturating_sub(1))]
    PastTheEnd {
        /// The trace.
        path: PathBuf,
        /// Its number of events.
        events: u64,
        /// The last event asked for.
        to: u64,
    },
    /// No node in the range.
    #[error("events {from} to {to} of {} hold no node to draw", .path.display())]
    NoNodes {
        /// The trace.
        path: PathBuf,
        /// The first event asked for.
        from: u64,
        /// The last event asked for.
        to: u64,
    },
    /// Too many nodes in the range.
    #[error(
        "events {from} to {to} of {} hold more than {MAX_FRAMES} nodes, the most an animation \
         shows (one frame each); choose a shorter stretch",
        .path.display()
    )]
    TooManyNodes {
        /// The trace.
        path: PathBuf,
        /// The first event asked for.
        from: u64,
        /// The last event asked for.
        to: u64,
    },
    /// The trace could not be read.
    #[error(transparent)]
    Trace(#[from] TraceError),
    /// Drawing or encoding failed, or the export was cancelled.
    #[error(transparent)]
    Animation(#[from] AnimationError),
    /// The file could not be written.
    #[error(transparent)]
    Save(#[from] FormatError),
    /// The frames could not be written.
    #[error(transparent)]
    Frames(#[from] FramesError),
}

/// The nodes of events `from` to `to` (both included) of a trace, one step each; refused when
/// the range runs backwards or past the trace's end, holds no node, or more than
/// [`MAX_FRAMES`] (found without reading further). `stop` is asked between events.
pub fn search_steps(
    reader: &TraceReader,
    from: u64,
    to: u64,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<SearchStep>, ExportError> {
    if from > to {
        return Err(ExportError::Backwards { from, to });
    }
    let path = reader.path().to_path_buf();
    let events = reader.events();
    if to >= events {
        return Err(ExportError::PastTheEnd { path, events, to });
    }
    let mut replay = reader.replay(from)?;
    let mut steps: Vec<SearchStep> = Vec::new();
    while let Some(traced) = replay.next_event()? {
        if stop() {
            return Err(AnimationError::Cancelled.into());
        }
        // A node's prune or solution follows it, so the events just past the range still
        // tell the last node's outcome; the next node (or iteration) ends the reading.
        let past = traced.index > to;
        match traced.event {
            Event::Node { .. } | Event::IterationStarted { .. } | Event::IterationFinished(_)
                if past =>
            {
                break;
            }
            Event::Node { depth, cells, path } => {
                if steps.len() == MAX_FRAMES {
                    let path = reader.path().to_path_buf();
                    return Err(ExportError::TooManyNodes { path, from, to });
                }
                steps.push(SearchStep {
                    event: traced.index,
                    depth,
                    cells: cells.as_slice().to_vec(),
                    path,
                    outcome: StepOutcome::Examined,
                });
            }
            Event::Pruned { reason, .. } => {
                if let Some(last) = steps.last_mut() {
                    last.outcome = StepOutcome::Pruned(reason.in_brief());
                }
            }
            Event::Solution { .. } => {
                if let Some(last) = steps.last_mut() {
                    last.outcome = StepOutcome::Solution;
                }
            }
            Event::IterationStarted { .. }
            | Event::IterationFinished(_)
            | Event::Solver(_)
            | Event::Generated { .. } => {}
        }
    }
    if steps.is_empty() {
        return Err(ExportError::NoNodes { path, from, to });
    }
    Ok(steps)
}

/// A message from an export's thread.
#[derive(Debug)]
pub enum ExportMessage {
    /// `done` of `total` frames are drawn and encoded.
    Progress {
        /// Frames finished.
        done: usize,
        /// Frames in all.
        total: usize,
    },
    /// The end: what was written, or why nothing was (the message names the file).
    Finished(Result<Exported, ExportError>),
}

impl ExportJob {
    /// Draws, encodes and writes the animation. `stop` is asked between frames and once more
    /// before anything is written; `progress` is told `(done, total)` frames as they go.
    pub fn run(
        &self,
        stop: &dyn Fn() -> bool,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Exported, ExportError> {
        let started = Instant::now();
        let (encoded, total) = match &self.source {
            ExportSource::Solution { puzzle, moves } => {
                self.options.check()?;
                let drawings =
                    animation::solution_drawings(puzzle, moves).map_err(AnimationError::from)?;
                let total = drawings.len();
                let mut on_frame = |index: usize| {
                    progress(index, total);
                    !stop()
                };
                let encoded =
                    animation::animate(&drawings, self.output, self.options, &mut on_frame)?;
                (encoded, total)
            }
            ExportSource::Search { trace, from, to } => {
                self.options.check()?;
                let reader = TraceReader::open(trace)?;
                let steps = search_steps(&reader, *from, *to, stop)?;
                let total = steps.len();
                let mut on_frame = |index: usize| {
                    progress(index, total);
                    !stop()
                };
                let encoded = search_animation::search_animation(
                    reader.puzzle(),
                    &steps,
                    self.output,
                    self.options,
                    &mut on_frame,
                )?;
                (encoded, total)
            }
        };
        progress(total, total);
        if stop() {
            return Err(AnimationError::Cancelled.into());
        }
        let bytes = encoded.len();
        write(&self.path, &encoded, self.overwrite)?;
        Ok(Exported {
            path: self.path.clone(),
            frames: total,
            bytes,
            elapsed: started.elapsed(),
        })
    }

    /// Runs the export on a thread named `export-animation`; its task's cancel flag stops it
    /// before anything is written.
    pub fn spawn(self, waker: Waker) -> std::io::Result<Task<ExportMessage>> {
        spawn_task("export-animation".into(), waker, 64, move |link| {
            let mut published = Instant::now();
            let stop = || link.is_cancelled();
            let mut progress = |done: usize, total: usize| {
                if published.elapsed() >= PUBLISH_INTERVAL {
                    published = Instant::now();
                    link.send(
                        ExportMessage::Progress { done, total },
                        crate::worker::PROGRESS_REPAINT_DELAY,
                    );
                }
            };
            let result = self.run(&stop, &mut progress);
            link.send(ExportMessage::Finished(result), Duration::ZERO);
        })
    }
}

/// Writes the encoded animation: a file atomically, frames into a folder renamed into place.
fn write(path: &Path, encoded: &Encoded, overwrite: Overwrite) -> Result<(), ExportError> {
    match encoded {
        Encoded::File(bytes) => formats::save_bytes_atomic_with(path, bytes, overwrite)?,
        Encoded::Frames(pngs) => {
            frame_files::write_frames(path, pngs, overwrite)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::animation::AnimationFormat;
    use crate::solver::{Limits, SolverId, SolverOptions};

    fn small_options() -> AnimationOptions {
        AnimationOptions {
            side_px: 64,
            delay_ms: 100,
            numbered: false,
        }
    }

    fn small_puzzle() -> Puzzle {
        let text =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/boards/small-6x6.ron"))
                .unwrap();
        crate::model::formats::native::parse(&text).unwrap()
    }

    /// A recorded IDDFS search of a small puzzle, in `dir`.
    fn recorded(dir: &Path) -> PathBuf {
        let path = dir.join("small.rltrace");
        crate::solver::trace::record(
            &SolverId::Iddfs.into(),
            &small_puzzle(),
            &SolverOptions::default(),
            &Limits::default(),
            &path,
            crate::solver::NoProbe,
        )
        .unwrap();
        path
    }

    #[test]
    fn a_search_stretch_gives_one_step_per_node_and_bad_ranges_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let trace = recorded(dir.path());
        let reader = TraceReader::open(&trace).unwrap();
        let never = || false;
        let steps = search_steps(&reader, 0, 40, &never).unwrap();
        assert!(!steps.is_empty());
        assert!(steps.iter().all(|s| s.event <= 40));
        assert!(steps.iter().all(|s| s.path.len() == s.depth as usize));
        assert!(matches!(
            search_steps(&reader, 9, 3, &never),
            Err(ExportError::Backwards { from: 9, to: 3 })
        ));
        let events = reader.events();
        assert!(matches!(
            search_steps(&reader, 0, events, &never),
            Err(ExportError::PastTheEnd { .. })
        ));
        if events > MAX_FRAMES as u64 * 2 {
            assert!(matches!(
                search_steps(&reader, 0, events - 1, &never),
                Err(ExportError::TooManyNodes { .. })
            ));
        }
        let job = ExportJob {
            source: ExportSource::Search {
                trace: trace.clone(),
                from: 0,
                to: 40,
            },
            output: Output::Animation(AnimationFormat::Gif),
            path: dir.path().join("steps.gif"),
            options: small_options(),
            overwrite: Overwrite::Refuse,
        };
        let exported = job.run(&never, &mut |_, _| {}).unwrap();
        assert_eq!(exported.frames, steps.len());
        assert!(std::fs::read(&job.path).unwrap().starts_with(b"GIF89a"));
        // A second export to the same file is refused, and the file is left as it was.
        assert!(matches!(
            job.run(&never, &mut |_, _| {}),
            Err(ExportError::Save(FormatError::Exists { .. }))
        ));
    }

    fn solved(puzzle: &Puzzle) -> Vec<Move> {
        let report = crate::solver::run(
            SolverId::Fast,
            puzzle,
            &SolverOptions::default(),
            &Limits::default(),
            &mut crate::solver::NoProbe,
        )
        .unwrap();
        match report.outcome {
            crate::solver::Outcome::Solved { moves } => moves,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_cancelled_export_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let puzzle = small_puzzle();
        let job = ExportJob {
            source: ExportSource::Solution {
                puzzle: puzzle.clone(),
                moves: Vec::new(),
            },
            output: Output::Frames,
            path: dir.path().join("frames"),
            options: small_options(),
            overwrite: Overwrite::Refuse,
        };
        // No moves do not solve the puzzle.
        assert!(matches!(
            job.run(&|| false, &mut |_, _| {}),
            Err(ExportError::Animation(AnimationError::Replay(_)))
        ));
        let always = || true;
        let job = ExportJob {
            source: ExportSource::Solution {
                moves: solved(&puzzle),
                puzzle,
            },
            ..job
        };
        assert!(matches!(
            job.run(&always, &mut |_, _| {}),
            Err(ExportError::Animation(AnimationError::Cancelled))
        ));
        assert!(!job.path.exists());
    }
}
