//! The solver panel: choose any registered solver and its options, run it on a worker thread,
//! watch its per-depth table grow, read the result and play the solution back.

use super::debugger::DebugSettings;
use super::keys::{self, Action};
use super::playback::{Playback, PlaybackControl};
use super::state::SolverSettings;
use super::widgets::{format_bytes, format_count, format_duration};
use super::{Command, theme};
use crate::model::{Puzzle, Rules, format_moves};
use crate::solver::{Optimality, Outcome, SolverKind, SolverOptions};
use crate::worker::{DepthRow, RunEnd, SolveJob, SolveRun};
use std::time::Duration;

/// A run the panel shows: running, or finished and kept for its table and result.
pub struct SolveSession {
    /// The run.
    pub run: SolveRun,
    /// The puzzle it solves (a snapshot taken at the start).
    pub puzzle: Puzzle,
    /// What the board was called when the run started, for the plots.
    pub puzzle_name: String,
    /// The board's revision when the run started: the run is shown only while it is current.
    pub revision: super::document::Revision,
    /// Counts the app's runs, so each run's table starts unscrolled.
    pub serial: u64,
    /// Why the app cancelled it, when it did (e.g. the board was edited).
    pub interrupted: Option<String>,
    /// Whether its result has gone into the plot history.
    pub recorded: bool,
}

