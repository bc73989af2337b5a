//! Puzzle files: the native RON format, DriftingDroids game ids and board dumps, Kevin Cox's
//! text format, and the one-line board text for copy and paste.
//!
//! Every loader validates what it reads and reports what is wrong and where; none panics.

pub mod board_line;
pub mod cox;
pub mod dd_dump;
pub mod game_id;
pub mod native;
mod words;

pub(crate) use words::{likely_meant, rules_in_force};

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
    #[error("game id '{}': {message}", quote(id))]
    GameId {
        /// The id as given.
        id: String,
        /// What is wrong.
        message: String,
    },
    /// A DriftingDroids board dump that does not read.
    #[error("DriftingDroids dump: {message}")]
    Dump {
        /// What is wrong.
        message: String,
    },
    /// A board line (`ricochet-lab:...`) that does not read.
    #[error("board line: {message}")]
    BoardLine {
        /// What is wrong.
        message: String,
    },
    /// Pasted text that is no puzzle in any format this program reads.
    #[error(
        "'{}' is no board: expected a DriftingDroids game id or dump (!DriftingDroids_game!...), \
         a board line (ricochet-lab:...), the text of a .ron puzzle or of a Cox board",
        quote(.0)
    )]
    NotABoard(String),
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
        "'{}' is neither a .ron puzzle, a .txt Cox board, a game id such as 7650+42+E2302B12+C9, \
         a DriftingDroids dump (!DriftingDroids_game!...) nor a board line (ricochet-lab:...)",
        quote(.0)
    )]
    UnknownFormat(String),
    /// An output path whose extension names no format this program writes.
    #[error(
        "cannot write '{}': the output's extension must be .ron (native) or .txt (Cox's format)",
        quote(&.0.display().to_string())
    )]
    UnknownOutputFormat(PathBuf),
    /// An input larger than [`MAX_INPUT_BYTES`].
    #[error(
        "{}: the input is larger than {} MiB, more than any puzzle needs; it was not read",
        path.display(), MAX_INPUT_BYTES >> 20
    )]
    TooLarge {
        /// The file (`-` for standard input).
        path: PathBuf,
    },
    /// A path that names a device, a pipe, a directory or a socket rather than a regular file.
    #[error(
        "{}: this is {what}, not a regular file; puzzles are read from regular files or from \
         standard input (-)",
        path.display()
    )]
    NotAFile {
        /// The path as given.
        path: PathBuf,
        /// What it is ("a directory", "a device", ...).
        what: &'static str,
    },
    /// An output path that names a device, a pipe, a directory or a socket.
    #[error(
        "{}: this is {what}, not a regular file; a file is written to a new or regular file",
        path.display()
    )]
    NotAFileToWrite {
        /// The path as given.
        path: PathBuf,
        /// What it is ("a directory", "a device", ...).
        what: &'static str,
    },
    /// Input that is not UTF-8 text, with the place of its first bad byte.
    #[error(
        "line {line}, column {column} (byte {offset}): byte 0x{byte:02X} is not UTF-8 text; \
         puzzle files are UTF-8"
    )]
    Encoding {
        /// 1-based line of the bad byte.
        line: usize,
        /// 1-based column (in characters) of the bad byte.
        column: usize,
        /// 0-based byte offset of the bad byte.
        offset: usize,
        /// The bad byte.
        byte: u8,
    },
    /// A save that would replace a file the caller did not ask to replace.
    #[error("{} already exists and was left as it is", path.display())]
    Exists {
        /// The existing file.
        path: PathBuf,
    },
}

/// The most bytes read from one puzzle file or from standard input. The largest board the
/// model allows (64x64, every wall, target and robot listed) takes well under 1 MiB in any
/// format, so anything larger is not a puzzle; the cap keeps a link to `/dev/zero` or a huge
/// file from filling the memory.
pub const MAX_INPUT_BYTES: u64 = 4 << 20;

/// The longest piece of user text an error message repeats.
const QUOTE_CHARS: usize = 40;

/// User text made safe to print in an error message: control characters are escaped (a file
/// cannot clear the terminal) and text longer than a few words is cut, saying how long it was.
pub fn quote(text: &str) -> String {
    quote_up_to(text, QUOTE_CHARS)
}

/// [`quote`] with another length: at most `max` characters of `text` are kept.
pub(crate) fn quote_up_to(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == max {
            out.push_str(&format!("... ({} bytes in all)", text.len()));
            return out;
        }
        if c.is_control() || c == '\u{feff}' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The text of a puzzle file's bytes: a UTF-8 byte-order mark is accepted and dropped, and
/// bytes that are not UTF-8 are reported by line, column and byte offset.
pub fn decode(bytes: Vec<u8>) -> Result<String, FormatError> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(match text.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => text,
        }),
        Err(error) => {
            let bytes = error.as_bytes();
            let offset = error.utf8_error().valid_up_to();
            // Everything before the bad byte is valid UTF-8, so it can be counted in chars.
            let before = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            Err(FormatError::Encoding {
                line: before.matches('\n').count() + 1,
                column: before[line_start..].chars().count() + 1,
                offset,
                byte: bytes[offset],
            })
        }
    }
}

