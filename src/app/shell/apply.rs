//! Applying the whole-app actions the panels collected ([`super::commands`]), once per frame.

use crate::app::command::PlaybackControl;
use crate::app::command::{AnimationSubject, Command, Pending, Resolution, UndoStep};
use crate::app::document::display_name;
use crate::app::document::draft::{Draft, Edit};
use crate::app::document::mode::Mode;
use crate::app::files;
use crate::app::playing::play::PlayState;
use crate::app::run::solver_panel::{self, SolveSession};
use crate::app::{RicochetApp, capital, debugger, shell};
use crate::model::formats::{self, game_id};
use crate::model::tiles::random_game_on;
use crate::solver::engine::store::EngineName;
use crate::solver::{SolverChoice, SolverPick};
use std::path::Path;

impl RicochetApp {
    /// Applies a command as a click or key would (for tests and tools that drive the app).
    pub fn apply_command(&mut self, command: Command) {
        self.apply(command);
    }

    pub(in crate::app) fn apply(&mut self, command: Command) {
        match command {
            Command::Edit { edit, step } => self.apply_edit(&edit, step),
            // In Play, Ctrl+Z and Ctrl+Y walk the game's moves: a deal or an edit is never
            // undone under a player's hands.
            Command::Undo if self.state.mode == Mode::Play => self.apply(Command::UndoMove),
            Command::Redo if self.state.mode == Mode::Play => self.redo_move(),
            Command::Undo => {
                if self.doc.undo() {
                    self.after_board_change("the board was edited (undo)");
                } else {
                    self.note("Nothing to undo.");
                }
            }
            Command::Redo => {
                if self.doc.redo() {
                    self.after_board_change("the board was edited (redo)");
                } else {
                    self.note("Nothing to redo.");
                }
            }
            Command::SetMode(mode) => {
                if self.state.mode != mode {
                    self.state.mode = mode;
                    self.play = None;
                    self.editor.reset();
                    // A solution played back belongs to the mode it was solved in: a game
                    // starts without the answer drawn on it.
                    self.derived.close_playback();
                    self.ensure_play();
                }
            }
            Command::Guarded(pending) => {
                if self.is_dirty() {
                    self.shell.pending = Some(pending);
                } else {
                    self.perform(pending);
                }
            }
            Command::ResolvePending(resolution) => self.resolve_pending(resolution),
            Command::ResolveChangedOnDisk(choice) => self.resolve_changed_on_disk(choice),
            Command::ShowNewWindow => self.new_window.show(),
            Command::ShowAddEngine => self.add_engine.show(),
            Command::EngineAdded(name) => self.engine_added(name),
            Command::RemoveEngine(name) => self.remove_engine(&name),
            Command::EditEngine(name) => self.edit_engine(&name),
            // "Open from boards/" lists the shipped boards, whichever folder was used last.
            Command::ShowOpenWindow => {
                if self.boards.is_some() {
                    self.windows.browsed = self.boards.clone();
                }
                self.windows.open = true;
            }
            Command::ShowImportWindow => {
                self.windows.import = true;
                self.windows.import_focus = true;
            }
            Command::ShowHelp => self.shell.help_open = true,
            Command::ToggleHelp => self.shell.help_open = !self.shell.help_open,
            Command::OpenDialog => self.open_dialog(),
            Command::Save => {
                let _ = self.save();
            }
            Command::SaveAs(kind) => {
                let _ = self.save_as(kind);
            }
            Command::SaveTo(path, kind) => {
                if self.save_to(&path, kind) {
                    self.windows.save = None;
                }
            }
            Command::CopyBoard => self.copy_board(),
            Command::CopyGameId => self.copy_game_id(),
            Command::SelectRobot(_)
            | Command::MoveRobot(_)
            | Command::UndoMove
            | Command::ResetPlay
            | Command::NewGame
            | Command::DealNewGame
            | Command::KeepPlaying => self.apply_play(command),
            Command::Hint => self.request_hint(),
            Command::ListSolutions => self.list_solutions(),
            Command::StopListing => self.stop_listing(),
            Command::PlayListedSolution(index) => self.play_listed_solution(index),
            Command::ShowPrefix(moves) => self.show_prefix(moves),
            Command::Solve => self.solve(),
            Command::Cancel => self.cancel_solve(),
            Command::CancelHint => {
                self.cancel_hint();
            }
            Command::CancelRunning => {
                // Both stop; when both ran, the status line speaks of the solve, the hint
                // panel says its own.
                self.cancel_hint();
                self.cancel_solve();
            }
            Command::Playback(control) => self.apply_playback(control),
            Command::ClearPlots => self.plots.clear(),
            Command::Message(text) => self.note(text),
            Command::Error(text) => self.error(text),
            Command::Debug(command) => {
                if let Some(debugger) = self.derived.debugger_mut(self.doc.revision()) {
                    debugger.apply(command);
                }
            }
            // The verdict speaks of the graph of the board as it is now: it goes with the next
            // edit.
            Command::CheckGraph => match self.derived.graph_mut(self.doc.revision()).map_or(
                Err(crate::solver::graph_tracker::GraphCheckError::NoGraph),
                |g| g.run_check(),
            ) {
                Ok(agree) => self.note_on_board(agree.to_string(), false),
                Err(error) => self.note_on_board(error.to_string(), true),
            },
            Command::ToggleExperiments => self.experiments.open = !self.experiments.open,
            Command::ToggleAnalyzer => self.analyzer.open = !self.analyzer.open,
            Command::ToggleCompare => self.compare.open = !self.compare.open,
            Command::ToggleMatches => self.matches.open = !self.matches.open,
            Command::ExportAnimation(subject) => self.show_export_animation(subject),
            Command::CloseLesson => self.lessons.open = None,
        }
    }

