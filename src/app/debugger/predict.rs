//! Predict the next step: before each step the learner picks what the search does next (a
//! move from the node shown or backing up, for a depth-first search; an entry of the open
//! list, for a breadth-first or best-first one); the debugger then steps to the next node,
//! says right or wrong and why (the order the search follows, the f behind its choice, the
//! prune that followed), and keeps the score of the run.

use super::Debugger;
use super::frontier::FrontierShown;
pub use crate::app::command::Guess;
use crate::app::command::{Command, DebugCommand};
use crate::app::theme;
use crate::model::Move;
use crate::solver::trace::{EventKind, Frontier};
use crate::solver::{Event, PruneReason, RobotCells, SearchShape};

/// A guess waiting for the next node.
#[derive(Clone, Debug)]
struct Waiting {
    /// The event shown when the guess was made.
    from: u64,
    from_depth: u32,
    from_path: Vec<Move>,
    guess: Guess,
    /// The open list then, for an open-list search.
    open: Option<(Frontier, SearchShape)>,
}

/// The outcome of the last guess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the guess was right.
    pub right: bool,
    /// What the search did and why, in words.
    pub why: String,
}

/// The Predict mode's state for one run.
#[derive(Default)]
pub(super) struct PredictState {
    waiting: Option<Waiting>,
    /// Right guesses and guesses made.
    pub(super) score: (u32, u32),
    pub(super) last: Option<Verdict>,
}

impl Debugger {
    /// Takes a guess at the event shown and steps to the next node, in the recording or, at a
    /// live run's latest event, by letting the search go on to it.
    pub(super) fn predict(&mut self, guess: Guess) {
        let Some(from) = self.shown_index() else {
            return;
        };
        let view = self.shown_view();
        let open = match self.frontier.shown() {
            Some(FrontierShown::Open(frontier, shape)) => Some((frontier.clone(), *shape)),
            _ => None,
        };
        self.predict.waiting = Some(Waiting {
            from,
            from_depth: view.depth,
            from_path: view.path.clone(),
            guess,
            open,
        });
        let history = self.history();
        let next = {
            let mut history = super::lock(&history);
            history.reader().and_then(|reader| {
                reader.find_kind(from, EventKind::Node, true, super::FIND_BUDGET)
            })
        };
        match (next, &self.source) {
            (Ok(Some(index)), _) => self.show(index),
            (Ok(None), super::Source::Live(handle)) if handle.is_paused() => {
                // The next node is not recorded yet: the search, waiting for the user, goes
                // on to it and pauses there. A run that is not waiting has ended.
                self.timeline = None;
                handle.set_mode(crate::worker::debug::RunMode::StepOver(u32::MAX));
            }
            (Ok(None), _) => self.judge(None),
            (Err(error), _) => {
                self.predict.waiting = None;
                self.find_note = Some(error.to_string());
            }
        }
    }

    /// Judges a waiting guess once the shown event is the next node after it; called after
    /// every change of the event shown.
    pub(super) fn sync_prediction(&mut self) {
        let Some(waiting) = &self.predict.waiting else {
            return;
        };
        let Some(index) = self.shown_index() else {
            return;
        };
        if index <= waiting.from {
            return;
        }
        let node = self.recorded(index).map(|recorded| recorded.event);
        if let Some(event @ Event::Node { .. }) = node {
            let after = self
                .recorded(index + 1)
                .map(|recorded| recorded.event)
                .and_then(|event| match event {
                    Event::Pruned { reason, .. } => Some(reason),
                    _ => None,
                });
            self.judge(Some((event, after)));
        }
    }

    /// Scores the waiting guess against the next node (`None`: the search examined no more).
    fn judge(&mut self, next: Option<(Event, Option<PruneReason>)>) {
        let Some(waiting) = self.predict.waiting.take() else {
            return;
        };
        let verdict = verdict(&waiting, next.as_ref());
        self.predict.score.1 += 1;
        if verdict.right {
            self.predict.score.0 += 1;
        }
        self.predict.last = Some(verdict);
    }

    /// Whether a guess waits for the search.
    pub(super) fn is_predicting(&self) -> bool {
        self.predict.waiting.is_some()
    }
}

/// Whether `guess` named the next node, and why the search chose it.
fn verdict(waiting: &Waiting, next: Option<&(Event, Option<PruneReason>)>) -> Verdict {
    let Some((Event::Node { depth, path, cells }, pruned)) = next else {
        return Verdict {
            right: waiting.guess == Guess::Back,
            why: "The search examined no more nodes after this one.".to_string(),
        };
    };
    let is_child = *depth == waiting.from_depth + 1
        && path.len() == *depth as usize
        && path[..path.len() - 1] == waiting.from_path[..];
    let right = match &waiting.guess {
        Guess::Move(mv) => is_child && path.last() == Some(mv),
        Guess::Back => !is_child,
        Guess::Entry(event) => entry_cells(waiting, *event) == Some(*cells),
    };
    let step = path
        .last()
        .map_or_else(|| "the start".to_string(), ToString::to_string);
    let mut why = match &waiting.open {
        Some((frontier, shape)) => open_list_why(frontier, *shape, cells, &step),
        None if is_child => format!(
            "It went on below this node with {step}: the next move in its order at depth {}.",
            waiting.from_depth
        ),
        None => format!(
            "No move below this node came next: the search backed up and examined {step} at \
             depth {depth}{}.",
            if *depth == 0 {
                " (a new iteration's root)"
            } else {
                ""
            }
        ),
    };
    if let Some(reason) = pruned {
        why.push_str(&format!(" It then cut that node: {reason}."));
    }
    Verdict { right, why }
}

