//! The Debugger tab: the debug controls, breakpoints, the shown node and the event log.

use super::{DebugSettings, Debugger};
use crate::app::command::Command;
use crate::app::command::DebugCommand;
use crate::app::theme;
use crate::app::widgets::format_count;
use crate::model::Board;
use crate::solver::trace::EventKind;
use crate::solver::{Event, PruneReason};

/// The debug controls, breakpoints, the shown node and the event log.
pub(in crate::app) fn debugger_ui(
    ui: &mut egui::Ui,
    debugger: Option<&Debugger>,
    settings: &mut DebugSettings,
    running: bool,
    cancelled: bool,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    if !settings.enabled && debugger.is_none() {
        ui.label(
            egui::RichText::new(
                "Turn on Debug mode above and press Solve to step through a search.",
            )
            .color(palette.muted),
        );
        return;
    }
    step_buttons_ui(ui, debugger, running, commands);
    // The breakpoints open in a popup over the panel, so opening them moves nothing below. In
    // a narrow dock the button goes under the slider rather than past the dock's edge.
    ui.horizontal_wrapped(|ui| {
        ui.add(
            egui::Slider::new(&mut settings.speed, 1.0..=100_000.0)
                .logarithmic(true)
                .text("Events per second"),
        );
        breakpoints_menu_ui(ui, debugger, settings, commands);
    });
    let Some(debugger) = debugger else {
        ui.label(
            egui::RichText::new("Press Solve to start a debugged run.")
                .color(palette.muted)
                .small(),
        );
        return;
    };
    node_facts_ui(ui, debugger, settings, (running, cancelled), commands);
    // The frontier's section keeps one height whatever it lists, so the log below stays put.
    if settings.show_frontier {
        super::frontier::frontier_ui(ui, debugger);
    }
    super::predict::predict_ui(ui, debugger, settings, commands);
    event_log_ui(ui, debugger);
}

/// The step, continue, pause and play buttons, each enabled when it can act.
fn step_buttons_ui(
    ui: &mut egui::Ui,
    debugger: Option<&Debugger>,
    running: bool,
    commands: &mut Vec<Command>,
) {
    let send = |commands: &mut Vec<Command>, command: DebugCommand| {
        commands.push(Command::Debug(command));
    };
    let live = debugger.is_some() && running;
    let paused = debugger.is_some_and(Debugger::is_paused);
    ui.horizontal_wrapped(|ui| {
        let button = |ui: &mut egui::Ui, enabled: bool, label: &str, hint: &str| {
            ui.add_enabled(enabled, egui::Button::new(label))
                .on_hover_text(hint)
                .clicked()
        };
        let scrubbed = debugger.is_some_and(Debugger::is_scrubbed_back);
        if button(
            ui,
            debugger.is_some(),
            "Step back",
            "One recorded event back (Shift+F11)",
        ) {
            send(commands, DebugCommand::StepBack);
        }
        if button(
            ui,
            (live && paused) || scrubbed,
            "Step",
            "One event forward (F11)",
        ) {
            send(commands, DebugCommand::Step);
        }
        if button(
            ui,
            live && paused,
            "Step over",
            "To the next node at this depth or shallower (F10)",
        ) {
            send(commands, DebugCommand::StepOver);
        }
        if button(
            ui,
            live && paused,
            "Step depth",
            "To the end of this depth (F9)",
        ) {
            send(commands, DebugCommand::StepDepth);
        }
        if button(ui, live && paused, "Continue", "Run to a breakpoint (F5)") {
            send(commands, DebugCommand::Continue);
        }
        if button(ui, live && !paused, "Pause", "Stop at the next event (F5)") {
            send(commands, DebugCommand::Pause);
        }
        if button(
            ui,
            live,
            "Run to solution",
            "Run until a solution is found (F8)",
        ) {
            send(commands, DebugCommand::ToSolution);
        }
        if button(ui, live, "Play", "Animated play at the speed below (F7)") {
            send(commands, DebugCommand::Play);
        }
    });
}