    /// Opens the Export animation window on the solution played back or on the debugged
    /// run's trace, as they stand on the board now; says why not when there is none.
    fn show_export_animation(&mut self, subject: AnimationSubject) {
        use crate::app::playing::export_animation::Subject;
        let revision = self.doc.revision();
        let (subject, at) = match subject {
            AnimationSubject::Solution => match self.derived.playback(revision) {
                Some(playback) => (
                    Subject::Solution {
                        puzzle: playback.puzzle().clone(),
                        moves: playback.moves().to_vec(),
                    },
                    0,
                ),
                None => {
                    self.error("No solution is shown: solve the board, then export its playback.");
                    return;
                }
            },
            AnimationSubject::SearchUpTo(at) => match self.derived.debugger(revision) {
                Some(debugger) => (
                    Subject::Search {
                        trace: debugger.trace_path(),
                        events: debugger.frame().view.events,
                    },
                    at,
                ),
                None => {
                    self.error("There is no debugged run whose steps to export.");
                    return;
                }
            },
        };
        self.export_animation.show(revision, subject, at);
    }

    pub(in crate::app) fn apply_edit(&mut self, edit: &Edit, step: UndoStep) {
        match self.doc.edit(edit, step == UndoStep::New) {
            Ok(true) => {
                self.after_board_change("the board was edited");
            }
            Ok(false) => {}
            Err(error) => self.error(capital(&error.to_string())),
        }
    }

