//! The Export animation window: the solution played back, or a debugged search's nodes
//! between two events, as a GIF, an animated PNG or numbered PNG frames in a folder, at a
//! chosen size and pace. The work runs on the worker's `export-animation` thread, with its
//! progress shown and a button that stops it; the file is written atomically and nothing is
//! written when it fails or is stopped. What is exported belongs to the board it was taken
//! from: once the board changes the window says so and exports nothing.

use crate::app::command::Command;
use crate::app::document::Revision;
use crate::app::{theme, widgets};
use crate::model::formats::Overwrite;
use crate::model::{Move, Puzzle};
use crate::print::animation::{self, AnimationFormat, AnimationOptions, Output};
use crate::worker::export::{ExportJob, ExportMessage, ExportSource};
use crate::worker::{Drained, Task, Waker};
use std::path::PathBuf;

/// The window's title.
pub(in crate::app) const TITLE: &str = "Export animation";

/// How many events before the one shown a search's stretch starts, when first offered.
const DEFAULT_STRETCH: u64 = 200;

/// What the window exports.
#[derive(Clone, Debug)]
pub(in crate::app) enum Subject {
    /// A solution's playback.
    Solution {
        /// The puzzle it solves.
        puzzle: Puzzle,
        /// Its moves.
        moves: Vec<Move>,
    },
    /// A debugged search's nodes between two events of its trace.
    Search {
        /// The trace file.
        trace: PathBuf,
        /// How many events it holds.
        events: u64,
    },
}

/// The three ways to write an animation, in the order the window offers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Gif,
    Apng,
    Frames,
}

impl Format {
    fn output(self) -> Output {
        match self {
            Format::Gif => Output::Animation(AnimationFormat::Gif),
            Format::Apng => Output::Animation(AnimationFormat::Apng),
            Format::Frames => Output::Frames,
        }
    }

    /// The path with the extension of the format (none for a folder of frames).
    fn fit(self, path: &str) -> String {
        let path = PathBuf::from(path.trim());
        let stem = match path.extension().and_then(|e| e.to_str()) {
            Some(e) if ["gif", "png", "apng"].contains(&e.to_ascii_lowercase().as_str()) => {
                path.with_extension("")
            }
            _ => path,
        };
        // Added rather than set, so that a name with a dot of its own keeps it.
        let mut path = stem.into_os_string();
        match self {
            Format::Gif => path.push(".gif"),
            Format::Apng => path.push(".png"),
            Format::Frames => {}
        }
        PathBuf::from(path).display().to_string()
    }
}

/// An export under way.
struct Running {
    task: Task<ExportMessage>,
    done: usize,
    total: usize,
}

/// The Export animation window and the export it runs.
pub(in crate::app) struct ExportAnimationWindow {
    /// Whether the window shows.
    pub(in crate::app) open: bool,
    subject: Option<(Revision, Subject)>,
    format: Format,
    side_px: u32,
    delay_ms: u32,
    /// Whether a solution's frames carry their move number.
    numbered: bool,
    from: u64,
    to: u64,
    path: String,
    running: Option<Running>,
    /// The last export's end, and whether it failed.
    outcome: Option<(String, bool)>,
}

impl Default for ExportAnimationWindow {
    fn default() -> Self {
        ExportAnimationWindow {
            open: false,
            subject: None,
            format: Format::Gif,
            side_px: animation::DEFAULT_SIDE_PX,
            delay_ms: animation::DEFAULT_DELAY_MS,
            numbered: true,
            from: 0,
            to: 0,
            path: String::new(),
            running: None,
            outcome: None,
        }
    }
}

impl ExportAnimationWindow {
    /// Opens the window on `subject`, taken from the board at `revision`; a search's stretch
    /// ends at the trace's event `at` (counted from 0) and starts a little before it.
    pub(in crate::app) fn show(&mut self, revision: Revision, subject: Subject, at: u64) {
        let name = match &subject {
            Subject::Solution { .. } => "solution",
            Subject::Search { .. } => "search",
        };
        if let Subject::Search { events, .. } = &subject {
            // Numbered from 0, as on the debugger's timeline and in the trace.
            self.to = at.min(events.saturating_sub(1));
            self.from = (self.to + 1).saturating_sub(DEFAULT_STRETCH);
        }
        let folder = crate::app::files::user_folder().unwrap_or_default();
        self.path = self.format.fit(&folder.join(name).display().to_string());
        self.subject = Some((revision, subject));
        self.outcome = None;
        self.open = true;
    }