impl SolveSession {
    /// The solution, when the run found one (already replayed by the framework).
    pub fn solution(&self) -> Option<&[crate::model::Move]> {
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
pub fn job_for(kind: &SolverKind, puzzle: Puzzle, settings: &SolverSettings) -> SolveJob {
    // The struct update keeps this compiling, with default values, when solvers gain options
    // the panel does not offer yet.
    #[allow(clippy::needless_update)]
    let options = SolverOptions {
        depth_limit: (kind.deepest_limit.is_some() && settings.use_depth_limit)
            .then_some(settings.depth_limit),
        ..SolverOptions::default()
    };
    SolveJob {
        solver: kind.name.to_string(),
        puzzle,
        options,
        time_limit: settings
            .use_time_limit
            .then(|| Duration::try_from_secs_f64(settings.time_limit_secs).ok())
            .flatten(),
        memory_limit: settings
            .use_memory_limit
            .then(|| (settings.memory_limit_mib as usize).saturating_mul(1 << 20)),
    }
}

/// Why a solver cannot take a puzzle's rules, if it cannot.
pub fn unsupported_rule(kind: &SolverKind, rules: Rules) -> Option<String> {
    kind.rules
        .unsupported(rules)
        .map(|rule| format!("{} does not implement the {rule} rule", kind.title))
}

/// Everything the panel reads to draw itself.
pub struct PanelView<'a> {
    /// The registered solvers.
    pub solvers: &'static [SolverKind],
    /// What would be solved now, or why nothing can be.
    pub puzzle: Result<&'a Puzzle, &'a str>,
    /// The current or last run on the board as it is now.
    pub session: Option<&'a SolveSession>,
    /// What became of a run on an earlier version of the board, when the board changed since.
    pub earlier_run: Option<&'a str>,
    /// The solution being played back.
    pub playback: Option<&'a Playback>,
}

/// The solver's controls at the top of the dock: choice, limits, debug mode, Solve and
/// Cancel. Nothing a run shows is drawn here, so these stay where they are while it runs.
pub fn solver_controls_ui(
    ui: &mut egui::Ui,
    view: &PanelView<'_>,
    settings: &mut SolverSettings,
    debug: &mut DebugSettings,
    running: bool,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.heading("Solvers");
    if view.solvers.is_empty() {
        ui.colored_label(palette.error, "No solvers are registered.");
        return;
    }
    let kind = view
        .solvers
        .iter()
        .find(|k| k.name == settings.solver)
        .unwrap_or(&view.solvers[0]);
    egui::ComboBox::from_label("Solver")
        .selected_text(kind.title)
        .width(ui.available_width() * 0.6)
        .show_ui(ui, |ui| {
            for candidate in view.solvers {
                ui.selectable_value(
                    &mut settings.solver,
                    candidate.name.to_string(),
                    candidate.title,
                )
                .on_hover_text(candidate.description);
            }
        });
    ui.label(egui::RichText::new(kind.description).color(palette.muted));
    ui.horizontal_wrapped(|ui| {
        match kind.optimality {
            Optimality::Guaranteed => ui.colored_label(palette.success, "Optimal"),
            Optimality::NotGuaranteed => {
                ui.colored_label(palette.warning, "Not guaranteed optimal")
            }
        };
        ui.label(
            egui::RichText::new(format!("from {}", kind.source))
                .color(palette.muted)
                .small(),
        );
    });
    ui.separator();
    if let Some(deepest) = kind.deepest_limit {
        ui.horizontal(|ui| {
            let check = ui.checkbox(&mut settings.use_depth_limit, "Depth limit");
            ui.add_enabled(
                settings.use_depth_limit,
                egui::DragValue::new(&mut settings.depth_limit)
                    .range(1..=deepest)
                    .suffix(" moves"),
            )
            .labelled_by(check.id)
            .on_hover_text("The deepest search tried");
        });
    }
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
    let blocker = match view.puzzle {
        Err(problem) => Some(format!("Cannot solve: {problem}")),
        Ok(puzzle) => unsupported_rule(kind, puzzle.rules()),
    };
    ui.horizontal(|ui| {
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
    if let Some(blocker) = &blocker {
        ui.colored_label(palette.error, blocker);
    }
}

/// The Run tab: the run's result, its per-depth rows and the solution's playback. A run made
/// on an earlier version of the board is not shown as this board's.
pub fn run_ui(
    ui: &mut egui::Ui,
    view: &PanelView<'_>,
    settings: &mut SolverSettings,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    match (view.session, view.earlier_run) {
        (Some(session), _) => session_ui(ui, session, palette),
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

fn session_ui(ui: &mut egui::Ui, session: &SolveSession, palette: &theme::Palette) {
    let run = &session.run;
    let kind = run.kind();
    let elapsed = run.elapsed();
    if !run.is_finished() {
        ui.horizontal(|ui| {
            ui.spinner();
            let what = if run.is_cancelling() {
                "Cancelling"
            } else {
                "Running"
            };
            ui.label(format!(
                "{what} {}: {}, {} nodes",
                kind.title,
                format_duration(elapsed),
                format_count(run.live().nodes())
            ));
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
    depth_table_ui(
        ui,
        kind,
        run.rows(),
        (!run.is_finished()).then(|| run.live().nodes()),
        session.serial,
    );
}

fn result_ui(ui: &mut egui::Ui, session: &SolveSession, palette: &theme::Palette) {
    let run = &session.run;
    let kind = run.kind();
    let Some(end) = run.end() else {
        return;
    };
    match end {
        RunEnd::Finished(report) => {
            let time = format_duration(report.elapsed);
            match &report.outcome {
                Outcome::Solved { moves } => {
                    let optimal = match kind.optimality {
                        Optimality::Guaranteed => "optimal",
                        Optimality::NotGuaranteed => "not guaranteed optimal",
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
                                format_duration(latency)
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
                kind.title,
                format_count(report.nodes),
                format_bytes(report.peak_memory)
            ));
        }
        RunEnd::Refused(error) => {
            ui.colored_label(palette.error, format!("The solver refused: {error}"));
        }
        RunEnd::Crashed(message) => {
            ui.colored_label(palette.error, message);
        }
    }
}

/// The per-depth table, one row per finished depth as the deck prints it, with the solver's
/// own column names and the time each row finished; while running, a last row shows the
/// nodes counted so far. The header stays put while the rows scroll.
fn depth_table_ui(
    ui: &mut egui::Ui,
    kind: &SolverKind,
    rows: &[DepthRow],
    running_nodes: Option<u64>,
    serial: u64,
) {
    let mut extra_names: Vec<&'static str> = Vec::new();
    for row in rows {
        for (name, _) in &row.stats.extra {
            if !extra_names.contains(name) {
                extra_names.push(name);
            }
        }
    }
    // Column widths: the depth, three counters and any extra counters, the time; shrunk to
    // the panel's width when there are many, down to what a count needs.
    let mut widths: Vec<f32> = vec![56.0, 96.0, 96.0, 96.0];
    widths.extend(extra_names.iter().map(|_| 90.0));
    widths.push(64.0);
    let mut header: Vec<String> = vec![
        kind.columns.depth.to_string(),
        kind.columns.nodes.to_string(),
        kind.columns.inner.to_string(),
        kind.columns.hits.to_string(),
    ];
    header.extend(extra_names.iter().map(|n| (*n).to_string()));
    header.push("Time".into());
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            let mut cells = vec![
                row.stats.depth.to_string(),
                format_count(row.stats.nodes),
                format_count(row.stats.inner),
                format_count(row.stats.hits),
            ];
            for name in &extra_names {
                let value = row
                    .stats
                    .extra
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| format_count(*v))
                    .unwrap_or_default();
                cells.push(value);
            }
            cells.push(format_duration(row.at));
            cells
        })
        .collect();
    // No column gets narrower than its longest value or the longest word of its name, so no
    // number is cut and a name that needs more lines breaks between words; what does not fit
    // the panel even then scrolls.
    let floors: Vec<f32> = header
        .iter()
        .enumerate()
        .map(|(column, name)| {
            let word = name
                .split_inclusive([' ', '-'])
                .map(|word| header_text_width(ui, word.trim_end()))
                .fold(0.0, f32::max);
            let longest = body
                .iter()
                .filter_map(|cells| cells.get(column))
                .max_by_key(|cell| cell.chars().count())
                .map_or(0.0, |cell| monospace_width(ui, cell));
            word.max(longest) + 4.0
        })
        .collect();
    for (width, floor) in widths.iter_mut().zip(&floors) {
        *width = (*width).max(*floor);
    }
    fit_widths(&mut widths, &floors, ui.available_width() - 16.0);
    ui.label(egui::RichText::new(format!("{} rows", kind.columns.depth)).strong());
    // Each run has its own scroll state, so a new run starts at its first column; the bar is
    // always drawn when the columns do not all fit.
    // A solid bar (not one that shows only on hover), so a table wider than the dock says so.
    ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
    egui::ScrollArea::horizontal()
        .id_salt(("depth-table-wide", serial))
        .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::VisibleWhenNeeded)
        .show(ui, |ui| {
            table_row_ui(ui, &widths, &header, true, None);
            let stripe = ui.visuals().faint_bg_color;
            egui::ScrollArea::vertical()
                .id_salt(("depth-table", serial))
                .max_height(ui.available_height().clamp(120.0, 360.0))
                .stick_to_bottom(true)
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    for (index, cells) in body.iter().enumerate() {
                        let fill = (index % 2 == 1).then_some(stripe);
                        table_row_ui(ui, &widths, cells, false, fill);
                    }
                    if let Some(nodes) = running_nodes {
                        // The run's node count so far, over all depths, under the first counter.
                        let cells = ["so far".to_string(), format_count(nodes)];
                        table_row_ui(ui, &widths[..2], &cells, false, None);
                    }
                });
        });
}

/// Shrinks column widths in proportion so that they (with their gaps) fit `available`; a
/// column that would get narrower than its floor in `floors` (without one, than a count
/// needs) keeps that width and the others share what is left. When even that does not fit,
/// the table scrolls.
fn fit_widths(widths: &mut [f32], floors: &[f32], available: f32) {
    const GAP: f32 = 6.0;
    const NARROWEST: f32 = 52.0;
    let room = available - GAP * widths.len() as f32;
    if widths.iter().sum::<f32>() <= room || widths.is_empty() {
        return;
    }
    let original = widths.to_vec();
    let floor_of: Vec<f32> = original
        .iter()
        .enumerate()
        .map(|(i, w)| floors.get(i).copied().unwrap_or(NARROWEST).min(*w))
        .collect();
    let floor = |i: usize| floor_of[i];
    let mut pinned = vec![false; widths.len()];
    loop {
        let pinned_sum: f32 = original
            .iter()
            .zip(&pinned)
            .enumerate()
            .filter(|(_, (_, p))| **p)
            .map(|(i, _)| floor(i))
            .sum();
        let free_sum: f32 = original
            .iter()
            .zip(&pinned)
            .filter(|(_, p)| !**p)
            .map(|(w, _)| *w)
            .sum();
        let scale = if free_sum > 0.0 {
            (room - pinned_sum).max(0.0) / free_sum
        } else {
            0.0
        };
        let mut changed = false;
        for (i, w) in original.iter().enumerate() {
            if !pinned[i] && w * scale < floor(i) {
                pinned[i] = true;
                changed = true;
            }
        }
        if !changed {
            for (i, w) in original.iter().enumerate() {
                widths[i] = if pinned[i] { floor(i) } else { w * scale };
            }
            return;
        }
    }
}

/// One row of fixed-width cells, numbers right-aligned.
fn table_row_ui(
    ui: &mut egui::Ui,
    widths: &[f32],
    cells: &[String],
    header: bool,
    fill: Option<egui::Color32>,
) {
    // A header whose names do not fit their columns takes more lines, so no name is cut.
    let lines = if header {
        header_lines(ui, widths, cells)
    } else {
        1.0
    };
    let height = ui.text_style_height(&egui::TextStyle::Monospace) * lines + 4.0;
    let total: f32 = widths.iter().sum::<f32>() + 6.0 * widths.len() as f32;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(total, height), egui::Sense::hover());
    if let Some(fill) = fill {
        ui.painter().rect_filled(rect, 0.0, fill);
    }
    let mut x = rect.left();
    for (cell, width) in cells.iter().zip(widths) {
        let cell_rect =
            egui::Rect::from_min_size(egui::pos2(x, rect.top()), egui::vec2(*width, height));
        let text = if header {
            egui::RichText::new(cell).strong()
        } else {
            egui::RichText::new(cell).monospace()
        };
        // Names of several lines sit on the rows below them, right-aligned like the numbers.
        let wrapped = header && lines > 1.0;
        let layout = if wrapped {
            egui::Layout::bottom_up(egui::Align::Max)
        } else {
            egui::Layout::right_to_left(egui::Align::Center)
        };
        let mut child = ui.new_child(egui::UiBuilder::new().max_rect(cell_rect).layout(layout));
        if wrapped {
            child.add(egui::Label::new(text).wrap());
        } else {
            child.add(egui::Label::new(text).truncate());
        }
        x += width + 6.0;
    }
}

/// The lines the header needs: its most, when each name wraps at its column's width.
fn header_lines(ui: &egui::Ui, widths: &[f32], cells: &[String]) -> f32 {
    cells
        .iter()
        .zip(widths)
        .map(|(cell, width)| {
            egui::WidgetText::from(egui::RichText::new(cell).strong())
                .into_galley(
                    ui,
                    Some(egui::TextWrapMode::Wrap),
                    *width,
                    egui::TextStyle::Body,
                )
                .rows
                .len()
        })
        .max()
        .unwrap_or(1) as f32
}

/// The width of a table value.
fn monospace_width(ui: &egui::Ui, text: &str) -> f32 {
    one_line_width(
        ui,
        egui::RichText::new(text).monospace(),
        egui::TextStyle::Monospace,
    )
}

/// The width of a header name on one line.
fn header_text_width(ui: &egui::Ui, text: &str) -> f32 {
    one_line_width(
        ui,
        egui::RichText::new(text).strong(),
        egui::TextStyle::Body,
    )
}

/// The width of a text laid out on one line.
fn one_line_width(ui: &egui::Ui, text: egui::RichText, style: egui::TextStyle) -> f32 {
    egui::WidgetText::from(text)
        .into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, style)
        .size()
        .x
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
    if ui.button("Hide solution").clicked() {
        commands.push(Command::Playback(PlaybackControl::Close));
    }
}

#[cfg(test)]
mod fit_tests {
    use super::fit_widths;

