//! Kevin Cox's text format (his `ricochetrobots` project).
//!
//! ```text
//! board 16 16
//! B N N ...      one line per row, one token per cell: B = walls north and west,
//! W C C ...      N = north only, W = west only, C = neither
//! robots 5
//! 0 1            x y per robot: silver (his "black"), red, green, yellow, blue
//! ...
//! target 0 9 12 4
//! ```
//! Walls are written on each cell's north and west side only; the border is always walled.
//! `robots K` for K < 5 drops robots from the front of that order (`robots 4` lists red, green,
//! yellow, blue). The last number of `target` is the active robot's index in the list as
//! written, or -1 for any robot. An optional `mirrors 0` block may follow the board (mirrors are
//! not part of our rules, so K > 0 is refused) and a `solution N` block of `move R X Y` lines
//! may follow the target (read and checked for form, not kept).
//!
//! Cells walled on all four sides that hold no robot are read as closed cells. In a five-robot
//! file, a robot other than the active one that stands on such a cell is parked there, as Cox's
//! files do for four-robot games, and is left out. The format has no printed targets, so the
//! active target becomes the board's only target (a circle, or the vortex for any robot).

use super::{FormatError, checked, quote, strip_bom};
use crate::model::board::{Board, MAX_SIDE, MIN_SIDE, RobotColor, Shape, Target, TargetColor};
use crate::model::geometry::{Direction, Pos};
use crate::model::puzzle::{Goal, Puzzle, Robot, Rules};

/// Cox's robot order: silver (his black) first.
const COX_ORDER: [RobotColor; 5] = [
    RobotColor::Silver,
    RobotColor::Red,
    RobotColor::Green,
    RobotColor::Yellow,
    RobotColor::Blue,
];

/// A line cut into tokens with their 1-based columns.
struct Line<'a> {
    number: usize,
    tokens: Vec<(usize, &'a str)>,
}

impl Line<'_> {
    fn error(&self, index: usize, message: String) -> FormatError {
        let column = self.tokens.get(index).map_or(1, |t| t.0);
        FormatError::Syntax {
            line: self.number,
            column,
            message,
        }
    }

    fn number<T: std::str::FromStr>(&self, index: usize, what: &str) -> Result<T, FormatError> {
        let Some(&(_, token)) = self.tokens.get(index) else {
            return Err(self.error(index, format!("expected {what}, found the end of the line")));
        };
        token
            .parse()
            .map_err(|_| self.error(index, format!("expected {what}, found '{}'", quote(token))))
    }

    fn expect_len(&self, len: usize, shape: &str) -> Result<(), FormatError> {
        if self.tokens.len() != len {
            return Err(self.error(
                len.min(self.tokens.len().saturating_sub(1)),
                format!("expected '{shape}'"),
            ));
        }
        Ok(())
    }

    fn keyword(&self) -> &str {
        self.tokens.first().map_or("", |t| t.1)
    }
}

fn lines(text: &str) -> Vec<Line<'_>> {
    text.lines()
        .enumerate()
        .map(|(i, raw)| {
            let mut tokens = Vec::new();
            // The byte and column where the current token starts; columns count characters,
            // kept as the line is walked once so a long line costs its length, not its square.
            let mut start = None;
            let ends = raw.char_indices().chain(std::iter::once((raw.len(), ' ')));
            for (column, (byte, c)) in (1..).zip(ends) {
                match (c.is_whitespace(), start) {
                    (false, None) => start = Some((byte, column)),
                    (true, Some((s, start_column))) => {
                        tokens.push((start_column, &raw[s..byte]));
                        start = None;
                    }
                    _ => {}
                }
            }
            Line {
                number: i + 1,
                tokens,
            }
        })
        .filter(|l| !l.tokens.is_empty())
        .collect()
}

/// The lines of a file still to read, and what to say when they run out.
struct Reader<'l, 'a> {
    rest: std::slice::Iter<'l, Line<'a>>,
    /// The file's last line number, where a file that ends too soon is reported.
    last_line: usize,
}

