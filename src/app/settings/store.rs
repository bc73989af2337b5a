//! The app keeps its own settings file: read once before the window opens, written through
//! the program's one atomic save (a temporary file beside it, flushed to disk, then renamed
//! over it), so that a kill, a full disk or a file-size limit during a save leaves the old
//! file whole. eframe's own storage writes its file in place (truncate, then write), which
//! left an empty or cut file that the next start had to set aside; the app does not use it.
//!
//! The file keeps eframe's layout (a map of RON texts under the keys `ricochet-lab`, `egui`
//! and `window`), so the settings an earlier version wrote still load.

use super::file::{self as settings_file, EGUI_KEY, SettingsReport, WINDOW_KEY};
use super::{AppState, STORAGE_KEY};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the settings are saved while the app runs (and once more when it closes), so
/// that a crash or a kill loses at most this much.
pub const AUTOSAVE_INTERVAL: Duration = Duration::from_secs(30);

/// The smallest window the app opens, in points; a stored size below it is not used.
pub const MIN_WINDOW_SIZE: [f32; 2] = [720.0, 520.0];

/// The window's size and place on the desktop, in eframe's layout.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WindowPlace {
    /// Where the window is and how large when it is neither maximised nor full screen.
    pub normal_geometry: WindowGeometry,
    /// Whether it covers the screen.
    #[serde(default)]
    pub fullscreen: bool,
    /// Whether it is maximised.
    #[serde(default)]
    pub maximized: bool,
}

/// A window's place and size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WindowGeometry {
    /// The top left corner of the window's frame, in physical pixels (when the system tells).
    #[serde(default)]
    pub outer_position_pixels: Option<egui::Pos2>,
    /// Physical pixels per logical pixel when it was stored.
    pub scale_factor: f32,
    /// The size of the window's inside, in points (logical pixels over the zoom factor).
    pub inner_size_points: egui::Vec2,
}

impl WindowPlace {
    /// The window's place as the viewport reports it, or `None` while the system has not told
    /// its size. A maximised or full-screen window keeps `earlier`'s normal geometry, so that
    /// it comes back to that size when it is restored.
    pub fn of_viewport(
        viewport: &egui::ViewportInfo,
        zoom: f32,
        earlier: Option<WindowPlace>,
    ) -> Option<WindowPlace> {
        let maximized = viewport.maximized.unwrap_or(false);
        let fullscreen = viewport.fullscreen.unwrap_or(false);
        if viewport.minimized == Some(true) {
            return earlier;
        }
        let normal_geometry = match earlier {
            Some(earlier) if maximized || fullscreen => earlier.normal_geometry,
            _ => {
                let inner = viewport.inner_rect?;
                let scale_factor = viewport.native_pixels_per_point.unwrap_or(1.0);
                WindowGeometry {
                    outer_position_pixels: viewport
                        .outer_rect
                        .map(|outer| (outer.min.to_vec2() * scale_factor * zoom).to_pos2()),
                    scale_factor,
                    inner_size_points: inner.size(),
                }
            }
        };
        Some(WindowPlace {
            normal_geometry,
            fullscreen,
            maximized,
        })
    }

    /// The size of the window's inside in logical pixels at `zoom`, or `None` when it is not
    /// a size a window can have (zero, negative, not a number, or below the app's smallest).
    pub fn logical_size(&self, zoom: f32) -> Option<egui::Vec2> {
        let size = self.normal_geometry.inner_size_points * zoom;
        let usable = size.x.is_finite()
            && size.y.is_finite()
            && size.x >= MIN_WINDOW_SIZE[0]
            && size.y >= MIN_WINDOW_SIZE[1];
        usable.then_some(size)
    }

