//! The solver panel: choose any registered solver and its options, run it on a worker thread,
//! watch its per-depth table grow, read the result and play the solution back.

use crate::app::command::Command;
use crate::app::command::PlaybackControl;
use crate::app::debugger::DebugSettings;
use crate::app::document::state::SolverSettings;
use crate::app::keys::{self, Action};
use crate::app::playing::playback::Playback;
use crate::app::run::depth_table::depth_table_ui;
use crate::app::run::engines::EngineList;
use crate::app::run::icicle::{IcicleCommand, icicle_ui};
use crate::app::theme;
use crate::app::widgets;
use crate::app::widgets::format_count;
use crate::model::{Puzzle, Rules, format_moves};
use crate::solver::engine::EngineSpec;
use crate::solver::profile::NodeProfile;
use crate::solver::{
    Optimality, Outcome, SolveError, SolverChoice, SolverId, SolverOptions, SolverPick,
};
use crate::study::format::{format_bytes, format_time};
use crate::worker::{RunEnd, SolveJob, SolveRun};
use std::time::Duration;

/// A run the panel shows: running, or finished and kept for its table and result.
pub(in crate::app) struct SolveSession {
    /// The run.
    pub(in crate::app) run: SolveRun,
    /// The puzzle it solves (a snapshot taken at the start).
    pub(in crate::app) puzzle: Puzzle,
    /// What the board was called when the run started, for the plots.
    pub(in crate::app) puzzle_name: String,
    /// Counts the app's runs, so each run's table starts unscrolled.
    pub(in crate::app) serial: u64,
    /// Why the app cancelled it, when it did (e.g. the board was edited).
    pub(in crate::app) interrupted: Option<String>,
    /// Whether its result has gone into the plot history.
    pub(in crate::app) recorded: bool,
    /// Whether it ran in the debugger, whose pauses and recording are part of its time.
    pub(in crate::app) debugged: bool,
}

