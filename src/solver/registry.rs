//! The registry: every solver as a [`SolverId`], its registry entry and its dispatch.
//!
//! Adding a solver means adding a variant here; the two `match`es below are exhaustive, so a
//! variant without an entry or a dispatch arm does not compile.

use super::probe::Probe;
use super::{
    Search, SearchEnd, SolveError, SolverKind, SolverOptions, astar, bfs, dls, fast, graph_solver,
    idastar, iddfs, stateless,
};
use crate::model::Puzzle;

/// A registered solver. Its serde and command-line spelling is its command-line name
/// (`iddfs`, `astar-manhattan`, `graph-v1`, ...), which tools outside the project rely on.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    clap::ValueEnum,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
#[value(rename_all = "kebab-case")]
pub enum SolverId {
    /// Breadth-first search.
    Bfs,
    /// Iterative deepening with a transposition table and lower bounds (the deck's solver).
    Iddfs,
    /// The tuned optimal solver.
    Fast,
    /// A* with the minimum-move table.
    Astar,
    /// A* with the Manhattan distance.
    AstarManhattan,
    /// A* with the row/column heuristic.
    AstarRowcol,
    /// IDA*.
    Idastar,
    /// Depth-limited search.
    Dls,
    /// The slide-graph solver, first version.
    GraphV1,
    /// The slide-graph solver, second version.
    GraphV2,
    /// Stateless search.
    Stateless,
}

impl SolverId {
    /// Every solver, in the order they are listed to users.
    pub const ALL: [SolverId; 11] = [
        SolverId::Bfs,
        SolverId::Iddfs,
        SolverId::Fast,
        SolverId::Astar,
        SolverId::AstarManhattan,
        SolverId::AstarRowcol,
        SolverId::Idastar,
        SolverId::Dls,
        SolverId::GraphV1,
        SolverId::GraphV2,
        SolverId::Stateless,
    ];

    /// The solver's registry entry: names, description, optimality, rule support, columns.
    pub const fn kind(self) -> &'static SolverKind {
        match self {
            SolverId::Bfs => &bfs::KIND,
            SolverId::Iddfs => &iddfs::KIND,
            SolverId::Fast => &fast::KIND,
            SolverId::Astar => &astar::KIND,
            SolverId::AstarManhattan => &astar::MANHATTAN_KIND,
            SolverId::AstarRowcol => &astar::ROW_COLUMN_KIND,
            SolverId::Idastar => &idastar::KIND,
            SolverId::Dls => &dls::KIND,
            SolverId::GraphV1 => &graph_solver::V1_KIND,
            SolverId::GraphV2 => &graph_solver::V2_KIND,
            SolverId::Stateless => &stateless::KIND,
        }
    }

    /// The command-line name.
    pub const fn name(self) -> &'static str {
        self.kind().name
    }

    /// The solver with this command-line name.
    pub fn from_name(name: &str) -> Option<SolverId> {
        SolverId::ALL.into_iter().find(|id| id.name() == name)
    }

    /// Runs the solver's search; the caller has checked the rules and replays the answer.
    pub(super) fn search<P: Probe>(
        self,
        puzzle: &Puzzle,
        options: &SolverOptions,
        search: &mut Search<'_, P>,
    ) -> SearchEnd {
        match self {
            SolverId::Bfs => bfs::solve(puzzle, search),
            SolverId::Iddfs => iddfs::solve(puzzle, options, search),
            SolverId::Fast => fast::solve(puzzle, options, search),
            SolverId::Astar => astar::solve(puzzle, astar::Heuristic::MinMoves, search),
            SolverId::AstarManhattan => astar::solve(puzzle, astar::Heuristic::Manhattan, search),
            SolverId::AstarRowcol => astar::solve(puzzle, astar::Heuristic::RowColumn, search),
            SolverId::Idastar => idastar::solve(puzzle, search),
            SolverId::Dls => dls::solve(puzzle, options, search),
            SolverId::GraphV1 => graph_solver::solve(puzzle, graph_solver::Version::V1, search),
            SolverId::GraphV2 => graph_solver::solve(puzzle, graph_solver::Version::V2, search),
            SolverId::Stateless => stateless::solve(puzzle, search),
        }
    }
}

impl std::fmt::Display for SolverId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for SolverId {
    type Err = SolveError;

    fn from_str(name: &str) -> Result<SolverId, SolveError> {
        SolverId::from_name(name).ok_or_else(|| SolveError::UnknownSolver(name.to_string()))
    }
}

/// A solver as callers name it: a [`SolverId`], or its command-line name (checked when the run
/// starts).
pub trait SolverRef {
    /// The solver, or why there is none by that name.
    fn solver_id(&self) -> Result<SolverId, SolveError>;
}

impl SolverRef for SolverId {
    fn solver_id(&self) -> Result<SolverId, SolveError> {
        Ok(*self)
    }
}

impl SolverRef for &SolverId {
    fn solver_id(&self) -> Result<SolverId, SolveError> {
        Ok(**self)
    }
}

impl SolverRef for &str {
    fn solver_id(&self) -> Result<SolverId, SolveError> {
        self.parse()
    }
}

impl SolverRef for &String {
    fn solver_id(&self) -> Result<SolverId, SolveError> {
        self.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    #[test]
    fn every_spelling_of_a_solver_is_its_command_line_name() {
        for id in SolverId::ALL {
            let name = id.name();
            assert_eq!(SolverId::from_name(name), Some(id));
            let value = id.to_possible_value().expect("no solver is hidden");
            assert_eq!(value.get_name(), name);
            assert_eq!(serde_json::to_string(&id).unwrap(), format!("\"{name}\""));
        }
        assert_eq!(SolverId::ALL.len(), SolverId::value_variants().len());
        assert!("magic".parse::<SolverId>().is_err());
    }
}