/// Text without a leading UTF-8 byte-order mark (some editors write one).
pub(crate) fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Reads at most [`MAX_INPUT_BYTES`] of puzzle text from a regular file, or from standard
/// input when the path is `-`. Devices, pipes and directories are refused before they are
/// opened, so a link to `/dev/zero` or a FIFO fails at once instead of hanging.
pub fn read_text(path: &Path) -> Result<String, FormatError> {
    use std::io::Read;
    let io = |error| FormatError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut bytes = Vec::new();
    if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
    } else {
        // The metadata of what a symbolic link points to: the link itself is fine.
        let metadata = std::fs::metadata(path).map_err(io)?;
        if !metadata.is_file() {
            return Err(FormatError::NotAFile {
                path: path.to_path_buf(),
                what: file_kind(&metadata),
            });
        }
        open_regular(path, std::fs::OpenOptions::new().read(true))
            .map_err(io)?
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
    }
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(FormatError::TooLarge {
            path: path.to_path_buf(),
        });
    }
    decode(bytes)
}

/// Opens `path` with `options` only when it is a regular file (after links), and never
/// blocks on what it finds: on Linux the file is opened with `O_NONBLOCK`, so a named pipe put
/// there (even between a look and the open) returns at once, and is then refused by what the
/// open file is; elsewhere the path is looked at before it is opened. A path that is not a
/// regular file gives an error of kind `InvalidInput` that says what it is.
pub fn open_regular(path: &Path, options: &std::fs::OpenOptions) -> std::io::Result<std::fs::File> {
    let not_a_file = |metadata: &std::fs::Metadata| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("this is {}, not a regular file", file_kind(metadata)),
        )
    };
    let mut options = options.clone();
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Non-blocking opens of a pipe return at once; on a regular file the flag changes
        // nothing.
        options.custom_flags(libc::O_NONBLOCK);
    }
    #[cfg(not(target_os = "linux"))]
    if let Ok(metadata) = std::fs::metadata(path)
        && !metadata.is_file()
    {
        return Err(not_a_file(&metadata));
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(not_a_file(&metadata));
    }
    Ok(file)
}

/// What a path that is not a regular file is, in words.
pub(crate) fn file_kind(metadata: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = metadata.file_type();
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if metadata.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// A parsed puzzle after the checks every format shares ([`Puzzle::check_targets`]).
pub(crate) fn checked(puzzle: Puzzle) -> Result<Puzzle, FormatError> {
    puzzle.check_targets()?;
    Ok(puzzle)
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
    /// A DriftingDroids board dump (`!DriftingDroids_game!...`).
    DdDump,
    /// The one-line board text (`ricochet-lab:...`).
    BoardLine,
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
        Format::DdDump => dd_dump::parse(text),
        Format::BoardLine => board_line::parse(text),
    }
}

/// The format of a puzzle's text told by its first word: a game id, a dump, a board line,
/// Cox's `board` line, or native RON's `(`. `None` for text that starts like none of them.
pub fn sniff(text: &str) -> Option<Format> {
    let trimmed = strip_bom(text).trim_start();
    if dd_dump::looks_like(trimmed) {
        Some(Format::DdDump)
    } else if board_line::looks_like(trimmed) {
        Some(Format::BoardLine)
    } else if game_id::looks_like(trimmed) {
        Some(Format::GameId)
    } else if trimmed.starts_with("board") {
        Some(Format::Cox)
    } else if trimmed.starts_with('(') || trimmed.starts_with("//") || trimmed.starts_with("/*") {
        Some(Format::Native)
    } else {
        None
    }
}

/// Parses pasted text in whichever format it is in (see [`sniff`]); text in none of them is
/// refused as [`FormatError::NotABoard`].
pub fn parse_any(text: &str) -> Result<Puzzle, FormatError> {
    match sniff(text) {
        Some(format) => parse(strip_bom(text), format),
        None => Err(FormatError::NotABoard(text.trim().to_string())),
    }
}

/// Writes a puzzle in a given format.
pub fn write(puzzle: &Puzzle, format: Format) -> Result<String, FormatError> {
    match format {
        Format::Native => Ok(native::write(puzzle)),
        Format::Cox => cox::write(puzzle),
        Format::GameId => game_id::write(puzzle),
        Format::DdDump => dd_dump::write(puzzle),
        Format::BoardLine => board_line::write(puzzle),
    }
}

