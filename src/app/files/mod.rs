//! Files: the system's file dialogs through rfd, and in-app windows that do the same with a
//! path field and the `boards/` browser, for systems without dialogs (no desktop portal and
//! no zenity), so that opening and saving never dead-ends. Also the import window and the
//! unsaved-changes question.
//!
//! The settings file is read and written by the room above the others,
//! `crate::app::settings`.

use crate::app::command::{Command, DiskChoice, Pending, Resolution, SaveKind};
use crate::app::document::state::FileStamp;
use crate::app::theme;
use crate::app::{APP_NAME, widgets};
use crate::model::Puzzle;
use crate::model::formats::{self, Format, FormatError};
use std::path::{Path, PathBuf};

/// The in-app file windows and their text.
#[derive(Clone, Debug, Default)]
pub(super) struct FileWindows {
    /// The Open window (path field and boards list).
    pub(super) open: bool,
    /// The Save window, and what it saves.
    pub(super) save: Option<SaveKind>,
    /// The Import window.
    pub(super) import: bool,
    /// The path typed in the Open or Save window.
    pub(super) path: String,
    /// The text pasted in the Import window.
    import_text: String,
    /// The folder of the last puzzle opened, which the Open window and dialog start in (not
    /// the folder of the last save or export, which the path field may hold).
    pub(super) opened_folder: Option<PathBuf>,
    /// The folder the Open window lists, when the user went to another than the one it
    /// starts in.
    pub(super) browsed: Option<PathBuf>,
    /// Whether the import window's text field should take the keyboard focus: set when the
    /// window opens, so typed or pasted text goes there and not to the app's shortcuts.
    pub(super) import_focus: bool,
    /// The board's file as it was on disk when it was last opened or saved here.
    pub(super) disk_stamp: Option<(PathBuf, FileStamp)>,
    /// The file Save found changed on disk, while the question about it shows.
    pub(super) changed_on_disk: Option<PathBuf>,
}

/// Whether the system can show file dialogs: on Linux that needs a desktop portal (reached
/// over D-Bus) or zenity; elsewhere the system always has them.
pub(super) fn native_dialogs_available() -> bool {
    if cfg!(target_os = "linux") {
        std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some() || on_path("zenity")
    } else {
        true
    }
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// The shipped `boards/` folder: beside the working directory, beside the executable or one of
/// its parents (a build tree), or in the source tree this was built from.
pub fn boards_dir() -> Option<PathBuf> {
    let mut candidates = vec![PathBuf::from("boards")];
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(
            exe.ancestors()
                .skip(1)
                .take(4)
                .map(|dir| dir.join("boards")),
        );
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("boards"));
    let dir = candidates.into_iter().find(|dir| dir.is_dir())?;
    // Shown to the user, so the full path rather than "boards".
    Some(std::fs::canonicalize(&dir).unwrap_or(dir))
}

/// The folder the app proposes for the user's own boards and results: `Ricochet Lab` in the
/// user's documents folder, or the app's data folder when the system names no documents
/// folder. Never the shipped `boards/`, which belongs to the program (and may be read-only or
/// replaced by the next version). It is created when missing, so that a path the app proposes
/// in it (an export, a study's output) can be written as proposed. `None` when the system has
/// no home folder at all.
pub fn user_folder() -> Option<PathBuf> {
    let documents = directories::UserDirs::new()
        .and_then(|dirs| dirs.document_dir().map(|dir| dir.join(APP_NAME)));
    let folder = documents.or_else(|| {
        directories::ProjectDirs::from("", "", APP_NAME).map(|dirs| dirs.data_dir().to_path_buf())
    })?;
    // Best effort: a folder that cannot be made is named by the write that needs it.
    let _ = std::fs::create_dir_all(&folder);
    Some(folder)
}

/// Where Save as proposes to write: beside the board's own file, unless that file is one of
/// the shipped boards, and otherwise in [`user_folder`] (created when missing, so that a file
/// dialog can start there). Only the file name is proposed when there is no user folder.
pub(super) fn save_as_proposal(
    file: Option<&Path>,
    shipped: Option<&Path>,
    kind: SaveKind,
) -> PathBuf {
    let name = file
        .and_then(|path| {
            path.with_extension(kind.extension())
                .file_name()
                .map(PathBuf::from)
        })
        .unwrap_or_else(|| PathBuf::from(format!("board.{}", kind.extension())));
    let shipped_file = |path: &Path| {
        let parent = path
            .parent()
            .map(|p| std::fs::canonicalize(p).unwrap_or(p.to_path_buf()));
        shipped.is_some_and(|dir| parent.as_deref() == Some(dir))
    };
    match file {
        Some(path) if !shipped_file(path) => path.with_extension(kind.extension()),
        _ => match user_folder() {
            Some(dir) => {
                // A folder that cannot be made shows up as the save's own error, with its path.
                let _ = std::fs::create_dir_all(&dir);
                dir.join(name)
            }
            None => name,
        },
    }
}

