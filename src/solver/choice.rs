//! A solver as a user chooses it: a built-in solver, or an external engine.
//!
//! Everywhere a solver is chosen (the command line's `--solver`, the studies, the worker),
//! a [`SolverChoice`] is accepted, and [`solver::run`](super::run) runs either kind through
//! the same path: the same limits, probe calls, replay check and [`Report`](super::Report).

use super::engine::{EngineSpec, SharedSpec};
use super::{Columns, Optimality, SolveError, SolverId, SolverRef};
use std::fmt;
use std::sync::Arc;

/// A built-in solver or an external engine.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SolverChoice {
    /// A solver compiled into this program.
    BuiltIn(SolverId),
    /// A program that speaks the engine protocol (`docs/engine-protocol.md`), started for
    /// each run.
    Engine(SharedSpec),
}

impl SolverChoice {
    /// An external engine.
    pub fn engine(spec: EngineSpec) -> SolverChoice {
        SolverChoice::Engine(Arc::new(spec))
    }

    /// The name shown in tables and reports: a built-in solver's command-line name, an
    /// engine's registered name (or its command, for one given on the command line).
    pub fn name(&self) -> &str {
        match self {
            SolverChoice::BuiltIn(id) => id.name(),
            SolverChoice::Engine(spec) => &spec.name,
        }
    }

    /// The built-in solver, if this is one.
    pub fn built_in(&self) -> Option<SolverId> {
        match self {
            SolverChoice::BuiltIn(id) => Some(*id),
            SolverChoice::Engine(_) => None,
        }
    }

    /// Whether this is an external engine.
    pub fn is_engine(&self) -> bool {
        matches!(self, SolverChoice::Engine(_))
    }

    /// Whether its answers are known to be shortest: a built-in solver's registry says so;
    /// an engine's claim (`id optimal=yes`) is known only once it runs, so it counts as not
    /// guaranteed here.
    pub fn optimality(&self) -> Optimality {
        match self {
            SolverChoice::BuiltIn(id) => id.kind().optimality,
            SolverChoice::Engine(_) => Optimality::NotGuaranteed,
        }
    }

    /// The columns of its per-depth table. An engine's rows count nodes (and, when it names
    /// them so, `inner` and `hits`); its other counters are extra columns.
    pub fn columns(&self) -> Columns {
        match self {
            SolverChoice::BuiltIn(id) => id.kind().columns,
            SolverChoice::Engine(_) => ENGINE_COLUMNS,
        }
    }
}

/// The columns of an engine's rows.
pub const ENGINE_COLUMNS: Columns = Columns {
    depth: "Depth",
    nodes: "Nodes",
    inner: "inner",
    hits: "hits",
};

impl From<SolverId> for SolverChoice {
    fn from(id: SolverId) -> SolverChoice {
        SolverChoice::BuiltIn(id)
    }
}

impl fmt::Display for SolverChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl SolverRef for SolverChoice {
    fn solver_id(&self) -> Result<SolverId, SolveError> {
        self.built_in()
            .ok_or_else(|| SolveError::UnknownSolver(self.name().to_string()))
    }

    fn choice(&self) -> Result<SolverChoice, SolveError> {
        Ok(self.clone())
    }
}

impl SolverRef for &SolverChoice {
    fn solver_id(&self) -> Result<SolverId, SolveError> {
        (*self).solver_id()
    }

    fn choice(&self) -> Result<SolverChoice, SolveError> {
        Ok((*self).clone())
    }
}
