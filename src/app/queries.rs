//! What the app answers to the integration tests and tools that drive it: the board, the
//! run, the debugger, what the board shows, the state as it would be saved. Nothing here
//! changes the app, except that reading the overlays builds them as a frame would.

use super::{RicochetApp, debugger, experiments, overlays, run, window_title};
use crate::app::analyzer::AnalyzerView;
use crate::app::document::draft::{Draft, write_draft};
use crate::app::document::mode::Mode;
use crate::app::overlays::stateless_stores::StatelessStoresState;
use crate::app::playing::hints::HintState;
use crate::app::playing::hot_cold::HotCold;
use crate::app::playing::play::PlayState;
use crate::app::playing::playback::Playback;
use crate::app::run::solutions_list::SolutionsList;
use crate::app::settings::AppState;
use crate::model::Move;
use crate::model::{Puzzle, RobotColor};
use crate::solver::analysis::distances::DistanceMap;
use crate::solver::profile::ProfileEntry;
use crate::solver::stateless::StatelessStores;
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
    pub fn add_engine_window(&self) -> &run::engine_window::AddEngineWindow {
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

    /// How many slides the board draws as paths now (trails, solution and played-back moves).
    pub fn shown_path_slides(&self) -> usize {
        let scene = self.scene(self.now());
        scene.trails.len()
    }

    /// How many red outlines the board shows now: the board's own and one per wrong cell
    /// when the design is invalid, none when it is valid.
    pub fn invalid_outlines(&self) -> usize {
        let scene = self.scene(self.now());
        let (width, height) = self.doc.size();
        crate::app::board_view::outline_count(&scene, width, height)
    }

    /// The engine's name and how many cells its drawing has, as the board shows it now
    /// (`None` when the layer is off or no engine drew): for tests and the window's checks.
    pub fn engine_drawing_shown(&self) -> Option<(String, usize)> {
        if !self.state.overlays.engine_drawing {
            return None;
        }
        self.engine_drawing()
            .map(|(name, layer)| (name, layer.cells.len()))
    }

    /// The exact distance map shown, with the position it was computed from (for tests and
    /// tools that drive the app).
    pub fn exact_distance_map(&self) -> Option<(&Puzzle, &DistanceMap)> {
        self.derived
            .distances(self.doc.revision())?
            .map()
            .map(|(key, map)| (&key.position, map))
    }

    /// The stateless stores of the board as it is now, once computed (for the layer, the
    /// hovered cell's details, and tests and tools that drive the app).
    pub fn stateless_stores(&self) -> Option<&StatelessStores> {
        self.derived.stateless(self.doc.revision())?.stores()
    }

    /// Whether the stateless stores of the board as it is now are being computed.
    pub fn stateless_stores_computing(&self) -> bool {
        self.derived
            .stateless(self.doc.revision())
            .is_some_and(StatelessStoresState::is_computing)
    }

    /// The live optimum's lines for the board as it is now (empty lines when there are none:
    /// the setting is off, the board is not valid, or nothing was computed for this revision).
    pub fn live_optimum_lines(&self) -> [String; 2] {
        if self.state.view.live_optimum && self.live_optimum.is_for(self.doc.revision()) {
            self.live_optimum.lines()
        } else {
            [String::new(), String::new()]
        }
    }

    /// Whether the live solve of the board as it is now is under way.
    pub fn live_optimum_solving(&self) -> bool {
        self.live_optimum.is_for(self.doc.revision()) && self.live_optimum.is_solving()
    }

    /// How the position in play stands (`None` with no game or with the setting off).
    pub fn hot_cold(&self) -> Option<HotCold> {
        let play = self.play.as_ref()?;
        self.state.view.hot_cold.then(|| self.hot_cold.status(play))
    }

    /// The hint lines shown in the play panel (for tests and tools that drive the app).
    pub fn hint_lines(&self) -> Vec<String> {
        self.derived
            .hints(self.doc.revision())
            .map(HintState::lines)
            .unwrap_or_default()
    }

    /// Whether the hint level asked for is being computed (a search for the levels after it
    /// may go on unseen).
    pub fn hint_computing(&self) -> bool {
        self.derived
            .hints(self.doc.revision())
            .is_some_and(HintState::is_computing)
    }

    /// Whether the last hint search was cancelled (and shows so).
    pub fn hint_cancelled(&self) -> bool {
        self.derived
            .hints(self.doc.revision())
            .is_some_and(HintState::is_cancelled)
    }

    /// How many searches the hint of the position in play has started (the first starts with
    /// the first request, even when the move count came from the board's finished solve).
    pub fn hint_searches(&self) -> usize {
        self.derived
            .hints(self.doc.revision())
            .map_or(0, HintState::searches)
    }

    /// The nodes per move prefix of the run on the board shown, when it counted them (for
    /// tests and tools that drive the app).
    pub fn run_profile(&self) -> Option<&[ProfileEntry]> {
        self.current_session()?.run.profile()
    }

    /// The solutions listed for the current run (for tests and tools that drive the app).
    pub fn listed_solutions(&self) -> &[Vec<Move>] {
        self.current_listing().map_or(&[], SolutionsList::solutions)
    }

    /// Whether the listing is running.
    pub fn listing_solutions(&self) -> bool {
        self.current_listing()
            .is_some_and(SolutionsList::is_listing)
    }

    /// The Analyse board window's state.
    pub fn analyzer(&self) -> &AnalyzerView {
        &self.analyzer
    }
}
