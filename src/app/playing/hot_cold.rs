//! Hot/cold play: after each move the play panel says whether the player is still on an
//! optimal path, and how many moves were lost so far: moves made + the fewest moves still
//! needed − the optimum from the start. Green on an optimal path, amber for a move or two
//! lost, red beyond or when the target can no longer be reached.
//!
//! Each position's optimum comes from a background `fast` solve (the live optimum's worker,
//! without its count), one position at a time, kept for the game so that Undo answers at once.
//! What is known already is not solved again: the board's finished optimal solve of the start
//! and the hint's answer give their position's optimum and, along the optimal solution they
//! found, every position's after it (under the standard rules).
//! The start's optimum is solved first, then the position in play; a solve for a position the
//! player has already left is dropped, which cancels it.

use crate::app::playing::play::PlayState;
use crate::app::{theme, widgets};
use crate::model::{Cell, Move, MoveTables, Puzzle};
use crate::solver::Stop;
use crate::worker::Task;
use crate::worker::live_optimum::{LiveLimits, LiveMessage, LiveOutcome, spawn_live_optimum};
use std::collections::{HashMap, HashSet};

/// The name of the hot/cold solve's thread.
const THREAD_NAME: &str = "hot-cold";

/// Moves lost up to which the line is amber rather than red.
const WARM_LOSS: usize = 2;

/// The optimum of every position of one game solved so far.
#[derive(Default)]
pub(in crate::app) struct HotColdState {
    /// The game's start, which the positions below belong to.
    start: Option<Puzzle>,
    /// What the solve of each position (its robots' cells) found.
    known: HashMap<Vec<Cell>, LiveOutcome>,
    /// The position being solved, and its solve.
    task: Option<(Vec<Cell>, Task<LiveMessage>)>,
    /// The positions and optimal lines already taken from elsewhere (see `learn`), so that
    /// one is replayed once, not every frame.
    taught: HashSet<(Vec<Cell>, Vec<Move>)>,
}

/// How the position in play stands, as the panel shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HotCold {
    /// No move made yet.
    NoMove,
    /// A solve is still under way.
    Working,
    /// The position's optimum: `lost` moves lost so far, `to_go` moves still needed at best.
    Known {
        /// Moves made + moves still needed − the optimum from the start.
        lost: usize,
        /// The fewest moves still needed.
        to_go: usize,
        /// Moves made.
        made: usize,
    },
    /// The target cannot be reached from here.
    Stuck,
    /// The solve of the start or of the position gave up or failed; the sentence says why.
    Unknown(String),
}

impl HotCold {
    /// The line the play panel shows.
    pub fn line(&self) -> String {
        match self {
            HotCold::NoMove => "Hot/cold: make a move to see how it does".into(),
            HotCold::Working => "Hot/cold: working it out…".into(),
            HotCold::Known { lost: 0, to_go, .. } => {
                format!("Hot: on an optimal path, {to_go} to go")
            }
            HotCold::Known {
                lost, to_go, made, ..
            } => format!(
                "{}: {lost} move{} lost, {to_go} to go ({} in all)",
                if *lost <= WARM_LOSS { "Warm" } else { "Cold" },
                if *lost == 1 { "" } else { "s" },
                made + to_go
            ),
            HotCold::Stuck => "Cold: the target cannot be reached from here".into(),
            HotCold::Unknown(why) => format!("Hot/cold: unknown, {why}"),
        }
    }
}

impl HotColdState {
    /// Drops the solve under way, which nobody will see; what was found stays for the game.
    pub(in crate::app) fn drop_solve(&mut self) {
        self.task = None;
    }

    /// Forgets the positions of another game than the one starting at `start`.
    fn begin_game(&mut self, start: &Puzzle) {
        if self.start.as_ref() != Some(start) {
            *self = HotColdState {
                start: Some(start.clone()),
                ..HotColdState::default()
            };
        }
    }

