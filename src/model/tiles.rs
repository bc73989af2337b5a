//! The sixteen real quadrant tiles, standard-board assembly and random deals.

use super::ModelError;
use super::board::{Board, RobotColor, STANDARD_SIDE, Shape, Target, TargetColor};
use super::geometry::{Direction, Pos};
use super::puzzle::{Goal, Puzzle, Robot, Rules};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// The tile data: facts about the physical game, in the format its header describes.
const QUADRANTS: &str = include_str!("quadrants.txt");

/// The side of a tile.
const TILE_SIDE: u16 = STANDARD_SIDE / 2;

/// One 8x8 quadrant tile, drawn as the board's north-west quarter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    /// Its name, colour group then side letter: `1A` .. `4D`.
    pub name: String,
    /// Its index 0..16 in DriftingDroids game ids.
    pub id: u8,
    /// Its colour group, 1..=4: a board has one tile of each group.
    pub group: u8,
    /// Walls as (position, side) in the tile's own frame.
    pub walls: Vec<(Pos, Direction)>,
    /// Targets in the tile's own frame.
    pub targets: Vec<Target>,
}

/// The four places a tile can take, clockwise from the north-west.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quadrant {
    /// Used as drawn.
    NorthWest,
    /// Rotated 90 degrees clockwise.
    NorthEast,
    /// Rotated 180 degrees.
    SouthEast,
    /// Rotated 270 degrees.
    SouthWest,
}

impl Quadrant {
    /// The places in game-id order.
    pub const ALL: [Quadrant; 4] = [
        Quadrant::NorthWest,
        Quadrant::NorthEast,
        Quadrant::SouthEast,
        Quadrant::SouthWest,
    ];
}

/// Which tile data to use: the real tiles, or Fogleman's variant without the vortex target and
/// its walls (his tile data omits them; his deck's figures need it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TileVariant {
    /// The tiles as printed.
    #[default]
    Real,
    /// No vortex target and no walls around it.
    Fogleman,
}

/// All sixteen tiles, ordered by id.
pub fn tiles() -> &'static [Tile] {
    static TILES: OnceLock<Vec<Tile>> = OnceLock::new();
    TILES.get_or_init(|| {
        // The embedded tile data is fixed and parsed by a unit test, so a failure here is a
        // bug in the shipped data, not a user error.
        parse_tiles(QUADRANTS).expect("embedded tile data parses")
    })
}

/// The tile with a game-id index.
pub fn tile_by_id(id: u8) -> Option<&'static Tile> {
    tiles().iter().find(|t| t.id == id)
}

/// The tile with a name such as `4A`.
pub fn tile_by_name(name: &str) -> Option<&'static Tile> {
    tiles().iter().find(|t| t.name.eq_ignore_ascii_case(name))
}

/// A line of the embedded tile data that cannot be read: a bug in the shipped data.
#[derive(Debug, thiserror::Error)]
#[error("tile data line {line}: cannot read '{text}'")]
struct TileDataError {
    /// The line's number, from 1.
    line: usize,
    /// The line as written.
    text: String,
}

fn parse_tiles(text: &str) -> Result<Vec<Tile>, TileDataError> {
    let mut tiles: Vec<Tile> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || TileDataError {
            line: number + 1,
            text: line.to_string(),
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["tile", name, "id", hex] => {
                let id = u8::from_str_radix(hex, 16).map_err(|_| bad())?;
                let group = name[..1].parse().map_err(|_| bad())?;
                tiles.push(Tile {
                    name: (*name).to_string(),
                    id,
                    group,
                    walls: Vec::new(),
                    targets: Vec::new(),
                });
            }
            ["wall", x, y, sides] => {
                let pos = Pos::new(x.parse().map_err(|_| bad())?, y.parse().map_err(|_| bad())?);
                let tile = tiles.last_mut().ok_or_else(bad)?;
                for letter in sides.chars() {
                    let dir = Direction::from_letter(letter).ok_or_else(bad)?;
                    tile.walls.push((pos, dir));
                }
            }
            ["goal", x, y, color, shape] => {
                let pos = Pos::new(x.parse().map_err(|_| bad())?, y.parse().map_err(|_| bad())?);
                let color = match *color {
                    "red" => TargetColor::Red,
                    "green" => TargetColor::Green,
                    "blue" => TargetColor::Blue,
                    "yellow" => TargetColor::Yellow,
                    "any" => TargetColor::Any,
                    _ => return Err(bad()),
                };
                let shape = Shape::ALL
                    .into_iter()
                    .find(|s| s.name() == *shape)
                    .ok_or_else(bad)?;
                let tile = tiles.last_mut().ok_or_else(bad)?;
                tile.targets.push(Target { pos, color, shape });
            }
            _ => return Err(bad()),
        }
    }
    tiles.sort_by_key(|t| t.id);
    Ok(tiles)
}

