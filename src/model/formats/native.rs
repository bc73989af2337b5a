//! The native format: RON, human-editable, with a format version.
//!
//! ```ron
//! (
//!     format: 1,
//!     width: 6,
//!     height: 6,
//!     walls: [(2, 0, East), (1, 3, South)],
//!     closed: [],
//!     targets: [(x: 4, y: 1, color: Red, shape: Circle)],
//!     robots: [(color: Red, x: 0, y: 5), (color: Blue, x: 5, y: 5)],
//!     goal: (x: 4, y: 1, color: Red),
//!     rules: (ricochet: false, no_rebound: false),
//! )
//! ```
//! A wall `(x, y, side)` stands on that side of cell (x, y) and so on the neighbouring cell
//! too; walls on the border are implied.

use super::FormatError;
use crate::model::board::{Board, RobotColor, Shape, Target, TargetColor};
use crate::model::geometry::{Direction, Pos};
use crate::model::puzzle::{Goal, Puzzle, Robot, Rules};
use serde::{Deserialize, Serialize};

/// The format version this program writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleFile {
    format: u32,
    width: u16,
    height: u16,
    #[serde(default)]
    walls: Vec<(u16, u16, Direction)>,
    #[serde(default)]
    closed: Vec<(u16, u16)>,
    #[serde(default)]
    targets: Vec<TargetEntry>,
    robots: Vec<RobotEntry>,
    goal: GoalEntry,
    #[serde(default)]
    rules: Rules,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetEntry {
    x: u16,
    y: u16,
    color: TargetColor,
    shape: Shape,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RobotEntry {
    color: RobotColor,
    x: u16,
    y: u16,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GoalEntry {
    x: u16,
    y: u16,
    color: TargetColor,
}

/// Parses a native puzzle file, reporting syntax errors by line and column and impossible
/// puzzles by what and where.
pub fn parse(text: &str) -> Result<Puzzle, FormatError> {
    let file: PuzzleFile = ron::from_str(text).map_err(|e| FormatError::Syntax {
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    })?;
    if file.format == 0 || file.format > FORMAT_VERSION {
        return Err(FormatError::Unrepresentable(format!(
            "format version {} is not supported (this program reads version {FORMAT_VERSION})",
            file.format
        )));
    }
    let mut board = Board::new(file.width, file.height)?;
    for (x, y, side) in file.walls {
        board.set_wall(Pos::new(x, y), side, true)?;
    }
    for (x, y) in file.closed {
        board.set_closed(Pos::new(x, y), true)?;
    }
    for t in file.targets {
        let pos = Pos::new(t.x, t.y);
        if board.target_at(pos).is_some() {
            return Err(FormatError::Unrepresentable(format!(
                "two targets are listed at {pos}"
            )));
        }
        board.set_target(Target {
            pos,
            color: t.color,
            shape: t.shape,
        })?;
    }
    let robots = file
        .robots
        .iter()
        .map(|r| Robot {
            color: r.color,
            pos: Pos::new(r.x, r.y),
        })
        .collect();
    let goal = Goal {
        pos: Pos::new(file.goal.x, file.goal.y),
        color: file.goal.color,
    };
    Ok(Puzzle::new(board, robots, goal, file.rules)?)
}

/// Writes a puzzle in the native format.
pub fn write(puzzle: &Puzzle) -> String {
    let board = puzzle.board();
    let file = PuzzleFile {
        format: FORMAT_VERSION,
        width: board.width(),
        height: board.height(),
        walls: board
            .interior_walls()
            .into_iter()
            .map(|(p, d)| (p.x, p.y, d))
            .collect(),
        closed: board
            .closed_cells()
            .into_iter()
            .map(|p| (p.x, p.y))
            .collect(),
        targets: board
            .targets()
            .iter()
            .map(|t| TargetEntry {
                x: t.pos.x,
                y: t.pos.y,
                color: t.color,
                shape: t.shape,
            })
            .collect(),
        robots: puzzle
            .robots()
            .iter()
            .map(|r| RobotEntry {
                color: r.color,
                x: r.pos.x,
                y: r.pos.y,
            })
            .collect(),
        goal: GoalEntry {
            x: puzzle.goal().pos.x,
            y: puzzle.goal().pos.y,
            color: puzzle.goal().color,
        },
        rules: puzzle.rules(),
    };
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(2)
        .separate_tuple_members(false)
        .struct_names(false);
    // Serialising plain data structs into a String cannot fail.
    let mut text = ron::ser::to_string_pretty(&file, config).expect("puzzle data serialises");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tiles::random_game;

    #[test]
    fn native_round_trip_keeps_every_detail() {
        for seed in 0..20 {
            let (puzzle, _) = random_game(seed, 1 + (seed as usize % 5)).unwrap();
            let puzzle = puzzle.with_rules(Rules {
                ricochet: seed % 2 == 0,
                no_rebound: seed % 3 == 0,
            });
            let text = write(&puzzle);
            assert_eq!(parse(&text).unwrap(), puzzle, "{text}");
        }
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let err = parse("(\n  format: 1,\n  width: x,\n)").unwrap_err();
        match err {
            FormatError::Syntax { line, .. } => assert_eq!(line, 3),
            other => panic!("unexpected {other}"),
        }
    }

    #[test]
    fn impossible_puzzles_say_what_and_where() {
        let text = "(format: 1, width: 4, height: 4, robots: [(color: Red, x: 1, y: 1), \
                    (color: Blue, x: 1, y: 1)], goal: (x: 0, y: 0, color: Red))";
        let err = parse(text).unwrap_err().to_string();
        assert!(
            err.contains("red and blue robots both stand on (1, 1)"),
            "{err}"
        );
        let text = "(format: 1, width: 4, height: 4, robots: [(color: Red, x: 9, y: 1)], \
                    goal: (x: 0, y: 0, color: Red))";
        let err = parse(text).unwrap_err().to_string();
        assert!(
            err.contains("red robot at (9, 1) is off the 4x4 board"),
            "{err}"
        );
        let text = "(format: 1, width: 90, height: 4, robots: [], goal: (x: 0, y: 0, color: Red))";
        assert!(
            parse(text)
                .unwrap_err()
                .to_string()
                .contains("out of range")
        );
        let text = "(format: 7, width: 4, height: 4, robots: [], goal: (x: 0, y: 0, color: Red))";
        assert!(parse(text).unwrap_err().to_string().contains("version 7"));
    }
}
