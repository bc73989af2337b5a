//! Opening a lesson: the board, the mode, the solver, the debugger's breakpoints and the
//! overlays it names are set, and the dock shows its page of text. The shell does it, as a
//! lesson reaches into the settings of several rooms.

use crate::app::command::Command;
use crate::app::document::display_name;
use crate::app::document::draft::Draft;
use crate::app::document::mode::Mode;
use crate::app::overlays::OverlaySettings;
use crate::app::{RicochetApp, debugger, shell};
use crate::lesson::{Lesson, LessonBreakpoint, LessonMode, LessonOverlay};
use crate::solver::SolverPick;
use std::path::Path;

impl RicochetApp {
    /// Opens the lesson file at `path` in its prepared state; a lesson that does not load is
    /// named in the status line with every problem. Says whether it opened.
    pub(super) fn open_lesson(&mut self, path: &Path) -> bool {
        match Lesson::load(path) {
            Ok(lesson) => {
                self.apply_lesson(lesson);
                self.windows.open = false;
                true
            }
            Err(error) => {
                self.error(format!("Could not open the lesson: {error}"));
                false
            }
        }
    }

    /// Puts the app in a lesson's prepared state and shows its text.
    pub(in crate::app) fn apply_lesson(&mut self, lesson: Lesson) {
        let title = lesson.title().to_string();
        let name = lesson
            .path
            .as_deref()
            .map_or_else(|| title.clone(), display_name);
        // The lesson's puzzle has no file of its own here: Save asks where, so that a
        // shipped board is never written over by an exercise.
        self.set_document(
            Draft::from_puzzle(&lesson.puzzle),
            None,
            Some(format!("Lesson: {title}")),
            &format!("Opened the lesson {name}: {title}"),
        );
        let mode = match lesson.file.mode {
            LessonMode::Edit => Mode::Edit,
            LessonMode::Play => Mode::Play,
        };
        self.apply(Command::SetMode(mode));
        if let Some(first) = lesson.solvers.first() {
            self.state.solver.solver = SolverPick::BuiltIn(*first);
        }
        // A depth limit left over from earlier work would cut the lesson's searches short.
        self.state.solver.use_depth_limit = lesson.file.depth_limit.is_some();
        if let Some(limit) = lesson.file.depth_limit {
            self.state.solver.depth_limit = limit;
        }
        lesson_debug_settings(&mut self.state.debug, &lesson);
        self.state.overlays = lesson_overlay_settings(&self.state.overlays, &lesson.overlays);
        self.set_predict_mode_from_lesson(lesson.file.predict);
        self.lessons.open = Some(lesson);
        self.shell.dock = shell::DockTab::Lesson;
    }

    /// Turns the debugger's Predict mode on or off as the open lesson asks.
    fn set_predict_mode_from_lesson(&mut self, on: bool) {
        self.lessons.predict = on;
        self.state.debug.predict = on;
    }

    /// Whether the open lesson asked for the debugger's Predict mode (for tests and tools
    /// that drive the app).
    pub fn lesson_predict(&self) -> bool {
        self.lessons.predict
    }

    /// The title of the lesson shown in the Lesson tab, if one is open.
    pub fn open_lesson_title(&self) -> Option<&str> {
        self.lessons.open.as_ref().map(Lesson::title)
    }
}

/// The debugger's settings a lesson asks for: debug mode and its pause at the start as the
/// lesson says, the breakpoints it lists set and every other kind off. The speed and the
/// values of the kinds left off stay as they were.
fn lesson_debug_settings(settings: &mut debugger::DebugSettings, lesson: &Lesson) {
    settings.enabled = lesson.file.debug;
    settings.start_paused = lesson.file.pause_at_start;
    settings.break_on_depth = false;
    settings.break_on_cell = false;
    settings.break_on_solution = false;
    settings.break_on_prune = false;
    settings.break_on_bound = false;
    settings.break_in_depths = false;
    for breakpoint in &lesson.file.breakpoints {
        match *breakpoint {
            LessonBreakpoint::Depth(depth) => {
                settings.break_on_depth = true;
                settings.break_depth = depth;
            }
            LessonBreakpoint::Cell(x, y) => {
                settings.break_on_cell = true;
                settings.break_x = x;
                settings.break_y = y;
            }
            LessonBreakpoint::Solution => settings.break_on_solution = true,
            LessonBreakpoint::Prune(kind) => {
                settings.break_on_prune = true;
                settings.break_prune = kind.event_kind();
            }
            LessonBreakpoint::NewDepth => settings.break_on_bound = true,
            LessonBreakpoint::Depths(low, high) => {
                settings.break_in_depths = true;
                settings.break_depth_low = low;
                settings.break_depth_high = high;
            }
        }
    }
}