/// A folder's subfolders (hidden ones left out) and the puzzle files in it (`.ron` and
/// `.txt`), each sorted by name.
fn list_folder(dir: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (Vec::new(), Vec::new());
    };
    let paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    let hidden = |path: &PathBuf| {
        path.file_name()
            .is_some_and(|name| name.to_string_lossy().starts_with('.'))
    };
    let mut folders: Vec<PathBuf> = paths
        .iter()
        .filter(|path| path.is_dir() && !hidden(path))
        .cloned()
        .collect();
    let mut files: Vec<PathBuf> = paths
        .into_iter()
        .filter(|path| {
            path.is_file()
                && path
                    .extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| e.eq_ignore_ascii_case("ron") || e.eq_ignore_ascii_case("txt"))
        })
        .collect();
    folders.sort();
    files.sort();
    (folders, files)
}

/// The puzzle in a file given to the app (opened, dropped on the window, named on the
/// command line): a `.ron` file in the native format, or text holding a game id, a
/// DriftingDroids dump, a board line or Cox text, told apart by their content whatever the
/// file's extension. The format is returned too: a file in another format than the native
/// one is imported, not edited in place.
pub fn load_puzzle_file(path: &Path) -> Result<(Puzzle, Format), FormatError> {
    if Format::of_path(path) == Some(Format::Native) {
        return formats::load_file(path, Format::Native).map(|p| (p, Format::Native));
    }
    let text = formats::read_text(path)?;
    let trimmed = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let format = formats::sniff(trimmed).unwrap_or(Format::Cox);
    let source = if format == Format::GameId {
        trimmed
    } else {
        &text
    };
    formats::parse(source, format).map(|puzzle| (puzzle, format))
}

/// Asks the system for a puzzle file to open.
pub(super) fn pick_open_file(start: Option<&Path>) -> Option<PathBuf> {
    let mut dialog = rfd::FileDialog::new()
        .set_title("Open a puzzle")
        .add_filter(
            "Puzzles, lessons and search traces",
            &["ron", "txt", "rltrace"],
        )
        .add_filter("Ricochet Lab boards and lessons", &["ron"])
        .add_filter("Cox text boards", &["txt"])
        .add_filter("Search traces", &["rltrace"]);
    if let Some(dir) = start {
        dialog = dialog.set_directory(dir);
    }
    dialog.pick_file()
}

/// Asks the system where to save.
pub(super) fn pick_save_file(kind: SaveKind, start: Option<&Path>, name: &str) -> Option<PathBuf> {
    let (filter, extensions): (&str, &[&str]) = match kind {
        SaveKind::Native => ("Ricochet Lab board", &["ron"]),
        SaveKind::Cox => ("Cox text board", &["txt"]),
        SaveKind::Image => ("Board image (SVG or PNG)", &["svg", "png"]),
        SaveKind::Trace => ("Search trace", &["rltrace"]),
    };
    let mut dialog = rfd::FileDialog::new()
        .set_title(kind.title())
        .add_filter(filter, extensions)
        .set_file_name(name);
    if let Some(dir) = start {
        dialog = dialog.set_directory(dir);
    }
    dialog.save_file().map(|path| with_extension(path, kind))
}

/// Adds the format's extension when the name has none, so the format is known.
fn with_extension(path: PathBuf, kind: SaveKind) -> PathBuf {
    if path.extension().is_some() {
        path
    } else {
        path.with_extension(kind.extension())
    }
}

