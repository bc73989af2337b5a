//! The engines a user registered by name (`ricochet-lab engine add NAME -- CMD ARGS…`), kept
//! in `engines.ron` in the app's settings folder and saved atomically.
//!
//! The folder is the one the app keeps its settings in; the caller passes it (the solver
//! layer does not know the windowing library that chooses it). The environment variable
//! [`CONFIG_DIR_VAR`] overrides it, so that tests and scripts never touch a user's own list.
//!
//! ```
//! use ricochet_lab::solver::engine::{EngineSpec, store::EngineStore};
//!
//! let folder = tempfile::tempdir().unwrap();
//! let file = folder.path().join("engines.ron");
//! let spec = EngineSpec { name: "bfs-py".into(), command: vec!["python3".into(), "bfs.py".into()], dir: None, options: Vec::new() };
//! EngineStore::change(&file, |store| store.add(spec, false)).unwrap();
//! assert_eq!(EngineStore::load(&file).unwrap().names(), vec!["bfs-py"]);
//! ```
//!
//! Every change goes through [`EngineStore::change`]: under an exclusive lock on
//! `engines.ron.lock` beside the file, the list is read afresh, changed and saved, so two
//! programs adding engines at once both keep theirs.

use super::EngineSpec;
use crate::model::formats::{FormatError, open_regular, save_atomic};
use crate::solver::SolverId;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The environment variable naming a folder that holds `engines.ron` instead of the app's
/// settings folder.
pub const CONFIG_DIR_VAR: &str = "RICOCHET_LAB_CONFIG_DIR";

/// The file's name in its folder.
pub const FILE_NAME: &str = "engines.ron";

/// The lock file's name beside it: held while the list is read, changed and saved.
pub const LOCK_NAME: &str = "engines.ron.lock";

/// The most of the file read: far more than any list of engines takes.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// The longest name an engine may have, in characters: it must fit the tables' columns.
pub const MAX_NAME_CHARS: usize = 40;

/// Where the registered engines are kept: in the folder [`CONFIG_DIR_VAR`] names when it is
/// set, and otherwise in `settings_folder` (the app's settings folder); `None` when neither
/// is known.
pub fn engines_file(settings_folder: Option<PathBuf>) -> Option<PathBuf> {
    match std::env::var_os(CONFIG_DIR_VAR) {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir).join(FILE_NAME)),
        _ => settings_folder.map(|dir| dir.join(FILE_NAME)),
    }
}

/// Why the registered engines could not be read, changed or saved.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file could not be read.
    #[error("{}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The file is not a list of engines.
    #[error("{}: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong, with its place.
        message: String,
    },
    /// The file could not be written.
    #[error("{0}")]
    Write(#[from] FormatError),
    /// A name that cannot be registered.
    #[error("{0}")]
    Name(String),
    /// A name already registered, when replacing it was not asked for.
    #[error(
        "an engine called '{name}' is already registered ({command}); add --force to replace it, or choose another name"
    )]
    Taken {
        /// The name.
        name: String,
        /// The registered engine's command line.
        command: String,
    },
    /// A command whose program cannot be run.
    #[error("{0}")]
    Program(String),
    /// The lock on the file could not be taken.
    #[error("{}: the lock on the engines file could not be taken: {error}", path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// No engine has that name.
    #[error("there is no engine called '{name}'; {}", known_list(known))]
    Unknown {
        /// The name asked for.
        name: String,
        /// The registered names.
        known: Vec<String>,
    },
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        "no engine is registered (`ricochet-lab engine add NAME -- CMD ARGS…`)".into()
    } else {
        format!("the registered engines are {}", known.join(", "))
    }
}

/// The file's contents.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
struct EnginesFile {
    engines: Vec<EngineSpec>,
}

/// The registered engines and the file they are kept in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineStore {
    path: PathBuf,
    engines: Vec<EngineSpec>,
}

impl EngineStore {
    /// Reads the registered engines from `path`; a missing file is an empty list.
    pub fn load(path: &Path) -> Result<EngineStore, StoreError> {
        // Only a regular file is read, opened so that a named pipe put in its place is refused
        // at once rather than waited on for good.
        let read = |path: &Path| {
            let file = open_regular(path, std::fs::OpenOptions::new().read(true))?;
            let mut text = String::new();
            std::io::Read::read_to_string(
                &mut std::io::Read::take(file, MAX_FILE_BYTES),
                &mut text,
            )?;
            Ok::<_, std::io::Error>(text)
        };
        let text = match read(path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(error) => {
                return Err(StoreError::Read {
                    path: path.to_path_buf(),
                    error,
                });
            }
        };
        let file: EnginesFile = if text.trim().is_empty() {
            EnginesFile::default()
        } else {
            ron::from_str(&text).map_err(|error| StoreError::Parse {
                path: path.to_path_buf(),
                message: error.to_string(),
            })?
        };
        Ok(EngineStore {
            path: path.to_path_buf(),
            engines: file.engines,
        })
    }