    /// Takes the export's news; stops it when the board it was taken from has changed.
    fn poll(&mut self, current: Revision, commands: &mut Vec<Command>) {
        let stale = self.subject.as_ref().is_some_and(|(r, _)| *r != current);
        if stale && self.running.take().is_some() {
            // Dropping the task cancels it before it writes.
            let text = "The board changed during the export, so it was stopped; nothing was \
                        written.";
            self.outcome = Some((text.into(), true));
            commands.push(Command::Error(text.into()));
            return;
        }
        let Some(running) = &mut self.running else {
            return;
        };
        let mut finished = None;
        let mut progress = (running.done, running.total);
        let drained = running.task.drain(|message| match message {
            ExportMessage::Progress { done, total } => {
                progress = (done, total);
                false
            }
            ExportMessage::Finished(result) => {
                finished = Some(result);
                true
            }
        });
        (running.done, running.total) = progress;
        if drained == Drained::Waiting {
            return;
        }
        self.running = None;
        let (text, failed) = match finished {
            Some(Ok(exported)) => (
                format!(
                    "Exported {} ({} frames, {} KiB, in {:.1} s)",
                    exported.path.display(),
                    exported.frames,
                    exported.bytes.div_ceil(1024),
                    exported.elapsed.as_secs_f64()
                ),
                false,
            ),
            Some(Err(error)) => (format!("Could not export the animation: {error}"), true),
            None => ("The export stopped on an internal error.".to_string(), true),
        };
        commands.push(if failed {
            Command::Error(text.clone())
        } else {
            Command::Message(text.clone())
        });
        self.outcome = Some((text, failed));
    }

    fn start(&mut self, waker: Waker) {
        let Some((_, subject)) = &self.subject else {
            return;
        };
        let source = match subject {
            Subject::Solution { puzzle, moves } => ExportSource::Solution {
                puzzle: puzzle.clone(),
                moves: moves.clone(),
            },
            Subject::Search { trace, .. } => ExportSource::Search {
                trace: trace.clone(),
                from: self.from,
                to: self.to,
            },
        };
        let job = ExportJob {
            source,
            output: self.format.output(),
            path: PathBuf::from(self.path.trim()),
            options: AnimationOptions {
                side_px: self.side_px,
                delay_ms: self.delay_ms,
                numbered: self.numbered,
            },
            // Nothing is replaced without asking: an existing file is refused by name.
            overwrite: Overwrite::Refuse,
        };
        self.outcome = None;
        match job.spawn(waker) {
            Ok(task) => {
                self.running = Some(Running {
                    task,
                    done: 0,
                    total: 0,
                })
            }
            Err(error) => {
                self.outcome = Some((format!("Could not start the export: {error}"), true));
            }
        }
    }
}

/// The window, when it shows; an export keeps running (and reports in the status line) when
/// the window is closed.
pub(in crate::app) fn export_animation_window(
    ctx: &egui::Context,
    window: &mut ExportAnimationWindow,
    current: Revision,
    native_dialogs: bool,
    waker: Waker,
    commands: &mut Vec<Command>,
) {
    window.poll(current, commands);
    if !window.open {
        return;
    }
    let palette = theme::palette(ctx.global_style().visuals.dark_mode);
    let mut open = true;
    widgets::form_window_position(egui::Window::new(TITLE), ctx)
        .open(&mut open)
        .collapsible(false)
        .default_width(420.0)
        .show(ctx, |ui| {
            let Some((revision, subject)) = &window.subject else {
                return;
            };
            let stale = *revision != current;
            let events = match subject {
                Subject::Solution { moves, .. } => {
                    ui.label(format!(
                        "The {}-move solution played back, one frame per position.",
                        moves.len()
                    ));
                    None
                }
                Subject::Search { events, .. } => {
                    ui.label(format!(
                        "The debugged search's nodes between two events, one frame each \
                         (at most {}), with each node's path as arrows.",
                        animation::MAX_FRAMES
                    ));
                    Some(*events)
                }
            };
            let idle = window.running.is_none();
            fields_ui(ui, window, events, idle, native_dialogs);
            if stale {
                ui.colored_label(
                    palette.warning,
                    "The board changed since this was opened: close the window and export \
                     again from the board as it is now.",
                );
            }
            let backwards = events.is_some() && window.from > window.to;
            if backwards {
                ui.colored_label(palette.error, "The first event comes after the last.");
            }
            // Export and Stop export take the same place, so a second click stops what the
            // first started; the progress shows below them.
            if window.running.is_some() {
                if ui.button("Stop export").clicked() {
                    // Dropping the task cancels it before it writes.
                    window.running = None;
                    window.outcome = Some(("Stopped: nothing was written.".into(), false));
                }
            } else {
                let ready = !stale && !backwards && !window.path.trim().is_empty();
                if ui.add_enabled(ready, egui::Button::new("Export")).clicked() {
                    window.start(waker);
                }
            }
            if let Some(running) = &window.running {
                let fraction = running.done as f32 / running.total.max(1) as f32;
                let text = if running.total == 0 {
                    "Starting…".to_string()
                } else {
                    format!("Frame {} of {}", running.done, running.total)
                };
                ui.add(egui::ProgressBar::new(fraction).text(text));
            }
            // Below Export, so that choosing a format moves nothing under the pointer.
            if window.format == Format::Frames {
                ui.label(
                    egui::RichText::new(
                        "The frames go into a new folder (or an empty one): nothing is replaced.",
                    )
                    .color(palette.muted),
                );
            }
            if let Some((text, failed)) = &window.outcome {
                let color = if *failed {
                    palette.error
                } else {
                    palette.muted
                };
                ui.add(egui::Label::new(egui::RichText::new(text).color(color)).wrap());
            }
        });
    if !open {
        window.open = false;
    }
}

