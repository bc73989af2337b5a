//! The optimum while you draw: every edit of a valid board starts a background `fast` solve of
//! its active target, cancelled by the next edit, and the editor shows the optimal move count,
//! how many optimal solutions there are (when that is cheap to count), a difficulty band, a
//! spinner while it works and "over 10 s" when it gives up. A result is kept under the revision
//! it was computed on and shown only while the board is at that revision.
//!
//! The line sits in the strip the editor keeps for why a board is not solvable, so it never
//! moves the tools below it.

use crate::app::document::Revision;
use crate::app::{theme, widgets};
use crate::model::Puzzle;
use crate::solver::Stop;
use crate::worker::live_optimum::{
    LiveLimits, LiveMessage, LiveOutcome, SolutionCount, spawn_live_optimum,
};
use crate::worker::{Drained, Task, drain_slot};
use std::time::{Duration, Instant};

/// The name of the live solve's thread.
const THREAD_NAME: &str = "live-optimum";

/// A difficulty band, from the optimal move count (thresholds in docs/designing-boards.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::app) enum Difficulty {
    /// 0 to 3 moves.
    Easy,
    /// 4 to 7 moves.
    Medium,
    /// 8 to 11 moves.
    Hard,
    /// 12 to 15 moves.
    Expert,
    /// 16 moves or more.
    Extreme,
}

impl Difficulty {
    /// The band of an optimal solution of `moves` moves.
    pub(in crate::app) fn of(moves: usize) -> Difficulty {
        match moves {
            0..=3 => Difficulty::Easy,
            4..=7 => Difficulty::Medium,
            8..=11 => Difficulty::Hard,
            12..=15 => Difficulty::Expert,
            _ => Difficulty::Extreme,
        }
    }

    /// The band's name as the editor shows it.
    pub(in crate::app) fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
            Difficulty::Extreme => "extreme",
        }
    }
}

/// The live optimum of the board at one revision.
#[derive(Default)]
pub(in crate::app) struct LiveOptimumState {
    /// The revision the solve below is for.
    revision: Option<Revision>,
    /// The solve (and count) under way.
    task: Option<Task<LiveMessage>>,
    /// When the solve started, for the time shown while it works.
    started: Option<Instant>,
    /// What the solve found, and how long it took.
    outcome: Option<(LiveOutcome, Duration)>,
    /// The optimal solutions counted.
    count: Option<SolutionCount>,
    /// Why the solve could not start.
    failure: Option<String>,
}

impl LiveOptimumState {
    /// The optimum found for the board at revision `current`, once it is known.
    pub(in crate::app) fn outcome_for(&self, current: Revision) -> Option<&LiveOutcome> {
        self.outcome
            .as_ref()
            .filter(|_| self.revision == Some(current))
            .map(|(outcome, _)| outcome)
    }

    /// Whether what is shown was computed for the board at revision `current`.
    pub(in crate::app) fn is_for(&self, current: Revision) -> bool {
        self.revision == Some(current)
    }

    /// Brings the state up to `current`: a solve of `puzzle` (the board at `current`, `None`
    /// when it is not a valid puzzle) starts when the state was for another revision; the
    /// solve for the revision before is dropped, which cancels it.
    pub(in crate::app) fn follow(
        &mut self,
        current: Revision,
        puzzle: Option<&Puzzle>,
        waker: crate::worker::Waker,
    ) {
        if self.revision == Some(current) {
            return;
        }
        *self = LiveOptimumState {
            revision: Some(current),
            ..LiveOptimumState::default()
        };
        let Some(puzzle) = puzzle else {
            return;
        };
        match spawn_live_optimum(THREAD_NAME, puzzle.clone(), LiveLimits::default(), waker) {
            Ok(task) => {
                self.task = Some(task);
                self.started = Some(Instant::now());
            }
            Err(error) => self.failure = Some(format!("The live solve could not start: {error}")),
        }
    }

    /// Takes what the worker sent.
    pub(in crate::app) fn drain(&mut self) {
        let mut messages = Vec::new();
        let drained = drain_slot(&mut self.task, |message| {
            let last = message.is_last();
            messages.push(message);
            last
        });
        for message in messages {
            match message {
                LiveMessage::Solved {
                    outcome, elapsed, ..
                } => self.outcome = Some((outcome, elapsed)),
                LiveMessage::Counted(count) => self.count = Some(count),
            }
        }
        if drained == Drained::Lost && self.outcome.is_none() {
            self.failure = Some("The live solve stopped without an answer.".into());
        }
    }

    /// Drops the solve and what it found (the setting was turned off).
    pub(in crate::app) fn clear(&mut self) {
        *self = LiveOptimumState::default();
    }

    /// Whether the solve is under way (not counting the count after it).
    pub(in crate::app) fn is_solving(&self) -> bool {
        self.task.is_some() && self.outcome.is_none()
    }

