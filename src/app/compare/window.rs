//! The Compare runs window as drawn: the two runs' sources in two columns of fixed width,
//! the comparison's controls and verdict, the step buttons, both positions, and the rows.
//! Every text that grows (a status, a path, a reason) is cut to its column with the whole
//! text on hover, so no control moves as runs record and compare.

use super::{CompareStatus, CompareView, NodeShown, RowPair, Which};
use crate::app::board_view::board_thumbnail;
use crate::app::command::{Command, Pending};
use crate::app::run::engines::EngineList;
use crate::app::theme;
use crate::app::widgets::{calm_spinner, format_count, window_position};
use crate::model::{Puzzle, format_moves};
use crate::solver::trace::DivergenceRule;
use crate::solver::{SolverId, SolverPick};
use crate::worker::Waker;
use egui::RichText;

/// The window's width: two columns of runs and the gap between them.
const WINDOW_WIDTH: f32 = 640.0;
/// The side of each run's board.
const THUMBNAIL_SIDE: f32 = 200.0;
/// The rows table's height: about six rows, scrolled past that.
const ROWS_HEIGHT: f32 = 120.0;

/// What the window needs from the app.
pub(in crate::app) struct CompareInputs<'a> {
    /// The open board's puzzle, when it is valid: what a recording solves.
    pub(in crate::app) puzzle: Option<&'a Puzzle>,
    /// The registered engines, offered beside the built-in solvers.
    pub(in crate::app) engines: &'a EngineList,
    /// Whether a Browse button may open the system's file dialog.
    pub(in crate::app) native_dialogs: bool,
}

/// Draws the window when it is open.
pub(in crate::app) fn compare_window(
    ctx: &egui::Context,
    view: &mut CompareView,
    inputs: CompareInputs<'_>,
    waker: Waker,
    commands: &mut Vec<Command>,
) {
    if view.poll() {
        ctx.request_repaint();
    }
    if !view.open {
        return;
    }
    if view.is_busy() {
        // The counters of a recording or a comparison move on between the threads' wakes.
        ctx.request_repaint_after(std::time::Duration::from_millis(200));
    }
    let mut open = view.open;
    window_position(egui::Window::new("Compare runs"), ctx)
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_width(WINDOW_WIDTH)
        // As tall as the app's window allows (egui's default is 420 points): the runs'
        // pictures and rows are the point of the window. `window_position` caps it.
        .default_height(crate::app::widgets::window_max_height(ctx))
        .show(ctx, |ui| {
            ui.set_width(WINDOW_WIDTH);
            // The window scrolls as a whole (`window_position`) when the app's is too short.
            window_ui(ui, view, &inputs, &waker, commands);
        });
    view.open = open;
}

fn window_ui(
    ui: &mut egui::Ui,
    view: &mut CompareView,
    inputs: &CompareInputs<'_>,
    waker: &Waker,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.horizontal(|ui| {
        let label = ui.label("Time limit per recording");
        ui.add(
            egui::DragValue::new(&mut view.time_limit_s)
                .range(1..=3600)
                .suffix(" s"),
        )
        .labelled_by(label.id)
        .on_hover_text("A recording stops here and keeps what it recorded, marked incomplete.");
    });
    let column = (WINDOW_WIDTH - ui.spacing().item_spacing.x * 2.0) / 2.0;
    ui.horizontal_top(|ui| {
        for which in Which::BOTH {
            ui.allocate_ui_with_layout(
                egui::vec2(column, 0.0),
                egui::Layout::top_down(egui::Align::Min),
                |ui| {
                    ui.set_width(column);
                    run_sources_ui(ui, view, which, inputs, waker);
                },
            );
        }
    });
    ui.separator();
    comparison_ui(ui, view, waker, palette);
    ui.separator();
    steps_ui(ui, view);
    ui.horizontal_top(|ui| {
        let shown = [
            view.shown(Which::First).node,
            view.shown(Which::Second).node,
        ];
        let same = match (&shown[0], &shown[1]) {
            // Iterations are numbered each solver's own way (a level, a depth, a bound): a node
            // is the same by its position and depth.
            (Some(a), Some(b)) if a.cells != b.cells || a.depth != b.depth => Sameness::Differs,
            (Some(_), Some(_)) => Sameness::Same,
            _ => Sameness::Unknown,
        };
        for which in Which::BOTH {
            ui.allocate_ui_with_layout(
                egui::vec2(column, 0.0),
                egui::Layout::top_down(egui::Align::Min),
                |ui| {
                    ui.set_width(column);
                    let other = &shown[1 - usize::from(which == Which::Second)];
                    position_ui(ui, view, which, other.as_ref(), same, commands);
                },
            );
        }
    });
    if let Some(note) = view.note() {
        elided(ui, note, Some(palette.error));
    } else {
        ui.label("");
    }
    ui.separator();
    if let Some((states, puzzle)) = view.states() {
        super::states::states_ui(ui, states, puzzle);
        ui.separator();
    }
    rows_ui(ui, &view.rows());
}