    /// The window's options with this place and size; a size the window cannot have is left
    /// at the options' own.
    pub fn apply(&self, viewport: egui::ViewportBuilder, zoom: f32) -> egui::ViewportBuilder {
        let mut viewport = viewport
            .with_maximized(self.maximized)
            .with_fullscreen(self.fullscreen);
        if let Some(size) = self.logical_size(zoom) {
            viewport = viewport.with_inner_size(size);
        }
        let geometry = &self.normal_geometry;
        if let Some(pixels) = geometry.outer_position_pixels
            && geometry.scale_factor > 0.0
        {
            // The window is made at zoom 1 (the stored zoom is set once the app exists), so
            // its position is given in logical pixels.
            viewport = viewport.with_position(pixels / geometry.scale_factor);
        }
        viewport
    }
}

/// Everything the settings file holds, checked and put in range.
#[derive(Clone, Debug, Default)]
pub struct StoredSettings {
    /// The app's settings and working board (the defaults when none could be read).
    pub state: AppState,
    /// egui's memory (the zoom factor, the windows' places inside the app).
    pub memory: Option<egui::Memory>,
    /// The window's place and size.
    pub window: Option<WindowPlace>,
    /// What the check of the file put right, for the status line.
    pub report: SettingsReport,
}

impl StoredSettings {
    /// The zoom factor the stored memory sets.
    pub fn zoom(&self) -> f32 {
        self.memory.as_ref().map_or(1.0, |m| m.options.zoom_factor)
    }
}

/// Reads the settings file at `path` after checking and repairing it (see
/// [`settings_file::repair_settings_file`]); a missing file gives the defaults.
pub fn load_settings(path: &Path) -> StoredSettings {
    let (mut report, entries) = settings_file::read_settings(path);
    let mut stored = StoredSettings::default();
    if let Some(text) = entries.get(STORAGE_KEY) {
        // The check above read and put this in range already; a failure here cannot happen.
        stored.state = ron::from_str(text).unwrap_or_default();
    }
    if let Some(text) = entries.get(EGUI_KEY) {
        stored.memory = ron::from_str(text).ok();
    }
    if let Some(text) = entries.get(WINDOW_KEY) {
        match ron::from_str::<WindowPlace>(text) {
            Ok(place) => stored.window = Some(place),
            Err(error) => report.note(format!(
                "The stored window place could not be read ({}); the window opens at its \
                 default place.",
                crate::model::formats::quote_up_to(&error.to_string(), 120)
            )),
        }
    }
    if let Some(place) = &stored.window
        && place.logical_size(stored.zoom()).is_none()
    {
        let size = place.normal_geometry.inner_size_points;
        report.note(format!(
            "The stored window size ({}x{}) is too small for a window; it opens at its \
             default size.",
            size.x, size.y
        ));
    }
    if let Some(recovered) = report.recovered_state.take() {
        stored.state = recovered;
    }
    stored.report = report;
    stored
}

/// The settings file's text: the app's state first, so that a file cut short by something
/// other than this program still holds the working board.
pub fn settings_text(
    state: &AppState,
    memory: Option<&egui::Memory>,
    window: Option<&WindowPlace>,
) -> Result<String, ron::Error> {
    let mut entries = vec![(STORAGE_KEY, ron::to_string(state)?)];
    if let Some(memory) = memory {
        entries.push((EGUI_KEY, ron::to_string(memory)?));
    }
    if let Some(window) = window {
        entries.push((WINDOW_KEY, ron::to_string(window)?));
    }
    let mut text = String::from("{\n");
    for (key, value) in entries {
        text.push_str(&format!(
            "    {}: {},\n",
            ron::to_string(key)?,
            ron::to_string(&value)?
        ));
    }
    text.push_str("}\n");
    Ok(text)
}

/// Saves the app's settings to its file now and then and when it closes.
#[derive(Debug)]
pub struct SettingsSaver {
    /// The settings file.
    path: PathBuf,
    /// The text last written (or read), so that unchanged settings are not written again.
    last_text: Option<String>,
    /// When the settings were last saved.
    last_save: Instant,
    /// The window's place as last seen.
    window: Option<WindowPlace>,
    /// The last save's failure, shared with whoever started the app so that a failure at
    /// closing time is said after the window has gone.
    failure: Arc<Mutex<Option<String>>>,
}

