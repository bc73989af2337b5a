//! The registry: every solver as a [`SolverId`], its registry entry and its dispatch.
//!
//! Adding a solver is one file and one line: the file defines a crate-private unit type that
//! implements `Algorithm` (one `algorithm!` line), and one line of the `solvers!` list in the solver layer's root
//! (`src/solver/mod.rs`) declares its module and names it. The enum,
//! its `ALL` list, its entries and its dispatch are all generated from that list, so they
//! cannot disagree; a type that is never registered is never constructed, and the build's
//! dead-code lint (an error under CI's clippy) names it.

use super::probe::Probe;
use super::{Search, SearchEnd, SolveError, SolverId, SolverKind, SolverOptions};
use crate::model::Puzzle;

/// How the registry runs one solver: its entry and its search. Each solver's file defines a
/// crate-private unit type implementing this, and one line of [`solvers!`] registers it; an
/// unregistered type is never constructed, which the build reports as dead code.
pub(crate) trait Algorithm {
    /// The solver's registry entry.
    const KIND: &'static SolverKind;

    /// Runs the search; the caller has checked the rules and replays the answer.
    fn search<P: Probe>(
        &self,
        puzzle: &Puzzle,
        options: &SolverOptions,
        search: &mut Search<'_, P>,
    ) -> SearchEnd;
}

/// Defines a solver's registry type: a crate-private unit type implementing [`Algorithm`] with
/// the given entry, whose search is the given body over `puzzle`, `options` and `search` (name
/// `options` `_` where the solver takes none); with no body, the search is the file's own
/// `solve(puzzle, options, search)`. Every solver's file ends in one such line, so the
/// registry's side of a solver is written once.
macro_rules! algorithm {
    (
        $(#[$attribute:meta])*
        $algorithm:ident, $kind:expr,
        |$puzzle:ident, $options:pat_param, $search:ident| $body:expr
    ) => {
        $(#[$attribute])*
        pub(crate) struct $algorithm;

        impl super::registry::Algorithm for $algorithm {
            const KIND: &'static super::SolverKind = &$kind;

            fn search<P: super::probe::Probe>(
                &self,
                $puzzle: &crate::model::Puzzle,
                $options: &super::SolverOptions,
                $search: &mut super::Search<'_, P>,
            ) -> super::SearchEnd {
                $body
            }
        }
    };
    // Most solvers' files have a `solve(puzzle, options, search)` of the trait's own shape;
    // the entry then needs no body.
    (
        $(#[$attribute:meta])*
        $algorithm:ident, $kind:expr
    ) => {
        algorithm!(
            $(#[$attribute])*
            $algorithm, $kind, |puzzle, options, search| solve(puzzle, options, search)
        );
    };
}

/// Declares every solver module, [`SolverId`], its `ALL` list, its entries and its dispatch
/// from one list of `mod module { Variant => AlgorithmType }` lines in the solver layer's
/// root, so they cannot disagree and adding a solver is one file and one line.
macro_rules! solvers {
    ($(mod $module:ident { $($variant:ident => $algorithm:ident),+ $(,)? })+) => {
        $(pub mod $module;)+

        /// A registered solver. Its serde and command-line spelling is its command-line name
        /// (`iddfs`, `astar-manhattan`, `graph-v1`, ...), which tools outside the project rely
        /// on; its title and description are in its [`kind`](SolverId::kind).
        #[allow(missing_docs, reason = "each variant is described by its registry entry")]
        #[derive(
            Clone,
            Copy,
            Debug,
            PartialEq,
            Eq,
            Hash,
            PartialOrd,
            Ord,
            serde::Serialize,
            serde::Deserialize,
        )]
        #[serde(rename_all = "kebab-case")]
        pub enum SolverId {
            $($($variant,)+)+
        }

        impl SolverId {
            /// Every solver, in the order they are listed to users.
            pub const ALL: [SolverId; [$($(stringify!($variant)),+),+].len()] =
                [$($(SolverId::$variant),+),+];

            /// The solver's registry entry: names, description, optimality, rule support,
            /// columns.
            pub const fn kind(self) -> &'static SolverKind {
                match self {
                    $($(SolverId::$variant =>
                        <$module::$algorithm as registry::Algorithm>::KIND,)+)+
                }
            }

            /// Runs the solver's search; the caller has checked the rules and replays the
            /// answer.
            fn search<P: Probe>(
                self,
                puzzle: &Puzzle,
                options: &SolverOptions,
                search: &mut Search<'_, P>,
            ) -> SearchEnd {
                match self {
                    $($(SolverId::$variant => registry::Algorithm::search(
                        &$module::$algorithm,
                        puzzle,
                        options,
                        search,
                    ),)+)+
                }
            }
        }
    };
}

impl SolverId {
    /// The command-line name.
    pub const fn name(self) -> &'static str {
        self.kind().name
    }

    /// The solver with this command-line name.
    pub fn from_name(name: &str) -> Option<SolverId> {
        SolverId::ALL.into_iter().find(|id| id.name() == name)
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
    /// The built-in solver, or why there is none by that name.
    fn solver_id(&self) -> Result<SolverId, SolveError>;

    /// The solver to run: the built-in one by default; a
    /// [`SolverChoice`](super::SolverChoice) may also name an external engine.
    fn choice(&self) -> Result<super::SolverChoice, SolveError> {
        self.solver_id().map(super::SolverChoice::BuiltIn)
    }
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

    #[test]
    fn every_spelling_of_a_solver_is_its_command_line_name() {
        for id in SolverId::ALL {
            let name = id.name();
            assert_eq!(SolverId::from_name(name), Some(id));
            assert_eq!(serde_json::to_string(&id).unwrap(), format!("\"{name}\""));
        }
        assert!("magic".parse::<SolverId>().is_err());
    }

    /// The guide's table of solvers (`docs/solvers.md`): the name and optimality of each row.
    fn guide_table() -> Vec<(String, bool)> {
        let page = include_str!("../../docs/solvers.md");
        let (_, table) = page
            .split_once("\n## The solvers\n")
            .expect("the guide's solvers page has its table's section");
        table
            .lines()
            .skip_while(|line| !line.starts_with('|'))
            .take_while(|line| line.starts_with('|'))
            .skip(2)
            .map(|row| {
                let cells: Vec<&str> = row.split('|').map(str::trim).collect();
                let name = cells[1].trim_matches('`').to_string();
                let optimal = cells[4] == "yes";
                (name, optimal)
            })
            .collect()
    }

    #[test]
    fn the_guides_solver_table_lists_every_solver_in_the_registrys_order() {
        let registered: Vec<(String, bool)> = SolverId::ALL
            .iter()
            .map(|id| {
                let optimal = id.kind().optimality == crate::solver::Optimality::Guaranteed;
                (id.name().to_string(), optimal)
            })
            .collect();
        assert_eq!(guide_table(), registered);
    }
}