/// How the two nodes shown compare.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sameness {
    Same,
    Differs,
    Unknown,
}

/// A label cut to the width it has, with the whole text on hover.
fn elided(ui: &mut egui::Ui, text: &str, color: Option<egui::Color32>) -> egui::Response {
    let mut rich = RichText::new(text);
    if let Some(color) = color {
        rich = rich.color(color);
    }
    let response = ui.add(egui::Label::new(rich).truncate());
    // Announced whole, as the hover shows it, not cut as drawn.
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, text));
    response.on_hover_text(text)
}

fn run_sources_ui(
    ui: &mut egui::Ui,
    view: &mut CompareView,
    which: Which,
    inputs: &CompareInputs<'_>,
    waker: &Waker,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    let heading = ui.strong(which.title());
    let recording = view.shown(which).recording;
    let (mut start, mut stop) = (false, false);
    let run = view.run_mut(which);
    ui.horizontal(|ui| {
        let selected = run
            .pick
            .as_ref()
            .map_or_else(|| "(none)".to_string(), |pick| pick.name().to_string());
        egui::ComboBox::new(("compare solver", which.title()), "")
            .selected_text(selected)
            .width(150.0)
            .show_ui(ui, |ui| {
                for id in SolverId::ALL {
                    ui.selectable_value(&mut run.pick, Some(SolverPick::BuiltIn(id)), id.name())
                        .on_hover_text(id.kind().title);
                }
                for (name, spec) in inputs.engines.registered() {
                    let text = format!("{name} (external)");
                    ui.selectable_value(&mut run.pick, Some(SolverPick::Engine(name)), text)
                        .on_hover_text(spec.command_line());
                }
            })
            .response
            .labelled_by(heading.id)
            .on_hover_text(format!(
                "The solver or engine the {} records",
                which.title().to_lowercase()
            ));
        if recording {
            let cancel = ui.button(format!("Stop {}", which.title().to_lowercase()));
            stop = cancel.clicked();
        } else {
            let record = ui
                .add_enabled(
                    inputs.puzzle.is_some(),
                    egui::Button::new(format!("Record {}", which.title().to_lowercase())),
                )
                .on_hover_text("Solve the open board with this solver, recording its whole search")
                .on_disabled_hover_text("The open board is not a valid puzzle");
            start = record.clicked();
        }
    });
    if stop {
        view.cancel_recording(which);
    }
    if start && let Some(puzzle) = inputs.puzzle {
        view.record(which, puzzle, inputs.engines, waker.clone());
    }
    let run = view.run_mut(which);
    let mut open = false;
    ui.horizontal(|ui| {
        let label = ui.label(if which == Which::First {
            "First trace"
        } else {
            "Second trace"
        });
        ui.add(
            egui::TextEdit::singleline(&mut run.file)
                .desired_width(130.0)
                .hint_text("file.rltrace"),
        )
        .labelled_by(label.id);
        open = ui
            .button(format!("Open {}", which.title().to_lowercase()))
            .on_hover_text("Open the trace file named here as this run")
            .clicked();
        if inputs.native_dialogs
            && ui.button("Browse...").clicked()
            && let Some(path) = rfd::FileDialog::new()
                .add_filter("Ricochet Lab trace", &["rltrace"])
                .pick_file()
        {
            run.file = path.display().to_string();
            open = true;
        }
    });
    if open {
        view.open_file(which);
    }
    let shown = view.shown(which);
    ui.horizontal(|ui| {
        if shown.recording {
            calm_spinner(ui, None);
        }
        elided(ui, &shown.status, shown.failed.then_some(palette.error));
    });
}