/// The in-app Open, Save and Import windows.
pub(super) fn file_windows_ui(
    ctx: &egui::Context,
    windows: &mut FileWindows,
    boards: Option<&Path>,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ctx.global_style().visuals.dark_mode);
    if windows.open {
        let mut open = true;
        widgets::window_position(egui::Window::new("Open a board"), ctx)
            .open(&mut open)
            .default_width(360.0)
            .show(ctx, |ui| {
                if !native_dialogs_available() {
                    ui.label(
                        egui::RichText::new(
                            "This system shows no file dialogs (no desktop portal or zenity): \
                             type a path or pick a shipped board.",
                        )
                        .color(palette.muted),
                    );
                }
                ui.horizontal(|ui| {
                    let label = ui.label("Path");
                    let field = ui
                        .add(
                            egui::TextEdit::singleline(&mut windows.path)
                                .hint_text("boards/fogleman-22.ron")
                                .desired_width(220.0),
                        )
                        .labelled_by(label.id);
                    let entered = submitted(ui, &field);
                    if (ui.button("Open path").clicked() || entered)
                        && !windows.path.trim().is_empty()
                    {
                        commands.push(Command::Guarded(Pending::Open(PathBuf::from(
                            windows.path.trim(),
                        ))));
                    }
                });
                ui.separator();
                folder_list_ui(ui, windows, boards, commands);
            });
        windows.open &= open;
    }
    if let Some(kind) = windows.save {
        let mut open = true;
        widgets::form_window_position(egui::Window::new(kind.title()), ctx)
            .open(&mut open)
            .default_width(360.0)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    let label = ui.label("Path");
                    let field = ui
                        .add(
                            egui::TextEdit::singleline(&mut windows.path)
                                .hint_text(format!("my-board.{}", kind.extension()))
                                .desired_width(220.0),
                        )
                        .labelled_by(label.id);
                    let entered = submitted(ui, &field);
                    if (ui.button("Save to path").clicked() || entered)
                        && !windows.path.trim().is_empty()
                    {
                        let path = with_extension(PathBuf::from(windows.path.trim()), kind);
                        commands.push(Command::SaveTo(path, kind));
                    }
                });
                ui.label(
                    egui::RichText::new(
                        "The file is written to a temporary file first and then renamed, so a \
                         failed save never leaves half a file.",
                    )
                    .color(palette.muted)
                    .small(),
                );
            });
        if !open {
            windows.save = None;
        }
    }
    if windows.import {
        let mut open = true;
        widgets::form_window_position(egui::Window::new("Import a game id or Cox text"), ctx)
            .open(&mut open)
            .default_width(420.0)
            .show(ctx, |ui| {
                let label = ui.label(
                    "Paste a DriftingDroids game id (such as 7650+42+E2302B12+C9) or board \
                     dump (!DriftingDroids_game!...), a board line (ricochet-lab:...), the \
                     text of a .ron board, or a board in Kevin Cox's text format.",
                );
                // A pasted board of many lines scrolls inside the field, so Import stays in
                // sight below it.
                let field = egui::ScrollArea::vertical()
                    .id_salt("import-text")
                    .max_height(240.0)
                    .show(ui, |ui| {
                        ui.add(
                            egui::TextEdit::multiline(&mut windows.import_text)
                                .hint_text("7650+42+E2302B12+C9")
                                .code_editor()
                                .desired_rows(6)
                                .desired_width(f32::INFINITY),
                        )
                    })
                    .inner
                    .labelled_by(label.id);
                if std::mem::take(&mut windows.import_focus) {
                    field.request_focus();
                }
                if ui.button("Import").clicked() {
                    commands.push(Command::Guarded(Pending::Import(
                        windows.import_text.clone(),
                    )));
                }
            });
        windows.import &= open;
    }
}

/// Whether Enter was pressed in a single-line field this frame (it loses focus on Enter).
fn submitted(ui: &egui::Ui, field: &egui::Response) -> bool {
    field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter))
}

