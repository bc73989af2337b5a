//! The New board window: an empty board of any size with dealt robots, a standard game from
//! the real tiles, a random custom board, or the deck's puzzle.

use crate::app::DECK_PUZZLE;
use crate::app::command::{Command, Pending};
use crate::app::document::draft::{self, Draft, Edit, EditError};
use crate::app::widgets;
use crate::model::random::random_puzzle;
use crate::model::samples;
use crate::model::tiles::random_game;

/// The New board window's choices.
#[derive(Clone, Debug)]
pub(in crate::app) struct NewBoardWindow {
    /// Whether the window is shown.
    pub(in crate::app) open: bool,
    /// Whether its first field takes the keyboard focus on the next frame: set when it opens,
    /// so that Tab goes on through the window rather than from the menu bar.
    focus_first: bool,
    width: u16,
    height: u16,
    robots: usize,
    seed: u64,
}

impl Default for NewBoardWindow {
    fn default() -> Self {
        NewBoardWindow {
            open: false,
            focus_first: false,
            width: 16,
            height: 16,
            robots: 4,
            seed: 1,
        }
    }
}

impl NewBoardWindow {
    /// The New board window, when it is open: a board made here is sent as a command that
    /// replaces the board (asking first about unsaved changes), and closes the window.
    pub(in crate::app) fn ui(&mut self, ctx: &egui::Context, commands: &mut Vec<Command>) {
        if !self.open {
            return;
        }
        let mut open = true;
        let window = &mut *self;
        widgets::form_window_position(egui::Window::new("New board"), ctx)
            .open(&mut open)
            .default_width(380.0)
            .show(ctx, |ui| {
                let before = commands.len();
                ui.horizontal(|ui| {
                    let first = widgets::labeled_drag(ui, "Width", &mut window.width, 1..=64);
                    if std::mem::take(&mut window.focus_first) {
                        first.request_focus();
                    }
                    widgets::labeled_drag(ui, "Height", &mut window.height, 1..=64);
                });
                ui.horizontal(|ui| {
                    widgets::labeled_drag(ui, "Robot count", &mut window.robots, 1..=5);
                    widgets::labeled_drag(ui, "Seed", &mut window.seed, 0..=u64::MAX);
                });
                ui.separator();
                if ui
                    .button("Empty board")
                    .on_hover_text("No walls or targets; the robots are dealt from the seed")
                    .clicked()
                {
                    match empty_board(window) {
                        Ok(draft) => commands.push(Command::Guarded(Pending::Replace(
                            Box::new(draft),
                            format!("Empty {}x{} board", window.width, window.height),
                        ))),
                        Err(error) => {
                            commands.push(Command::Error(crate::app::capital(&error.to_string())))
                        }
                    }
                    window.seed += 1;
                }
                if ui
                    .button("Standard game")
                    .on_hover_text(
                        "A 16x16 board dealt from the real tiles, with robots and a target",
                    )
                    .clicked()
                {
                    match random_game(window.seed, window.robots) {
                        Ok((puzzle, _)) => commands.push(Command::Guarded(Pending::Replace(
                            Box::new(Draft::from_puzzle(&puzzle)),
                            format!("Standard game, seed {}", window.seed),
                        ))),
                        Err(error) => commands.push(Command::Error(error.to_string())),
                    }
                    window.seed += 1;
                }
                if ui
                    .button("Random custom board")
                    .on_hover_text("Random walls and targets on a board of the size above")
                    .clicked()
                {
                    match random_puzzle(window.width, window.height, window.robots, 5, window.seed)
                    {
                        Ok(puzzle) => commands.push(Command::Guarded(Pending::Replace(
                            Box::new(Draft::from_puzzle(&puzzle)),
                            format!(
                                "Random {}x{} board, seed {}",
                                window.width, window.height, window.seed
                            ),
                        ))),
                        Err(error) => commands.push(Command::Error(error.to_string())),
                    }
                    window.seed += 1;
                }
                if ui.button("The deck's 22-move puzzle").clicked() {
                    commands.push(Command::Guarded(Pending::Replace(
                        Box::new(Draft::from_puzzle(&samples::fogleman_22())),
                        DECK_PUZZLE.into(),
                    )));
                }
                // A board was made: the window has done its job.
                if commands.len() > before {
                    window.open = false;
                }
            });
        self.open &= open;
    }

    /// Opens the window, its first field focused.
    pub(in crate::app) fn show(&mut self) {
        if !self.open {
            self.focus_first = true;
        }
        self.open = true;
    }
}

/// An empty board of the window's size with its robot count dealt from its seed.
fn empty_board(window: &NewBoardWindow) -> Result<Draft, EditError> {
    let mut draft = Draft::empty(window.width, window.height).map_err(EditError::Model)?;
    draft::apply(
        &mut draft,
        &Edit::RandomRobots {
            count: window.robots,
            seed: window.seed,
        },
    )?;
    Ok(draft)
}