impl SettingsSaver {
    /// A saver for the file at `path`, which was read with `stored`'s window place.
    pub fn new(path: PathBuf, window: Option<WindowPlace>) -> SettingsSaver {
        SettingsSaver {
            path,
            last_text: None,
            last_save: Instant::now(),
            window,
            failure: Arc::new(Mutex::new(None)),
        }
    }

    /// The settings file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Where the last save's failure is kept (`None` after a save that worked).
    pub fn failure(&self) -> Arc<Mutex<Option<String>>> {
        Arc::clone(&self.failure)
    }

    /// Notes the window's place as the viewport reports it now.
    pub fn follow_window(&mut self, viewport: &egui::ViewportInfo, zoom: f32) {
        self.window = WindowPlace::of_viewport(viewport, zoom, self.window).or(self.window);
    }

    /// Whether an autosave is due at `now`.
    pub fn due(&self, now: Instant) -> bool {
        now.duration_since(self.last_save) >= AUTOSAVE_INTERVAL
    }

    /// Writes the settings when they changed since the last save; says what went wrong when
    /// the file could not be written (the file on disk is then the one before, whole).
    pub fn save(
        &mut self,
        state: &AppState,
        memory: &egui::Memory,
    ) -> Result<(), SettingsSaveError> {
        self.last_save = Instant::now();
        let result = self.write(state, memory);
        let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        *failure = result.as_ref().err().map(ToString::to_string);
        result
    }

    fn write(&mut self, state: &AppState, memory: &egui::Memory) -> Result<(), SettingsSaveError> {
        let text = settings_text(state, Some(memory), self.window.as_ref()).map_err(|error| {
            SettingsSaveError::Encode {
                reason: error.to_string(),
                path: self.path.clone(),
            }
        })?;
        if self.last_text.as_ref() == Some(&text) {
            return Ok(());
        }
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|error| SettingsSaveError::Folder {
                folder: dir.to_path_buf(),
                reason: error.to_string(),
            })?;
        }
        crate::model::formats::save_private_atomic(&self.path, &text).map_err(|error| {
            SettingsSaveError::Save {
                reason: error.to_string(),
                path: self.path.clone(),
            }
        })?;
        self.last_text = Some(text);
        Ok(())
    }
}

/// Why the settings could not be saved; the file on disk is then the one before, whole.
/// The reasons are kept as text so that the failure can be shared with whoever started the
/// app.
#[derive(Clone, Debug, thiserror::Error)]
pub enum SettingsSaveError {
    /// The settings could not be written out as text.
    #[error("the settings could not be written out ({reason}); {} was left as it was", path.display())]
    Encode {
        /// Why.
        reason: String,
        /// The settings file.
        path: PathBuf,
    },
    /// The settings folder could not be made.
    #[error("the settings folder {} could not be made: {reason}", folder.display())]
    Folder {
        /// The folder.
        folder: PathBuf,
        /// Why.
        reason: String,
    },
    /// The file could not be saved.
    #[error("the settings could not be saved ({reason}); {} was left as it was", path.display())]
    Save {
        /// Why.
        reason: String,
        /// The settings file.
        path: PathBuf,
    },
}

/// The path eframe is given for its own storage: the null device, which reads as empty, so
/// that eframe neither reads the app's settings file (it would read a named pipe or a device
/// without bound) nor writes one (the app never stores anything through it).
pub fn inert_eframe_storage() -> PathBuf {
    if cfg!(windows) {
        PathBuf::from("NUL")
    } else {
        PathBuf::from("/dev/null")
    }
}

impl crate::app::RicochetApp {
    /// Builds the app from the settings read from its file, and keeps them there from then
    /// on (every [`AUTOSAVE_INTERVAL`] and when the app closes).
    pub fn restored(
        cc: &eframe::CreationContext<'_>,
        stored: StoredSettings,
        saver: SettingsSaver,
    ) -> crate::app::RicochetApp {
        if let Some(memory) = stored.memory {
            cc.egui_ctx.memory_mut(|m| *m = memory);
        }
        let mut app = crate::app::RicochetApp::with_state(cc.egui_ctx.clone(), stored.state);
        app.report_settings(&stored.report);
        app.settings = Some(saver);
        app
    }

