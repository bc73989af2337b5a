//! External engines in the app: the registered engines beside the built-in solvers and an
//! engine's log after a failed run. The *Add engine* and *Edit engine* window is
//! `engine_window`.
//!
//! The engines are the ones `ricochet-lab engine add` registers, in `engines.ron` in the
//! settings folder (or the folder `RICOCHET_LAB_CONFIG_DIR` names). The app reads the file
//! when it starts, again whenever the file changes on disk, and writes it when an engine is
//! added or removed here.

use crate::app::theme;
use crate::solver::engine::store::{
    EngineName, EngineStore, StoreError, check_name, check_program,
};
use crate::solver::engine::{CommandLineError, EngineError, EngineSpec};
use crate::solver::{SolverChoice, SolverPick};
use std::path::{Path, PathBuf};
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
    pub(super) fn add(
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

pub(super) fn stderr_ui(ui: &mut egui::Ui, lines: &[String], title: &str) {
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
}