fn comparison_ui(
    ui: &mut egui::Ui,
    view: &mut CompareView,
    waker: &Waker,
    palette: &theme::Palette,
) {
    let mut status = None;
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(
            &mut view.rule,
            DivergenceRule::Order,
            "Same nodes in the same order",
        )
        .on_hover_text(
            "The searches differ at the first node where they do not examine the same \
                 position at the same depth in the same iteration: for solvers that should \
                 walk the same tree the same way.",
        );
        ui.radio_value(
            &mut view.rule,
            DivergenceRule::Sets,
            "Same nodes per iteration",
        )
        .on_hover_text(
            "The searches differ in the first iteration where one examines a position \
                 (at a depth) the other never does, in any order: for solvers that order \
                 their moves differently.",
        );
        ui.radio_value(
            &mut view.rule,
            DivergenceRule::States,
            "Same positions by moves",
        )
        .on_hover_text(
            "Each search as the positions it first examines at each number of moves from \
                 the start: which both reach, which only one reaches; for any two algorithms.",
        );
    });
    ui.horizontal(|ui| {
        let blocked = view.compare_blocked();
        let running = matches!(view.compare_status(), CompareStatus::Running { .. });
        if running {
            if ui.button("Cancel comparison").clicked() {
                view.cancel_comparison();
            }
            calm_spinner(ui, None);
        } else {
            let compare = ui
                .add_enabled(blocked.is_none(), egui::Button::new("Compare"))
                .on_hover_text("Read both traces and find the first place the searches differ");
            let compare = match &blocked {
                Some(why) => compare.on_disabled_hover_text(why),
                None => compare,
            };
            if compare.clicked() {
                view.compare(waker.clone());
            }
        }
        let (text, color) = match view.compare_status() {
            CompareStatus::None => (
                blocked.unwrap_or_else(|| "Not compared yet".into()),
                Some(palette.muted),
            ),
            CompareStatus::Running { nodes } => (
                format!("Comparing: {} nodes read", format_count(nodes)),
                None,
            ),
            CompareStatus::Same { nodes, rule } => (
                format!(
                    "The same search ({}): {} nodes compared",
                    rule_words(rule),
                    format_count(nodes)
                ),
                None,
            ),
            CompareStatus::Differ { nodes, why, rule } => (
                format!(
                    "They differ after {} nodes the same ({}): {why}",
                    format_count(nodes),
                    rule_words(rule)
                ),
                Some(palette.error),
            ),
            CompareStatus::Cancelled => {
                ("The comparison was cancelled".into(), Some(palette.muted))
            }
            CompareStatus::Failed(why) => (why, Some(palette.error)),
        };
        status = Some((text, color));
    });
    // The verdict reads whole, on lines of its own under the buttons, so that the buttons
    // above it never move as it grows.
    if let Some((text, color)) = status {
        let text = match color {
            Some(color) => RichText::new(text).color(color),
            None => RichText::new(text),
        };
        ui.add(egui::Label::new(text).wrap());
    }
}

fn rule_words(rule: DivergenceRule) -> &'static str {
    match rule {
        DivergenceRule::Order => "in order",
        DivergenceRule::Sets => "as sets per iteration",
        DivergenceRule::States => "by positions at each number of moves",
    }
}

fn steps_ui(ui: &mut egui::Ui, view: &mut CompareView) {
    let ready = view.trace_path(Which::First).is_some() || view.trace_path(Which::Second).is_some();
    ui.horizontal(|ui| {
        if ui
            .add_enabled(ready, egui::Button::new("Start"))
            .on_hover_text("Both runs back to their first node")
            .clicked()
        {
            view.go_to_start();
        }
        if ui
            .add_enabled(ready, egui::Button::new("Back both"))
            .on_hover_text("Both runs one node back")
            .clicked()
        {
            view.step(false);
        }
        if ui
            .add_enabled(ready, egui::Button::new("Step both"))
            .on_hover_text("Both runs one node forward")
            .clicked()
        {
            view.step(true);
        }
        if ui
            .add_enabled(view.has_difference(), egui::Button::new("First difference"))
            .on_hover_text("Both runs to the first place their searches differ")
            .on_disabled_hover_text("Compare the runs first; runs that are the same have none")
            .clicked()
        {
            view.go_to_difference();
        }
    });
}

