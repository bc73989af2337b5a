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

use super::{FormatError, checked, likely_meant, quote_up_to, strip_bom};
use crate::model::board::{Board, MAX_SIDE, MIN_SIDE, RobotColor, Shape, Target, TargetColor};
use crate::model::geometry::{Direction, Pos};
use crate::model::puzzle::{Goal, Puzzle, Robot, Rules};
use serde::Deserialize;

/// The format version this program writes and the newest it reads.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleFile {
    format: u32,
    width: Side<Width>,
    height: Side<Height>,
    #[serde(default)]
    walls: Vec<(u16, u16, Direction)>,
    #[serde(default)]
    closed: Vec<(u16, u16)>,
    #[serde(default)]
    targets: Vec<TargetEntry>,
    #[serde(default)]
    robots: Vec<RobotEntry>,
    goal: GoalEntry,
    #[serde(default)]
    rules: Rules,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetEntry {
    x: u16,
    y: u16,
    color: TargetColor,
    shape: Shape,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RobotEntry {
    color: RobotColor,
    x: u16,
    y: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GoalEntry {
    x: u16,
    y: u16,
    color: TargetColor,
}

/// The name of a board-side field, for its range error.
trait FieldName {
    const NAME: &'static str;
}

struct Width;
struct Height;

impl FieldName for Width {
    const NAME: &'static str = "width";
}

impl FieldName for Height {
    const NAME: &'static str = "height";
}

/// A board side read as any integer and checked against the model's range, so that a value
/// far out of range is reported with its field and the range rather than as an integer that
/// does not fit.
struct Side<F>(u16, std::marker::PhantomData<F>);

impl<'de, F: FieldName> Deserialize<'de> for Side<F> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = i64::deserialize(deserializer)?;
        let range = i64::from(MIN_SIDE)..=i64::from(MAX_SIDE);
        if !range.contains(&value) {
            return Err(serde::de::Error::custom(format!(
                "{}: {value} is out of range: a board side must be {MIN_SIDE} to {MAX_SIDE} \
                 ({MIN_SIDE}..={MAX_SIDE})",
                F::NAME
            )));
        }
        // The range check above keeps the value within u16.
        Ok(Side(value as u16, std::marker::PhantomData))
    }
}

/// A native file's contents before the checks a puzzle needs: a well-formed board, and robots
/// and a goal as listed. The editor reads unfinished designs through this.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleParts {
    /// The board, walls, closed cells and targets included.
    pub board: Board,
    /// The robots in file order, not yet checked against the board or each other.
    pub robots: Vec<Robot>,
    /// The goal, not yet checked.
    pub goal: Goal,
    /// The rule options.
    pub rules: Rules,
}

/// Parses a native puzzle file, reporting syntax errors by line and column and impossible
/// puzzles by what and where.
pub fn parse(text: &str) -> Result<Puzzle, FormatError> {
    let parts = parse_parts(text)?;
    checked(Puzzle::new(
        parts.board,
        parts.robots,
        parts.goal,
        parts.rules,
    )?)
}

/// Parses a native file as far as a board: syntax, version and board errors are reported,
/// the robots and goal are returned as listed.
pub fn parse_parts(text: &str) -> Result<PuzzleParts, FormatError> {
    let text = strip_bom(text);
    let file: PuzzleFile = ron::from_str(text).map_err(|e| {
        let (line, column) = (e.span.start.line, e.span.start.col);
        let message = match (&e.code, field_before(text, line, column)) {
            (ron::Error::IntegerOutOfBounds, Some(field)) => {
                format!(
                    "{field}: the number is out of range ({})",
                    field_range(field)
                )
            }
            // A misspelt field or value is named with the one it most likely stands for.
            (
                ron::Error::NoSuchStructField {
                    expected, found, ..
                }
                | ron::Error::NoSuchEnumVariant {
                    expected, found, ..
                },
                _,
            ) => {
                let message = quote_up_to(&e.code.to_string(), 200);
                match likely_meant(found, expected) {
                    Some(meant) => format!("{message}; did you mean `{meant}`?"),
                    None => message,
                }
            }
            // The message may repeat text from the file: it is escaped and cut.
            (code, _) => quote_up_to(&code.to_string(), 200),
        };
        FormatError::Syntax {
            line,
            column,
            message,
        }
    })?;
    if file.format == 0 || file.format > FORMAT_VERSION {
        return Err(FormatError::Unrepresentable(format!(
            "format version {} is not supported (this program reads version {FORMAT_VERSION})",
            file.format
        )));
    }
    let mut board = Board::new(file.width.0, file.height.0)?;
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
    Ok(PuzzleParts {
        board,
        robots,
        goal,
        rules: file.rules,
    })
}

