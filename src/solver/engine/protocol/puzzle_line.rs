//! The `puzzle` line: a whole puzzle (size, walls, closed cells, targets, robots, goal and
//! rule options) as one line of key=value tokens, parsed and formatted.

use super::{ProtocolError, PuzzleRequest, list, pairs, quote, required, robot_letter, value};
use crate::model::{
    Board, Direction, Goal, Pos, Puzzle, Robot, RobotColor, Rules, Shape, Target, TargetColor,
};

fn parse_pos(line: &str, what: &str, text: &str) -> Result<Pos, ProtocolError> {
    let bad = || ProtocolError::new(line, format!("{what} '{}' is not a cell x,y", quote(text)));
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    Ok(Pos::new(
        x.parse().map_err(|_| bad())?,
        y.parse().map_err(|_| bad())?,
    ))
}

fn format_pos(pos: Pos) -> String {
    format!("{},{}", pos.x, pos.y)
}

pub(super) fn parse_robots(
    line: &str,
    text: &str,
) -> Result<Vec<(RobotColor, Pos)>, ProtocolError> {
    text.split(';')
        .map(|item| {
            let (letter, cell) = item.split_once('@').ok_or_else(|| {
                ProtocolError::new(line, format!("robot '{}' is not L@x,y", quote(item)))
            })?;
            let color = single_char(letter).and_then(robot_letter).ok_or_else(|| {
                ProtocolError::new(
                    line,
                    format!("'{}' is not a robot letter (R, G, B, Y, K)", quote(letter)),
                )
            })?;
            Ok((color, parse_pos(line, "robot cell", cell)?))
        })
        .collect()
}

/// Where every robot stands, as the page writes it: `R@0,0;B@3,2`.
pub fn format_robots(robots: impl IntoIterator<Item = (RobotColor, Pos)>) -> String {
    robots
        .into_iter()
        .map(|(color, pos)| format!("{}@{}", color.letter(), format_pos(pos)))
        .collect::<Vec<_>>()
        .join(";")
}

fn single_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// The target colour of a letter: a robot letter that has targets, or `*` for any robot.
fn target_color(line: &str, letter: &str) -> Result<TargetColor, ProtocolError> {
    if letter == "*" {
        return Ok(TargetColor::Any);
    }
    single_char(letter)
        .and_then(robot_letter)
        .and_then(TargetColor::for_robot)
        .ok_or_else(|| {
            ProtocolError::new(
                line,
                format!(
                    "'{}' is no target colour (R, G, B, Y, or * for any robot)",
                    quote(letter)
                ),
            )
        })
}

fn target_letter(color: TargetColor) -> char {
    color.robot().map_or('*', RobotColor::letter)
}

fn shape(line: &str, name: &str) -> Result<Shape, ProtocolError> {
    Shape::ALL
        .into_iter()
        .find(|shape| shape.name() == name)
        .ok_or_else(|| {
            ProtocolError::new(
                line,
                format!(
                    "'{}' is no shape (circle, triangle, square, hexagon, vortex)",
                    quote(name)
                ),
            )
        })
}

fn parse_size(line: &str, text: &str) -> Result<(u16, u16), ProtocolError> {
    let bad = || ProtocolError::new(line, format!("size '{}' is not WxH", quote(text)));
    let (w, h) = text.split_once('x').ok_or_else(bad)?;
    Ok((w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?))
}

