//! Play mode's hints: `H` (or the Hint button) shows the next level for the current position,
//! from the optimal move count to the whole solution. The hint is computed on a worker thread;
//! a move, a new game or an edit makes it stale, and the next request starts again at level 1.

use crate::app::{RicochetApp, widgets};
use crate::model::Puzzle;
use crate::solver::analysis::hints::{Hint, HintLevel};
use crate::worker::hint::{HintResult, spawn_hint};
use crate::worker::{Drained, drain_slot};
use crate::worker::{Task, Waker};
use std::time::Duration;

/// The time a hint may take before it gives up.
pub const HINT_TIME_LIMIT: Duration = Duration::from_secs(60);

/// The hint of one position, and how much of it is shown.
#[derive(Default)]
pub struct HintState {
    /// The position the hint is for.
    position: Option<Puzzle>,
    /// The level shown (or to show when the computation ends).
    level: Option<HintLevel>,
    task: Option<Task<HintResult>>,
    result: Option<HintResult>,
}

impl HintState {
    /// Asks for the next hint level of `position`: the first level when the position is new,
    /// otherwise one level more than shown. Starts the worker when the hint is not known.
    pub fn request(&mut self, position: &Puzzle, waker: Waker) -> Result<(), String> {
        if self.position.as_ref() == Some(position) {
            self.level = Some(self.level.map_or(HintLevel::MoveCount, HintLevel::next));
            return Ok(());
        }
        self.forget();
        let task = spawn_hint(position.clone(), Some(HINT_TIME_LIMIT), waker)
            .map_err(|e| format!("The hint could not start: {e}"))?;
        self.position = Some(position.clone());
        self.level = Some(HintLevel::MoveCount);
        self.task = Some(task);
        Ok(())
    }

    /// Drops the hint (the position changed); a running computation is cancelled.
    pub fn forget(&mut self) {
        if let Some(task) = &self.task {
            task.cancel();
        }
        *self = HintState::default();
    }

    /// Takes the worker's answer when it has come.
    pub fn drain(&mut self) {
        // The task sends one message: the hint.
        let drained = drain_slot(&mut self.task, |result| {
            self.result = Some(result);
            true
        });
        if drained == Drained::Lost {
            self.result = Some(Err("The hint's thread stopped without an answer.".into()));
        }
    }

    /// Whether the hint is being computed.
    pub fn is_computing(&self) -> bool {
        self.task.is_some()
    }

    /// The position the hint belongs to.
    pub fn position(&self) -> Option<&Puzzle> {
        self.position.as_ref()
    }

    /// The lines shown: `Moves: N` first, then what the level adds; empty while computing or
    /// before any request.
    pub fn lines(&self) -> Vec<String> {
        match (&self.result, self.level) {
            (Some(Ok(hint)), Some(level)) => hint.lines(level),
            (Some(Err(error)), _) => vec![error.clone()],
            _ => Vec::new(),
        }
    }

    /// The hint, when known.
    pub fn hint(&self) -> Option<&Hint> {
        match &self.result {
            Some(Ok(hint)) => Some(hint),
            _ => None,
        }
    }

    /// The hint's part of the play panel: a Hint button and the lines shown. Returns whether
    /// the button was clicked.
    pub fn ui(&self, ui: &mut egui::Ui) -> bool {
        ui.separator();
        let label = match self.level {
            Some(level) if self.result.is_some() && level < HintLevel::Solution => "More hint",
            _ => "Hint",
        };
        let clicked = ui
            .button(label)
            .on_hover_text("The next hint for this position (H)")
            .clicked();
        if self.is_computing() {
            ui.horizontal(|ui| {
                widgets::calm_spinner(ui, None);
                ui.label("Computing a hint…");
            });
        }
        for line in self.lines() {
            ui.label(egui::RichText::new(line).monospace());
        }
        clicked
    }
}

impl RicochetApp {
    /// Asks for the next hint level of the position in play.
    pub(in crate::app) fn request_hint(&mut self) {
        let Some(position) = self
            .play
            .as_ref()
            .map(crate::app::playing::play::PlayState::position)
        else {
            self.error("There is no game to hint at: switch to Play on a valid board.");
            return;
        };
        let waker = self.waker();
        let current = self.doc.revision();
        if let Err(error) = self.derived.hints_mut(current).request(&position, waker) {
            self.error(error);
        }
    }

    /// The hint's part of the play panel; a hint for another position than the one in play is
    /// dropped first.
    pub(in crate::app) fn hint_ui(
        &mut self,
        ui: &mut egui::Ui,
        commands: &mut Vec<crate::app::shell::commands::Command>,
    ) {
        let Some(play) = &self.play else {
            return;
        };
        let hints = self.derived.hints_mut(self.doc.revision());
        if hints.position().is_some_and(|p| *p != play.position()) {
            hints.forget();
        }
        if hints.ui(ui) {
            commands.push(crate::app::shell::commands::Command::Hint);
        }
    }

    /// The hint lines shown in the play panel (for tests and tools that drive the app).
    pub fn hint_lines(&self) -> Vec<String> {
        self.derived
            .hints(self.doc.revision())
            .map(HintState::lines)
            .unwrap_or_default()
    }

    /// Whether a hint is being computed.
    pub fn hint_computing(&self) -> bool {
        self.derived
            .hints(self.doc.revision())
            .is_some_and(HintState::is_computing)
    }
}
