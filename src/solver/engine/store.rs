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
//! let mut store = EngineStore::load(&file).unwrap();
//! store.add(EngineSpec { name: "bfs-py".into(), command: vec!["python3".into(), "bfs.py".into()], dir: None }).unwrap();
//! store.save().unwrap();
//! assert_eq!(EngineStore::load(&file).unwrap().names(), vec!["bfs-py"]);
//! ```

use super::EngineSpec;
use crate::model::formats::{FormatError, save_atomic};
use crate::solver::SolverId;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The environment variable naming a folder that holds `engines.ron` instead of the app's
/// settings folder.
pub const CONFIG_DIR_VAR: &str = "RICOCHET_LAB_CONFIG_DIR";

/// The file's name in its folder.
pub const FILE_NAME: &str = "engines.ron";

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
        let text = match std::fs::read_to_string(path) {
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

    /// Registers an engine, replacing one of the same name. A name must be a word of letters,
    /// digits, `-`, `_` and `.`, and not a built-in solver's name (it would hide it); the
    /// command must not be empty.
    pub fn add(&mut self, spec: EngineSpec) -> Result<(), StoreError> {
        check_name(&spec.name)?;
        if spec.command.is_empty() || spec.command[0].is_empty() {
            return Err(StoreError::Name(format!(
                "the engine '{}' needs a command",
                spec.name
            )));
        }
        match self.engines.iter_mut().find(|e| e.name == spec.name) {
            Some(slot) => *slot = spec,
            None => self.engines.push(spec),
        }
        Ok(())
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

/// Checks an engine name: a word of letters, digits, `-`, `_` and `.`, not a built-in
/// solver's name.
pub fn check_name(name: &str) -> Result<(), StoreError> {
    if name.is_empty() {
        return Err(StoreError::Name(
            "the engine has no name: give it one of letters, digits, '-', '_' and '.'".into(),
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(StoreError::Name(format!(
            "'{name}' cannot name an engine: use letters, digits, '-', '_' and '.'"
        )));
    }
    if SolverId::from_name(name).is_some() {
        return Err(StoreError::Name(format!(
            "'{name}' is a built-in solver's name; choose another for the engine"
        )));
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

    fn spec(name: &str) -> EngineSpec {
        EngineSpec {
            name: name.into(),
            command: vec!["python3".into(), "engine.py".into()],
            dir: Some(PathBuf::from("/tmp")),
        }
    }

    #[test]
    fn engines_are_added_replaced_removed_and_read_back() {
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join("sub").join(FILE_NAME);
        let mut store = EngineStore::load(&file).unwrap();
        assert!(store.engines().is_empty());
        store.add(spec("a")).unwrap();
        store.add(spec("b")).unwrap();
        let mut changed = spec("a");
        changed.command.push("--fast".into());
        store.add(changed.clone()).unwrap();
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
                .add(spec("fast"))
                .unwrap_err()
                .to_string()
                .contains("built-in")
        );
        assert!(store.add(spec("two words")).is_err());
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join(FILE_NAME);
        std::fs::write(&file, "(engines: [oops])").unwrap();
        let error = EngineStore::load(&file).unwrap_err().to_string();
        assert!(error.contains("engines.ron"), "{error}");
    }
}