impl<'l, 'a> Reader<'l, 'a> {
    /// The next line, or an error saying the file ends before `what`.
    fn next(&mut self, what: impl FnOnce() -> String) -> Result<&'l Line<'a>, FormatError> {
        self.rest.next().ok_or_else(|| FormatError::Syntax {
            line: self.last_line,
            column: 1,
            message: format!("the file ends before {}", what()),
        })
    }
}

/// Parses Cox's text format.
pub fn parse(text: &str) -> Result<Puzzle, FormatError> {
    let text = strip_bom(text);
    let all = lines(text);
    let mut reader = Reader {
        rest: all.iter(),
        last_line: text.lines().count().max(1),
    };
    let mut board = read_board(&mut reader)?;
    let (colors, mut robots) = read_robots(&mut reader)?;
    let (goal_pos, active, goal_color) = read_target(&mut reader, colors)?;
    check_solution(&mut reader)?;

    let enclosed = |board: &Board, pos: Pos| {
        board.contains(pos)
            && Direction::ALL
                .iter()
                .all(|&d| board.has_wall(board.cell(pos), d))
    };
    // In a five-robot file, robots parked on enclosed cells are not in the game.
    if colors.len() == 5 {
        robots.retain(|r| Some(r.color) == active || !enclosed(&board, r.pos));
    }
    for cell in 0..board.cell_count() as u16 {
        let pos = board.pos(cell);
        let used = robots.iter().any(|r| r.pos == pos) || pos == goal_pos;
        if !used && enclosed(&board, pos) && board.width() * board.height() > 1 {
            board.set_closed(pos, true)?;
        }
    }
    if board.contains(goal_pos) {
        let shape = if goal_color == TargetColor::Any {
            Shape::Vortex
        } else {
            Shape::Circle
        };
        board.set_target(Target {
            pos: goal_pos,
            color: goal_color,
            shape,
        })?;
    }
    let goal = Goal {
        pos: goal_pos,
        color: goal_color,
    };
    checked(Puzzle::new(board, robots, goal, Rules::default())?)
}

/// The `board WIDTH HEIGHT` line and its rows of cell tokens.
fn read_board(reader: &mut Reader<'_, '_>) -> Result<Board, FormatError> {
    let header = reader.next(|| "'board WIDTH HEIGHT'".into())?;
    if header.keyword() != "board" {
        return Err(header.error(0, "expected 'board WIDTH HEIGHT'".into()));
    }
    header.expect_len(3, "board WIDTH HEIGHT")?;
    let side = |index: usize, what: &str| -> Result<u16, FormatError> {
        let value: i64 = header.number(index, what)?;
        u16::try_from(value)
            .ok()
            .filter(|side| (MIN_SIDE..=MAX_SIDE).contains(side))
            .ok_or_else(|| {
                header.error(
                    index,
                    format!("{what} {value} is out of range: a board side must be {MIN_SIDE} to {MAX_SIDE}"),
                )
            })
    };
    let width = side(1, "the board width")?;
    let height = side(2, "the board height")?;
    let mut board = Board::new(width, height)?;
    for y in 0..height {
        let row = reader.next(|| format!("board row {}", y + 1))?;
        if row.tokens.len() != usize::from(width) {
            return Err(row.error(
                0,
                format!(
                    "a board row needs {width} tokens, found {}",
                    row.tokens.len()
                ),
            ));
        }
        for (x, &(_, token)) in row.tokens.iter().enumerate() {
            let (north, west) = match token {
                "B" => (true, true),
                "N" => (true, false),
                "W" => (false, true),
                "C" => (false, false),
                _ => {
                    return Err(row.error(
                        x,
                        format!("'{}' is not a cell: use B, N, W or C", quote(token)),
                    ));
                }
            };
            let pos = Pos::new(x as u16, y);
            // The border is always walled, whatever the file says about it.
            for (dir, on) in [(Direction::North, north), (Direction::West, west)] {
                if !board.is_border(pos, dir) {
                    board.set_wall(pos, dir, on)?;
                }
            }
        }
    }
    Ok(board)
}

