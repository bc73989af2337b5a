//! DriftingDroids' board dump, `!DriftingDroids_game!CRC!DATA!`: the whole board as text that
//! players paste into mails and bug reports, read and written as DriftingDroids' own code does.
//!
//! `DATA` is standard base64 (with padding) of a 4-byte big-endian length followed by the
//! zlib stream of that many bytes; `CRC` is the CRC-32 of the base64 text, eight hexadecimal
//! digits. White space anywhere is ignored, so a dump wrapped by a mail program still reads.
//! The bytes, integers being 4-byte big-endian:
//!
//! 1. the layout version, `0`;
//! 2. width and height (integers, 3 to 100 each, at most 4096 cells);
//! 3. the robot count (one byte), then each robot's cell `x + y * width` (integers), in the
//!    order red, green, blue, yellow, silver;
//! 4. four tile numbers (NW, NE, SE, SW, one byte each, as in a game id; zero on a free board);
//! 5. the walls: for north, east, south and west in turn, one byte (0 or 1) per cell in
//!    row-major order, saying whether that side of the cell is walled (the border included);
//! 6. the targets: their count (integer), then per target its cell (integer), its robot (one
//!    byte: 0 to 3 for red, green, blue, yellow, 255 for any robot) and its shape (one byte:
//!    circle, triangle, square, hexagon, vortex);
//! 7. the active target: cell (integer, -1 for none), robot and shape (one byte each);
//! 8. one byte, 1 when the board is not assembled from the game's tiles.
//!
//! A cell walled on all four sides is no place for a robot there, so it is read as a closed
//! cell, walls kept; a closed cell is written walled on all four sides (as the game's centre
//! is), which it plays the same with. A dump has no room for rule options,
//! for boards smaller than 3x3, for robots that are not the first colours of the list, nor for
//! a walled-in robot: such a puzzle is refused with the reason.

use super::{FormatError, checked, quote};
use crate::model::board::{Board, RobotColor, Shape, Target, TargetColor};
use crate::model::geometry::{Direction, Pos};
use crate::model::puzzle::{Goal, Puzzle, Robot, Rules};
use crate::model::tiles::identify_tiles;
use base64::Engine;
use std::io::{Read, Write};

/// What every dump starts with.
pub const PREFIX: &str = "!DriftingDroids_game!";

/// The layout version DriftingDroids writes and reads.
const LAYOUT_VERSION: u8 = 0;
/// DriftingDroids' smallest board side.
const MIN_SIDE: u16 = 3;
/// DriftingDroids' largest board side.
const MAX_SIDE: u16 = 100;
/// DriftingDroids' most cells on a board.
const MAX_CELLS: usize = 4096;
/// The most bytes a dump may claim to unpack to: a 100-side board's four wall maps, its
/// robots and a target on every cell take well under this.
const MAX_DATA_BYTES: usize = 64 << 10;

/// DriftingDroids' directions in its order (its walls come in this order).
const DIRECTIONS: [Direction; 4] = [
    Direction::North,
    Direction::East,
    Direction::South,
    Direction::West,
];

/// Whether text (after white space) starts like a dump, so that a pasted text or an argument
/// is sent to [`parse`], which names what is wrong with it.
pub fn looks_like(text: &str) -> bool {
    text.trim_start().starts_with(PREFIX)
}

fn error(message: impl Into<String>) -> FormatError {
    FormatError::Dump {
        message: message.into(),
    }
}

/// The robot byte of a target colour.
fn robot_byte(color: TargetColor) -> u8 {
    match color {
        TargetColor::Red => 0,
        TargetColor::Green => 1,
        TargetColor::Blue => 2,
        TargetColor::Yellow => 3,
        TargetColor::Any => 255,
    }
}

/// The shape byte of a shape.
fn shape_byte(shape: Shape) -> u8 {
    match shape {
        Shape::Circle => 0,
        Shape::Triangle => 1,
        Shape::Square => 2,
        Shape::Hexagon => 3,
        Shape::Vortex => 4,
    }
}

