//! DriftingDroids game ids such as `7650+42+E2302B12+C9`.
//!
//! Four hexadecimal fields joined by `+`: the tile ids at NW, NE, SE, SW; the robot count and
//! the active robot's index (`F` for the vortex); two digits per robot with its cell index
//! `y * 16 + x` (robots red, green, blue, yellow, silver, the first `count` of them); and the
//! target's cell index, which must be a printed target of the active robot's colour or the
//! vortex. A game id carries no rule options (a puzzle with rules has none) and describes only
//! boards of real tiles.

use super::{FormatError, checked, quote};
use crate::model::ModelError;
use crate::model::board::{RobotColor, STANDARD_SIDE, TargetColor};
use crate::model::geometry::Pos;
use crate::model::puzzle::{Goal, Puzzle, Robot, Rules};
use crate::model::tiles::{TileVariant, assemble_ids, identify_tiles, tile_by_id};

/// Whether text has the shape of a game id (four `+`-separated fields of letters and digits),
/// so that a command-line argument can be told apart from a file name. A field with a letter
/// that is not a hexadecimal digit still looks like a game id, so that [`parse`] can name it.
pub fn looks_like(text: &str) -> bool {
    let fields: Vec<&str> = text.trim().split('+').collect();
    fields.len() == 4
        && fields
            .iter()
            .all(|f| !f.is_empty() && f.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// The hexadecimal digits of the field that starts at byte `start` of `id`; a character that
/// is not one is named with its 1-based position in the id.
fn hex_digits(id: &str, start: usize, field: &str, what: &str) -> Result<Vec<u8>, FormatError> {
    field
        .char_indices()
        .map(|(offset, c)| {
            c.to_digit(16)
                .map(|d| d as u8)
                .ok_or_else(|| FormatError::GameId {
                    id: id.to_string(),
                    message: format!(
                        "'{}' at position {} (in the {what}) is not a hexadecimal digit 0-9 or A-F",
                        c.escape_default(),
                        id[..start + offset].chars().count() + 1
                    ),
                })
        })
        .collect()
}

/// The physical tiles of the game: a tile's two faces are one piece (sides A and B of the first
/// edition, C and D of the later ones), so a board uses at most one face of each piece.
fn check_tiles(ids: [u8; 4]) -> Result<(), ModelError> {
    let piece = |id: u8| tile_by_id(id).map(|t| (t.group, t.name.ends_with(['A', 'B'])));
    for (i, &id) in ids.iter().enumerate() {
        for &earlier in &ids[..i] {
            if piece(id).is_some() && piece(id) == piece(earlier) {
                let name = |id: u8| tile_by_id(id).map_or(String::new(), |t| t.name.clone());
                return Err(ModelError::TileTwice {
                    first: name(earlier),
                    second: name(id),
                });
            }
        }
    }
    Ok(())
}

/// Parses a game id into a puzzle on the real standard board.
pub fn parse(text: &str) -> Result<Puzzle, FormatError> {
    let id = text.trim();
    let err = |message: String| FormatError::GameId {
        id: id.to_string(),
        message,
    };
    let fields: Vec<&str> = id.split('+').collect();
    let [tiles, counts, robots, target] = fields.as_slice() else {
        return Err(err(format!(
            "expected four fields joined by '+', found {}",
            fields.len()
        )));
    };
    // Where each field starts in the id, to name a bad character's position.
    let starts = [
        0,
        tiles.len() + 1,
        tiles.len() + counts.len() + 2,
        tiles.len() + counts.len() + robots.len() + 3,
    ];
    let tile_ids = hex_digits(id, starts[0], tiles, "tile field")?;
    let tile_ids: [u8; 4] = tile_ids.try_into().map_err(|_| {
        err(format!(
            "the tile field '{}' must have 4 digits",
            quote(tiles)
        ))
    })?;
    check_tiles(tile_ids)?;
    let board = assemble_ids(tile_ids, TileVariant::Real)?;

    let counts = hex_digits(id, starts[1], counts, "robot field")?;
    let [count, active] = counts.as_slice() else {
        return Err(err(
            "the second field must have 2 digits: robot count and active robot".into(),
        ));
    };
    let count = usize::from(*count);
    if !(1..=5).contains(&count) {
        return Err(err(format!("the robot count must be 1 to 5, not {count}")));
    }
    let robot_digits = hex_digits(id, starts[2], robots, "robot positions")?;
    if robot_digits.len() != 2 * count {
        return Err(err(format!(
            "{count} robots need {} digits of positions, found {}",
            2 * count,
            robot_digits.len()
        )));
    }
    let cell_pos = |hi: u8, lo: u8| {
        let cell = u16::from(hi) * 16 + u16::from(lo);
        Pos::new(cell % STANDARD_SIDE, cell / STANDARD_SIDE)
    };
    let robots: Vec<Robot> = RobotColor::ALL[..count]
        .iter()
        .zip(robot_digits.chunks(2))
        .map(|(&color, pair)| Robot {
            color,
            pos: cell_pos(pair[0], pair[1]),
        })
        .collect();

    let target_digits = hex_digits(id, starts[3], target, "target field")?;
    let [hi, lo] = target_digits.as_slice() else {
        return Err(err("the target field must have 2 digits".into()));
    };
    let target_pos = cell_pos(*hi, *lo);
    let Some(printed) = board.target_at(target_pos) else {
        return Err(err(format!(
            "there is no target at {target_pos} on this board"
        )));
    };
    let color = if *active == 0xF {
        if printed.color != TargetColor::Any {
            return Err(err(format!(
                "active robot F means the vortex, but the target at {target_pos} is {}",
                printed.color
            )));
        }
        TargetColor::Any
    } else {
        let active = usize::from(*active);
        let robot = *RobotColor::ALL[..count].get(active).ok_or_else(|| {
            err(format!(
                "active robot {active} is not one of the {count} robots"
            ))
        })?;
        let color = TargetColor::for_robot(robot)
            .ok_or_else(|| err("the silver robot has no target of its own".into()))?;
        if printed.color != color && printed.color != TargetColor::Any {
            return Err(err(format!(
                "the target at {target_pos} is {}, not {}",
                printed.color, robot
            )));
        }
        color
    };
    let goal = Goal {
        pos: target_pos,
        color,
    };
    checked(Puzzle::new(board, robots, goal, Rules::default())?)
}

/// Writes the game id of a puzzle on a real standard board whose robots are the first colours
/// of the list (red; red and green; ...) and whose target is printed on the board, played
/// without rule options. A game id has no field for rules, and one added would make ids other
/// programs cannot read; read back without them, a puzzle could have another optimum (the
/// ricochet rule refuses one-move solutions). So a puzzle with rules has no game id, and the
/// error says why.
pub fn write(puzzle: &Puzzle) -> Result<String, FormatError> {
    if let Some(rules) = super::rules_in_force(&puzzle.rules()) {
        return Err(FormatError::Unrepresentable(format!(
            "a game id carries no rules, so it cannot hold {rules} this puzzle is played with: \
             read back, the puzzle would be played without it; save it as a .ron file, which \
             keeps its rules"
        )));
    }
    let board = puzzle.board();
    let tiles = identify_tiles(board).ok_or_else(|| {
        FormatError::Unrepresentable(
            "this board is not assembled from the real tiles, so it has no game id".into(),
        )
    })?;
    check_tiles(tiles)?;
    let robots = puzzle.robots();
    for (robot, color) in robots.iter().zip(RobotColor::ALL) {
        if robot.color != color {
            return Err(FormatError::Unrepresentable(format!(
                "a game id lists robots in the order red, green, blue, yellow, silver without gaps; \
                 this puzzle has no {color} robot"
            )));
        }
    }
    let goal = puzzle.goal();
    let printed = board.target_at(goal.pos).ok_or_else(|| {
        FormatError::Unrepresentable(format!(
            "the active target at {} is not a printed target, so it has no game id",
            goal.pos
        ))
    })?;
    if printed.color != goal.color && printed.color != TargetColor::Any {
        return Err(FormatError::Unrepresentable(format!(
            "the printed target at {} is {}, but the puzzle asks for {}",
            goal.pos, printed.color, goal.color
        )));
    }
    let active = match puzzle.active_robot() {
        Some(index) => format!("{index:X}"),
        None => "F".into(),
    };
    let cell = |pos: Pos| pos.y * STANDARD_SIDE + pos.x;
    let tiles: String = tiles.iter().map(|t| format!("{t:X}")).collect();
    let positions: String = robots
        .iter()
        .map(|r| format!("{:02X}", cell(r.pos)))
        .collect();
    Ok(format!(
        "{tiles}+{}{active}+{positions}+{:02X}",
        robots.len(),
        cell(goal.pos)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_ids_round_trip() {
        for id in [
            "7650+42+E2302B12+C9",
            "0765+42+2E21BD0F+93",
            "3650+42+1CF10F0C+C9",
        ] {
            let puzzle = parse(id).unwrap();
            assert_eq!(write(&puzzle).unwrap(), id);
        }
    }

    // A position with the ricochet rule was printed as the id of a position without it, which
    // solves in 1 move where the position needs 2.
    #[test]
    fn a_puzzle_with_rules_has_no_game_id_and_the_error_says_why() {
        let puzzle = parse("7650+42+E2302B12+C9").unwrap();
        for (ricochet, no_rebound, named) in [
            (true, false, "the ricochet rule"),
            (false, true, "the no-rebound rule"),
            (true, true, "the ricochet rule and the no-rebound rule"),
        ] {
            let ruled = puzzle.clone().with_rules(Rules {
                ricochet,
                no_rebound,
            });
            let message = write(&ruled).unwrap_err().to_string();
            assert!(message.contains("a game id carries no rules"), "{message}");
            assert!(message.contains(named), "{message}");
            // Once "cannot hold this puzzle's the ricochet rule".
            assert!(
                message.contains(&format!("cannot hold {named} this puzzle is played with")),
                "{message}"
            );
        }
        assert_eq!(write(&puzzle).unwrap(), "7650+42+E2302B12+C9");
    }

    #[test]
    fn fogleman_id_places_his_robots() {
        let puzzle = parse("3650+42+1CF10F0C+C9").unwrap();
        let positions: Vec<Pos> = puzzle.robots().iter().map(|r| r.pos).collect();
        assert_eq!(
            positions,
            vec![
                Pos::new(12, 1),
                Pos::new(1, 15),
                Pos::new(15, 0),
                Pos::new(12, 0)
            ]
        );
        assert_eq!(puzzle.goal().pos, Pos::new(9, 12));
        assert_eq!(puzzle.goal().color, TargetColor::Blue);
    }

    #[test]
    fn bad_ids_say_what_is_wrong() {
        let cases = [
            ("7650+42+E2302B12", "four fields"),
            ("765+42+E2302B12+C9", "4 digits"),
            ("7650+62+E2302B12+C9", "1 to 5"),
            ("7650+42+E2302B1+C9", "8 digits"),
            ("7650+42+E2302B12+00", "no target"),
            ("7650+47+E2302B12+C9", "not one of the 4 robots"),
            ("7650+42+E2E22B12+C9", "both stand on"),
            ("7650+42+77302B12+C9", "closed cell"),
        ];
        for (id, needle) in cases {
            let message = parse(id).unwrap_err().to_string();
            assert!(message.contains(needle), "{id}: {message}");
        }
    }
}