/// The Breakpoints menu button, with the number set, and its popup; a change is sent to the
/// run at once.
fn breakpoints_menu_ui(
    ui: &mut egui::Ui,
    debugger: Option<&Debugger>,
    settings: &mut DebugSettings,
    commands: &mut Vec<Command>,
) {
    let send = |commands: &mut Vec<Command>, command: DebugCommand| {
        commands.push(Command::Debug(command));
    };
    let set = [
        settings.break_on_depth,
        settings.break_on_cell,
        settings.break_on_solution,
        settings.break_on_prune,
        settings.break_on_bound,
        debugger.is_some_and(|d| d.break_state.is_some()),
    ]
    .into_iter()
    .filter(|&on| on)
    .count();
    crate::app::widgets::PopupButton::new(format!("Breakpoints ({set})…"))
        .hint("Where the search stops by itself")
        .ui(ui, |ui| {
            let before = settings.clone();
            ui.horizontal(|ui| {
                let label = ui.checkbox(&mut settings.break_on_depth, "At depth");
                ui.add(egui::DragValue::new(&mut settings.break_depth).range(0..=255))
                    .labelled_by(label.id);
            });
            ui.horizontal(|ui| {
                ui.checkbox(&mut settings.break_on_cell, "Active robot on cell");
                ui.add(
                    egui::DragValue::new(&mut settings.break_x)
                        .range(0..=63)
                        .prefix("x "),
                );
                ui.add(
                    egui::DragValue::new(&mut settings.break_y)
                        .range(0..=63)
                        .prefix("y "),
                );
            });
            ui.checkbox(&mut settings.break_on_solution, "When a solution is found");
            ui.horizontal(|ui| {
                let label = ui.checkbox(&mut settings.break_on_prune, "On a prune:");
                egui::ComboBox::from_id_salt("break-prune-kind")
                    .selected_text(settings.break_prune.name())
                    .show_ui(ui, |ui| {
                        for kind in EventKind::ALL.into_iter().filter(|k| k.is_prune()) {
                            ui.selectable_value(&mut settings.break_prune, kind, kind.name());
                        }
                    })
                    .response
                    .labelled_by(label.id);
            });
            ui.checkbox(
                &mut settings.break_on_bound,
                "When a new depth or bound starts",
            );
            ui.horizontal(|ui| {
                let label = ui.checkbox(
                    &mut settings.break_in_depths,
                    "Cell and state only at depths",
                );
                ui.add(
                    egui::DragValue::new(&mut settings.break_depth_low)
                        .range(0..=255)
                        .prefix("from "),
                )
                .labelled_by(label.id);
                ui.add(
                    egui::DragValue::new(&mut settings.break_depth_high)
                        .range(0..=255)
                        .prefix("to "),
                )
                .labelled_by(label.id);
            });
            let mut state = debugger.and_then(|d| d.break_state);
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(
                        debugger.is_some_and(|d| d.shown_view().cells.is_some()),
                        egui::Button::new("Stop at the state shown"),
                    )
                    .clicked()
                {
                    state = debugger.and_then(|d| d.shown_view().cells);
                }
                if ui
                    .add_enabled(state.is_some(), egui::Button::new("Forget the state"))
                    .clicked()
                {
                    state = None;
                }
            });
            if let Some(debugger) = debugger
                && (before != *settings || state != debugger.break_state)
            {
                send(
                    commands,
                    DebugCommand::Breakpoints(
                        settings.breakpoints(debugger.puzzle().board(), state),
                    ),
                );
            }
        });
}

