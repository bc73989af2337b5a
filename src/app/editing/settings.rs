//! The editor's choices, kept between runs: the tool, what it places, the size to resize to,
//! and the generators' tiles and seeds.

use crate::model::tiles;
use crate::model::{RobotColor, Shape, TargetColor};
use serde::{Deserialize, Serialize};

/// What a click on the board does in editor mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(in crate::app) enum Tool {
    /// Toggle walls on cell sides; drag to draw or erase several.
    #[default]
    Walls,
    /// Place a robot of the chosen colour (click it again to remove it).
    Robots,
    /// Print a target of the chosen colour and shape (click it again to remove it).
    Targets,
    /// Make a printed target the active one.
    ActiveTarget,
    /// Close cells to robots, or open them; drag to paint several.
    ClosedCells,
    /// Drag robots and targets around; click a target to make it active.
    Move,
}

impl Tool {
    /// Every tool, in palette order.
    pub(super) const ALL: [Tool; 6] = [
        Tool::Walls,
        Tool::Robots,
        Tool::Targets,
        Tool::ActiveTarget,
        Tool::ClosedCells,
        Tool::Move,
    ];

    /// The name on its button.
    pub(in crate::app) fn label(self) -> &'static str {
        match self {
            Tool::Walls => "Walls",
            Tool::Robots => "Robots",
            Tool::Targets => "Targets",
            Tool::ActiveTarget => "Active target",
            Tool::ClosedCells => "Closed cells",
            Tool::Move => "Move",
        }
    }

    /// One sentence on how to use it.
    pub(super) fn hint(self) -> &'static str {
        match self {
            Tool::Walls => "Click a cell side to toggle its wall; drag along sides to draw.",
            Tool::Robots => "Click a cell to put the robot there; click the robot to remove it.",
            Tool::Targets => {
                "Click a cell to put the chosen target there, replacing any; click it again to \
                 remove it."
            }
            Tool::ActiveTarget => "Click a printed target to make it the one to reach.",
            Tool::ClosedCells => "Click a cell to close or open it; drag to paint.",
            Tool::Move => "Drag robots and targets; click a target to make it active.",
        }
    }
}

/// The editor's choices, kept between runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EditorSettings {
    /// The current tool.
    pub(in crate::app) tool: Tool,
    /// The robot the Robots tool places.
    pub(super) robot_color: RobotColor,
    /// The colour the Targets tool prints.
    pub(super) target_color: TargetColor,
    /// The shape the Targets tool prints (the vortex always has its own).
    pub(super) target_shape: Shape,
    /// Width for Resize.
    pub(in crate::app) width: u16,
    /// Height for Resize.
    pub(in crate::app) height: u16,
    /// Tile ids for the standard board (north-west, north-east, south-east, south-west).
    pub(in crate::app) tiles: [u8; 4],
    /// The tiles the open board is built from, when it is a standard board; kept in step with
    /// the open board by the app, never stored.
    #[serde(skip)]
    pub(in crate::app) board_tiles: Option<[u8; 4]>,
    /// The next seed for a random standard board.
    pub(super) board_seed: u64,
    /// How many robots to deal.
    pub(in crate::app) robot_count: usize,
    /// The next seed for dealing robots.
    pub(in crate::app) robots_seed: u64,
    /// The next seed for picking a target.
    pub(super) goal_seed: u64,
}

impl Default for EditorSettings {
    fn default() -> Self {
        EditorSettings {
            tool: Tool::Walls,
            robot_color: RobotColor::Red,
            target_color: TargetColor::Red,
            target_shape: Shape::Circle,
            width: 16,
            height: 16,
            tiles: default_tiles(),
            board_tiles: None,
            board_seed: 1,
            robot_count: 4,
            robots_seed: 1,
            goal_seed: 1,
        }
    }
}

/// Tiles 1A, 2A, 3A and 4A: one of each colour group, as a real board has.
fn default_tiles() -> [u8; 4] {
    ["1A", "2A", "3A", "4A"].map(|name| tiles::tile_by_name(name).map_or(0, |t| t.id))
}
