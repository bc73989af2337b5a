//! The app's settings file (`app.ron` in the app's data folder, in the layout eframe gave it),
//! checked before the window opens so that nothing in it can stop the app.
//!
//! The file holds egui's memory with the zoom factor, the window's place, and our
//! [`AppState`]; a zoom factor of 0 or NaN panics inside egui at every start, so the check
//! comes before anything uses them. What it does:
//! - only a regular file of a bounded size is read (a named pipe would hang the start, a link
//!   to `/dev/zero` would fill the memory);
//! - numbers out of range are put back in range (the zoom factor, our own limits and speeds);
//! - a window place or size off any screen is forgotten, so the window opens at its default;
//! - a file, or a part of it, that cannot be read is kept aside under another name, never
//!   overwritten, and the defaults are used, except for the app's settings and working board
//!   when they can still be read from it;
//! - each of these is said in one sentence for the status line.

use super::{AppState, STORAGE_KEY};
use crate::app::{APP_NAME, RicochetApp, StatusMessage};
use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

/// The key egui's memory (with the zoom factor) is stored under.
pub(super) const EGUI_KEY: &str = "egui";

/// The key the window's place and size are stored under.
pub(super) const WINDOW_KEY: &str = "window";

/// The largest settings file read. egui's memory of a long-used app takes tens of KiB and a
/// working board a few; anything this large is not the app's settings.
const MAX_SETTINGS_BYTES: u64 = 16 << 20;

/// The zoom factors egui's own zoom keys keep to.
const ZOOM_RANGE: RangeInclusive<f32> = 0.2..=5.0;

/// Farther from the desktop's origin than any screen reaches, in pixels or points: a stored
/// window place or size beyond it would put the window where no one can see it.
const FARTHEST: f64 = 100_000.0;

/// Where the app reads and writes its settings, when the system has a data folder.
pub(in crate::app) fn settings_file() -> Option<PathBuf> {
    eframe::storage_dir(APP_NAME).map(|dir| dir.join("app.ron"))
}

/// What the check of the settings file found and did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SettingsReport {
    /// One sentence for each thing put right, in the order they were found.
    notes: Vec<String>,
    /// Where the file as it was is kept, when some of it could not be read.
    kept_aside: Option<PathBuf>,
    /// The app's settings and working board, read from a file that could not be read whole.
    pub(super) recovered_state: Option<AppState>,
}

impl SettingsReport {
    /// Adds a sentence for the status line.
    pub(super) fn note(&mut self, sentence: String) {
        self.notes.push(sentence);
    }

    /// The notes as one line for the status bar, or `None` when all was well.
    pub(super) fn status_line(&self) -> Option<String> {
        (!self.notes.is_empty()).then(|| self.notes.join(" "))
    }
}

impl RicochetApp {
    /// Says in the status line what the check of the settings file put right, before
    /// anything else the app had to say on starting.
    pub fn report_settings(&mut self, report: &SettingsReport) {
        let Some(line) = report.status_line() else {
            return;
        };
        let text = match self.message.take() {
            Some(earlier) => format!("{line} {}", earlier.text),
            None => line,
        };
        self.message = Some(StatusMessage {
            text,
            error: true,
            about: None,
        });
    }
}

/// Checks the settings file at `path` and puts it right in place (see the module's doc). A
/// missing file is not a problem: the app starts with its defaults.
pub fn repair_settings_file(path: &Path) -> SettingsReport {
    read_settings(path).0
}