/// The shipped boards as buttons, each opening its board.
/// The boards in the folder the Open window lists, with its subfolders to go into, the
/// folder above and the shipped boards to go to: any folder can be browsed, not only boards/.
fn folder_list_ui(
    ui: &mut egui::Ui,
    windows: &mut FileWindows,
    boards: Option<&Path>,
    commands: &mut Vec<Command>,
) {
    let Some(dir) = windows
        .browsed
        .clone()
        .or_else(|| windows.opened_folder.clone())
        .or_else(|| boards.map(Path::to_path_buf))
    else {
        ui.label("No boards/ folder was found beside the program or the working directory.");
        return;
    };
    // The whole path on hover; in the window's width it ends in "…".
    let shown = dir.display().to_string();
    ui.add(egui::Label::new(format!("Boards in {shown}")).truncate())
        .on_hover_text(&shown);
    ui.horizontal(|ui| {
        let parent = dir.parent().filter(|p| !p.as_os_str().is_empty());
        if ui
            .add_enabled(parent.is_some(), egui::Button::new("Up one folder"))
            .clicked()
            && let Some(parent) = parent
        {
            windows.browsed = Some(parent.to_path_buf());
        }
        if let Some(boards) = boards
            && ui
                .add_enabled(boards != dir, egui::Button::new("Shipped boards"))
                .clicked()
        {
            windows.browsed = Some(boards.to_path_buf());
        }
    });
    let (folders, files) = list_folder(&dir);
    if folders.is_empty() && files.is_empty() {
        ui.label("(no boards or folders here)");
    }
    let name_of = |path: &Path| {
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    egui::ScrollArea::vertical()
        .id_salt(("open-folder", &dir))
        .max_height(300.0)
        .show(ui, |ui| {
            for folder in folders {
                let label = format!("{}{}", name_of(&folder), std::path::MAIN_SEPARATOR);
                if ui.button(label).clicked() {
                    windows.browsed = Some(folder);
                }
            }
            for path in files {
                if ui.button(name_of(&path)).clicked() {
                    commands.push(Command::Guarded(Pending::Open(path.clone())));
                }
            }
            // Room under the last entry, so that the window's resize edge never takes a click
            // meant for it.
            ui.add_space(8.0);
        });
}

/// The question asked before New, Open, Import or Quit would drop unsaved changes.
pub(super) fn unsaved_changes_ui(
    ctx: &egui::Context,
    pending: &Pending,
    commands: &mut Vec<Command>,
) {
    egui::Modal::new(egui::Id::unique("unsaved-changes")).show(ctx, |ui| {
        ui.heading("Unsaved changes");
        let what = match pending {
            Pending::Replace(..) => "starting a new board",
            Pending::Open(_) | Pending::OpenTrace { .. } => "opening another board",
            Pending::Import(_) => "importing a board",
            Pending::Quit => "quitting",
        };
        ui.label(format!(
            "The board has changes that are not saved. Save them before {what}?"
        ));
        ui.horizontal(|ui| {
            if ui.button("Save changes").clicked() {
                commands.push(Command::ResolvePending(Resolution::Save));
            }
            if ui.button("Discard changes").clicked() {
                commands.push(Command::ResolvePending(Resolution::Discard));
            }
            if ui.button("Keep editing").clicked() {
                commands.push(Command::ResolvePending(Resolution::Cancel));
            }
        });
    });
}

/// The question Save asks when the board's file changed on disk since it was opened or saved
/// here: another window or program wrote it, and saving would drop what it wrote.
pub(super) fn changed_on_disk_ui(ctx: &egui::Context, path: &Path, commands: &mut Vec<Command>) {
    egui::Modal::new(egui::Id::unique("changed-on-disk")).show(ctx, |ui| {
        ui.heading("Changed on disk");
        ui.label(format!(
            "{} was changed on disk since it was opened or saved here. Saving over it drops \
             those changes; reloading it drops the changes made here.",
            path.display()
        ));
        ui.horizontal(|ui| {
            let choices = [
                ("Reload from disk", DiskChoice::Reload),
                ("Overwrite", DiskChoice::Overwrite),
                ("Save as…", DiskChoice::SaveAs),
                ("Cancel", DiskChoice::Cancel),
            ];
            for (label, choice) in choices {
                if ui.button(label).clicked() {
                    commands.push(Command::ResolveChangedOnDisk(choice));
                }
            }
        });
    });
}

/// Writes a screenshot as an opaque RGBA PNG, saved atomically.
pub(super) fn write_png(image: &egui::ColorImage, path: &Path) -> anyhow::Result<()> {
    let [width, height] = image.size;
    let mut rgba = Vec::with_capacity(width * height * 4);
    for pixel in &image.pixels {
        let [r, g, b, _] = pixel.to_array();
        rgba.extend_from_slice(&[r, g, b, 255]);
    }
    let (Ok(width), Ok(height)) = (u32::try_from(width), u32::try_from(height)) else {
        anyhow::bail!("the screenshot is too large for a PNG");
    };
    let bytes = crate::print::png::encode_rgba(width, height, &rgba, None)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
    }
    crate::model::formats::save_bytes_atomic_with(
        path,
        &bytes,
        crate::model::formats::Overwrite::Allow,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_boards_are_found_and_listed() {
        let dir = boards_dir().expect("the source tree has boards/");
        let files = list_folder(&dir).1;
        assert!(files.iter().any(|p| p.ends_with("fogleman-22.ron")));
        let mut sorted = files.clone();
        sorted.sort();
        assert_eq!(files, sorted);
    }

    #[test]
    fn saving_without_an_extension_adds_the_formats() {
        assert_eq!(
            with_extension(PathBuf::from("a/b"), SaveKind::Cox),
            PathBuf::from("a/b.txt")
        );
        assert_eq!(
            with_extension(PathBuf::from("a/b.ron"), SaveKind::Native),
            PathBuf::from("a/b.ron")
        );
    }
}