    /// Takes an optimum found elsewhere for a position of the game that starts at `start`
    /// (the board's finished solve of the start, the hint's answer), so that no solve is
    /// spent on it: `position` needs `moves` moves at best, and, when `solution` is one
    /// optimal solution from it, each position along it needs the moves left. Under the
    /// ricochet or no-rebound rule a position's optimum depends on more than its cells, so
    /// only `position` is taken. What is known already stays as it is.
    pub(in crate::app) fn learn(
        &mut self,
        start: &Puzzle,
        position: &Puzzle,
        moves: usize,
        solution: Option<&[Move]>,
    ) {
        self.begin_game(start);
        if position.board() != start.board()
            || position.goal() != start.goal()
            || position.rules() != start.rules()
        {
            return;
        }
        let line = (
            position.robot_cells(),
            solution.unwrap_or_default().to_vec(),
        );
        if !self.taught.insert(line) {
            return;
        }
        let mut learned = vec![(position.robot_cells(), moves)];
        let rules = position.rules();
        if let Some(solution) =
            solution.filter(|s| s.len() == moves && !rules.ricochet && !rules.no_rebound)
        {
            let tables = MoveTables::new(position.board());
            let mut cells = position.robot_cells();
            for (step, mv) in solution.iter().enumerate() {
                // A solution that does not replay teaches nothing past its last good move.
                let Some(index) = position.robot_index(mv.robot) else {
                    break;
                };
                let to = tables.slide(&cells, index, mv.dir);
                if to == cells[index] {
                    break;
                }
                cells[index] = to;
                learned.push((cells.clone(), moves - step - 1));
            }
        }
        for (cells, moves) in learned {
            self.known
                .entry(cells)
                .or_insert(LiveOutcome::Optimum { moves });
        }
    }

    /// What is known of `position`'s optimum, when it is a position of the game in hand:
    /// solved here or taken from elsewhere (see `learn`), so that the hint can answer from it.
    pub(in crate::app) fn known_outcome(&self, position: &Puzzle) -> Option<&LiveOutcome> {
        let start = self.start.as_ref()?;
        let same_game = position.board() == start.board()
            && position.goal() == start.goal()
            && position.rules() == start.rules();
        same_game
            .then(|| self.known.get(&position.robot_cells()))
            .flatten()
    }

    /// Brings the state up to `play`: a new game forgets the old one's positions; the solve
    /// needed next (the start, then the position in play) starts unless it is under way; a
    /// solve for a position no longer needed is dropped.
    pub(in crate::app) fn follow(&mut self, play: &PlayState, waker: crate::worker::Waker) {
        self.begin_game(play.start());
        self.drain();
        if play.moves().is_empty() {
            // Nothing is said before the first move, so nothing needs solving yet.
            return;
        }
        let start = play.start().robot_cells();
        let position = play.position();
        let current = position.robot_cells();
        let (wanted, puzzle) = if !self.known.contains_key(&start) {
            (start, play.start().clone())
        } else if !self.known.contains_key(&current) {
            (current, position)
        } else {
            self.task = None;
            return;
        };
        if self
            .task
            .as_ref()
            .is_some_and(|(cells, _)| *cells == wanted)
        {
            return;
        }
        let limits = LiveLimits {
            count_cap: None,
            ..LiveLimits::default()
        };
        self.task = match spawn_live_optimum(THREAD_NAME, puzzle, limits, waker) {
            Ok(task) => Some((wanted, task)),
            Err(error) => {
                let why = format!("the solve could not start: {error}");
                self.known.insert(wanted, LiveOutcome::Failed(why));
                None
            }
        };
    }

