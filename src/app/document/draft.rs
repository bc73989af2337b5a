//! The board being edited: a puzzle that may be incomplete or invalid while it is designed
//! (no robots yet, a robot on a closed cell, a target off a shrunk board), every editing
//! operation as a pure function on it, and the undo history.
//!
//! A draft becomes a [`Puzzle`] through [`Draft::to_puzzle`], which checks it; the app solves,
//! plays and saves only what passes. Drafts are stored in the native RON layout, so a valid
//! draft's text is exactly the native format's text.

use crate::model::formats::{FormatError, native};
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::tiles::{random_goal, random_robots};
use crate::model::{
    Board, Direction, Goal, ModelError, Pos, Puzzle, Robot, RobotColor, Rules,
    Shape as TargetShape, Target, TargetColor,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// An editable puzzle: the same parts as a [`Puzzle`], without the promise that they fit
/// together. Robots are kept in colour order with distinct colours and on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    /// The board: always a valid board (walls on both sides, border walled).
    pub board: Board,
    /// The robots in colour order.
    pub robots: Vec<Robot>,
    /// The active target.
    pub goal: Goal,
    /// The rule options.
    pub(in crate::app) rules: Rules,
}

impl Draft {
    /// The draft of a valid puzzle.
    pub fn from_puzzle(puzzle: &Puzzle) -> Draft {
        Draft {
            board: puzzle.board().clone(),
            robots: puzzle.robots().to_vec(),
            goal: puzzle.goal(),
            rules: puzzle.rules(),
        }
    }

    /// An empty board of the given size with no robots and the target in the corner: a start
    /// for a design from scratch.
    pub fn empty(width: u16, height: u16) -> Result<Draft, ModelError> {
        let goal = Goal {
            pos: Pos::new(0, 0),
            color: TargetColor::Any,
        };
        // The goal's vortex is printed on the board, so it is a target like any other: it is
        // listed among the targets, drawn, and stays when other targets are printed.
        let mut board = Board::new(width, height)?;
        board.set_target(Target {
            pos: goal.pos,
            color: goal.color,
            shape: TargetShape::Vortex,
        })?;
        Ok(Draft {
            board,
            robots: Vec::new(),
            goal,
            rules: Rules::default(),
        })
    }

    /// Checks the draft and builds the puzzle, or says what is wrong and where.
    ///
    /// The checks are those of every file format as well as [`Puzzle::new`]'s, so the goal is
    /// solved, played and saved only while a target that counts for it is printed on its cell:
    /// a goal whose target was removed or cleared is no goal at all.
    pub fn to_puzzle(&self) -> Result<Puzzle, ModelError> {
        let puzzle = Puzzle::new(
            self.board.clone(),
            self.robots.clone(),
            self.goal,
            self.rules,
        )?;
        puzzle.check_targets()?;
        Ok(puzzle)
    }

    /// The goal, while a target that counts for it is printed on its cell.
    pub fn active_goal(&self) -> Option<Goal> {
        let target = self.board.target_at(self.goal.pos)?;
        (target.color == self.goal.color || target.color == TargetColor::Any).then_some(self.goal)
    }

    /// The robot standing on a cell.
    pub fn robot_at(&self, pos: Pos) -> Option<RobotColor> {
        self.robots.iter().find(|r| r.pos == pos).map(|r| r.color)
    }

    /// Where a robot stands, if it is on the board.
    pub fn robot_pos(&self, color: RobotColor) -> Option<Pos> {
        self.robots.iter().find(|r| r.color == color).map(|r| r.pos)
    }
}

/// The cells an invalid draft should show in red: the place a validation error names.
pub(in crate::app) fn problem_cells(error: &ModelError) -> Vec<Pos> {
    match error {
        ModelError::OffBoard { pos, .. }
        | ModelError::OnClosedCell { pos, .. }
        | ModelError::Overlap { pos, .. }
        | ModelError::BorderWall { pos, .. }
        | ModelError::GoalColor { pos, .. } => vec![*pos],
        // The cell of a target taken away holds nothing to fix: the panel says to choose
        // another target, and the board keeps no outline of the one that went.
        _ => Vec::new(),
    }
}

