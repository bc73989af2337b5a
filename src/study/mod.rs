//! Studies: solvers run in bulk rather than one at a time.
//!
//! - [`experiment`]: the thesis' study of every solver over thousands of seeded game
//!   configurations, streamed to CSV and summarised in its tables;
//! - [`bench`](mod@bench): times solvers on a fixed suite so two commits can be compared on one
//!   machine;
//! - [`accuracy`]: how often a solver finds the optimum, by optimal move count;
//! - [`engine_check`]: an external engine's answers and behaviour against the built-in solvers;
//! - [`analyze`]: how hard a board is, over every target and many seeded robot deals;
//! - [`generate`]: positions whose optimum has exactly a chosen number of moves;
//! - [`held_file`]: the lock a run holds on the results file it appends to.
//!
//! They share the baseline check ([`optimal_baseline`]) and one way of writing times and sizes
//! ([`format`](mod@format)) and of summing them up ([`statistics`]).

pub mod accuracy;
pub mod analyze;
pub mod bench;
pub mod engine_check;
pub mod experiment;
pub mod format;
pub mod generate;
pub mod held_file;
pub mod matches;
pub mod statistics;

use crate::solver::{self, Optimality, SolveError, SolverKind};

/// Why a solver cannot be a study's baseline.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BaselineError {
    /// No solver has that name.
    #[error(transparent)]
    Unknown(#[from] SolveError),
    /// The solver may return answers longer than the optimum.
    #[error("the baseline '{0}' does not guarantee optimal answers; choose an optimal solver")]
    NotOptimal(String),
}

/// `count` out of `of` as a share, 0..=1 (0 when there is nothing to count): hit rates and
/// the like.
pub fn share(count: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        count as f64 / of as f64
    }
}

/// The solver a study measures others against: it must exist and guarantee optimal answers,
/// since its move count is taken as the required number of moves.
pub fn optimal_baseline(name: &str) -> Result<&'static SolverKind, BaselineError> {
    let kind = solver::kind(name).ok_or_else(|| SolveError::UnknownSolver(name.to_string()))?;
    if kind.optimality != Optimality::Guaranteed {
        return Err(BaselineError::NotOptimal(name.to_string()));
    }
    Ok(kind)
}