/// Turns a tile-frame position and side to their place on the 16x16 board.
fn place(pos: Pos, dir: Direction, quadrant: Quadrant) -> (Pos, Direction) {
    let last = STANDARD_SIDE - 1;
    let turns = quadrant as usize;
    let (mut p, mut d) = (pos, dir);
    for _ in 0..turns {
        p = Pos::new(last - p.y, p.x);
        d = d.clockwise();
    }
    (p, d)
}

/// Assembles a 16x16 board from four tiles at NW, NE, SE, SW.
pub fn assemble(tiles: [&Tile; 4], variant: TileVariant) -> Board {
    // 16x16 is inside the model's size range.
    let mut board = Board::new(STANDARD_SIDE, STANDARD_SIDE).expect("16x16 is a valid size");
    for (tile, quadrant) in tiles.into_iter().zip(Quadrant::ALL) {
        let vortex_cells: Vec<Pos> = tile
            .targets
            .iter()
            .filter(|t| t.color == TargetColor::Any)
            .map(|t| t.pos)
            .collect();
        for &(pos, dir) in &tile.walls {
            if variant == TileVariant::Fogleman && vortex_cells.contains(&pos) {
                continue;
            }
            let (p, d) = place(pos, dir, quadrant);
            // Tile positions are 0..8, so placed positions are on the 16x16 board.
            board
                .set_wall(p, d, true)
                .expect("tile walls lie on the board");
        }
        for target in &tile.targets {
            if variant == TileVariant::Fogleman && target.color == TargetColor::Any {
                continue;
            }
            let (p, _) = place(target.pos, Direction::North, quadrant);
            board
                .set_target(Target { pos: p, ..*target })
                .expect("tile targets lie on the board");
        }
        let (centre, _) = place(
            Pos::new(TILE_SIDE - 1, TILE_SIDE - 1),
            Direction::North,
            quadrant,
        );
        board
            .set_closed(centre, true)
            .expect("the centre lies on the board");
    }
    board
}

/// Assembles the board of four tile ids (NW, NE, SE, SW).
pub fn assemble_ids(ids: [u8; 4], variant: TileVariant) -> Result<Board, ModelError> {
    let mut tiles = Vec::with_capacity(4);
    for id in ids {
        tiles.push(tile_by_id(id).ok_or(ModelError::UnknownTile(id))?);
    }
    Ok(assemble([tiles[0], tiles[1], tiles[2], tiles[3]], variant))
}