/// [`repair_settings_file`], returning also the file's entries as they are after the repair
/// (none when the file is missing or could not be read).
pub(super) fn read_settings(path: &Path) -> (SettingsReport, HashMap<String, String>) {
    let mut report = SettingsReport::default();
    let text = match read_bounded(path) {
        Ok(Some(text)) => text,
        Ok(None) => return (report, HashMap::new()),
        Err(Unread::NotAFile(what)) => {
            report.notes.push(format!(
                "The settings file {} is {what}, not a regular file; it was not read, the \
                 defaults are used, and settings are not saved over it.",
                path.display()
            ));
            return (report, HashMap::new());
        }
        Err(Unread::Failed(error)) => {
            set_aside(path, &error, &mut report);
            return (report, HashMap::new());
        }
    };
    let mut entries: HashMap<String, String> = match ron::from_str(&text) {
        Ok(entries) => entries,
        Err(error) => {
            report.recovered_state = recover_state(&text);
            set_aside(path, &error.to_string(), &mut report);
            return (report, HashMap::new());
        }
    };
    let mut unreadable = Vec::new();
    let mut changed = false;
    if let Some(value) = entries.get(STORAGE_KEY) {
        match ron::from_str::<AppState>(value) {
            Ok(state) => {
                let (state, notes) = state.clamped();
                if !notes.is_empty() {
                    report.notes.extend(notes);
                    changed |= replace(&mut entries, STORAGE_KEY, &state);
                }
            }
            Err(error) => {
                unreadable.push(format!("the app's settings ({error})"));
                entries.remove(STORAGE_KEY);
                changed = true;
            }
        }
    }
    if let Some(value) = entries.get(EGUI_KEY) {
        match ron::from_str::<egui::Memory>(value) {
            Ok(mut memory) => {
                let mut notes = Vec::new();
                let zoom = &mut memory.options.zoom_factor;
                if !ZOOM_RANGE.contains(zoom) {
                    // Any zoom out of range goes back to 1, not to the nearest bound: at the
                    // largest zoom the window shows a corner of the app and this very note
                    // falls off the screen, at the smallest text is too small to read.
                    notes.push(format!(
                        "The stored zoom factor ({zoom}) was out of range; it is 1 now."
                    ));
                    *zoom = 1.0;
                }
                if !notes.is_empty() {
                    report.notes.extend(notes);
                    changed |= replace(&mut entries, EGUI_KEY, &memory);
                }
            }
            Err(error) => {
                unreadable.push(format!("the layout memory ({error})"));
                entries.remove(EGUI_KEY);
                changed = true;
            }
        }
    }
    if let Some(value) = entries.get(WINDOW_KEY) {
        let on_screen = ron::from_str::<ron::Value>(value).is_ok_and(|v| window_fits(&v, None));
        if !on_screen {
            report.notes.push(
                "The stored window place or size was off any screen; the window opens at its \
                 default place."
                    .to_string(),
            );
            entries.remove(WINDOW_KEY);
            changed = true;
        }
    }
    if !unreadable.is_empty() {
        // The file is rewritten below, so the original is copied rather than renamed.
        match keep_copy(path) {
            Ok(aside) => {
                report.notes.push(format!(
                    "Part of the settings file could not be read ({}); the defaults are used, \
                     and the file as it was is kept as {}.",
                    unreadable.join("; "),
                    aside.display()
                ));
                report.kept_aside = Some(aside);
            }
            Err(error) => report.notes.push(format!(
                "Part of the settings file could not be read ({}), and it could not be kept \
                 aside ({error}); the defaults are used.",
                unreadable.join("; ")
            )),
        }
    }
    if changed && let Err(error) = write_atomically(path, &entries) {
        report.notes.push(format!(
            "The corrected settings could not be written to {} ({error}); they apply to this \
             run only.",
            path.display()
        ));
    }
    (report, entries)
}

