//! The Experiments window's inputs, kept between runs.

use crate::solver::{Optimality, SolverId, SolverPick};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

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
    pub(in crate::app) fn keep_solvers_understood(&mut self, notes: &mut Vec<String>) {
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
