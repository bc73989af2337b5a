//! The board in the middle of the window, as the shell puts it together each frame: the
//! robots where the debugged node, the solution played back, the game or the design has them,
//! the minimum-move map, and the overlay layers fed from the runs and the rooms. Nothing here
//! is kept between frames, so nothing can show a board that is no longer open. The board's
//! widget and what it draws are the `board_view` room's; clicks go to the editor or the game.

use crate::app::board_paint::{BoardGeometry, Hit, RobotSprite};
use crate::app::board_view::coordinates;
use crate::app::board_view::{BoardScene, board_ui, cell_texts};
use crate::app::command::Command;
use crate::app::document::draft::problem_cells;
use crate::app::document::mode::Mode;
use crate::app::overlays::assembly::{
    DebuggedRun, EngineLayerSource, OverlaySources, stateless_details,
};
use crate::app::overlays::layers::overlay_drawing;
use crate::app::{RicochetApp, debugger};
use crate::model::Cell;
use crate::solver::Outcome;
use crate::solver::min_moves::min_moves;
use crate::worker::RunEnd;

impl RicochetApp {
    /// What an engine drew, with the engine's name: the debugged run's layer as it was at the
    /// event shown, or else the layer the run on this board drew as it goes (a copy, taken
    /// only while the layer is on). `None` when no engine drew anything.
    pub(in crate::app) fn engine_drawing(
        &self,
    ) -> Option<(
        String,
        std::borrow::Cow<'_, crate::solver::engine::DrawLayer>,
    )> {
        use crate::solver::SolverChoice;
        let revision = self.doc.revision();
        let session = self.derived.session(revision)?;
        let SolverChoice::Engine(spec) = session.run.solver() else {
            return None;
        };
        let name = spec.name.clone();
        let layer = match self.derived.debugger_for_overlays(revision) {
            Some(debugger) => debugger
                .shown_picture()
                .part::<crate::solver::engine::DrawLayer>()
                .map_or_else(Default::default, std::borrow::Cow::Borrowed),
            None => std::borrow::Cow::Owned(session.run.live().engine_layer().0),
        };
        (!layer.is_empty()).then_some((name, layer))
    }

    /// The debugged run whose node the board shows instead of the board's own robots: one
    /// while its search runs, or a finished one looked back at; a cancelled search leaves the
    /// board as it is.
    pub(in crate::app) fn debugger_on_board(&self) -> Option<&crate::app::debugger::Debugger> {
        let running = self.is_running();
        let cancelled = self.current_session().is_some_and(|s| {
            matches!(
                s.run.end(),
                Some(RunEnd::Finished(crate::solver::Report {
                    outcome: Outcome::Cancelled,
                    ..
                }))
            )
        });
        self.debugger()
            .filter(|d| running || (d.is_scrubbed_back() && !cancelled))
    }

    /// The scene of the board as it is now.
    pub(in crate::app) fn scene(&self, now: f64) -> BoardScene {
        let mut scene = BoardScene {
            coordinates: self.state.view.coordinates,
            ..BoardScene::default()
        };
        let speed = self.state.solver.playback_speed;
        let debug_picture = self
            .debugger_on_board()
            .and_then(|d| d.board_picture().map(|p| (p, d.puzzle().goal())));
        let draft = self.doc.draft();
        if let Some(((robots, trails), goal)) = debug_picture {
            scene.robots = robots;
            scene.trails = trails;
            scene.goal = Some(goal);
        } else if let Some(playback) = self.playback() {
            scene.robots = playback.sprites(now, speed);
            // The moves played back are the solution's path: its overlay switch hides them.
            if self.state.overlays.solution_path {
                scene.trails = playback.trails();
            }
            scene.goal = Some(playback.puzzle().goal());
        } else if let (Mode::Play, Some(play)) = (self.state.mode, &self.play) {
            scene.robots = play.sprites(now);
            if self.state.view.trails {
                scene.trails = play.trails();
            }
            scene.goal = Some(play.start().goal());
            scene.selected = Some(play.selected());
            scene.celebration = play.celebration(now);
        } else {
            scene.robots = draft
                .robots
                .iter()
                .map(|r| RobotSprite::at(r.color, r.pos))
                .collect();
            // A design shows its active target only where a target is printed: after the
            // targets are cleared there is none, and nothing is drawn in its place.
            scene.goal = draft.active_goal();
            if let Err(error) = self.doc.validity() {
                scene.invalid = true;
                scene.problems = problem_cells(error);
            }
        }
        if self.state.overlays.min_moves
            && let Some(goal) = scene.goal
            && draft.board.contains(goal.pos)
        {
            scene.min_moves = Some(min_moves(&draft.board, draft.board.cell(goal.pos)));
        }
        scene
    }

    /// The chosen solver's heuristic on the board shown, if the board is a puzzle and the
    /// solver estimates.
    fn heuristic_source(&self) -> Option<crate::app::overlays::assembly::HeuristicSource> {
        let solver = self.engines.resolve(&self.state.solver.solver).ok()?;
        let kind = solver.kind();
        let heuristic = kind.shape.heuristic()?;
        let puzzle = self.doc.validity().as_ref().ok()?;
        let estimator = crate::solver::heuristics::Estimator::new(puzzle, heuristic);
        Some(crate::app::overlays::assembly::HeuristicSource {
            solver: kind.title,
            heuristic,
            table: estimator.goal_robot_table().to_vec(),
        })
    }

