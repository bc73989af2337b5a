//! The windows over the board, drawn after the panels in this order: the in-app file windows,
//! New board, Help, Experiments, Analyse board, Compare runs, Add engine, Matches, Export
//! animation, and last the unsaved-changes question, which is modal. A new
//! window is one more line here and a file of its own.

use crate::app::command::Command;
use crate::app::files;
use crate::app::shell::help;
use crate::app::{RicochetApp, analyzer, compare, experiments};

/// Every window the app shows over the board, by its title, and the two questions (by their
/// heading). A new window is one more line here too: the layout tour (`tests/app/layout_tour.rs`)
/// visits every window listed, and fails on a window it meets that is not listed.
pub const WINDOW_TITLES: [&str; 17] = [
    "Open a board",
    "Save board as",
    "Export as Cox text",
    "Export board image",
    "Save the search trace",
    "Import a game id or Cox text",
    "New board",
    "Help",
    "Experiments",
    "Analyse board",
    "Compare runs",
    "Matches",
    "Add engine",
    "Export animation",
    "Unsaved changes",
    "Changed on disk",
    "New game",
];

impl RicochetApp {
    /// Every window that is open.
    pub(in crate::app) fn windows_ui(&mut self, ctx: &egui::Context, commands: &mut Vec<Command>) {
        files::file_windows_ui(ctx, &mut self.windows, self.boards.as_deref(), commands);
        self.new_window.ui(ctx, commands);
        help::help_ui(ctx, &mut self.shell.help_open);
        let native_dialogs = self.use_native_dialogs();
        let waker = self.waker();
        experiments::experiments_window(
            ctx,
            &mut self.experiments,
            &mut self.state.experiments,
            experiments::WindowInputs {
                current_board: self.doc.validity().as_ref().ok(),
                engines: &self.engines,
                native_dialogs,
            },
            waker,
            commands,
        );
        // The puzzle is copied only while the window shows.
        let puzzle = self
            .analyzer
            .open
            .then(|| self.doc.validity().as_ref().ok().cloned())
            .flatten();
        let waker = self.waker();
        analyzer::analyzer_window(
            ctx,
            &mut self.analyzer,
            &self.doc.draft().board,
            puzzle.as_ref(),
            waker,
            commands,
        );
        let native_dialogs = self.use_native_dialogs();
        let waker = self.waker();
        compare::window::compare_window(
            ctx,
            &mut self.compare,
            compare::window::CompareInputs {
                puzzle: self.doc.validity().as_ref().ok(),
                engines: &self.engines,
                native_dialogs,
            },
            waker,
            commands,
        );
        crate::app::run::engine_window::add_engine_window(
            ctx,
            &mut self.add_engine,
            &mut self.engines,
            native_dialogs,
            commands,
        );
        crate::app::matches::matches_window(ctx, &mut self.matches, &self.engines, native_dialogs);
        let (current, waker) = (self.doc.revision(), self.waker());
        crate::app::playing::export_animation::export_animation_window(
            ctx,
            &mut self.export_animation,
            current,
            native_dialogs,
            waker,
            commands,
        );
        if let Some(pending) = &self.shell.pending {
            files::unsaved_changes_ui(ctx, pending, commands);
        }
        if let Some(played) = self.shell.deal_asked {
            crate::app::playing::play::new_game_question_ui(ctx, played, commands);
        }
        if let Some(path) = &self.windows.changed_on_disk {
            files::changed_on_disk_ui(ctx, path, commands);
        }
    }
}
