//! Saving and exporting the board, saving and opening traces, and the question Save asks
//! when the board's file changed on disk.

use super::apply::SaveResult;
use crate::app::command::{DiskChoice, Pending, SaveKind};
use crate::app::document::display_name;
use crate::app::document::draft::Draft;
use crate::app::document::state::FileStamp;
use crate::app::{RicochetApp, files};
use crate::app::{debugger, shell};
use crate::model::formats;
use std::path::Path;

impl RicochetApp {
    /// Notes the board's file as it is on disk now, after it was opened or saved here.
    pub(in crate::app) fn remember_disk_state(&mut self) {
        self.windows.disk_stamp = self
            .doc
            .file()
            .and_then(|path| FileStamp::of(path).map(|stamp| (path.to_path_buf(), stamp)));
    }

    /// At start: takes the stamp the settings kept for the board's file as the one it was
    /// opened or saved with, so a change made while the app was closed counts as a change
    /// (Save asks) and is said at once. Without a kept stamp the file is taken as it is now.
    pub(in crate::app) fn restore_disk_state(&mut self, kept: Option<FileStamp>) {
        let Some((path, kept)) = self.doc.file().zip(kept) else {
            self.remember_disk_state();
            return;
        };
        self.windows.disk_stamp = Some((path.to_path_buf(), kept));
        if self.file_changed_on_disk() {
            self.error(format!(
                "{} was changed on disk while the app was closed; Save will ask before \
                 replacing it, and File > Open reloads it.",
                self.doc.name()
            ));
        }
    }

    /// The stamp of the board's file as it was last opened or saved here, for the settings.
    pub(in crate::app) fn kept_disk_stamp(&self) -> Option<FileStamp> {
        let path = self.doc.file()?;
        self.windows
            .disk_stamp
            .as_ref()
            .filter(|(noted, _)| noted == path)
            .map(|(_, stamp)| *stamp)
    }

    /// Whether the board's file was written by someone else since it was opened or saved
    /// here (for a board restored from the settings, as the settings kept it): a file that
    /// has gone is not (saving makes it again).
    pub(in crate::app) fn file_changed_on_disk(&self) -> bool {
        let Some(path) = self.doc.file() else {
            return false;
        };
        match (&self.windows.disk_stamp, FileStamp::of(path)) {
            (Some((noted, before)), Some(now)) if noted == path => before.differs_from(&now),
            _ => false,
        }
    }

    /// When the window regains the focus, says so if the board's file changed on disk
    /// meanwhile (Save will ask before replacing it).
    pub(in crate::app) fn notice_changes_on_disk(&mut self, ctx: &egui::Context) {
        let focused = ctx.input(|input| {
            input
                .events
                .iter()
                .any(|event| matches!(event, egui::Event::WindowFocused(true)))
        });
        if focused && self.windows.changed_on_disk.is_none() && self.file_changed_on_disk() {
            self.error(format!(
                "{} was changed on disk since it was opened or saved here; Save will ask \
                 before replacing it, and File > Open reloads it.",
                self.doc.name()
            ));
        }
    }

    pub(in crate::app) fn use_native_dialogs(&self) -> bool {
        self.state.native_dialogs
            && self.presentation.native_dialogs
            && files::native_dialogs_available()
    }

    /// Acts on the answer to the question Save asked about a file changed on disk.
    pub(super) fn resolve_changed_on_disk(&mut self, choice: DiskChoice) {
        let Some(path) = self.windows.changed_on_disk.take() else {
            return;
        };
        match choice {
            DiskChoice::Reload => self.perform(Pending::Open(path)),
            DiskChoice::Overwrite => {
                let _ = self.save_to(&path, SaveKind::Native);
            }
            DiskChoice::SaveAs => {
                let _ = self.save_as(SaveKind::Native);
            }
            DiskChoice::Cancel => self.note(format!(
                "Not saved: {} was changed on disk.",
                display_name(&path)
            )),
        }
    }

    pub(in crate::app) fn save(&mut self) -> SaveResult {
        match self.doc.file().map(Path::to_path_buf) {
            Some(path) if formats::Format::of_path(&path) == Some(formats::Format::Native) => {
                // Another window or program wrote the file since it was opened or saved here:
                // saving over it would drop that without a word, so the user chooses.
                if self.file_changed_on_disk() {
                    self.windows.changed_on_disk = Some(path);
                    return SaveResult::Asked;
                }
                if self.save_to(&path, SaveKind::Native) {
                    SaveResult::Saved
                } else {
                    SaveResult::Failed
                }
            }
            _ => self.save_as(SaveKind::Native),
        }
    }