/// Finds the tile ids (NW, NE, SE, SW) that assemble exactly this board, if it is a real
/// standard board.
pub fn identify_tiles(board: &Board) -> Option<[u8; 4]> {
    if board.width() != STANDARD_SIDE || board.height() != STANDARD_SIDE {
        return None;
    }
    // Per quadrant, the tiles whose every wall and target is on the board; usually one.
    let mut candidates: Vec<Vec<&Tile>> = Vec::new();
    for quadrant in Quadrant::ALL {
        let fits: Vec<&Tile> = tiles()
            .iter()
            .filter(|tile| {
                tile.walls.iter().all(|&(pos, dir)| {
                    let (p, d) = place(pos, dir, quadrant);
                    board.has_wall(board.cell(p), d)
                }) && tile.targets.iter().all(|t| {
                    let (p, _) = place(t.pos, Direction::North, quadrant);
                    board
                        .target_at(p)
                        .is_some_and(|b| b.color == t.color && b.shape == t.shape)
                })
            })
            .collect();
        candidates.push(fits);
    }
    for nw in &candidates[0] {
        for ne in &candidates[1] {
            for se in &candidates[2] {
                for sw in &candidates[3] {
                    let tiles = [*nw, *ne, *se, *sw];
                    if assemble(tiles, TileVariant::Real) == *board {
                        return Some(tiles.map(|t| t.id));
                    }
                }
            }
        }
    }
    None
}

/// Deals a standard board as the game does: one tile of each colour group, each on a random
/// side, in a random arrangement. Returns the tile ids (NW, NE, SE, SW) and the board.
pub fn random_board(rng: &mut impl Rng) -> ([u8; 4], Board) {
    let mut groups = [1u8, 2, 3, 4];
    groups.shuffle(rng);
    let ids = groups.map(|group| {
        let sides: Vec<&Tile> = tiles().iter().filter(|t| t.group == group).collect();
        sides[rng.random_range(0..sides.len())].id
    });
    let board = assemble_ids(ids, TileVariant::Real).expect("dealt ids are real tiles");
    (ids, board)
}

/// Places robots of the given colours at random: never on a target, a closed cell or another
/// robot. Fails when the board has too few free cells.
pub fn random_robots(
    board: &Board,
    colors: &[RobotColor],
    rng: &mut impl Rng,
) -> Result<Vec<Robot>, ModelError> {
    let mut free: Vec<Pos> = (0..board.cell_count() as u16)
        .map(|c| board.pos(c))
        .filter(|&p| !board.is_closed(board.cell(p)) && board.target_at(p).is_none())
        .collect();
    if free.len() < colors.len() {
        return Err(ModelError::NoRoom {
            robots: colors.len(),
            free: free.len(),
        });
    }
    free.shuffle(rng);
    Ok(colors
        .iter()
        .zip(free)
        .map(|(&color, pos)| Robot { color, pos })
        .collect())
}

/// Picks a random printed target that one of the robots can take (a robot's colour, or the
/// vortex). Returns `None` when the board has no such target.
pub fn random_goal(board: &Board, robots: &[Robot], rng: &mut impl Rng) -> Option<Goal> {
    let usable: Vec<&Target> = board
        .targets()
        .iter()
        .filter(|t| match t.color.robot() {
            Some(color) => robots.iter().any(|r| r.color == color),
            None => true,
        })
        .collect();
    if usable.is_empty() {
        return None;
    }
    let target = usable[rng.random_range(0..usable.len())];
    Some(Goal {
        pos: target.pos,
        color: target.color,
    })
}

