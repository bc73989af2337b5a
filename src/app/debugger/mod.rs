//! The algorithm debugger: start a search paused, step it event by event, by subtree or by
//! depth, play it at a chosen speed, stop at breakpoints, and scrub back through the recorded
//! events. [`panel`] draws it in the dock's Debugger tab.
//!
//! The solver thread is held by the stepping probe of [`crate::worker::debug`]; this module
//! only reads its picture each frame and sends it run modes.

pub mod panel;

use crate::app::board_view::{RobotSprite, Trail};
use crate::app::overlays;
use crate::model::{Board, Puzzle};
use crate::solver::RobotCells;
use crate::worker::debug::{
    Breakpoints, DebugFrame, DebugHandle, DebugView, Recorded, RunMode, SearchPicture,
};
use serde::{Deserialize, Serialize};

/// How many events the panel's log lists.
const LOG_LINES: usize = 40;

/// The debugger's choices, kept between runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DebugSettings {
    /// Solve through the stepping probe. Not kept between runs of the app: a Solve after a
    /// restart is a plain run unless debug mode is ticked again, so it never opens in the
    /// debugger unannounced.
    #[serde(skip)]
    pub enabled: bool,
    /// Pause on the first event.
    pub start_paused: bool,
    /// Animated play speed, events per second.
    pub(super) speed: f32,
    /// Stop at a depth.
    pub break_on_depth: bool,
    /// That depth.
    pub(super) break_depth: u32,
    /// Stop when the active robot enters a cell.
    pub break_on_cell: bool,
    /// That cell's column.
    pub(super) break_x: u16,
    /// That cell's row.
    pub(super) break_y: u16,
    /// Stop when a solution is found.
    pub break_on_solution: bool,
}

impl Default for DebugSettings {
    fn default() -> Self {
        DebugSettings {
            enabled: false,
            start_paused: true,
            speed: 20.0,
            break_on_depth: false,
            break_depth: 3,
            break_on_cell: false,
            break_x: 0,
            break_y: 0,
            break_on_solution: true,
        }
    }
}

impl DebugSettings {
    /// The breakpoints these settings describe on a board, plus a state to stop at.
    pub(super) fn breakpoints(&self, board: &Board, state: Option<RobotCells>) -> Breakpoints {
        let cell_pos = crate::model::Pos::new(self.break_x, self.break_y);
        Breakpoints {
            depth: self.break_on_depth.then_some(self.break_depth),
            active_cell: (self.break_on_cell && board.contains(cell_pos))
                .then(|| board.cell(cell_pos)),
            state,
            solution: self.break_on_solution,
        }
    }
}

/// A debugger action, applied once per frame.
#[derive(Clone, Debug, PartialEq)]
pub enum DebugCommand {
    /// One event forward (in the recording first, when scrubbed back).
    Step,
    /// To the next node at the current depth or shallower.
    StepOver,
    /// To the end of the current depth.
    StepDepth,
    /// Run until a breakpoint.
    Continue,
    /// Stop at the next event.
    Pause,
    /// Run until a solution.
    ToSolution,
    /// Animated play at the settings' speed.
    Play,
    /// One recorded event back.
    StepBack,
    /// Show this recorded event (timeline slider).
    Scrub(u64),
    /// Back to the latest event.
    Latest,
    /// Send the settings' breakpoints to the run (with the stop-at-state choice).
    Breakpoints(Breakpoints),
}

/// A debugged run as the panel sees it.
pub struct Debugger {
    handle: DebugHandle,
    puzzle: Puzzle,
    frame: DebugFrame,
    log: Vec<Recorded>,
    /// The recorded event shown instead of the latest one, when scrubbed back.
    timeline: Option<Recorded>,
    /// The play speed to use for [`DebugCommand::Play`].
    speed: f32,
    /// The state to stop at, when one was chosen.
    break_state: Option<RobotCells>,
    /// The overlays' picture at the scrubbed-back event, with that event's index.
    shown_picture: Option<(u64, SearchPicture)>,
}

impl Debugger {
    /// Wraps the handle of a run on `puzzle`.
    pub(super) fn new(handle: DebugHandle, puzzle: Puzzle) -> Debugger {
        Debugger {
            handle,
            puzzle,
            frame: DebugFrame::default(),
            log: Vec::new(),
            timeline: None,
            speed: 20.0,
            break_state: None,
            shown_picture: None,
        }
    }

    /// Reads the run's picture; called once per frame.
    pub(super) fn refresh(&mut self, speed: f32) {
        self.frame = self.handle.frame();
        self.speed = speed;
        // A scrubbed-back event that fell out of the bounded log can no longer be shown.
        if let Some(shown) = &self.timeline
            && shown.index < self.frame.first_recorded
        {
            self.timeline = None;
        }
        self.sync_picture();
    }

    /// Reads the log lines the panel lists: the latest events, or those around the
    /// scrubbed-back event so that it is among them.
    fn read_log(&mut self) {
        // A running search records events between the reading of its picture and of its
        // log, as many as it likes on a busy machine: the log is read up to the picture's
        // last event, so that the node shown ("Event N of N") and the log's newest line are
        // the same event.
        let seen = self.frame.view.events;
        self.log = match &self.timeline {
            Some(shown) => self.handle.around(shown.index, LOG_LINES),
            None => self.handle.latest_before(seen, LOG_LINES),
        };
        self.log.retain(|recorded| recorded.index < seen);
    }

