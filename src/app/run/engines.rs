//! External engines in the app: the registered engines beside the built-in solvers, the
//! *Add engine* window (with its *Test* on a thread of its own), and an engine's log after a
//! failed run.
//!
//! The engines are the ones `ricochet-lab engine add` registers, in `engines.ron` in the
//! settings folder (or the folder `RICOCHET_LAB_CONFIG_DIR` names). The app reads the file
//! when it starts, again whenever the file changes on disk, and writes it when an engine is
//! added or removed here.

use crate::app::command::Command;
use crate::app::theme;
use crate::solver::engine::store::{
    EngineName, EngineStore, StoreError, check_name, check_program,
};
use crate::solver::engine::{
    CommandLineError, EngineError, EngineSpec, EngineVerdict, test_engine,
};
use crate::solver::{SolverChoice, SolverPick};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, sync_channel};
use std::time::{Duration, Instant, SystemTime};

/// Why an engine could not be chosen, registered or removed.
#[derive(Debug, thiserror::Error)]
pub enum EngineListError {
    /// A choice names an engine that is not (or no longer) registered.
    #[error(
        "The chosen solver '{name}' is neither built in nor a registered engine{place}: choose \
         a solver or add the engine again"
    )]
    NotRegistered {
        /// The name chosen.
        name: String,
        /// " in FILE", naming the engines' file, or nothing without one.
        place: String,
    },
    /// There is nowhere to keep the engines.
    #[error("this system has no settings folder to keep engines in")]
    NoSettingsFolder,
    /// The engines' file, a name or a program was refused.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The Add engine window's command field is empty.
    #[error("The command is empty: name the program that runs the engine")]
    NoCommand,
    /// The Add engine window's arguments do not split into words.
    #[error("The arguments cannot be read: {0}")]
    Arguments(#[from] CommandLineError),
}

/// How often the app looks whether `engines.ron` changed on disk.
const RELOAD_INTERVAL: Duration = Duration::from_secs(1);

/// The engines the app knows, as read from the store's file.
pub struct EngineList {
    /// The file, when the app has a settings folder.
    file: Option<PathBuf>,
    /// The registered engines, in the file's order; each has a name an engine can have.
    engines: Vec<EngineSpec>,
    /// Why the file could not be read, when it could not.
    problem: Option<String>,
    /// The file's modification time when it was last read.
    read_stamp: Option<SystemTime>,
    /// When the file was last looked at.
    looked_at: Option<Instant>,
}

impl EngineList {
    /// The engines in the usual file: `RICOCHET_LAB_CONFIG_DIR`'s, or the settings folder's.
    pub(in crate::app) fn from_settings_folder() -> EngineList {
        let folder = eframe::storage_dir(crate::app::APP_NAME);
        EngineList::from_file(crate::solver::engine::store::engines_file(folder))
    }

    /// The engines in a given file (`None`: no file, no engines).
    pub(in crate::app) fn from_file(file: Option<PathBuf>) -> EngineList {
        let mut list = EngineList {
            file,
            engines: Vec::new(),
            problem: None,
            read_stamp: None,
            looked_at: None,
        };
        list.reload();
        list
    }

    /// The registered engines.
    pub fn engines(&self) -> &[EngineSpec] {
        &self.engines
    }

    /// The registered engines, each with its name as a choice keeps it.
    pub(in crate::app) fn registered(&self) -> impl Iterator<Item = (EngineName, &EngineSpec)> {
        // Every listed name was checked when the file was read, so none is left out here.
        self.engines
            .iter()
            .filter_map(|spec| Some((EngineName::new(&spec.name).ok()?, spec)))
    }

    /// The file the engines are kept in.
    pub(in crate::app) fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Why the file could not be read, when it could not.
    pub(super) fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// Reads the file again when it changed since it was last read, at most once a
    /// `RELOAD_INTERVAL`. Returns whether the list was read again.
    pub(in crate::app) fn refresh(&mut self, now: Instant) -> bool {
        if self
            .looked_at
            .is_some_and(|at| now.duration_since(at) < RELOAD_INTERVAL)
        {
            return false;
        }
        self.looked_at = Some(now);
        if self.stamp() == self.read_stamp {
            return false;
        }
        self.reload();
        true
    }

