//! The search tree of a trace: each node event with its children, read lazily.
//!
//! In a depth-first trace a node's subtree is the run of events after it up to the next node
//! no deeper than it, so its children are found by reading only the blocks where the search
//! climbs that high; the blocks between are counted whole from their headers. A trace in
//! another order (breadth-first, best-first) finds a node's children among the later nodes
//! one deeper that share its path, up to the next node of depth 0 (a new iteration's root).

use super::TraceError;
use super::codec::Decoded;
use super::kind::EventKind;
use super::reader::{TraceReader, TracedEvent};
use crate::model::Move;
use crate::solver::{Event, PruneReason, RobotCells};

/// What became of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeNodeFate {
    /// Its children were generated.
    Expanded,
    /// It was cut off, and why.
    Pruned(PruneReason),
    /// It reached the target: the search's solution.
    Solution,
    /// The trace ends before anything more is said of it.
    Open,
}

/// A node of the search tree.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeNode {
    /// The number of its node event.
    pub event: u64,
    /// The iteration's depth or bound it belongs to.
    pub iteration: Option<u32>,
    /// Its depth.
    pub depth: u32,
    /// The moves from the root.
    pub path: Vec<Move>,
    /// The robots' cells there.
    pub cells: RobotCells,
    /// What became of it.
    pub fate: TreeNodeFate,
    /// Node events in its subtree, itself included.
    pub subtree_nodes: u64,
    /// The number of the first event after its subtree (the trace's length if none).
    pub end: u64,
    /// Whether the same robot cells were examined at an earlier event of the same iteration
    /// among its siblings' subtrees read so far: a transposition.
    pub transposition: bool,
}

impl TraceReader {
    /// Whether the trace is in depth-first order throughout.
    pub fn is_depth_first(&self) -> bool {
        self.blocks().iter().all(|b| b.depth_first)
    }

    /// The roots of the search tree: each node of depth 0, one per iteration for an
    /// iterative search, with their subtrees' node counts.
    pub fn tree_roots(&self) -> Result<Vec<TreeNode>, TraceError> {
        self.nodes_under(None)
    }

    /// A node's children, in the order the search examined them, with their subtrees' node
    /// counts.
    pub fn tree_children(&self, parent: &TreeNode) -> Result<Vec<TreeNode>, TraceError> {
        self.nodes_under(Some(parent))
    }

    /// The node whose node event is `event`, with its subtree counted.
    pub fn tree_node_at(&self, event: u64) -> Result<Option<TreeNode>, TraceError> {
        let traced = self.event(event)?;
        let Event::Node { .. } = traced.event else {
            return Ok(None);
        };
        let mut found = self.collect(event, u64::MAX, traced.event_depth(), None, Some(1))?;
        self.mark_solution(&mut found);
        Ok(found.pop())
    }

    fn nodes_under(&self, parent: Option<&TreeNode>) -> Result<Vec<TreeNode>, TraceError> {
        let mut found = match parent {
            None => self.collect(0, u64::MAX, 0, None, None)?,
            Some(parent) => {
                let prefix = Some(parent.path.as_slice());
                self.collect(parent.event + 1, parent.end, parent.depth + 1, prefix, None)?
            }
        };
        self.mark_solution(&mut found);
        Ok(found)
    }

    /// Marks the nodes on the solution the footer names: in the last iteration of an
    /// iterative search, at any level of another.
    fn mark_solution(&self, nodes: &mut [TreeNode]) {
        let Some((iteration, solution)) = self.solution() else {
            return;
        };
        let depth_first = self.is_depth_first();
        for node in nodes {
            if solution.starts_with(&node.path) && (!depth_first || node.iteration == iteration) {
                node.fate = TreeNodeFate::Solution;
            }
        }
    }

    /// The nodes of `depth` from event `from` on (before `until`), whose path starts with
    /// `prefix` when one is given, at most `limit` of them, each with its subtree.
    fn collect(
        &self,
        from: u64,
        until: u64,
        depth: u32,
        prefix: Option<&[Move]>,
        limit: Option<usize>,
    ) -> Result<Vec<TreeNode>, TraceError> {
        if self.is_depth_first() {
            self.collect_depth_first(from, until, depth, limit)
        } else {
            self.collect_by_level(from, until, depth, prefix, limit)
        }
    }

