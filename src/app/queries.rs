//! What the app answers to the integration tests and tools that drive it: the board, the
//! run, the debugger, what the board shows, the state as it would be saved. Nothing here
//! changes the app, except that reading the overlays builds them as a frame would.

use super::{RicochetApp, debugger, experiments, overlays, run, window_title};
use crate::app::document::draft::{Draft, write_draft};
use crate::app::document::mode::Mode;
use crate::app::playing::play::PlayState;
use crate::app::playing::playback::Playback;
use crate::app::settings::AppState;
use crate::model::RobotColor;
use crate::worker::RunEnd;
use std::path::Path;
use std::time::Duration;

/// A summary of the solver panel's run, for tests and tools that drive the app.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    /// The solver that ran: a built-in one or an engine.
    pub solver: crate::solver::SolverChoice,
    /// Whether it is still running.
    pub running: bool,
    /// The finished depth rows so far.
    pub rows: Vec<crate::solver::DepthStats>,
    /// How it ended, once it has (`None` while running, or when it did not start).
    pub outcome: Option<crate::solver::Outcome>,
    /// How long the solver took to stop after a cancel, when it was cancelled.
    pub cancel_latency: Option<Duration>,
    /// When each row finished, on the run's clock.
    pub row_times: Vec<Duration>,
    /// The run's total on that clock, once it has ended.
    pub total: Option<Duration>,
}

impl RicochetApp {
    /// Reads the registered engines from another file (tests and tools keep a user's own
    /// list out of their runs this way).
    pub fn use_engines_file(&mut self, file: std::path::PathBuf) {
        self.engines = run::engines::EngineList::from_file(Some(file));
    }

    /// The registered external engines.
    pub fn engines(&self) -> &run::engines::EngineList {
        &self.engines
    }

    /// The Add engine window.
    pub fn add_engine_window(&self) -> &run::engines::AddEngineWindow {
        &self.add_engine
    }

    /// The Experiments window's state.
    pub fn experiments(&self) -> &experiments::ExperimentsView {
        &self.experiments
    }

    /// The board being edited.
    pub fn draft(&self) -> &Draft {
        self.doc.draft()
    }

    /// Editing or playing.
    pub fn mode(&self) -> Mode {
        self.state.mode
    }

    /// Whether the board has changes not saved to its file.
    pub fn is_dirty(&self) -> bool {
        self.doc.is_dirty()
    }

    /// The file the board came from or was saved to.
    pub fn file(&self) -> Option<&Path> {
        self.doc.file()
    }

    /// What the status line calls the board.
    pub fn board_name(&self) -> String {
        self.doc.name()
    }

    /// The game in play mode.
    pub fn play(&self) -> Option<&PlayState> {
        self.play.as_ref()
    }

    /// The solution being played back.
    pub fn playback(&self) -> Option<&Playback> {
        self.derived.playback(self.doc.revision())
    }

    /// The number of solves in the plot history.
    pub fn plotted_solves(&self) -> usize {
        self.plots.points().len()
    }

    /// The puzzle each plotted solve was made on, by name or game id, in solve order.
    pub fn plotted_puzzles(&self) -> Vec<String> {
        self.plots
            .points()
            .iter()
            .map(|p| p.puzzle.clone())
            .collect()
    }

    /// The status line's message, if any.
    pub fn status_message(&self) -> Option<&str> {
        self.message.as_ref().map(|m| m.text.as_str())
    }

    /// The solver panel's current or last run, while it belongs to the board shown.
    pub fn run_summary(&self) -> Option<RunSummary> {
        let session = self.current_session()?;
        let run = &session.run;
        let outcome = match run.end() {
            Some(RunEnd::Finished(report)) => Some(report.outcome.clone()),
            _ => None,
        };
        Some(RunSummary {
            solver: run.solver().clone(),
            running: !run.is_finished(),
            rows: run.rows().iter().map(|r| r.stats.clone()).collect(),
            outcome,
            cancel_latency: run.cancel_latency(),
            row_times: run.rows().iter().map(|r| r.at).collect(),
            total: run.is_finished().then(|| run.elapsed()),
        })
    }

    /// The debugged run, when the last solve on the board shown was started in debug mode.
    pub fn debugger(&self) -> Option<&debugger::Debugger> {
        self.derived.debugger(self.doc.revision())
    }

    /// The editor's slide graph, kept up to date by a worker while the graph overlay is on;
    /// `None` until it has followed the board as it is now.
    pub fn graph_tracker(&self) -> Option<&crate::solver::graph_tracker::GraphTracker> {
        self.derived.graph(self.doc.revision())
    }

    /// Whether a worker is bringing the editor's slide graph up to the board as it is now.
    pub fn graph_tracker_computing(&self) -> bool {
        self.derived.is_graph_computing()
    }

    /// The robots the board shows now, as (colour, cell) in colour order.
    pub fn shown_robots(&self) -> Vec<(RobotColor, crate::model::Pos)> {
        let scene = self.scene(self.now());
        let mut robots: Vec<(RobotColor, crate::model::Pos)> = scene
            .robots
            .iter()
            .map(|r| {
                // Sprites stand at cell centres in board coordinates when they are not moving.
                let pos =
                    crate::model::Pos::new(r.center.x.floor() as u16, r.center.y.floor() as u16);
                (r.color, pos)
            })
            .collect();
        robots.sort_by_key(|(color, _)| *color);
        robots
    }

    /// The window's title: the puzzle's name (its file's name when it has one), a mark when
    /// it has unsaved changes, and the app's name.
    pub fn window_title(&self) -> String {
        window_title(&self.doc.name(), self.is_dirty())
    }

    /// The active target the board draws now, when it draws one (for tests and tools that
    /// drive the app).
    pub fn shown_goal(&self) -> Option<crate::model::Goal> {
        self.scene(self.now()).goal
    }

    /// The overlay layers the board draws now (for tests and tools that drive the app).
    pub fn shown_overlay(&mut self) -> overlays::OverlayDrawing {
        let mut scene = self.scene(self.now());
        self.overlay_scene(&mut scene, None);
        scene.overlay
    }

    /// The persisted state as it would be saved now.
    pub fn persisted_state(&self) -> AppState {
        let mut state = self.state.clone();
        state.board = Some(write_draft(self.doc.draft()));
        state.saved_board = Some(write_draft(self.doc.clean()));
        state.file = self.doc.file().map(Path::to_path_buf);
        state.file_stamp = self.kept_disk_stamp();
        state.board_name = self.doc.given_name().map(str::to_string);
        state
    }
}
