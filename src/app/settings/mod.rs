//! What the app keeps between runs: the working board (as native RON text), the file it came
//! from, and every room's settings. Everything else (threads, results, history) is rebuilt.
//!
//! The settings file is checked before the window opens ([`mod@file`]), read and saved by
//! [`store`], and `AppState::clamped` puts our own numbers back in the ranges the panels
//! allow. This room sits above the rooms whose settings it holds.

pub mod file;
pub mod store;

use crate::app::debugger::DebugSettings;
use crate::app::document::mode::Mode;
use crate::app::document::state::{FileStamp, SolverSettings, ViewSettings, keep_in};
use crate::app::editing::editor::EditorSettings;
use crate::app::experiments::ExperimentSettings;
use crate::app::overlays::OverlaySettings;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The key the state is stored under in eframe's storage.
pub(in crate::app) const STORAGE_KEY: &str = "ricochet-lab";

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
    pub debug: DebugSettings,
    /// Which overlay layers are on.
    pub overlays: OverlaySettings,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{SolverId, SolverPick};

    #[test]
    fn state_round_trips_through_ron_and_old_states_load() {
        let state = AppState {
            board: Some("(format: 1)".into()),
            file: Some(PathBuf::from("boards/x.ron")),
            file_stamp: Some(FileStamp {
                len: 812,
                modified: Some(std::time::UNIX_EPOCH + std::time::Duration::new(1_790_000_000, 7)),
                identity: Some((2049, 131)),
                hash: Some(0xdead_beef),
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
