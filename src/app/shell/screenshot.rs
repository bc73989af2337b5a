//! `ricochet-lab screenshot <VIEW> <FILE.png>`: opens the real app window, sets up a view
//! (loads a puzzle, runs solvers, steps a solution), waits until it shows what it should, asks
//! eframe for a screenshot of the next frame and writes it as a PNG.
//!
//! It needs a display; on a machine without one, run it under Xvfb:
//! `xvfb-run -a -s "-screen 0 1600x1000x24" ricochet-lab screenshot editor editor.png`.

use crate::app::RicochetApp;
use crate::app::command::{Command, Pending};
use crate::app::document::draft::Draft;
use crate::app::document::mode::Mode;
use crate::app::document::state::ThemeChoice;
use crate::app::editing::editor::Tool;
use crate::app::settings::AppState;
use crate::app::{APP_NAME, native_options};
use crate::model::formats::game_id;
use crate::model::tiles::random_game;
use crate::model::{Direction, RobotColor, samples};
use crate::solver::{SolverId, SolverPick};
use crate::worker::RunEnd;
use anyhow::anyhow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod view;
pub use view::{UnknownView, View};

/// The window size screenshots are taken at: the smallest the app is laid out for (a
/// projector's), where crowding shows first.
pub const SCREENSHOT_SIZE: [f32; 2] = [1024.0, 700.0];

/// The longest a view may take to get ready before the screenshot gives up.
const READY_TIMEOUT: Duration = Duration::from_secs(180);

/// The longest the experiments view's run may take.
const EXPERIMENT_TIMEOUT: Duration = Duration::from_secs(1800);

/// Frames drawn after a view is ready and before the picture, so panels settle.
const SETTLE_FRAMES: u32 = 8;

/// The settling frame at which the experiments view exports its plots.
const EXPORT_FRAME: u32 = SETTLE_FRAMES / 2;

