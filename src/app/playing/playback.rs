//! Playing a solution back on the board: step forward and back, or play at a chosen speed,
//! with every move's path drawn. The state advances one step at a time from the frame clock,
//! so playback never blocks and survives any frame rate.

use crate::app::board_paint::{RobotSprite, Trail, cell_center};
use crate::app::command::PlaybackControl;
use crate::model::{Cell, Move, MoveTables, Puzzle};
use egui::Pos2;

/// A solution being shown on the puzzle it solves.
#[derive(Clone, Debug)]
pub struct Playback {
    puzzle: Puzzle,
    moves: Vec<Move>,
    /// `positions[i]` holds the robots' cells after `i` moves.
    positions: Vec<Vec<Cell>>,
    step: usize,
    playing: bool,
    /// When the current step began, for the slide animation and for auto-advance.
    step_started: f64,
}

impl Playback {
    /// Prepares the playback of moves that the framework has replayed on the puzzle.
    pub(in crate::app) fn new(puzzle: Puzzle, moves: Vec<Move>, now: f64) -> Playback {
        let tables = MoveTables::new(puzzle.board());
        let mut cells = puzzle.robot_cells();
        let mut positions = vec![cells.clone()];
        for mv in &moves {
            if let Some(index) = puzzle.robot_index(mv.robot) {
                cells[index] = tables.slide(&cells, index, mv.dir);
            }
            positions.push(cells.clone());
        }
        Playback {
            puzzle,
            moves,
            positions,
            step: 0,
            playing: false,
            step_started: now,
        }
    }

    /// The puzzle the solution is for.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The moves.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How many moves are shown as made.
    pub fn step(&self) -> usize {
        self.step
    }

    /// Whether it is playing on its own.
    pub(in crate::app) fn is_playing(&self) -> bool {
        self.playing
    }

    /// Applies a control.
    pub(in crate::app) fn control(&mut self, control: PlaybackControl, now: f64) {
        match control {
            PlaybackControl::First => self.go_to(0, now),
            PlaybackControl::Back => self.go_to(self.step.saturating_sub(1), now),
            PlaybackControl::Forward => self.go_to(self.step + 1, now),
            PlaybackControl::Last => self.go_to(self.moves.len(), now),
            PlaybackControl::PlayPause => {
                if self.playing {
                    self.playing = false;
                } else {
                    if self.step == self.moves.len() {
                        self.step = 0;
                    }
                    self.playing = true;
                    self.step_started = now;
                }
            }
            PlaybackControl::Close => self.playing = false,
        }
    }

    fn go_to(&mut self, step: usize, now: f64) {
        let step = step.min(self.moves.len());
        if step != self.step {
            self.step = step;
            self.step_started = now;
        }
        self.playing = false;
    }

    /// Advances while playing, at `speed` moves per second. Returns whether it still needs
    /// frames (playing or animating).
    pub(in crate::app) fn tick(&mut self, now: f64, speed: f32) -> bool {
        let period = 1.0 / f64::from(speed.max(0.1));
        if self.playing && now - self.step_started >= period {
            if self.step < self.moves.len() {
                self.step += 1;
                self.step_started = now;
            }
            if self.step == self.moves.len() {
                self.playing = false;
            }
        }
        self.playing || now - self.step_started < slide_secs(speed)
    }

    /// The robots as drawn now: the robot of the current step slides into place.
    pub(in crate::app) fn sprites(&self, now: f64, speed: f32) -> Vec<RobotSprite> {
        let board = self.puzzle.board();
        let cells = &self.positions[self.step];
        let t = ((now - self.step_started) / slide_secs(speed)).clamp(0.0, 1.0) as f32;
        let moving = self
            .step
            .checked_sub(1)
            .and_then(|i| self.puzzle.robot_index(self.moves[i].robot));
        self.puzzle
            .robots()
            .iter()
            .enumerate()
            .map(|(i, robot)| {
                let mut sprite = RobotSprite::at(robot.color, board.pos(cells[i]));
                if moving == Some(i) && t < 1.0 {
                    let before = &self.positions[self.step - 1];
                    let a = cell_center(board.pos(before[i]));
                    let b = sprite.center;
                    let eased = 1.0 - (1.0 - t) * (1.0 - t);
                    sprite.center = Pos2::new(a.x + (b.x - a.x) * eased, a.y + (b.y - a.y) * eased);
                }
                sprite
            })
            .collect()
    }

    /// Every move's path, numbered: the current move strongest, moves made solid, moves to
    /// come faint.
    pub(in crate::app) fn trails(&self) -> Vec<Trail> {
        let board = self.puzzle.board();
        self.moves
            .iter()
            .enumerate()
            .filter_map(|(i, mv)| {
                let index = self.puzzle.robot_index(mv.robot)?;
                let from = board.pos(self.positions[i][index]);
                let to = board.pos(self.positions[i + 1][index]);
                let emphasis = if i + 1 == self.step {
                    1.0
                } else if i < self.step {
                    0.55
                } else {
                    0.12
                };
                Some(Trail {
                    color: mv.robot,
                    from,
                    to,
                    emphasis,
                    number: Some(i + 1),
                })
            })
            .collect()
    }
}

/// How long one move's slide takes at a playback speed: most of a step, capped so fast
/// playback still shows each move.
fn slide_secs(speed: f32) -> f64 {
    (0.6 / f64::from(speed.max(0.1))).min(0.4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;

    fn deck_playback() -> Playback {
        let moves = crate::model::parse_moves(
            "BS, BW, BN, BE, BS, BE, GN, GE, BS, RS, RW, RN, BE, BS, BW, YS, YW, YN, YW, YS, BE, BN",
        )
        .unwrap();
        Playback::new(samples::fogleman_22(), moves, 0.0)
    }

    #[test]
    fn stepping_walks_the_solution_and_the_end_reaches_the_target() {
        let mut playback = deck_playback();
        playback.control(PlaybackControl::Forward, 0.0);
        assert_eq!(playback.step(), 1);
        playback.control(PlaybackControl::Back, 0.0);
        playback.control(PlaybackControl::Back, 0.0);
        assert_eq!(playback.step(), 0);
        playback.control(PlaybackControl::Last, 0.0);
        assert_eq!(playback.step(), 22);
        let puzzle = playback.puzzle();
        assert!(puzzle.is_goal(&playback.positions[22]));
        let trails = playback.trails();
        assert_eq!(trails.len(), 22);
        assert!(trails.iter().all(|t| t.from != t.to));
    }

    #[test]
    fn playing_advances_with_the_clock_and_stops_at_the_end() {
        let mut playback = deck_playback();
        playback.control(PlaybackControl::PlayPause, 0.0);
        let mut now = 0.0;
        while playback.tick(now, 10.0) && now < 100.0 {
            now += 0.05;
        }
        assert_eq!(playback.step(), 22);
        assert!(!playback.is_playing());
        // At 10 moves a second, 22 moves take a little over two seconds.
        assert!((2.0..3.0).contains(&now), "took {now}");
    }
}