    fn stamp(&self) -> Option<SystemTime> {
        let file = self.file.as_ref()?;
        std::fs::metadata(file).and_then(|m| m.modified()).ok()
    }

    /// Reads the file now.
    fn reload(&mut self) {
        self.read_stamp = self.stamp();
        let Some(file) = &self.file else {
            self.engines.clear();
            return;
        };
        match EngineStore::load(file) {
            Ok(store) => {
                // A hand-edited file may name an engine as `engine add` would not (with a
                // space, or a built-in solver's name): such an engine cannot be chosen, and
                // is left out with a word on why.
                let (engines, misnamed): (Vec<EngineSpec>, Vec<EngineSpec>) = store
                    .engines()
                    .iter()
                    .cloned()
                    .partition(|spec| check_name(&spec.name).is_ok());
                self.engines = engines;
                let reasons: Vec<String> = misnamed
                    .iter()
                    .filter_map(|spec| check_name(&spec.name).err())
                    .map(|error| error.to_string())
                    .collect();
                self.problem = (!reasons.is_empty()).then(|| {
                    format!(
                        "Left out of the engines in {}: {}",
                        file.display(),
                        reasons.join("; ")
                    )
                });
            }
            Err(error) => {
                // The engines read before stay listed: a file half-written by an editor
                // should not empty the solver list.
                self.problem = Some(format!("The registered engines could not be read: {error}"));
            }
        }
    }

    /// The solver a choice stands for: a built-in solver, or the registered engine of its
    /// name; an engine that is not registered (removed since it was chosen) is said plainly
    /// rather than replaced by another solver.
    pub(in crate::app) fn resolve(
        &self,
        pick: &SolverPick,
    ) -> Result<SolverChoice, EngineListError> {
        let name = match pick {
            SolverPick::BuiltIn(id) => return Ok(SolverChoice::BuiltIn(*id)),
            SolverPick::Engine(name) => name.as_str(),
        };
        if let Some(spec) = self.engines.iter().find(|spec| spec.name == name) {
            return Ok(SolverChoice::engine(spec.clone()));
        }
        let place = self
            .file
            .as_ref()
            .map(|file| format!(" in {}", file.display()))
            .unwrap_or_default();
        Err(EngineListError::NotRegistered {
            name: name.to_string(),
            place,
        })
    }

    /// Adds an engine to the file and the list; with `replacing`, the engine of that name
    /// is replaced by it (in one write, so a failure leaves the file as it was).
    fn add(
        &mut self,
        spec: EngineSpec,
        replacing: Option<&EngineName>,
    ) -> Result<(), EngineListError> {
        check_program(&spec.command, spec.dir.as_deref())?;
        let file = self.store_file()?;
        EngineStore::change(&file, |store| {
            if let Some(old) = replacing {
                store.remove(old.as_str())?;
            }
            store.add(spec, false)
        })?;
        self.reload();
        Ok(())
    }

    /// Removes an engine from the file and the list.
    pub(in crate::app) fn remove(
        &mut self,
        name: &EngineName,
    ) -> Result<EngineSpec, EngineListError> {
        let file = self.store_file()?;
        let removed = EngineStore::change(&file, |store| store.remove(name.as_str()))?;
        self.reload();
        Ok(removed)
    }

    fn store_file(&self) -> Result<PathBuf, EngineListError> {
        self.file.clone().ok_or(EngineListError::NoSettingsFolder)
    }
}

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
    });
    if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        close = true;
    }
    if !open || close {
        window.open = false;
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

/// An engine's failure after a run: the problem and the last lines of its standard error,
/// under a header that opens them.
/// What an engine's answer claims beyond its replayed moves, in words that name it as the
/// engine's claim ("engine says: no solution"); `None` for a built-in solver, whose answers
/// the app states as facts. Its length is the engine's word unless it said `optimal=yes`,
/// and even then that is its word, not checked here.
pub(crate) fn engine_claim(
    solver: &SolverChoice,
    outcome: &crate::solver::Outcome,
) -> Option<&'static str> {
    use crate::solver::Outcome;
    if !solver.is_engine() {
        return None;
    }
    match outcome {
        Outcome::Unsolvable { within: None } => Some("engine says: no solution (not verified)"),
        Outcome::Unsolvable { within: Some(_) } => {
            Some("engine says: no solution within the limit (not verified)")
        }
        Outcome::Solved { .. } if crate::solver::engine::claims_optimal(solver) => {
            Some("engine says: optimal (not verified)")
        }
        Outcome::Solved { .. } => Some("engine does not claim it optimal"),
        _ => None,
    }
}

