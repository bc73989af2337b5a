//! Play mode: select a robot, slide it with the arrow keys, undo, deal a new game. Moves follow
//! the model's slide rule and the puzzle's rule options; the target is celebrated modestly.

use crate::app::board_paint::{RobotSprite, Trail, cell_center};
use crate::app::command::Command;
use crate::app::theme;
use crate::app::widgets::capitalised;
use crate::app::widgets::color_swatch;
use crate::model::{Cell, Direction, Move, MoveTables, Pos, Puzzle, RobotColor, format_moves};
use egui::Pos2;

/// Seconds a slide takes per cell travelled, and at least.
const SLIDE_SECS_PER_CELL: f64 = 0.025;
const SLIDE_MIN_SECS: f64 = 0.08;
/// Seconds the target-reached ring grows.
const CELEBRATION_SECS: f64 = 1.2;

/// One move made: the move and where the robot went from and to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    mv: Move,
    /// Where the robot started.
    from: Pos,
    /// Where it stopped.
    to: Pos,
}

/// A slide being animated.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slide {
    robot: usize,
    from: Pos,
    to: Pos,
    started: f64,
    duration: f64,
}

/// A game in play on a valid puzzle.
#[derive(Clone, Debug)]
pub struct PlayState {
    start: Puzzle,
    tables: MoveTables,
    cells: Vec<Cell>,
    moves: Vec<PlayedMove>,
    /// The moves taken back, the last taken back last: Redo plays them again until another
    /// move is made.
    undone: Vec<PlayedMove>,
    selected: RobotColor,
    slide: Option<Slide>,
    reached_at: Option<f64>,
}

/// Why a move was not made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(in crate::app) enum PlayError {
    /// The robot is against a wall or another robot.
    #[error("the {0} robot cannot move {1} from here")]
    Blocked(RobotColor, Direction),
    /// The no-rebound rule forbids it.
    #[error("the no-rebound rule forbids moving the {0} robot straight back {1}")]
    Rebound(RobotColor, Direction),
    /// No such robot.
    #[error("there is no {0} robot on this board")]
    NoRobot(RobotColor),
}

impl PlayState {
    /// Starts a game at the puzzle's position, the target's robot selected.
    pub(in crate::app) fn new(puzzle: Puzzle) -> PlayState {
        let selected = puzzle
            .active_robot()
            .map(|i| puzzle.robots()[i].color)
            .or_else(|| puzzle.robots().first().map(|r| r.color))
            .unwrap_or(RobotColor::Red);
        PlayState {
            tables: MoveTables::new(puzzle.board()),
            cells: puzzle.robot_cells(),
            start: puzzle,
            moves: Vec::new(),
            undone: Vec::new(),
            selected,
            slide: None,
            reached_at: None,
        }
    }

    /// The puzzle the game started from.
    pub(in crate::app) fn start(&self) -> &Puzzle {
        &self.start
    }

    /// The moves made so far.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// The selected robot.
    pub fn selected(&self) -> RobotColor {
        self.selected
    }

    /// Selects a robot if it is on the board.
    pub(in crate::app) fn select(&mut self, color: RobotColor) -> Result<(), PlayError> {
        if self.start.robot_index(color).is_none() {
            return Err(PlayError::NoRobot(color));
        }
        self.selected = color;
        Ok(())
    }

    /// The current position as a puzzle (for solving from here).
    pub fn position(&self) -> Puzzle {
        self.start.with_robot_cells(&self.cells)
    }

