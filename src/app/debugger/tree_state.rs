//! What the Search tree tab shows and how it changes: the nodes read from the trace so far,
//! which are open, which is selected. The tab itself is drawn by `tree`.

use super::Debugger;
use crate::app::command::TreeCommand;
use crate::solver::trace::{TraceError, TreeNode};
use std::collections::{BTreeSet, HashMap};

/// What the tree tab shows: the nodes read so far, which are open, which is selected.
#[derive(Default)]
pub struct TreeView {
    /// The roots, or why they could not be read; `None` until read.
    pub(super) roots: Option<Result<Vec<TreeNode>, TraceError>>,
    /// How many events the trace held when the roots were read.
    pub(super) read_at: u64,
    /// The children read so far, by their parent's event number.
    children: HashMap<u64, Vec<TreeNode>>,
    pub(super) open: BTreeSet<u64>,
    pub(super) selected: Option<u64>,
    /// How long the last read took, in milliseconds, for the tab to say.
    pub(super) last_read_ms: f64,
}

impl TreeView {
    /// The node with this event number, if it has been read.
    pub(super) fn node(&self, event: u64) -> Option<&TreeNode> {
        let roots = self.roots.as_ref()?.as_ref().ok()?;
        roots
            .iter()
            .chain(self.children.values().flatten())
            .find(|n| n.event == event)
    }

    /// The nodes as drawn, top to bottom: each open node followed by its children.
    pub(super) fn visible(&self) -> Vec<&TreeNode> {
        let mut rows = Vec::new();
        if let Some(Ok(roots)) = &self.roots {
            for root in roots {
                self.push_visible(root, &mut rows);
            }
        }
        rows
    }

    fn push_visible<'a>(&'a self, node: &'a TreeNode, rows: &mut Vec<&'a TreeNode>) {
        rows.push(node);
        if self.open.contains(&node.event)
            && let Some(children) = self.children.get(&node.event)
        {
            for child in children {
                self.push_visible(child, rows);
            }
        }
    }

    /// The parent of a node read so far.
    pub(super) fn parent_of(&self, event: u64) -> Option<u64> {
        self.children
            .iter()
            .find(|(_, children)| children.iter().any(|c| c.event == event))
            .map(|(parent, _)| *parent)
    }
}

impl Debugger {
    /// Applies a change to the tree tab.
    pub(super) fn apply_tree(&mut self, command: TreeCommand) {
        let history = self.history();
        let started = std::time::Instant::now();
        match command {
            TreeCommand::Load => {
                let mut history = super::lock(&history);
                self.tree = TreeView::default();
                self.tree.roots = Some(match history.reader() {
                    Ok(reader) => {
                        self.tree.read_at = reader.events();
                        reader.tree_roots()
                    }
                    Err(error) => Err(error),
                });
            }
            TreeCommand::Toggle(event) => {
                if !self.tree.open.remove(&event) {
                    if !self.tree.children.contains_key(&event)
                        && let Some(node) = self.tree.node(event).cloned()
                    {
                        let mut history = super::lock(&history);
                        let children = history
                            .reader()
                            .and_then(|reader| reader.tree_children(&node))
                            .unwrap_or_default();
                        self.tree.children.insert(event, children);
                    }
                    self.tree.open.insert(event);
                }
            }
            TreeCommand::Select(event) => {
                self.tree.selected = Some(event);
                self.show(event);
            }
        }
        self.tree.last_read_ms = started.elapsed().as_secs_f64() * 1000.0;
    }
}