pub(super) fn parse_puzzle(line: &str, tokens: &[&str]) -> Result<PuzzleRequest, ProtocolError> {
    let pairs = pairs(tokens);
    let id = required(line, &pairs, "id")?;
    let (width, height) = parse_size(line, required(line, &pairs, "size")?)?;
    let model = |error: crate::model::ModelError| ProtocolError::new(line, error.to_string());
    let mut board = Board::new(width, height).map_err(model)?;
    let walls = required(line, &pairs, "walls")?;
    let cells = usize::from(width) * usize::from(height);
    if walls.len() != cells || !walls.is_ascii() {
        return Err(ProtocolError::new(
            line,
            format!(
                "walls= has {} characters; a {width}x{height} board needs {cells} hexadecimal digits",
                walls.chars().count()
            ),
        ));
    }
    for (index, digit) in walls.chars().enumerate() {
        let mask = digit.to_digit(16).ok_or_else(|| {
            ProtocolError::new(
                line,
                format!("walls= holds '{digit}', not a hexadecimal digit"),
            )
        })?;
        // The index is below width * height, both at most 64, so the cell fits in u16.
        let pos = board.pos(index as u16);
        for dir in Direction::ALL {
            if mask & u32::from(dir.bit()) != 0 {
                // A side walled on one cell only is walled on both: the page says a driver
                // sets both, and reading it kindly keeps a slip from changing the board.
                board.set_wall(pos, dir, true).map_err(model)?;
            }
        }
    }
    if let Some(closed) = value(&pairs, "closed")
        && closed != "-"
    {
        for cell in closed.split(';') {
            board
                .set_closed(parse_pos(line, "closed cell", cell)?, true)
                .map_err(model)?;
        }
    }
    if let Some(targets) = value(&pairs, "targets")
        && targets != "-"
    {
        for item in targets.split(';') {
            let bad =
                || ProtocolError::new(line, format!("target '{}' is not L:shape@x,y", quote(item)));
            let (letter, rest) = item.split_once(':').ok_or_else(bad)?;
            let (name, cell) = rest.split_once('@').ok_or_else(bad)?;
            board
                .set_target(Target {
                    pos: parse_pos(line, "target cell", cell)?,
                    color: target_color(line, letter)?,
                    shape: shape(line, name)?,
                })
                .map_err(model)?;
        }
    }
    let robots = parse_robots(line, required(line, &pairs, "robots")?)?
        .into_iter()
        .map(|(color, pos)| Robot { color, pos })
        .collect();
    let goal_text = required(line, &pairs, "goal")?;
    let (letter, cell) = goal_text.split_once('@').ok_or_else(|| {
        ProtocolError::new(line, format!("goal '{}' is not L@x,y", quote(goal_text)))
    })?;
    let goal = Goal {
        pos: parse_pos(line, "goal cell", cell)?,
        color: target_color(line, letter)?,
    };
    let mut rules = Rules::default();
    if let Some(options) = value(&pairs, "rules")
        && options != "-"
    {
        for option in options.split(',') {
            match option {
                "ricochet" => rules.ricochet = true,
                "no-rebound" => rules.no_rebound = true,
                // A rule this build does not know changes what counts as a solution, so it
                // cannot be skipped the way an unknown key is.
                other => {
                    return Err(ProtocolError::new(
                        line,
                        format!(
                            "'{}' is no rule option (ricochet, no-rebound)",
                            quote(other)
                        ),
                    ));
                }
            }
        }
    }
    let puzzle = Puzzle::new(board, robots, goal, rules).map_err(model)?;
    Ok(PuzzleRequest {
        id: id.to_string(),
        puzzle,
    })
}

/// The rule options as the page lists them: `-`, `ricochet`, `no-rebound` or both.
pub fn format_rules(rules: Rules) -> String {
    let mut options = Vec::new();
    if rules.ricochet {
        options.push("ricochet".to_string());
    }
    if rules.no_rebound {
        options.push("no-rebound".to_string());
    }
    list(options, ",")
}

/// The `puzzle` line of a puzzle, with its id token.
pub fn format_puzzle(id: &str, puzzle: &Puzzle) -> String {
    let board = puzzle.board();
    let walls: String = (0..board.cell_count())
        .map(|cell| {
            // Cells number at most 64 * 64, and a mask is below 16: both conversions hold.
            let mask = board.wall_mask(cell as u16);
            char::from_digit(u32::from(mask & 0xf), 16).unwrap_or('0')
        })
        .collect();
    let closed = list(
        board.closed_cells().into_iter().map(format_pos).collect(),
        ";",
    );
    let targets = list(
        board
            .targets()
            .iter()
            .map(|t| {
                format!(
                    "{}:{}@{}",
                    target_letter(t.color),
                    t.shape.name(),
                    format_pos(t.pos)
                )
            })
            .collect(),
        ";",
    );
    let goal = puzzle.goal();
    format!(
        "puzzle id={id} size={}x{} walls={walls} closed={closed} robots={} goal={}@{} targets={targets} rules={}",
        board.width(),
        board.height(),
        format_robots(puzzle.robots().iter().map(|r| (r.color, r.pos))),
        target_letter(goal.color),
        format_pos(goal.pos),
        format_rules(puzzle.rules()),
    )
}
