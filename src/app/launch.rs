//! Starting the app: the window's options, the settings file read and checked before the
//! window opens, and the puzzle the program was started on.

use super::{APP_NAME, RicochetApp, WINDOW_SIZE};
use crate::app::command::{Command, Pending};
use crate::app::settings::{file as settings_file, store as settings_store};

/// Why the app ended with an error.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The window could not be opened or drawn.
    #[error("the window could not be opened: {0}")]
    Window(#[from] eframe::Error),
    /// The app ran, but its settings could not be saved when it closed (the settings file
    /// is the one before, whole).
    #[error("{0}")]
    SettingsNotSaved(String),
}

/// Opens the app window and runs it until it is closed, on `opening` when the program was
/// started on a puzzle (`ricochet-lab PUZZLE`), else on the stored working board.
///
/// The settings file is read and checked before the window opens, and saved by the app itself
/// through the atomic save; eframe's own storage is not used.
///
/// The window draws with OpenGL, and with wgpu when no OpenGL context can be made (or when
/// `RICOCHET_LAB_RENDERER=wgpu` asks for it).
pub fn run_native(opening: Option<Opening>) -> Result<(), RunError> {
    let path = settings_file::settings_file();
    let stored = path
        .as_deref()
        .map(settings_store::load_settings)
        .unwrap_or_default();
    let mut failure = None;
    let mut run = |options: eframe::NativeOptions| {
        let (stored, opening) = (stored.clone(), opening.clone());
        let saver = path
            .clone()
            .map(|path| settings_store::SettingsSaver::new(path, stored.window));
        failure = saver.as_ref().map(settings_store::SettingsSaver::failure);
        eframe::run_native(
            APP_NAME,
            options,
            Box::new(move |cc| {
                let mut app = match saver {
                    Some(saver) => RicochetApp::restored(cc, stored, saver),
                    None => {
                        let mut app = RicochetApp::with_state(cc.egui_ctx.clone(), stored.state);
                        app.report_settings(&stored.report);
                        app
                    }
                };
                if let Some(opening) = opening {
                    app.apply_command(opening.command());
                }
                Ok(Box::new(app))
            }),
        )
    };
    let options = stored_window_options(&stored);
    let result = match run(options.clone()) {
        // These come from making the OpenGL context, before the app is made: nothing has
        // been shown or changed yet.
        Err(
            error @ (eframe::Error::Glutin(_)
            | eframe::Error::NoGlutinConfigs(..)
            | eframe::Error::OpenGL(_)),
        ) => {
            eprintln!("OpenGL could not draw the window ({error}); trying wgpu");
            run(eframe::NativeOptions {
                renderer: eframe::Renderer::Wgpu,
                ..options
            })
        }
        result => result,
    };
    result?;
    let failure = failure.and_then(|failure| {
        let mut failure = failure.lock().unwrap_or_else(|e| e.into_inner());
        failure.take()
    });
    match failure {
        Some(message) => Err(RunError::SettingsNotSaved(message)),
        None => Ok(()),
    }
}

/// The window's options with the stored place and size.
fn stored_window_options(stored: &settings_store::StoredSettings) -> eframe::NativeOptions {
    let mut options = native_options();
    if let Some(place) = &stored.window {
        options.viewport = place.apply(options.viewport, stored.zoom());
    }
    options
}

/// The environment variable that picks the renderer: `wgpu` or `glow` (OpenGL, the default).
const RENDERER_VARIABLE: &str = "RICOCHET_LAB_RENDERER";

/// The renderer [`RENDERER_VARIABLE`] names, or OpenGL. Under a software renderer (Mesa's
/// llvmpipe, as on a machine without a GPU or a remote desktop) OpenGL draws a frame of the
/// whole window with about a quarter of the processor time wgpu's Vulkan path takes (41 ms
/// against 188 ms at 1360x900 on two cores), time a running solver would otherwise lose.
fn chosen_renderer() -> eframe::Renderer {
    match std::env::var(RENDERER_VARIABLE).as_deref() {
        Ok("wgpu") => eframe::Renderer::Wgpu,
        _ => eframe::Renderer::Glow,
    }
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
            .with_min_inner_size(settings_store::MIN_WINDOW_SIZE),
        renderer: chosen_renderer(),
        // The app keeps its settings and the window's place itself (see `run_native`).
        persist_window: false,
        persistence_path: Some(settings_store::inert_eframe_storage()),
        ..Default::default()
    }
}