    /// Slides the selected robot; `now` is the clock in seconds, for the animation.
    pub(in crate::app) fn slide(
        &mut self,
        dir: Direction,
        now: f64,
    ) -> Result<PlayedMove, PlayError> {
        let color = self.selected;
        let index = self
            .start
            .robot_index(color)
            .ok_or(PlayError::NoRobot(color))?;
        if self.start.rules().no_rebound
            && self
                .moves
                .iter()
                .rev()
                .find(|m| m.mv.robot == color)
                .is_some_and(|m| m.mv.dir == dir.opposite())
        {
            return Err(PlayError::Rebound(color, dir));
        }
        let to = self.tables.slide(&self.cells, index, dir);
        if to == self.cells[index] {
            return Err(PlayError::Blocked(color, dir));
        }
        let board = self.start.board();
        let from_pos = board.pos(self.cells[index]);
        let to_pos = board.pos(to);
        self.cells[index] = to;
        let played = PlayedMove {
            mv: Move::new(color, dir),
            from: from_pos,
            to: to_pos,
        };
        self.moves.push(played);
        // A move of its own ends what Redo could play again.
        if self.undone.pop() != Some(played) {
            self.undone.clear();
        }
        let distance = f64::from(from_pos.x.abs_diff(to_pos.x) + from_pos.y.abs_diff(to_pos.y));
        self.slide = Some(Slide {
            robot: index,
            from: from_pos,
            to: to_pos,
            started: now,
            duration: (distance * SLIDE_SECS_PER_CELL).max(SLIDE_MIN_SECS),
        });
        if self.is_reached() && self.reached_at.is_none() {
            self.reached_at = Some(now);
        }
        Ok(played)
    }

    /// Takes the last move back; Redo can play it again.
    pub(in crate::app) fn undo(&mut self) -> Option<PlayedMove> {
        let last = self.moves.pop()?;
        let index = self.start.robot_index(last.mv.robot)?;
        self.cells[index] = self.start.board().cell(last.from);
        self.slide = None;
        if !self.is_reached() {
            self.reached_at = None;
        }
        self.undone.push(last);
        Some(last)
    }

    /// Plays the last move taken back again; `now` is the clock in seconds, for the
    /// animation.
    pub(in crate::app) fn redo(&mut self, now: f64) -> Option<PlayedMove> {
        let next = *self.undone.last()?;
        let selected = self.selected;
        self.selected = next.mv.robot;
        let played = self.slide(next.mv.dir, now).ok();
        self.selected = selected;
        if played.is_none() {
            // The position no longer leads there (it cannot, as moves only come back in
            // order): nothing is left to play again.
            self.undone.clear();
        }
        played
    }

    /// Whether a move taken back can be played again.
    pub(in crate::app) fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Puts every robot back where the game started.
    pub(in crate::app) fn reset(&mut self) {
        self.cells = self.start.robot_cells();
        // Reset is a step back of every move: Redo plays them again, first move first.
        self.undone.extend(self.moves.drain(..).rev());
        self.slide = None;
        self.reached_at = None;
    }

    /// Whether the target is reached by a sequence the rules accept.
    pub(in crate::app) fn is_reached(&self) -> bool {
        self.start.is_goal(&self.cells) && self.moves.len() >= self.start.rules().min_solution_len()
    }

    /// Whether something is moving (the caller then asks for repaints).
    pub(in crate::app) fn is_animating(&self, now: f64) -> bool {
        self.slide.is_some_and(|s| now < s.started + s.duration)
            || self.reached_at.is_some_and(|t| now < t + CELEBRATION_SECS)
    }

    /// How far the target-reached ring has grown, while it shows.
    pub(in crate::app) fn celebration(&self, now: f64) -> Option<f32> {
        let t = self.reached_at?;
        let progress = (now - t) / CELEBRATION_SECS;
        (0.0..1.0).contains(&progress).then_some(progress as f32)
    }

    /// The robots as drawn now, the sliding one between cells.
    pub(in crate::app) fn sprites(&self, now: f64) -> Vec<RobotSprite> {
        let board = self.start.board();
        self.start
            .robots()
            .iter()
            .enumerate()
            .map(|(i, robot)| {
                let pos = board.pos(self.cells[i]);
                let mut sprite = RobotSprite::at(robot.color, pos);
                if let Some(slide) = self.slide
                    && slide.robot == i
                {
                    let t = ((now - slide.started) / slide.duration).clamp(0.0, 1.0) as f32;
                    let eased = 1.0 - (1.0 - t) * (1.0 - t);
                    let a = cell_center(slide.from);
                    let b = cell_center(slide.to);
                    sprite.center = Pos2::new(a.x + (b.x - a.x) * eased, a.y + (b.y - a.y) * eased);
                }
                sprite
            })
            .collect()
    }

    /// The trails of the moves made, the latest strongest.
    pub(in crate::app) fn trails(&self) -> Vec<Trail> {
        let count = self.moves.len();
        self.moves
            .iter()
            .enumerate()
            .map(|(i, m)| Trail {
                color: m.mv.robot,
                from: m.from,
                to: m.to,
                emphasis: if i + 1 == count { 1.0 } else { 0.35 },
                number: None,
            })
            .collect()
    }
}