/// How the run stands, the timeline and the facts of the node shown.
fn node_facts_ui(
    ui: &mut egui::Ui,
    debugger: &Debugger,
    settings: &mut DebugSettings,
    (running, cancelled): (bool, bool),
    commands: &mut Vec<Command>,
) {
    let frame = debugger.frame();
    let view = debugger.shown_view();
    // A run that has ended says how, as the status line does; a trace file says how its
    // recording ended, or that it is incomplete or damaged, where a run would say Finished.
    let status = if let Some(state) = debugger.file_state() {
        state.to_string()
    } else if !running && cancelled {
        "Cancelled".to_string()
    } else if !running {
        "Finished".to_string()
    } else if debugger.is_paused() {
        match &frame.stop_reason {
            Some(reason) => format!("Paused ({reason})"),
            None => "Paused".to_string(),
        }
    } else {
        "Running".to_string()
    };
    // The status shares its row with the switches of the frontier and the Predict mode, which
    // stand at the row's right end whatever the status says.
    ui.horizontal(|ui| {
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.checkbox(&mut settings.predict, "Predict the next step")
                .on_hover_text("Before each step, pick what the search does next");
            ui.checkbox(&mut settings.show_frontier, "Frontier")
                .on_hover_text("The open list, or the stack, at the event shown, with g, h and f");
            ui.add(egui::Label::new(egui::RichText::new(status).strong()).truncate());
        });
    });
    timeline_ui(ui, debugger, commands);
    // Three rows for the node, so that the log below keeps five lines or more at 1024x700.
    // Rows of a fixed label width rather than a grid: a grid asks for another frame whenever
    // its columns' widths change, which figures that change every frame would do for good.
    // Events are numbered from 0 everywhere, as in the trace file and every `trace` command:
    // here, on the timeline, in the log, the tree and the Compare pane. The view after an
    // event counts the events so far, one more than that event's number.
    let numbers = view
        .cells
        .and_then(|cells| debugger.node_numbers(cells.as_slice(), view.depth))
        .and_then(|(_, h)| h)
        .map_or_else(String::new, |h| {
            format!(" (g {} h {h} f {})", view.depth, view.depth + h)
        });
    let depth = match view.iteration {
        Some(bound) => format!("node depth {}{numbers}, iteration {bound}", view.depth),
        None => format!("node depth {}{numbers}", view.depth),
    };
    fact_row(
        ui,
        "Event",
        event_fact(view.events, frame.view.events, &depth),
    );
    fact_row(
        ui,
        "Nodes",
        format!(
            "{}, pruned {}; last prune: {}",
            format_count(view.nodes),
            format_count(view.pruned),
            view.last_prune.map_or("-".to_string(), prune_text)
        ),
    );
    // A deep node's path and a solver's own status are longer than the dock is wide: they
    // wrap inside their column, so the dock never widens.
    fact_row(
        ui,
        "Path",
        if view.path.is_empty() {
            "(root)".to_string()
        } else {
            crate::model::format_moves(&view.path)
        },
    );
    if let Some((label, status)) = &view.solver_status {
        fact_row(ui, label, status.clone());
    }
}

/// The width of the node facts' labels ("Event", "Nodes", "Path", a solver's own status).
const FACT_LABEL_WIDTH: f32 = 72.0;

/// One fact of the node shown: its label in a column of fixed width, its value wrapping
/// beside it.
fn fact_row(ui: &mut egui::Ui, label: &str, value: String) {
    ui.horizontal_top(|ui| {
        ui.scope(|ui| {
            ui.set_width(FACT_LABEL_WIDTH);
            ui.label(label);
        });
        ui.vertical(|ui| {
            ui.add(egui::Label::new(value).wrap());
        });
    });
}