/// One change to a draft. Each is applied by `apply`, which says whether anything changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Puts up or takes down a wall on a side of a cell (and the neighbour's matching side).
    SetWall {
        /// The cell.
        pos: Pos,
        /// The side.
        side: Direction,
        /// Up or down.
        on: bool,
    },
    /// Closes or opens a cell.
    SetClosed {
        /// The cell.
        pos: Pos,
        /// Closed or open.
        closed: bool,
    },
    /// Puts a robot on a cell, taking it from wherever it stood.
    PlaceRobot {
        /// Which robot.
        color: RobotColor,
        /// Where.
        pos: Pos,
    },
    /// Takes a robot off the board.
    RemoveRobot(RobotColor),
    /// Prints a target, replacing any at its cell.
    SetTarget(Target),
    /// Moves the target printed at `from` to `to` (keeping it active if it was).
    MoveTarget {
        /// Where it is.
        from: Pos,
        /// Where it goes.
        to: Pos,
    },
    /// Removes the target printed at a cell.
    RemoveTarget(Pos),
    /// Makes a cell and colour the active target.
    SetGoal(Goal),
    /// Changes the rule options.
    SetRules(Rules),
    /// Changes the board's size, keeping what fits.
    Resize {
        /// New width.
        width: u16,
        /// New height.
        height: u16,
    },
    /// Removes every interior wall.
    ClearWalls,
    /// Removes every printed target.
    ClearTargets,
    /// Takes every robot off the board.
    ClearRobots,
    /// Replaces the board, keeping robots and the target.
    ReplaceBoard(Board),
    /// Replaces the whole draft (a new game, an imported puzzle).
    Replace(Box<Draft>),
    /// Places `count` robots (red, green, blue, yellow, silver, the first `count` of them) at
    /// random from a seed: never on a target, a closed cell or each other.
    RandomRobots {
        /// How many.
        count: usize,
        /// The seed, so the deal can be repeated.
        seed: u64,
    },
    /// Picks a random printed target that one of the robots can take, from a seed.
    RandomGoal {
        /// The seed.
        seed: u64,
    },
}

/// Applies an edit to a draft. Returns whether the draft changed, or says why the edit cannot
/// be made (the draft is then unchanged).
pub(in crate::app) fn apply(draft: &mut Draft, edit: &Edit) -> Result<bool, EditError> {
    let before = draft.clone();
    match edit {
        Edit::SetWall { pos, side, on } => {
            if draft.board.is_border(*pos, *side) {
                if *on {
                    return Ok(false);
                }
                return Err(EditError::Model(ModelError::BorderWall {
                    pos: *pos,
                    side: *side,
                }));
            }
            draft.board.set_wall(*pos, *side, *on)?;
        }
        Edit::SetClosed { pos, closed } => draft.board.set_closed(*pos, *closed)?,
        Edit::PlaceRobot { color, pos } => {
            if !draft.board.contains(*pos) {
                return Err(EditError::Model(ModelError::OffBoard {
                    what: format!("{color} robot"),
                    pos: *pos,
                    width: draft.board.width(),
                    height: draft.board.height(),
                }));
            }
            if let Some(other) = draft.robot_at(*pos).filter(|c| c != color) {
                return Err(EditError::Occupied {
                    pos: *pos,
                    robot: other,
                });
            }
            draft.robots.retain(|r| r.color != *color);
            draft.robots.push(Robot {
                color: *color,
                pos: *pos,
            });
            draft.robots.sort_by_key(|r| r.color);
        }
        Edit::RemoveRobot(color) => draft.robots.retain(|r| r.color != *color),
        Edit::SetTarget(target) => {
            let new = draft.board.target_at(target.pos).is_none();
            draft.board.set_target(*target)?;
            if new {
                // A target just printed is the one the designer is working on: it becomes
                // the active one, as the Active target box would make it.
                draft.goal = Goal {
                    pos: target.pos,
                    color: target.color,
                };
            } else if target.pos == draft.goal.pos && target.color != TargetColor::Any {
                // A target printed over the goal's in another colour is the goal's new target.
                draft.goal.color = target.color;
            }
        }
        Edit::MoveTarget { from, to } => {
            let Some(target) = draft.board.target_at(*from).copied() else {
                return Ok(false);
            };
            if from == to {
                return Ok(false);
            }
            if draft.board.target_at(*to).is_some() {
                return Err(EditError::TargetThere(*to));
            }
            draft.board.remove_target(*from);
            draft.board.set_target(Target { pos: *to, ..target })?;
            if draft.goal.pos == *from {
                draft.goal.pos = *to;
            }
        }
        Edit::RemoveTarget(pos) => {
            draft.board.remove_target(*pos);
        }
        Edit::SetGoal(goal) => draft.goal = *goal,
        Edit::SetRules(rules) => draft.rules = *rules,
        Edit::Resize { width, height } => {
            let board = draft.board.resized(*width, *height)?;
            draft.robots.retain(|r| board.contains(r.pos));
            draft.board = board;
        }
        Edit::ClearWalls => draft.board.clear_walls(),
        Edit::ClearTargets => draft.board.clear_targets(),
        Edit::ClearRobots => draft.robots.clear(),
        Edit::ReplaceBoard(board) => {
            draft.board = board.clone();
            draft.robots.retain(|r| draft.board.contains(r.pos));
        }
        Edit::Replace(new) => *draft = (**new).clone(),
        Edit::RandomRobots { count, seed } => {
            if !(1..=MAX_ROBOTS).contains(count) {
                return Err(EditError::Model(ModelError::RobotCount(*count)));
            }
            let mut rng = ChaCha8Rng::seed_from_u64(*seed);
            draft.robots = random_robots(&draft.board, &RobotColor::ALL[..*count], &mut rng)?;
            if draft
                .goal
                .color
                .robot()
                .is_some_and(|c| draft.robot_pos(c).is_none())
            {
                // The target asked for a robot that is gone: pick one the new robots can take.
                if let Some(goal) = random_goal(&draft.board, &draft.robots, &mut rng) {
                    draft.goal = goal;
                }
            }
        }
        Edit::RandomGoal { seed } => {
            let mut rng = ChaCha8Rng::seed_from_u64(*seed);
            draft.goal = random_goal(&draft.board, &draft.robots, &mut rng)
                .ok_or(EditError::Model(ModelError::NoTarget))?;
        }
    }
    Ok(*draft != before)
}

