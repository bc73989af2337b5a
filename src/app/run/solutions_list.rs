//! The solver panel's list of every optimal solution: after an optimal solver has solved the
//! puzzle, *List all optimal solutions* lists them on a worker thread (sorted: fewest robots,
//! then fewest robot changes); clicking one plays it back on the board.
//!
//! The listing starts from the run's optimum (it searches only sequences of that length, with
//! no second solve), shows its progress while it runs, and *Stop listing* keeps what it found.
//! The run's own solution is always among the listed: it is optimal whatever the listing
//! reached. The list lives in the store of derived results, so it belongs to the run and the
//! board it was made for and goes with them.

use crate::app::command::Command;
use crate::app::run::solver_panel::SolveSession;
use crate::app::theme;
use crate::app::widgets;
use crate::app::widgets::format_count;
use crate::model::{Move, format_moves};
use crate::solver::Optimality;
use crate::solver::analysis::all_solutions::{DEFAULT_MAX_SOLUTIONS, Listing, sort_solutions};
use crate::study::format::format_time;
use crate::worker::Drained;
use crate::worker::solutions::{ListingTask, spawn_listing};
use std::time::Duration;

/// The time a listing may take.
const LISTING_TIME_LIMIT: Duration = Duration::from_secs(120);

/// For how long after a listing starts its Stop button is kept in view (after that, the user
/// may scroll the tab elsewhere).
const STOP_INTO_VIEW: Duration = Duration::from_millis(300);

/// The listing of one solved run.
#[derive(Default)]
pub(in crate::app) struct SolutionsList {
    /// The serial of the run it belongs to.
    serial: u64,
    /// The run's own solution, which the list always holds.
    optimum: Vec<Move>,
    task: Option<ListingTask>,
    listing: Option<Listing>,
    /// The index of the solution last played back.
    chosen: Option<usize>,
}

impl SolutionsList {
    /// Starts listing every optimal solution of `session`'s puzzle at the length its run
    /// found; `None` when the run found no solution.
    pub(in crate::app) fn start(
        session: &SolveSession,
        waker: crate::worker::Waker,
    ) -> Option<std::io::Result<SolutionsList>> {
        let optimum = session.solution()?.to_vec();
        let task = spawn_listing(
            session.puzzle.clone(),
            optimum.len() as u32,
            DEFAULT_MAX_SOLUTIONS,
            Some(LISTING_TIME_LIMIT),
            waker,
        );
        Some(task.map(|task| SolutionsList {
            serial: session.serial,
            optimum,
            task: Some(task),
            listing: None,
            chosen: None,
        }))
    }

    /// The serial of the run the list belongs to.
    pub(in crate::app) fn serial(&self) -> u64 {
        self.serial
    }

    /// Marks the `index`th listed solution as the one played back, and returns its moves.
    pub(in crate::app) fn choose(&mut self, index: usize) -> Option<Vec<Move>> {
        let moves = self.solutions().get(index).cloned()?;
        self.chosen = Some(index);
        Some(moves)
    }

    /// Takes the worker's answer when it has come, with the run's own solution counted in.
    pub(in crate::app) fn drain(&mut self) {
        let Some(running) = &self.task else {
            return;
        };
        let mut answer = None;
        // The task sends one message: the listing. A lost task leaves no listing.
        let drained = running.task.drain(|listing| {
            answer = Some(listing);
            true
        });
        if drained != Drained::Waiting {
            self.task = None;
        }
        if let Some(mut listing) = answer {
            with_run_solution(&mut listing, &self.optimum, DEFAULT_MAX_SOLUTIONS);
            self.listing = Some(listing);
        }
    }

    /// The solutions listed so far (empty while listing or before).
    pub(in crate::app) fn solutions(&self) -> &[Vec<Move>] {
        self.listing
            .as_ref()
            .map_or(&[], |l| l.solutions.as_slice())
    }

    /// Whether the listing is running.
    pub(in crate::app) fn is_listing(&self) -> bool {
        self.task.is_some()
    }

    /// Asks the listing to stop; it hands back what it found.
    pub(in crate::app) fn cancel(&mut self) {
        if let Some(running) = &self.task {
            running.task.cancel();
        }
    }
}

/// Counts the run's own solution, `optimum`, into a `listing` of at most `cap` solutions.
///
/// A listing stopped early may not have reached the run's solution, which is one of the optimal
/// solutions all the same: it goes in, in its sorted place, and when the listing already holds
/// `cap` solutions it takes the place of the last one, so the list never holds more than the
/// cap it reports. A capped listing that was not stopped holds exactly the best ones of all, so
/// the run's solution, ranked below them, stays out of it.
fn with_run_solution(listing: &mut Listing, optimum: &[Move], cap: usize) {
    if listing.stopped.is_none()
        || optimum.is_empty()
        || cap == 0
        || listing.solutions.iter().any(|s| s == optimum)
    {
        return;
    }
    listing.solutions.truncate(cap - 1);
    listing.solutions.push(optimum.to_vec());
    sort_solutions(&mut listing.solutions);
}

