//! The *Add engine* window, which is also the *Edit engine* window of a registered engine:
//! the engine's name, command, arguments and folder, its *Test* on a thread of its own (the
//! handshake and a one-move puzzle), the form of the options the engine declares, and the
//! verdict.

use super::engines::{EngineList, EngineListError, stderr_ui};
use crate::app::command::Command;
use crate::app::theme;
use crate::solver::engine::store::{EngineName, check_name};
use crate::solver::engine::{EngineSpec, EngineVerdict, test_engine};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, TryRecvError, sync_channel};
use std::time::{Duration, Instant};

/// A test of an engine, on its own thread.
enum TestState {
    /// Running since then; the verdict comes through the channel.
    Running(Receiver<EngineVerdict>, Instant),
    /// Done.
    Done(EngineVerdict),
    /// The thread could not start, or ended without a verdict.
    Failed(String),
}

/// The *Add engine* window.
#[derive(Default)]
pub struct AddEngineWindow {
    /// Whether it shows.
    pub open: bool,
    /// The name it is registered under.
    name: String,
    /// The program.
    command: String,
    /// Its arguments, as one line (quotes keep spaces inside one argument).
    arguments: String,
    /// The folder it runs in; empty: the app's current folder.
    folder: String,
    /// The options set in the form the last test's declarations built, by name (only values
    /// other than the engine's defaults).
    options: Vec<(String, String)>,
    test: Option<TestState>,
    /// Why the last *Add* failed.
    error: Option<String>,
    /// The registered engine the window edits (`None`: it adds a new one).
    editing: Option<EngineName>,
    /// Whether a test starts with the next frame (an engine opened for editing is tested at
    /// once, so that its options show).
    test_soon: bool,
}

impl AddEngineWindow {
    /// Opens the window, empty.
    pub(in crate::app) fn show(&mut self) {
        *self = AddEngineWindow {
            open: true,
            ..AddEngineWindow::default()
        };
    }

    /// Opens the window on a registered engine: its fields and stored options filled in,
    /// tested at once so that the options it declares show. Saving replaces it.
    pub(in crate::app) fn edit(&mut self, spec: &EngineSpec) {
        let (program, arguments) = spec.command.split_first().map_or_else(
            || (String::new(), String::new()),
            |(program, arguments)| {
                let joined = shlex::try_join(arguments.iter().map(String::as_str))
                    .unwrap_or_else(|_| arguments.join(" "));
                (program.clone(), joined)
            },
        );
        *self = AddEngineWindow {
            open: true,
            name: spec.name.clone(),
            command: program,
            arguments,
            folder: spec
                .dir
                .as_ref()
                .map(|dir| dir.display().to_string())
                .unwrap_or_default(),
            options: spec.options.clone(),
            editing: EngineName::new(&spec.name).ok(),
            test_soon: true,
            ..AddEngineWindow::default()
        };
    }

    /// The engine the fields describe, or what is wrong with them.
    fn spec(&self) -> Result<EngineSpec, EngineListError> {
        let name = self.name.trim();
        check_name(name)?;
        let program = self.command.trim();
        if program.is_empty() {
            return Err(EngineListError::NoCommand);
        }
        let mut command = vec![program.to_string()];
        if !self.arguments.trim().is_empty() {
            command.extend(EngineSpec::ad_hoc(&self.arguments)?.command);
        }
        let folder = self.folder.trim();
        Ok(EngineSpec {
            name: name.to_string(),
            command,
            dir: (!folder.is_empty()).then(|| PathBuf::from(folder)),
            options: self.options.clone(),
        })
    }

    /// Whether a test is running.
    fn is_testing(&self) -> bool {
        matches!(self.test, Some(TestState::Running(..)))
    }

    /// The verdict of the last test, once it is in.
    pub fn verdict(&self) -> Option<&EngineVerdict> {
        match &self.test {
            Some(TestState::Done(verdict)) => Some(verdict),
            _ => None,
        }
    }