/// The play panel: robots to select, the move list and the game's buttons.
pub(in crate::app) fn play_panel_ui(
    ui: &mut egui::Ui,
    play: Option<&PlayState>,
    problem: Option<&str>,
    hot_cold: &dyn Fn(&mut egui::Ui),
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.heading("Play");
    let Some(play) = play else {
        ui.colored_label(
            palette.error,
            format!(
                "This board cannot be played yet: {}. Switch to Edit to fix it.",
                problem
                    .unwrap_or("it is not a valid puzzle")
                    .trim_end_matches('.')
            ),
        );
        return;
    };
    ui.label("Select a robot (R, G, B, Y, K or click it), slide it with the arrow keys.");
    // The robots' rows take the room all five colours would, so the buttons below stay in
    // place whatever the number of robots on the board.
    ui.vertical(|ui| {
        ui.set_min_height(robot_rows_height(ui, &RobotColor::ALL));
        ui.horizontal_wrapped(|ui| {
            for robot in play.start().robots() {
                let label = robot_label(robot.color);
                ui.allocate_ui_with_layout(
                    robot_group_size(ui, &label),
                    egui::Layout::left_to_right(egui::Align::Center),
                    |ui| {
                        let dot = color_swatch(ui, theme::robot(robot.color));
                        if ui
                            .selectable_label(play.selected() == robot.color, label)
                            .clicked()
                            || dot.clicked()
                        {
                            commands.push(Command::SelectRobot(robot.color));
                        }
                    },
                );
            }
        });
    });
    ui.horizontal_wrapped(|ui| {
        for (dir, label) in [
            (Direction::West, "Move west"),
            (Direction::North, "Move north"),
            (Direction::South, "Move south"),
            (Direction::East, "Move east"),
        ] {
            if ui.button(label).clicked() {
                commands.push(Command::MoveRobot(dir));
            }
        }
    });
    ui.separator();
    let count = play.moves().len();
    if play.is_reached() {
        ui.colored_label(
            palette.success,
            egui::RichText::new(format!(
                "Target reached in {count} move{}!",
                if count == 1 { "" } else { "s" }
            ))
            .strong(),
        );
    } else {
        ui.label(format!("Moves: {count}"));
    }
    hot_cold(ui);
    // The buttons come before the move list (see `move_list_ui`), which grows a line every
    // few moves: what grows is last, so Undo move never slides onto New game under a pointer
    // clicking it again.
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(count > 0, egui::Button::new("Undo move"))
            .clicked()
        {
            commands.push(Command::UndoMove);
        }
        if ui
            .add_enabled(count > 0, egui::Button::new("Reset robots"))
            .clicked()
        {
            commands.push(Command::ResetPlay);
        }
        if ui
            .button("New game")
            .on_hover_text("New robots and target (N)")
            .clicked()
        {
            commands.push(Command::NewGame);
        }
        if ui.button("Solve from here").on_hover_text("S").clicked() {
            commands.push(Command::Solve);
        }
    });
}

/// The moves played, below everything else in the panel: the list grows a line every few
/// moves, and nothing that is clicked may move with it (the hint's buttons sat below it once).
pub(in crate::app) fn move_list_ui(ui: &mut egui::Ui, play: Option<&PlayState>) {
    if let Some(play) = play
        && !play.moves().is_empty()
    {
        ui.separator();
        let moves: Vec<Move> = play.moves().iter().map(|m| m.mv).collect();
        ui.label(egui::RichText::new(format_moves(&moves)).monospace());
    }
}

/// New game's question while moves are played: a deal drops them, and Undo never brings a
/// deal back, so the player says so first.
pub(in crate::app) fn new_game_question_ui(
    ctx: &egui::Context,
    played: usize,
    commands: &mut Vec<Command>,
) {
    egui::Modal::new(egui::Id::unique("new-game-question")).show(ctx, |ui| {
        ui.heading("New game");
        ui.label(format!(
            "Deal new robots and a new target? The {played} move{} played in this game \
             will be lost.",
            if played == 1 { "" } else { "s" }
        ));
        ui.horizontal(|ui| {
            if ui.button("Deal a new game").clicked() {
                commands.push(Command::DealNewGame);
            }
            if ui.button("Keep playing").clicked() {
                commands.push(Command::KeepPlaying);
            }
        });
    });
}

