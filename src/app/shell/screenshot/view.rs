//! The views the screenshot command can show, by name.

use std::str::FromStr;

/// The views a screenshot can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The editor on the deck's puzzle.
    Editor,
    /// A long IDDFS run in progress with its live table and nodes plot.
    Solving,
    /// A solution played back part way, every move's path drawn.
    Playback,
    /// The plots after a series of solves by several solvers.
    Plots,
    /// Play mode after a few moves, with trails.
    Play,
    /// The Experiments window after a real run of a few hundred standard configurations.
    Experiments,
    /// The same run's tables (the thesis' Tables 1 and 2).
    ExperimentsTables,
    /// A long experiment part way, its plots growing and its progress bar showing the ETA.
    ExperimentsRunning,
    /// A debugged IDDFS run paused at a depth breakpoint: the node's robots, its path from the
    /// root, the panel's node details and event log.
    DebugPaused,
    /// The search heat map of a debugged run stopped on its solution.
    OverlayHeat,
    /// The slide graph of every cell after a robot was moved, changed edges highlighted.
    OverlayGraph,
    /// The minimum-move values with their heat map.
    OverlayMinMoves,
    /// The stateless solver's final and intermediate states per cell.
    OverlayStateless,
    /// The same for every robot of a five-robot board: the target's robot in the centre of
    /// each cell, the four others in their corners.
    OverlayStatelessFive,
    /// The last solution's path.
    OverlaySolution,
    /// A debugged Graph v1 run stepped to its first slide-graph update: the changed edges.
    DebugGraph,
    /// A debugged stateless run stepped part way: the intermediate states as they are then.
    DebugStateless,
    /// A debugged Graph v2 run stopped at a depth breakpoint, then scrubbed back along the
    /// timeline: the node, slide graph and search heat map as they were at that event.
    DebugStepBack,
    /// The exact distance map of one robot, cells where it needs helpers outlined.
    OverlayDistances,
    /// The Analyse board window after a run, its heat map on the board.
    Analyze,
    /// The Compare runs window: BFS and Graph v1 (breadth-first both, nine nodes alike)
    /// recorded on one game, compared and both taken to their first difference.
    Compare,
}

impl View {
    /// Every view, in the order the command's help lists them.
    const ALL: [View; 21] = [
        View::Editor,
        View::Solving,
        View::Playback,
        View::Plots,
        View::Play,
        View::Experiments,
        View::ExperimentsTables,
        View::ExperimentsRunning,
        View::DebugPaused,
        View::OverlayHeat,
        View::OverlayGraph,
        View::OverlayMinMoves,
        View::OverlayStateless,
        View::OverlayStatelessFive,
        View::OverlaySolution,
        View::DebugGraph,
        View::DebugStateless,
        View::DebugStepBack,
        View::OverlayDistances,
        View::Analyze,
        View::Compare,
    ];

    /// The view's name on the command line; the compiler checks every view has one, and a
    /// test that every listed view reads back from its name.
    pub(super) fn name(self) -> &'static str {
        match self {
            View::Editor => "editor",
            View::Solving => "solving",
            View::Playback => "playback",
            View::Plots => "plots",
            View::Play => "play",
            View::Experiments => "experiments",
            View::ExperimentsTables => "experiments-tables",
            View::ExperimentsRunning => "experiments-running",
            View::DebugPaused => "debug-paused",
            View::OverlayHeat => "overlay-heat",
            View::OverlayGraph => "overlay-graph",
            View::OverlayMinMoves => "overlay-min-moves",
            View::OverlayStateless => "overlay-stateless",
            View::OverlayStatelessFive => "overlay-stateless-five",
            View::OverlaySolution => "overlay-solution",
            View::DebugGraph => "debug-graph",
            View::DebugStateless => "debug-stateless",
            View::DebugStepBack => "debug-step-back",
            View::OverlayDistances => "overlay-distances",
            View::Analyze => "analyze",
            View::Compare => "compare",
        }
    }
}

/// A view name no view has.
#[derive(Debug, thiserror::Error)]
#[error("there is no view '{name}'; the views are {}", View::ALL.map(View::name).join(", "))]
pub struct UnknownView {
    /// The name asked for.
    name: String,
}

impl FromStr for View {
    type Err = UnknownView;

    fn from_str(text: &str) -> Result<View, UnknownView> {
        View::ALL
            .iter()
            .find(|view| view.name().eq_ignore_ascii_case(text))
            .copied()
            .ok_or_else(|| UnknownView {
                name: text.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_view_reads_back_from_its_own_name() {
        let mut names = std::collections::BTreeSet::new();
        for view in View::ALL {
            assert_eq!(view.name().parse::<View>().unwrap(), view);
            assert!(names.insert(view.name()), "two views named {}", view.name());
        }
        let error = "no-such-view".parse::<View>().unwrap_err().to_string();
        assert!(error.contains("'no-such-view'") && error.contains("debug-step-back"));
    }
}