    /// The file the engines are kept in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every registered engine, in the order they were added.
    pub fn engines(&self) -> &[EngineSpec] {
        &self.engines
    }

    /// The registered names, in the order they were added.
    pub fn names(&self) -> Vec<&str> {
        self.engines.iter().map(|e| e.name.as_str()).collect()
    }

    /// The engine registered as `name`.
    pub fn get(&self, name: &str) -> Option<&EngineSpec> {
        self.engines.iter().find(|e| e.name == name)
    }

    /// The engine registered as `name`, or an error listing the registered ones.
    pub fn find(&self, name: &str) -> Result<&EngineSpec, StoreError> {
        self.get(name).ok_or_else(|| StoreError::Unknown {
            name: name.to_string(),
            known: self.engines.iter().map(|e| e.name.clone()).collect(),
        })
    }

    /// Reads the list in `path` under an exclusive lock on [`LOCK_NAME`] beside it, changes
    /// it with `change`, and saves it (when `change` succeeds) before the lock is let go: two
    /// programs changing the list at once each see the other's change.
    pub fn change<T>(
        path: &Path,
        change: impl FnOnce(&mut EngineStore) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty());
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir).map_err(|error| {
                StoreError::Write(FormatError::Io {
                    path: dir.to_path_buf(),
                    error,
                })
            })?;
        }
        let lock_path = dir.map_or_else(|| PathBuf::from(LOCK_NAME), |dir| dir.join(LOCK_NAME));
        let lock_error = |error| StoreError::Lock {
            path: lock_path.clone(),
            error,
        };
        let lock = open_regular(
            &lock_path,
            std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true),
        )
        .map_err(lock_error)?;
        lock.lock().map_err(lock_error)?;
        let mut store = EngineStore::load(path)?;
        let changed = change(&mut store)?;
        store.save()?;
        // The lock goes with the file handle.
        drop(lock);
        Ok(changed)
    }

    /// Registers an engine; one of the same name is replaced only when `replace` is set,
    /// and is refused otherwise. A name must be as [`check_name`] asks; the command must not
    /// be empty. Returns the engine replaced, if any.
    pub fn add(
        &mut self,
        spec: EngineSpec,
        replace: bool,
    ) -> Result<Option<EngineSpec>, StoreError> {
        check_name(&spec.name)?;
        if spec.command.is_empty() || spec.command[0].is_empty() {
            return Err(StoreError::Name(format!(
                "the engine '{}' needs a command",
                spec.name
            )));
        }
        match self.engines.iter_mut().find(|e| e.name == spec.name) {
            Some(slot) if replace => Ok(Some(std::mem::replace(slot, spec))),
            Some(slot) => Err(StoreError::Taken {
                name: spec.name,
                command: slot.command_line(),
            }),
            None => {
                self.engines.push(spec);
                Ok(None)
            }
        }
    }

    /// Unregisters an engine; returns it.
    pub fn remove(&mut self, name: &str) -> Result<EngineSpec, StoreError> {
        self.find(name)?;
        let index = self
            .engines
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| StoreError::Name(name.to_string()))?;
        Ok(self.engines.remove(index))
    }

    /// Writes the list to its file atomically, creating its folder when missing.
    pub fn save(&self) -> Result<(), StoreError> {
        if let Some(dir) = self.path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|error| {
                StoreError::Write(FormatError::Io {
                    path: dir.to_path_buf(),
                    error,
                })
            })?;
        }
        let file = EnginesFile {
            engines: self.engines.clone(),
        };
        let text = ron::ser::to_string_pretty(&file, ron::ser::PrettyConfig::default()).map_err(
            |error| StoreError::Parse {
                path: self.path.clone(),
                message: error.to_string(),
            },
        )?;
        save_atomic(&self.path, &text)?;
        Ok(())
    }
}

/// A registered engine's name: letters, digits, `-`, `_` and `.`, and no built-in solver's
/// name, as [`check_name`] checks it, so that a name stands for one solver. It is what a
/// user's choice of an engine keeps: the engine itself is looked up by this name among the
/// registered engines when it runs, and a name whose engine was removed finds none.
///
/// One read from a settings file (as a [`SolverPick`](crate::solver::SolverPick)) is not
/// checked, since the file may hold anything: the reader checks it with
/// [`EngineName::is_well_formed`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EngineName(String);

