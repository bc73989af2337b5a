//! The stepping rules: where a debugged search stops by itself, by its run mode or at a
//! breakpoint.

use crate::model::Cell;
use crate::solver::trace::EventKind;
use crate::solver::{Event, RobotCells};

/// What the solver thread does with the next events.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RunMode {
    /// Wait inside the probe until told otherwise.
    Paused,
    /// Let this many events through, then pause.
    Steps(u64),
    /// Run to the next node at this depth or shallower (step over the subtree).
    StepOver(u32),
    /// Run to the end of the current depth, bound or level.
    StepDepth,
    /// Run until a breakpoint or the end.
    Continue,
    /// Run until a solution is found (breakpoints are ignored).
    ToSolution,
    /// Animated play: this many events per second, stopping at breakpoints.
    Play(f32),
}

/// Where the search stops by itself, besides the run mode's own stops.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Breakpoints {
    /// Stop on the first node at this depth.
    pub depth: Option<u32>,
    /// Stop when the active robot (the first robot for a target any robot may reach) stands
    /// on this cell in a node.
    pub active_cell: Option<Cell>,
    /// Stop when a node has exactly these robot cells.
    pub state: Option<RobotCells>,
    /// The depths at which the cell and state breakpoints hold (both ends included); all
    /// depths when `None`.
    pub depth_range: Option<(u32, u32)>,
    /// Stop when a solution is found.
    pub solution: bool,
    /// Stop on a prune of this kind (a table hit is the kind [`EventKind::TableHit`]).
    pub prune: Option<EventKind>,
    /// Stop when a new depth, bound or level starts.
    pub new_bound: bool,
}

/// Whether the search stops after a node at `depth` whose robots stand on `cells`, and why:
/// the check of [`stop_reason`] for nodes, which a debugged search makes at every node
/// without building the node's event.
#[inline]
pub(super) fn node_stop(
    mode: RunMode,
    breakpoints: &Breakpoints,
    depth: u32,
    cells: &[Cell],
    active: Option<usize>,
) -> Option<Option<String>> {
    match mode {
        RunMode::Paused => return Some(None),
        RunMode::Steps(n) if n <= 1 => return Some(None),
        RunMode::StepOver(over) if depth <= over => return Some(None),
        RunMode::ToSolution => return None,
        _ => {}
    }
    node_breakpoint(breakpoints, depth, cells, active).map(Some)
}

fn node_breakpoint(
    breakpoints: &Breakpoints,
    depth: u32,
    cells: &[Cell],
    active: Option<usize>,
) -> Option<String> {
    if breakpoints.depth == Some(depth) {
        return Some(format!("breakpoint: depth {depth}"));
    }
    let in_range = breakpoints
        .depth_range
        .is_none_or(|(low, high)| (low..=high).contains(&depth));
    if !in_range {
        return None;
    }
    if let Some(target) = breakpoints.active_cell
        && cells.get(active.unwrap_or(0)) == Some(&target)
    {
        return Some(format!("breakpoint: the active robot on cell {target}"));
    }
    if breakpoints
        .state
        .is_some_and(|state| state.as_slice() == cells)
    {
        return Some("breakpoint: the chosen state".to_string());
    }
    None
}

/// Whether the search stops after `event`, and why.
pub(super) fn stop_reason(
    mode: RunMode,
    breakpoints: &Breakpoints,
    event: &Event,
    active: Option<usize>,
) -> Option<Option<String>> {
    if let Event::Node { depth, cells, .. } = event {
        return node_stop(mode, breakpoints, *depth, cells.as_slice(), active);
    }
    match mode {
        RunMode::Paused => return Some(None),
        RunMode::Steps(n) if n <= 1 => return Some(None),
        RunMode::StepDepth => {
            if matches!(event, Event::IterationFinished(_)) {
                return Some(None);
            }
        }
        RunMode::ToSolution => {
            return matches!(event, Event::Solution { .. })
                .then(|| Some("a solution was found".to_string()));
        }
        _ => {}
    }
    breakpoint_hit(breakpoints, event, active).map(Some)
}

/// The breakpoint an event hits, described for the panel.
pub fn breakpoint_hit(
    breakpoints: &Breakpoints,
    event: &Event,
    active: Option<usize>,
) -> Option<String> {
    match event {
        Event::Node { depth, cells, .. } => {
            node_breakpoint(breakpoints, *depth, cells.as_slice(), active)
        }
        Event::Solution { moves } if breakpoints.solution => {
            Some(format!("breakpoint: a solution of {} moves", moves.len()))
        }
        Event::Pruned { depth, .. } => {
            let kind = EventKind::of(event);
            (breakpoints.prune == Some(kind))
                .then(|| format!("breakpoint: {} at depth {depth}", kind.name()))
        }
        Event::IterationStarted { depth } if breakpoints.new_bound => {
            Some(format!("breakpoint: depth or bound {depth} starts"))
        }
        _ => None,
    }
}
