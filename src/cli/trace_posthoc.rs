//! `trace export --format posthoc`: a trace as a Posthoc search trace (its format 1.4.0), in
//! Posthoc's own meaning of its events: `source` and `destination` first; every node
//! `generating` once, with its parent's id, g, h and f; `expanding` when the search examines
//! it, then `closing` once when the search is done with it (a prune's reason in words); `end`
//! at the solution. Ids are unique over the whole trace: a node's id is the number of the event
//! that first brought it (its `generating`), so the same position in two iterations of an
//! iterative search is two nodes.

use ricochet_lab::model::{Cell, Move};
use ricochet_lab::solver::trace::{Estimates, TraceReader, TracedEvent};
use ricochet_lab::solver::{Event, PruneReason};
use rustc_hash::FxHashMap;
use std::io::Write;

/// What every Posthoc event of a node says of it.
#[derive(Clone, Copy)]
struct Facts {
    id: u64,
    parent: Option<u64>,
    g: u32,
    h: Option<u32>,
    /// The cell of the robot that places it.
    cell: Cell,
}

/// A node the search is examining and has not closed.
struct OpenNode {
    facts: Facts,
    path: Vec<Move>,
}

/// Writes Posthoc events from a trace's events, keeping what ties them together.
pub(super) struct PosthocWriter {
    estimates: Estimates,
    width: u16,
    /// The robot whose cell places a node: the one the target asks for (the first for any).
    robot: usize,
    goal: Cell,
    /// Whether the search keeps an open list: then it expands one node at a time, and a
    /// node is closed when the next is examined.
    open_list: bool,
    /// Nodes generated and not yet examined, by their path.
    generated: FxHashMap<Vec<Move>, Facts>,
    /// The nodes being examined, the root first: a depth-first search's path, or the one node
    /// a breadth-first or best-first search is expanding.
    open: Vec<OpenNode>,
    sourced: bool,
}

impl PosthocWriter {
    /// A writer for the events of `reader`'s trace.
    pub(super) fn new(reader: &TraceReader) -> PosthocWriter {
        let puzzle = reader.puzzle();
        PosthocWriter {
            estimates: Estimates::of_trace(reader),
            width: puzzle.board().width(),
            robot: puzzle.active_robot().unwrap_or(0),
            goal: puzzle.goal_cell(),
            open_list: ricochet_lab::solver::trace::shape_of_trace(reader).has_open_list(),
            generated: FxHashMap::default(),
            open: Vec::new(),
            sourced: false,
        }
    }

    /// The header: how to draw a node, as a square at the cell of its robot.
    pub(super) fn head(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(out, "version: 1.4.0")?;
        writeln!(out, "views:")?;
        writeln!(out, "  main:")?;
        writeln!(out, "    - $: rect")?;
        writeln!(out, "      fill: ${{{{ color[$.type] }}}}")?;
        writeln!(out, "      width: 1")?;
        writeln!(out, "      height: 1")?;
        writeln!(out, "      x: ${{{{ $.x }}}}")?;
        writeln!(out, "      y: ${{{{ $.y }}}}")?;
        writeln!(out, "events:")?;
        let (x, y) = self.xy(self.goal);
        writeln!(
            out,
            "  - {{ type: destination, id: target, x: {x}, y: {y} }}"
        )
    }

    fn xy(&self, cell: Cell) -> (u16, u16) {
        (cell % self.width, cell / self.width)
    }

    /// One line: a node's event with its numbers and place.
    fn line(
        &self,
        out: &mut dyn Write,
        kind: &str,
        facts: &Facts,
        reason: Option<&PruneReason>,
    ) -> std::io::Result<()> {
        let (x, y) = self.xy(facts.cell);
        let parent = facts
            .parent
            .map_or_else(|| "null".to_string(), |p| p.to_string());
        let h_text = facts.h.map_or_else(String::new, |h| format!(", h: {h}"));
        let (id, g) = (facts.id, facts.g);
        let f = g + facts.h.unwrap_or(0);
        let reason = reason.map_or_else(String::new, |r| format!(", reason: {}", quoted(r)));
        writeln!(
            out,
            "  - {{ type: {kind}, id: {id}, pId: {parent}, g: {g}{h_text}, f: {f}, x: {x}, y: {y}{reason} }}"
        )
    }

    fn close(&mut self, out: &mut dyn Write, reason: Option<&PruneReason>) -> std::io::Result<()> {
        if let Some(node) = self.open.pop() {
            self.line(out, "closing", &node.facts, reason)?;
        }
        Ok(())
    }

    /// Writes what one trace event means in Posthoc's terms.
    pub(super) fn event(
        &mut self,
        out: &mut dyn Write,
        event: &TracedEvent,
    ) -> std::io::Result<()> {
        match &event.event {
            Event::Node { depth, cells, path } => {
                // A node at depth d ends every node at d or deeper: a depth-first search has
                // left their subtrees; a breadth-first one is done expanding the last.
                let open_list = self.open_list;
                while self
                    .open
                    .last()
                    .is_some_and(|n| n.facts.g >= *depth || open_list)
                {
                    self.close(out, None)?;
                }
                let cell = cells.as_slice().get(self.robot).copied().unwrap_or(0);
                let facts = match self.generated.remove(path) {
                    Some(known) => known,
                    None => {
                        let facts = Facts {
                            id: event.index,
                            parent: self.open.last().map(|n| n.facts.id),
                            g: *depth,
                            h: self.estimates.h(cells.as_slice(), *depth),
                            cell,
                        };
                        if !self.sourced {
                            self.sourced = true;
                            let (x, y) = self.xy(cell);
                            writeln!(
                                out,
                                "  - {{ type: source, id: {}, x: {x}, y: {y} }}",
                                event.index
                            )?;
                        }
                        self.line(out, "generating", &facts, None)?;
                        facts
                    }
                };
                self.line(out, "expanding", &facts, None)?;
                self.open.push(OpenNode {
                    facts,
                    path: path.clone(),
                });
            }
            Event::Generated {
                depth,
                cells,
                path,
                h,
            } => {
                let facts = Facts {
                    id: event.index,
                    parent: self.open.last().map(|n| n.facts.id),
                    g: *depth,
                    h: *h,
                    cell: cells.as_slice().get(self.robot).copied().unwrap_or(0),
                };
                self.line(out, "generating", &facts, None)?;
                self.generated.insert(path.clone(), facts);
            }
            // A prune of the node examined closes it with its reason; a successor dropped (one
            // visited before, one that cannot reach the target) was never a node of the tree.
            Event::Pruned { depth, reason }
                if self.open.last().is_some_and(|n| n.facts.g == *depth) =>
            {
                self.close(out, Some(reason))?;
            }
            Event::Solution { moves } => {
                let id = match self.open.last() {
                    Some(node) if node.path == *moves => node.facts.id,
                    _ => {
                        // The goal was reached as a successor, never examined: it is
                        // generated here.
                        let facts = Facts {
                            id: event.index,
                            parent: self.open.last().map(|n| n.facts.id),
                            g: moves.len() as u32,
                            h: None,
                            cell: self.goal,
                        };
                        self.line(out, "generating", &facts, None)?;
                        event.index
                    }
                };
                writeln!(out, "  - {{ type: end, id: {id} }}")?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Closes the nodes still open when the events end.
    pub(super) fn finish(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        while !self.open.is_empty() {
            self.close(out, None)?;
        }
        Ok(())
    }
}

/// A text as a double-quoted YAML scalar.
fn quoted(text: &impl std::fmt::Display) -> String {
    let text = text.to_string();
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}