/// The overlay settings a lesson asks for: the layers it lists on, every other off; a
/// layer's own options (the stateless layer's robot, the distance map's depth) stay.
fn lesson_overlay_settings(
    current: &OverlaySettings,
    overlays: &[LessonOverlay],
) -> OverlaySettings {
    let mut settings = OverlaySettings {
        min_moves: false,
        graph_edges: false,
        graph_all_cells: false,
        stateless: false,
        search_heat: false,
        solution_path: false,
        exact_distances: false,
        engine_drawing: false,
        ..current.clone()
    };
    settings.stateless_kinds.intermediates = false;
    for overlay in overlays {
        match overlay {
            LessonOverlay::MinMoves => settings.min_moves = true,
            LessonOverlay::SearchHeat => settings.search_heat = true,
            LessonOverlay::GraphEdges => settings.graph_edges = true,
            LessonOverlay::GraphEdgesAllCells => {
                settings.graph_edges = true;
                settings.graph_all_cells = true;
            }
            LessonOverlay::Stateless => settings.stateless = true,
            LessonOverlay::StatelessIntermediates => {
                settings.stateless = true;
                settings.stateless_kinds.intermediates = true;
            }
            LessonOverlay::SolutionPath => settings.solution_path = true,
            LessonOverlay::ExactDistances => settings.exact_distances = true,
        }
    }
    settings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::{LessonFile, LessonPrune, LessonPuzzle};
    use crate::solver::trace::EventKind;

    fn lesson(breakpoints: Vec<LessonBreakpoint>, overlays: Vec<LessonOverlay>) -> Lesson {
        let puzzle = crate::model::samples::fogleman_22();
        Lesson {
            file: LessonFile {
                lesson: 1,
                title: "T".into(),
                summary: String::new(),
                puzzle: LessonPuzzle::Text(String::new()),
                mode: LessonMode::Edit,
                solvers: Vec::new(),
                depth_limit: None,
                debug: true,
                pause_at_start: false,
                breakpoints,
                overlays: Vec::new(),
                predict: false,
                text: "Read.".into(),
            },
            path: None,
            puzzle,
            solvers: Vec::new(),
            overlays,
        }
    }

    #[test]
    fn a_lessons_breakpoints_are_set_and_every_other_kind_is_off() {
        let mut settings = debugger::DebugSettings {
            break_on_solution: true,
            break_on_bound: true,
            ..Default::default()
        };
        let lesson = lesson(
            vec![
                LessonBreakpoint::Depth(4),
                LessonBreakpoint::Cell(3, 7),
                LessonBreakpoint::Prune(LessonPrune::LowerBound),
                LessonBreakpoint::Depths(2, 5),
            ],
            Vec::new(),
        );
        lesson_debug_settings(&mut settings, &lesson);
        assert!(settings.enabled && !settings.start_paused);
        assert!(settings.break_on_depth && settings.break_depth == 4);
        assert!(settings.break_on_cell && (settings.break_x, settings.break_y) == (3, 7));
        assert!(settings.break_on_prune && settings.break_prune == EventKind::LowerBound);
        assert!(settings.break_in_depths);
        assert_eq!(
            (settings.break_depth_low, settings.break_depth_high),
            (2, 5)
        );
        assert!(!settings.break_on_solution && !settings.break_on_bound);
    }

    #[test]
    fn a_lessons_overlays_are_on_and_every_other_layer_is_off() {
        let current = OverlaySettings {
            min_moves: true,
            search_heat: true,
            ..OverlaySettings::default()
        };
        let settings = lesson_overlay_settings(
            &current,
            &[
                LessonOverlay::GraphEdgesAllCells,
                LessonOverlay::StatelessIntermediates,
            ],
        );
        assert!(settings.graph_edges && settings.graph_all_cells);
        assert!(settings.stateless && settings.stateless_kinds.intermediates);
        assert!(!settings.min_moves && !settings.search_heat && !settings.solution_path);
        let settings = lesson_overlay_settings(&settings, &[LessonOverlay::SolutionPath]);
        assert!(settings.solution_path && !settings.stateless && !settings.graph_edges);
        assert!(!settings.stateless_kinds.intermediates);
    }
}
