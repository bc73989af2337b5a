//! A plain-text drawing of a puzzle, for the terminal.

use super::geometry::{Direction, Pos};
use super::puzzle::Puzzle;

/// Draws the board with walls as `|` and `---`, robots as their move letters, closed cells as
/// `#`, the active target as `*` (over a robot it stands under) and other targets as `+`.
pub fn draw(puzzle: &Puzzle) -> String {
    let board = puzzle.board();
    let mut out = String::new();
    let goal = puzzle.goal();
    for y in 0..board.height() {
        // The line above row y: the north walls.
        out.push('+');
        for x in 0..board.width() {
            let cell = board.cell(Pos::new(x, y));
            out.push_str(if board.has_wall(cell, Direction::North) {
                "---"
            } else {
                "   "
            });
            out.push('+');
        }
        out.push('\n');
        for x in 0..board.width() {
            let pos = Pos::new(x, y);
            let cell = board.cell(pos);
            out.push(if board.has_wall(cell, Direction::West) {
                '|'
            } else {
                ' '
            });
            let robot = puzzle.robots().iter().find(|r| r.pos == pos);
            let mark = if board.is_closed(cell) {
                " # ".to_string()
            } else {
                let left = if pos == goal.pos {
                    '*'
                } else if board.target_at(pos).is_some() {
                    '+'
                } else {
                    ' '
                };
                let middle = robot.map_or(' ', |r| r.color.letter());
                format!("{left}{middle} ")
            };
            out.push_str(&mark);
        }
        out.push('|');
        out.push('\n');
    }
    out.push('+');
    for _ in 0..board.width() {
        out.push_str("---+");
    }
    out.push('\n');
    let robots: Vec<String> = puzzle
        .robots()
        .iter()
        .map(|r| format!("{} {} {}", r.color.letter(), r.color, r.pos))
        .collect();
    out.push_str(&format!("robots: {}\n", robots.join(", ")));
    let who = match goal.color.robot() {
        Some(color) => format!("the {color} robot"),
        None => "any robot".to_string(),
    };
    out.push_str(&format!("target: {} for {who}\n", goal.pos));
    let rules = puzzle.rules();
    if rules.ricochet || rules.no_rebound {
        out.push_str(&format!(
            "rules: ricochet {}, no rebound {}\n",
            if rules.ricochet { "on" } else { "off" },
            if rules.no_rebound { "on" } else { "off" }
        ));
    }
    out
}
