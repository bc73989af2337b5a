//! The stepping rules: where a debugged search stops by itself, by its run mode or at a
//! breakpoint.

use crate::model::Cell;
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
    /// Stop when a solution is found.
    pub solution: bool,
}

/// Whether the search stops after `event`, and why.
pub(super) fn stop_reason(
    mode: RunMode,
    breakpoints: &Breakpoints,
    event: &Event,
    active: Option<usize>,
) -> Option<Option<String>> {
    match mode {
        RunMode::Paused => return Some(None),
        RunMode::Steps(n) if n <= 1 => return Some(None),
        RunMode::StepOver(depth) => {
            if matches!(event, Event::Node { depth: d, .. } if *d <= depth) {
                return Some(None);
            }
        }
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
            if breakpoints.depth == Some(*depth) {
                return Some(format!("breakpoint: depth {depth}"));
            }
            if let Some(target) = breakpoints.active_cell
                && cells.as_slice().get(active.unwrap_or(0)) == Some(&target)
            {
                return Some(format!("breakpoint: the active robot on cell {target}"));
            }
            if breakpoints.state == Some(*cells) {
                return Some("breakpoint: the chosen state".to_string());
            }
            None
        }
        Event::Solution { moves } if breakpoints.solution => {
            Some(format!("breakpoint: a solution of {} moves", moves.len()))
        }
        _ => None,
    }
}
