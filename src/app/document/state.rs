//! The settings that name no room: the solver panel's choices, what the board shows, the
//! stamp that tells one version of a file from another, and the clamp every stored number
//! goes through. The whole persisted state, which holds every room's settings, is
//! `crate::app::settings::AppState`.

use crate::solver::{SolverId, SolverPick};
use serde::{Deserialize, Serialize};
use std::fmt::Display;
use std::ops::RangeInclusive;

/// What tells one version of a file on disk from another: its length and the time it was
/// last written (to the nanosecond where the system keeps it), the file's identity (device and
/// inode: a file replaced by another under its name) and a hash of its bytes (an edit of the
/// same length by a tool that keeps the time, such as `cp -p`, `rsync -t` or `touch -r`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    /// The file's length in bytes.
    pub len: u64,
    /// When it was last written, where the system says.
    pub modified: Option<std::time::SystemTime>,
    /// The file's device and inode, where the system has them.
    #[serde(default)]
    pub identity: Option<(u64, u64)>,
    /// A CRC-32 of its bytes (absent in stamps kept by earlier versions).
    #[serde(default)]
    pub hash: Option<u32>,
}

/// The most bytes of a file hashed for its stamp: far more than any board takes.
const MAX_HASHED_BYTES: u64 = 64 << 20;

impl FileStamp {
    /// The stamp of the file at `path` now, or `None` when there is no file. Only a regular
    /// file is read, never waited on.
    pub fn of(path: &std::path::Path) -> Option<FileStamp> {
        use std::io::Read;
        let metadata = std::fs::metadata(path).ok()?;
        let mut bytes = Vec::new();
        let hash =
            crate::model::formats::open_regular(path, std::fs::OpenOptions::new().read(true))
                .and_then(|file| file.take(MAX_HASHED_BYTES).read_to_end(&mut bytes))
                .ok()
                .map(|_| crc32fast::hash(&bytes));
        Some(FileStamp {
            len: metadata.len(),
            modified: metadata.modified().ok(),
            identity: identity(&metadata),
            hash,
        })
    }

    /// Whether `now` is another version of the file than this stamp: any part both stamps
    /// know differs (a stamp kept by an earlier version knows no identity or hash).
    pub fn differs_from(&self, now: &FileStamp) -> bool {
        fn known_differ<T: PartialEq>(a: Option<T>, b: Option<T>) -> bool {
            matches!((a, b), (Some(a), Some(b)) if a != b)
        }
        self.len != now.len
            || self.modified != now.modified
            || known_differ(self.identity, now.identity)
            || known_differ(self.hash, now.hash)
    }
}

/// A file's device and inode.
#[cfg(unix)]
fn identity(metadata: &std::fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn identity(_metadata: &std::fs::Metadata) -> Option<(u64, u64)> {
    None
}

#[cfg(test)]
mod stamp_tests {
    use super::FileStamp;

    #[test]
    fn an_edit_of_the_same_length_with_the_time_kept_is_noticed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("board.ron");
        std::fs::write(&path, "(format: 1, a)").unwrap();
        let before = FileStamp::of(&path).unwrap();
        let time = std::fs::metadata(&path).unwrap().modified().unwrap();
        // Rewritten in place, same length, its time set back as `cp -p` or `touch -r` do.
        std::fs::write(&path, "(format: 1, b)").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(time)
            .unwrap();
        let now = FileStamp::of(&path).unwrap();
        assert_eq!((before.len, before.modified), (now.len, now.modified));
        assert!(before.differs_from(&now));
        // A file put in its place by a rename, same bytes and time: another identity.
        let other = dir.path().join("other.ron");
        std::fs::copy(&path, &other).unwrap();
        std::fs::File::options()
            .write(true)
            .open(&other)
            .unwrap()
            .set_modified(time)
            .unwrap();
        std::fs::rename(&other, &path).unwrap();
        assert!(now.differs_from(&FileStamp::of(&path).unwrap()));
        assert!(!now.differs_from(&now));
    }
}