/// Writes the dump of a puzzle.
pub fn write(puzzle: &Puzzle) -> Result<String, FormatError> {
    let refuse = |why: String| FormatError::Unrepresentable(format!("a DriftingDroids dump {why}"));
    if let Some(rules) = super::rules_in_force(&puzzle.rules()) {
        return Err(refuse(format!(
            "carries no rules, so it cannot hold {rules} this puzzle is played with: read back, \
             the puzzle would be played without it; save it as a .ron file, which keeps its rules"
        )));
    }
    let board = puzzle.board();
    let (width, height) = (board.width(), board.height());
    if width < MIN_SIDE || height < MIN_SIDE {
        return Err(refuse(format!(
            "holds boards of 3x3 cells or more, and this one is {width}x{height}"
        )));
    }
    for (robot, color) in puzzle.robots().iter().zip(RobotColor::ALL) {
        if robot.color != color {
            return Err(refuse(format!(
                "lists robots in the order red, green, blue, yellow, silver without gaps; this \
                 puzzle has no {color} robot"
            )));
        }
    }
    let mut walled = board.clone();
    for pos in board.closed_cells() {
        for dir in Direction::ALL {
            walled.set_wall(pos, dir, true)?;
        }
    }
    for cell in 0..walled.cell_count() as u16 {
        let pos = walled.pos(cell);
        if board.is_closed(cell) || !Direction::ALL.iter().all(|&d| walled.has_wall(cell, d)) {
            continue;
        }
        if let Some(robot) = puzzle.robots().iter().find(|r| r.pos == pos) {
            return Err(refuse(format!(
                "cannot hold the {} robot at {pos}: DriftingDroids puts no robot on a cell walled \
                 on all four sides",
                robot.color
            )));
        }
        return Err(refuse(format!(
            "reads a cell walled on all four sides as closed, and {pos} is walled all round but \
             open: close it, or take one of its walls down, to write a dump"
        )));
    }
    let goal = puzzle.goal();
    // The checks every format makes put the goal on a printed target of its colour or the vortex.
    let printed = board
        .target_at(goal.pos)
        .ok_or(crate::model::ModelError::GoalWithoutTarget(goal.pos))?;
    if printed.color != goal.color {
        return Err(refuse(format!(
            "asks for the target's own robot, and the {} robot's goal at {} is printed as {}",
            goal.color, goal.pos, printed.color
        )));
    }

    let cell_index = |pos: Pos| i32::from(pos.y) * i32::from(width) + i32::from(pos.x);
    let mut data = vec![LAYOUT_VERSION];
    data.extend(i32::from(width).to_be_bytes());
    data.extend(i32::from(height).to_be_bytes());
    // A puzzle holds 1 to 5 robots, so the count fits its byte.
    data.push(puzzle.robots().len() as u8);
    for robot in puzzle.robots() {
        data.extend(cell_index(robot.pos).to_be_bytes());
    }
    let tiles = identify_tiles(board);
    data.extend(tiles.unwrap_or([0; 4]));
    for dir in DIRECTIONS {
        for cell in 0..walled.cell_count() as u16 {
            data.push(u8::from(walled.has_wall(cell, dir)));
        }
    }
    let targets = board.targets();
    data.extend((targets.len() as i32).to_be_bytes());
    for target in targets {
        data.extend(cell_index(target.pos).to_be_bytes());
        data.push(robot_byte(target.color));
        data.push(shape_byte(target.shape));
    }
    data.extend(cell_index(goal.pos).to_be_bytes());
    data.push(robot_byte(printed.color));
    data.push(shape_byte(printed.shape));
    data.push(u8::from(tiles.is_none()));

    pack(&data)
}

/// The dump text of board bytes: their length, their zlib stream at the best compression
/// (as DriftingDroids packs them), base64 and its CRC.
fn pack(data: &[u8]) -> Result<String, FormatError> {
    let mut packed = (data.len() as u32).to_be_bytes().to_vec();
    let mut encoder = flate2::write::ZlibEncoder::new(&mut packed, flate2::Compression::best());
    encoder
        .write_all(data)
        .and_then(|()| encoder.finish().map(|_| ()))
        .map_err(|e| error(format!("could not compress the board: {e}")))?;
    let text = base64::engine::general_purpose::STANDARD.encode(&packed);
    let crc = crc32fast::hash(text.as_bytes());
    Ok(format!("{PREFIX}{crc:08X}!{text}!"))
}