impl EngineName {
    /// The name, when it can name an engine.
    pub fn new(name: &str) -> Result<EngineName, StoreError> {
        check_name(name)?;
        Ok(EngineName(name.to_string()))
    }

    /// A name as a settings file holds it, unchecked.
    pub(in crate::solver) fn read(name: String) -> EngineName {
        EngineName(name)
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether it could have been made by [`EngineName::new`] (one read from a file may not).
    pub fn is_well_formed(&self) -> bool {
        check_name(&self.0).is_ok()
    }
}

impl std::fmt::Display for EngineName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks an engine name: ASCII letters, digits, `-`, `_` and `.`, beginning with a letter
/// or digit, at most [`MAX_NAME_CHARS`] characters, and no built-in solver's name in any
/// case (`FAST` beside `fast` would be read as the other).
pub fn check_name(name: &str) -> Result<(), StoreError> {
    if name.is_empty() {
        return Err(StoreError::Name(
            "the engine has no name: give it one of letters, digits, '-', '_' and '.'".into(),
        ));
    }
    let shown = protocol_quote(name);
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(StoreError::Name(format!(
            "'{shown}' cannot name an engine: a name has at most {MAX_NAME_CHARS} characters"
        )));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(StoreError::Name(format!(
            "'{shown}' cannot name an engine: use letters, digits, '-', '_' and '.'"
        )));
    }
    if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(StoreError::Name(format!(
            "'{shown}' cannot name an engine: it must begin with a letter or a digit"
        )));
    }
    if let Some(id) = SolverId::ALL
        .into_iter()
        .find(|id| id.name().eq_ignore_ascii_case(name))
    {
        let built_in = id.name();
        return Err(StoreError::Name(if built_in == name {
            format!("'{name}' is a built-in solver's name; choose another for the engine")
        } else {
            format!(
                "'{name}' is the built-in solver '{built_in}' in other letters; choose another name for the engine"
            )
        }));
    }
    Ok(())
}

/// A name as an error quotes it: a long one cut.
fn protocol_quote(name: &str) -> String {
    super::protocol::quote(name)
}