    /// Takes the answer of the solve under way, when it has come.
    fn drain(&mut self) {
        let Some((cells, task)) = &self.task else {
            return;
        };
        let mut outcome = None;
        let drained = task.drain(|message| {
            if let LiveMessage::Solved { outcome: found, .. } = &message {
                outcome = Some(found.clone());
            }
            message.is_last()
        });
        let outcome = match (outcome, drained) {
            (Some(outcome), _) => outcome,
            (None, crate::worker::Drained::Lost) => {
                LiveOutcome::Failed("the solve stopped without an answer".into())
            }
            (None, _) => return,
        };
        self.known.insert(cells.clone(), outcome);
        self.task = None;
    }

    /// How the position in play stands.
    pub(in crate::app) fn status(&self, play: &PlayState) -> HotCold {
        let made = play.moves().len();
        if made == 0 {
            return HotCold::NoMove;
        }
        if self.start.as_ref() != Some(play.start()) {
            return HotCold::Working;
        }
        let start = self.known.get(&play.start().robot_cells());
        let here = self.known.get(&play.position().robot_cells());
        if let (
            Some(LiveOutcome::Optimum { moves: optimum }),
            Some(LiveOutcome::Optimum { moves }),
        ) = (start, here)
        {
            return HotCold::Known {
                // A player never beats the optimum; the saturation only guards the sum.
                lost: (made + moves).saturating_sub(*optimum),
                to_go: *moves,
                made,
            };
        }
        if here == Some(&LiveOutcome::Unsolvable) {
            return HotCold::Stuck;
        }
        match start.and_then(unknown).or_else(|| here.and_then(unknown)) {
            Some(why) => HotCold::Unknown(why),
            None => HotCold::Working,
        }
    }

    /// The hot/cold line of the play panel, one line kept whether it shows anything or not.
    pub(in crate::app) fn ui(&self, ui: &mut egui::Ui, play: &PlayState) {
        let palette = theme::palette(ui.visuals().dark_mode);
        let status = self.status(play);
        let color = match &status {
            HotCold::Known { lost: 0, .. } => palette.success,
            HotCold::Known { lost, .. } if *lost <= WARM_LOSS => palette.warning,
            HotCold::Known { .. } | HotCold::Stuck => palette.error,
            _ => palette.muted,
        };
        // Two lines' room, whatever the line says: the longest ("Warm: 1 move lost, 23 to go
        // (25 in all)") wraps in a narrow panel rather than losing its end, and the buttons
        // below stay where they are.
        let height = widgets::text_lines(ui, 2.0).max(ui.spacing().interact_size.y);
        widgets::reserved(ui, height, |ui| {
            ui.horizontal_top(|ui| {
                if status == HotCold::Working {
                    let size = ui.text_style_height(&egui::TextStyle::Body);
                    widgets::calm_spinner(ui, Some(size));
                }
                ui.add(
                    egui::Label::new(egui::RichText::new(status.line()).color(color).strong())
                        .wrap(),
                );
            });
        });
    }
}

/// Why a position's optimum is unknown, when it is.
fn unknown(outcome: &LiveOutcome) -> Option<String> {
    match outcome {
        LiveOutcome::GaveUp {
            stop: Stop::TimeLimit,
        } => Some(format!("over {} s", LiveLimits::default().time.as_secs())),
        LiveOutcome::GaveUp {
            stop: Stop::MemoryLimit,
        } => Some(format!(
            "over {} MiB of memory",
            LiveLimits::default().memory_bytes >> 20
        )),
        LiveOutcome::GaveUp {
            stop: Stop::Cancelled,
        } => Some("cancelled".into()),
        LiveOutcome::Failed(why) => Some(why.clone()),
        LiveOutcome::Optimum { .. } | LiveOutcome::Unsolvable => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_says_the_loss_and_what_is_left() {
        let line = |lost, to_go, made| HotCold::Known { lost, to_go, made }.line();
        assert_eq!(line(0, 5, 3), "Hot: on an optimal path, 5 to go");
        assert_eq!(line(1, 5, 4), "Warm: 1 move lost, 5 to go (9 in all)");
        assert_eq!(line(3, 2, 9), "Cold: 3 moves lost, 2 to go (11 in all)");
    }
}
