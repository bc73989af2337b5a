//! The solver panel's list of every optimal solution: after an optimal solver has solved the
//! puzzle, *List all optimal solutions* lists them on a worker thread (sorted: fewest robots,
//! then fewest robot changes); clicking one plays it back on the board.

use super::Command;
use super::theme;
use crate::model::{Move, format_moves};
use crate::solver::all_solutions::{DEFAULT_MAX_SOLUTIONS, Listing};
use crate::solver::{Optimality, Stop};
use crate::worker::solutions::spawn_listing;
use crate::worker::{Task, drain_slot};
use std::time::Duration;

/// The time a listing may take.
pub const LISTING_TIME_LIMIT: Duration = Duration::from_secs(120);

/// The listing of one solved run.
#[derive(Default)]
pub struct SolutionsList {
    /// The serial of the run it belongs to.
    serial: Option<u64>,
    task: Option<Task<Listing>>,
    listing: Option<Listing>,
    /// The index of the solution last played back.
    chosen: Option<usize>,
}

impl SolutionsList {
    /// Takes the worker's answer when it has come.
    pub fn drain(&mut self) {
        // The task sends one message: the listing. A lost task leaves no listing.
        drain_slot(&mut self.task, |listing| {
            self.listing = Some(listing);
            true
        });
    }

    /// The solutions listed so far (empty while listing or before).
    pub fn solutions(&self) -> &[Vec<Move>] {
        self.listing
            .as_ref()
            .map_or(&[], |l| l.solutions.as_slice())
    }

    /// Whether the listing is running.
    pub fn is_listing(&self) -> bool {
        self.task.is_some()
    }

    fn cancel(&mut self) {
        if let Some(task) = &self.task {
            task.cancel();
        }
    }
}

impl super::RicochetApp {
    /// Starts listing every optimal solution of the current run's puzzle.
    pub(super) fn list_solutions(&mut self) {
        let Some(session) = self.current_session() else {
            return;
        };
        let Some(moves) = session.solution() else {
            return;
        };
        let (serial, puzzle, depth) = (session.serial, session.puzzle.clone(), moves.len() as u32);
        self.solutions.cancel();
        match spawn_listing(
            puzzle,
            depth,
            DEFAULT_MAX_SOLUTIONS,
            Some(LISTING_TIME_LIMIT),
            self.waker(),
        ) {
            Ok(task) => {
                self.solutions = SolutionsList {
                    serial: Some(serial),
                    task: Some(task),
                    listing: None,
                    chosen: None,
                };
            }
            Err(error) => self.error(format!("The listing could not start: {error}")),
        }
    }

    /// Stops the running listing; it hands back what it found.
    pub(super) fn stop_listing(&mut self) {
        self.solutions.cancel();
    }

    /// Plays the `index`th listed solution back on the run's puzzle.
    pub(super) fn play_listed_solution(&mut self, index: usize) {
        let Some(puzzle) = self.current_session().map(|s| s.puzzle.clone()) else {
            return;
        };
        let Some(moves) = self.solutions.solutions().get(index).cloned() else {
            return;
        };
        let now = self.now();
        self.solutions.chosen = Some(index);
        self.playback = Some(super::playback::Playback::new(puzzle, moves, now));
    }

    /// The solutions listed for the current run (for tests and tools that drive the app).
    pub fn listed_solutions(&self) -> &[Vec<Move>] {
        self.solutions.solutions()
    }

    /// Whether the listing is running.
    pub fn listing_solutions(&self) -> bool {
        self.solutions.is_listing()
    }

    /// The list's part of the Run tab: shown once an optimal solver solved the board shown.
    pub(super) fn solutions_ui(&mut self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        let Some(session) = self.current_session() else {
            return;
        };
        if session.solution().is_none() || session.run.kind().optimality != Optimality::Guaranteed {
            return;
        }
        let serial = session.serial;
        let palette = theme::palette(ui.visuals().dark_mode);
        ui.separator();
        let list = &self.solutions;
        if list.serial != Some(serial) {
            if ui
                .button("List all optimal solutions")
                .on_hover_text("Every shortest solution, fewest robots first; click one to play it")
                .clicked()
            {
                commands.push(Command::ListSolutions);
            }
            return;
        }
        if list.is_listing() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Listing the optimal solutions…");
                if ui.button("Stop listing").clicked() {
                    commands.push(Command::StopListing);
                }
            });
            return;
        }
        let Some(listing) = &list.listing else {
            return;
        };
        let count = listing.solutions.len();
        let summary = match (listing.complete, listing.stopped) {
            (true, _) => format!(
                "{count} optimal solution{}",
                if count == 1 { "" } else { "s" }
            ),
            (false, Some(Stop::Cancelled)) => format!("{count} optimal solutions (stopped)"),
            (false, Some(_)) => format!("{count} optimal solutions (limit reached)"),
            (false, None) => format!("The first {count} optimal solutions (there are more)"),
        };
        ui.label(egui::RichText::new(summary).strong());
        ui.label(
            egui::RichText::new("Fewest robots first; click one to play it back.")
                .color(palette.muted),
        );
        egui::ScrollArea::vertical()
            .id_salt("optimal-solutions")
            .max_height(220.0)
            .show(ui, |ui| {
                for (i, moves) in listing.solutions.iter().enumerate() {
                    let text = format!("{}. {}", i + 1, format_moves(moves));
                    let label = egui::RichText::new(text).monospace();
                    if ui.selectable_label(list.chosen == Some(i), label).clicked() {
                        commands.push(Command::PlayListedSolution(i));
                    }
                }
            });
    }
}