/// The optional `mirrors 0` line, then `robots K` and a position line per robot: the robots'
/// colours (a tail of Cox's order) and the robots.
fn read_robots(
    reader: &mut Reader<'_, '_>,
) -> Result<(&'static [RobotColor], Vec<Robot>), FormatError> {
    let mut line = reader.next(|| "'robots K'".into())?;
    if line.keyword() == "mirrors" {
        line.expect_len(2, "mirrors K")?;
        let count: usize = line.number(1, "the number of mirrors")?;
        if count > 0 {
            return Err(line.error(
                1,
                format!("this file has {count} mirrors; mirrors are not part of these rules"),
            ));
        }
        line = reader.next(|| "'robots K'".into())?;
    }
    if line.keyword() != "robots" {
        return Err(line.error(0, "expected 'robots K'".into()));
    }
    line.expect_len(2, "robots K")?;
    let count: usize = line.number(1, "the number of robots")?;
    if !(1..=5).contains(&count) {
        return Err(line.error(
            1,
            format!("the number of robots must be 1 to 5, not {count}"),
        ));
    }
    let colors = &COX_ORDER[5 - count..];
    let mut robots = Vec::with_capacity(count);
    for &color in colors {
        let line = reader.next(|| format!("the {color} robot's position"))?;
        line.expect_len(2, "X Y")?;
        let x: u16 = line.number(0, "a column")?;
        let y: u16 = line.number(1, "a row")?;
        robots.push(Robot {
            color,
            pos: Pos::new(x, y),
        });
    }
    Ok((colors, robots))
}

/// The `target 0 X Y R` line: the goal's cell, the active robot (`None` for any robot) and
/// the goal's colour.
fn read_target(
    reader: &mut Reader<'_, '_>,
    colors: &[RobotColor],
) -> Result<(Pos, Option<RobotColor>, TargetColor), FormatError> {
    let line = reader.next(|| "'target 0 X Y R'".into())?;
    if line.keyword() != "target" {
        return Err(line.error(0, "expected 'target 0 X Y R'".into()));
    }
    line.expect_len(5, "target 0 X Y R")?;
    let _kind: i64 = line.number(1, "a number")?;
    let goal_pos = Pos::new(line.number(2, "a column")?, line.number(3, "a row")?);
    let index: i64 = line.number(4, "the active robot's index or -1")?;
    let active = match index {
        -1 => None,
        i if (0..colors.len() as i64).contains(&i) => Some(colors[i as usize]),
        _ => {
            return Err(line.error(
                4,
                format!(
                    "the active robot must be 0 to {} or -1, not {index}",
                    colors.len() - 1
                ),
            ));
        }
    };
    let goal_color = match active {
        None => TargetColor::Any,
        Some(color) => TargetColor::for_robot(color)
            .ok_or_else(|| line.error(4, "the silver robot has no target of its own".into()))?,
    };
    Ok((goal_pos, active, goal_color))
}

/// The optional `solution N` block: read and checked for form, not kept; nothing may follow.
fn check_solution(reader: &mut Reader<'_, '_>) -> Result<(), FormatError> {
    let Some(line) = reader.rest.next() else {
        return Ok(());
    };
    if line.keyword() != "solution" {
        return Err(line.error(0, "expected 'solution N' or the end of the file".into()));
    }
    line.expect_len(2, "solution N")?;
    let moves: usize = line.number(1, "the number of moves")?;
    for i in 0..moves {
        let line = reader.next(|| format!("solution move {}", i + 1))?;
        if line.keyword() != "move" {
            return Err(line.error(0, "expected 'move R X Y'".into()));
        }
        line.expect_len(4, "move R X Y")?;
        let _: u16 = line.number(1, "a robot index")?;
        let _: u16 = line.number(2, "a column")?;
        let _: u16 = line.number(3, "a row")?;
    }
    if let Some(line) = reader.rest.next() {
        return Err(line.error(0, "unexpected text after the solution".into()));
    }
    Ok(())
}