/// Checks that an engine's program can be run: a path (with a `/`) must name an executable
/// file, found from `dir` when it is relative and a folder is given; a bare name must be an
/// executable file in a folder of `PATH`. Returns the program found, or why there is none.
pub fn check_program(command: &[String], dir: Option<&Path>) -> Result<PathBuf, StoreError> {
    let Some(program) = command.first().filter(|p| !p.is_empty()) else {
        return Err(StoreError::Program("the engine needs a command".into()));
    };
    if program.contains(std::path::MAIN_SEPARATOR) || program.contains('/') {
        let path = Path::new(program);
        let full = match dir {
            Some(dir) if path.is_relative() => dir.join(path),
            _ => path.to_path_buf(),
        };
        return match runnable(&full) {
            Ok(()) => Ok(full),
            Err(why) => Err(StoreError::Program(format!(
                "the engine's program {} {why}",
                full.display()
            ))),
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut found_unrunnable = None;
    for folder in std::env::split_paths(&path) {
        let candidate = folder.join(program);
        match runnable(&candidate) {
            Ok(()) => return Ok(candidate),
            Err(why) if candidate.exists() => {
                found_unrunnable.get_or_insert(format!("{} {why}", candidate.display()));
            }
            Err(_) => {}
        }
    }
    Err(StoreError::Program(match found_unrunnable {
        Some(why) => format!("the engine's program '{program}' cannot be run: {why}"),
        None => format!(
            "the engine's program '{program}' is not in any folder of PATH; give its path (./{program} for one in the current folder)"
        ),
    }))
}

/// Whether a path names a file this user may run; why not, in words after the path.
fn runnable(path: &Path) -> Result<(), &'static str> {
    let meta = std::fs::metadata(path).map_err(|_| "does not exist")?;
    if meta.is_dir() {
        return Err("is a folder, not a program");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o111 == 0 {
            return Err("is not executable (chmod +x makes it so)");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_name_is_said_as_such() {
        let message = check_name("").unwrap_err().to_string();
        assert!(message.starts_with("the engine has no name"), "{message}");
        let message = check_name("two words").unwrap_err().to_string();
        assert!(
            message.contains("'two words' cannot name an engine"),
            "{message}"
        );
        assert!(check_name("bfs").is_err());
        assert!(check_name("bfs-python").is_ok());
    }

    #[test]
    fn names_begin_with_a_letter_or_digit_fit_a_column_and_differ_from_built_ins_in_any_case() {
        for bad in ["..", ".hidden", "-x", "_x", "FAST", "Bfs", "naïve"] {
            assert!(check_name(bad).is_err(), "{bad} was accepted");
        }
        let message = check_name("FAST").unwrap_err().to_string();
        assert!(message.contains("built-in solver 'fast'"), "{message}");
        let long = "a".repeat(MAX_NAME_CHARS + 1);
        let message = check_name(&long).unwrap_err().to_string();
        assert!(message.contains("at most 40 characters"), "{message}");
        assert!(check_name(&"a".repeat(MAX_NAME_CHARS)).is_ok());
        assert!(check_name("3x-v1.2_b").is_ok());
    }

    #[test]
    fn a_program_that_cannot_run_is_named_with_the_reason() {
        let folder = tempfile::tempdir().unwrap();
        let dir = folder.path();
        let message = |command: &str| {
            check_program(&[command.to_string()], Some(dir))
                .unwrap_err()
                .to_string()
        };
        assert!(message("./missing.py").contains("does not exist"));
        std::fs::create_dir(dir.join("sub")).unwrap();
        assert!(message("./sub").contains("is a folder, not a program"));
        std::fs::write(dir.join("plain.py"), "print(1)").unwrap();
        assert!(message("./plain.py").contains("is not executable"));
        assert!(message("no-such-program-anywhere").contains("not in any folder of PATH"));
        assert!(check_program(&["sh".to_string()], None).is_ok());
    }

    #[test]
    fn an_existing_name_is_refused_unless_replacing() {
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join(FILE_NAME);
        EngineStore::change(&file, |store| store.add(spec("a"), false)).unwrap();
        let error = EngineStore::change(&file, |store| store.add(spec("a"), false)).unwrap_err();
        assert!(matches!(error, StoreError::Taken { .. }), "{error}");
        assert!(error.to_string().contains("--force"), "{error}");
        let mut changed = spec("a");
        changed.command.push("--fast".into());
        let replaced =
            EngineStore::change(&file, |store| store.add(changed.clone(), true)).unwrap();
        assert_eq!(replaced, Some(spec("a")));
        assert_eq!(EngineStore::load(&file).unwrap().get("a"), Some(&changed));
    }

    #[test]
    fn concurrent_changes_under_the_lock_lose_no_entry() {
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join(FILE_NAME);
        std::thread::scope(|scope| {
            for thread in 0..8 {
                let file = &file;
                scope.spawn(move || {
                    for n in 0..10 {
                        let name = format!("e{thread}-{n}");
                        EngineStore::change(file, |store| store.add(spec(&name), false)).unwrap();
                    }
                });
            }
        });
        assert_eq!(EngineStore::load(&file).unwrap().engines().len(), 80);
    }

    fn spec(name: &str) -> EngineSpec {
        EngineSpec {
            name: name.into(),
            command: vec!["python3".into(), "engine.py".into()],
            dir: Some(PathBuf::from("/tmp")),
            options: Vec::new(),
        }
    }

    #[test]
    fn engines_are_added_replaced_removed_and_read_back() {
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join("sub").join(FILE_NAME);
        let mut store = EngineStore::load(&file).unwrap();
        assert!(store.engines().is_empty());
        store.add(spec("a"), false).unwrap();
        store.add(spec("b"), false).unwrap();
        let mut changed = spec("a");
        changed.command.push("--fast".into());
        store.add(changed.clone(), true).unwrap();
        store.save().unwrap();
        let back = EngineStore::load(&file).unwrap();
        assert_eq!(back.names(), vec!["a", "b"]);
        assert_eq!(back.get("a"), Some(&changed));
        let mut back = back;
        back.remove("b").unwrap();
        let error = back.remove("b").unwrap_err().to_string();
        assert!(error.contains("registered engines are a"), "{error}");
    }

    #[test]
    fn bad_names_and_files_are_refused_with_the_reason() {
        let mut store = EngineStore::load(Path::new("/nonexistent/engines.ron")).unwrap();
        assert!(
            store
                .add(spec("fast"), false)
                .unwrap_err()
                .to_string()
                .contains("built-in")
        );
        assert!(store.add(spec("two words"), false).is_err());
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join(FILE_NAME);
        std::fs::write(&file, "(engines: [oops])").unwrap();
        let error = EngineStore::load(&file).unwrap_err().to_string();
        assert!(error.contains("engines.ron"), "{error}");
    }
}
