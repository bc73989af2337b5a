//! Puzzles built in code: the deck's puzzle (the app's embedded default) and small boards.

use super::board::{RobotColor, TargetColor};
use super::geometry::Pos;
use super::puzzle::{Goal, Puzzle, Robot, Rules};
use super::tiles::{TileVariant, assemble_ids};

/// The deck's 22-move puzzle: Fogleman's variant of tiles 4A, 3B, 2B, 1A (no vortex), red
/// (12,1), green (1,15), blue (15,0), yellow (12,0), blue triangle target at (9,12).
pub fn fogleman_22() -> Puzzle {
    // Tile ids 0..16 exist and the positions below are open, distinct cells of that board,
    // which the unit test below checks.
    let board = assemble_ids([3, 6, 5, 0], TileVariant::Fogleman).expect("tiles 4A 3B 2B 1A exist");
    let robots = vec![
        Robot {
            color: RobotColor::Red,
            pos: Pos::new(12, 1),
        },
        Robot {
            color: RobotColor::Green,
            pos: Pos::new(1, 15),
        },
        Robot {
            color: RobotColor::Blue,
            pos: Pos::new(15, 0),
        },
        Robot {
            color: RobotColor::Yellow,
            pos: Pos::new(12, 0),
        },
    ];
    let goal = Goal {
        pos: Pos::new(9, 12),
        color: TargetColor::Blue,
    };
    Puzzle::new(board, robots, goal, Rules::default()).expect("the deck's puzzle is valid")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::moves::parse_moves;

    #[test]
    fn foglemans_solution_replays_on_his_puzzle() {
        let moves = parse_moves(
            "BS, BW, BN, BE, BS, BE, GN, GE, BS, RS, RW, RN, BE, BS, BW, YS, YW, YN, YW, YS, BE, BN",
        )
        .unwrap();
        assert_eq!(moves.len(), 22);
        fogleman_22().replay(&moves).unwrap();
    }

    #[test]
    fn shipped_deck_puzzle_file_matches_the_code() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/boards/fogleman-22.ron");
        let text = crate::model::formats::native::write(&fogleman_22());
        if std::env::var_os("RICOCHET_BLESS").is_some() {
            std::fs::write(path, &text).unwrap();
        }
        assert_eq!(std::fs::read_to_string(path).unwrap(), text);
    }
}