/// Loads a puzzle from a command-line argument: a `.ron` or `.txt` file, a game id, or `-`
/// for standard input (a game id, native text or Cox text, told apart by their first word).
pub fn load_source(source: &str) -> Result<Puzzle, FormatError> {
    let path = Path::new(source);
    if source == "-" {
        let text = read_text(path)?;
        return parse(&text, sniff(&text).unwrap_or(Format::Native));
    }
    if dd_dump::looks_like(source) {
        return dd_dump::parse(source);
    }
    if board_line::looks_like(source) {
        return board_line::parse(source);
    }
    match Format::of_path(path) {
        Some(format) => load_file(path, format),
        None if game_id::looks_like(
            source.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}'),
        ) =>
        {
            // A game id is ASCII: white space beyond ASCII's or a byte-order mark came along
            // with a copy and is named rather than dropped without a word.
            if let Some((offset, c)) = source.char_indices().find(|(_, c)| !c.is_ascii()) {
                return Err(FormatError::GameId {
                    id: source.to_string(),
                    message: format!(
                        "the character U+{:04X} at position {} is not part of a game id (a \
                         byte-order mark or a non-ASCII space copied with it?); give the id alone",
                        u32::from(c),
                        source[..offset].chars().count() + 1
                    ),
                });
            }
            game_id::parse(source)
        }
        None => Err(FormatError::UnknownFormat(source.to_string())),
    }
}

/// Loads a puzzle like [`load_source`], with the source named in every error: the errors
/// that already name it (an unreadable file, an unknown format, a bad game id) stay as they
/// are, the others are wrapped in [`FormatError::InSource`].
pub fn load(source: &str) -> Result<Puzzle, FormatError> {
    load_source(source).map_err(|error| match error {
        FormatError::Io { .. }
        | FormatError::UnknownFormat(_)
        | FormatError::GameId { .. }
        | FormatError::Dump { .. }
        | FormatError::BoardLine { .. }
        | FormatError::TooLarge { .. }
        | FormatError::NotAFile { .. } => error,
        other => FormatError::InSource {
            name: source.to_string(),
            error: Box::new(other),
        },
    })
}

/// Reads and parses a puzzle file. A `.txt` file may also hold a DriftingDroids dump or a
/// board line (both are text that players keep in plain files), told by their first word.
pub fn load_file(path: &Path, format: Format) -> Result<Puzzle, FormatError> {
    let text = read_text(path)?;
    let format = match (format, sniff(&text)) {
        (Format::Cox, Some(found @ (Format::DdDump | Format::BoardLine))) => found,
        _ => format,
    };
    parse(&text, format)
}

/// Whether a save may replace an existing file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overwrite {
    /// Replace whatever is there (the app's Save, `--force`).
    Allow,
    /// Fail with [`FormatError::Exists`] when the path exists.
    Refuse,
}

/// Writes a file atomically: the text goes to a temporary file beside the target, which is
/// flushed to disk and then renamed over it, so a crash never leaves a half-written file.
/// A symbolic link is followed: its target is replaced in its own directory and the link is
/// kept. A replaced file keeps its permissions; a new one is made with the umask's (as a file
/// `touch` makes: 0644 under the usual umask 022). The temporary file is removed whenever the
/// save fails, including when the file-size limit (`ulimit -f`) stops the write.
pub fn save_atomic(path: &Path, text: &str) -> Result<(), FormatError> {
    save_atomic_with(path, text, Overwrite::Allow)
}

/// [`save_atomic`], refusing to replace an existing file unless `overwrite` allows it. The
/// refusal is atomic too: the finished temporary file is linked to the new name, which fails
/// if anything took that name meanwhile.
pub fn save_atomic_with(path: &Path, text: &str, overwrite: Overwrite) -> Result<(), FormatError> {
    save_bytes_atomic_with(path, text.as_bytes(), overwrite)
}

/// [`save_atomic_with`] for any bytes (an image, say), with the same guarantees.
pub fn save_bytes_atomic_with(
    path: &Path,
    bytes: &[u8],
    overwrite: Overwrite,
) -> Result<(), FormatError> {
    save_bytes(path, bytes, overwrite, NewFile::Shared)
}

/// [`save_atomic`] for a file only its owner may read (settings that name the user's files
/// and programs): a new file is made read-write for the owner alone; a replaced one keeps
/// its permissions.
pub fn save_private_atomic(path: &Path, text: &str) -> Result<(), FormatError> {
    save_bytes(path, text.as_bytes(), Overwrite::Allow, NewFile::Private)
}