    /// Starts a test of the engine the fields describe, on a thread named `engine-test`; the
    /// interface is woken when the verdict is in.
    fn start_test(&mut self, ctx: &egui::Context) {
        let spec = match self.spec() {
            Ok(spec) => spec,
            Err(error) => {
                self.test = Some(TestState::Failed(error.to_string()));
                return;
            }
        };
        let (sender, receiver) = sync_channel(1);
        let waker = ctx.clone();
        let started = std::thread::Builder::new()
            .name("engine-test".into())
            .spawn(move || {
                let verdict = test_engine(&spec);
                // The window may have closed; then nobody waits for the verdict.
                let _ = sender.send(verdict);
                waker.request_repaint();
            });
        self.test = Some(match started {
            Ok(_) => TestState::Running(receiver, Instant::now()),
            Err(error) => TestState::Failed(format!("The test could not be started: {error}")),
        });
    }

    /// Takes the verdict when it has come.
    fn poll(&mut self, ctx: &egui::Context) {
        if let Some(TestState::Running(receiver, _)) = &self.test {
            match receiver.try_recv() {
                Ok(verdict) => self.test = Some(TestState::Done(verdict)),
                Err(TryRecvError::Empty) => ctx.request_repaint_after(Duration::from_millis(100)),
                Err(TryRecvError::Disconnected) => {
                    self.test = Some(TestState::Failed(
                        "The test ended without a verdict (its thread stopped).".into(),
                    ))
                }
            }
        }
    }
}

/// The *Add engine* window, when it is open.
pub(in crate::app) fn add_engine_window(
    ctx: &egui::Context,
    window: &mut AddEngineWindow,
    engines: &mut EngineList,
    native_dialogs: bool,
    commands: &mut Vec<Command>,
) {
    if !window.open {
        return;
    }
    if std::mem::take(&mut window.test_soon) {
        window.start_test(ctx);
    }
    window.poll(ctx);
    let palette = theme::palette(ctx.global_style().visuals.dark_mode);
    let mut open = true;
    let mut close = false;
    let (title, action, action_hover) = match &window.editing {
        Some(_) => (
            "Edit engine",
            "Save",
            "Store the engine as the fields and options say, in place of the registered one",
        ),
        None => (
            "Add engine",
            "Add",
            "Register the engine; it is listed with the solvers",
        ),
    };
    let window_frame = egui::Window::new(title)
        .open(&mut open)
        .collapsible(false)
        .default_width(460.0);
    crate::app::widgets::show_placed(window_frame, ctx, |ui| {
        ui.label(
                egui::RichText::new(
                    "A program that speaks the engine protocol (docs/engine-protocol.md) on its standard input and output.",
                )
                .color(palette.muted),
            );
        egui::Grid::new("add-engine-fields")
            .num_columns(2)
            .spacing([8.0, 6.0])
            .show(ui, |ui| {
                let field = |ui: &mut egui::Ui, label: &str, text: &mut String, hint: &str| {
                    let label = ui.label(label);
                    ui.add(
                        egui::TextEdit::singleline(text)
                            .hint_text(hint)
                            .desired_width(300.0),
                    )
                    .labelled_by(label.id);
                    ui.end_row();
                };
                field(ui, "Name", &mut window.name, "bfs-py");
                field(ui, "Command", &mut window.command, "python3");
                field(
                    ui,
                    "Arguments",
                    &mut window.arguments,
                    "examples/engines/bfs.py",
                );
                let label = ui.label("Working folder");
                ui.horizontal(|ui| {
                    ui.add(
                        egui::TextEdit::singleline(&mut window.folder)
                            .hint_text("the app's folder")
                            .desired_width(220.0),
                    )
                    .labelled_by(label.id);
                    if ui
                        .add_enabled(native_dialogs, egui::Button::new("Choose…"))
                        .on_hover_text("Pick the folder the engine runs in")
                        .clicked()
                        && let Some(folder) = rfd::FileDialog::new().pick_folder()
                    {
                        window.folder = folder.display().to_string();
                    }
                });
                ui.end_row();
            });
        ui.separator();
        ui.horizontal(|ui| {
            let testing = window.is_testing();
            if ui
                .add_enabled(!testing, egui::Button::new("Test"))
                .on_hover_text(
                    "Start the engine, check its handshake and have it solve a one-move puzzle",
                )
                .clicked()
            {
                window.start_test(ctx);
            }
            if ui.button(action).on_hover_text(action_hover).clicked() {
                let replacing = window.editing.clone();
                match window.spec().and_then(|spec| {
                    let name = EngineName::new(&spec.name)?;
                    engines.add(spec, replacing.as_ref()).map(|()| name)
                }) {
                    Ok(name) => {
                        commands.push(Command::EngineAdded(name));
                        close = true;
                    }
                    Err(error) => window.error = Some(error.to_string()),
                }
            }
            if ui.button("Cancel").clicked() {
                close = true;
            }
        });
        if let Some(error) = &window.error {
            ui.colored_label(palette.error, error);
        }
        test_ui(ui, window, palette);
    });
    if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        close = true;
    }
    if !open || close {
        window.open = false;
    }
}