/// The fields of an export: the events (for a search), the format, size, frame delay and
/// where to write; none can change while an export runs.
fn fields_ui(
    ui: &mut egui::Ui,
    window: &mut ExportAnimationWindow,
    events: Option<u64>,
    idle: bool,
    native_dialogs: bool,
) {
    egui::Grid::new("export-animation-fields")
        .num_columns(2)
        .spacing([8.0, 6.0])
        .show(ui, |ui| {
            if let Some(events) = events {
                // Numbered from 0, as on the debugger's timeline and in the trace.
                let numbers = 0..=events.saturating_sub(1);
                let label = ui.label("From event");
                let from = egui::DragValue::new(&mut window.from).range(numbers.clone());
                ui.add_enabled(idle, from).labelled_by(label.id);
                ui.end_row();
                let label = ui.label("To event");
                let to = egui::DragValue::new(&mut window.to).range(numbers);
                ui.add_enabled(idle, to).labelled_by(label.id);
                ui.end_row();
            }
            if events.is_none() {
                ui.label("Move numbers");
                ui.add_enabled(
                    idle,
                    egui::Checkbox::new(&mut window.numbered, "On each frame"),
                )
                .on_hover_text("Each frame says which move it shows, below the board");
                ui.end_row();
            }
            ui.label("Format");
            ui.horizontal(|ui| {
                let before = window.format;
                for (format, label) in [
                    (Format::Gif, "GIF"),
                    (Format::Apng, "Animated PNG"),
                    (Format::Frames, "PNG frames"),
                ] {
                    ui.add_enabled_ui(idle, |ui| ui.radio_value(&mut window.format, format, label));
                }
                if window.format != before {
                    window.path = window.format.fit(&window.path);
                }
            });
            ui.end_row();
            let label = ui.label("Size (px)");
            let sides = animation::MIN_SIDE_PX..=animation::MAX_SIDE_PX;
            ui.add_enabled(idle, egui::DragValue::new(&mut window.side_px).range(sides))
                .labelled_by(label.id)
                .on_hover_text("The picture's longer side");
            ui.end_row();
            let label = ui.label("Frame delay (ms)");
            let delays = animation::MIN_DELAY_MS..=animation::MAX_DELAY_MS;
            ui.add_enabled(
                idle,
                egui::DragValue::new(&mut window.delay_ms).range(delays),
            )
            .labelled_by(label.id)
            .on_hover_text("How long each frame shows; the last one three times as long");
            ui.end_row();
            let label = ui.label(if window.format == Format::Frames {
                "Folder"
            } else {
                "File"
            });
            ui.horizontal(|ui| {
                ui.add_enabled(
                    idle,
                    egui::TextEdit::singleline(&mut window.path).desired_width(230.0),
                )
                .labelled_by(label.id);
                if ui
                    .add_enabled(idle && native_dialogs, egui::Button::new("Choose…"))
                    .on_hover_text("Pick where to write with the system's dialog")
                    .clicked()
                {
                    let current = PathBuf::from(window.path.trim());
                    let mut dialog = rfd::FileDialog::new().set_title(TITLE);
                    if let Some(dir) = current.parent() {
                        dialog = dialog.set_directory(dir);
                    }
                    if let Some(name) = current.file_name() {
                        dialog = dialog.set_file_name(name.to_string_lossy());
                    }
                    if let Some(path) = dialog.save_file() {
                        window.path = window.format.fit(&path.display().to_string());
                    }
                }
            });
            ui.end_row();
        });
}

#[cfg(test)]
mod tests {
    use super::Format;

    #[test]
    fn a_format_gives_the_path_its_extension_and_frames_a_folder() {
        assert_eq!(Format::Apng.fit("a/solution.gif"), "a/solution.png");
        assert_eq!(Format::Gif.fit(" a/solution "), "a/solution.gif");
        assert_eq!(Format::Frames.fit("a/solution.png"), "a/solution");
        assert_eq!(Format::Gif.fit("a/board.v2"), "a/board.v2.gif");
    }
}