/// The event log, newest first, filling the rest of the tab.
fn event_log_ui(ui: &mut egui::Ui, debugger: &Debugger) {
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.label(egui::RichText::new("Event log (newest first)").strong());
    // The log fills the rest of the tab, at the body text's size, and never runs past the
    // dock's bottom edge: in a small window it scrolls inside the dock rather than running
    // under the status line.
    let body = ui.text_style_height(&egui::TextStyle::Body);
    let line_height = body + ui.spacing().item_spacing.y;
    let height = ui.available_height().max(2.0 * line_height);
    let mut log = egui::ScrollArea::vertical()
        .id_salt("debug-log")
        .min_scrolled_height(height.min(15.0 * line_height))
        .max_height(height)
        .auto_shrink([false, false]);
    // Newest first: when newer events came in (a run to the solution, a continue), the log
    // goes back to its top, where they are.
    let newest = debugger.frame().view.events;
    let seen_id = ui.make_persistent_id("debug-log-newest");
    let seen: Option<u64> = ui.data(|data| data.get_temp(seen_id));
    ui.data_mut(|data| data.insert_temp(seen_id, newest));
    if !debugger.is_scrubbed_back() && seen.is_some_and(|seen| seen != newest) {
        log = log.vertical_scroll_offset(0.0);
    }
    let scrolled_id = ui.make_persistent_id("debug-log-scrolled-to");
    if !debugger.is_scrubbed_back() {
        ui.data_mut(|data| data.remove::<u64>(scrolled_id));
    }
    let scrolled_to: Option<u64> = ui.data(|data| data.get_temp(scrolled_id));
    log.show(ui, |ui| {
        let shown = debugger.shown_index();
        let board = debugger.puzzle().board();
        let size = ui.style().text_styles[&egui::TextStyle::Body].size;
        let font = egui::FontId::monospace(size);
        let glyph = ui.fonts_mut(|fonts| fonts.glyph_width(&font, '0'));
        // A floating scroll bar may cover the last columns.
        let width = ui.available_width() - ui.spacing().scroll.bar_width;
        let columns = (width / glyph).floor().max(1.0) as usize;
        for recorded in &debugger.log {
            let text = log_line(board, recorded);
            // A long event wraps onto more lines rather than being cut, under its text and
            // not under its number, so the numbers stay a column of their own.
            let wrapped = hanging_wrap(&text, columns, LOG_TEXT_COLUMN);
            let mut rich = egui::RichText::new(wrapped).font(font.clone());
            let is_shown = Some(recorded.index) == shown;
            if is_shown {
                rich = rich.strong().color(palette.success);
            }
            let line = ui.add(egui::Label::new(rich).extend());
            // Read out as one line, whatever the width it was wrapped at.
            line.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &text));
            if is_shown && debugger.is_scrubbed_back() && scrolled_to != Some(recorded.index) {
                // Scrubbed back, the event shown sits among its neighbours: bring it into view
                // once when it changes. Asked every frame, a line that cannot be centred (near
                // the log's ends) would keep the scroll area animating, and the app repainting.
                line.scroll_to_me(Some(egui::Align::Center));
                ui.data_mut(|data| data.insert_temp(scrolled_id, recorded.index));
            }
        }
    });
}

/// Where a log line's text starts: after the event's number, right-aligned in seven columns,
/// and two spaces.
const LOG_TEXT_COLUMN: usize = 9;

/// `line` broken at spaces into rows of at most `columns` characters, every row after the
/// first indented by `indent` spaces (a word longer than a row is cut). A line that fits is
/// returned as it is.
fn hanging_wrap(line: &str, columns: usize, indent: usize) -> String {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= columns || columns <= indent + 1 {
        return line.to_string();
    }
    let mut rows: Vec<String> = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let room = if rows.is_empty() {
            columns
        } else {
            columns - indent
        };
        let mut end = (start + room).min(chars.len());
        if end < chars.len() {
            // Break after the last space that leaves a word on this row.
            if let Some(space) = (start + 1..end).rev().find(|&i| chars[i] == ' ') {
                end = space + 1;
            }
        }
        let row: String = chars[start..end].iter().collect();
        let row = row.trim_end();
        if rows.is_empty() {
            rows.push(row.to_string());
        } else {
            rows.push(format!("{}{row}", " ".repeat(indent)));
        }
        start = end;
        while start < chars.len() && chars[start] == ' ' {
            start += 1;
        }
    }
    rows.join("\n")
}