/// The test's part of the engine window: its progress, why it failed, or the verdict with
/// the form of the options the engine declares.
fn test_ui(ui: &mut egui::Ui, window: &mut AddEngineWindow, palette: &theme::Palette) {
    match &window.test {
        None => {}
        Some(TestState::Running(_, since)) => {
            ui.horizontal(|ui| {
                crate::app::widgets::calm_spinner(ui, None);
                ui.label(format!(
                    "Testing… {:.1} s (an engine has 10 s for its handshake)",
                    since.elapsed().as_secs_f32()
                ));
            });
        }
        Some(TestState::Failed(error)) => {
            ui.colored_label(palette.error, error);
        }
        Some(TestState::Done(verdict)) => {
            let declared = verdict
                .identity
                .as_ref()
                .map(|identity| identity.options.clone())
                .unwrap_or_default();
            if !declared.is_empty() {
                ui.separator();
                ui.label(egui::RichText::new("Options").strong())
                    .on_hover_text(
                        "The options the engine declares; the values set here are stored \
                         with it and sent each time it starts",
                    );
                super::engine_options::options_ui(ui, &declared, &mut window.options);
            }
            verdict_ui(ui, verdict, palette);
        }
    }
}

/// What a test found: whether the engine works, its handshake's facts, each step, and its
/// standard error.
fn verdict_ui(ui: &mut egui::Ui, verdict: &EngineVerdict, palette: &theme::Palette) {
    if verdict.works {
        ui.colored_label(palette.success, "The engine works.");
    } else {
        ui.colored_label(palette.error, "The engine does not work.");
    }
    if let Some(identity) = &verdict.identity {
        egui::Grid::new("engine-identity")
            .num_columns(2)
            .show(ui, |ui| {
                let mut fact = |key: &str, value: String| {
                    ui.label(egui::RichText::new(key).color(palette.muted));
                    ui.label(value);
                    ui.end_row();
                };
                let unsaid = || "(not said)".to_string();
                fact("Name", identity.name.clone().unwrap_or_else(unsaid));
                fact("Author", identity.author.clone().unwrap_or_else(unsaid));
                fact("Version", identity.version.clone().unwrap_or_else(unsaid));
                fact("Rows", identity.rows.key().to_string());
                fact(
                    "Optimal",
                    if identity.optimal {
                        "claimed"
                    } else {
                        "not claimed"
                    }
                    .into(),
                );
                fact(
                    "Events",
                    if identity.events {
                        "node and prune events"
                    } else {
                        "none (the debugger shows only its rows)"
                    }
                    .into(),
                );
                let mut rules = vec!["standard"];
                if identity.ricochet {
                    rules.push("ricochet");
                }
                if identity.no_rebound {
                    rules.push("no-rebound");
                }
                fact("Rules", rules.join(", "));
            });
    }
    for step in &verdict.steps {
        ui.label(format!("• {}", crate::app::capital(step)));
    }
    if !verdict.stderr.is_empty() {
        stderr_ui(ui, &verdict.stderr, "Its standard error");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_make_a_command_with_quoted_arguments() {
        let window = AddEngineWindow {
            name: "mine".into(),
            command: "python3".into(),
            arguments: "'my engine.py' --fast".into(),
            folder: " /tmp ".into(),
            ..AddEngineWindow::default()
        };
        let spec = window.spec().unwrap();
        assert_eq!(spec.command, vec!["python3", "my engine.py", "--fast"]);
        assert_eq!(spec.dir, Some(PathBuf::from("/tmp")));
        let empty = AddEngineWindow {
            name: "mine".into(),
            ..AddEngineWindow::default()
        };
        assert!(matches!(
            empty.spec().unwrap_err(),
            EngineListError::NoCommand
        ));
    }
}