    /// The two lines shown: what is known, then the difficulty or what is still counted.
    pub(in crate::app) fn lines(&self) -> [String; 2] {
        if let Some(failure) = &self.failure {
            return [failure.clone(), String::new()];
        }
        let Some((outcome, elapsed)) = &self.outcome else {
            if self.task.is_some() {
                return ["Optimum: solving…".into(), String::new()];
            }
            return [String::new(), String::new()];
        };
        match outcome {
            LiveOutcome::Optimum { moves } => {
                // The count comes second: a narrow panel cuts the end of a line, and the
                // optimum and its band are what matter most.
                let solutions = match self.count {
                    Some(SolutionCount {
                        found,
                        complete: true,
                    }) => format!(
                        "{found} optimal solution{}, ",
                        if found == 1 { "" } else { "s" }
                    ),
                    // A count stopped by its cap or time budget says what it knows: at
                    // least the solutions found, or nothing when it found none in time.
                    Some(SolutionCount { found: 0, .. }) => "too many to count, ".into(),
                    // "optimal" is the line above's word: without it the time still fits
                    // the narrowest panel.
                    Some(SolutionCount { found, .. }) => format!("at least {found} solutions, "),
                    None if self.task.is_some() => "counting solutions…, ".into(),
                    None => String::new(),
                };
                [
                    format!(
                        "Optimum: {moves} move{} ({})",
                        if *moves == 1 { "" } else { "s" },
                        Difficulty::of(*moves).name()
                    ),
                    format!("{solutions}solved in {}", seconds(*elapsed)),
                ]
            }
            LiveOutcome::Unsolvable => [
                "Optimum: none, the target cannot be reached".into(),
                format!("Proved in {}", seconds(*elapsed)),
            ],
            LiveOutcome::GaveUp { stop } => {
                let limits = LiveLimits::default();
                let why = match stop {
                    Stop::TimeLimit => format!("over {} s", limits.time.as_secs()),
                    Stop::MemoryLimit => {
                        format!("over {} MiB of memory", limits.memory_bytes >> 20)
                    }
                    Stop::Cancelled => "cancelled".into(),
                };
                [
                    format!("Optimum: unknown, {why}"),
                    "Press Solve to search without the live limits".into(),
                ]
            }
            LiveOutcome::Failed(why) => [format!("Optimum: unknown, {why}"), String::new()],
        }
    }

    /// The live optimum's part of the editor, in the strip kept for the board's problem: shown
    /// only when the setting is `on` and the result is for the `current` revision.
    pub(in crate::app) fn shown_ui(&self, ui: &mut egui::Ui, on: bool, current: Revision) {
        if on && self.revision == Some(current) {
            self.ui(ui);
        }
    }

    /// The live optimum's lines in the strip the editor reserves: a spinner beside the first
    /// line while the solve runs. Each line is cut to the panel's width, whole on hover.
    fn ui(&self, ui: &mut egui::Ui) {
        let palette = theme::palette(ui.visuals().dark_mode);
        let [first, second] = self.lines();
        ui.horizontal(|ui| {
            if self.is_solving() {
                let size = ui.text_style_height(&egui::TextStyle::Body);
                widgets::calm_spinner(ui, Some(size));
            }
            ui.add(egui::Label::new(egui::RichText::new(first).strong()).truncate());
        });
        let color = match &self.outcome {
            Some((LiveOutcome::GaveUp { .. } | LiveOutcome::Failed(_), _)) => palette.warning,
            _ => palette.muted,
        };
        ui.add(egui::Label::new(egui::RichText::new(second).color(color)).truncate());
    }
}

/// A duration as the live line shows it: milliseconds under a second, else seconds.
fn seconds(elapsed: Duration) -> String {
    if elapsed < Duration::from_secs(1) {
        format!("{} ms", elapsed.as_millis())
    } else {
        format!("{:.1} s", elapsed.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bands_follow_the_documented_thresholds() {
        let bands: Vec<&str> = [0, 3, 4, 7, 8, 11, 12, 15, 16, 30]
            .into_iter()
            .map(|moves| Difficulty::of(moves).name())
            .collect();
        assert_eq!(
            bands,
            [
                "easy", "easy", "medium", "medium", "hard", "hard", "expert", "expert", "extreme",
                "extreme"
            ]
        );
    }

    #[test]
    fn the_lines_say_what_is_known() {
        let mut state = LiveOptimumState {
            outcome: Some((LiveOutcome::Optimum { moves: 9 }, Duration::from_millis(12))),
            count: Some(SolutionCount {
                found: 100,
                complete: false,
            }),
            ..LiveOptimumState::default()
        };
        assert_eq!(
            state.lines(),
            [
                "Optimum: 9 moves (hard)".to_string(),
                "at least 100 solutions, solved in 12 ms".to_string()
            ]
        );
        // A count that found none in its time says so, not "0+".
        state.count = Some(SolutionCount {
            found: 0,
            complete: false,
        });
        assert_eq!(state.lines()[1], "too many to count, solved in 12 ms");
        state.outcome = Some((
            LiveOutcome::GaveUp {
                stop: Stop::TimeLimit,
            },
            Duration::from_secs(10),
        ));
        assert_eq!(state.lines()[0], "Optimum: unknown, over 10 s");
    }
}