/// The Event row: the number of the event shown (from 0) among the numbers there are, or
/// that there is none, with the node's depth.
fn event_fact(shown: u64, seen: u64, depth: &str) -> String {
    match (shown.checked_sub(1), seen.checked_sub(1)) {
        (Some(index), Some(last)) => format!(
            "{} of 0–{}; {depth}",
            format_count(index),
            format_count(last)
        ),
        _ => "none read".to_string(),
    }
}

/// One line of the event log: the event's number, counted from 0 as on the timeline and in
/// the trace file, and what happened.
pub fn log_line(board: &Board, recorded: &crate::worker::debug::Recorded) -> String {
    format!(
        "{:>7}  {}",
        recorded.index,
        event_text(board, &recorded.event)
    )
}

fn timeline_ui(ui: &mut egui::Ui, debugger: &Debugger, commands: &mut Vec<Command>) {
    let frame = debugger.frame();
    let Some(last) = frame.view.events.min(frame.recorded).checked_sub(1) else {
        return;
    };
    let send = |commands: &mut Vec<Command>, command: DebugCommand| {
        commands.push(Command::Debug(command));
    };
    // The slider shows event numbers from 0, as the log, the node's facts and the trace file
    // do; it spans the whole run, every event of which is recorded.
    let mut number = debugger.shown_index().unwrap_or(last);
    // Jumps through the whole recording: to a number, to the start of a depth or bound, to
    // the next or previous event of a kind, to the first visit of the node shown. They open
    // in a popup, so that they take no room from the log below.
    let jump_id = ui.make_persistent_id("debug-jump");
    let (mut target, mut kind, mut depth): (u64, EventKind, u32) = ui.data(|d| {
        d.get_temp(jump_id).unwrap_or((
            number,
            EventKind::TableHit,
            frame.view.iteration.unwrap_or(1),
        ))
    });
    ui.horizontal(|ui| {
        let slider = ui.add_enabled(
            last > 0,
            egui::Slider::new(&mut number, 0..=last).text("Timeline"),
        );
        if slider.changed() {
            send(commands, DebugCommand::Scrub(number));
        }
        if ui
            .add_enabled(debugger.is_scrubbed_back(), egui::Button::new("Latest"))
            .clicked()
        {
            send(commands, DebugCommand::Latest);
        }
    });
    let note = debugger.find_note().map_or_else(
        || {
            format!(
                "Recorded events 0–{}: the whole {}",
                format_count(last),
                if debugger.is_from_file() {
                    "trace file"
                } else {
                    "run"
                }
            )
        },
        str::to_string,
    );
    ui.horizontal(|ui| {
        if ui
            .add_enabled(!debugger.is_from_file(), egui::Button::new("Save trace…"))
            .on_hover_text(
                "Save every event of this run as a trace file, to open here or with \
                 `ricochet-lab trace` later",
            )
            .clicked()
        {
            commands.push(Command::SaveAs(crate::app::command::SaveKind::Trace));
        }
        let steps = ui.button("Export steps…").on_hover_text(
            "Write the nodes of a stretch of events, up to the one shown, as an animation",
        );
        if steps.clicked() {
            let at = crate::app::command::AnimationSubject::SearchUpTo(number);
            commands.push(Command::ExportAnimation(at));
        }
        crate::app::widgets::PopupButton::new("Go to…")
            .hint("An event by its number, a depth's start, the next event of a kind")
            .ui(ui, |ui| {
                ui.horizontal(|ui| {
                    let go = ui.add(
                        egui::DragValue::new(&mut target)
                            .range(0..=last)
                            .prefix("event "),
                    );
                    let entered = go.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    if ui.button("Go").on_hover_text("Show this event").clicked() || entered {
                        send(commands, DebugCommand::GoTo(target));
                    }
                });
                ui.horizontal(|ui| {
                    ui.add(
                        egui::DragValue::new(&mut depth)
                            .range(0..=255)
                            .prefix("depth "),
                    );
                    if ui
                        .button("Start of depth")
                        .on_hover_text("Show the event that starts this depth or bound")
                        .clicked()
                    {
                        send(commands, DebugCommand::IterationStart(depth));
                    }
                });
                ui.horizontal(|ui| {
                    let label = ui.label("Event kind");
                    egui::ComboBox::from_id_salt("debug-find-kind")
                        .selected_text(kind.name())
                        .show_ui(ui, |ui| {
                            for each in EventKind::ALL {
                                ui.selectable_value(&mut kind, each, each.name());
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    if ui
                        .button("Previous")
                        .on_hover_text("The previous event of this kind")
                        .clicked()
                    {
                        send(commands, DebugCommand::FindKind(kind, false));
                    }
                    if ui
                        .button("Next")
                        .on_hover_text("The next event of this kind")
                        .clicked()
                    {
                        send(commands, DebugCommand::FindKind(kind, true));
                    }
                });
                if ui
                    .add_enabled(
                        debugger.shown_view().cells.is_some(),
                        egui::Button::new("First visit of this position"),
                    )
                    .on_hover_text("The first node with the robots where the node shown has them")
                    .clicked()
                {
                    send(commands, DebugCommand::FirstVisit);
                }
            });
        ui.add(egui::Label::new(egui::RichText::new(note).small()).truncate())
            .on_hover_text(debugger.trace_path().display().to_string());
    });
    ui.data_mut(|d| d.insert_temp(jump_id, (target, kind, depth)));
}

/// A prune reason for the panel.
pub(super) fn prune_text(reason: PruneReason) -> String {
    reason.to_string()
}

/// One line of the event log; cells are named by column and row on `board`.
fn event_text(board: &Board, event: &Event) -> String {
    match event {
        Event::IterationStarted { depth } => format!("start depth {depth}"),
        Event::Node { depth, path, .. } => match path.last() {
            Some(mv) => format!("node d{depth} after {mv}"),
            None => format!("node d{depth} (root)"),
        },
        Event::Generated { depth, path, h, .. } => {
            let step = path
                .last()
                .map_or_else(|| "?".to_string(), ToString::to_string);
            match h {
                Some(h) => format!(
                    "generated d{depth} by {step}: g {depth} h {h} f {}",
                    depth + h
                ),
                None => format!("generated d{depth} by {step}"),
            }
        }
        Event::Pruned { depth, reason } => format!("pruned d{depth}: {}", prune_text(*reason)),
        Event::IterationFinished(stats) => {
            format!(
                "end depth {}: {} nodes",
                stats.depth,
                format_count(stats.nodes)
            )
        }
        Event::Solution { moves } => format!("solution of {} moves", moves.len()),
        Event::Solver(payload) => payload.describe(board),
        // Events added later are shown in their debug form until they get their own line.
        #[allow(unreachable_patterns)]
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::hanging_wrap;

    #[test]
    fn long_log_lines_wrap_under_their_text_not_their_number() {
        let line = "   1775  edge of (6, 15) E: (11, 15) -> (13, 15) (case 2b)";
        assert_eq!(
            hanging_wrap(line, 80, 9),
            line,
            "a line that fits stays whole"
        );
        let wrapped = hanging_wrap(line, 40, 9);
        let rows: Vec<&str> = wrapped.lines().collect();
        assert_eq!(rows[0], "   1775  edge of (6, 15) E: (11, 15) ->");
        assert_eq!(rows[1], "         (13, 15) (case 2b)");
        assert!(rows.iter().all(|row| row.chars().count() <= 40), "{rows:?}");
        // Nothing is lost: the words read the same.
        let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(words(&wrapped), words(line));
        // A word longer than a row is cut rather than spilling.
        let long = hanging_wrap("      1  aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 20, 9);
        assert!(long.lines().all(|row| row.chars().count() <= 20), "{long}");
    }
}