/// Why a settings file was not read.
enum Unread {
    /// It is a pipe, a device, a directory or a socket (named in words).
    NotAFile(&'static str),
    /// It could not be read, or is too large or not text: what went wrong.
    Failed(String),
}

/// The settings file's text, `None` when there is no file. Only a regular file is opened,
/// and at most [`MAX_SETTINGS_BYTES`] of it are read.
fn read_bounded(path: &Path) -> Result<Option<String>, Unread> {
    use std::io::Read;
    // The metadata of what a link points to: a link to a device is refused like the device.
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(Unread::Failed(error.to_string())),
    };
    if !metadata.is_file() {
        return Err(Unread::NotAFile(crate::model::formats::file_kind(
            &metadata,
        )));
    }
    let mut bytes = Vec::new();
    // Opened so that a pipe put there since the look above is refused, not waited on.
    crate::model::formats::open_regular(path, std::fs::OpenOptions::new().read(true))
        .and_then(|file| file.take(MAX_SETTINGS_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|error| Unread::Failed(error.to_string()))?;
    if bytes.len() as u64 > MAX_SETTINGS_BYTES {
        return Err(Unread::Failed(format!(
            "it is larger than {} MiB, more than any settings take",
            MAX_SETTINGS_BYTES >> 20
        )));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|error| Unread::Failed(format!("it is not UTF-8 text ({error})")))
}

/// The app's settings and working board from a settings file that does not read as a whole
/// (cut short, or damaged after them): the text stored under the app's key, when that text
/// is whole and reads.
fn recover_state(text: &str) -> Option<AppState> {
    let key = ron::to_string(STORAGE_KEY).ok()?;
    text.match_indices(&key).find_map(|(at, _)| {
        let rest = text[at + key.len()..].trim_start().strip_prefix(':')?;
        let mut deserializer = ron::Deserializer::from_str(rest).ok()?;
        let value = <String as serde::Deserialize>::deserialize(&mut deserializer).ok()?;
        let state: AppState = ron::from_str(&value).ok()?;
        Some(state.clamped().0)
    })
}

/// Whether every number of a stored window place and size is one a screen can show: finite,
/// within [`FARTHEST`], and a scale factor above zero (positions are divided by it).
fn window_fits(value: &ron::Value, key: Option<&str>) -> bool {
    match value {
        ron::Value::Number(number) => {
            let number = number.into_f64();
            let in_reach = number.is_finite() && number.abs() <= FARTHEST;
            match key {
                Some("scale_factor") => in_reach && number > 0.0,
                _ => in_reach,
            }
        }
        ron::Value::Map(map) => map.iter().all(|(k, v)| {
            let name = match k {
                ron::Value::String(name) => Some(name.as_str()),
                _ => None,
            };
            window_fits(v, name)
        }),
        ron::Value::Option(Some(inner)) => window_fits(inner, key),
        ron::Value::Seq(items) => items.iter().all(|item| window_fits(item, key)),
        ron::Value::Bool(_)
        | ron::Value::Char(_)
        | ron::Value::Option(None)
        | ron::Value::String(_)
        | ron::Value::Bytes(_)
        | ron::Value::Unit => true,
    }
}

/// Stores `value` under `key` as eframe does (compact RON); returns whether it did.
fn replace<T: serde::Serialize>(
    entries: &mut HashMap<String, String>,
    key: &str,
    value: &T,
) -> bool {
    match ron::to_string(value) {
        Ok(text) => {
            entries.insert(key.to_string(), text);
            true
        }
        // A value that was just read always writes back; should it not, the old text stays
        // and eframe falls back to its defaults for that key.
        Err(_) => false,
    }
}

/// Renames an unreadable file aside and says so in the report.
fn set_aside(path: &Path, error: &str, report: &mut SettingsReport) {
    let aside = free_name_beside(path);
    match std::fs::rename(path, &aside) {
        Ok(()) => {
            let used = if report.recovered_state.is_some() {
                "the working board and the app's settings were recovered from it, the rest \
                 is at its defaults"
            } else {
                "the defaults are used"
            };
            report.notes.push(format!(
                "The settings file could not be read ({}); it was kept as {} and {used}.",
                crate::model::formats::quote_up_to(error, 160),
                aside.display()
            ));
            report.kept_aside = Some(aside);
        }
        Err(rename_error) => report.notes.push(format!(
            "The settings file {} could not be read ({error}) nor kept aside ({rename_error}); \
             the defaults are used.",
            path.display()
        )),
    }
}

/// Copies the file to a free name beside it and returns that name.
fn keep_copy(path: &Path) -> std::io::Result<PathBuf> {
    let aside = free_name_beside(path);
    std::fs::copy(path, &aside)?;
    Ok(aside)
}

/// `app.ron.unreadable`, or `app.ron.unreadable.2`, `.3`… when that name is taken, so that
/// an earlier file kept aside is never overwritten.
fn free_name_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "settings".to_string());
    let first = path.with_file_name(format!("{name}.unreadable"));
    if !first.exists() {
        return first;
    }
    (2u32..)
        .map(|n| path.with_file_name(format!("{name}.unreadable.{n}")))
        .find(|candidate| !candidate.exists())
        .unwrap_or(first)
}