/// Who may read a file a save creates.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NewFile {
    /// Anyone the umask allows, as any program's new file.
    Shared,
    /// The owner alone.
    Private,
}

fn save_bytes(
    path: &Path,
    bytes: &[u8],
    overwrite: Overwrite,
    new_file: NewFile,
) -> Result<(), FormatError> {
    let target = resolve_links(path);
    let io = |error| FormatError::Io {
        path: path.to_path_buf(),
        error,
    };
    let existing = match std::fs::metadata(&target) {
        Ok(metadata) => Some(metadata),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) => return Err(io(error)),
    };
    if let Some(metadata) = &existing
        && !metadata.is_file()
    {
        return Err(FormatError::NotAFileToWrite {
            path: path.to_path_buf(),
            what: file_kind(metadata),
        });
    }
    if existing.is_some() && overwrite == Overwrite::Refuse {
        return Err(FormatError::Exists {
            path: path.to_path_buf(),
        });
    }
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "puzzle".into());
    remove_stale_temporaries(&dir, &name);
    // A temporary file of a name of its own beside the target, so two saves of one file (two
    // threads, two processes) never share it; it is deleted if anything fails before the rename.
    let result = (|| {
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // A new file gets the mode any program's new file gets (read and write for all, less
        // the umask), which the system applies as it creates the temporary file; tempfile's
        // own default, owner only, is for scratch files nobody else should read.
        // A private file keeps tempfile's own mode, owner only.
        #[cfg(unix)]
        if existing.is_none() && new_file == NewFile::Shared {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        #[cfg(not(unix))]
        let _ = new_file;
        let mut file = builder.tempfile_in(&dir)?;
        file.write_all(bytes)?;
        if let Some(metadata) = &existing {
            file.as_file().set_permissions(metadata.permissions())?;
        }
        file.as_file().sync_all()?;
        match overwrite {
            Overwrite::Allow => file.persist(&target).map_err(|e| e.error)?,
            Overwrite::Refuse => file.persist_noclobber(&target).map_err(|e| e.error)?,
        };
        Ok::<(), std::io::Error>(())
    })();
    if let Err(error) = result {
        if error.kind() == std::io::ErrorKind::AlreadyExists {
            return Err(FormatError::Exists {
                path: path.to_path_buf(),
            });
        }
        return Err(io(error));
    }
    Ok(())
}

/// How old a temporary file of a save must be to be taken for a dead save's: no save of a
/// puzzle or settings takes this long, and a save still going is never this old.
const STALE_TEMPORARY_AGE: std::time::Duration = std::time::Duration::from_secs(60);

/// Removes the temporary files that saves of `name` killed between the write and the rename
/// left in `dir` (`.NAME.XXXXXX.tmp`, older than [`STALE_TEMPORARY_AGE`]). Files of other
/// names and fresh ones (a save going on in another process) are left alone; a file that
/// cannot be removed is left too, as the save does not depend on it.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.filter_map(Result::ok) {
        let file_name = entry.file_name();
        let Some(file_name) = file_name.to_str() else {
            continue;
        };
        let Some(random) = file_name
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"))
        else {
            continue;
        };
        // tempfile's random part: six letters and digits.
        if random.len() != 6 || !random.bytes().all(|b| b.is_ascii_alphanumeric()) {
            continue;
        }
        let stale = entry
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .and_then(|metadata| metadata.modified().ok())
            .and_then(|modified| modified.elapsed().ok())
            .is_some_and(|age| age >= STALE_TEMPORARY_AGE);
        if stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The file a path finally names after following symbolic links (at most 40, as the system
/// does), whether or not that file exists yet. A relative link target is taken from the
/// link's own directory.
fn resolve_links(path: &Path) -> PathBuf {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        let is_link = std::fs::symlink_metadata(&current).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            break;
        }
        let Ok(target) = std::fs::read_link(&current) else {
            break;
        };
        current = match current.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
    }
    current
}

/// Saves a puzzle in the format its path's extension names. The puzzle must pass the checks
/// every loader makes, so that whatever is written can be read back.
pub fn save_puzzle(puzzle: &Puzzle, path: &Path) -> Result<(), FormatError> {
    save_puzzle_with(puzzle, path, Overwrite::Allow)
}

/// [`save_puzzle`], refusing to replace an existing file unless `overwrite` allows it.
pub fn save_puzzle_with(
    puzzle: &Puzzle,
    path: &Path,
    overwrite: Overwrite,
) -> Result<(), FormatError> {
    let format = Format::of_path(path)
        .ok_or_else(|| FormatError::UnknownOutputFormat(path.to_path_buf()))?;
    puzzle.check_targets()?;
    let text = write(puzzle, format)?;
    save_atomic_with(path, &text, overwrite)
}

#[cfg(test)]
mod tests;
