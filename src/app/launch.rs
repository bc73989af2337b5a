//! Starting the app: the window's options, the settings file checked before eframe reads it,
//! and the puzzle the program was started on.

use super::{APP_NAME, RicochetApp, WINDOW_SIZE};
use crate::app::files::settings_file;
use crate::app::shell::commands::{Command, Pending};

/// Opens the app window and runs it until it is closed, on `opening` when the program was
/// started on a puzzle (`ricochet-lab PUZZLE`), else on the stored working board.
///
/// The window draws with OpenGL, and with wgpu when no OpenGL context can be made (or when
/// `RICOCHET_LAB_RENDERER=wgpu` asks for it).
pub fn run_native(opening: Option<Opening>) -> eframe::Result {
    // Checked before eframe reads it, since some stored values would stop the app.
    let report = settings_file::settings_file()
        .map(|path| settings_file::repair_settings_file(&path))
        .unwrap_or_default();
    let run = |options: eframe::NativeOptions| {
        let (report, opening) = (report.clone(), opening.clone());
        eframe::run_native(
            APP_NAME,
            options,
            Box::new(move |cc| {
                let mut app = RicochetApp::new(cc);
                app.report_settings(&report);
                if let Some(opening) = opening {
                    app.apply_command(opening.command());
                }
                Ok(Box::new(app))
            }),
        )
    };
    match run(native_options()) {
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
                ..native_options()
            })
        }
        result => result,
    }
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
            .with_min_inner_size([720.0, 520.0]),
        renderer: chosen_renderer(),
        ..Default::default()
    }
}
