//! Puzzle files: the native RON format, DriftingDroids game ids and Kevin Cox's text format.
//!
//! Every loader validates what it reads and reports what is wrong and where; none panics.

pub mod cox;
pub mod game_id;
pub mod native;

use super::{ModelError, Puzzle};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a puzzle could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The file could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// Text that does not parse, with its 1-based line and column.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A game id that does not parse.
    #[error("game id '{id}': {message}")]
    GameId {
        /// The id as given.
        id: String,
        /// What is wrong.
        message: String,
    },
    /// A well-formed file that describes an impossible puzzle.
    #[error("{0}")]
    Model(#[from] ModelError),
    /// A puzzle the target format cannot express.
    #[error("{0}")]
    Unrepresentable(String),
    /// An error in a named source (a file or a game id given by the user), which is named.
    #[error("{name}: {error}")]
    InSource {
        /// The source as the user gave it.
        name: String,
        /// What is wrong in it.
        error: Box<FormatError>,
    },
    /// A file name without a known extension.
    #[error(
        "'{0}' is neither a .ron puzzle, a .txt Cox board, nor a game id such as 7650+42+E2302B12+C9"
    )]
    UnknownFormat(String),
}

/// Which format a file or argument is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The native RON format (`.ron`).
    Native,
    /// Kevin Cox's text format (`.txt`).
    Cox,
    /// A DriftingDroids game id.
    GameId,
}

impl Format {
    /// The format of a path by its extension, or `None`.
    pub fn of_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "ron" => Some(Format::Native),
            "txt" => Some(Format::Cox),
            _ => None,
        }
    }
}

/// Parses puzzle text in a given format.
pub fn parse(text: &str, format: Format) -> Result<Puzzle, FormatError> {
    match format {
        Format::Native => native::parse(text),
        Format::Cox => cox::parse(text),
        Format::GameId => game_id::parse(text),
    }
}

/// Writes a puzzle in a given format.
pub fn write(puzzle: &Puzzle, format: Format) -> Result<String, FormatError> {
    match format {
        Format::Native => Ok(native::write(puzzle)),
        Format::Cox => cox::write(puzzle),
        Format::GameId => game_id::write(puzzle),
    }
}

/// Loads a puzzle from a command-line argument: a `.ron` or `.txt` file, or a game id.
pub fn load_source(source: &str) -> Result<Puzzle, FormatError> {
    let path = Path::new(source);
    match Format::of_path(path) {
        Some(format) => load_file(path, format),
        None if game_id::looks_like(source) => game_id::parse(source),
        None => Err(FormatError::UnknownFormat(source.to_string())),
    }
}

/// Loads a puzzle like [`load_source`], with the source named in every error: the errors
/// that already name it (an unreadable file, an unknown format, a bad game id) stay as they
/// are, the others are wrapped in [`FormatError::InSource`].
pub fn load(source: &str) -> Result<Puzzle, FormatError> {
    load_source(source).map_err(|error| match error {
        FormatError::Io { .. } | FormatError::UnknownFormat(_) | FormatError::GameId { .. } => {
            error
        }
        other => FormatError::InSource {
            name: source.to_string(),
            error: Box::new(other),
        },
    })
}

/// Reads and parses a puzzle file.
pub fn load_file(path: &Path, format: Format) -> Result<Puzzle, FormatError> {
    let text = std::fs::read_to_string(path).map_err(|error| FormatError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    parse(&text, format)
}

/// Writes a file atomically: the text goes to a temporary file beside the target, which is
/// flushed to disk and then renamed over it, so a crash never leaves a half-written file.
pub fn save_atomic(path: &Path, text: &str) -> Result<(), FormatError> {
    let io = |error| FormatError::Io {
        path: path.to_path_buf(),
        error,
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "puzzle".into());
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map_err(io)
}

/// Saves a puzzle in the format its path's extension names.
pub fn save_puzzle(puzzle: &Puzzle, path: &Path) -> Result<(), FormatError> {
    let format = Format::of_path(path)
        .ok_or_else(|| FormatError::UnknownFormat(path.display().to_string()))?;
    let text = write(puzzle, format)?;
    save_atomic(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_save_replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("ricochet-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("board.ron");
        save_atomic(&path, "first").unwrap();
        save_atomic(&path, "second").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_load_error_names_its_source() {
        let dir = std::env::temp_dir().join(format!("ricochet-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("broken.ron");
        std::fs::write(&path, "(size: oops)").unwrap();
        let source = path.to_string_lossy().into_owned();
        let message = load(&source).unwrap_err().to_string();
        assert!(message.starts_with(&format!("{source}: ")), "{message}");
        let message = load("no-such-file.ron").unwrap_err().to_string();
        assert!(message.starts_with("no-such-file.ron: "), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
