//! The app's logic, apart from drawing: drain the worker's news, turn keys into commands,
//! keep animations going, and ask before a close would drop unsaved changes.

use crate::app::command::{Command, Pending};
use crate::app::keys;
use crate::app::playing::playback::Playback;
use crate::app::run::plots::SolvePoint;
use crate::app::{RicochetApp, StatusMessage, capital, debugger, shell};
use crate::solver::Outcome;
use crate::worker::RunEnd;

impl RicochetApp {
    pub(in crate::app) fn drain_worker(&mut self) {
        let now = self.now();
        let current = self.doc.revision();
        let frontier_wanted = self.shell.dock == shell::DockTab::Debugger
            && (self.state.debug.show_frontier || self.state.debug.predict);
        if let Some(debugger) = self.derived.debugger_mut(current) {
            // A trace file's heat map and a frontier are rebuilt a stride of events per frame.
            let picture_pending = debugger.refresh(self.state.debug.speed);
            let frontier_pending = debugger.sync_frontier(frontier_wanted);
            if picture_pending || frontier_pending {
                self.ctx.request_repaint();
            }
        }
        self.derived.hints_mut(current).drain();
        if let Some(list) = self.derived.solutions_mut(current) {
            list.drain();
        }
        self.derived.drain_retiring();
        self.sync_distances();
        self.sync_stateless();
        self.sync_graph();
        self.analyzer.drain();
        self.sync_live_optimum();
        self.sync_hot_cold();
        let Some(session) = self.derived.session_mut(current) else {
            return;
        };
        session.run.drain();
        let mut solution_to_play = None;
        if session.run.is_finished() && !session.recorded {
            session.recorded = true;
            let title = session.run.title().to_string();
            let summary = match session.run.end() {
                Some(RunEnd::Finished(report)) => match &report.outcome {
                    Outcome::Solved { moves } => {
                        format!("{title} found {} moves.", moves.len())
                    }
                    Outcome::Unsolvable { .. } => match crate::app::run::engines::engine_claim(
                        session.run.solver(),
                        &report.outcome,
                    ) {
                        Some(claim) => format!("{title}: {claim}."),
                        None => format!("{title} proved there is no solution."),
                    },
                    Outcome::NotFound => format!("{title} found no solution."),
                    Outcome::Cancelled => format!("{title} was cancelled."),
                    Outcome::TimeLimit => format!("{title} reached its time limit."),
                    Outcome::MemoryLimit => format!("{title} reached its memory limit."),
                    Outcome::Invalid { .. } => {
                        format!("{title} gave an answer that failed its replay.")
                    }
                },
                Some(RunEnd::Refused(error)) => capital(&error.to_string()),
                Some(RunEnd::Crashed(message)) => capital(message),
                None => String::new(),
            };
            let failed = matches!(
                session.run.end(),
                Some(RunEnd::Refused(_) | RunEnd::Crashed(_))
                    | Some(RunEnd::Finished(crate::solver::Report {
                        outcome: Outcome::Invalid { .. },
                        ..
                    }))
            );
            self.message = Some(StatusMessage {
                text: summary,
                error: failed,
                about: Some(current),
            });
            if let Some(RunEnd::Finished(report)) = session.run.end()
                && let Outcome::Solved { moves } = &report.outcome
            {
                // Every solver's solves are drawn, an engine's as a series of its own under
                // its name (its time includes starting its process); a debugged run's time
                // includes its pauses and its recording, so it is not drawn among them.
                if !session.debugged {
                    self.plots.push(SolvePoint {
                        puzzle: session.puzzle_name.clone(),
                        solver: session.run.solver().name().to_string(),
                        title: session.run.title().to_string(),
                        moves: moves.len(),
                        seconds: report.elapsed.as_secs_f64(),
                    });
                }
                if session.interrupted.is_none() {
                    solution_to_play =
                        Some(Playback::new(session.puzzle.clone(), moves.clone(), now));
                }
            }
        }
        if let Some(playback) = solution_to_play {
            self.derived.set_playback(current, playback);
            // The solution's playback takes the board: a debugger left on an earlier event
            // would keep it on a search node while the playback says it shows the last move.
            if let Some(debugger) = self.derived.debugger_mut(current) {
                debugger.apply(crate::app::command::DebugCommand::Latest);
            }
        }
        let Some(session) = self.derived.session(current) else {
            return;
        };
        if !session.run.is_finished() {
            // The worker wakes us with news; this is only a floor on the refresh rate.
            self.ctx.request_repaint_after(crate::app::RUN_REFRESH);
        }
    }