/// The list's part of the Run tab: shown once an optimal solver solved the board shown.
pub(in crate::app) fn solutions_ui(
    ui: &mut egui::Ui,
    session: &SolveSession,
    list: Option<&SolutionsList>,
    commands: &mut Vec<Command>,
) {
    if session.solution().is_none() || session.run.optimality() != Optimality::Guaranteed {
        return;
    }
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.separator();
    let Some(list) = list else {
        if ui
            .button("List all optimal solutions")
            .on_hover_text(
                "Every solution of the length found, fewest robots first; click one to \
                 play it",
            )
            .clicked()
        {
            commands.push(Command::ListSolutions);
        }
        return;
    };
    if let Some(running) = &list.task {
        ui.horizontal(|ui| {
            widgets::calm_spinner(ui, None);
            ui.label(format!(
                "Listing the {}-move solutions: {} nodes, {}",
                list.optimum.len(),
                format_count(running.progress.nodes()),
                format_time(running.started.elapsed())
            ));
        });
        let stop = ui
            .button("Stop listing")
            .on_hover_text("Stop and keep the solutions found so far");
        // The listing shows below the button that started it, often at the bottom of a
        // long Run tab: its first frames bring Stop into view.
        if running.started.elapsed() < STOP_INTO_VIEW {
            stop.scroll_to_me(None);
        }
        if stop.clicked() {
            commands.push(Command::StopListing);
        }
        return;
    }
    let Some(listing) = &list.listing else {
        return;
    };
    let count = listing.solutions.len();
    let plural = if count == 1 { "" } else { "s" };
    let summary = match (listing.complete, listing.stopped) {
        (true, _) => format!("{count} optimal solution{plural}"),
        (false, Some(crate::solver::Stop::Cancelled)) => {
            format!("{count} optimal solution{plural} found before the stop (there may be more)")
        }
        (false, Some(_)) => {
            format!(
                "{count} optimal solution{plural} found before the time limit (there may be more)"
            )
        }
        (false, None) => format!("The first {count} optimal solutions (there are more)"),
    };
    ui.label(egui::RichText::new(summary).strong());
    ui.label(
        egui::RichText::new("Fewest robots first; click one to play it back.").color(palette.muted),
    );
    egui::ScrollArea::vertical()
        .id_salt(("optimal-solutions", list.serial))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direction, RobotColor};
    use crate::solver::Stop;

    fn moves(robot: RobotColor, dirs: &[Direction]) -> Vec<Move> {
        dirs.iter().map(|&dir| Move { robot, dir }).collect()
    }

    #[test]
    fn a_stopped_listing_at_its_cap_never_reports_more_than_the_cap() {
        use Direction::*;
        // A thousand different two-robot sequences stand for a full listing.
        let robots = [RobotColor::Red, RobotColor::Blue];
        let dirs = [North, East, South, West];
        let mut solutions = Vec::new();
        'fill: for a in dirs {
            for b in dirs {
                for c in dirs {
                    for d in dirs {
                        for e in dirs {
                            let mut sequence = moves(robots[0], &[a, b, c]);
                            sequence.extend(moves(robots[1], &[d, e]));
                            solutions.push(sequence);
                            if solutions.len() == 1_000 {
                                break 'fill;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(solutions.len(), 1_000);
        let mut listing = Listing {
            solutions,
            complete: false,
            stopped: Some(Stop::Cancelled),
            rejected: Vec::new(),
            nodes: 1,
            elapsed: Duration::ZERO,
        };
        let optimum = moves(RobotColor::Green, &[North, East, South, West, North]);
        with_run_solution(&mut listing, &optimum, 1_000);
        assert_eq!(listing.solutions.len(), 1_000, "the cap holds");
        assert!(
            listing.solutions.contains(&optimum),
            "the run's own is listed"
        );

        // Below the cap it is added; a listing that was not stopped is left as it is.
        listing.solutions.truncate(10);
        listing.solutions.retain(|s| s != &optimum);
        let before = listing.solutions.len();
        with_run_solution(&mut listing, &optimum, 1_000);
        assert_eq!(listing.solutions.len(), before + 1);
        listing.stopped = None;
        listing.solutions.retain(|s| s != &optimum);
        with_run_solution(&mut listing, &optimum, 1_000);
        assert!(!listing.solutions.contains(&optimum));
    }
}