/// Writes the entries as eframe does (pretty RON) through the program's atomic save (flushed
/// to disk before it replaces the old file), so that a failed write never leaves half a
/// settings file; a new file is for its owner alone.
fn write_atomically(path: &Path, entries: &HashMap<String, String>) -> std::io::Result<()> {
    // Sorted keys, so the same settings always give the same file.
    let sorted: std::collections::BTreeMap<&String, &String> = entries.iter().collect();
    let text = ron::ser::to_string_pretty(&sorted, ron::ser::PrettyConfig::default())
        .map_err(std::io::Error::other)?;
    crate::model::formats::save_private_atomic(path, &text).map_err(std::io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings_with(entries: &[(&str, String)]) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app.ron");
        let map: HashMap<String, String> = entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        std::fs::write(&path, ron::to_string(&map).unwrap()).unwrap();
        (dir, path)
    }

    fn stored<T: serde::de::DeserializeOwned>(path: &Path, key: &str) -> Option<T> {
        let text = std::fs::read_to_string(path).unwrap();
        let map: HashMap<String, String> = ron::from_str(&text).unwrap();
        map.get(key).map(|v| ron::from_str(v).unwrap())
    }

    fn memory_with_zoom(zoom: &str) -> String {
        let memory = ron::to_string(&egui::Memory::default()).unwrap();
        // Written as text, so that NaN goes in exactly as a hand-edited file has it.
        let at = memory.find("zoom_factor:").unwrap() + "zoom_factor:".len();
        let end = at + memory[at..].find([',', ')']).unwrap();
        format!("{}{zoom}{}", &memory[..at], &memory[end..])
    }

    #[test]
    fn zoom_factors_out_of_range_are_put_back_in_range() {
        for (zoom, expected) in [
            ("0.0", 1.0),
            ("-1.0", 1.0),
            ("0.05", 1.0),
            ("NaN", 1.0),
            ("1000.0", 1.0),
            ("1e6", 1.0),
        ] {
            let (_dir, path) = settings_with(&[(EGUI_KEY, memory_with_zoom(zoom))]);
            let report = repair_settings_file(&path);
            let memory: egui::Memory = stored(&path, EGUI_KEY).unwrap();
            assert_eq!(memory.options.zoom_factor, expected, "zoom {zoom}");
            assert!(
                report.status_line().unwrap().contains("zoom factor"),
                "{report:?}"
            );
            assert_eq!(report.kept_aside, None);
        }
    }

    #[test]
    fn a_zoom_factor_in_range_leaves_the_file_as_it_was() {
        let (_dir, path) = settings_with(&[(EGUI_KEY, memory_with_zoom("1.5"))]);
        let before = std::fs::read_to_string(&path).unwrap();
        assert_eq!(repair_settings_file(&path), SettingsReport::default());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
    }

    #[test]
    fn garbage_and_truncated_files_are_kept_aside_not_overwritten() {
        let (_dir, path) =
            settings_with(&[(STORAGE_KEY, ron::to_string(&AppState::default()).unwrap())]);
        let whole = std::fs::read_to_string(&path).unwrap();
        for (n, text) in ["\u{0}garbage{{", &whole[..whole.len() / 2]]
            .into_iter()
            .enumerate()
        {
            std::fs::write(&path, text).unwrap();
            let report = repair_settings_file(&path);
            let aside = report.kept_aside.clone().unwrap();
            assert!(!path.exists(), "the unreadable file is moved away");
            assert_eq!(std::fs::read_to_string(&aside).unwrap(), text);
            // The second file kept aside takes a new name beside the first.
            assert_eq!(aside.to_string_lossy().ends_with(".unreadable"), n == 0);
            assert!(report.status_line().unwrap().contains("could not be read"));
        }
    }

    #[test]
    fn wrongly_typed_app_settings_are_copied_aside_and_the_rest_kept() {
        let memory = memory_with_zoom("1.5");
        let (_dir, path) = settings_with(&[
            (STORAGE_KEY, "(mode: 42, solver: \"fast\")".to_string()),
            (EGUI_KEY, memory.clone()),
        ]);
        let original = std::fs::read_to_string(&path).unwrap();
        let report = repair_settings_file(&path);
        let aside = report.kept_aside.clone().unwrap();
        assert_eq!(std::fs::read_to_string(aside).unwrap(), original);
        assert!(stored::<AppState>(&path, STORAGE_KEY).is_none());
        let kept: egui::Memory = stored(&path, EGUI_KEY).unwrap();
        assert_eq!(kept.options.zoom_factor, 1.5);
        assert!(report.status_line().unwrap().contains("the app's settings"));
    }

    #[test]
    fn a_window_placed_off_every_screen_is_forgotten() {
        let far = "(normal_geometry: (outer_position_pixels: Some((x: 1e30, y: 10.0)), \
                   scale_factor: 1.0, inner_size_points: (x: 800.0, y: 600.0)), \
                   fullscreen: false, maximized: false)";
        let near = far.replace("1e30", "40.0");
        let (_dir, path) = settings_with(&[(WINDOW_KEY, far.to_string())]);
        let report = repair_settings_file(&path);
        assert!(stored::<ron::Value>(&path, WINDOW_KEY).is_none());
        assert!(report.status_line().unwrap().contains("window"));
        let (_dir, path) = settings_with(&[(WINDOW_KEY, near.clone())]);
        assert_eq!(repair_settings_file(&path), SettingsReport::default());
        let zero_scale = near.replace("scale_factor: 1.0", "scale_factor: 0.0");
        let (_dir, path) = settings_with(&[(WINDOW_KEY, zero_scale)]);
        assert!(!repair_settings_file(&path).notes.is_empty());
    }

    #[test]
    fn app_settings_out_of_range_are_clamped_and_noted() {
        let mut state = AppState::default();
        state.solver.playback_speed = f32::NAN;
        state.solver.time_limit_secs = -3.0;
        state.experiments.threads = 0;
        let (_dir, path) = settings_with(&[(STORAGE_KEY, ron::to_string(&state).unwrap())]);
        let report = repair_settings_file(&path);
        let fixed: AppState = stored(&path, STORAGE_KEY).unwrap();
        let defaults = AppState::default();
        assert_eq!(fixed.solver.playback_speed, defaults.solver.playback_speed);
        assert_eq!(fixed.solver.time_limit_secs, 0.1);
        assert_eq!(fixed.experiments.threads, 1);
        assert_eq!(report.notes.len(), 3, "{report:?}");
    }

    #[test]
    fn solvers_stored_by_name_still_load_and_a_name_no_solver_has_is_said() {
        use crate::solver::{SolverId, SolverPick};
        // The app's settings as earlier versions wrote them: each solver by its name.
        let old = |solver: &str| {
            format!(
                r#"(solver: (solver: "{solver}"), experiments: (solvers: ["fast", "bfs-py"], baseline: "iddfs"))"#
            )
        };
        let (_dir, path) = settings_with(&[(STORAGE_KEY, old("graph-v1"))]);
        assert_eq!(repair_settings_file(&path), SettingsReport::default());
        let (_dir, path) = settings_with(&[(STORAGE_KEY, old("bfs-py"))]);
        assert_eq!(repair_settings_file(&path), SettingsReport::default());
        let state: AppState = stored(&path, STORAGE_KEY).unwrap();
        let engine = SolverPick::from_name("bfs-py").unwrap();
        assert_eq!(state.solver.solver, engine);
        assert_eq!(
            state.experiments.solvers,
            [SolverPick::BuiltIn(SolverId::Fast), engine]
        );
        // A name no solver can have: the default, the rest kept, and the name said.
        let (_dir, path) = settings_with(&[(STORAGE_KEY, old("fast solver"))]);
        let report = repair_settings_file(&path);
        let line = report.status_line().unwrap();
        assert!(line.contains("'fast solver'"), "{line}");
        assert_eq!(report.kept_aside, None);
        let state: AppState = stored(&path, STORAGE_KEY).unwrap();
        assert_eq!(state.solver.solver, SolverPick::BuiltIn(SolverId::Iddfs));
        assert_eq!(state.experiments.solvers.len(), 2);
    }

    #[test]
    fn a_missing_file_is_no_problem() {
        let dir = tempfile::tempdir().unwrap();
        let report = repair_settings_file(&dir.path().join("app.ron"));
        assert_eq!(report, SettingsReport::default());
    }
}