/// Bytes read in order, each shortfall named with what was being read.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn bytes(&mut self, count: usize, what: &str) -> Result<&[u8], FormatError> {
        let end = self
            .at
            .checked_add(count)
            .filter(|&end| end <= self.data.len());
        let Some(end) = end else {
            return Err(error(format!(
                "the board data ends after {} bytes, in the {what}",
                self.data.len()
            )));
        };
        let slice = &self.data[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn byte(&mut self, what: &str) -> Result<u8, FormatError> {
        Ok(self.bytes(1, what)?[0])
    }

    fn integer(&mut self, what: &str) -> Result<i32, FormatError> {
        let bytes = self.bytes(4, what)?;
        Ok(i32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }
}

/// The board bytes of a dump, its frame, CRC, base64 and zlib stream checked.
fn unpack(text: &str) -> Result<Vec<u8>, FormatError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(rest) = compact.strip_prefix(PREFIX) else {
        return Err(error("a dump starts with !DriftingDroids_game!"));
    };
    let fields: Vec<&str> = rest.split('!').collect();
    let [crc, body, ""] = fields.as_slice() else {
        return Err(error(
            "a dump is !DriftingDroids_game!CRC!DATA! with a closing '!'; this one is cut short \
             or has more fields (was it copied whole?)",
        ));
    };
    if crc.len() != 8 || !crc.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(error(format!(
            "the check sum '{}' is not eight hexadecimal digits",
            quote(crc)
        )));
    }
    let expected = u32::from_str_radix(crc, 16).map_err(|e| error(e.to_string()))?;
    let actual = crc32fast::hash(body.as_bytes());
    if actual != expected {
        return Err(error(format!(
            "the check sum is {expected:08X} but the data's is {actual:08X}: the dump was \
             changed or not copied whole"
        )));
    }
    let packed = base64::engine::general_purpose::STANDARD
        .decode(body)
        .map_err(|e| error(format!("the data is not base64: {e}")))?;
    let Some((length, stream)) = packed.split_first_chunk::<4>() else {
        return Err(error("the data is shorter than its 4-byte length"));
    };
    let length = u32::from_be_bytes(*length) as usize;
    if length > MAX_DATA_BYTES {
        return Err(error(format!(
            "the data claims {length} bytes, more than any board of DriftingDroids takes"
        )));
    }
    let mut data = Vec::with_capacity(length);
    flate2::read::ZlibDecoder::new(stream)
        .take(length as u64 + 1)
        .read_to_end(&mut data)
        .map_err(|e| error(format!("the data does not unpack: {e}")))?;
    if data.len() != length {
        return Err(error(format!(
            "the data unpacks to {} bytes where its header says {length}",
            data.len()
        )));
    }
    Ok(data)
}