/// A robot's name and key, as its selector shows them.
fn robot_label(color: RobotColor) -> String {
    format!("{} ({})", capitalised(color.name()), color.letter())
}

/// The size of a robot's selector: its swatch and its label in one group of the size they
/// take, so the row wraps before a group that would not fit instead of cutting it at the
/// panel's edge.
fn robot_group_size(ui: &egui::Ui, label: &str) -> egui::Vec2 {
    let swatch = ui.text_style_height(&egui::TextStyle::Body) * 0.8;
    let text = egui::WidgetText::from(label)
        .into_galley(
            ui,
            Some(egui::TextWrapMode::Extend),
            f32::INFINITY,
            egui::TextStyle::Button,
        )
        .size();
    let spacing = ui.spacing();
    egui::vec2(
        swatch + spacing.item_spacing.x + text.x + 2.0 * spacing.button_padding.x,
        text.y.max(swatch) + 2.0 * spacing.button_padding.y,
    )
}

/// At least the height the selectors of `colors` take when wrapped into rows of the width
/// there is.
fn robot_rows_height(ui: &egui::Ui, colors: &[RobotColor]) -> f32 {
    let width = ui.available_width();
    let gap = ui.spacing().item_spacing;
    let (mut rows, mut row_width, mut row_height) = (0, f32::INFINITY, 0.0f32);
    for &color in colors {
        let size = robot_group_size(ui, &robot_label(color));
        if row_width + gap.x + size.x > width {
            rows += 1;
            row_width = size.x;
        } else {
            row_width += gap.x + size.x;
        }
        row_height = row_height.max(size.y);
    }
    // Each row with the spacing below it, and two pixels for the layout's rounding: a little
    // more than the rows need, never less, so that no robot count grows the room.
    (rows as f32 * (row_height + gap.y)).ceil() + 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;

    #[test]
    fn playing_the_decks_solution_reaches_the_target_and_undo_goes_back() {
        let puzzle = samples::fogleman_22();
        let mut play = PlayState::new(puzzle.clone());
        assert_eq!(play.selected(), RobotColor::Blue);
        let moves = crate::model::parse_moves(
            "BS, BW, BN, BE, BS, BE, GN, GE, BS, RS, RW, RN, BE, BS, BW, YS, YW, YN, YW, YS, BE, BN",
        )
        .unwrap();
        for (i, mv) in moves.iter().enumerate() {
            play.select(mv.robot).unwrap();
            play.slide(mv.dir, i as f64).unwrap();
        }
        assert!(play.is_reached());
        assert_eq!(play.moves().len(), 22);
        play.undo();
        assert!(!play.is_reached());
        assert!(play.redo(30.0).is_some());
        assert!(play.is_reached());
        play.reset();
        assert_eq!(play.position(), puzzle);
        // Redo after a reset plays the game again from its first move.
        assert_eq!(play.redo(31.0).map(|m| m.mv), Some(moves[0]));
        // A move of one's own ends what Redo could play.
        let other = puzzle
            .robots()
            .iter()
            .flat_map(|r| Direction::ALL.map(|dir| Move::new(r.color, dir)))
            .find(|&mv| {
                mv != moves[1] && {
                    let mut trial = play.clone();
                    trial.select(mv.robot).unwrap();
                    trial.slide(mv.dir, 0.0).is_ok()
                }
            })
            .expect("some other move can be made");
        play.select(other.robot).unwrap();
        play.slide(other.dir, 32.0).unwrap();
        assert!(!play.can_redo());
    }

    #[test]
    fn blocked_moves_are_refused_and_change_nothing() {
        let mut play = PlayState::new(samples::fogleman_22());
        // Blue stands in the north-east corner: it cannot go north or east.
        play.select(RobotColor::Blue).unwrap();
        assert_eq!(
            play.slide(Direction::North, 0.0),
            Err(PlayError::Blocked(RobotColor::Blue, Direction::North))
        );
        assert!(play.moves().is_empty());
        assert!(play.select(RobotColor::Silver).is_err());
    }
}