    /// Adds the overlay layers that are on to the scene.
    pub(in crate::app) fn overlay_scene(&mut self, scene: &mut BoardScene, focus: Option<Cell>) {
        let settings = self.state.overlays.clone();
        let draft = self.doc.draft();
        let board = &draft.board;
        // A debugged run feeds the overlays only while it belongs to the board shown and was
        // not cancelled (the store decides both).
        let debugger = self.derived.debugger_for_overlays(self.doc.revision());
        let debugged_stateless = debugger.is_some_and(debugger::Debugger::is_stateless_run);
        let playing = self.playback().is_some();
        // Only a map of the position shown is drawn (sync drops any other).
        let robot = self.distance_robot();
        let distances = match (
            self.derived
                .distances(self.doc.revision())
                .and_then(|d| d.map()),
            robot,
        ) {
            (Some((_, map)), Some(color)) if settings.exact_distances => Some((map, color)),
            _ => None,
        };
        // The stores come from a worker (see `sync_stateless`): none while they are computed.
        let stateless = self
            .stateless_stores()
            .filter(|_| settings.stateless && !debugged_stateless);
        // Only a solution of the board as it is now is drawn on it.
        // While a solution is played back, its moves so far are its path (see `scene`). A game
        // in play mode is the player's to find: the solver's path would give it away, so it
        // shows only when played back.
        let in_game = self.state.mode == Mode::Play;
        let solution = self
            .derived
            .session(self.doc.revision())
            .filter(|_| !playing && !in_game)
            .and_then(|s| s.solution().map(|moves| (&s.puzzle, moves)));
        let engine = settings
            .engine_drawing
            .then(|| self.engine_drawing())
            .flatten();
        let heuristic = settings
            .heuristic
            .then(|| self.heuristic_source())
            .flatten();
        let sources = OverlaySources {
            goal_robot: scene.goal.and_then(|goal| goal.color.robot()),
            heuristic,
            engine: engine
                .as_ref()
                .map(|(name, layer)| EngineLayerSource { name, layer }),
            settings: &settings,
            board,
            min_moves: scene.min_moves.as_deref(),
            debugger: debugger.map(|debugger| DebuggedRun {
                picture: debugger.shown_picture(),
                stateless: debugger.is_stateless_run(),
            }),
            tracker: settings
                .graph_edges
                .then(|| self.derived.graph(self.doc.revision()))
                .flatten(),
            focus,
            stateless,
            solution,
            distances,
            analyzer_heat: self.analyzer.heat_layer(board),
        };
        scene.overlay = overlay_drawing(&sources);
    }

    /// The central panel: the board, and what clicks on it do.
    pub(in crate::app) fn board_panel_ui(
        &mut self,
        ui: &mut egui::Ui,
        commands: &mut Vec<Command>,
    ) {
        let now = self.now();
        let board = self.doc.draft().board.clone();
        let available = ui.available_rect_before_wrap();
        let geometry = BoardGeometry::fit(
            coordinates::board_area(ui, available, self.state.view.coordinates),
            board.width(),
            board.height(),
        );
        let pointer = ui.input(|i| i.pointer.hover_pos());
        let hit = pointer
            .filter(|_| self.presentation.pointer_feedback)
            .and_then(|p| geometry.hit(p));
        let mut scene = self.scene(now);
        if self.state.mode == Mode::Edit && self.presentation.pointer_feedback {
            scene.hover = self.editor.hover(hit, &self.state.editor);
            self.editor.adjust_scene(&mut scene);
        }
        let focus = hit.map(|h| board.cell(h.cell()));
        self.overlay_scene(&mut scene, focus);
        let (response, geometry) = board_ui(ui, &board, &scene);
        // Every layer's numbers of the hovered cell, in full (on small cells the board leaves
        // out those that do not fit), and the stateless layer's states in words. Those come
        // from the stateless run's stores only while its numbers on the board do: during a
        // debugged stateless run the board, and so the list, shows the run's live states.
        let debugged_stateless = self
            .derived
            .debugger_for_overlays(self.doc.revision())
            .is_some_and(debugger::Debugger::is_stateless_run);
        let details = focus.and_then(|cell| {
            let stored = self
                .stateless_stores()
                .filter(|_| self.state.overlays.stateless && !debugged_stateless)
                .and_then(|stores| stateless_details(&board, stores, cell));
            let numbers = cell_texts(&board, &scene, cell, stored.is_some());
            match (numbers, stored) {
                (Some(numbers), Some(stored)) => Some(format!("{numbers}\n{stored}")),
                (numbers, stored) => numbers.or(stored),
            }
        });
        let response = match details {
            Some(text) => response.on_hover_text_at_pointer(text),
            None => response,
        };
        match self.state.mode {
            Mode::Edit => {
                self.editor.board_input(
                    &response,
                    &geometry,
                    self.doc.draft(),
                    &self.state.editor,
                    commands,
                );
            }
            Mode::Play => {
                if response.clicked()
                    && let Some(pos) = response
                        .interact_pointer_pos()
                        .and_then(|p| geometry.hit(p))
                        .map(Hit::cell)
                    && let Some(play) = &self.play
                {
                    let cells = play.position();
                    if let Some(robot) = cells.robots().iter().find(|r| r.pos == pos) {
                        commands.push(Command::SelectRobot(robot.color));
                    }
                }
            }
        }
    }
}