    pub(in crate::app) fn save_as(&mut self, kind: SaveKind) -> SaveResult {
        let proposal = files::save_as_proposal(self.doc.file(), self.boards.as_deref(), kind);
        if self.use_native_dialogs() {
            let name = proposal
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match files::pick_save_file(kind, proposal.parent(), &name) {
                Some(path) => {
                    if self.save_to(&path, kind) {
                        SaveResult::Saved
                    } else {
                        SaveResult::Failed
                    }
                }
                None => SaveResult::Asked,
            }
        } else {
            self.windows.path = proposal.display().to_string();
            self.windows.save = Some(kind);
            SaveResult::Asked
        }
    }

    /// Saves (or exports) atomically; returns whether it worked.
    pub(in crate::app) fn save_to(&mut self, path: &Path, kind: SaveKind) -> bool {
        if kind == SaveKind::Trace {
            return self.save_trace(path);
        }
        let puzzle = match self.doc.validity() {
            Ok(puzzle) => puzzle.clone(),
            Err(error) => {
                let error = error.to_string();
                self.error(format!("Cannot save this board yet: {error}"));
                return false;
            }
        };
        if kind == SaveKind::Image {
            return self.export_image(&puzzle, path);
        }
        match formats::save_puzzle(&puzzle, path) {
            Ok(()) => {
                if kind == SaveKind::Native {
                    self.doc.saved_to(path);
                    self.remember_disk_state();
                    self.note(format!("Saved {}", display_name(path)));
                } else {
                    self.note(format!("Exported {}", display_name(path)));
                }
                true
            }
            Err(error) => {
                self.error(format!("Could not save: {error}"));
                false
            }
        }
    }

    /// Copies the debugged run's trace to `path` (through a temporary file renamed over it,
    /// so a copy cut off never replaces a file); returns whether it worked.
    fn save_trace(&mut self, path: &Path) -> bool {
        let Some(debugger) = self.derived.debugger(self.doc.revision()) else {
            self.error("There is no debugged run whose trace to save.".to_string());
            return false;
        };
        let source = debugger.trace_path();
        match crate::solver::trace::copy_trace(&source, path) {
            Ok(bytes) => {
                self.note(format!(
                    "Saved the search trace {} ({} bytes)",
                    display_name(path),
                    crate::app::widgets::format_count(bytes)
                ));
                true
            }
            Err(error) => {
                self.error(format!("Could not save the trace: {error}"));
                false
            }
        }
    }

    /// Opens a trace file in the debugger, with its puzzle on the board, and shows the
    /// debugger's tab; says whether it opened.
    pub(super) fn open_trace(&mut self, path: &Path) -> bool {
        match crate::solver::trace::TraceReader::open(path) {
            Ok(reader) => {
                let name = display_name(path);
                let events = reader.events();
                let solver = reader.header().solver.clone();
                let puzzle = reader.puzzle().clone();
                self.set_document(
                    Draft::from_puzzle(&puzzle),
                    None,
                    Some(name.clone()),
                    &format!(
                        "Opened the trace {name}: {} events of {solver}",
                        crate::app::widgets::format_count(events)
                    ),
                );
                let debugger = debugger::Debugger::from_trace(reader);
                self.derived.set_debugger(self.doc.revision(), debugger);
                self.windows.open = false;
                // The trace is what the user asked to see: its first event, not the Run tab.
                self.shell.dock = shell::DockTab::Debugger;
                true
            }
            Err(error) => {
                self.error(format!("Could not open the trace: {error}"));
                false
            }
        }
    }

    /// Draws the board for print and writes it atomically, as SVG or, for a `.png` name,
    /// PNG at 300 dpi; returns whether it worked.
    fn export_image(&mut self, puzzle: &crate::model::Puzzle, path: &Path) -> bool {
        use crate::print::{self, ImageFormat, PrintOptions};
        let Some(format) = ImageFormat::from_path(path) else {
            self.error(format!(
                "Could not export {}: the name must end in .svg or .png",
                display_name(path)
            ));
            return false;
        };
        let written = print::image(
            puzzle,
            PrintOptions::default(),
            format,
            print::png::DEFAULT_DPI,
        )
        .map_err(|error| error.to_string())
        .and_then(|bytes| {
            formats::save_bytes_atomic_with(path, &bytes, formats::Overwrite::Allow)
                .map_err(|error| error.to_string())
        });
        match written {
            Ok(()) => {
                self.note(format!(
                    "Exported {} ({:.0} mm across)",
                    display_name(path),
                    print::DEFAULT_SIZE_MM
                ));
                true
            }
            Err(error) => {
                self.error(format!("Could not export: {error}"));
                false
            }
        }
    }
}
