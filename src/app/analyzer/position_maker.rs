//! Positions made to order, in the Analyse board window: *Make a position of N moves* and
//! *Find harder* run on a worker thread with progress and cancel; a click on a made position
//! opens it as the board.

use crate::app::capital;
use crate::app::command::{Command, Pending};
use crate::app::document::draft::Draft;
use crate::app::theme;
use crate::model::Puzzle;
use crate::study::generate::{GenerateConfig, MAX_MOVES};
use crate::worker::generate::{MakeJob, MakeNews, spawn_make};
use crate::worker::{Drained, Task, Waker, drain_slot};
use std::time::Duration;

/// How long either search may take.
const MAKE_TIME: Duration = Duration::from_secs(60);

/// How many positions *Make* looks for.
const MAKE_COUNT: usize = 3;

/// The inputs, run and results of the position maker.
pub struct PositionMaker {
    /// The optimal length *Make* aims at.
    pub moves: u32,
    /// The seed of both searches.
    seed: u64,
    task: Option<Task<MakeNews>>,
    progress: String,
    made: Vec<(Puzzle, u32)>,
    summary: Option<String>,
    error: Option<String>,
}

impl Default for PositionMaker {
    fn default() -> Self {
        PositionMaker {
            moves: 12,
            seed: 1,
            task: None,
            progress: String::new(),
            made: Vec::new(),
            summary: None,
            error: None,
        }
    }
}

impl PositionMaker {
    /// Starts `job`; a run under way is cancelled first.
    fn start(&mut self, job: MakeJob, waker: Waker) {
        self.cancel();
        self.made.clear();
        self.summary = None;
        self.error = None;
        self.progress = "starting".into();
        match spawn_make(job, waker) {
            Ok(task) => self.task = Some(task),
            Err(error) => self.error = Some(format!("The search could not start: {error}")),
        }
    }

    /// Asks a run under way to stop; it keeps what it made.
    fn cancel(&self) {
        if let Some(task) = &self.task {
            task.cancel();
        }
    }

    /// Whether a search is running.
    pub fn is_running(&self) -> bool {
        self.task.is_some()
    }

    /// The positions made by the last run, with their optimum.
    pub fn made(&self) -> &[(Puzzle, u32)] {
        &self.made
    }

    /// Takes the worker's news.
    pub(super) fn drain(&mut self) {
        let drained = drain_slot(&mut self.task, |news| match news {
            MakeNews::Progress(line) => {
                self.progress = line;
                false
            }
            MakeNews::Done(Ok((made, summary))) => {
                self.made = made;
                self.summary = Some(summary);
                true
            }
            MakeNews::Done(Err(error)) => {
                self.error = Some(capital(&error.to_string()));
                true
            }
        });
        if drained == Drained::Lost {
            self.error = Some("The search's thread stopped without a result.".into());
        }
    }
}

/// The maker's part of the window. `puzzle` is the board as a puzzle, when it is one;
/// `hardest` the analysis's hardest position, where *Find harder* starts when there is one.
pub(super) fn position_maker_ui(
    ui: &mut egui::Ui,
    maker: &mut PositionMaker,
    puzzle: Option<&Puzzle>,
    hardest: Option<&Puzzle>,
    waker: Waker,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    let running = maker.is_running();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    ui.label(egui::RichText::new("Positions made to order").strong());
    ui.horizontal(|ui| {
        let label = ui.label("Moves");
        ui.add_enabled(
            !running,
            egui::DragValue::new(&mut maker.moves).range(1..=MAX_MOVES),
        )
        .labelled_by(label.id);
        let make = ui
            .add_enabled(
                !running && puzzle.is_some(),
                egui::Button::new(format!("Make a position of {} moves", maker.moves)),
            )
            .on_hover_text(format!(
                "Look for {MAKE_COUNT} positions on this board whose optimum is exactly this \
                 long (at most {} s)",
                MAKE_TIME.as_secs()
            ))
            .on_disabled_hover_text("The board must be a valid puzzle");
        if make.clicked()
            && let Some(puzzle) = puzzle
        {
            let config = GenerateConfig {
                moves: maker.moves,
                count: MAKE_COUNT,
                seed: maker.seed,
                robots: None,
                threads,
                time_limit: MAKE_TIME,
                memory_limit: 1 << 30,
            };
            let job = MakeJob::Length {
                board: puzzle.clone(),
                config,
            };
            maker.start(job, waker.clone());
        }
    });
    ui.horizontal(|ui| {
        let start = hardest.or(puzzle);
        let from = if hardest.is_some() {
            "the analysis's hardest position"
        } else {
            "the board's position"
        };
        let harder = ui
            .add_enabled(
                !running && start.is_some(),
                egui::Button::new("Find harder"),
            )
            .on_hover_text(format!(
                "Move one robot at a time from {from}, keeping each change that makes the \
                 optimum longer (at most {} s)",
                MAKE_TIME.as_secs()
            ))
            .on_disabled_hover_text("The board must be a valid puzzle");
        if harder.clicked()
            && let Some(start) = start
        {
            let job = MakeJob::Harder {
                start: start.clone(),
                seed: maker.seed,
                time: MAKE_TIME,
                threads,
            };
            maker.start(job, waker.clone());
        }
        if ui
            .add_enabled(running, egui::Button::new("Cancel search"))
            .clicked()
        {
            maker.cancel();
        }
    });
    // One line always, so nothing below moves when a run starts or ends.
    let status = if running {
        format!("Searching: {}", maker.progress)
    } else if let Some(summary) = &maker.summary {
        capital(summary)
    } else {
        "Nothing made yet: choose the moves and press Make, or Find harder.".into()
    };
    ui.label(status);
    if let Some(error) = &maker.error {
        ui.colored_label(palette.error, error);
    }
    for (index, (position, moves)) in maker.made.iter().enumerate() {
        let name = crate::model::formats::game_id::write(position)
            .unwrap_or_else(|_| format!("#{}", index + 1));
        if ui
            .button(format!("{moves} moves: {name}"))
            .on_hover_text("Open this position as the board")
            .clicked()
        {
            commands.push(Command::Guarded(Pending::Replace(
                Box::new(Draft::from_puzzle(position)),
                format!("{moves}-move position {name}"),
            )));
        }
    }
}