    pub(in crate::app) fn perform(&mut self, pending: Pending) {
        match pending {
            Pending::Replace(draft, name) => {
                let note = format!("New board: {name}");
                self.set_document(*draft, None, Some(name), &note);
            }
            Pending::Open(path) if crate::solver::trace::is_trace_file(&path) => {
                self.open_trace(&path);
            }
            Pending::Open(path) if crate::lesson::is_lesson_file(&path) => {
                self.open_lesson(&path);
            }
            Pending::OpenTrace { path, at } => {
                if self.open_trace(&path) {
                    self.shell.dock = shell::DockTab::Debugger;
                    self.apply(Command::Debug(crate::app::command::DebugCommand::GoTo(at)));
                }
            }
            Pending::Open(path) => {
                match files::load_puzzle_file(&path) {
                    Ok((puzzle, format)) => {
                        let name = display_name(&path);
                        self.windows.opened_folder = path
                            .parent()
                            .filter(|dir| !dir.as_os_str().is_empty())
                            .map(Path::to_path_buf);
                        self.windows.browsed = None;
                        self.state.open_folder = self.windows.opened_folder.clone();
                        let file = (format == formats::Format::Native).then(|| path.clone());
                        // A file in another format is imported: it keeps its name, not its path.
                        self.set_document(
                            Draft::from_puzzle(&puzzle),
                            file,
                            Some(name.clone()),
                            &format!("Opened {name}"),
                        );
                        self.windows.open = false;
                    }
                    Err(error) => {
                        // Most errors already start with the path they speak of.
                        let error = error.to_string();
                        let shown = path.display().to_string();
                        self.error(if error.starts_with(&shown) {
                            format!("Could not open {error}")
                        } else {
                            format!("Could not open {shown}: {error}")
                        })
                    }
                }
            }
            Pending::Import(text) => {
                let text = text.trim();
                match formats::parse_any(text) {
                    Ok(puzzle) => {
                        // The name is what the status line calls the board; the note says
                        // what was done, without saying "Imported" twice.
                        let (name, note) = match formats::sniff(text) {
                            Some(formats::Format::GameId) => {
                                (text.to_string(), format!("Imported {text}"))
                            }
                            Some(formats::Format::DdDump) => (
                                "Imported DriftingDroids board".to_string(),
                                "Imported a board from a DriftingDroids dump".to_string(),
                            ),
                            Some(formats::Format::BoardLine) => (
                                "Pasted board".to_string(),
                                "Pasted a board from its board line".to_string(),
                            ),
                            Some(formats::Format::Native) => (
                                "Pasted board".to_string(),
                                "Pasted a board from its .ron text".to_string(),
                            ),
                            Some(formats::Format::Cox) | None => (
                                "Imported Cox board".to_string(),
                                "Imported a board from Cox text".to_string(),
                            ),
                        };
                        self.set_document(Draft::from_puzzle(&puzzle), None, Some(name), &note);
                        self.windows.import = false;
                    }
                    Err(error) => self.error(format!("Could not import: {error}")),
                }
            }
            Pending::Quit => {
                self.shell.close_confirmed = true;
                self.ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }

    pub(in crate::app) fn resolve_pending(&mut self, resolution: Resolution) {
        let Some(pending) = self.shell.pending.take() else {
            return;
        };
        match resolution {
            Resolution::Cancel => {}
            Resolution::Discard => self.perform(pending),
            Resolution::Save => match self.save() {
                SaveResult::Saved => self.perform(pending),
                SaveResult::Failed => {}
                SaveResult::Asked => self.note("Choose where to save, then try again."),
            },
        }
    }

    /// Opens a file through the system's dialog, or the in-app Open window without one.
    /// Open starts in the folder of the last puzzle opened (the shipped boards before any),
    /// whatever was saved or exported since.
    fn open_dialog(&mut self) {
        let start = self
            .windows
            .opened_folder
            .clone()
            .or_else(|| self.boards.clone());
        if self.use_native_dialogs() {
            if let Some(path) = files::pick_open_file(start.as_deref()) {
                self.apply(Command::Guarded(Pending::Open(path)));
            }
        } else {
            self.windows.path = start
                .map(|dir| format!("{}{}", dir.display(), std::path::MAIN_SEPARATOR))
                .unwrap_or_default();
            self.windows.open = true;
        }
    }

    /// Copies the whole puzzle to the clipboard as one line of text (its board line).
    fn copy_board(&mut self) {
        match self.doc.validity() {
            Ok(puzzle) => match formats::board_line::write(puzzle) {
                Ok(line) => {
                    let length = line.len();
                    self.ctx.copy_text(line);
                    self.note(format!(
                        "Copied the board as one line of {length} characters; paste it \
                         here or in a mail"
                    ));
                }
                Err(error) => self.error(format!("Could not copy the board: {error}")),
            },
            Err(error) => self.error(format!("Could not copy the board: {error}")),
        }
    }

    /// Copies the board's game id to the clipboard.
    fn copy_game_id(&mut self) {
        match self.doc.validity() {
            Ok(puzzle) => match game_id::write(puzzle) {
                Ok(id) => {
                    self.ctx.copy_text(id.clone());
                    self.note(format!("Copied the game id {id}"));
                }
                Err(error) => self.error(format!("This board has no game id: {error}")),
            },
            Err(error) => self.error(format!("This board has no game id: {error}")),
        }
    }

    /// Steps or plays the solution shown, or closes it.
    fn apply_playback(&mut self, control: PlaybackControl) {
        if control == PlaybackControl::Close {
            self.derived.close_playback();
        } else {
            let now = self.now();
            if let Some(playback) = self.derived.playback_mut(self.doc.revision()) {
                playback.control(control, now);
            }
            // A playback control shows the playback on the board, not a debugger
            // scrubbed back to a search node.
            if let Some(debugger) = self.derived.debugger_mut(self.doc.revision()) {
                debugger.apply(crate::app::command::DebugCommand::Latest);
            }
        }
    }

    /// Makes the engine just registered the chosen solver.
    fn engine_added(&mut self, name: EngineName) {
        self.note(format!(
            "Engine '{name}' registered in {}; it is the chosen solver now",
            self.engines
                .file()
                .map_or_else(|| "the settings".into(), |f| f.display().to_string())
        ));
        self.state.solver.solver = SolverPick::Engine(name);
    }

    /// Unregisters an engine. A choice of the removed engine stays what it was, said as an
    /// engine that is not registered, with Solve disabled: another solver is never run in
    /// its place.
    fn remove_engine(&mut self, name: &EngineName) {
        match self.engines.remove(name) {
            Ok(_) => {
                let chosen = self.state.solver.solver == SolverPick::Engine(name.clone());
                self.note(format!(
                    "Engine '{name}' removed from the solvers{}",
                    if chosen {
                        "; choose another solver to solve"
                    } else {
                        ""
                    }
                ));
            }
            Err(error) => self.error(format!("Engine '{name}' could not be removed: {error}")),
        }
    }

    /// Opens the engine window on a registered engine, tested at once so that its options
    /// show with the values stored.
    fn edit_engine(&mut self, name: &EngineName) {
        match self
            .engines
            .engines()
            .iter()
            .find(|spec| spec.name == name.as_str())
        {
            Some(spec) => self.add_engine.edit(spec),
            None => self.error(format!("There is no engine '{name}' to edit.")),
        }
    }

    pub(in crate::app) fn new_game(&mut self) {
        let seed = self.state.editor.robots_seed;
        let count = self.doc.draft().robots.len().clamp(1, 5);
        match random_game_on(&self.doc.draft().board, seed, count) {
            Ok(puzzle) => {
                let mut draft = Draft::from_puzzle(&puzzle);
                draft.rules = self.doc.draft().rules;
                self.apply_edit(&Edit::Replace(Box::new(draft)), UndoStep::New);
                self.state.editor.robots_seed += 1;
                self.note(format!("New game dealt with seed {seed}"));
            }
            Err(error) => self.error(format!("No new game on this board: {error}")),
        }
    }

    /// Applies a command of the game in Play: a robot chosen or moved, a move taken back,
    /// the robots reset, a new deal (asked first when moves are played).
    fn apply_play(&mut self, command: Command) {
        match command {
            Command::SelectRobot(color) => {
                if let Some(play) = &mut self.play
                    && let Err(error) = play.select(color)
                {
                    self.error(capital(&error.to_string()));
                }
            }
            Command::MoveRobot(dir) => {
                let now = self.now();
                if self.play.is_some() {
                    self.derived.close_playback();
                }
                let slid = self.play.as_mut().map(|play| {
                    play.slide(dir, now)
                        .map(|_| (play.is_reached(), play.moves().len()))
                });
                match slid {
                    Some(Ok((true, count))) => {
                        self.note(format!("Target reached in {count} moves."));
                    }
                    Some(Ok((false, _))) => self.forget_target_reached(),
                    Some(Err(error)) => self.error(capital(&error.to_string())),
                    None => {}
                }
            }
            Command::UndoMove => match self.play.as_mut().map(PlayState::undo) {
                Some(Some(_)) => self.forget_target_reached(),
                Some(None) => self.note("No move to take back."),
                None => {}
            },
            Command::ResetPlay => {
                if let Some(play) = &mut self.play {
                    play.reset();
                    self.forget_target_reached();
                }
            }
            Command::NewGame => {
                let played = self.play.as_ref().map_or(0, |play| play.moves().len());
                if self.state.mode == Mode::Play && played > 0 {
                    self.shell.deal_asked = Some(played);
                } else {
                    self.new_game();
                }
            }
            Command::DealNewGame => {
                self.shell.deal_asked = None;
                self.new_game();
            }
            Command::KeepPlaying => self.shell.deal_asked = None,
            _ => {}
        }
    }

    /// Plays the last move taken back again.
    fn redo_move(&mut self) {
        let now = self.now();
        if let Some(play) = &mut self.play {
            match play.redo(now) {
                Some(_) if play.is_reached() => {
                    let count = play.moves().len();
                    self.note(format!("Target reached in {count} moves."));
                }
                Some(_) => {}
                None => self.note("No move to play again."),
            }
        }
    }

    /// Drops the status line's "Target reached" once the game is no longer at the target.
    fn forget_target_reached(&mut self) {
        let reached = self.play.as_ref().is_some_and(PlayState::is_reached);
        if !reached
            && self
                .message
                .as_ref()
                .is_some_and(|m| m.text.starts_with("Target reached"))
        {
            self.message = None;
        }
    }

    /// Cancels the running solve, if any.
    fn cancel_solve(&mut self) {
        if let Some(session) = self.derived.session_mut(self.doc.revision())
            && !session.run.is_finished()
        {
            session.run.cancel();
            self.note("Cancelling the solve.");
        }
    }

    pub(in crate::app) fn solve(&mut self) {
        let puzzle = match (&self.play, self.state.mode) {
            (Some(play), Mode::Play) => play.position(),
            _ => match self.doc.validity() {
                Ok(puzzle) => puzzle.clone(),
                Err(error) => {
                    let error = error.to_string();
                    self.error(format!("Cannot solve: {error}"));
                    return;
                }
            },
        };
        // The engines file may have changed since the last look; the choice is read fresh.
        self.engines.refresh(std::time::Instant::now());
        let solver = match self.engines.resolve(&self.state.solver.solver) {
            Ok(solver) => solver,
            Err(problem) => {
                self.error(format!("Cannot solve: {problem}"));
                return;
            }
        };
        if let Some(reason) = solver_panel::unsupported_rule(&solver, puzzle.rules()) {
            self.error(format!("Cannot solve: {reason}"));
            return;
        }
        let title = match &solver {
            SolverChoice::BuiltIn(id) => id.kind().title.to_string(),
            SolverChoice::Engine(spec) => solver_panel::engine_title(spec),
        };
        // A hint's search for levels not asked for yet would take cores from the solve.
        self.derived.hints_mut(self.doc.revision()).give_way();
        let job = solver_panel::job_for(&solver, puzzle.clone(), &self.state.solver);
        let mut debugged = None;
        let started = if self.state.debug.enabled {
            let setup = crate::worker::debug::DebugSetup {
                start_paused: self.state.debug.start_paused,
                breakpoints: self.state.debug.breakpoints(puzzle.board(), None),
            };
            job.spawn_debug(self.waker(), setup).map(|(run, handle)| {
                debugged = Some(debugger::Debugger::new(handle, puzzle.clone()));
                run
            })
        } else {
            job.spawn(self.waker())
        };
        match started {
            Ok(run) => {
                let current = self.doc.revision();
                self.serial += 1;
                // The new run takes the last one's place, with everything that came of it:
                // dropping a run still going cancels it.
                self.derived.start_session(
                    current,
                    SolveSession {
                        run,
                        puzzle,
                        puzzle_name: self.doc.name(),
                        serial: self.serial,
                        interrupted: None,
                        recorded: false,
                        debugged: debugged.is_some(),
                    },
                );
                // The note speaks of this board's run: an edit, which cancels the run, takes
                // it away with the run (the Run tab says what became of it).
                if let Some(debugger) = debugged {
                    self.derived.set_debugger(current, debugger);
                    self.shell.dock = shell::DockTab::Debugger;
                    self.note_on_board(
                        format!(
                            "Solving with {title} in debug mode (untick Debug mode for a plain run)"
                        ),
                        false,
                    );
                } else {
                    self.note_on_board(format!("Solving with {title}"), false);
                }
            }
            Err(error) => self.error(format!("Could not start the solver: {error}")),
        }
    }
}

/// What a save attempt came to.
pub(in crate::app) enum SaveResult {
    /// Written.
    Saved,
    /// Not written; the status line says why.
    Failed,
    /// A dialog or window was shown (or cancelled); nothing was saved yet.
    Asked,
}