/// Parses a dump into a puzzle.
pub fn parse(text: &str) -> Result<Puzzle, FormatError> {
    let data = unpack(text)?;
    let mut reader = Reader { data: &data, at: 0 };
    let version = reader.byte("version")?;
    if version != LAYOUT_VERSION {
        return Err(error(format!(
            "layout version {version} is unknown: this program reads version {LAYOUT_VERSION}, \
             the one DriftingDroids writes"
        )));
    }
    let width = reader.integer("width")?;
    let height = reader.integer("height")?;
    let side_range = i32::from(MIN_SIDE)..=i32::from(MAX_SIDE);
    if !side_range.contains(&width) || !side_range.contains(&height) {
        return Err(error(format!(
            "a board of {width}x{height}: DriftingDroids' sides are 3 to 100"
        )));
    }
    // Both sides are in 3..=100, so they fit u16 and their product fits usize.
    let (width, height) = (width as u16, height as u16);
    let cells = usize::from(width) * usize::from(height);
    if cells > MAX_CELLS {
        return Err(error(format!(
            "a board of {width}x{height} has {cells} cells, more than DriftingDroids' {MAX_CELLS}"
        )));
    }
    let mut board = Board::new(width, height)?;
    let pos_of = |index: i32, what: &str| -> Result<Pos, FormatError> {
        if !(0..cells as i32).contains(&index) {
            return Err(error(format!(
                "the {what} is on cell {index}, off the {width}x{height} board"
            )));
        }
        // The index is in 0..cells, and cells is at most 4096.
        let index = index as u16;
        Ok(Pos::new(index % width, index / width))
    };
    let count = usize::from(reader.byte("robot count")?);
    if !(1..=RobotColor::ALL.len()).contains(&count) {
        return Err(error(format!("a puzzle needs 1 to 5 robots, not {count}")));
    }
    let mut robots = Vec::with_capacity(count);
    for color in &RobotColor::ALL[..count] {
        let what = format!("{color} robot");
        let index = reader.integer(&what)?;
        robots.push(Robot {
            color: *color,
            pos: pos_of(index, &what)?,
        });
    }
    let _tiles = reader.bytes(4, "tile numbers")?;
    let mut walls = [const { Vec::new() }; 4];
    for (side, dir) in walls.iter_mut().zip(DIRECTIONS) {
        let what = format!("{} walls", dir_name(dir));
        *side = reader.bytes(cells, &what)?.to_vec();
    }
    let walled = |cell: usize, dir: Direction| {
        let side = DIRECTIONS.iter().position(|&d| d == dir).unwrap_or(0);
        walls[side][cell] != 0
    };
    let enclosed = |cell: usize| DIRECTIONS.iter().all(|&d| walled(cell, d));
    let robot_cells: Vec<usize> = robots
        .iter()
        .map(|r| usize::from(board.cell(r.pos)))
        .collect();
    for (robot, &cell) in robots.iter().zip(&robot_cells) {
        if enclosed(cell) {
            return Err(error(format!(
                "the {} robot stands at {} on a cell walled on all four sides, where \
                 DriftingDroids puts no robot",
                robot.color, robot.pos
            )));
        }
    }
    for cell in 0..cells {
        if enclosed(cell) {
            board.set_closed(board.pos(cell as u16), true)?;
        }
    }
    for cell in 0..cells {
        let pos = board.pos(cell as u16);
        for dir in [Direction::East, Direction::South] {
            let Some(other) = board.neighbour_pos(pos, dir) else {
                continue;
            };
            let other = usize::from(board.cell(other));
            let here = walled(cell, dir);
            let there = walled(other, dir.opposite());
            if here != there {
                return Err(error(format!(
                    "the wall on the {} side of {pos} is walled from one side only; walls here \
                     stand between two cells",
                    dir_name(dir)
                )));
            }
            if here {
                board.set_wall(pos, dir, true)?;
            }
        }
    }
    let target_count = reader.integer("target count")?;
    if !(0..=cells as i32).contains(&target_count) {
        return Err(error(format!(
            "{target_count} targets on a board of {cells} cells"
        )));
    }
    for _ in 0..target_count {
        let index = reader.integer("target list")?;
        let pos = pos_of(index, "target")?;
        let color = target_color(reader.byte("target list")?, pos)?;
        let shape = target_shape(reader.byte("target list")?, pos)?;
        board.set_target(Target { pos, color, shape })?;
    }
    let index = reader.integer("active target")?;
    if index == -1 {
        return Err(error(
            "the board has no active target; choose one in DriftingDroids and copy it again",
        ));
    }
    let pos = pos_of(index, "active target")?;
    let color = target_color(reader.byte("active target")?, pos)?;
    let shape = target_shape(reader.byte("active target")?, pos)?;
    let printed = board.target_at(pos).copied();
    if printed.map(|t| (t.color, t.shape)) != Some((color, shape)) {
        return Err(error(format!(
            "the active target at {pos} ({color} {}) is not in the board's target list",
            shape.name()
        )));
    }
    let _free = reader.byte("free-board flag")?;
    if reader.at != data.len() {
        return Err(error(format!(
            "{} bytes follow the board data",
            data.len() - reader.at
        )));
    }
    let goal = Goal { pos, color };
    checked(Puzzle::new(board, robots, goal, Rules::default())?)
}