/// Writes a puzzle in Cox's format. Closed cells are written as cells walled on all sides (a
/// robot can neither enter nor cross either). Robots that are a tail of Cox's order use the
/// `robots K` form; any other set is written as five robots with the missing ones parked on
/// closed cells, which needs enough closed cells.
pub fn write(puzzle: &Puzzle) -> Result<String, FormatError> {
    // Cox's format has no place for rules: written without them, the puzzle read back would
    // be another one (the ricochet rule refuses one-move solutions).
    if let Some(rules) = super::rules_in_force(&puzzle.rules()) {
        return Err(FormatError::Unrepresentable(format!(
            "Cox's text format carries no rules, so it cannot hold {rules} this puzzle is \
             played with: read back, the puzzle would be played without it; save it as a .ron \
             file, which keeps its rules"
        )));
    }
    let board = puzzle.board();
    let mut walled = board.clone();
    for pos in board.closed_cells() {
        for dir in Direction::ALL {
            walled.set_wall(pos, dir, true)?;
        }
    }
    let mut text = format!("board {} {}\n", board.width(), board.height());
    for y in 0..board.height() {
        let row: Vec<&str> = (0..board.width())
            .map(|x| {
                let cell = walled.cell(Pos::new(x, y));
                match (
                    walled.has_wall(cell, Direction::North),
                    walled.has_wall(cell, Direction::West),
                ) {
                    (true, true) => "B",
                    (true, false) => "N",
                    (false, true) => "W",
                    (false, false) => "C",
                }
            })
            .collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }

    let present: Vec<RobotColor> = puzzle.robots().iter().map(|r| r.color).collect();
    let count = present.len();
    let tail = &COX_ORDER[5 - count..];
    let listed: Vec<(RobotColor, Pos)> = if tail.iter().all(|c| present.contains(c)) {
        tail.iter().map(|&c| (c, robot_pos(puzzle, c))).collect()
    } else {
        let mut parking = board.closed_cells().into_iter();
        let mut listed = Vec::new();
        for color in COX_ORDER {
            let pos = if present.contains(&color) {
                robot_pos(puzzle, color)
            } else {
                parking.next().ok_or_else(|| {
                    FormatError::Unrepresentable(format!(
                        "Cox's format cannot list these robots without the {color} one: \
                         there is no closed cell to park it on"
                    ))
                })?
            };
            listed.push((color, pos));
        }
        listed
    };
    // A five-robot file reads a robot walled in on all four sides as parked and leaves it out
    // (unless it is the active one): a real robot standing there would be lost on the way.
    if listed.len() == 5 {
        let active = puzzle.goal().color.robot();
        for robot in puzzle.robots() {
            let cell = walled.cell(robot.pos);
            let enclosed = Direction::ALL.iter().all(|&d| walled.has_wall(cell, d));
            if enclosed && Some(robot.color) != active && board.cell_count() > 1 {
                return Err(FormatError::Unrepresentable(format!(
                    "Cox's format cannot keep the {} robot at ({}, {}): a five-robot file reads a \
                     robot walled in on all four sides as parked and leaves it out",
                    robot.color, robot.pos.x, robot.pos.y
                )));
            }
        }
    }
    text.push_str(&format!("robots {}\n", listed.len()));
    for (_, pos) in &listed {
        text.push_str(&format!("{} {}\n", pos.x, pos.y));
    }
    let goal = puzzle.goal();
    let index = match goal.color.robot() {
        None => -1,
        Some(color) => listed
            .iter()
            .position(|(c, _)| *c == color)
            .map_or(-1, |i| i as i64),
    };
    text.push_str(&format!("target 0 {} {} {index}\n", goal.pos.x, goal.pos.y));
    Ok(text)
}

