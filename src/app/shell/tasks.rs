//! The shell's side of the work the rooms ask for with a command: hints, the list of optimal
//! solutions, a prefix of the icicle chart played back. Each starts from the run or the game
//! on the board shown and keeps its result in the store of derived results, so it goes with
//! the revision it was made for.

use crate::app::RicochetApp;
use crate::app::command::{Command, PlaybackControl};
use crate::app::playing::hints::HINT_CANCELLED;
use crate::app::playing::playback::Playback;
use crate::app::run::solutions_list::{self, SolutionsList};
use crate::model::Move;
use crate::solver::analysis::hints::Hint;
use crate::worker::RunEnd;
use crate::worker::live_optimum::LiveOutcome;

impl RicochetApp {
    /// Asks for the next hint level of the position in play, starting from the board's
    /// finished solve when it solved this very position.
    pub(in crate::app) fn request_hint(&mut self) {
        let Some(position) = self
            .play
            .as_ref()
            .map(crate::app::playing::play::PlayState::position)
        else {
            // Said as what to do from where the player is: in Play the board is what is wrong.
            self.error(
                if self.state.mode == crate::app::document::mode::Mode::Play {
                    "There is no game to hint at: the board is not a valid puzzle. Switch to Edit \
                 to fix it."
                } else {
                    "There is no game to hint at: switch to Play on a valid board."
                },
            );
            return;
        };
        let waker = self.waker();
        let current = self.doc.revision();
        // The run kept for this revision was made under these rules; the position must be the
        // one it solved (a solve in play mode starts from the position then).
        let board_solve = self
            .derived
            .session(current)
            .filter(|session| session.puzzle == position)
            .and_then(|session| match session.run.end() {
                Some(RunEnd::Finished(report)) => Some(report.clone()),
                _ => None,
            });
        // What hot/cold (or, before the first move, the live optimum) knows of the position
        // answers the first level without a solve of its own.
        let known_count = self
            .hot_cold
            .known_outcome(&position)
            .or_else(|| {
                self.live_optimum
                    .outcome_for(current)
                    .filter(|_| self.play.as_ref().is_some_and(|p| p.moves().is_empty()))
            })
            .and_then(|outcome| match outcome {
                LiveOutcome::Optimum { moves } => Some(Hint::MoveCount { moves: *moves }),
                LiveOutcome::Unsolvable => Some(Hint::Unsolvable { within: None }),
                LiveOutcome::GaveUp { .. } | LiveOutcome::Failed(_) => None,
            });
        if let Err(error) =
            self.derived
                .hints_mut(current)
                .request(&position, board_solve, known_count, waker)
        {
            self.error(error.to_string());
        }
    }

    /// Stops computing the hint, when it is being computed; returns whether it was.
    pub(in crate::app) fn cancel_hint(&mut self) -> bool {
        let cancelled = self.derived.hints_mut(self.doc.revision()).cancel();
        if cancelled {
            self.note(format!("{HINT_CANCELLED} Press H to ask again."));
        }
        cancelled
    }

    /// The hint's part of the play panel; a hint for another position than the one in play is
    /// dropped first.
    pub(in crate::app) fn hint_ui(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let Some(play) = &self.play else {
            return;
        };
        let hints = self.derived.hints_mut(self.doc.revision());
        if hints.position().is_some_and(|p| *p != play.position()) {
            hints.forget();
        }
        hints.ui(ui, commands);
    }

    /// Plays `moves` back from the run's puzzle, standing at their end: the position the
    /// prefix of the chart leads to.
    pub(in crate::app) fn show_prefix(&mut self, moves: Vec<Move>) {
        let current = self.doc.revision();
        let Some(session) = self.current_session() else {
            return;
        };
        let now = self.now();
        let mut playback = Playback::new(session.puzzle.clone(), moves, now);
        playback.control(PlaybackControl::Last, now);
        self.derived.set_playback(current, playback);
    }

    /// Starts listing every optimal solution of the current run's puzzle, at the length the
    /// run found.
    pub(in crate::app) fn list_solutions(&mut self) {
        let Some(session) = self.current_session() else {
            return;
        };
        match SolutionsList::start(session, self.waker()) {
            Some(Ok(list)) => self.derived.set_solutions(self.doc.revision(), list),
            Some(Err(error)) => self.error(format!("The listing could not start: {error}")),
            None => {}
        }
    }

    /// Stops the running listing; it hands back what it found.
    pub(in crate::app) fn stop_listing(&mut self) {
        if let Some(list) = self.derived.solutions_mut(self.doc.revision()) {
            list.cancel();
        }
    }

    /// Plays the `index`th listed solution back on the run's puzzle.
    pub(in crate::app) fn play_listed_solution(&mut self, index: usize) {
        let current = self.doc.revision();
        let Some(session) = self.current_session() else {
            return;
        };
        let (serial, puzzle) = (session.serial, session.puzzle.clone());
        let Some(moves) = self
            .derived
            .solutions_mut(current)
            .filter(|list| list.serial() == serial)
            .and_then(|list| list.choose(index))
        else {
            return;
        };
        let now = self.now();
        self.derived
            .set_playback(current, Playback::new(puzzle, moves, now));
    }

    /// The listing of the run on the board shown, when one was made for that run.
    pub(in crate::app) fn current_listing(&self) -> Option<&SolutionsList> {
        let serial = self.current_session()?.serial;
        self.derived
            .solutions(self.doc.revision())
            .filter(|list| list.serial() == serial)
    }

    /// The list's part of the Run tab, for the run on the board shown.
    pub(in crate::app) fn solutions_ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        if let Some(session) = self.current_session() {
            solutions_list::solutions_ui(ui, session, self.current_listing(), commands);
        }
    }
}
