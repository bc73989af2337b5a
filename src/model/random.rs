//! Random custom boards of any size, for tests, benchmarks and the editor: walls, targets,
//! robots and an active target, all from one seed.

use super::ModelError;
use super::board::{Board, RobotColor, Shape, Target, TargetColor};
use super::geometry::{Direction, Pos};
use super::puzzle::{Puzzle, Rules};
use super::tiles::{random_goal, random_robots};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A reproducible random puzzle on a `width x height` board: about one interior wall per
/// `wall_every` cells (each on a random side of a random cell), one target per robot colour
/// plus the vortex on random open cells, `robot_count` robots (red, green, blue, yellow, then
/// silver) away from targets and a random target they can take.
pub fn random_puzzle(
    width: u16,
    height: u16,
    robot_count: usize,
    wall_every: usize,
    seed: u64,
) -> Result<Puzzle, ModelError> {
    if !(1..=RobotColor::ALL.len()).contains(&robot_count) {
        return Err(ModelError::RobotCount(robot_count));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut board = Board::new(width, height)?;
    let cells = board.cell_count();
    let walls = cells / wall_every.max(1);
    for _ in 0..walls {
        let pos = Pos::new(rng.random_range(0..width), rng.random_range(0..height));
        let dir = Direction::ALL[rng.random_range(0..4)];
        // Walls on the border are already there; set_wall accepts them.
        board.set_wall(pos, dir, true)?;
    }
    let shapes = [
        Shape::Circle,
        Shape::Triangle,
        Shape::Square,
        Shape::Hexagon,
    ];
    for (i, color) in TargetColor::ALL.into_iter().enumerate() {
        if board.targets().len() + robot_count >= cells {
            break;
        }
        let pos = loop {
            let pos = Pos::new(rng.random_range(0..width), rng.random_range(0..height));
            if board.target_at(pos).is_none() {
                break pos;
            }
        };
        let shape = if color == TargetColor::Any {
            Shape::Vortex
        } else {
            shapes[i % shapes.len()]
        };
        board.set_target(Target { pos, color, shape })?;
    }
    let robots = random_robots(&board, &RobotColor::ALL[..robot_count], &mut rng)?;
    let goal = random_goal(&board, &robots, &mut rng).ok_or(ModelError::NoTarget)?;
    Puzzle::new(board, robots, goal, Rules::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_custom_puzzles_are_reproducible_and_valid() {
        for seed in 0..50 {
            let width = 1 + (seed % 12) as u16;
            let height = 2 + (seed % 7) as u16;
            let robots = 1 + (seed as usize % 5).min(usize::from(width * height) - 2);
            let a = random_puzzle(width, height, robots.min(3), 4, seed);
            let b = random_puzzle(width, height, robots.min(3), 4, seed);
            assert_eq!(a, b);
        }
        let puzzle = random_puzzle(6, 6, 3, 4, 9).unwrap();
        assert_eq!(puzzle.board().width(), 6);
        assert_eq!(puzzle.robots().len(), 3);
    }
}