/// The cells of the open-list entry generated at `event`, as the list stood at the guess.
fn entry_cells(waiting: &Waiting, event: u64) -> Option<RobotCells> {
    let (frontier, _) = waiting.open.as_ref()?;
    frontier
        .next
        .iter()
        .find(|entry| entry.event == event)
        .map(|entry| RobotCells::new(&entry.cells))
}

/// Why an open-list search examined the node it did.
fn open_list_why(
    frontier: &Frontier,
    shape: SearchShape,
    cells: &RobotCells,
    step: &str,
) -> String {
    let taken = frontier
        .next
        .iter()
        .position(|entry| entry.cells == cells.as_slice());
    match (shape, taken.map(|at| (at, &frontier.next[at]))) {
        (SearchShape::Queue, Some((_, entry))) => format!(
            "It examined {step} (g {}): a queue takes its oldest entry first.",
            entry.g
        ),
        (_, Some((at, entry))) => format!(
            "It examined {step}: f = g + h = {} + {} = {}, the lowest f in the open list{}.",
            entry.g,
            entry.h.unwrap_or(0),
            entry.f(),
            if at == 0 {
                ", the newest of equal f"
            } else {
                ""
            }
        ),
        (_, None) => format!("It examined {step}, beyond the entries listed."),
    }
}

/// The Predict section: the switch, the choices at the node shown, the verdict and the score.
/// It keeps one height whatever it holds, so the log below never moves.
pub(super) fn predict_ui(
    ui: &mut egui::Ui,
    debugger: &Debugger,
    settings: &mut super::DebugSettings,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    let (right, asked) = debugger.predict.score;
    if !settings.predict {
        return;
    }
    ui.label(format!("Score {right} of {asked}"));
    let row = ui.text_style_height(&egui::TextStyle::Button) + 2.0 * ui.spacing().button_padding.y;
    let height = row * 2.0
        + ui.spacing().item_spacing.y * 3.0
        + ui.text_style_height(&egui::TextStyle::Body) * 2.0;
    ui.allocate_ui(egui::vec2(ui.available_width(), height), |ui| {
        ui.set_min_height(height);
        egui::ScrollArea::vertical()
            .id_salt("debug-predict")
            .max_height(height)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                choices_ui(ui, debugger, commands);
                if let Some(verdict) = &debugger.predict.last {
                    let (word, color) = if verdict.right {
                        ("Right.", palette.success)
                    } else {
                        ("Not this time.", palette.warning)
                    };
                    ui.add(
                        egui::Label::new(
                            egui::RichText::new(format!("{word} {}", verdict.why)).color(color),
                        )
                        .wrap(),
                    );
                }
            });
    });
}

/// The choices at the node shown: the open list's entries, or the moves from the node and
/// backing up.
fn choices_ui(ui: &mut egui::Ui, debugger: &Debugger, commands: &mut Vec<Command>) {
    if debugger.is_predicting() {
        ui.label("Waiting for the search's next node…");
        return;
    }
    let mut guess = None;
    ui.horizontal_wrapped(|ui| match debugger.frontier.shown() {
        Some(FrontierShown::Open(frontier, _)) => {
            ui.label("Next examined:");
            for (rank, entry) in frontier.next.iter().take(8).enumerate() {
                let step = entry
                    .path
                    .last()
                    .map_or_else(|| "start".to_string(), ToString::to_string);
                let text = format!("#{} {step} f{}", rank + 1, entry.f());
                if ui
                    .small_button(text)
                    .on_hover_text(format!(
                        "The entry generated by {}",
                        crate::model::format_moves(&entry.path)
                    ))
                    .clicked()
                {
                    guess = Some(Guess::Entry(entry.event));
                }
            }
        }
        Some(FrontierShown::Stack(stack)) => {
            ui.label("Next move:");
            let legal = stack
                .levels
                .last()
                .map(|l| l.legal.clone())
                .unwrap_or_default();
            for mv in legal {
                if ui.small_button(mv.to_string()).clicked() {
                    guess = Some(Guess::Move(mv));
                }
            }
            if ui
                .small_button("Back up")
                .on_hover_text("No move below this node is examined next")
                .clicked()
            {
                guess = Some(Guess::Back);
            }
        }
        Some(FrontierShown::Nothing(why)) => {
            ui.label(why);
        }
        None => {
            ui.label("Reading the frontier…");
        }
    });
    if let Some(guess) = guess {
        commands.push(Command::Debug(DebugCommand::Predict(guess)));
    }
}