/// The name of the field whose value starts at a 1-based line and column (`width` in
/// `width: 1000000`), or `None` when no `name:` stands right before it.
fn field_before(text: &str, line: usize, column: usize) -> Option<&str> {
    let row = text.lines().nth(line.checked_sub(1)?)?;
    let end = row
        .char_indices()
        .nth(column.checked_sub(1)?)
        .map_or(row.len(), |(i, _)| i);
    let before = row[..end].trim_end().strip_suffix(':')?.trim_end();
    // The name starts after the last character that cannot be part of one; that character
    // may take more than one byte (`é:`), so the start is counted past its whole length.
    let start = before
        .char_indices()
        .rfind(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let name = &before[start..];
    (!name.is_empty() && name.len() <= 16).then_some(name)
}

/// The allowed values of a numeric field, in words.
fn field_range(field: &str) -> String {
    match field {
        "width" | "height" => format!("a board side must be {MIN_SIDE} to {MAX_SIDE}"),
        "format" => format!("this program reads format {FORMAT_VERSION}"),
        _ => format!("a coordinate must be 0 to {}", MAX_SIDE - 1),
    }
}

/// Writes a puzzle in the native format: one wall, target or robot per line, so files read
/// well and diff well.
pub fn write(puzzle: &Puzzle) -> String {
    write_parts(
        puzzle.board(),
        puzzle.robots(),
        &puzzle.goal(),
        &puzzle.rules(),
    )
}

/// Writes a board, robots, goal and rules in the native layout whether or not they make a
/// valid puzzle (the editor stores unfinished designs this way).
pub fn write_parts(board: &Board, robots: &[Robot], goal: &Goal, rules: &Rules) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    // Writing into a String cannot fail, so the results of write! are ignored below.
    let _ = writeln!(out, "(\n    format: {FORMAT_VERSION},");
    let _ = writeln!(
        out,
        "    width: {},\n    height: {},",
        board.width(),
        board.height()
    );
    let walls: Vec<String> = board
        .interior_walls()
        .into_iter()
        .map(|(p, d)| format!("({}, {}, {d:?})", p.x, p.y))
        .collect();
    write_list(&mut out, "walls", &walls);
    let closed: Vec<String> = board
        .closed_cells()
        .into_iter()
        .map(|p| format!("({}, {})", p.x, p.y))
        .collect();
    let _ = writeln!(out, "    closed: [{}],", closed.join(", "));
    let targets: Vec<String> = board
        .targets()
        .iter()
        .map(|t| {
            format!(
                "(x: {}, y: {}, color: {:?}, shape: {:?})",
                t.pos.x, t.pos.y, t.color, t.shape
            )
        })
        .collect();
    write_list(&mut out, "targets", &targets);
    let robots: Vec<String> = robots
        .iter()
        .map(|r| format!("(color: {:?}, x: {}, y: {})", r.color, r.pos.x, r.pos.y))
        .collect();
    write_list(&mut out, "robots", &robots);
    let _ = writeln!(
        out,
        "    goal: (x: {}, y: {}, color: {:?}),",
        goal.pos.x, goal.pos.y, goal.color
    );
    let _ = writeln!(
        out,
        "    rules: (ricochet: {}, no_rebound: {}),\n)",
        rules.ricochet, rules.no_rebound
    );
    out
}

fn write_list(out: &mut String, name: &str, items: &[String]) {
    if items.is_empty() {
        out.push_str(&format!("    {name}: [],\n"));
        return;
    }
    out.push_str(&format!("    {name}: [\n"));
    for item in items {
        out.push_str(&format!("        {item},\n"));
    }
    out.push_str("    ],\n");
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

    // A character of two bytes right before a field's colon once made the name's start fall
    // inside it, and the loader panicked on slicing there.
    #[test]
    fn a_non_ascii_character_before_a_colon_is_an_error_not_a_panic() {
        let text = include_str!("../../../boards/small-6x6.ron").replace(
            "rules: (ricochet: false, no_rebound: false),",
            "rules: (ricochet: false, \u{e9}:,),",
        );
        assert!(text.contains('\u{e9}'));
        assert!(matches!(parse(&text), Err(FormatError::Syntax { .. })));
        for name in ["\u{e9}", "a\u{e9}", "\u{1f600}x", "\u{e9}_b"] {
            let row = format!("    {name}: 9999999");
            assert!(field_before(&row, 1, row.chars().count()).is_none_or(|f| f.is_ascii()));
        }
    }

    // A misspelt rule was ignored, so the rule was silently off.
    #[test]
    fn an_unknown_field_is_an_error_naming_it_and_the_likely_one() {
        let text = include_str!("../../../boards/small-6x6.ron")
            .replace("no_rebound: false", "no_rebond: true");
        let error = parse(&text).unwrap_err().to_string();
        assert!(error.contains("`no_rebond`"), "{error}");
        assert!(error.contains("did you mean `no_rebound`?"), "{error}");
        let text = include_str!("../../../boards/small-6x6.ron").replace("Red", "Rad");
        let error = parse(&text).unwrap_err().to_string();
        assert!(error.contains("did you mean `Red`?"), "{error}");
        assert_eq!(likely_meant("walls", &["width", "height"]), None);
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
