//! What the app keeps between runs: the working board (as native RON text), the file it came
//! from, and the user's settings. Everything else (threads, results, history) is rebuilt.
//!
//! The settings file is checked before the window opens ([`crate::app::files::settings_file`]), and
//! `AppState::clamped` puts our own numbers back in the ranges the panels allow.

pub use crate::app::document::mode::Mode;
use crate::app::editing::editor::EditorSettings;
use crate::solver::{Optimality, SolverId, SolverPick};
use serde::{Deserialize, Serialize};
use std::fmt::Display;
use std::ops::RangeInclusive;
use std::path::PathBuf;

/// The key the state is stored under in eframe's storage.
pub(in crate::app) const STORAGE_KEY: &str = "ricochet-lab";

/// What tells one version of a file on disk from another: its length and the time it was
/// last written (to the nanosecond where the system keeps it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    /// The file's length in bytes.
    pub len: u64,
    /// When it was last written, where the system says.
    pub modified: Option<std::time::SystemTime>,
}

impl FileStamp {
    /// The stamp of the file at `path` now, or `None` when there is no file.
    pub fn of(path: &std::path::Path) -> Option<FileStamp> {
        let metadata = std::fs::metadata(path).ok()?;
        Some(FileStamp {
            len: metadata.len(),
            modified: metadata.modified().ok(),
        })
    }
}

/// The persisted state. Every field has a default, so a state written by an older version
/// (or a damaged one) still loads.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct AppState {
    /// The working board in the native RON layout (it may be an unfinished design).
    pub board: Option<String>,
    /// The board as it was last opened or saved, to know whether there are unsaved changes.
    pub saved_board: Option<String>,
    /// The file the board was opened from or saved to.
    pub file: Option<PathBuf>,
    /// That file as it was on disk when it was last opened or saved here, so that a change
    /// made to it while the app was closed is noticed at the next start.
    pub file_stamp: Option<FileStamp>,
    /// The name the board was made or imported with, when it has no file.
    pub board_name: Option<String>,
    /// Editing or playing.
    pub mode: Mode,
    /// The editor's tool and the options of its generators.
    pub editor: EditorSettings,
    /// The solver panel's choices.
    pub solver: SolverSettings,
    /// What the board shows and how the app looks.
    pub view: ViewSettings,
    /// Whether to use the system's file dialogs (when the system has them).
    pub native_dialogs: bool,
    /// The Experiments window's inputs.
    pub experiments: ExperimentSettings,
    /// The debugger's choices.
    pub debug: crate::app::debugger::DebugSettings,
    /// Which overlay layers are on.
    pub overlays: crate::app::overlays::OverlaySettings,
    /// The folder of the last puzzle opened, where Open starts (the shipped boards before any).
    pub open_folder: Option<PathBuf>,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            board: None,
            saved_board: None,
            file: None,
            file_stamp: None,
            board_name: None,
            mode: Mode::Edit,
            editor: EditorSettings::default(),
            solver: SolverSettings::default(),
            view: ViewSettings::default(),
            native_dialogs: true,
            experiments: ExperimentSettings::default(),
            debug: Default::default(),
            overlays: Default::default(),
            open_folder: None,
        }
    }
}