    pub(in crate::app) fn keyboard(&mut self, ctx: &egui::Context) {
        // Escape closes the window on top, whatever has the keys (a dialog's text field too),
        // before it means anything else; a popup's own Escape closes the popup first.
        if !egui::Popup::is_any_open(ctx)
            && self.any_window_open()
            && ctx.input_mut(|input| input.consume_key(egui::Modifiers::NONE, egui::Key::Escape))
        {
            self.close_top_window();
            return;
        }
        // A text field has the keys; while the unsaved-changes question waits, its buttons
        // are the only way on, so a shortcut cannot start work behind it.
        if keys::typing_in_text_field(ctx)
            || self.shell.pending.is_some()
            || self.shell.deal_asked.is_some()
        {
            return;
        }
        let context = keys::KeyContext {
            mode: self.state.mode,
            debugger_paused: self.debugger().map(debugger::Debugger::is_paused),
            playback: self.playback().is_some(),
            popup_open: egui::Popup::is_any_open(ctx),
        };
        let commands = ctx.input_mut(|input| keys::handle(input, context));
        self.shell.queued.extend(commands);
        // Ctrl+V with no text field to take it pastes a board, in any format read here.
        let pasted = ctx.input(|input| {
            input.events.iter().rev().find_map(|event| match event {
                egui::Event::Paste(text) => Some(text.clone()),
                _ => None,
            })
        });
        if let Some(text) = pasted {
            self.shell
                .queued
                .push(Command::Guarded(Pending::Import(text)));
        }
    }

    /// Opens a puzzle file dropped on the window (the first, when several are dropped).
    pub(in crate::app) fn open_dropped_files(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|input| {
            input
                .raw
                .dropped_files
                .iter()
                .map(|file| file.path().to_path_buf())
                .next()
        });
        if let Some(path) = dropped {
            self.open_puzzle_file(path);
        }
    }

    /// Sends the window's title when it changed: the puzzle's name and the unsaved mark.
    pub(in crate::app) fn sync_title(&mut self, ctx: &egui::Context) {
        let title = self.window_title();
        if title != self.shell.shown_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.shell.shown_title = title;
        }
    }

    /// Whether any window is shown over the board.
    pub fn any_window_open(&self) -> bool {
        self.shell.pending.is_some()
            || self.shell.deal_asked.is_some()
            || self.analyzer.open
            || self.compare.open
            || self.matches.open
            || self.experiments.open
            || self.shell.help_open
            || self.new_window.open
            || self.windows.save.is_some()
            || self.windows.import
            || self.windows.open
            || self.add_engine.open
            || self.export_animation.open
            || self.windows.changed_on_disk.is_some()
    }

    /// Closes the window on top, in the reverse of the order they are drawn in: the
    /// unsaved-changes question (answered Cancel) first, the file windows last.
    pub(in crate::app) fn close_top_window(&mut self) {
        if self.shell.pending.is_some() {
            self.shell.queued.push(Command::ResolvePending(
                crate::app::command::Resolution::Cancel,
            ));
        } else if self.shell.deal_asked.is_some() {
            self.shell.queued.push(Command::KeepPlaying);
        } else if self.windows.changed_on_disk.is_some() {
            self.shell.queued.push(Command::ResolveChangedOnDisk(
                crate::app::command::DiskChoice::Cancel,
            ));
        } else if self.export_animation.open {
            self.export_animation.open = false;
        } else if self.add_engine.open {
            self.add_engine.open = false;
        } else if self.compare.open {
            self.compare.open = false;
        } else if self.matches.open {
            self.matches.open = false;
        } else if self.analyzer.open {
            self.analyzer.open = false;
        } else if self.experiments.open {
            self.experiments.open = false;
        } else if self.shell.help_open {
            self.shell.help_open = false;
        } else if self.new_window.open {
            self.new_window.open = false;
        } else if self.windows.save.is_some() {
            self.windows.save = None;
        } else if self.windows.import {
            self.windows.import = false;
        } else {
            self.windows.open = false;
        }
    }

    pub(in crate::app) fn handle_close_request(&mut self, ctx: &egui::Context) {
        let asked = ctx.input(|i| i.viewport().close_requested());
        if asked
            && self.is_dirty()
            && !self.shell.close_confirmed
            && self.presentation.ask_before_close
        {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.shell.pending = Some(Pending::Quit);
        }
    }

    /// Switches egui's own animations (a scroll bar fading in, a header opening) off while a
    /// run is going, and back on after. Under a software renderer each animated frame takes
    /// a core from the solver for tens of milliseconds, and as a run's tables and rows
    /// appeared its first half second drew eight such frames.
    pub(in crate::app) fn still_while_running(&self, ctx: &egui::Context) {
        let animation_time = if self.is_running() {
            0.0
        } else {
            egui::Style::default().animation_time
        };
        if ctx.global_style().animation_time != animation_time {
            ctx.all_styles_mut(|style| style.animation_time = animation_time);
        }
    }

    pub(in crate::app) fn animate(&mut self, ctx: &egui::Context) {
        let now = self.now();
        let speed = self.state.solver.playback_speed;
        let mut busy = false;
        if let Some(playback) = self.derived.playback_mut(self.doc.revision()) {
            busy |= playback.tick(now, speed);
        }
        if let Some(play) = &self.play {
            busy |= play.is_animating(now);
        }
        if busy {
            ctx.request_repaint();
        }
    }
}

#[cfg(test)]
mod title_tests {
    use crate::app::window_title;

    #[test]
    fn the_title_names_the_puzzle_and_marks_unsaved_changes() {
        assert_eq!(
            window_title("real-21.ron", false),
            "real-21.ron — Ricochet Lab"
        );
        assert_eq!(
            window_title("real-21.ron", true),
            "• real-21.ron — Ricochet Lab"
        );
    }
}