impl SolveSession {
    /// The solution, when the run found one (already replayed by the framework).
    pub(in crate::app) fn solution(&self) -> Option<&[crate::model::Move]> {
        match self.run.end()? {
            RunEnd::Finished(report) => match &report.outcome {
                Outcome::Solved { moves } => Some(moves),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The job the settings describe, for a solver and a puzzle. Options the solver does not take
/// are left at their defaults.
pub(in crate::app) fn job_for(
    solver: &SolverChoice,
    puzzle: Puzzle,
    settings: &SolverSettings,
) -> SolveJob {
    // The struct update keeps this compiling, with default values, when solvers gain options
    // the panel does not offer yet.
    #[allow(clippy::needless_update)]
    let options = SolverOptions {
        depth_limit: (takes_depth_limit(solver) && settings.use_depth_limit)
            .then_some(settings.depth_limit),
        ..SolverOptions::default()
    };
    SolveJob {
        solver: solver.clone(),
        puzzle,
        options,
        time_limit: settings
            .use_time_limit
            .then(|| Duration::try_from_secs_f64(settings.time_limit_secs).ok())
            .flatten(),
        memory_limit: settings
            .use_memory_limit
            .then(|| (settings.memory_limit_mib as usize).saturating_mul(1 << 20)),
        // Every run counts its nodes per first two moves for the Run tab's chart.
        profile: NodeProfile::new(crate::app::run::icicle::PROFILE_DEPTH).ok(),
    }
}

/// Whether a solver takes a depth limit: a built-in solver says so in its registry entry; an
/// engine is sent the limit as `go depth=N`.
fn takes_depth_limit(solver: &SolverChoice) -> bool {
    match solver {
        SolverChoice::BuiltIn(id) => id.kind().deepest_limit.is_some(),
        SolverChoice::Engine(_) => true,
    }
}

/// Why a solver cannot take a puzzle's rules, if it cannot. An engine says which rules it
/// supports only in its handshake, so it is asked when it runs.
pub(in crate::app) fn unsupported_rule(solver: &SolverChoice, rules: Rules) -> Option<String> {
    let kind = solver.built_in()?.kind();
    kind.rules
        .unsupported(rules)
        .map(|rule| format!("{} does not implement the {rule} rule", kind.title))
}

/// The words the panel shows about a solver.
struct Described<'a> {
    title: String,
    description: String,
    optimality: Optimality,
    source: String,
    deepest_limit: Option<u32>,
    external: Option<&'a EngineSpec>,
}

fn describe(solver: &SolverChoice) -> Described<'_> {
    match solver {
        SolverChoice::BuiltIn(id) => {
            let kind = id.kind();
            Described {
                title: kind.title.to_string(),
                description: kind.description.to_string(),
                optimality: kind.optimality,
                source: format!("from {}", kind.source),
                deepest_limit: kind.deepest_limit,
                external: None,
            }
        }
        SolverChoice::Engine(spec) => Described {
            title: engine_title(spec),
            description: format!(
                "An external engine, started for each run: {}",
                spec.command_line()
            ),
            optimality: Optimality::NotGuaranteed,
            source: spec
                .dir
                .as_ref()
                .map(|dir| format!("runs in {}", dir.display()))
                .unwrap_or_else(|| "runs in the app's folder".into()),
            deepest_limit: Some(u32::MAX),
            external: Some(spec),
        },
    }
}

/// How an engine is listed: its name and the external mark.
pub(in crate::app) fn engine_title(spec: &EngineSpec) -> String {
    format!("{} (external)", spec.name)
}

/// How a chosen solver that stands for none is listed: an engine that is not registered.
fn not_registered(pick: &SolverPick) -> String {
    format!("{pick} (not registered)")
}

/// Everything the panel reads to draw itself.
pub(in crate::app) struct PanelView<'a> {
    /// The registered engines, listed after the built-in solvers.
    pub(in crate::app) engines: &'a EngineList,
    /// The chosen solver, or why the choice stands for none.
    pub(in crate::app) choice: Result<SolverChoice, crate::app::run::engines::EngineListError>,
    /// What would be solved now, or why nothing can be.
    pub(in crate::app) puzzle: Result<&'a Puzzle, &'a str>,
    /// The current or last run on the board as it is now.
    pub(in crate::app) session: Option<&'a SolveSession>,
    /// What became of a run on an earlier version of the board, when the board changed since.
    pub(in crate::app) earlier_run: Option<&'a str>,
    /// The solution being played back.
    pub(in crate::app) playback: Option<&'a Playback>,
    /// Whether the run is a debugged one, paused in the debugger: it is then not running.
    pub(in crate::app) debug_paused: bool,
}

/// The solver's controls at the top of the dock: choice, limits, debug mode, Solve and
/// Cancel. Nothing a run shows is drawn here, so these stay where they are while it runs.
pub(in crate::app) fn solver_controls_ui(
    ui: &mut egui::Ui,
    view: &PanelView<'_>,
    settings: &mut SolverSettings,
    debug: &mut DebugSettings,
    running: bool,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.heading("Solvers");
    let described = view.choice.as_ref().ok().map(describe);
    solver_picker_ui(ui, view, settings, described.as_ref(), commands);
    // A name that stands for no solver is said plainly in the description's place, and
    // Solve stays disabled: another solver is never run in its place.
    let unknown = view.choice.as_ref().err();
    let described = described.unwrap_or_else(|| Described {
        title: not_registered(&settings.solver),
        description: unknown.map(ToString::to_string).unwrap_or_default(),
        optimality: Optimality::NotGuaranteed,
        source: String::new(),
        deepest_limit: None,
        external: None,
    });
    // Every solver's controls take the same rows, whatever its description's length and
    // whether it takes a depth limit, so Solve and Cancel never move when another solver is
    // chosen: the description keeps to two lines (in full on hover), the source to one.
    let height = widgets::text_lines(ui, 2.0);
    widgets::reserved(ui, height, |ui| {
        widgets::clipped_label(
            ui,
            egui::RichText::new(&described.description).color(if unknown.is_some() {
                palette.error
            } else {
                palette.muted
            }),
            2,
        )
    });
    ui.horizontal(|ui| {
        match (described.optimality, described.external) {
            (_, Some(_)) => ui.colored_label(palette.warning, "External"),
            (Optimality::Guaranteed, None) => ui.colored_label(palette.success, "Optimal"),
            (Optimality::NotGuaranteed, None) => {
                ui.colored_label(palette.warning, "Not guaranteed optimal")
            }
        };
        if let (Some(spec), SolverPick::Engine(name)) = (described.external, &settings.solver)
            && ui
                .small_button("Edit engine…")
                .on_hover_text(format!(
                    "Change {}'s command, folder or options (tested first)",
                    spec.name
                ))
                .clicked()
        {
            commands.push(Command::EditEngine(name.clone()));
        }
        if let (Some(spec), SolverPick::Engine(name)) = (described.external, &settings.solver)
            && ui
                .small_button("Remove engine")
                .on_hover_text(format!(
                    "Unregister {} (its program is left alone)",
                    spec.name
                ))
                .clicked()
        {
            commands.push(Command::RemoveEngine(name.clone()));
        }
        widgets::clipped_label(
            ui,
            egui::RichText::new(&described.source)
                .color(palette.muted)
                .small(),
            1,
        );
    });
    ui.separator();
    limits_ui(ui, &described, settings);
    let blocker = match view.puzzle {
        _ if unknown.is_some() => unknown.map(|problem| format!("Cannot solve: {problem}")),
        Err(problem) => Some(format!("Cannot solve: {problem}")),
        Ok(puzzle) => view
            .choice
            .as_ref()
            .ok()
            .and_then(|choice| unsupported_rule(choice, puzzle.rules())),
    };
    // Wrapped, so that in a narrow dock the debug switches go to a second line rather than
    // past the dock's edge.
    ui.horizontal_wrapped(|ui| {
        let solve = ui
            .add_enabled(blocker.is_none(), egui::Button::new("Solve"))
            .on_hover_text(format!(
                "{}: the board as it stands, or the game's position while playing",
                keys::tooltip("Solve", Action::Solve)
            ))
            .on_disabled_hover_text(blocker.clone().unwrap_or_default());
        if solve.clicked() {
            commands.push(Command::Solve);
        }
        if ui
            .add_enabled(running, egui::Button::new("Cancel"))
            .on_hover_text(keys::tooltip("Stop the run", Action::Cancel))
            .clicked()
        {
            commands.push(Command::Cancel);
        }
        ui.separator();
        ui.checkbox(&mut debug.enabled, "Debug mode")
            .on_hover_text("Solve through the stepping probe: step, pause, breakpoints");
        ui.add_enabled(
            debug.enabled,
            egui::Checkbox::new(&mut debug.start_paused, "Start paused"),
        );
    });
    // Two lines are kept for why the board cannot be solved, shown or not, so the tabs below
    // stay in place as the board becomes valid or invalid.
    let height = widgets::text_lines(ui, 2.0);
    widgets::reserved(ui, height, |ui| {
        if let Some(blocker) = &blocker {
            widgets::clipped_label(ui, egui::RichText::new(blocker).color(palette.error), 2);
        }
    });
}

/// The solver list, with each entry's description under it while pointed at, and the Add
/// engine button.
fn solver_picker_ui(
    ui: &mut egui::Ui,
    view: &PanelView<'_>,
    settings: &mut SolverSettings,
    described: Option<&Described<'_>>,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    // The list is tall enough for every solver, so none is hidden below a scroll edge, and
    // the pointed-at solver's description shows under the list rather than in a tooltip over
    // the entries next to it.
    let description_height = widgets::text_lines(ui, 4.0);
    let entries = SolverId::ALL.len() + view.engines.engines().len();
    let list_height = widgets::widget_rows(ui, entries as f32)
        + ui.spacing().item_spacing.y * 4.0
        + description_height;
    let selected_text = match described {
        Some(described) => described.title.clone(),
        None => not_registered(&settings.solver),
    };
    ui.horizontal_wrapped(|ui| {
        egui::ComboBox::from_label("Solver")
            .selected_text(selected_text)
            .width(ui.available_width() * 0.6)
            .height(list_height)
            .show_ui(ui, |ui| {
                let mut pointed = None;
                for id in SolverId::ALL {
                    let entry = ui.selectable_value(
                        &mut settings.solver,
                        SolverPick::BuiltIn(id),
                        id.kind().title,
                    );
                    if entry.hovered() {
                        pointed = Some(SolverChoice::BuiltIn(id));
                    }
                }
                if !view.engines.engines().is_empty() {
                    ui.separator();
                }
                for (name, spec) in view.engines.registered() {
                    let entry = ui
                        .selectable_value(
                            &mut settings.solver,
                            SolverPick::Engine(name),
                            engine_title(spec),
                        )
                        .on_hover_text(format!("External engine: {}", spec.command_line()));
                    if entry.hovered() {
                        pointed = Some(SolverChoice::engine(spec.clone()));
                    }
                }
                if let Some(problem) = view.engines.problem() {
                    ui.colored_label(palette.error, problem);
                }
                ui.separator();
                let text = pointed
                    .as_ref()
                    .map(|p| describe(p).description)
                    .or_else(|| described.map(|d| d.description.clone()))
                    .unwrap_or_default();
                widgets::reserved(ui, description_height, |ui| {
                    ui.add(egui::Label::new(egui::RichText::new(text).color(palette.muted)).wrap());
                });
            });
        if ui
            .small_button("Add engine…")
            .on_hover_text("Register a program that speaks the engine protocol as a solver")
            .clicked()
        {
            commands.push(Command::ShowAddEngine);
        }
    });
}

/// The depth, time and memory limits; the depth limit only for a solver that takes one.
fn limits_ui(ui: &mut egui::Ui, described: &Described<'_>, settings: &mut SolverSettings) {
    ui.horizontal(|ui| {
        let takes_limit = described.deepest_limit.is_some();
        let check = ui
            .add_enabled(
                takes_limit,
                egui::Checkbox::new(&mut settings.use_depth_limit, "Depth limit"),
            )
            .on_disabled_hover_text(format!("{} takes no depth limit", described.title));
        ui.add_enabled(
            takes_limit && settings.use_depth_limit,
            egui::DragValue::new(&mut settings.depth_limit)
                .range(1..=described.deepest_limit.unwrap_or(u32::MAX))
                .suffix(" moves"),
        )
        .labelled_by(check.id)
        .on_hover_text("The deepest search tried");
    });
    ui.horizontal(|ui| {
        let check = ui.checkbox(&mut settings.use_time_limit, "Time limit");
        ui.add_enabled(
            settings.use_time_limit,
            egui::DragValue::new(&mut settings.time_limit_secs)
                .range(0.1..=86_400.0)
                .speed(1.0)
                .suffix(" s"),
        )
        .labelled_by(check.id)
        .on_hover_text("Seconds before the run stops");
    });
    ui.horizontal(|ui| {
        let check = ui.checkbox(&mut settings.use_memory_limit, "Memory limit");
        ui.add_enabled(
            settings.use_memory_limit,
            egui::DragValue::new(&mut settings.memory_limit_mib)
                .range(16..=1_048_576)
                .speed(16.0)
                .suffix(" MiB"),
        )
        .labelled_by(check.id)
        .on_hover_text("Memory the solver's tables may take");
    });
}

/// The Run tab: the run's result, its per-depth rows and the solution's playback. A run made
/// on an earlier version of the board is not shown as this board's.
pub(in crate::app) fn run_ui(
    ui: &mut egui::Ui,
    view: &PanelView<'_>,
    settings: &mut SolverSettings,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    match (view.session, view.earlier_run) {
        (Some(session), _) => {
            let shown = view.playback.map(Playback::moves);
            session_ui(ui, session, shown, view.debug_paused, palette, commands);
        }
        (None, Some(note)) => {
            ui.label(egui::RichText::new(note).color(palette.muted));
        }
        (None, None) => {
            ui.label(egui::RichText::new("No run on this board yet.").color(palette.muted));
            ui.label(
                egui::RichText::new("Editing the board cancels a running solve.")
                    .color(palette.muted),
            );
        }
    }
    if let Some(playback) = view.playback {
        ui.separator();
        playback_ui(ui, playback, settings, commands);
    }
}

fn session_ui(
    ui: &mut egui::Ui,
    session: &SolveSession,
    shown: Option<&[crate::model::Move]>,
    debug_paused: bool,
    palette: &theme::Palette,
    commands: &mut Vec<Command>,
) {
    let run = &session.run;
    let elapsed = run.elapsed();
    if !run.is_finished() {
        ui.horizontal(|ui| {
            // A run paused in the debugger is not running: no spinner says it is.
            let what = if run.is_cancelling() {
                "Cancelling"
            } else if debug_paused {
                "Paused in the debugger:"
            } else {
                "Running"
            };
            if !debug_paused {
                widgets::calm_spinner(ui, None);
            }
            // One line whatever the time and count grow to, in full on hover: a longer line
            // would widen the dock.
            widgets::clipped_label(
                ui,
                egui::RichText::new(format!(
                    "{what} {}: {}, {} nodes",
                    run.title(),
                    format_time(elapsed),
                    format_count(run.live().nodes())
                )),
                1,
            );
        });
        if run.live().memory_bytes() > 0 {
            ui.label(format!(
                "Tables: {}",
                format_bytes(run.live().memory_bytes())
            ));
        }
    } else {
        result_ui(ui, session, palette);
    }
    super::engine_live::engine_figures_ui(ui, run);
    if let Some(entries) = run.profile()
        && let Some(IcicleCommand::Show(moves)) = icicle_ui(ui, entries, shown)
    {
        commands.push(Command::ShowPrefix(moves));
    }
    let engine = matches!(run.solver(), crate::solver::SolverChoice::Engine(_));
    depth_table_ui(
        ui,
        (&run.columns(), engine),
        run.rows(),
        (!run.is_finished()).then(|| run.live().nodes()),
        session.serial,
    );
}

fn result_ui(ui: &mut egui::Ui, session: &SolveSession, palette: &theme::Palette) {
    let run = &session.run;
    let Some(end) = run.end() else {
        return;
    };
    match end {
        RunEnd::Finished(report) => {
            let time = format_time(report.elapsed);
            match &report.outcome {
                Outcome::Solved { moves } => {
                    let optimal = match (
                        super::engines::engine_claim(run.solver(), &report.outcome),
                        run.optimality(),
                    ) {
                        (Some(claim), _) => claim,
                        (None, Optimality::Guaranteed) => "optimal",
                        (None, Optimality::NotGuaranteed) => "not guaranteed optimal",
                    };
                    ui.colored_label(
                        palette.success,
                        egui::RichText::new(format!(
                            "Solved in {} move{} ({optimal})",
                            moves.len(),
                            if moves.len() == 1 { "" } else { "s" }
                        ))
                        .strong(),
                    );
                    let text = if moves.is_empty() {
                        "The target is already reached.".to_string()
                    } else {
                        format_moves(moves)
                    };
                    ui.add(
                        egui::Label::new(egui::RichText::new(text).monospace()).selectable(true),
                    );
                }
                // An engine's claim is labelled as its word.
                Outcome::Unsolvable { within: Some(n) } if run.solver().is_engine() => {
                    ui.colored_label(
                        palette.warning,
                        format!("Engine says: no solution within {n} moves (not verified)"),
                    );
                }
                Outcome::Unsolvable { within: None } if run.solver().is_engine() => {
                    ui.colored_label(
                        palette.warning,
                        "Engine says: no solution exists (not verified)",
                    );
                }
                Outcome::Unsolvable { within: Some(n) } => {
                    ui.colored_label(palette.warning, format!("No solution within {n} moves"));
                }
                Outcome::Unsolvable { within: None } => {
                    ui.colored_label(palette.warning, "No solution exists");
                }
                Outcome::NotFound => {
                    ui.colored_label(
                        palette.warning,
                        "No solution found (this solver is not exhaustive, so one may exist)",
                    );
                }
                Outcome::Cancelled => {
                    let why = session.interrupted.as_deref().unwrap_or("by you");
                    ui.colored_label(palette.warning, format!("Cancelled {why}"));
                    if let Some(latency) = run.cancel_latency() {
                        ui.label(
                            egui::RichText::new(format!(
                                "stopped {} after the request",
                                format_time(latency)
                            ))
                            .color(palette.muted)
                            .small(),
                        );
                    }
                }
                Outcome::TimeLimit => {
                    ui.colored_label(palette.warning, "Stopped at the time limit");
                }
                Outcome::MemoryLimit => {
                    ui.colored_label(palette.warning, "Stopped at the memory limit");
                }
                Outcome::Invalid { claimed, error } => {
                    ui.colored_label(
                        palette.error,
                        format!(
                            "The solver's answer failed its replay: {error} ({} moves claimed: {})",
                            claimed.len(),
                            format_moves(claimed)
                        ),
                    );
                }
            }
            ui.label(format!(
                "{} in {time}, {} nodes, tables {}",
                run.title(),
                format_count(report.nodes),
                format_bytes(report.peak_memory)
            ));
        }
        RunEnd::Refused(SolveError::Engine(error)) => {
            ui.colored_label(palette.error, "The engine failed.");
            crate::app::run::engines::engine_log_ui(ui, error, palette);
        }
        RunEnd::Refused(error) => {
            ui.colored_label(palette.error, format!("The solver refused: {error}"));
        }
        RunEnd::Crashed(message) => {
            ui.colored_label(palette.error, message);
        }
    }
}

fn playback_ui(
    ui: &mut egui::Ui,
    playback: &Playback,
    settings: &mut SolverSettings,
    commands: &mut Vec<Command>,
) {
    ui.label(egui::RichText::new("Solution playback").strong());
    let total = playback.moves().len();
    let step = playback.step();
    let current = step
        .checked_sub(1)
        .map(|i| format!(": {}", playback.moves()[i]))
        .unwrap_or_default();
    ui.label(format!("Move {step} of {total}{current}"));
    ui.horizontal_wrapped(|ui| {
        let control = |ui: &mut egui::Ui, enabled: bool, label: &str, hint: &str| {
            ui.add_enabled(enabled, egui::Button::new(label))
                .on_hover_text(hint)
                .clicked()
        };
        if control(ui, step > 0, "Start", "Back to the first position (Home)") {
            commands.push(Command::Playback(PlaybackControl::First));
        }
        if control(ui, step > 0, "Back", "One move back (,)") {
            commands.push(Command::Playback(PlaybackControl::Back));
        }
        let play_label = if playback.is_playing() {
            "Pause"
        } else {
            "Play"
        };
        if control(ui, total > 0, play_label, "Play or pause (Space)") {
            commands.push(Command::Playback(PlaybackControl::PlayPause));
        }
        if control(ui, step < total, "Forward", "One move forward (.)") {
            commands.push(Command::Playback(PlaybackControl::Forward));
        }
        if control(ui, step < total, "End", "To the final position (End)") {
            commands.push(Command::Playback(PlaybackControl::Last));
        }
    });
    ui.add(
        egui::Slider::new(&mut settings.playback_speed, 0.5..=20.0)
            .logarithmic(true)
            .text("Moves per second"),
    );
    ui.horizontal(|ui| {
        if ui.button("Hide solution").clicked() {
            commands.push(Command::Playback(PlaybackControl::Close));
        }
        let export = ui.button("Export animation…").on_hover_text(
            "Write the playback as a GIF, an animated PNG or PNG frames (Ctrl+Shift+E)",
        );
        if export.clicked() {
            let subject = crate::app::command::AnimationSubject::Solution;
            commands.push(Command::ExportAnimation(subject));
        }
    });
}
