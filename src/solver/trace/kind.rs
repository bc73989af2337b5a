//! The kinds of event a trace counts and names.

use crate::solver::{Event, PruneReason};

/// The kinds of event a trace counts, in the order `trace info` lists them.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// An iteration, bound or level starts.
    IterationStarted,
    /// A node is examined.
    Node,
    /// A node joins the open list.
    Generated,
    /// A node at the depth limit.
    DepthLimit,
    /// A node cut by its lower bound.
    LowerBound,
    /// A node cut by the transposition table.
    TableHit,
    /// A node visited before.
    Visited,
    /// A node cut for a solver's own reason.
    OtherPrune,
    /// An iteration ends.
    IterationFinished,
    /// A solution.
    Solution,
    /// A solver's own event.
    Solver,
}

impl EventKind {
    /// Every kind, in the order they are listed.
    pub const ALL: [EventKind; 11] = [
        EventKind::IterationStarted,
        EventKind::Node,
        EventKind::Generated,
        EventKind::DepthLimit,
        EventKind::LowerBound,
        EventKind::TableHit,
        EventKind::Visited,
        EventKind::OtherPrune,
        EventKind::IterationFinished,
        EventKind::Solution,
        EventKind::Solver,
    ];

    /// The kind of an event.
    pub fn of(event: &Event) -> EventKind {
        match event {
            Event::IterationStarted { .. } => EventKind::IterationStarted,
            Event::Node { .. } => EventKind::Node,
            Event::Generated { .. } => EventKind::Generated,
            Event::Pruned { reason, .. } => match reason {
                PruneReason::DepthLimit => EventKind::DepthLimit,
                PruneReason::LowerBound { .. } => EventKind::LowerBound,
                PruneReason::TableHit { .. } => EventKind::TableHit,
                PruneReason::Visited => EventKind::Visited,
                PruneReason::Other(_) => EventKind::OtherPrune,
            },
            Event::IterationFinished(_) => EventKind::IterationFinished,
            Event::Solution { .. } => EventKind::Solution,
            Event::Solver(_) => EventKind::Solver,
        }
    }

    /// Its name on the command line and in files (`node`, `table-hit`, ...).
    pub fn name(self) -> &'static str {
        match self {
            EventKind::IterationStarted => "iteration-start",
            EventKind::Node => "node",
            EventKind::Generated => "generated",
            EventKind::DepthLimit => "depth-limit",
            EventKind::LowerBound => "lower-bound",
            EventKind::TableHit => "table-hit",
            EventKind::Visited => "visited",
            EventKind::OtherPrune => "other-prune",
            EventKind::IterationFinished => "iteration-end",
            EventKind::Solution => "solution",
            EventKind::Solver => "solver",
        }
    }

    /// The kind of a name, as [`EventKind::name`] spells it.
    pub fn from_name(name: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether events of this kind are prunes.
    pub fn is_prune(self) -> bool {
        matches!(
            self,
            EventKind::DepthLimit
                | EventKind::LowerBound
                | EventKind::TableHit
                | EventKind::Visited
                | EventKind::OtherPrune
        )
    }
}
