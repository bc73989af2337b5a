//! How a search chooses its next node, which the debugger shows as its frontier.

use super::heuristics;

/// How a search chooses which node to examine next: what the debugger shows as its frontier
/// (an open list) or its stack, and which numbers stand behind each choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchShape {
    /// A queue: the nodes generated first are examined first (breadth-first). The frontier is
    /// in the order the nodes were generated.
    Queue,
    /// An open list by f = g + h, lowest first, the newest of equal f first (best-first, A*),
    /// h from this heuristic.
    BestFirst(heuristics::Heuristic),
    /// Depth-first, each iteration to a bound: the stack of the current path is the frontier;
    /// nodes are cut by this lower bound where there is one.
    DepthFirst(Option<heuristics::Heuristic>),
    /// Neither: the search's own order (the stateless solver's stores, an engine's unknown
    /// search).
    Own,
}

impl SearchShape {
    /// The heuristic behind its choices, if any.
    pub fn heuristic(self) -> Option<heuristics::Heuristic> {
        match self {
            SearchShape::BestFirst(heuristic) => Some(heuristic),
            SearchShape::DepthFirst(bound) => bound,
            SearchShape::Queue | SearchShape::Own => None,
        }
    }

    /// Whether it keeps an open list that [`Event::Generated`](super::Event::Generated) events fill.
    pub fn has_open_list(self) -> bool {
        matches!(self, SearchShape::Queue | SearchShape::BestFirst(_))
    }
}