impl AppState {
    /// The state with every number the panels bound put back in their range, and every
    /// solver named as no solver can be replaced, with one sentence for each (a hand-edited
    /// or damaged file may hold NaN, a negative limit, no threads at all, or a solver's name
    /// with a space in it).
    pub(in crate::app) fn clamped(mut self) -> (AppState, Vec<String>) {
        let mut notes = Vec::new();
        let n = &mut notes;
        self.solver.keep_solvers_understood(n);
        self.experiments.keep_solvers_understood(n);
        let solver = &mut self.solver;
        let defaults = SolverSettings::default();
        keep_in(
            &mut solver.depth_limit,
            1..=255,
            defaults.depth_limit,
            "depth limit",
            n,
        );
        keep_in(
            &mut solver.time_limit_secs,
            0.1..=86_400.0,
            defaults.time_limit_secs,
            "time limit",
            n,
        );
        keep_in(
            &mut solver.memory_limit_mib,
            16..=1_048_576,
            defaults.memory_limit_mib,
            "memory limit",
            n,
        );
        keep_in(
            &mut solver.playback_speed,
            0.5..=20.0,
            defaults.playback_speed,
            "playback speed",
            n,
        );
        let debug = &mut self.debug;
        keep_in(&mut debug.speed, 1.0..=100_000.0, 20.0, "debugger speed", n);
        keep_in(&mut debug.break_depth, 0..=255, 3, "breakpoint depth", n);
        keep_in(&mut debug.break_x, 0..=63, 0, "breakpoint column", n);
        keep_in(&mut debug.break_y, 0..=63, 0, "breakpoint row", n);
        let experiments = &mut self.experiments;
        let defaults = ExperimentSettings::default();
        keep_in(
            &mut experiments.configs,
            1..=1_000_000,
            defaults.configs,
            "number of configurations",
            n,
        );
        keep_in(
            &mut experiments.robots,
            1..=5,
            defaults.robots,
            "number of robots",
            n,
        );
        keep_in(
            &mut experiments.threads,
            1..=64,
            defaults.threads,
            "number of threads",
            n,
        );
        keep_in(
            &mut experiments.time_limit_secs,
            0.01..=3600.0,
            defaults.time_limit_secs,
            "experiment time limit",
            n,
        );
        keep_in(
            &mut experiments.memory_limit_mib,
            16..=1_048_576,
            defaults.memory_limit_mib,
            "experiment memory limit",
            n,
        );
        keep_in(&mut self.editor.robot_count, 1..=5, 4, "robot count", n);
        keep_in(
            &mut self.overlays.exact_depth,
            1..=30,
            crate::solver::analysis::distances::DEFAULT_MAX_DEPTH,
            "distance map depth",
            n,
        );
        (self, notes)
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
    fn keep_solvers_understood(&mut self, notes: &mut Vec<String>) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_round_trips_through_ron_and_old_states_load() {
        let state = AppState {
            board: Some("(format: 1)".into()),
            file: Some(PathBuf::from("boards/x.ron")),
            file_stamp: Some(FileStamp {
                len: 812,
                modified: Some(std::time::UNIX_EPOCH + std::time::Duration::new(1_790_000_000, 7)),
            }),
            mode: Mode::Play,
            ..AppState::default()
        };
        let text = ron::to_string(&state).unwrap();
        assert_eq!(ron::from_str::<AppState>(&text).unwrap(), state);
        // A state from before a field existed still loads, with that field's default.
        let old: AppState = ron::from_str("(mode: Play)").unwrap();
        assert_eq!(old.mode, Mode::Play);
        assert_eq!(old.solver, SolverSettings::default());
    }

    #[test]
    fn solvers_stored_by_name_load_as_built_in_solvers_and_engines() {
        // As every version so far has written them: names in strings.
        let text = r#"(solver: (solver: "bfs-py", depth_limit: 12),
            experiments: (solvers: ["graph-v2", "bfs-py", "astar-manhattan"], baseline: "bfs"))"#;
        let (state, notes) = ron::from_str::<AppState>(text).unwrap().clamped();
        assert_eq!(notes, Vec::<String>::new());
        let engine = SolverPick::from_name("bfs-py").unwrap();
        assert!(matches!(engine, SolverPick::Engine(_)));
        assert_eq!(state.solver.solver, engine);
        assert_eq!(state.solver.depth_limit, 12);
        assert_eq!(
            state.experiments.solvers,
            [
                SolverPick::BuiltIn(SolverId::GraphV2),
                engine,
                SolverPick::BuiltIn(SolverId::AstarManhattan)
            ]
        );
        assert_eq!(
            state.experiments.baseline,
            SolverPick::BuiltIn(SolverId::Bfs)
        );
        // And they are written back the same way.
        let again = ron::to_string(&state).unwrap();
        assert!(again.contains(r#"solver:"bfs-py""#), "{again}");
        assert!(again.contains(r#"baseline:"bfs""#), "{again}");
    }

    #[test]
    fn a_stored_solver_no_solver_can_be_gives_the_default_and_a_note_naming_it() {
        let text = r#"(solver: (solver: "no such/solver"),
            experiments: (solvers: ["bfs", "two words"], baseline: "stateless"))"#;
        let (state, notes) = ron::from_str::<AppState>(text).unwrap().clamped();
        let defaults = AppState::default();
        assert_eq!(state.solver.solver, defaults.solver.solver);
        assert_eq!(
            state.experiments.solvers,
            [SolverPick::BuiltIn(SolverId::Bfs)]
        );
        assert_eq!(state.experiments.baseline, defaults.experiments.baseline);
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].contains("'no such/solver'"), "{notes:?}");
        assert!(notes[1].contains("'two words'"), "{notes:?}");
        assert!(notes[2].contains("'stateless'"), "{notes:?}");
    }
}

/// The Experiments window's inputs (the options of `ricochet-lab experiment`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct ExperimentSettings {
    /// Deal configurations on the current board rather than on standard random boards.
    pub fixed_board: bool,
    /// Number of configurations.
    pub configs: u64,
    /// The experiment's seed.
    pub seed: u64,
    /// Robots per configuration.
    pub robots: usize,
    /// The solvers to compare: built-in ones in registry order, then registered engines.
    pub solvers: Vec<SolverPick>,
    /// The optimal built-in solver whose move count is the required number of moves.
    pub baseline: SolverPick,
    /// Per-run time limit in seconds.
    pub time_limit_secs: f64,
    /// Per-run memory limit in MiB.
    pub memory_limit_mib: u64,
    /// Worker threads.
    pub threads: usize,
    /// The CSV rows are appended to as they finish.
    pub out_path: String,
    /// A previous results file to compare with.
    pub compare_path: String,
    /// Where Export CSV and Export PNG write (the extension is set by the button).
    pub export_path: String,
}