/// A reproducible random standard game: board, `robot_count` robots (red, green, blue, yellow,
/// then silver) and target, all from one seed.
pub fn random_game(seed: u64, robot_count: usize) -> Result<(Puzzle, [u8; 4]), ModelError> {
    if !(1..=RobotColor::ALL.len()).contains(&robot_count) {
        return Err(ModelError::RobotCount(robot_count));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (ids, board) = random_board(&mut rng);
    let robots = random_robots(&board, &RobotColor::ALL[..robot_count], &mut rng)?;
    let goal = random_goal(&board, &robots, &mut rng).ok_or(ModelError::NoTarget)?;
    Ok((Puzzle::new(board, robots, goal, Rules::default())?, ids))
}

/// A reproducible random game on a given board: robots and a target from `seed`.
pub fn random_game_on(board: &Board, seed: u64, robot_count: usize) -> Result<Puzzle, ModelError> {
    if !(1..=RobotColor::ALL.len()).contains(&robot_count) {
        return Err(ModelError::RobotCount(robot_count));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let robots = random_robots(board, &RobotColor::ALL[..robot_count], &mut rng)?;
    let goal = random_goal(board, &robots, &mut rng).ok_or(ModelError::NoTarget)?;
    Puzzle::new(board.clone(), robots, goal, Rules::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The wall masks of Fogleman's board from the reference puzzle notes.
    const FOGLEMAN_MASKS: &str = "
 9  1  1  3  9  1  1  1  1  3  9  1  1  1  5  3
 8  0  0  0  0  2 12  0  0  0  0  0  0  2  9  2
 8  4  0  0  0  0  1  0  0  0  2 12  0  0  0  2
 8  3  8  0  0  4  0  0  0  0  0  1  0  0  0  6
 8  0  0  0  2  9  0  0  0  0  0  0  0  0  0  3
 8  0  6  8  0  0  0  0  0  0  0  0  0  0  0  2
12  0  1  0  0  0  0  4  4  0  4  0  0  6  8  2
 9  0  0  0  0  0  2  9  3  8  3  8  0  1  0  2
 8  0  0  4  0  0  2 12  6  8  0  0  0  0  4  2
 8  0  0  3  8  0  0  1  1  0  0  0  0  2  9  2
 8  0  0  0  0  0  0  0  0  0  2 12  0  0  0  6
10 12  0  0  0  0  0  0  0  4  0  1  0  0  0  3
 8  1  0  0  0  0  6  8  0  3  8  0  0  0  0  2
12  0  4  0  0  0  1  0  0  0  0  0  0  0  0  2
 9  2  9  0  0  0  0  0  0  0  0  0  0  6  8  2
12  4  4  4  4  6 12  4  4  4  6 12  4  5  4  6";

    #[test]
    fn sixteen_tiles_parse_four_per_group() {
        let tiles = tiles();
        assert_eq!(tiles.len(), 16);
        for group in 1..=4 {
            assert_eq!(tiles.iter().filter(|t| t.group == group).count(), 4);
        }
        assert!(tiles.iter().all(|t| t.targets.len() >= 4));
    }

    #[test]
    fn fogleman_variant_matches_the_decks_wall_masks() {
        let board = assemble_ids([3, 6, 5, 0], TileVariant::Fogleman).unwrap();
        let masks: Vec<u8> = FOGLEMAN_MASKS
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        // The deck leaves out the walls between the four closed centre cells, which no robot
        // can reach either way; every other cell must match.
        for cell in (0..256u16).filter(|&c| !board.is_closed(c)) {
            assert_eq!(
                board.wall_mask(cell),
                masks[usize::from(cell)],
                "cell {}",
                board.pos(cell)
            );
        }
        assert_eq!(board.closed_cells().len(), 4);
    }

    #[test]
    fn assembled_real_boards_are_identified() {
        for ids in [[3, 6, 5, 0], [7, 6, 5, 0], [0, 7, 6, 5], [8, 13, 14, 3]] {
            let board = assemble_ids(ids, TileVariant::Real).unwrap();
            assert_eq!(identify_tiles(&board), Some(ids));
        }
        let variant = assemble_ids([3, 6, 5, 0], TileVariant::Fogleman).unwrap();
        assert_eq!(identify_tiles(&variant), None);
    }

    #[test]
    fn random_games_are_reproducible_and_valid() {
        let (a, ids_a) = random_game(7, 4).unwrap();
        let (b, ids_b) = random_game(7, 4).unwrap();
        assert_eq!(a, b);
        assert_eq!(ids_a, ids_b);
        let groups: Vec<u8> = ids_a
            .iter()
            .map(|&id| tile_by_id(id).unwrap().group)
            .collect();
        let mut sorted = groups.clone();
        sorted.sort();
        assert_eq!(sorted, vec![1, 2, 3, 4]);
        for robot in a.robots() {
            assert!(a.board().target_at(robot.pos).is_none());
        }
        assert_eq!(random_game(8, 5).unwrap().0.robots().len(), 5);
    }
}
