//! `ricochet-lab PUZZLE`: the app opened on a puzzle, as a file manager's *Open with*, a
//! desktop launcher or a terminal passes one.

use super::output::EXIT_USAGE;
use ricochet_lab::app::Opening;
use ricochet_lab::model::formats::{self, game_id};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Opens the app, on `puzzle` when one is given. An existing file is always handed to the
/// window, which says there why it cannot be read when it cannot (a launcher shows no
/// terminal), and the same message goes to standard error. What names no file and is no game
/// id (a mistyped command or file name) is refused before any window opens, with exit code 2.
pub(super) fn run(puzzle: Option<String>, commands: &[String]) -> ExitCode {
    let opening = match puzzle.map(|argument| opening(&argument, commands)) {
        None => None,
        Some(Ok(opening)) => Some(opening),
        Some(Err(message)) => {
            eprintln!("error: {message}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    if let Some(Opening::File(path)) = &opening
        && let Some(error) = startup_error(path)
    {
        eprintln!("error: {error}");
    }
    match ricochet_lab::app::run_native(opening) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Why the window will not open the file it is started on, read the way the window reads it
/// (by content, whatever the file's name: a puzzle named `--help` opens, a lesson is told from
/// a puzzle by its first field; a trace by its mark or its `.rltrace` name), or `None`.
fn startup_error(path: &Path) -> Option<String> {
    let error = if ricochet_lab::solver::trace::is_trace_file(path) {
        ricochet_lab::solver::trace::TraceReader::open(path)
            .err()?
            .to_string()
    } else if ricochet_lab::lesson::is_lesson_file(path) {
        ricochet_lab::lesson::Lesson::load(path).err()?.to_string()
    } else {
        ricochet_lab::app::files::load_puzzle_file(path)
            .err()?
            .to_string()
    };
    let shown = path.display().to_string();
    // Most errors already start with the path they speak of.
    Some(if error.starts_with(&shown) {
        error
    } else {
        format!("{shown}: {error}")
    })
}

/// What an argument opens: a file, or a game id that reads; anything else is refused with
/// the reason.
fn opening(argument: &str, commands: &[String]) -> Result<Opening, String> {
    let path = Path::new(argument);
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_file() => return Ok(Opening::File(PathBuf::from(path))),
        Ok(_) => return Err(format!("{argument} is not a puzzle file")),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
        // A path that exists but cannot be followed (a loop of symbolic links, a folder that
        // may not be read) is named with what the system said, not as a missing file.
        Err(error) if std::fs::symlink_metadata(path).is_ok() => {
            return Err(format!("{argument}: {error}"));
        }
        Err(_) => {}
    }
    if game_id::looks_like(argument) {
        return game_id::parse(argument)
            .map(|_| Opening::Text(argument.trim().to_string()))
            .map_err(|error| error.to_string());
    }
    if formats::Format::of_path(path).is_some() || argument.contains(std::path::MAIN_SEPARATOR) {
        return Err(format!("{argument}: no such file"));
    }
    Err(format!(
        "`{argument}` is neither a command ({}) nor a puzzle file or game id; see --help",
        commands.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands() -> Vec<String> {
        vec!["solve".into(), "show".into()]
    }

    #[test]
    fn files_and_game_ids_open_and_other_words_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("broken.ron");
        std::fs::write(&file, "(").unwrap();
        // A file is the window's to read, and to say what is wrong with it.
        assert_eq!(
            opening(file.to_str().unwrap(), &commands()),
            Ok(Opening::File(file.clone()))
        );
        assert_eq!(
            opening(" 7650+42+E2302B12+C9", &commands()),
            Ok(Opening::Text("7650+42+E2302B12+C9".into()))
        );
        let refused = |argument: &str| opening(argument, &commands()).unwrap_err();
        assert!(refused("7650+42+E2302B12+00").contains("no target"));
        assert!(refused("slove").contains("neither a command (solve, show)"));
        assert!(refused("missing.ron").contains("missing.ron: no such file"));
        assert!(refused(dir.path().to_str().unwrap()).contains("is not a puzzle file"));
        // A puzzle named like an option is read as the window reads it: no error printed
        // before the window opens it.
        let named_like_an_option = dir.path().join("--help");
        std::fs::copy(
            concat!(env!("CARGO_MANIFEST_DIR"), "/boards/small-6x6.ron"),
            &named_like_an_option,
        )
        .unwrap();
        assert_eq!(startup_error(&named_like_an_option), None);
        let message = startup_error(&file).unwrap();
        assert!(message.starts_with(file.to_str().unwrap()), "{message}");
        assert_eq!(
            message.matches(file.to_str().unwrap()).count(),
            1,
            "{message}"
        );
        // A loop of symbolic links once read as a missing file.
        #[cfg(unix)]
        {
            let looped = dir.path().join("loop.ron");
            std::os::unix::fs::symlink(&looped, &looped).unwrap();
            let message = refused(looped.to_str().unwrap());
            assert!(!message.contains("no such file"), "{message}");
            assert!(message.contains("symbolic links"), "{message}");
        }
    }
}
