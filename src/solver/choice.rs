//! A solver as a user chooses it: a built-in solver, or an external engine.
//!
//! Everywhere a solver is chosen (the command line's `--solver`, the studies, the worker),
//! a [`SolverChoice`] is accepted, and [`solver::run`](super::run) runs either kind through
//! the same path: the same limits, probe calls, replay check and [`Report`](super::Report).

use super::engine::store::{EngineName, StoreError};
use super::engine::{EngineSpec, SharedSpec};
use super::{
    Columns, Optimality, RuleSupport, SearchShape, SolveError, SolverId, SolverKind, SolverRef,
};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::sync::Arc;
use std::sync::Mutex;

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

    /// Its registry entry: a built-in solver's own, or for an engine an entry made from its
    /// name and command (kept for the life of the program, once per engine). What an engine
    /// says in its handshake is known only once it runs, so its entry claims no optimality,
    /// lists both rule options (the engine's own list is checked when it runs), takes depth
    /// limits up to [`ENGINE_DEEPEST_LIMIT`], and has [`ENGINE_COLUMNS`].
    pub fn kind(&self) -> &'static SolverKind {
        match self {
            SolverChoice::BuiltIn(id) => id.kind(),
            SolverChoice::Engine(spec) => engine_kind(spec),
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

/// A solver as a user's choice keeps it: a built-in solver, or a registered engine by its
/// name. Unlike a [`SolverChoice`] it holds no command: an engine is looked up among the
/// registered engines when it runs, so a choice of an engine removed since is known as such
/// (and not run) rather than replaced by another solver.
///
/// Its serde form is the name (`"iddfs"`, `"bfs-py"`), as settings files have always kept it;
/// an engine cannot take a built-in solver's name, so a name stands for one solver. Reading a
/// string never fails: a name that is not built in is read as an engine's, unchecked, and the
/// reader checks it with [`SolverPick::is_well_formed`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SolverPick {
    /// A solver compiled into this program.
    BuiltIn(SolverId),
    /// A registered engine.
    Engine(EngineName),
}

impl SolverPick {
    /// The name users see and files keep: a built-in solver's command-line name, an engine's
    /// registered name.
    pub fn name(&self) -> &str {
        match self {
            SolverPick::BuiltIn(id) => id.name(),
            SolverPick::Engine(name) => name.as_str(),
        }
    }

    /// The solver a name stands for: the built-in solver of that name, else the engine
    /// registered under it (whether or not one is), when the name can name an engine.
    pub fn from_name(name: &str) -> Result<SolverPick, StoreError> {
        match SolverId::from_name(name) {
            Some(id) => Ok(SolverPick::BuiltIn(id)),
            None => EngineName::new(name).map(SolverPick::Engine),
        }
    }

    /// The built-in solver, if this is one.
    pub fn built_in(&self) -> Option<SolverId> {
        match self {
            SolverPick::BuiltIn(id) => Some(*id),
            SolverPick::Engine(_) => None,
        }
    }

    /// Whether [`SolverPick::from_name`] could have made it: always for a built-in solver, and
    /// for an engine when its name can name one (one read from a file may not).
    pub fn is_well_formed(&self) -> bool {
        match self {
            SolverPick::BuiltIn(_) => true,
            SolverPick::Engine(name) => name.is_well_formed(),
        }
    }
}

impl From<SolverId> for SolverPick {
    fn from(id: SolverId) -> SolverPick {
        SolverPick::BuiltIn(id)
    }
}

impl std::str::FromStr for SolverPick {
    type Err = StoreError;

    fn from_str(name: &str) -> Result<SolverPick, StoreError> {
        SolverPick::from_name(name)
    }
}

impl fmt::Display for SolverPick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for SolverPick {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for SolverPick {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<SolverPick, D::Error> {
        let name = String::deserialize(deserializer)?;
        Ok(match SolverId::from_name(&name) {
            Some(id) => SolverPick::BuiltIn(id),
            None => SolverPick::Engine(EngineName::read(name)),
        })
    }
}

/// The columns of an engine's rows.
pub const ENGINE_COLUMNS: Columns = Columns {
    depth: "Depth",
    nodes: "Nodes",
    inner: "inner",
    hits: "hits",
};

/// The deepest depth limit an engine's entry offers (the protocol itself has none).
pub const ENGINE_DEEPEST_LIMIT: u32 = 1000;

/// The most engine entries kept; past it, further engines share [`ANY_ENGINE`], so that a
/// program that runs ever new engines does not grow without bound.
const MAX_ENGINE_KINDS: usize = 256;

/// The entry of engines past [`MAX_ENGINE_KINDS`].
static ANY_ENGINE: SolverKind = engine_entry("engine", "External engine", "an external engine");

/// An engine's registry entry: what any engine claims before it runs (see
/// [`SolverChoice::kind`]).
const fn engine_entry(
    name: &'static str,
    title: &'static str,
    description: &'static str,
) -> SolverKind {
    SolverKind {
        name,
        title,
        description,
        source: "an external engine (docs/engine-protocol.md)",
        optimality: Optimality::NotGuaranteed,
        rules: RuleSupport::BOTH,
        columns: ENGINE_COLUMNS,
        deepest_limit: Some(ENGINE_DEEPEST_LIMIT),
        shape: SearchShape::Own,
    }
}

fn engine_kind(spec: &EngineSpec) -> &'static SolverKind {
    static KINDS: Mutex<Vec<(EngineSpec, &'static SolverKind)>> = Mutex::new(Vec::new());
    // The list only grows by whole entries, consistent after any panic that left it locked.
    let mut kinds = KINDS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, kind)) = kinds.iter().find(|(known, _)| known == spec) {
        return kind;
    }
    if kinds.len() >= MAX_ENGINE_KINDS {
        return &ANY_ENGINE;
    }
    let name = super::intern::intern(&spec.name);
    let kind: &'static SolverKind = Box::leak(Box::new(engine_entry(
        name,
        name,
        super::intern::intern(&format!("external engine: {}", spec.command_line())),
    )));
    kinds.push((spec.clone(), kind));
    kind
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pick_is_kept_as_its_name_and_read_back_as_the_same_solver() {
        let engine = SolverPick::from_name("bfs-py").unwrap();
        assert_eq!(
            engine,
            SolverPick::Engine(EngineName::new("bfs-py").unwrap())
        );
        for pick in [SolverPick::BuiltIn(SolverId::GraphV2), engine] {
            let text = ron::to_string(&pick).unwrap();
            assert_eq!(text, format!("\"{}\"", pick.name()));
            assert_eq!(ron::from_str::<SolverPick>(&text).unwrap(), pick);
        }
        for id in SolverId::ALL {
            assert_eq!(
                SolverPick::from_name(id.name()).unwrap(),
                SolverPick::BuiltIn(id)
            );
        }
    }

    #[test]
    fn a_name_no_engine_can_have_is_read_but_not_well_formed() {
        assert!(SolverPick::from_name("two words").is_err());
        let read: SolverPick = ron::from_str("\"two words\"").unwrap();
        assert_eq!(read.name(), "two words");
        assert!(!read.is_well_formed());
        assert!(SolverPick::BuiltIn(SolverId::Bfs).is_well_formed());
    }
}