    #[test]
    fn columns_shrink_to_the_room_without_going_below_a_count() {
        let mut widths = vec![56.0, 96.0, 96.0, 96.0, 90.0, 90.0, 64.0];
        fit_widths(&mut widths, &[], 450.0);
        let total: f32 = widths.iter().sum::<f32>() + 6.0 * widths.len() as f32;
        assert!(total <= 450.5, "{total}");
        assert!(widths.iter().all(|w| *w >= 52.0), "{widths:?}");
        let mut wide = vec![56.0, 96.0];
        fit_widths(&mut wide, &[], 400.0);
        assert_eq!(wide, vec![56.0, 96.0]);
    }

    #[test]
    fn no_column_shrinks_below_its_own_floor() {
        let mut widths = vec![56.0, 96.0, 96.0, 96.0, 90.0, 90.0, 64.0];
        let floors = [0.0, 0.0, 80.0, 0.0, 75.0, 0.0, 0.0];
        fit_widths(&mut widths, &floors, 500.0);
        assert!(widths[2] >= 80.0 && widths[4] >= 75.0, "{widths:?}");
        let total: f32 = widths.iter().sum::<f32>() + 6.0 * widths.len() as f32;
        assert!(total <= 500.5, "{total}");
        assert!(widths[1] < 96.0, "the other columns give way: {widths:?}");
    }
}