    fn collect_depth_first(
        &self,
        from: u64,
        until: u64,
        depth: u32,
        limit: Option<usize>,
    ) -> Result<Vec<TreeNode>, TraceError> {
        let until = until.min(self.events());
        let mut found: Vec<TreeNode> = Vec::new();
        let mut replay = self.replay(from.min(self.events()))?;
        let mut seen = rustc_hash::FxHashSet::default();
        loop {
            // A block in which the path never gets as short as `depth` holds neither a new
            // node of that depth nor the end of the current one's subtree: count it whole
            // from its header, and the run of such blocks after it.
            let position = replay.position();
            if position >= until {
                break;
            }
            let mut skip_to = position;
            let mut skipped_nodes = 0u64;
            if !found.is_empty() {
                let mut block = self.block_of(position).unwrap_or(usize::MAX);
                while let Some(info) = self.blocks().get(block) {
                    let end = info.first_event + u64::from(info.events);
                    if info.first_event != skip_to
                        || u32::from(info.low_water) <= depth
                        || end > until
                    {
                        break;
                    }
                    skipped_nodes += u64::from(info.nodes);
                    skip_to = end;
                    block += 1;
                }
            }
            if skip_to != position {
                if let Some(current) = found.last_mut() {
                    current.subtree_nodes += skipped_nodes;
                    if current.fate == TreeNodeFate::Open {
                        current.fate = TreeNodeFate::Expanded;
                    }
                }
                replay = self.replay(skip_to)?;
                continue;
            }
            let Some((index, decoded)) = replay.next_decoded()? else {
                break;
            };
            match decoded {
                Decoded::Node {
                    depth: node_depth, ..
                } => {
                    if node_depth < depth || (node_depth == depth && limit == Some(found.len())) {
                        break;
                    }
                    if node_depth == depth {
                        if let Some(current) = found.last_mut() {
                            current.end = index;
                        }
                        let traced = replay.materialize(index, decoded)?;
                        found.push(new_node(&traced, &mut seen));
                        continue;
                    }
                    if let Some(current) = found.last_mut() {
                        current.subtree_nodes += 1;
                        if current.fate == TreeNodeFate::Open {
                            current.fate = TreeNodeFate::Expanded;
                        }
                    }
                }
                Decoded::Pruned { depth: d, .. } if d == depth => {
                    let traced = replay.materialize(index, decoded)?;
                    note_fate(&mut found, &traced, depth);
                }
                _ => {}
            }
        }
        let end = replay.position().min(until);
        if let Some(current) = found.last_mut()
            && current.end == u64::MAX
        {
            current.end = end;
        }
        Ok(found)
    }

    fn collect_by_level(
        &self,
        from: u64,
        until: u64,
        depth: u32,
        prefix: Option<&[Move]>,
        limit: Option<usize>,
    ) -> Result<Vec<TreeNode>, TraceError> {
        // In breadth-first order a node's subtree is spread over the rest of its iteration:
        // read it all, counting each later node under the node of `depth` its path starts
        // with.
        let _ = until;
        let mut found: Vec<TreeNode> = Vec::new();
        let mut replay = self.replay(from.min(self.events()))?;
        let mut seen = rustc_hash::FxHashSet::default();
        let mut by_path: rustc_hash::FxHashMap<Vec<Move>, usize> = Default::default();
        while let Some(traced) = replay.next_event()? {
            match &traced.event {
                Event::Node { path, depth: d, .. } => {
                    if *d == 0 && traced.index > from && depth > 0 {
                        break;
                    }
                    if *d == 0 && depth == 0 && limit == Some(found.len()) {
                        break;
                    }
                    if prefix.is_some_and(|p| !path.starts_with(p)) {
                        continue;
                    }
                    if *d == depth {
                        if limit == Some(found.len()) {
                            continue;
                        }
                        by_path.insert(path.clone(), found.len());
                        found.push(new_node(&traced, &mut seen));
                    } else if *d > depth
                        && let Some(&i) = path.get(..depth as usize).and_then(|p| by_path.get(p))
                    {
                        if found[i].fate == TreeNodeFate::Open {
                            found[i].fate = TreeNodeFate::Expanded;
                        }
                        found[i].subtree_nodes += 1;
                        found[i].end = found[i].end.max(traced.index + 1);
                    }
                }
                Event::Solution { moves } => {
                    for node in found
                        .iter_mut()
                        .filter(|n| n.iteration == traced.iteration && moves.starts_with(&n.path))
                    {
                        node.fate = TreeNodeFate::Solution;
                    }
                }
                _ => {
                    // A prune follows the node it cuts at once.
                    if let Some(current) = found.last_mut()
                        && current.event + 1 == traced.index
                    {
                        note_fate(std::slice::from_mut(current), &traced, depth);
                    }
                }
            }
        }
        for node in &mut found {
            if node.end == u64::MAX {
                node.end = node.event + 1;
            }
        }
        Ok(found)
    }
}

impl TracedEvent {
    /// The depth of a node or prune event (0 for others).
    pub fn event_depth(&self) -> u32 {
        match &self.event {
            Event::Node { depth, .. } | Event::Pruned { depth, .. } => *depth,
            _ => 0,
        }
    }

    /// The kind of event.
    pub fn kind(&self) -> EventKind {
        EventKind::of(&self.event)
    }
}

fn new_node(
    traced: &TracedEvent,
    seen: &mut rustc_hash::FxHashSet<(Option<u32>, RobotCells)>,
) -> TreeNode {
    let (depth, cells, path) = match &traced.event {
        Event::Node { depth, cells, path } => (*depth, *cells, path.clone()),
        _ => (0, RobotCells::new(&[]), Vec::new()),
    };
    TreeNode {
        event: traced.index,
        iteration: traced.iteration,
        depth,
        path,
        cells,
        fate: TreeNodeFate::Open,
        subtree_nodes: 1,
        end: u64::MAX,
        transposition: !seen.insert((traced.iteration, cells)),
    }
}

/// Marks what an event says of the node of `depth` read last.
fn note_fate(found: &mut [TreeNode], traced: &TracedEvent, depth: u32) {
    let Some(current) = found.last_mut() else {
        return;
    };
    match &traced.event {
        Event::Pruned { depth: d, reason } if *d == depth && current.fate == TreeNodeFate::Open => {
            current.fate = TreeNodeFate::Pruned(*reason);
        }
        Event::Solution { moves } if moves.starts_with(&current.path) => {
            current.fate = TreeNodeFate::Solution;
        }
        _ => {}
    }
}