/// The solver panel's choices.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct SolverSettings {
    /// The chosen solver: a built-in one, or a registered engine (kept when the engine is
    /// removed, and then shown as not registered, with Solve disabled).
    pub solver: SolverPick,
    /// Whether the depth limit applies (for solvers that take one).
    pub use_depth_limit: bool,
    /// The depth limit.
    pub depth_limit: u32,
    /// Whether the time limit applies.
    pub use_time_limit: bool,
    /// The time limit in seconds.
    pub time_limit_secs: f64,
    /// Whether the memory limit applies.
    pub(in crate::app) use_memory_limit: bool,
    /// The memory limit in MiB.
    pub(in crate::app) memory_limit_mib: u64,
    /// Solution playback speed in moves per second.
    pub(in crate::app) playback_speed: f32,
}

impl Default for SolverSettings {
    fn default() -> Self {
        SolverSettings {
            solver: SolverPick::BuiltIn(SolverId::Iddfs),
            use_depth_limit: false,
            depth_limit: 30,
            use_time_limit: false,
            time_limit_secs: 60.0,
            use_memory_limit: true,
            memory_limit_mib: 4096,
            playback_speed: 2.0,
        }
    }
}

impl SolverSettings {
    /// Replaces a chosen solver whose name no solver can have by the default, with a note
    /// naming it. A well-formed engine name stays, registered or not: the panel says when it
    /// is not, and nothing runs in its place.
    pub(in crate::app) fn keep_solvers_understood(&mut self, notes: &mut Vec<String>) {
        if !self.solver.is_well_formed() {
            let default = SolverSettings::default().solver;
            notes.push(format!(
                "The stored solver '{}' is neither a built-in solver nor a name an engine can \
                 have; {default} is chosen now.",
                self.solver
            ));
            self.solver = default;
        }
    }
}

/// The look of the app and the board's overlays.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct ViewSettings {
    /// Light, dark or the system's choice.
    pub(in crate::app) theme: ThemeChoice,
    /// Column and row numbers on the board.
    pub(in crate::app) coordinates: bool,
    /// The trails of moves made in play mode.
    pub(in crate::app) trails: bool,
    /// The plots panel.
    pub(in crate::app) plots: bool,
    /// The editor's live optimum: a background solve after every edit.
    pub(in crate::app) live_optimum: bool,
    /// Play mode's hot/cold line after every move.
    pub(in crate::app) hot_cold: bool,
    /// The robots' colours: the game's, or a palette safe for colour vision deficiencies.
    pub(in crate::app) robot_palette: crate::print::colors::RobotPalette,
}

impl Default for ViewSettings {
    fn default() -> Self {
        ViewSettings {
            theme: ThemeChoice::System,
            coordinates: true,
            trails: true,
            plots: true,
            live_optimum: true,
            hot_cold: true,
            robot_palette: crate::print::colors::RobotPalette::Classic,
        }
    }
}

/// Which look to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(in crate::app) enum ThemeChoice {
    /// Follow the system.
    #[default]
    System,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl ThemeChoice {
    /// egui's preference for this choice.
    pub(in crate::app) fn preference(self) -> egui::ThemePreference {
        match self {
            ThemeChoice::System => egui::ThemePreference::System,
            ThemeChoice::Light => egui::ThemePreference::Light,
            ThemeChoice::Dark => egui::ThemePreference::Dark,
        }
    }
}

/// Puts `value` back in `range` with a note naming `what`: below the range it becomes the
/// start, above it the end, and a value that compares with neither (NaN) becomes `fallback`.
pub(in crate::app) fn keep_in<T: PartialOrd + Copy + Display>(
    value: &mut T,
    range: RangeInclusive<T>,
    fallback: T,
    what: &str,
    notes: &mut Vec<String>,
) {
    if range.contains(value) {
        return;
    }
    let fixed = if *value < *range.start() {
        *range.start()
    } else if *value > *range.end() {
        *range.end()
    } else {
        fallback
    };
    notes.push(format!(
        "The stored {what} ({value}) was out of range; it is {fixed} now."
    ));
    *value = fixed;
}