/// Why an edit was not made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(in crate::app) enum EditError {
    /// The model refuses it.
    #[error("{0}")]
    Model(#[from] ModelError),
    /// Another robot stands there.
    #[error("the {robot} robot already stands on {pos}; move it first")]
    Occupied {
        /// The cell.
        pos: Pos,
        /// The robot on it.
        robot: RobotColor,
    },
    /// A target is already printed there.
    #[error("a target is already printed on {0}")]
    TargetThere(Pos),
}

/// Undo and redo over whole drafts. A draft of the largest board is a few kilobytes, so
/// keeping whole copies is simpler and safer than inverting every edit.
#[derive(Clone, Debug, Default)]
pub(in crate::app) struct History {
    undo: Vec<Draft>,
    redo: Vec<Draft>,
}

/// The most undo steps kept.
const HISTORY_LIMIT: usize = 500;

impl History {
    /// Records the draft as it was before a change, as a new undo step.
    pub(super) fn record(&mut self, before: Draft) {
        self.undo.push(before);
        if self.undo.len() > HISTORY_LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Steps back: returns the draft to restore, given the current one.
    pub(super) fn undo(&mut self, current: &Draft) -> Option<Draft> {
        let previous = self.undo.pop()?;
        self.redo.push(current.clone());
        Some(previous)
    }

    /// Steps forward again.
    pub(super) fn redo(&mut self, current: &Draft) -> Option<Draft> {
        let next = self.redo.pop()?;
        self.undo.push(current.clone());
        Some(next)
    }

    /// Whether there is something to undo.
    pub(in crate::app) fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is something to redo.
    pub(in crate::app) fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

/// Writes a draft in the native RON layout, valid or not, so that the stored text reads and
/// diffs like any board file.
pub fn write_draft(draft: &Draft) -> String {
    native::write_parts(&draft.board, &draft.robots, &draft.goal, &draft.rules)
}

/// Reads a draft written by [`write_draft`] (or any native puzzle file). The board must be
/// well formed; robots and the target may be in any state the editor allows.
pub(in crate::app) fn parse_draft(text: &str) -> Result<Draft, FormatError> {
    parse_draft_noting(text).map(|(draft, _)| draft)
}

/// Reads a draft as [`parse_draft`] does, with one sentence for each robot it had to leave
/// out, so that a caller can say what changed rather than change the board without a word.
pub(in crate::app) fn parse_draft_noting(text: &str) -> Result<(Draft, Vec<String>), FormatError> {
    let parts = native::parse_parts(text)?;
    let mut robots: Vec<Robot> = Vec::new();
    let mut notes = Vec::new();
    for robot in parts.robots {
        // The editor never stores two robots of a colour, robots on one cell or robots off
        // the board; a hand-edited file that does loses the extra ones, and is told so.
        let why = if !parts.board.contains(robot.pos) {
            Some("it stood off the board".to_string())
        } else if let Some(other) = robots.iter().find(|o| o.pos == robot.pos) {
            Some(format!("it stood on the {} robot's cell", other.color))
        } else if robots.iter().any(|o| o.color == robot.color) {
            Some(format!("there was already a {} robot", robot.color))
        } else {
            None
        };
        match why {
            Some(why) => notes.push(format!(
                "The {} robot at {} was left out: {why}.",
                robot.color, robot.pos
            )),
            None => robots.push(robot),
        }
    }
    robots.sort_by_key(|r| r.color);
    Ok((
        Draft {
            board: parts.board,
            robots,
            goal: parts.goal,
            rules: parts.rules,
        },
        notes,
    ))
}

/// A short description of a target for lists: "blue triangle at (9, 12)".
pub fn describe_target(target: &Target) -> String {
    match target.color {
        TargetColor::Any => format!("vortex at {}", target.pos),
        color => format!("{color} {} at {}", target.shape.name(), target.pos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::formats::native;
    use crate::model::samples;
    use crate::model::tiles::random_game;
    use proptest::prelude::*;

    #[test]
    fn valid_drafts_are_stored_as_native_ron() {
        for seed in 0..10 {
            let (puzzle, _) = random_game(seed, 1 + seed as usize % 5).unwrap();
            let draft = Draft::from_puzzle(&puzzle);
            let text = write_draft(&draft);
            assert_eq!(text, native::write(&puzzle));
            assert_eq!(parse_draft(&text).unwrap(), draft);
            assert_eq!(native::parse(&text).unwrap(), puzzle);
        }
    }

    #[test]
    fn invalid_drafts_survive_storage() {
        let mut draft = Draft::from_puzzle(&samples::fogleman_22());
        // The centre of the standard board is closed: a robot there is invalid but storable.
        apply(
            &mut draft,
            &Edit::PlaceRobot {
                color: RobotColor::Red,
                pos: Pos::new(7, 7),
            },
        )
        .unwrap();
        let error = draft.to_puzzle().unwrap_err();
        assert_eq!(problem_cells(&error), vec![Pos::new(7, 7)]);
        assert_eq!(parse_draft(&write_draft(&draft)).unwrap(), draft);
        // Laid out as the native writer lays out the same board with the robot moved off.
        let mut valid = draft.clone();
        valid.robots[0].pos = Pos::new(0, 15);
        let native_text = write_draft(&valid);
        let invalid_text = write_draft(&draft);
        assert_eq!(native_text.lines().count(), invalid_text.lines().count());
        let empty = Draft::empty(5, 3).unwrap();
        assert_eq!(parse_draft(&write_draft(&empty)).unwrap(), empty);
    }

    #[test]
    fn toggling_a_wall_sets_both_sides_and_border_walls_stay() {
        let mut draft = Draft::empty(4, 4).unwrap();
        let edit = Edit::SetWall {
            pos: Pos::new(1, 1),
            side: Direction::East,
            on: true,
        };
        assert!(apply(&mut draft, &edit).unwrap());
        let east = draft.board.cell(Pos::new(1, 1));
        let west = draft.board.cell(Pos::new(2, 1));
        assert!(draft.board.has_wall(east, Direction::East));
        assert!(draft.board.has_wall(west, Direction::West));
        assert!(
            !apply(&mut draft, &edit).unwrap(),
            "setting it twice changes nothing"
        );
        let border = Edit::SetWall {
            pos: Pos::new(0, 0),
            side: Direction::West,
            on: false,
        };
        assert!(apply(&mut draft, &border).is_err());
        assert!(draft.board.has_wall(0, Direction::West));
    }

    #[test]
    fn a_robot_cannot_be_placed_on_another() {
        let mut draft = Draft::from_puzzle(&samples::fogleman_22());
        let green = draft.robot_pos(RobotColor::Green).unwrap();
        let before = draft.clone();
        let error = apply(
            &mut draft,
            &Edit::PlaceRobot {
                color: RobotColor::Red,
                pos: green,
            },
        )
        .unwrap_err();
        assert!(error.to_string().contains("green robot already stands"));
        assert_eq!(draft, before);
    }

    #[test]
    fn moving_the_active_target_keeps_it_active() {
        let mut draft = Draft::from_puzzle(&samples::fogleman_22());
        let from = draft.goal.pos;
        let to = Pos::new(0, 0);
        assert!(apply(&mut draft, &Edit::MoveTarget { from, to }).unwrap());
        assert_eq!(draft.goal.pos, to);
        assert!(draft.board.target_at(to).is_some());
        assert!(draft.board.target_at(from).is_none());
        assert!(draft.to_puzzle().is_ok());
    }

    /// Every edit that takes targets away leaves no goal behind: the draft is no puzzle until
    /// another target is made the active one.
    #[test]
    fn a_goal_whose_target_is_gone_is_not_solved() {
        let start = Draft::from_puzzle(&samples::fogleman_22());
        let goal = start.goal.pos;
        let small = Edit::Resize {
            width: goal.x,
            height: start.board.height(),
        };
        for edit in [Edit::ClearTargets, Edit::RemoveTarget(goal), small] {
            let mut draft = start.clone();
            assert!(
                apply(&mut draft, &edit).unwrap(),
                "{edit:?} changes the board"
            );
            assert_eq!(draft.active_goal(), None, "after {edit:?}");
            let error = draft.to_puzzle().unwrap_err();
            assert!(
                matches!(
                    error,
                    ModelError::GoalWithoutTarget(_) | ModelError::OffBoard { .. }
                ),
                "after {edit:?}: {error}"
            );
        }
        // A target of another colour printed on the goal's cell takes the goal with it.
        let mut draft = start.clone();
        let green = Target {
            pos: goal,
            color: TargetColor::Green,
            shape: TargetShape::Circle,
        };
        apply(&mut draft, &Edit::SetTarget(green)).unwrap();
        assert_eq!(draft.goal.color, TargetColor::Green);
        assert!(draft.to_puzzle().is_ok());
    }

    #[test]
    fn random_deals_repeat_with_their_seed() {
        let start = Draft::from_puzzle(&samples::fogleman_22());
        let deal = |seed| {
            let mut draft = start.clone();
            apply(&mut draft, &Edit::RandomRobots { count: 5, seed }).unwrap();
            apply(&mut draft, &Edit::RandomGoal { seed }).unwrap();
            draft
        };
        assert_eq!(deal(7), deal(7));
        assert_ne!(deal(7), deal(8));
        assert!(deal(7).to_puzzle().is_ok());
    }

    #[test]
    fn undo_and_redo_walk_the_history() {
        let mut history = History::default();
        let a = Draft::empty(3, 3).unwrap();
        let b = Draft::empty(4, 4).unwrap();
        history.record(a.clone());
        assert_eq!(history.undo(&b), Some(a.clone()));
        assert_eq!(history.redo(&a), Some(b.clone()));
        assert!(history.can_undo());
        assert!(!history.can_redo());
    }

    proptest! {
        #[test]
        fn any_edit_sequence_keeps_the_board_storable(
            edits in proptest::collection::vec((0u16..8, 0u16..8, 0usize..4, any::<bool>(), 0u8..4), 0..40)
        ) {
            let mut draft = Draft::empty(6, 5).unwrap();
            for (x, y, side, on, kind) in edits {
                let pos = Pos::new(x, y);
                let edit = match kind {
                    0 => Edit::SetWall { pos, side: Direction::ALL[side], on },
                    1 => Edit::SetClosed { pos, closed: on },
                    2 => Edit::PlaceRobot { color: RobotColor::ALL[side], pos },
                    _ => Edit::Resize { width: 3 + x % 5, height: 3 + y % 5 },
                };
                // Edits off the board are refused; the draft stays as it was.
                let before = draft.clone();
                if apply(&mut draft, &edit).is_err() {
                    prop_assert_eq!(&draft, &before);
                }
                prop_assert_eq!(parse_draft(&write_draft(&draft)).unwrap(), draft.clone());
            }
        }
    }
}