    /// Follows the window's place and saves the settings when an autosave is due.
    pub(in crate::app) fn keep_settings(&mut self, ctx: &egui::Context) {
        let Some(saver) = &mut self.settings else {
            return;
        };
        let zoom = ctx.zoom_factor();
        ctx.input(|input| saver.follow_window(input.viewport(), zoom));
        if saver.due(Instant::now()) {
            self.save_settings_now();
        }
        // An idle window draws no frames: one is asked for when the next save is due, so that
        // changes made just before the app went idle are saved then too.
        ctx.request_repaint_after(AUTOSAVE_INTERVAL);
    }

    /// Saves the settings now (when the app keeps them), saying in the status line when they
    /// could not be saved.
    pub(in crate::app) fn save_settings_now(&mut self) {
        if !self.presentation.persist {
            return;
        }
        let state = self.persisted_state();
        let memory = self.ctx.memory(|memory| memory.clone());
        let Some(saver) = &mut self.settings else {
            return;
        };
        if let Err(error) = saver.save(&state, &memory) {
            self.error(crate::app::capital(&error.to_string()));
        }
    }

    /// The settings file the app saves to, when it keeps its settings.
    pub fn settings_path(&self) -> Option<&Path> {
        self.settings.as_ref().map(SettingsSaver::path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    fn state_with_board() -> AppState {
        let puzzle = crate::model::samples::fogleman_22();
        AppState {
            board: Some(crate::model::formats::native::write(&puzzle)),
            board_name: Some("kept".to_string()),
            ..AppState::default()
        }
    }

    // eframe's storage truncated the file and wrote it in place: a second name for the same
    // file (a hard link) saw the half-written text. A save that renames a new file over the
    // old one leaves the other name on the old text, whole.
    #[cfg(unix)]
    #[test]
    fn a_save_replaces_the_file_whole_instead_of_writing_into_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app.ron");
        std::fs::write(&path, "old settings").unwrap();
        let other_name = dir.path().join("other-name");
        std::fs::hard_link(&path, &other_name).unwrap();
        let mut saver = SettingsSaver::new(path.clone(), None);
        saver
            .save(&state_with_board(), &egui::Memory::default())
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(&other_name).unwrap(),
            "old settings"
        );
        let stored = load_settings(&path);
        assert_eq!(stored.state.board_name.as_deref(), Some("kept"));
        assert_eq!(stored.report, SettingsReport::default());
        assert_eq!(names(dir.path()), ["app.ron", "other-name"]);
    }