    /// Rebuilds the overlays' picture when the shown event is a recorded one that changed.
    fn sync_picture(&mut self) {
        self.read_log();
        let Some(shown) = &self.timeline else {
            self.shown_picture = None;
            return;
        };
        if self.shown_picture.as_ref().map(|(index, _)| *index) != Some(shown.index) {
            self.shown_picture = self
                .handle
                .picture_at(shown.index)
                .map(|picture| (shown.index, picture));
        }
    }

    /// The overlays' picture at the shown event: the heat map, slide graph and stateless
    /// states as they were then.
    pub fn shown_picture(&self) -> &SearchPicture {
        match (&self.timeline, &self.shown_picture) {
            (Some(_), Some((_, picture))) => picture,
            _ => &self.frame.picture,
        }
    }

    /// The log lines the panel lists, newest first.
    pub fn log(&self) -> &[Recorded] {
        &self.log
    }

    /// The live picture.
    pub fn frame(&self) -> &DebugFrame {
        &self.frame
    }

    /// The puzzle being searched.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The view shown: the scrubbed-back event's, or the latest.
    pub fn shown_view(&self) -> &DebugView {
        self.timeline
            .as_ref()
            .map_or(&self.frame.view, |recorded| &recorded.view)
    }

    /// The index of the event shown.
    fn shown_index(&self) -> Option<u64> {
        match &self.timeline {
            Some(recorded) => Some(recorded.index),
            None => self.frame.view.events.checked_sub(1),
        }
    }

    /// Whether the panel shows a recorded event rather than the latest.
    pub fn is_scrubbed_back(&self) -> bool {
        self.timeline.is_some()
    }

    /// Whether the run stores stateless states, so the stateless layer draws its own.
    pub(super) fn is_stateless_run(&self) -> bool {
        !self.frame.picture.finals.is_empty()
    }

    /// Whether the solver waits for the user.
    pub fn is_paused(&self) -> bool {
        self.frame.paused
    }

    /// Applies an action.
    pub(super) fn apply(&mut self, command: DebugCommand) {
        match command {
            DebugCommand::Step => match &self.timeline {
                Some(shown) => {
                    let next = shown.index + 1;
                    self.timeline = if next + 1 >= self.frame.view.events {
                        None
                    } else {
                        self.handle.recorded(next)
                    };
                }
                None => self.handle.add_steps(1),
            },
            DebugCommand::StepOver => {
                self.timeline = None;
                let depth = self.frame.view.depth;
                self.handle.set_mode(RunMode::StepOver(depth));
            }
            DebugCommand::StepDepth => {
                self.timeline = None;
                self.handle.set_mode(RunMode::StepDepth);
            }
            DebugCommand::Continue => {
                self.timeline = None;
                self.handle.set_mode(RunMode::Continue);
            }
            DebugCommand::Pause => self.handle.set_mode(RunMode::Paused),
            DebugCommand::ToSolution => {
                self.timeline = None;
                self.handle.set_mode(RunMode::ToSolution);
            }
            DebugCommand::Play => {
                self.timeline = None;
                self.handle.set_mode(RunMode::Play(self.speed));
            }
            DebugCommand::StepBack => {
                let Some(index) = self.shown_index() else {
                    return;
                };
                if let Some(previous) = index.checked_sub(1)
                    && let Some(recorded) = self.handle.recorded(previous)
                {
                    self.timeline = Some(recorded);
                }
            }
            DebugCommand::Scrub(index) => {
                self.timeline = if index + 1 >= self.frame.view.events {
                    None
                } else {
                    self.handle.recorded(index)
                };
            }
            DebugCommand::Latest => self.timeline = None,
            DebugCommand::Breakpoints(breakpoints) => {
                self.break_state = breakpoints.state;
                self.handle.set_breakpoints(breakpoints);
            }
        }
        // Read the picture again so the panel and tests see the effect of the action at once.
        self.frame = self.handle.frame();
        self.sync_picture();
    }

    /// The robots where the shown node has them, and its path from the root.
    pub fn board_picture(&self) -> Option<(Vec<RobotSprite>, Vec<Trail>)> {
        let view = self.shown_view();
        let cells = view.cells?;
        let board = self.puzzle.board();
        let robots = self
            .puzzle
            .robots()
            .iter()
            .zip(cells.as_slice())
            .map(|(robot, &cell)| RobotSprite::at(robot.color, board.pos(cell)))
            .collect();
        Some((
            robots,
            overlays::layers::path_trails(&self.puzzle, &view.path),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_mode_is_not_kept_between_runs_of_the_app() {
        let settings = DebugSettings {
            enabled: true,
            start_paused: false,
            break_depth: 7,
            ..DebugSettings::default()
        };
        let text = ron::to_string(&settings).unwrap();
        let restored: DebugSettings = ron::from_str(&text).unwrap();
        assert!(!restored.enabled, "{text}");
        // The other choices are kept.
        assert!(!restored.start_paused);
        assert_eq!(restored.break_depth, 7);
        // A settings file written when debug mode was kept still loads, unticked.
        let old: DebugSettings = ron::from_str("(enabled: true, break_depth: 4)").unwrap();
        assert!(!old.enabled);
        assert_eq!(old.break_depth, 4);
    }
}