fn position_ui(
    ui: &mut egui::Ui,
    view: &CompareView,
    which: Which,
    other: Option<&NodeShown>,
    same: Sameness,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    let shown = view.shown(which);
    let node = shown.node.as_ref();
    let side = THUMBNAIL_SIDE.min(ui.available_width());
    let label = format!("{} position", which.title());
    let target = view.debugger_target(which);
    if ui
        .add_enabled(
            target.is_some(),
            egui::Button::new(format!(
                "Open {} in the debugger",
                which.title().to_lowercase()
            )),
        )
        .on_hover_text(
            "Open this run's trace in the debugger at the node shown: the search tree, the \
             timeline and the inspector (the board becomes the trace's puzzle)",
        )
        .clicked()
        && let Some((path, at)) = target
    {
        commands.push(Command::Guarded(Pending::OpenTrace { path, at }));
    }
    match shown.puzzle {
        Some(puzzle) => {
            // Ring the robots that stand elsewhere in the other run's node.
            let marked: Vec<_> = match (node, other) {
                (Some(node), Some(other)) => node
                    .cells
                    .iter()
                    .zip(&other.cells)
                    .filter(|(a, b)| a != b)
                    .map(|(a, _)| *a)
                    .collect(),
                _ => Vec::new(),
            };
            board_thumbnail(
                ui,
                puzzle,
                node.map(|n| n.cells.as_slice()),
                &marked,
                side,
                &label,
            );
        }
        None => {
            let (rect, _) = ui.allocate_exact_size(egui::Vec2::splat(side), egui::Sense::hover());
            ui.painter()
                .rect_filled(rect, 4.0, ui.visuals().extreme_bg_color);
        }
    }
    let (line, path) = match node {
        Some(node) => (
            format!(
                "Event {} · depth {} · iteration {}",
                format_count(node.index),
                node.depth,
                node.iteration
                    .map_or_else(|| "–".to_string(), |i| i.to_string())
            ),
            if node.path.is_empty() {
                "The start position".to_string()
            } else {
                format!("Path {}", format_moves(&node.path))
            },
        ),
        None => ("No node shown".to_string(), String::new()),
    };
    elided(ui, &line, None);
    elided(ui, &path, None);
    let verdict = match same {
        Sameness::Same => ("Same node as the other run", palette.muted),
        Sameness::Differs => ("Differs from the other run (ringed robots)", palette.error),
        Sameness::Unknown => ("", palette.muted),
    };
    ui.label(RichText::new(verdict.0).color(verdict.1));
}

fn rows_ui(ui: &mut egui::Ui, rows: &[RowPair]) {
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.strong("Rows: nodes per depth");
    egui::ScrollArea::vertical()
        .id_salt("compare rows")
        .max_height(ROWS_HEIGHT)
        .auto_shrink([false, true])
        .show(ui, |ui| {
            egui::Grid::new("compare rows grid")
                .num_columns(4)
                .striped(true)
                .min_col_width(120.0)
                .show(ui, |ui| {
                    ui.strong("Depth");
                    ui.strong("First run");
                    ui.strong("Second run");
                    ui.strong("Second − first");
                    ui.end_row();
                    if rows.is_empty() {
                        ui.label(RichText::new("No rows yet").color(palette.muted));
                        ui.end_row();
                    }
                    let count = |n: Option<u64>| n.map_or_else(|| "–".to_string(), format_count);
                    for row in rows {
                        ui.label(row.depth.to_string());
                        ui.label(count(row.first));
                        ui.label(count(row.second));
                        match (row.first, row.second) {
                            (Some(a), Some(b)) if a == b => {
                                ui.label(RichText::new("same").color(palette.muted));
                            }
                            (Some(a), Some(b)) => {
                                let difference = i128::from(b) - i128::from(a);
                                let sign = if difference > 0 { "+" } else { "−" };
                                ui.label(
                                    RichText::new(format!(
                                        "{sign}{}",
                                        format_count(difference.unsigned_abs() as u64)
                                    ))
                                    .color(palette.error),
                                );
                            }
                            _ => {
                                ui.label("–");
                            }
                        }
                        ui.end_row();
                    }
                });
        });
}