/// Opens the app on a view, takes the screenshot and closes; returns what went wrong, if
/// anything.
pub fn run(view: View, path: &Path, results: Option<&Path>) -> anyhow::Result<()> {
    if let Some(results) = results
        && !matches!(view, View::Experiments | View::ExperimentsTables)
    {
        return Err(anyhow!(
            "--results {} applies to the experiments and experiments-tables views only",
            results.display()
        ));
    }
    // The experiment views' own results file lives in a temporary folder of its own, removed
    // with everything in it when the screenshot is done (or fails).
    let scratch = tempfile::Builder::new()
        .prefix("ricochet-lab-screenshot-")
        .tempdir()
        .map_err(|e| anyhow!("no temporary folder for the experiment's results: {e}"))?;
    let outcome: Arc<Mutex<Option<anyhow::Result<()>>>> = Arc::new(Mutex::new(None));
    let director = ScreenshotDirector {
        view,
        path: path.to_path_buf(),
        results: results.map(Path::to_path_buf),
        experiment_csv: scratch.path().join("experiment.csv"),
        phase: Phase::Setup,
        started: Instant::now(),
        outcome: Arc::clone(&outcome),
        jobs: Vec::new(),
        long_run: false,
        at_difference: false,
    };
    // A screenshot must not read or overwrite the user's stored state and window layout: the
    // app's options keep eframe's storage off, and this app is given no settings file.
    let mut options = native_options();
    // At the smallest window the app is laid out for, which the README's pictures show.
    options.viewport = options.viewport.with_inner_size(SCREENSHOT_SIZE);
    let opened = eframe::run_native(
        APP_NAME,
        options,
        Box::new(move |cc| {
            let state = AppState {
                view: crate::app::document::state::ViewSettings {
                    theme: ThemeChoice::Light,
                    ..Default::default()
                },
                native_dialogs: false,
                ..AppState::default()
            };
            let mut app = RicochetApp::with_state(cc.egui_ctx.clone(), state);
            app.present_for_screenshot(director);
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow!("the window could not be opened: {e}"));
    drop(scratch);
    opened?;
    let result = outcome
        .lock()
        .map_err(|_| anyhow!("the screenshot writer stopped unexpectedly"))?
        .take();
    result.unwrap_or_else(|| Err(anyhow!("the window closed before the screenshot was taken")))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Setup,
    Waiting,
    Settling(u32),
    Requested,
    Closing,
}

/// Drives the app to a view and takes its picture. Lives inside the app while it runs.
pub(in crate::app) struct ScreenshotDirector {
    view: View,
    path: PathBuf,
    /// A results CSV the experiments views show instead of running an experiment.
    results: Option<PathBuf>,
    /// Where the experiments views write the experiment they run: a fresh file in a
    /// temporary folder, so the picture shows one whole run.
    experiment_csv: PathBuf,
    phase: Phase,
    started: Instant,
    outcome: Arc<Mutex<Option<anyhow::Result<()>>>>,
    /// Solves still to run for the plots view: (solver, standard game seed).
    jobs: Vec<(SolverId, u64)>,
    /// Whether the solving view's long run has started (after its quick solves).
    long_run: bool,
    /// Whether the compare view has taken both runs to their first difference.
    at_difference: bool,
}

impl ScreenshotDirector {
    /// One step per frame.
    pub(in crate::app) fn step(&mut self, app: &mut RicochetApp, ctx: &egui::Context) {
        ctx.request_repaint();
        match self.phase {
            Phase::Setup => {
                self.setup(app);
                self.phase = Phase::Waiting;
            }
            Phase::Waiting => {
                if self.ready(app) {
                    self.phase = Phase::Settling(0);
                } else if self.started.elapsed() > self.timeout() {
                    self.finish(Err(anyhow!(
                        "the {} view was not ready after {} s",
                        self.view.name(),
                        self.timeout().as_secs()
                    )));
                    self.phase = Phase::Closing;
                }
            }
            Phase::Settling(EXPORT_FRAME) if self.view == View::Experiments => {
                // Export PNG as the button does, beside the screenshot, once the window has
                // found its place, so that the plots are cut where they stand.
                let stem = self.path.file_stem().map_or_else(
                    || "experiments".into(),
                    |s| s.to_string_lossy().into_owned(),
                );
                let plots = self.path.with_file_name(format!("{stem}-plots.png"));
                app.experiments.export_png(ctx, plots);
                self.phase = Phase::Settling(EXPORT_FRAME + 1);
            }
            Phase::Settling(frames) if frames < SETTLE_FRAMES => {
                self.phase = Phase::Settling(frames + 1);
            }
            Phase::Settling(_) => {
                let path = self.path.clone();
                let outcome = Arc::clone(&self.outcome);
                let waker = ctx.clone();
                ctx.request_screenshot(move |image| {
                    let result = crate::app::files::write_png(&image, &path);
                    if let Ok(mut slot) = outcome.lock() {
                        *slot = Some(result);
                    }
                    waker.request_repaint();
                });
                self.phase = Phase::Requested;
            }
            Phase::Requested => {
                let done = self.outcome.lock().map(|o| o.is_some()).unwrap_or(true);
                if done {
                    self.phase = Phase::Closing;
                }
            }
            Phase::Closing => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
        }
    }

    fn timeout(&self) -> Duration {
        if matches!(
            self.view,
            View::Experiments | View::ExperimentsTables | View::ExperimentsRunning
        ) {
            EXPERIMENT_TIMEOUT
        } else {
            READY_TIMEOUT
        }
    }

    fn finish(&self, result: anyhow::Result<()>) {
        if let Ok(mut slot) = self.outcome.lock() {
            *slot = Some(result);
        }
    }

    fn setup(&mut self, app: &mut RicochetApp) {
        match self.view {
            View::Editor => {
                app.state.editor.tool = Tool::Targets;
                app.state.view.plots = false;
            }
            View::Solving => {
                // A few quick solves first, so that the time plot has points beside the live
                // run's table and nodes plot.
                for seed in 1..=6 {
                    for solver in [SolverId::Fast, SolverId::Iddfs, SolverId::Astar] {
                        self.jobs.push((solver, seed));
                    }
                }
                self.jobs.reverse();
                self.next_job(app);
            }
            View::Playback => {
                // An eight-move standard game that the BFS solves at once.
                replace(app, random_game(2, 4).map(|(p, _)| p));
                app.state.solver.solver = SolverPick::BuiltIn(SolverId::Bfs);
                app.apply(Command::Solve);
            }
            View::Plots => {
                app.shell.plots_height = 420.0;
                for seed in 1..=12 {
                    for id in SolverId::ALL {
                        self.jobs.push((id, seed));
                    }
                }
                self.jobs.reverse();
                self.next_job(app);
            }
            View::Analyze => {
                app.state.view.plots = false;
                app.analyzer.open = true;
                app.analyzer.deals = 10;
                if let Ok(puzzle) = app.doc.validity().as_ref() {
                    let puzzle = puzzle.clone();
                    let waker = app.waker();
                    app.analyzer.start(&puzzle, waker);
                }
            }
            View::Compare => {
                replace(app, random_game(2, 4).map(|(p, _)| p));
                app.state.view.plots = false;
                app.compare.open = true;
                use crate::app::compare::Which;
                app.compare.run_mut(Which::First).pick = Some(SolverPick::BuiltIn(SolverId::Bfs));
                app.compare.run_mut(Which::Second).pick =
                    Some(SolverPick::BuiltIn(SolverId::GraphV1));
                if let Ok(puzzle) = app.doc.validity().as_ref() {
                    let puzzle = puzzle.clone();
                    for which in Which::BOTH {
                        let waker = app.waker();
                        app.compare.record(which, &puzzle, &app.engines, waker);
                    }
                }
            }
            View::Play => {
                app.apply(Command::SetMode(Mode::Play));
                for (robot, dir) in [
                    (RobotColor::Blue, Direction::South),
                    (RobotColor::Blue, Direction::West),
                    (RobotColor::Green, Direction::North),
                    (RobotColor::Green, Direction::East),
                ] {
                    app.apply(Command::SelectRobot(robot));
                    app.apply(Command::MoveRobot(dir));
                }
            }
            View::DebugPaused
            | View::OverlayHeat
            | View::DebugGraph
            | View::DebugStateless
            | View::DebugStepBack => self.setup_debugger(app),
            View::OverlayGraph
            | View::OverlayDistances
            | View::OverlayMinMoves
            | View::OverlayStateless
            | View::OverlayStatelessFive
            | View::OverlaySolution => self.setup_overlays(app),
            View::Experiments | View::ExperimentsTables | View::ExperimentsRunning => {
                self.setup_experiments(app)
            }
        }
    }

    /// The debugger's views: a debugged run, paused where the view shows it.
    fn setup_debugger(&mut self, app: &mut RicochetApp) {
        match self.view {
            View::DebugPaused | View::OverlayHeat => {
                replace(app, random_game(2, 4).map(|(p, _)| p));
                app.state.view.plots = false;
                app.state.solver.solver = SolverPick::BuiltIn(SolverId::Iddfs);
                app.state.debug.enabled = true;
                app.state.debug.start_paused = false;
                app.state.debug.break_on_solution = true;
                if self.view == View::DebugPaused {
                    app.state.debug.break_on_depth = true;
                    app.state.debug.break_depth = 5;
                } else {
                    app.state.overlays.search_heat = true;
                }
                app.apply(Command::Solve);
                if self.view == View::OverlayHeat {
                    // The heat map's legend is in the Overlays tab.
                    app.shell.dock = crate::app::shell::DockTab::Overlays;
                }
            }
            View::DebugGraph | View::DebugStateless => {
                replace(app, random_game(2, 4).map(|(p, _)| p));
                app.state.view.plots = false;
                app.state.debug.enabled = true;
                app.state.debug.start_paused = true;
                if self.view == View::DebugGraph {
                    app.state.solver.solver = SolverPick::BuiltIn(SolverId::GraphV1);
                    app.state.overlays.graph_edges = true;
                } else {
                    app.state.solver.solver = SolverPick::BuiltIn(SolverId::Stateless);
                    app.state.overlays.stateless = true;
                }
                app.apply(Command::Solve);
            }
            View::DebugStepBack => {
                replace(app, random_game(2, 4).map(|(p, _)| p));
                app.state.view.plots = false;
                app.state.solver.solver = SolverPick::BuiltIn(SolverId::GraphV2);
                app.state.debug.enabled = true;
                app.state.debug.start_paused = false;
                app.state.debug.break_on_depth = true;
                app.state.debug.break_depth = 2;
                app.state.overlays.graph_edges = true;
                app.state.overlays.search_heat = true;
                app.apply(Command::Solve);
            }
            _ => {}
        }
    }

    /// The overlays' views: the Overlays tab with the view's layer on.
    fn setup_overlays(&mut self, app: &mut RicochetApp) {
        match self.view {
            View::OverlayGraph => {
                app.shell.dock = crate::app::shell::DockTab::Overlays;
                app.state.view.plots = false;
                app.state.overlays.graph_edges = true;
                app.state.overlays.graph_all_cells = true;
            }
            View::OverlayDistances => {
                app.shell.dock = crate::app::shell::DockTab::Overlays;
                app.state.view.plots = false;
                app.state.overlays.exact_distances = true;
            }
            View::OverlayMinMoves => {
                app.shell.dock = crate::app::shell::DockTab::Overlays;
                app.state.view.plots = false;
                app.state.overlays.min_moves = true;
            }
            View::OverlayStateless => {
                app.shell.dock = crate::app::shell::DockTab::Overlays;
                app.state.view.plots = false;
                app.state.overlays.stateless = true;
                // One robot's final states: the target's robot, one number per cell.
                app.state.overlays.stateless_robot = app
                    .doc
                    .validity()
                    .as_ref()
                    .ok()
                    .and_then(|p| p.goal().color.robot())
                    .or(Some(crate::model::RobotColor::Red));
            }
            View::OverlayStatelessFive => {
                let five = include_str!("../../../boards/five-robots.ron");
                replace(app, crate::model::formats::native::parse(five));
                app.shell.dock = crate::app::shell::DockTab::Overlays;
                app.state.view.plots = false;
                app.state.overlays.stateless = true;
                app.state.overlays.stateless_robot = None;
            }
            View::OverlaySolution => {
                replace(app, random_game(2, 4).map(|(p, _)| p));
                app.state.view.plots = false;
                app.state.overlays.solution_path = true;
                app.state.solver.solver = SolverPick::BuiltIn(SolverId::Bfs);
                app.apply(Command::Solve);
            }
            _ => {}
        }
    }

    /// The Experiments window's views: results read back, or a study under way.
    fn setup_experiments(&mut self, app: &mut RicochetApp) {
        app.state.view.plots = false;
        if self.view == View::ExperimentsTables {
            app.experiments
                .show_tab(crate::app::experiments::Tab::Tables);
        }
        if let Some(results) = &self.results {
            app.state.experiments.out_path = results.display().to_string();
            app.experiments.open = true;
            app.experiments
                .open_results(results, &mut app.state.experiments);
            return;
        }
        let settings = &mut app.state.experiments;
        settings.configs = if self.view == View::ExperimentsRunning {
            16_000
        } else {
            experiment_configs()
        };
        settings.seed = 1;
        settings.time_limit_secs = 10.0;
        settings.threads = 2;
        settings.out_path = self.experiment_csv.display().to_string();
        app.experiments.open = true;
        let board = app.doc.validity().as_ref().ok().cloned();
        let waker = app.waker();
        app.experiments.start(
            &app.state.experiments,
            board.as_ref(),
            &app.engines,
            waker,
            false,
        );
    }

    fn next_job(&mut self, app: &mut RicochetApp) {
        if let Some((solver, seed)) = self.jobs.pop() {
            replace(app, random_game(seed, 4).map(|(p, _)| p));
            app.state.solver.solver = SolverPick::BuiltIn(solver);
            // Solvers that are slow on some deals still add their point within the limit.
            app.state.solver.use_time_limit = true;
            app.state.solver.time_limit_secs = 10.0;
            app.apply(Command::Solve);
        }
    }

    fn ready(&mut self, app: &mut RicochetApp) -> bool {
        let finished = app.current_session().is_some_and(|s| s.run.is_finished());
        match self.view {
            View::DebugPaused | View::OverlayHeat => app
                .debugger()
                .is_some_and(|d| d.is_paused() && d.frame().stop_reason.is_some()),
            View::OverlayGraph => {
                let Some(tracker) = app.graph_tracker() else {
                    // A worker is bringing the graph up to the board as it is.
                    return false;
                };
                if tracker.changes().is_empty() {
                    // The first frames build the graph of the board as it is; then a robot moves.
                    if app.now() > 0.2 {
                        app.apply(Command::edit(
                            crate::app::document::draft::Edit::PlaceRobot {
                                color: RobotColor::Green,
                                pos: crate::model::Pos::new(5, 9),
                            },
                        ));
                    }
                    return false;
                }
                if app.graph_tracker().is_some_and(|g| g.check.is_none()) {
                    app.apply(Command::CheckGraph);
                }
                true
            }
            View::Compare => {
                use crate::app::compare::CompareStatus;
                match app.compare.compare_status() {
                    CompareStatus::Running { .. } => false,
                    CompareStatus::None => {
                        // Both recordings done: compare them.
                        if app.compare.compare_blocked().is_none() {
                            let waker = app.waker();
                            app.compare.compare(waker);
                        }
                        false
                    }
                    _ if !self.at_difference => {
                        app.compare.go_to_difference();
                        self.at_difference = true;
                        false
                    }
                    _ => true,
                }
            }
            View::OverlayMinMoves => true,
            View::OverlayStateless | View::OverlayStatelessFive => app.stateless_stores().is_some(),
            View::OverlayDistances => app.exact_distance_map().is_some(),
            View::Analyze => !app.analyzer.is_running() && app.analyzer.analysis().is_some(),
            View::DebugStepBack => {
                let Some(debugger) = app.debugger() else {
                    return false;
                };
                if !(debugger.is_paused() && debugger.frame().stop_reason.is_some()) {
                    return false;
                }
                if debugger.is_scrubbed_back() {
                    return true;
                }
                let latest = debugger.frame().view.events.saturating_sub(1);
                let back = latest.saturating_sub(60);
                app.apply(Command::Debug(crate::app::command::DebugCommand::Scrub(
                    back,
                )));
                false
            }
            View::DebugGraph | View::DebugStateless => {
                let Some(debugger) = app.debugger() else {
                    return false;
                };
                let frame = debugger.frame();
                if !frame.paused {
                    return false;
                }
                let done = match self.view {
                    View::DebugGraph => {
                        frame
                            .picture
                            .part::<crate::solver::graph_solver::GraphPicture>()
                            .map_or(0, |g| g.recent_changes.len())
                            >= 8
                    }
                    _ => frame.view.events >= 160,
                };
                if !done {
                    // One event per frame, as the Step button does.
                    app.apply(Command::Debug(crate::app::command::DebugCommand::Step));
                }
                done
            }
            View::OverlaySolution => {
                if finished {
                    app.derived.close_playback();
                }
                finished
            }
            View::Editor | View::Play => {
                let now = app.now();
                !app.play.as_ref().is_some_and(|p| p.is_animating(now))
            }
            View::Experiments | View::ExperimentsTables | View::ExperimentsRunning => {
                self.experiments_ready(app)
            }
            View::Solving | View::Playback | View::Plots => self.solves_ready(app, finished),
        }
    }
    /// Whether the Experiments window's view is ready: the study has rows (a study that
    /// stopped early or made none ends the command with the reason).
    fn experiments_ready(&mut self, app: &mut RicochetApp) -> bool {
        match self.view {
            View::ExperimentsRunning => {
                if !app.experiments.is_running() {
                    self.finish(Err(anyhow!(
                        "the experiment stopped early: {}",
                        app.experiments.message().unwrap_or("no message")
                    )));
                    self.phase = Phase::Closing;
                    return false;
                }
                app.experiments.records().len() >= 600
            }
            View::Experiments | View::ExperimentsTables => {
                if app.experiments.is_running() {
                    return false;
                }
                if let Some(message) = app.experiments.message() {
                    eprintln!("note: {message}");
                }
                if app.experiments.records().is_empty() {
                    self.finish(Err(anyhow!("the experiment produced no rows")));
                    self.phase = Phase::Closing;
                    return false;
                }
                // Show the configurations behind Graph v2 at its most common move count.
                app.experiments.select_for_screenshot();
                true
            }
            _ => true,
        }
    }

    /// Whether the views made of solves are ready: the solves queued are done (the next is
    /// started when one is), the long run has its rows, the playback has stepped.
    fn solves_ready(&mut self, app: &mut RicochetApp, finished: bool) -> bool {
        match self.view {
            View::Solving => {
                if self.long_run {
                    return app
                        .current_session()
                        .is_some_and(|s| !s.run.is_finished() && s.run.rows().len() >= 16);
                }
                if finished {
                    if self.jobs.is_empty() {
                        load_game_id(app, "7650+42+E2302B12+C9");
                        app.state.solver.solver = SolverPick::BuiltIn(SolverId::Iddfs);
                        app.state.solver.use_time_limit = false;
                        app.apply(Command::Solve);
                        self.long_run = true;
                    } else {
                        self.next_job(app);
                    }
                }
                false
            }
            View::Playback => {
                if !finished {
                    return false;
                }
                let now = app.now();
                if let Some(playback) = app.derived.playback_mut(app.doc.revision()) {
                    if playback.step() < 5 {
                        playback.control(crate::app::command::PlaybackControl::Forward, now - 10.0);
                        return false;
                    }
                    return true;
                }
                // No solution to show: say so rather than take a misleading picture.
                self.finish(Err(anyhow!("the playback view's solve found no solution")));
                self.phase = Phase::Closing;
                false
            }
            View::Plots => {
                if !finished {
                    return false;
                }
                if let Some(session) = app.current_session() {
                    match session.run.end() {
                        Some(RunEnd::Refused(error)) => {
                            eprintln!("note: a solve for the plots was refused: {error}")
                        }
                        Some(RunEnd::Crashed(message)) => {
                            eprintln!("note: a solve for the plots failed: {message}")
                        }
                        _ => {}
                    }
                }
                if self.jobs.is_empty() {
                    true
                } else {
                    self.next_job(app);
                    false
                }
            }
            _ => true,
        }
    }
}

/// Configurations in the experiments view: `RICOCHET_SCREENSHOT_CONFIGS`, or 300.
fn experiment_configs() -> u64 {
    std::env::var("RICOCHET_SCREENSHOT_CONFIGS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

fn load_game_id(app: &mut RicochetApp, id: &str) {
    replace(app, game_id::parse(id).map_err(|e| e.to_string()));
}

fn replace<E: ToString>(app: &mut RicochetApp, puzzle: Result<crate::model::Puzzle, E>) {
    let puzzle = puzzle.map_err(|e| e.to_string()).unwrap_or_else(|error| {
        eprintln!("note: the view's puzzle could not be made ({error}); using the deck's");
        samples::fogleman_22()
    });
    // Named by its game id (as an imported game is), so plot points say which game they are.
    let name = game_id::write(&puzzle).unwrap_or_else(|_| "Screenshot board".to_string());
    app.apply(Command::Guarded(Pending::Replace(
        Box::new(Draft::from_puzzle(&puzzle)),
        name,
    )));
}
