//! Starting the app: the window's options, the settings file checked before eframe reads it,
//! and the puzzle the program was started on.

use super::{APP_NAME, RicochetApp, WINDOW_SIZE};
use crate::app::files::settings_file;
use crate::app::shell::commands::{Command, Pending};

/// Opens the app window and runs it until it is closed, on `opening` when the program was
/// started on a puzzle (`ricochet-lab PUZZLE`), else on the stored working board.
pub fn run_native(opening: Option<Opening>) -> eframe::Result {
    // Checked before eframe reads it, since some stored values would stop the app.
    let report = settings_file::settings_file()
        .map(|path| settings_file::repair_settings_file(&path))
        .unwrap_or_default();
    eframe::run_native(
        APP_NAME,
        native_options(),
        Box::new(move |cc| {
            let mut app = RicochetApp::new(cc);
            app.report_settings(&report);
            if let Some(opening) = opening {
                app.apply_command(opening.command());
            }
            Ok(Box::new(app))
        }),
    )
}

/// A puzzle the program was started on, as a file manager's *Open with*, a desktop launcher
/// or a terminal passes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// A puzzle file (.ron, or .txt in Kevin Cox's format), opened as the Open command opens
    /// one: a file that cannot be read leaves the stored board and says why in the window.
    File(std::path::PathBuf),
    /// A game id (or a Cox board's text), imported as the Import window imports one.
    Text(String),
}

impl Opening {
    /// The command that opens it, asking first when the stored board has unsaved edits.
    pub fn command(self) -> Command {
        Command::Guarded(match self {
            Opening::File(path) => Pending::Open(path),
            Opening::Text(text) => Pending::Import(text),
        })
    }
}

/// The window options.
pub fn native_options() -> eframe::NativeOptions {
    eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(APP_NAME)
            .with_inner_size(WINDOW_SIZE)
            .with_min_inner_size([720.0, 520.0]),
        ..Default::default()
    }
}