fn dir_name(dir: Direction) -> &'static str {
    match dir {
        Direction::North => "north",
        Direction::East => "east",
        Direction::South => "south",
        Direction::West => "west",
    }
}

fn target_color(byte: u8, pos: Pos) -> Result<TargetColor, FormatError> {
    match byte {
        0 => Ok(TargetColor::Red),
        1 => Ok(TargetColor::Green),
        2 => Ok(TargetColor::Blue),
        3 => Ok(TargetColor::Yellow),
        255 => Ok(TargetColor::Any),
        other => Err(error(format!(
            "the target at {pos} is for robot {other}; targets are for robots 0 to 3 or any (255)"
        ))),
    }
}

fn target_shape(byte: u8, pos: Pos) -> Result<Shape, FormatError> {
    Shape::ALL
        .get(usize::from(byte))
        .copied()
        .ok_or_else(|| error(format!("the target at {pos} has shape {byte}, not 0 to 4")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::formats::game_id;

    #[test]
    fn a_game_id_board_round_trips_through_its_dump() {
        let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
        let dump = write(&puzzle).unwrap();
        assert!(dump.starts_with(PREFIX) && dump.ends_with('!'), "{dump}");
        assert_eq!(parse(&dump).unwrap(), puzzle);
        // A mail program's line breaks are ignored.
        let wrapped: String = dump
            .chars()
            .enumerate()
            .flat_map(|(i, c)| (i % 60 == 59).then_some('\n').into_iter().chain([c]))
            .collect();
        assert_eq!(parse(&wrapped).unwrap(), puzzle);
    }

    #[test]
    fn a_changed_or_cut_dump_says_what_is_wrong() {
        let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
        let dump = write(&puzzle).unwrap();
        let cut = &dump[..dump.len() - 10];
        let message = parse(cut).unwrap_err().to_string();
        assert!(message.contains("closing '!'"), "{message}");
        let mut changed = dump.clone().into_bytes();
        let at = PREFIX.len() + 12;
        changed[at] = if changed[at] == b'A' { b'B' } else { b'A' };
        let message = parse(&String::from_utf8(changed).unwrap())
            .unwrap_err()
            .to_string();
        assert!(message.contains("check sum"), "{message}");
    }

    #[test]
    fn another_layout_version_is_refused_by_number() {
        let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
        let mut data = unpack(&write(&puzzle).unwrap()).unwrap();
        data[0] = 1;
        let message = parse(&pack(&data).unwrap()).unwrap_err().to_string();
        assert!(message.contains("layout version 1 is unknown"), "{message}");
        data[0] = 0;
        data.truncate(data.len() - 3);
        let message = parse(&pack(&data).unwrap()).unwrap_err().to_string();
        assert!(message.contains("in the active target"), "{message}");
    }

    // The bytes field by field in the order DriftingDroids' writer puts them, so the layout is
    // checked against that order and not only against this program's own reader.
    #[test]
    fn the_bytes_follow_drifting_droids_layout() {
        let puzzle = game_id::parse("0765+42+2E21BD0F+93").unwrap();
        let data = unpack(&write(&puzzle).unwrap()).unwrap();
        // Version, 16x16, four robots at their cells, the tiles, 4 x 256 wall bytes.
        assert_eq!(&data[..10], &[0, 0, 0, 0, 16, 0, 0, 0, 16, 4]);
        assert_eq!(&data[10..14], &0x2Ei32.to_be_bytes());
        assert_eq!(&data[26..30], &[0, 7, 6, 5]);
        let walls = &data[30..30 + 4 * 256];
        // The border: every north side of row 0 and west side of column 0 is walled.
        assert!(walls[..16].iter().all(|&w| w == 1));
        assert!((0..16).all(|y| walls[3 * 256 + y * 16] == 1));
        // A free-board flag of 0: the board is assembled from the game's tiles.
        assert_eq!(data.last(), Some(&0));
    }
}