fn robot_pos(puzzle: &Puzzle, color: RobotColor) -> Pos {
    puzzle
        .robots()
        .iter()
        .find(|r| r.color == color)
        .map_or(Pos::new(0, 0), |r| r.pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::formats::game_id;

    // `convert nrb.ron x.txt` once wrote the board without its no-rebound rule, exit 0.
    #[test]
    fn a_puzzle_with_rules_is_refused_with_the_reason() {
        let puzzle = crate::model::samples::fogleman_22();
        assert!(write(&puzzle).is_ok());
        let ruled = puzzle.with_rules(Rules {
            ricochet: false,
            no_rebound: true,
        });
        let error = write(&ruled).unwrap_err().to_string();
        assert!(error.contains("cannot hold the no-rebound rule"), "{error}");
        assert!(error.contains(".ron"), "{error}");
    }

    fn small() -> String {
        "board 4 3\nB N N N\nW C W C\nW N C C\nrobots 2\n0 0\n3 2\ntarget 0 2 1 1\n".into()
    }

    #[test]
    fn cox_text_round_trips_exactly() {
        let text = small();
        let puzzle = parse(&text).unwrap();
        assert_eq!(puzzle.robots().len(), 2);
        assert_eq!(puzzle.goal().color, TargetColor::Blue);
        assert_eq!(write(&puzzle).unwrap(), text);
    }

    #[test]
    fn standard_game_survives_cox_and_back() {
        let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
        let text = write(&puzzle).unwrap();
        assert!(text.contains("robots 4\n"));
        let back = parse(&text).unwrap();
        assert_eq!(back.robots(), puzzle.robots());
        assert_eq!(back.goal(), puzzle.goal());
        assert_eq!(back.board().closed_cells(), puzzle.board().closed_cells());
        for cell in 0..256 {
            assert_eq!(back.board().wall_mask(cell), puzzle.board().wall_mask(cell));
        }
        assert_eq!(write(&back).unwrap(), text);
    }

    #[test]
    fn five_robot_files_park_the_spare_robot() {
        let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
        let text = write(&puzzle)
            .unwrap()
            .replace("robots 4\n", "robots 5\n7 7\n");
        let (head, target) = text.trim_end().rsplit_once('\n').unwrap();
        let text = format!("{head}\n{}4\n", target.strip_suffix('3').unwrap());
        let back = parse(&text).unwrap();
        assert_eq!(back.robots(), puzzle.robots());
        assert_eq!(back.goal(), puzzle.goal());
    }

    #[test]
    fn robots_outside_the_tail_order_are_parked_on_closed_cells() {
        let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
        let robots: Vec<Robot> = puzzle
            .robots()
            .iter()
            .copied()
            .filter(|r| r.color != RobotColor::Green)
            .collect();
        let puzzle = Puzzle::new(
            puzzle.board().clone(),
            robots,
            puzzle.goal(),
            Rules::default(),
        )
        .unwrap();
        let text = write(&puzzle).unwrap();
        assert!(text.contains("robots 5\n"));
        let back = parse(&text).unwrap();
        assert_eq!(back.robots(), puzzle.robots());
    }

    #[test]
    fn mistakes_are_reported_with_line_and_column() {
        let text = small().replace("W C W C", "W C X C");
        let err = parse(&text).unwrap_err().to_string();
        assert!(err.starts_with("line 3, column 5"), "{err}");
        let text = small().replace("robots 2", "mirrors 1\nrobots 2");
        assert!(parse(&text).unwrap_err().to_string().contains("mirrors"));
        assert!(
            parse(&small().replace("target 0 2 1 1", "target 0 2 1 7"))
                .unwrap_err()
                .to_string()
                .contains("0 to 1 or -1")
        );
        assert!(
            parse("board 4 3\nB N")
                .unwrap_err()
                .to_string()
                .contains("4 tokens")
        );
        assert!(parse("").is_err());
    }
}