pub(super) fn engine_log_ui(ui: &mut egui::Ui, error: &EngineError, palette: &theme::Palette) {
    egui::CollapsingHeader::new("Engine log")
        .default_open(true)
        .show(ui, |ui| {
            ui.colored_label(
                palette.error,
                format!("Engine '{}': {}", error.engine, error.problem),
            );
            if error.stderr.is_empty() {
                ui.label(
                    egui::RichText::new("It wrote nothing to its standard error.")
                        .color(palette.muted),
                );
            } else {
                stderr_ui(ui, &error.stderr, "The last lines of its standard error");
            }
        });
}

fn stderr_ui(ui: &mut egui::Ui, lines: &[String], title: &str) {
    ui.label(egui::RichText::new(title).strong());
    egui::ScrollArea::vertical()
        .id_salt(("engine-stderr", title))
        .max_height(160.0)
        .show(ui, |ui| {
            ui.add(
                egui::Label::new(egui::RichText::new(lines.join("\n")).monospace())
                    .selectable(true),
            );
        });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SolverId;

    #[test]
    fn a_choice_resolves_to_its_built_in_solver_or_engine_and_never_to_another() {
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join("engines.ron");
        let mut list = EngineList::from_file(Some(file.clone()));
        assert_eq!(
            list.resolve(&SolverPick::BuiltIn(SolverId::Bfs)).unwrap(),
            SolverChoice::BuiltIn(SolverId::Bfs)
        );
        let name = EngineName::new("bfs-py").unwrap();
        let engine = SolverPick::Engine(name.clone());
        let error = list.resolve(&engine).unwrap_err();
        assert!(error.to_string().contains("'bfs-py'"), "{error}");
        let spec = EngineSpec {
            name: "bfs-py".into(),
            command: vec!["python3".into(), "bfs.py".into()],
            dir: None,
            options: Vec::new(),
        };
        list.add(spec.clone(), None).unwrap();
        assert_eq!(list.resolve(&engine).unwrap().name(), "bfs-py");
        let names: Vec<EngineName> = list.registered().map(|(n, _)| n).collect();
        assert_eq!(names, std::slice::from_ref(&name));
        // Edited: the same name, now with an option, in place of the old one.
        let edited = EngineSpec {
            options: vec![("info-interval".into(), "0".into())],
            ..spec
        };
        list.add(edited.clone(), Some(&name)).unwrap();
        assert_eq!(list.engines(), std::slice::from_ref(&edited));
        // A second engine under a name taken is refused, and the file keeps the first.
        assert!(list.add(edited.clone(), None).is_err());
        assert_eq!(list.engines(), std::slice::from_ref(&edited));
        list.remove(&name).unwrap();
        assert!(list.resolve(&engine).is_err());
        assert!(EngineStore::load(&file).unwrap().engines().is_empty());
    }

    #[test]
    fn an_engine_filed_under_a_name_no_engine_can_have_is_left_out_with_a_word() {
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join("engines.ron");
        std::fs::write(
            &file,
            r#"(engines: [(name: "bfs", command: ["python3"]), (name: "ok", command: ["x"])])"#,
        )
        .unwrap();
        let list = EngineList::from_file(Some(file));
        assert_eq!(list.engines().len(), 1);
        assert_eq!(list.engines()[0].name, "ok");
        let problem = list.problem().unwrap();
        assert!(problem.contains("'bfs'"), "{problem}");
    }

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
