//! Whether a trace is whole: what a reader says before it trusts a file's footer, and the
//! bounds on the text it keeps from a file.

use super::TraceReader;
use crate::model::Puzzle;
use crate::solver::trace::file::{self, BlockRead};
use crate::solver::trace::{TraceError, TraceHeader};

/// The most characters of a header's program, solver and title a reader keeps: a file may
/// claim a header of up to 64 MiB, which is read but not kept.
pub const HEADER_TEXT_CHARS: usize = 200;

/// How whole a trace is, as far as it has been checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Health {
    /// Every block reads, and the recording ended with its footer.
    Whole,
    /// The recording did not end: no footer, perhaps part of a block after the whole ones
    /// (said in words, with where). Its whole blocks read.
    Incomplete(String),
    /// Bytes that are not what was written (said in words, with where the damage is).
    Damaged(String),
}

impl Health {
    /// The health in a few words for a status line: "whole", "incomplete: …", "damaged: …".
    pub fn words(&self) -> String {
        match self {
            Health::Whole => "whole".to_string(),
            Health::Incomplete(why) => format!("incomplete: {why}"),
            Health::Damaged(why) => format!("damaged: {why}"),
        }
    }
}

impl TraceReader {
    /// Opens a trace as [`TraceReader::open`] does and [checks](TraceReader::check) every
    /// block: a damaged trace is an error, saying where the damage is. A trace cut off
    /// opens; its [`TraceReader::health`] says so.
    pub fn open_checked(path: &std::path::Path) -> Result<TraceReader, TraceError> {
        let mut reader = TraceReader::open(path)?;
        match reader.check()? {
            Health::Damaged(why) => Err(reader.corrupt(why)),
            Health::Whole | Health::Incomplete(_) => Ok(reader),
        }
    }

    /// The trace's health as far as it was read: damage found on opening it or by
    /// [`TraceReader::check`], else incomplete when it has no footer, else whole. A file with
    /// a footer is whole here until its blocks are checked.
    pub fn health(&self) -> Health {
        if let Some(why) = &self.damage {
            return Health::Damaged(why.clone());
        }
        if self.footer.is_some() {
            return Health::Whole;
        }
        Health::Incomplete(match &self.cut {
            Some(why) => format!("the recording was cut off ({why})"),
            None => "the recording did not end (the file has no footer)".to_string(),
        })
    }

    /// Reads every whole block and checks its checksum (no event is decoded: about a second
    /// for a trace of a gigabyte), so that a file whose footer says how its search ended is
    /// not taken at its word when a block in the middle no longer reads. Returns the health;
    /// the first block that fails is the damage, with its offset.
    pub fn check(&mut self) -> Result<Health, TraceError> {
        if self.damage.is_none() {
            let mut file = std::fs::File::open(&self.path).map_err(|e| self.io(e))?;
            for info in &self.blocks {
                let read = file::read_block(&mut file, info.offset, true)
                    .map_err(|e| TraceError::io(&self.path, e))?;
                let why = match read {
                    BlockRead::Block(..) => continue,
                    BlockRead::Broken(why) | BlockRead::Cut(why) => why,
                    BlockRead::End => format!("the block at byte {} is not there", info.offset),
                };
                let last = info.first_event + u64::from(info.events.max(1)) - 1;
                self.damage = Some(format!(
                    "{why}; it holds events {} to {last}",
                    info.first_event
                ));
                break;
            }
        }
        Ok(self.health())
    }
}

/// Cuts the header's texts to [`HEADER_TEXT_CHARS`] and keeps its puzzle as this program
/// writes it, so that what a reader keeps of a header is bounded whatever the file holds.
pub(super) fn bound_header(header: &mut TraceHeader, puzzle: &Puzzle) {
    for text in [
        &mut header.program,
        &mut header.solver,
        &mut header.solver_title,
    ] {
        if let Some((cut, _)) = text.char_indices().nth(HEADER_TEXT_CHARS) {
            text.truncate(cut);
            text.shrink_to_fit();
        }
    }
    header.puzzle = crate::model::formats::native::write(puzzle);
}

#[cfg(test)]
mod tests {
    use crate::solver::intern::{NAME_CHARS, interned_bytes};
    use crate::solver::trace::{HEADER_TEXT_CHARS, TraceHeader, TraceReader, TraceRecorder};
    use crate::solver::{Event, NoProbe, Probe, PruneReason};

    #[test]
    fn a_trace_whose_solver_name_is_60_mb_long_is_read_with_its_texts_cut_to_their_bounds() {
        let puzzle = crate::testing::small();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("long.rltrace");
        let header = TraceHeader {
            program: "ricochet-lab test".into(),
            puzzle: crate::model::formats::native::write(&puzzle),
            solver: "s".repeat(60_000_000),
            solver_title: "an engine".into(),
            external: true,
        };
        let board = puzzle.board().clone();
        let mut recorder = TraceRecorder::create(&path, &header, board.clone(), NoProbe).unwrap();
        drop(header);
        recorder.event(|| Event::IterationStarted { depth: 1 });
        recorder.node(0, &puzzle.robot_cells(), |_| {});
        // A prune reason and a counter name of a megabyte each, as a file may hold them: the
        // recorder writes what it is given, which no built-in solver gives.
        let reason: &'static str = Box::leak("r".repeat(1 << 20).into_boxed_str());
        recorder.event(|| Event::Pruned {
            depth: 0,
            reason: PruneReason::Other(reason),
        });
        let mut stats = crate::solver::DepthStats {
            depth: 1,
            nodes: 1,
            ..Default::default()
        };
        stats.extra.push((reason, 7));
        recorder.event(|| Event::IterationFinished(stats));
        recorder.finish("no solution within 1 moves", true).unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > 60_000_000);

        let before = interned_bytes();
        let mut reader = TraceReader::open_checked(&path).unwrap();
        let kept = reader.header();
        assert_eq!(kept.solver.chars().count(), HEADER_TEXT_CHARS);
        assert!(
            kept.solver.capacity() <= 4 * HEADER_TEXT_CHARS,
            "the cut text is not kept whole"
        );
        assert_eq!(kept.solver_title, "an engine");
        assert!(kept.puzzle.len() < 10_000);
        let mut replay = reader.replay(0).unwrap();
        let mut reasons = Vec::new();
        while let Some(event) = replay.next_event().unwrap() {
            match event.event {
                Event::Pruned {
                    reason: PruneReason::Other(why),
                    ..
                } => reasons.push(why),
                Event::IterationFinished(stats) => reasons.extend(stats.extra.iter().map(|e| e.0)),
                _ => {}
            }
        }
        assert_eq!(reasons.len(), 2);
        assert!(reasons.iter().all(|why| why.chars().count() == NAME_CHARS));
        // What the program keeps for its life grew by one cut name, not by the megabyte.
        assert!(
            interned_bytes() - before <= NAME_CHARS,
            "{}",
            interned_bytes()
        );
        assert_eq!(reader.summary().unwrap().events, 4);
    }
}