    // The zoom (Ctrl+plus and Ctrl+minus set egui's zoom factor) and the robot palette are
    // kept between runs: what one run saves, the next reads.
    #[test]
    fn the_zoom_and_the_robot_colours_are_kept_between_runs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app.ron");
        let mut memory = egui::Memory::default();
        memory.options.zoom_factor = 1.5;
        let mut state = AppState::default();
        state.view.robot_palette = crate::print::colors::RobotPalette::OkabeIto;
        SettingsSaver::new(path.clone(), None)
            .save(&state, &memory)
            .unwrap();
        let stored = load_settings(&path);
        assert_eq!(stored.zoom(), 1.5);
        assert_eq!(
            stored.state.view.robot_palette,
            crate::print::colors::RobotPalette::OkabeIto
        );
    }

    #[test]
    fn a_failed_save_says_why_and_is_kept_for_the_end() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("not-a-folder");
        std::fs::write(&blocker, "").unwrap();
        let mut saver = SettingsSaver::new(blocker.join("app.ron"), None);
        let failure = saver.failure();
        let error = saver
            .save(&AppState::default(), &egui::Memory::default())
            .unwrap_err();
        assert!(matches!(error, SettingsSaveError::Folder { .. }), "{error}");
        let error = error.to_string();
        assert!(error.contains("not-a-folder"), "{error}");
        assert_eq!(failure.lock().unwrap().as_deref(), Some(error.as_str()));
    }

    // A file cut short (by a writer other than this program's atomic save) once lost the
    // working board with everything else.
    #[test]
    fn a_cut_settings_file_still_gives_the_working_board() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app.ron");
        let state = state_with_board();
        let text = settings_text(&state, Some(&egui::Memory::default()), None).unwrap();
        let cut = &text[..text.len() - 40];
        std::fs::write(&path, cut).unwrap();
        let stored = load_settings(&path);
        assert_eq!(stored.state.board, state.board);
        let line = stored.report.status_line().unwrap();
        assert!(line.contains("recovered"), "{line}");
        assert!(!path.exists(), "the damaged file is set aside");
        assert_eq!(names(dir.path()), ["app.ron.unreadable"]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn pipes_and_devices_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("app.ron");
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `name` is a NUL-terminated path that lives through the call.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let stored = load_settings(&fifo);
        let line = stored.report.status_line().unwrap();
        assert!(line.contains("named pipe"), "{line}");
        let link = dir.path().join("zero.ron");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let line = load_settings(&link).report.status_line().unwrap();
        assert!(line.contains("a device"), "{line}");
        assert!(link.exists(), "the link is left alone");
    }

    #[test]
    fn a_degenerate_window_size_falls_back_to_the_default() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app.ron");
        let tiny = WindowPlace {
            normal_geometry: WindowGeometry {
                outer_position_pixels: None,
                scale_factor: 1.0,
                inner_size_points: egui::vec2(0.0, 0.0),
            },
            fullscreen: false,
            maximized: false,
        };
        let text = settings_text(&AppState::default(), None, Some(&tiny)).unwrap();
        std::fs::write(&path, text).unwrap();
        let stored = load_settings(&path);
        let line = stored.report.status_line().unwrap();
        assert!(line.contains("too small"), "{line}");
        let builder = egui::ViewportBuilder::default().with_inner_size([1360.0, 900.0]);
        let applied = stored.window.unwrap().apply(builder, 1.0);
        assert_eq!(applied.inner_size, Some(egui::vec2(1360.0, 900.0)));
    }

    #[test]
    fn the_window_place_comes_back_as_it_was_left() {
        let viewport = egui::ViewportInfo {
            native_pixels_per_point: Some(2.0),
            inner_rect: Some(egui::Rect::from_min_size(
                egui::pos2(60.0, 90.0),
                egui::vec2(500.0, 400.0),
            )),
            outer_rect: Some(egui::Rect::from_min_size(
                egui::pos2(50.0, 60.0),
                egui::vec2(510.0, 430.0),
            )),
            ..Default::default()
        };
        // At zoom 2 a point is two logical pixels: the window's inside is 1000x800 of them.
        let place = WindowPlace::of_viewport(&viewport, 2.0, None).unwrap();
        let builder = place.apply(egui::ViewportBuilder::default(), 2.0);
        assert_eq!(builder.inner_size, Some(egui::vec2(1000.0, 800.0)));
        assert_eq!(builder.position, Some(egui::pos2(100.0, 120.0)));
        // Maximised, it keeps the size it had before, to come back to.
        let maximized = egui::ViewportInfo {
            maximized: Some(true),
            ..viewport
        };
        let kept = WindowPlace::of_viewport(&maximized, 2.0, Some(place)).unwrap();
        assert_eq!(kept.normal_geometry, place.normal_geometry);
        assert!(kept.maximized);
    }

    // A stored working board with a two-byte character before a colon made the app panic at
    // every start.
    #[test]
    fn a_stored_board_that_does_not_read_is_said_not_fatal() {
        let board = include_str!("../../../boards/small-6x6.ron").replace(
            "rules: (ricochet: false, no_rebound: false),",
            "rules: (ricochet: false, \u{e9}:,),",
        );
        let state = AppState {
            board: Some(board),
            ..AppState::default()
        };
        let app = crate::app::RicochetApp::with_state(egui::Context::default(), state);
        let line = app.status_message().unwrap();
        assert!(line.contains("could not be read"), "{line}");
    }
}