impl Default for ExperimentSettings {
    fn default() -> Self {
        ExperimentSettings {
            fixed_board: false,
            configs: 200,
            seed: 1,
            robots: 4,
            solvers: SolverId::ALL.into_iter().map(SolverPick::BuiltIn).collect(),
            baseline: SolverPick::BuiltIn(SolverId::Iddfs),
            // The thesis' limit per run.
            time_limit_secs: 40.0,
            memory_limit_mib: 2048,
            threads: 1,
            // In the user's folder rather than wherever the program was started from.
            out_path: in_user_folder("experiment.csv"),
            compare_path: String::new(),
            export_path: in_user_folder("experiment-export"),
        }
    }
}

impl ExperimentSettings {
    /// Leaves out compared solvers whose names no solver can have, and replaces a baseline
    /// that is not a built-in optimal solver by the default, with a note naming each.
    fn keep_solvers_understood(&mut self, notes: &mut Vec<String>) {
        self.solvers.retain(|pick| {
            let understood = pick.is_well_formed();
            if !understood {
                notes.push(format!(
                    "The stored experiment solver '{pick}' is neither a built-in solver nor a \
                     name an engine can have; it is left out."
                ));
            }
            understood
        });
        let optimal = self
            .baseline
            .built_in()
            .is_some_and(|id| id.kind().optimality == Optimality::Guaranteed);
        if !optimal {
            let default = ExperimentSettings::default().baseline;
            notes.push(format!(
                "The stored baseline '{}' is not a built-in optimal solver; {default} is the \
                 baseline now.",
                self.baseline
            ));
            self.baseline = default;
        }
    }
}

/// A file name in the user's folder ([`crate::app::files::user_folder`]), as text for a path field;
/// the bare name when the system has no such folder.
fn in_user_folder(name: &str) -> String {
    crate::app::files::user_folder()
        .map(|dir| dir.join(name))
        .unwrap_or_else(|| PathBuf::from(name))
        .display()
        .to_string()
}
